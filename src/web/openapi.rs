//! `GET /api/v1/openapi.json`: the API description.
//!
//! The document is written by hand in `openapi.yaml` rather than derived from the Rust types
//! (utoipa): the API is a contract (CONTRACT.md) that outside clients rely on, its
//! types live in several modules written in parallel, and a document kept beside the code
//! reads as the contract does. Tests keep the two honest: every `/api` route must be
//! described, every example must match its schema, and schemathesis checks live responses
//! against the schemas in CI.

use std::sync::LazyLock;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::error::ApiError;

/// The document as written.
pub const SOURCE: &str = include_str!("openapi.yaml");

/// The document as JSON, converted once.
static JSON: LazyLock<Result<Vec<u8>, String>> = LazyLock::new(|| {
    let value: serde_json::Value =
        serde_norway::from_str(SOURCE).map_err(|e| format!("openapi.yaml: {e}"))?;
    serde_json::to_vec(&value).map_err(|e| e.to_string())
});

/// The document as a JSON value (for tests and tools).
pub fn document() -> Result<serde_json::Value, String> {
    let bytes = JSON.as_ref().map_err(Clone::clone)?;
    serde_json::from_slice(bytes).map_err(|e| e.to_string())
}

pub async fn serve() -> Response {
    match JSON.as_ref() {
        Ok(bytes) => (
            StatusCode::OK,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            bytes.clone(),
        )
            .into_response(),
        Err(cause) => ApiError::internal(cause.clone()).into_response(),
    }
}
