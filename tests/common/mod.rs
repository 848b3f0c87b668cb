//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use ilaj::content::{self, LoadReport};
use ilaj::web::{self, AppState};
use tower::ServiceExt;

pub fn repo_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// `../shared/…`, beside the repository (as CI lays it out).
pub fn shared_path(relative: &str) -> PathBuf {
    repo_path("../shared").join(relative)
}

pub fn load(dir: &Path) -> LoadReport {
    content::load_dir(dir).unwrap_or_else(|e| panic!("loading {}: {e}", dir.display()))
}

pub fn router_for(dir: &Path) -> Router {
    web::router(AppState::new(load(dir).library).expect("index builds"))
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "body is not JSON ({e}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

pub async fn send(router: &Router, request: Request<Body>) -> Reply {
    let response = router
        .clone()
        .oneshot(request)
        .await
        .expect("router is infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let body = response
        .into_body()
        .collect()
        .await
        .expect("body collects")
        .to_bytes()
        .to_vec();
    Reply {
        status,
        headers,
        body,
    }
}

pub async fn get(router: &Router, uri: &str) -> Reply {
    send(
        router,
        Request::get(uri)
            .body(Body::empty())
            .expect("valid request"),
    )
    .await
}

pub async fn post_json(router: &Router, uri: &str, body: &serde_json::Value) -> Reply {
    send(
        router,
        Request::post(uri)
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .expect("valid request"),
    )
    .await
}

/// Copies every file of `from` into a fresh temporary folder, so a test can add broken ones.
pub fn copy_to_temp(from: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for entry in std::fs::read_dir(from).expect("readable folder") {
        let entry = entry.expect("entry");
        if entry.file_type().expect("type").is_file() {
            std::fs::copy(entry.path(), dir.path().join(entry.file_name())).expect("copy");
        }
    }
    dir
}

/// A POST with any content type and raw body (for malformed-input tests).
pub async fn post_raw(router: &Router, uri: &str, content_type: &str, body: &str) -> Reply {
    send(
        router,
        Request::post(uri)
            .header("content-type", content_type)
            .body(Body::from(body.to_owned()))
            .expect("valid request"),
    )
    .await
}

/// A POST of an HTML form (`application/x-www-form-urlencoded`), as a browser sends it.
pub async fn post_form(router: &Router, uri: &str, fields: &[(&str, &str)]) -> Reply {
    let body = serde_urlencoded::to_string(fields).expect("encodable form");
    post_raw(router, uri, "application/x-www-form-urlencoded", &body).await
}

/// A GET with extra request headers (cookies, Accept-Language).
pub async fn get_with(router: &Router, uri: &str, headers: &[(&str, &str)]) -> Reply {
    let mut request = Request::get(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    send(router, request.body(Body::empty()).expect("valid request")).await
}
