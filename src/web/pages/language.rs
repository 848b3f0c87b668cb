//! `/`: sends the reader to their language — the cookie of their last visit, then the
//! browser's `Accept-Language`, then English.

use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};

use super::{PageLang, preferred_lang, see_other};

pub async fn choose(headers: HeaderMap) -> Response {
    let lang = preferred_lang(&headers);
    let mut response = see_other(&format!("/{}/", lang.code()));
    // Caches must keep one answer per cookie and language header.
    response.headers_mut().insert(
        header::VARY,
        HeaderValue::from_static("Cookie, Accept-Language"),
    );
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-cache"),
    );
    response
}

/// `/fr` → `/fr/`.
pub async fn add_slash(PageLang(lang): PageLang) -> impl IntoResponse {
    see_other(&format!("/{}/", lang.code()))
}
