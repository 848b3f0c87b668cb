//! `POST /api/v1/match` and `GET /api/v1/search`.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};

use super::error::{ApiError, Code};
use super::extract::{ApiJson, ApiQuery};
use super::lang::requested_lang;
use super::state::AppState;
use crate::i18n::Lang;
use crate::search::{AnswerState, Hit, MatchOutcome};

/// Largest paste accepted, in bytes of UTF-8.
pub const MAX_TEXT_BYTES: usize = 256 * 1024;
/// Largest typed query accepted.
pub const MAX_QUERY_BYTES: usize = 4 * 1024;
pub const MAX_LIMIT: i64 = 20;

#[derive(Deserialize)]
pub struct MatchRequest {
    text: String,
    lang: Option<String>,
    limit: Option<i64>,
}

#[derive(Deserialize)]
pub struct SearchQuery {
    q: Option<String>,
    lang: Option<String>,
    limit: Option<String>,
}

#[derive(Serialize)]
pub struct SearchAnswer {
    pub answer: AnswerState,
    pub lang: Lang,
    pub results: Vec<Hit>,
    /// Sent back with feedback on these results (`POST /api/v1/feedback`).
    pub match_id: String,
}

#[derive(Serialize)]
pub struct MatchAnswer {
    #[serde(flatten)]
    pub outcome: MatchOutcome,
    /// Sent back with feedback on these results (`POST /api/v1/feedback`).
    pub match_id: String,
}

pub async fn match_paste(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<MatchRequest>,
) -> Result<Json<MatchAnswer>, ApiError> {
    let lang = requested_lang(request.lang.as_deref(), &headers)?;
    let limit = checked_limit(request.limit, 5)?;
    let text = checked_text(request.text, MAX_TEXT_BYTES, "text")?;
    let (outcome, match_id) = state.run_match(text, lang, limit).await?;
    Ok(Json(MatchAnswer { outcome, match_id }))
}

pub async fn search(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiQuery(query): ApiQuery<SearchQuery>,
) -> Result<Json<SearchAnswer>, ApiError> {
    let lang = requested_lang(query.lang.as_deref(), &headers)?;
    let limit = match query.limit.as_deref() {
        None | Some("") => 10,
        Some(raw) => {
            let parsed = raw.trim().parse::<i64>().map_err(|_| limit_error())?;
            checked_limit(Some(parsed), 10)?
        }
    };
    let q = checked_text(query.q.unwrap_or_default(), MAX_QUERY_BYTES, "q")?;
    let (outcome, match_id) = state.run_search(q, lang, limit).await?;
    Ok(Json(SearchAnswer {
        answer: outcome.answer,
        lang,
        results: outcome.results,
        match_id,
    }))
}

fn checked_limit(limit: Option<i64>, default: usize) -> Result<usize, ApiError> {
    match limit {
        None => Ok(default),
        Some(n) if (1..=MAX_LIMIT).contains(&n) => Ok(n as usize),
        Some(_) => Err(limit_error()),
    }
}

fn limit_error() -> ApiError {
    ApiError::new(
        Code::InvalidLimit,
        format!("`limit` must be a whole number from 1 to {MAX_LIMIT}"),
    )
}

fn checked_text(text: String, max_bytes: usize, field: &str) -> Result<String, ApiError> {
    if text.len() > max_bytes {
        return Err(ApiError::new(
            Code::TextTooLarge,
            format!(
                "`{field}` is {} bytes; the limit is {max_bytes} bytes",
                text.len()
            ),
        ));
    }
    if text.trim().is_empty() {
        return Err(ApiError::new(
            Code::EmptyText,
            format!("`{field}` is empty: paste an error or type a few words"),
        ));
    }
    Ok(text)
}
