//! The API's errors: each maps to an HTTP status and a stable snake_case code that clients
//! may rely on (listed in the README). The cause of a 500 is logged, never sent.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    UnsupportedLanguage(String),
    /// A request the server understood but cannot accept; `code` names what is wrong.
    #[error("{message}")]
    Invalid {
        status: StatusCode,
        code: &'static str,
        message: String,
    },
    /// One field of a request body is wrong: 422 with the field's name beside the code.
    #[error("{message}")]
    Field {
        code: &'static str,
        field: String,
        message: String,
    },
    /// The database could not be reached or refused the work; the cause is logged.
    #[error("the database is unavailable; try again later")]
    StorageUnavailable(String),
    #[error("internal error")]
    Internal(String),
}

impl ApiError {
    pub fn invalid(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError::Invalid {
            status,
            code,
            message: message.into(),
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::NotFound(_) | ApiError::UnsupportedLanguage(_) => StatusCode::NOT_FOUND,
            ApiError::Invalid { status, .. } => *status,
            ApiError::Field { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::StorageUnavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::NotFound(_) => "not_found",
            ApiError::UnsupportedLanguage(_) => "unsupported_language",
            ApiError::Invalid { code, .. } | ApiError::Field { code, .. } => code,
            ApiError::StorageUnavailable(_) => "storage_unavailable",
            ApiError::Internal(_) => "internal_error",
        }
    }
}

impl From<crate::i18n::UnsupportedLanguage> for ApiError {
    fn from(error: crate::i18n::UnsupportedLanguage) -> Self {
        ApiError::UnsupportedLanguage(error.to_string())
    }
}

impl From<crate::estimator::InvalidInput> for ApiError {
    fn from(error: crate::estimator::InvalidInput) -> Self {
        ApiError::Field {
            code: error.code,
            field: error.field.to_owned(),
            message: error.message,
        }
    }
}

impl From<crate::db::DbError> for ApiError {
    fn from(error: crate::db::DbError) -> Self {
        ApiError::StorageUnavailable(error.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match &self {
            ApiError::Internal(cause) => tracing::error!(%cause, "request failed"),
            ApiError::StorageUnavailable(cause) => tracing::error!(%cause, "database failed"),
            _ => {}
        }
        let body = match &self {
            ApiError::Field { field, .. } => {
                json!({"error": {"code": self.code(), "message": self.to_string(), "field": field}})
            }
            _ => json!({"error": {"code": self.code(), "message": self.to_string()}}),
        };
        (self.status(), Json(body)).into_response()
    }
}
