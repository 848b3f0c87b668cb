//! `POST /api/v1/estimate` and `GET|POST /api/v1/allocation`: the estimator over HTTP.
//!
//! Bodies are read field by field so that every rejection names the field it is about:
//! a JSON body (or a query string) becomes a map, each key is checked against the input
//! type's own field list, each value is deserialized alone, and only then the whole.

use axum::Json;
use axum::extract::Query;
use axum::http::{HeaderMap, StatusCode, header};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

use super::error::ApiError;
use super::extract::ApiBytes;
use super::format::parse_size;
use crate::estimator::{
    AllocationMatch, AllocationQuery, Estimate, EstimateInput, explain_allocation,
};

/// Characters of a serde message kept in an error: enough for "expected one of …".
const MAX_MESSAGE_CHARS: usize = 300;

pub async fn estimate(
    headers: HeaderMap,
    ApiBytes(body): ApiBytes,
) -> Result<Json<Estimate>, ApiError> {
    let fields = json_object(&headers, &body)?;
    Ok(Json(run_estimate(fields)?))
}

/// The estimate for a map of fields (from JSON or a query string).
pub fn run_estimate(fields: Map<String, Value>) -> Result<Estimate, ApiError> {
    let input: EstimateInput = from_fields(fields)?;
    Ok(crate::estimator::estimate(&input)?)
}

/// `GET /api/v1/allocation?…`: the same fields as the JSON body, as query parameters.
pub async fn allocation_get(
    Query(query): Query<BTreeMap<String, String>>,
) -> Result<Json<AllocationAnswer>, ApiError> {
    Ok(Json(run_allocation(query_fields(&query))?))
}

pub async fn allocation_post(
    headers: HeaderMap,
    ApiBytes(body): ApiBytes,
) -> Result<Json<AllocationAnswer>, ApiError> {
    let fields = json_object(&headers, &body)?;
    Ok(Json(run_allocation(fields)?))
}

/// What an out-of-memory message revealed, named as `diagnosis.facts` names it. Sizes are
/// bytes, or text as PyTorch prints them (`"6.14 GiB"`).
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AllocationRequest {
    pub tried_to_allocate_bytes: Option<Size>,
    pub total_capacity_bytes: Option<Size>,
    pub free_bytes: Option<Size>,
    /// Echoed for the bar picture of the calculator; the explainer does not need them.
    pub reserved_unallocated_bytes: Option<Size>,
    pub process_in_use_bytes: Option<Size>,
    pub vocab_size: Option<u64>,
    pub block_size: Option<u64>,
    pub batch_size: Option<u64>,
    pub n_head: Option<u64>,
    pub tolerance_bytes: Option<u64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Size {
    Bytes(u64),
    Text(String),
}

/// The allocation explained: the query as understood, then the tensors it may be.
#[derive(Debug, Serialize)]
pub struct AllocationAnswer {
    pub tried_to_allocate_bytes: u64,
    pub total_capacity_bytes: Option<u64>,
    pub free_bytes: Option<u64>,
    pub reserved_unallocated_bytes: Option<u64>,
    pub process_in_use_bytes: Option<u64>,
    pub vocab_size: Option<u64>,
    pub block_size: Option<u64>,
    pub batch_size: Option<u64>,
    pub n_head: Option<u64>,
    pub matches: Vec<AllocationMatch>,
}

pub fn run_allocation(fields: Map<String, Value>) -> Result<AllocationAnswer, ApiError> {
    let request: AllocationRequest = from_fields(fields)?;
    // PyTorch prints "0 bytes is free": free, reserved-unallocated and in-use figures may be
    // zero; a request or a capacity may not.
    let size = |field: &'static str, value: &Option<Size>| -> Result<Option<u64>, ApiError> {
        let zero_allowed = matches!(
            field,
            "free_bytes" | "reserved_unallocated_bytes" | "process_in_use_bytes"
        );
        match value {
            None => Ok(None),
            Some(Size::Bytes(0)) if zero_allowed => Ok(Some(0)),
            Some(Size::Text(text)) if zero_allowed && parse_size(text) == Some(0) => Ok(Some(0)),
            Some(Size::Bytes(0)) => Err(field_error(
                "out_of_range",
                field,
                format!("{field} must be at least 1 byte"),
            )),
            Some(Size::Bytes(bytes)) => Ok(Some(*bytes)),
            Some(Size::Text(text)) => match parse_size(text) {
                Some(0) | None => Err(field_error(
                    "invalid_field",
                    field,
                    format!("{field}: expected bytes or a size like \"6.14 GiB\""),
                )),
                Some(bytes) => Ok(Some(bytes)),
            },
        }
    };
    let tried =
        size("tried_to_allocate_bytes", &request.tried_to_allocate_bytes)?.ok_or_else(|| {
            field_error(
                "missing_field",
                "tried_to_allocate_bytes",
                "tried_to_allocate_bytes is required".to_owned(),
            )
        })?;
    let total = size("total_capacity_bytes", &request.total_capacity_bytes)?;
    let free = size("free_bytes", &request.free_bytes)?;
    let reserved_unallocated = size(
        "reserved_unallocated_bytes",
        &request.reserved_unallocated_bytes,
    )?;
    let process_in_use = size("process_in_use_bytes", &request.process_in_use_bytes)?;
    for (field, value) in [
        ("vocab_size", request.vocab_size),
        ("block_size", request.block_size),
        ("batch_size", request.batch_size),
        ("n_head", request.n_head),
    ] {
        if value == Some(0) {
            return Err(field_error(
                "out_of_range",
                field,
                format!("{field} must be at least 1"),
            ));
        }
    }
    let query = AllocationQuery {
        bytes: tried,
        tolerance_bytes: request.tolerance_bytes,
        vocab_size: request.vocab_size,
        block_size: request.block_size,
        batch_size: request.batch_size,
        n_head: request.n_head,
        total_bytes: total,
        free_bytes: free,
    };
    Ok(AllocationAnswer {
        tried_to_allocate_bytes: tried,
        total_capacity_bytes: total,
        free_bytes: free,
        reserved_unallocated_bytes: reserved_unallocated,
        process_in_use_bytes: process_in_use,
        vocab_size: request.vocab_size,
        block_size: request.block_size,
        batch_size: request.batch_size,
        n_head: request.n_head,
        matches: explain_allocation(&query),
    })
}

