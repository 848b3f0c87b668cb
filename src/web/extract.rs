//! Extractors whose rejections speak the API's error format instead of axum's plain text.

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use super::error::ApiError;

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
        JsonRejection::MissingJsonContentType(_) => ApiError::invalid(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "send the body as JSON with `Content-Type: application/json`",
        ),
        JsonRejection::JsonSyntaxError(_) => {
            ApiError::invalid(StatusCode::BAD_REQUEST, "invalid_json", detail)
        }
        JsonRejection::JsonDataError(_) => {
            ApiError::invalid(StatusCode::UNPROCESSABLE_ENTITY, "invalid_field", detail)
        }
        JsonRejection::BytesRejection(_) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::invalid(
                StatusCode::PAYLOAD_TOO_LARGE,
                "payload_too_large",
                format!(
                    "the request body is larger than {} bytes",
                    super::MAX_BODY_BYTES
                ),
            )
        }
        _ => ApiError::invalid(StatusCode::BAD_REQUEST, "invalid_request", detail),
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
    ApiError::invalid(
        StatusCode::BAD_REQUEST,
        "invalid_query",
        rejection.body_text(),
    )
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
        ApiError::invalid(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            rejection.body_text(),
        )
    }
}

fn too_large() -> ApiError {
    ApiError::invalid(
        StatusCode::PAYLOAD_TOO_LARGE,
        "payload_too_large",
        format!(
            "the request body is larger than {} bytes",
            super::MAX_BODY_BYTES
        ),
    )
}
