//! Files of `static/`, compiled into the binary and served with a content hash in their
//! URL so browsers may cache them for a year.

use std::sync::LazyLock;

use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

struct Asset {
    name: &'static str,
    content_type: &'static str,
    body: &'static str,
}

const ASSETS: &[Asset] = &[
    Asset {
        name: "app.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("../../../static/app.css"),
    },
    Asset {
        name: "calc.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../../../static/calc.js"),
    },
    Asset {
        name: "icon.svg",
        content_type: "image/svg+xml",
        body: include_str!("../../../static/icon.svg"),
    },
];

/// FNV-1a of each file: stable across builds of the same content, so URLs change exactly
/// when a file does.
static VERSIONS: LazyLock<Vec<String>> = LazyLock::new(|| {
    ASSETS
        .iter()
        .map(|a| {
            let hash = a.body.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            });
            format!("{:08x}", hash >> 32)
        })
        .collect()
});

/// `/static/NAME?v=HASH` for a file of `static/`.
pub fn asset_url(name: &str) -> String {
    match ASSETS.iter().position(|a| a.name == name) {
        Some(i) => format!("/static/{name}?v={}", VERSIONS[i]),
        None => format!("/static/{name}"),
    }
}

pub async fn serve(Path(file): Path<String>) -> Response {
    let Some(asset) = ASSETS.iter().find(|a| a.name == file) else {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    };
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(asset.content_type),
            ),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=31536000, immutable"),
            ),
        ],
        asset.body,
    )
        .into_response()
}
