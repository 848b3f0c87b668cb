//! Extractors whose rejections speak the API's error format instead of axum's plain text.

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use super::error::{ApiError, Code};

/// `Json<T>` with JSON errors: 400 `invalid_json`, 415 `unsupported_media_type`,
/// 413 `payload_too_large`, 422 `invalid_field`.
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(request, state).await {
            Ok(axum::Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    let detail = rejection.body_text();
    match rejection {
        JsonRejection::MissingJsonContentType(_) => not_json(),
        JsonRejection::JsonSyntaxError(_) => ApiError::new(Code::InvalidJson, detail),
        JsonRejection::JsonDataError(_) => ApiError::new(Code::InvalidField, detail),
        JsonRejection::BytesRejection(_) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            too_large()
        }
        _ => ApiError::new(Code::InvalidRequest, detail),
    }
}

/// `Query<T>` with a JSON 400 `invalid_query` on a malformed query string.
pub struct ApiQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(ApiQuery(value)),
            Err(rejection) => Err(query_rejection(rejection)),
        }
    }
}

fn query_rejection(rejection: QueryRejection) -> ApiError {
    ApiError::new(Code::InvalidQuery, rejection.body_text())
}

/// The raw body, for handlers that read JSON field by field; a body over the limit is a JSON
/// 413 `payload_too_large` like everywhere else.
pub struct ApiBytes(pub Bytes);

impl<S> FromRequest<S> for ApiBytes
where
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        Bytes::from_request(request, state)
            .await
            .map(ApiBytes)
            .map_err(bytes_rejection)
    }
}

fn bytes_rejection(rejection: BytesRejection) -> ApiError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        too_large()
    } else {
        ApiError::new(Code::InvalidRequest, rejection.body_text())
    }
}

fn too_large() -> ApiError {
    ApiError::new(
        Code::PayloadTooLarge,
        format!(
            "the request body is larger than {} bytes",
            super::MAX_BODY_BYTES
        ),
    )
}

/// A JSON endpoint got a body that is not declared JSON.
pub fn not_json() -> ApiError {
    ApiError::new(
        Code::UnsupportedMediaType,
        "send the body as JSON with `Content-Type: application/json`",
    )
}
