//! API keys for chatbots: `ilaj_` and 64 hex digits (32 random bytes). Only the SHA-256 of a
//! key is stored, so a copy of the database lets nobody call the API; the key itself is shown
//! once, when created.

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::{DbError, Store, now_ms};

pub const KEY_PREFIX: &str = "ilaj_";
pub const MAX_NAME_CHARS: usize = 64;
/// `last_used_at` is written at most this often per key, so a busy bot does not turn every
/// request into a database write.
pub const TOUCH_INTERVAL_MS: i64 = 60_000;

/// A stored key (never the key itself).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ApiKey {
    pub id: i64,
    pub name: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
    pub revoked_at: Option<i64>,
}

impl ApiKey {
    pub fn is_revoked(&self) -> bool {
        self.revoked_at.is_some()
    }
}

/// What a presented key turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyCheck {
    Valid(ApiKey),
    Revoked,
    Unknown,
}

/// SHA-256 of the key, in hex. Keys carry 256 random bits, so a plain hash (no salt, no
/// stretching) cannot be reversed by guessing.
pub fn hash(key: &str) -> String {
    hex(&Sha256::digest(key.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// A fresh key.
pub fn generate() -> Result<String, DbError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| DbError::Random(e.to_string()))?;
    Ok(format!("{KEY_PREFIX}{}", hex(&bytes)))
}

/// Names are what `ilaj keys revoke NAME` takes: printable, at most 64 characters, not all
/// digits (a number names a key by id).
pub fn validate_name(name: &str) -> Result<&str, DbError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(DbError::InvalidKeyName("the name is empty".into()));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(DbError::InvalidKeyName(format!(
            "at most {MAX_NAME_CHARS} characters"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(DbError::InvalidKeyName(
            "control characters are not allowed".into(),
        ));
    }
    if name.chars().all(|c| c.is_ascii_digit()) {
        return Err(DbError::InvalidKeyName(
            "a name made of digits only would be read as an id".into(),
        ));
    }
    Ok(name)
}

/// Creates a key named `name`; returns the stored record and the key, which is never
/// retrievable again.
pub async fn create(store: &dyn Store, name: &str) -> Result<(ApiKey, String), DbError> {
    let name = validate_name(name)?;
    let key = generate()?;
    let record = store.insert_api_key(name, &hash(&key), now_ms()).await?;
    Ok((record, key))
}

/// Revokes the key with this id (if `name_or_id` is a number) or this name. `None` when there
/// is no such key.
pub async fn revoke(store: &dyn Store, name_or_id: &str) -> Result<Option<ApiKey>, DbError> {
    let target = name_or_id.trim();
    let id = match target.parse::<i64>() {
        Ok(id) => Some(id),
        Err(_) => store.api_key_by_name(target).await?.map(|k| k.id),
    };
    match id {
        Some(id) => store.revoke_api_key(id, now_ms()).await,
        None => Ok(None),
    }
}

/// Looks a presented key up, and records that it was used (at most once a minute).
pub async fn check(store: &dyn Store, presented: &str) -> Result<KeyCheck, DbError> {
    if !presented.starts_with(KEY_PREFIX) {
        return Ok(KeyCheck::Unknown);
    }
    let Some(key) = store.api_key_by_hash(&hash(presented)).await? else {
        return Ok(KeyCheck::Unknown);
    };
    if key.is_revoked() {
        return Ok(KeyCheck::Revoked);
    }
    let now = now_ms();
    if key
        .last_used_at
        .is_none_or(|used| now - used >= TOUCH_INTERVAL_MS)
    {
        store.touch_api_key(key.id, now).await?;
    }
    Ok(KeyCheck::Valid(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_prefixed_random_hex() {
        let a = generate().unwrap();
        let b = generate().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.len(), KEY_PREFIX.len() + 64);
        assert!(a[KEY_PREFIX.len()..].bytes().all(|c| c.is_ascii_hexdigit()));
    }

    #[test]
    fn the_hash_is_sha256_hex() {
        assert_eq!(
            hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn names_must_be_printable_short_and_not_a_number() {
        assert_eq!(validate_name("  support-bot ").unwrap(), "support-bot");
        assert!(validate_name("").is_err());
        assert!(validate_name("42").is_err());
        assert!(validate_name("a\nb").is_err());
        assert!(validate_name(&"x".repeat(65)).is_err());
        assert!(validate_name("بوت الدعم").is_ok());
    }
}
