//! `POST /api/v1/match` and `GET /api/v1/search`, and the operations behind them, which the
//! MCP tools `match_error` and `search_fixes` call too: one answer whatever carries it.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::error::{ApiError, Code};
use super::extract::{ApiJson, ApiQuery};
use super::lang::{accept_language, requested_lang};
use super::state::AppState;
use crate::i18n::Lang;
use crate::reading::Situation;
use crate::search::{AnswerState, Hit, MatchOutcome};

/// Largest paste accepted, in bytes of UTF-8.
pub const MAX_TEXT_BYTES: usize = 256 * 1024;
/// Largest typed query accepted.
pub const MAX_QUERY_BYTES: usize = 4 * 1024;
pub const MAX_LIMIT: i64 = 20;

/// A pasted error to match: the body of `POST /api/v1/match`, the arguments of `match_error`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct MatchRequest {
    /// The pasted text: a Python traceback, a log or an error line (up to 256 KiB).
    pub text: String,
    /// Language of the answer: ar, hi, fr or en (default: Accept-Language, else en).
    #[serde(default)]
    pub lang: Option<String>,
    /// Number of results, 1 to 20 (default 5).
    #[serde(default)]
    #[schemars(range(min = 1, max = 20))]
    pub limit: Option<i64>,
    /// Where an out-of-memory error struck, when the reader knows: one of the `situation`
    /// values of the `ask` choices a previous answer offered (`training`, `inference`,
    /// `llm_finetuning`, `llm_serving`, `image_generation`, `sharded_training`).
    #[serde(default)]
    pub situation: Option<String>,
}

/// Words to search for: the query of `GET /api/v1/search`, the arguments of `search_fixes`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct SearchRequest {
    /// Words or an error message, in any of ar, hi, fr, en (up to 4 KiB).
    pub q: String,
    /// Language of the answer: ar, hi, fr or en (default: Accept-Language, else en).
    #[serde(default)]
    pub lang: Option<String>,
    /// Number of results, 1 to 20 (default 10).
    #[serde(default)]
    #[schemars(range(min = 1, max = 20))]
    pub limit: Option<i64>,
}

/// The query string as sent: `limit` is read by hand so a word there is `invalid_limit`.
#[derive(Deserialize)]
pub struct SearchQuery {
    q: Option<String>,
    lang: Option<String>,
    limit: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct SearchAnswer {
    pub answer: AnswerState,
    pub lang: Lang,
    pub results: Vec<Hit>,
    /// Sent back with feedback on these results (`POST /api/v1/feedback`).
    pub match_id: String,
}

#[derive(Debug, Serialize)]
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
    Ok(Json(
        run_match(&state, request, accept_language(&headers)).await?,
    ))
}

pub async fn search(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiQuery(query): ApiQuery<SearchQuery>,
) -> Result<Json<SearchAnswer>, ApiError> {
    let limit = match query.limit.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(raw) => Some(raw.parse::<i64>().map_err(|_| limit_error())?),
    };
    let request = SearchRequest {
        q: query.q.unwrap_or_default(),
        lang: query.lang,
        limit,
    };
    Ok(Json(
        run_search(&state, request, accept_language(&headers)).await?,
    ))
}

/// Checks a match request, matches it and makes its links quotable.
pub async fn run_match(
    state: &AppState,
    request: MatchRequest,
    accept_language: Option<&str>,
) -> Result<MatchAnswer, ApiError> {
    let lang = requested_lang(request.lang.as_deref(), accept_language)?;
    let limit = checked_limit(request.limit, 5)?;
    let text = checked_text(request.text, MAX_TEXT_BYTES, "text")?;
    let stated = checked_situation(request.situation.as_deref())?;
    let (mut outcome, match_id) = state.run_match(text, lang, limit, stated).await?;
    if let Some(base) = state.public_url() {
        cite(base, &mut outcome.results);
        if let Some(url) = outcome.diagnosis.calculator_url.as_mut() {
            *url = absolute(base, url);
        }
    }
    Ok(MatchAnswer { outcome, match_id })
}

/// Checks a search request, searches and makes its links quotable.
pub async fn run_search(
    state: &AppState,
    request: SearchRequest,
    accept_language: Option<&str>,
) -> Result<SearchAnswer, ApiError> {
    let lang = requested_lang(request.lang.as_deref(), accept_language)?;
    let limit = checked_limit(request.limit, 10)?;
    let q = checked_text(request.q, MAX_QUERY_BYTES, "q")?;
    let (outcome, match_id) = state.run_search(q, lang, limit).await?;
    let mut results = outcome.results;
    if let Some(base) = state.public_url() {
        cite(base, &mut results);
    }
    Ok(SearchAnswer {
        answer: outcome.answer,
        lang,
        results,
        match_id,
    })
}

/// Absolute links and a citation line on every hit, for a bot to quote as they are.
fn cite(base: &str, hits: &mut [Hit]) {
    for hit in hits {
        hit.url = absolute(base, &hit.url);
        let citation = match hit.section.as_mut() {
            Some(section) => {
                section.url = absolute(base, &section.url);
                format!("{} › {} — {}", hit.title, section.title, section.url)
            }
            None => format!("{} — {}", hit.title, hit.url),
        };
        hit.citation = Some(citation);
    }
}

/// `base` (no trailing slash) joined with a site path.
pub(crate) fn absolute(base: &str, path: &str) -> String {
    format!("{base}{path}")
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

fn checked_situation(name: Option<&str>) -> Result<Option<Situation>, ApiError> {
    match name.map(str::trim) {
        None | Some("") => Ok(None),
        Some(name) => Situation::stated(name).map(Some).ok_or_else(|| {
            ApiError::new(
                Code::InvalidField,
                format!(
                    "`situation` must be one of: {}",
                    Situation::statable_names()
                ),
            )
            .with_field("situation")
        }),
    }
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
