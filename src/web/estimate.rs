//! `POST /api/v1/estimate` and `GET|POST /api/v1/allocation`: the estimator over HTTP. The
//! input types and their parsing (JSON or query pairs, errors naming their field) are the
//! estimator's; this module only checks the media type and maps errors to the API's codes.

use axum::Json;
use axum::extract::RawQuery;
use axum::http::{HeaderMap, header};

use super::error::{ApiError, Code};
use super::extract::ApiBytes;
use crate::estimator::{
    self, AllocationAnswer, AllocationInput, BodyError, Estimate, EstimateInput,
};

pub async fn estimate(
    headers: HeaderMap,
    ApiBytes(body): ApiBytes,
) -> Result<Json<Estimate>, ApiError> {
    require_json(&headers)?;
    Ok(Json(estimate_json(&body)?))
}

/// A JSON body (or MCP arguments) as an estimate: every field checked and named on error.
pub fn estimate_json(body: &[u8]) -> Result<Estimate, ApiError> {
    let input: EstimateInput = parse_json(body)?;
    Ok(estimator::estimate(&input)?)
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
    parse_json(body)
}

/// 415 unless the body is declared JSON.
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
    if !is_json {
        return Err(super::extract::not_json());
    }
    Ok(())
}

/// 400 unless the body parses, 422 unless it is an object of known, well-typed fields.
fn parse_json<T>(body: &[u8]) -> Result<T, ApiError>
where
    T: serde::de::DeserializeOwned + serde::Serialize + Default,
{
    estimator::from_json(body).map_err(|error| match error {
        BodyError::NotJson(_) => ApiError::new(Code::InvalidJson, error.to_string()),
        BodyError::NotAnObject => ApiError::new(Code::InvalidBody, error.to_string()),
        BodyError::Field(invalid) => invalid.into(),
    })
}
