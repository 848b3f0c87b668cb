use axum::http::HeaderMap;
use axum::http::header::ACCEPT_LANGUAGE;

use super::error::ApiError;
use crate::i18n::Lang;

/// A language named in a path: one ilaj has no articles in is not there (404).
pub fn path_lang(code: &str) -> Result<Lang, ApiError> {
    code.parse().map_err(|_: crate::i18n::UnsupportedLanguage| {
        let code: String = code.chars().take(16).collect();
        ApiError::not_found(format!(
            "no articles in `{code}`: ilaj has them in ar, hi, fr and en"
        ))
    })
}

/// The language a request asks for: an explicit parameter wins (and must be supported), then
/// `Accept-Language`, then English.
pub fn requested_lang(
    explicit: Option<&str>,
    accept_language: Option<&str>,
) -> Result<Lang, ApiError> {
    if let Some(code) = explicit.filter(|c| !c.trim().is_empty()) {
        return Ok(code.parse()?);
    }
    Ok(accept_language
        .and_then(Lang::from_accept_language)
        .unwrap_or(Lang::En))
}

/// The `Accept-Language` header, when it is text.
pub fn accept_language(headers: &HeaderMap) -> Option<&str> {
    headers.get(ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok())
}
