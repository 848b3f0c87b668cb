//! `POST /api/v1/feedback` and `GET /api/v1/articles/{lang}/{id}/feedback`.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

use super::error::{ApiError, Code};
use super::extract::ApiJson;
use super::lang::path_lang;
use super::state::AppState;
use crate::db::feedback::{FeedbackError, FeedbackInput};
use crate::db::{FeedbackCounts, Store, now_ms};
use crate::i18n::Lang;

#[derive(Deserialize)]
pub struct FeedbackBody {
    article: String,
    lang: String,
    section: Option<String>,
    helpful: bool,
    match_id: Option<String>,
}

#[derive(Serialize)]
pub struct FeedbackCreated {
    pub id: i64,
    pub article: String,
    pub lang: Lang,
    pub section: Option<String>,
    pub helpful: bool,
    /// The group's votes, this one included.
    pub counts: FeedbackCounts,
}

pub async fn create(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<FeedbackBody>,
) -> Result<(StatusCode, Json<FeedbackCreated>), ApiError> {
    let store = store(&state)?;
    let input = FeedbackInput {
        article: body.article,
        lang: body.lang,
        section: body.section,
        helpful: body.helpful,
        match_id: body.match_id,
    };
    let vote = input
        .validate(&state.library(), now_ms())
        .map_err(refusal)?;
    let id = store.record_feedback(&vote).await?;
    let counts = store.feedback_counts(&vote.article).await?;
    state.refresh_feedback_factors().await;
    Ok((
        StatusCode::CREATED,
        Json(FeedbackCreated {
            id,
            article: vote.article,
            lang: vote.lang,
            section: vote.section,
            helpful: vote.helpful,
            counts,
        }),
    ))
}

/// Votes of the article's group (all its languages: translations share one fix).
pub async fn counts(
    State(state): State<AppState>,
    Path((lang, id)): Path<(String, String)>,
) -> Result<Json<FeedbackCounts>, ApiError> {
    let lang: Lang = path_lang(&lang)?;
    if state.library().get(&id, lang).is_none() {
        return Err(ApiError::not_found(format!(
            "no article `{}` in `{lang}`",
            id.chars().take(100).collect::<String>()
        )));
    }
    Ok(Json(store(&state)?.feedback_counts(&id).await?))
}

fn store(state: &AppState) -> Result<&std::sync::Arc<dyn Store>, ApiError> {
    state
        .store()
        .ok_or_else(|| ApiError::storage("feedback needs a database; this server runs without"))
}

fn refusal(error: FeedbackError) -> ApiError {
    let message = error.to_string();
    match error {
        FeedbackError::UnsupportedLanguage(_) => ApiError::new(Code::UnsupportedLanguage, message),
        FeedbackError::UnknownArticle { .. } => ApiError::not_found(message),
        FeedbackError::UnknownSection { .. } => ApiError::new(Code::UnknownSection, message),
        FeedbackError::InvalidMatchId => ApiError::new(Code::InvalidMatchId, message),
    }
}
