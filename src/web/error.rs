//! The API's errors. Every code a client may see is declared once in [`error_codes!`], with its
//! HTTP status and what it means (in the spirit of Meilisearch's error-code table); handlers
//! return domain errors or an [`ApiError`] naming a [`Code`], never a status of their own. The
//! README's table and the OpenAPI document are checked against this one by the tests. The
//! cause of a 500 or 503 is logged, never sent.

use std::error::Error as StdError;
use std::fmt;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

macro_rules! error_codes {
    ($($variant:ident = $name:literal, $status:ident, $meaning:literal;)+) => {
        /// A stable error code: its name, status and meaning never change once published.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Code {
            $($variant,)+
        }

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$variant,)+];

            /// The snake_case name clients match on.
            pub fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)+
                }
            }

            pub fn status(self) -> StatusCode {
                match self {
                    $(Code::$variant => StatusCode::$status,)+
                }
            }

            /// When a client gets it, in one line.
            pub fn meaning(self) -> &'static str {
                match self {
                    $(Code::$variant => $meaning,)+
                }
            }
        }
    };
}

error_codes! {
    InvalidJson = "invalid_json", BAD_REQUEST, "the body is not JSON (or not UTF-8)";
    InvalidQuery = "invalid_query", BAD_REQUEST, "a query parameter of the wrong type, or given twice";
    InvalidRequest = "invalid_request", BAD_REQUEST, "the request cannot be read at all (a broken body stream)";
    InvalidApiKey = "invalid_api_key", UNAUTHORIZED, "`Authorization` is not `Bearer KEY`, or the key is unknown or revoked";
    AdminTokenRequired = "admin_token_required", UNAUTHORIZED, "`/admin/report` without the admin token";
    InvalidAdminToken = "invalid_admin_token", UNAUTHORIZED, "`/admin/report` with a wrong admin token";
    MetricsTokenRequired = "metrics_token_required", UNAUTHORIZED, "`/metrics` without the metrics token";
    InvalidMetricsToken = "invalid_metrics_token", UNAUTHORIZED, "`/metrics` with a wrong metrics token";
    NotFound = "not_found", NOT_FOUND, "unknown article id, missing translation, a language in a path that ilaj has no articles in, unknown route";
    MethodNotAllowed = "method_not_allowed", METHOD_NOT_ALLOWED, "e.g. `DELETE` on a read-only endpoint";
    NameTaken = "name_taken", CONFLICT, "an API key with that name exists already";
    PayloadTooLarge = "payload_too_large", PAYLOAD_TOO_LARGE, "the body exceeds 1 MiB";
    TextTooLarge = "text_too_large", PAYLOAD_TOO_LARGE, "`text` over 256 KiB, or `q` over 4 KiB";
    UnsupportedMediaType = "unsupported_media_type", UNSUPPORTED_MEDIA_TYPE, "a JSON endpoint got a body without `Content-Type: application/json`";
    EmptyText = "empty_text", UNPROCESSABLE_ENTITY, "`text` or `q` is empty";
    InvalidLimit = "invalid_limit", UNPROCESSABLE_ENTITY, "`limit` is not a whole number from 1 to 20";
    UnsupportedLanguage = "unsupported_language", UNPROCESSABLE_ENTITY, "a language other than `ar`, `hi`, `fr`, `en` in a query or a body";
    InvalidBody = "invalid_body", UNPROCESSABLE_ENTITY, "the JSON is not an object of fields";
    UnknownField = "unknown_field", UNPROCESSABLE_ENTITY, "a field the endpoint does not know (a typo such as `n_layers`)";
    InvalidField = "invalid_field", UNPROCESSABLE_ENTITY, "a mistyped field, or not one of the listed values (`\"precision\": \"fp8\"`)";
    MissingField = "missing_field", UNPROCESSABLE_ENTITY, "a required field is absent (`n_layer`, `n_head`, `n_embd`; `tried_to_allocate_bytes`)";
    OutOfRange = "out_of_range", UNPROCESSABLE_ENTITY, "a number outside its bounds (zero layers, 10⁸ sequences per batch, a negative GPU)";
    UnknownModel = "unknown_model", UNPROCESSABLE_ENTITY, "`model` names no preset of `GET /api/v1/models`";
    NotDivisible = "not_divisible", UNPROCESSABLE_ENTITY, "`n_embd` is not a multiple of `n_head`";
    UnknownSection = "unknown_section", UNPROCESSABLE_ENTITY, "feedback names a section the article does not have";
    InvalidMatchId = "invalid_match_id", UNPROCESSABLE_ENTITY, "feedback's `match_id` is not 1–64 of `A–Z a–z 0–9 - _`";
    RateLimited = "rate_limited", TOO_MANY_REQUESTS, "over the rate limit; `Retry-After` says how many seconds to wait";
    InternalError = "internal_error", INTERNAL_SERVER_ERROR, "a bug; the cause is logged, never sent";
    StorageUnavailable = "storage_unavailable", SERVICE_UNAVAILABLE, "the database cannot be reached (or this server runs without one); retry later";
}

