use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A language ilaj serves. Articles exist in `ar`, `hi` and `fr`; `en` is the interface
/// fallback and may hold articles too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Ar,
    Hi,
    Fr,
    En,
}

impl Lang {
    pub const ALL: [Lang; 4] = [Lang::Ar, Lang::Hi, Lang::Fr, Lang::En];
    /// Every article group must exist in these.
    pub const REQUIRED: [Lang; 3] = [Lang::Ar, Lang::Hi, Lang::Fr];

    pub fn code(self) -> &'static str {
        match self {
            Lang::Ar => "ar",
            Lang::Hi => "hi",
            Lang::Fr => "fr",
            Lang::En => "en",
        }
    }

    pub fn is_rtl(self) -> bool {
        matches!(self, Lang::Ar)
    }

    /// Picks the first supported language of an `Accept-Language` header, by q-value.
    pub fn from_accept_language(header: &str) -> Option<Lang> {
        let mut candidates: Vec<(f32, usize, Lang)> = header
            .split(',')
            .enumerate()
            .filter_map(|(position, item)| {
                let mut parts = item.trim().split(';');
                let tag = parts.next()?.trim();
                let primary = tag.split(['-', '_']).next()?.to_ascii_lowercase();
                let lang = primary.parse::<Lang>().ok()?;
                let q = parts
                    .find_map(|p| p.trim().strip_prefix("q=").map(str::to_owned))
                    .and_then(|q| q.parse::<f32>().ok())
                    .unwrap_or(1.0);
                (q > 0.0).then_some((q, position, lang))
            })
            .collect();
        candidates.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        candidates.first().map(|c| c.2)
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unsupported language `{0}` (expected one of ar, hi, fr, en)")]
pub struct UnsupportedLanguage(pub String);

impl FromStr for Lang {
    type Err = UnsupportedLanguage;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ar" => Ok(Lang::Ar),
            "hi" => Ok(Lang::Hi),
            "fr" => Ok(Lang::Fr),
            "en" => Ok(Lang::En),
            _ => Err(UnsupportedLanguage(s.chars().take(32).collect())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_language_prefers_highest_q_then_order() {
        assert_eq!(
            Lang::from_accept_language("de-DE,fr;q=0.8,ar;q=0.9"),
            Some(Lang::Ar)
        );
        assert_eq!(Lang::from_accept_language("hi-IN, fr"), Some(Lang::Hi));
        assert_eq!(Lang::from_accept_language("de, es;q=0.5"), None);
        assert_eq!(Lang::from_accept_language("fr;q=0, en"), Some(Lang::En));
    }

    #[test]
    fn parses_codes_case_insensitively_and_rejects_others() {
        assert_eq!("FR".parse::<Lang>(), Ok(Lang::Fr));
        assert!("de".parse::<Lang>().is_err());
    }
}
