//! Validators for answers that change only when the content does: an ETag, `Cache-Control`,
//! and 304 to a request that already holds the version.

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

/// Article API answers: shared caches may keep them a few minutes, then revalidate.
pub const API_CACHE_CONTROL: &str = "public, max-age=300";
/// Pages show votes that change at any time: always revalidate (a 304 costs little).
pub const PAGE_CACHE_CONTROL: &str = "no-cache";

/// A strong ETag naming everything the answer is made of; the build's version is in it, so
/// a new release (other templates or messages) never matches an old tag.
pub fn etag(parts: &[&str]) -> HeaderValue {
    let mut hasher = Sha256::new();
    hasher.update(env!("CARGO_PKG_VERSION").as_bytes());
    for part in parts {
        hasher.update([0]);
        hasher.update(part.as_bytes());
    }
    let digest = hasher.finalize();
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    HeaderValue::from_str(&format!("\"{hex}\"")).unwrap_or(HeaderValue::from_static("\"0\""))
}

/// Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 asks for GET).
pub fn matches(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let Ok(own) = etag.to_str() else {
        return false;
    };
    let own = own.trim_start_matches("W/");
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || tag.trim_start_matches("W/") == own)
}

/// `304 Not Modified` with the validators a 200 would have carried.
pub fn not_modified(etag: HeaderValue, cache_control: &'static str) -> Response {
    with_validators(
        StatusCode::NOT_MODIFIED.into_response(),
        etag,
        cache_control,
    )
}

pub fn with_validators(
    mut response: Response,
    etag: HeaderValue,
    cache_control: &'static str,
) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::ETAG, etag);
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache_control),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_is_compared_weakly_and_as_a_list() {
        let tag = etag(&["abc", "fr"]);
        let mut headers = HeaderMap::new();
        assert!(!matches(&headers, &tag));
        let listed = format!("\"other\", W/{}", tag.to_str().unwrap());
        headers.insert(header::IF_NONE_MATCH, listed.parse().unwrap());
        assert!(matches(&headers, &tag));
        headers.insert(header::IF_NONE_MATCH, HeaderValue::from_static("\"x\""));
        assert!(!matches(&headers, &tag));
        assert_ne!(tag, etag(&["abc", "ar"]), "the language is part of the tag");
    }
}