type Source = Box<dyn StdError + Send + Sync>;

/// An error answer: a code from the table, a message for people, the field it is about, and
/// for server-side failures the cause, which is logged and not sent.
#[derive(Debug)]
pub struct ApiError {
    code: Code,
    message: String,
    field: Option<String>,
    source: Option<Source>,
}

impl ApiError {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        ApiError {
            code,
            message: message.into(),
            field: None,
            source: None,
        }
    }

    /// The error is about one field of the body or query.
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// A failure on the server's side: 500, the cause logged.
    pub fn internal(source: impl Into<Source>) -> Self {
        ApiError {
            source: Some(source.into()),
            ..ApiError::new(Code::InternalError, "internal error")
        }
    }

    /// The database failed or is missing: 503, the cause logged.
    pub fn storage(source: impl Into<Source>) -> Self {
        ApiError {
            source: Some(source.into()),
            ..ApiError::new(
                Code::StorageUnavailable,
                "the database is unavailable; try again later",
            )
        }
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        ApiError::new(Code::NotFound, message)
    }

    pub fn code(&self) -> Code {
        self.code
    }

    pub fn field(&self) -> Option<&str> {
        self.field.as_deref()
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl StdError for ApiError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.source
            .as_deref()
            .map(|s| s as &(dyn StdError + 'static))
    }
}

impl From<crate::i18n::UnsupportedLanguage> for ApiError {
    fn from(error: crate::i18n::UnsupportedLanguage) -> Self {
        ApiError::new(Code::UnsupportedLanguage, error.to_string())
    }
}

impl From<crate::estimator::InvalidInput> for ApiError {
    fn from(error: crate::estimator::InvalidInput) -> Self {
        use crate::estimator::Problem;
        let code = match error.problem {
            Problem::Missing => Code::MissingField,
            Problem::OutOfRange => Code::OutOfRange,
            Problem::NotDivisible => Code::NotDivisible,
            Problem::Invalid => Code::InvalidField,
            Problem::Unknown => Code::UnknownField,
            Problem::UnknownModel => Code::UnknownModel,
        };
        ApiError::new(code, error.message).with_field(error.field)
    }
}

impl From<crate::db::DbError> for ApiError {
    fn from(error: crate::db::DbError) -> Self {
        use crate::db::DbError;
        match error {
            DbError::DuplicateKeyName(_) => ApiError::new(Code::NameTaken, error.to_string()),
            DbError::InvalidKeyName(_) => {
                ApiError::new(Code::InvalidField, error.to_string()).with_field("name")
            }
            other => ApiError::storage(other),
        }
    }
}

impl From<tokio::task::JoinError> for ApiError {
    fn from(error: tokio::task::JoinError) -> Self {
        ApiError::internal(error)
    }
}

impl ApiError {
    /// The answer's JSON, `{"error": {"code", "message", "field"?}}`, the same on REST and MCP;
    /// the cause of a server-side failure is logged here, never put in it.
    pub fn body(&self) -> serde_json::Value {
        if let Some(cause) = &self.source {
            tracing::error!(code = self.code.name(), %cause, "request failed");
        }
        let mut error = json!({"code": self.code.name(), "message": self.message});
        if let Some(field) = &self.field {
            error["field"] = json!(field);
        }
        json!({ "error": error })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.code.status(), Json(self.body())).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_declared_once_with_one_status() {
        let mut names: Vec<&str> = Code::ALL.iter().map(|c| c.name()).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len(), "a code is declared twice");
        for code in Code::ALL {
            assert!(code.status().is_client_error() || code.status().is_server_error());
            assert!(!code.meaning().is_empty());
        }
    }

    #[test]
    fn a_duplicate_key_name_is_a_conflict_not_an_outage() {
        let error = ApiError::from(crate::db::DbError::DuplicateKeyName("bot".into()));
        assert_eq!(error.code().status(), StatusCode::CONFLICT);
        let outage = ApiError::from(crate::db::DbError::Random("no entropy".into()));
        assert_eq!(outage.code(), Code::StorageUnavailable);
        assert!(outage.source().is_some(), "the cause is kept for the log");
        assert!(
            !outage.message().contains("entropy"),
            "the cause is not sent"
        );
    }
}
