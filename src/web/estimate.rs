//! `POST /api/v1/estimate` and `GET|POST /api/v1/allocation`: the estimator over HTTP. The
//! input types and their parsing (JSON or query pairs, errors naming their field) are the
//! estimator's; this module only checks the media type and maps errors to the API's codes.

use axum::Json;
use axum::extract::RawQuery;
use axum::http::{HeaderMap, header};

use super::error::{ApiError, Code};
use super::extract::ApiBytes;
use crate::estimator::{self, AllocationAnswer, AllocationInput, BodyError, EstimateAnswer};

/// nanoGPT's estimator, or the transformer estimator when the body names a `model` or
/// gives a `config`.
pub async fn estimate(
    headers: HeaderMap,
    ApiBytes(body): ApiBytes,
) -> Result<Json<EstimateAnswer>, ApiError> {
    require_json(&headers)?;
    estimate_json(&body).map(Json)
}

/// A JSON body (or MCP arguments) as an estimate: every field checked and named on error.
pub fn estimate_json(body: &[u8]) -> Result<EstimateAnswer, ApiError> {
    estimator::estimate_json(body).map_err(body_error)
}

/// `GET /api/v1/models`: the preset models with their parameter counts and config fields.
pub async fn models() -> Json<serde_json::Value> {
    let models: Vec<serde_json::Value> = estimator::llm::presets()
        .iter()
        .map(|p| {
            serde_json::json!({
                "id": p.id, "name": p.name, "parameters": p.parameters,
                "source": p.source, "config": p.config,
            })
        })
        .collect();
    Json(serde_json::json!({ "models": models }))
}

/// `GET /api/v1/allocation?…`: the same fields as the JSON body, as query parameters.
pub async fn allocation_get(RawQuery(query): RawQuery) -> Result<Json<AllocationAnswer>, ApiError> {
    let query = query.unwrap_or_default();
    let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    let input: AllocationInput =
        estimator::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))?;
    Ok(Json(input.answer()?))
}

pub async fn allocation_post(
    headers: HeaderMap,
    ApiBytes(body): ApiBytes,
) -> Result<Json<AllocationAnswer>, ApiError> {
    let input: AllocationInput = json_body(&headers, &body)?;
    Ok(Json(input.answer()?))
}

/// The body as the input type: 415 unless it is declared JSON, 400 unless it parses, 422
/// unless it is an object of known, well-typed fields.
fn json_body<T>(headers: &HeaderMap, body: &[u8]) -> Result<T, ApiError>
where
    T: serde::de::DeserializeOwned + serde::Serialize + Default,
{
    require_json(headers)?;
    estimator::from_json(body).map_err(body_error)
}

fn body_error(error: BodyError) -> ApiError {
    match error {
        BodyError::NotJson(_) => ApiError::new(Code::InvalidJson, error.to_string()),
        BodyError::NotAnObject => ApiError::new(Code::InvalidBody, error.to_string()),
        BodyError::Field(invalid) => invalid.into(),
    }
}

fn require_json(headers: &HeaderMap) -> Result<(), ApiError> {
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| {
            let mime = mime.trim().to_ascii_lowercase();
            mime == "application/json"
                || (mime.starts_with("application/") && mime.ends_with("+json"))
        });
    if is_json {
        Ok(())
    } else {
        Err(super::extract::not_json())
    }
}