fn field_error(code: &'static str, field: &str, message: String) -> ApiError {
    ApiError::Field {
        code,
        field: field.chars().take(64).collect(),
        message,
    }
}

/// The body as a JSON object: 415 unless it is declared JSON, 400 unless it parses, 422
/// unless it is an object.
pub fn json_object(headers: &HeaderMap, body: &[u8]) -> Result<Map<String, Value>, ApiError> {
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
        return Err(ApiError::invalid(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "send the body as JSON with `Content-Type: application/json`",
        ));
    }
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        ApiError::invalid(
            StatusCode::BAD_REQUEST,
            "invalid_json",
            format!("the body is not valid JSON: {e}"),
        )
    })?;
    match value {
        Value::Object(map) => Ok(map),
        _ => Err(ApiError::invalid(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_body",
            "the body must be a JSON object of fields",
        )),
    }
}

/// Query parameters as JSON values: numbers and booleans where they read as such, empty
/// values left out (an empty form field means "the default").
pub fn query_fields(query: &BTreeMap<String, String>) -> Map<String, Value> {
    query
        .iter()
        .filter(|(_, v)| !v.trim().is_empty())
        .map(|(k, v)| (k.clone(), query_value(v.trim())))
        .collect()
}

fn query_value(text: &str) -> Value {
    if let Ok(n) = text.parse::<u64>() {
        return Value::from(n);
    }
    if let Ok(x) = text.parse::<f64>()
        && let Some(n) = serde_json::Number::from_f64(x)
    {
        return Value::Number(n);
    }
    match text {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => Value::String(text.to_owned()),
    }
}

/// The field names of an input type, read from its serialized default.
pub fn known_fields<T: Serialize + Default>() -> Vec<String> {
    match serde_json::to_value(T::default()) {
        Ok(Value::Object(map)) => map.into_iter().map(|(k, _)| k).collect(),
        _ => Vec::new(),
    }
}

/// Deserializes `T` from a map, naming the first field that is unknown or holds a value of
/// the wrong kind. `T`'s field list is read from its serialized default, so it cannot drift.
pub fn from_fields<T>(fields: Map<String, Value>) -> Result<T, ApiError>
where
    T: DeserializeOwned + Serialize + Default,
{
    let known = match serde_json::to_value(T::default()) {
        Ok(Value::Object(map)) => map,
        _ => return Err(ApiError::Internal("input type is not a struct".to_owned())),
    };
    for (key, value) in &fields {
        if !known.contains_key(key) {
            let mut names: Vec<&str> = known.keys().map(String::as_str).collect();
            names.sort_unstable();
            return Err(field_error(
                "unknown_field",
                key,
                format!(
                    "unknown field `{}`; the fields are: {}",
                    key.chars().take(64).collect::<String>(),
                    names.join(", ")
                ),
            ));
        }
        let single = Map::from_iter([(key.clone(), value.clone())]);
        if let Err(e) = serde_json::from_value::<T>(Value::Object(single)) {
            let detail: String = e.to_string().chars().take(MAX_MESSAGE_CHARS).collect();
            return Err(field_error(
                "invalid_field",
                key,
                format!("{key}: {detail}"),
            ));
        }
    }
    serde_json::from_value(Value::Object(fields)).map_err(|e| {
        ApiError::invalid(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_body",
            e.to_string()
                .chars()
                .take(MAX_MESSAGE_CHARS)
                .collect::<String>(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_become_numbers_booleans_or_text() {
        assert_eq!(query_value("12"), Value::from(12u64));
        assert_eq!(query_value("0.1"), serde_json::json!(0.1));
        assert_eq!(query_value("true"), Value::Bool(true));
        assert_eq!(query_value("amp_bf16"), Value::from("amp_bf16"));
    }

    #[test]
    fn wrong_kind_of_value_names_its_field() {
        let fields = Map::from_iter([
            ("n_layer".to_owned(), Value::from(12u64)),
            ("precision".to_owned(), Value::from("fp8")),
        ]);
        match from_fields::<EstimateInput>(fields) {
            Err(ApiError::Field { code, field, .. }) => {
                assert_eq!((code, field.as_str()), ("invalid_field", "precision"));
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}
