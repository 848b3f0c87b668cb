//! `GET /api/v1/articles` and `GET /api/v1/articles/{lang}/{id}`.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::cache;
use super::error::ApiError;
use super::extract::ApiQuery;
use super::lang::{accept_language, path_lang, requested_lang};
use super::state::AppState;
use crate::content::{Article, Library};
use crate::i18n::Lang;

/// One article in one language: the path of `GET /api/v1/articles/{lang}/{id}`, the arguments
/// of the MCP tool `get_article`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ArticleRequest {
    /// Language: ar, hi, fr or en.
    pub lang: String,
    /// The article's group id, e.g. `cuda-oom-training`.
    pub id: String,
}

#[derive(Deserialize)]
pub struct ListQuery {
    lang: Option<String>,
}

#[derive(Serialize)]
pub struct ArticleList {
    pub lang: Lang,
    pub articles: Vec<ArticleSummary>,
}

#[derive(Serialize)]
pub struct ArticleSummary {
    pub id: String,
    pub lang: Lang,
    pub title: String,
    pub summary: String,
    pub url: String,
    pub fallback: bool,
    pub translations: Vec<Lang>,
}

#[derive(Serialize)]
pub struct ArticleBody {
    pub id: String,
    pub lang: Lang,
    pub title: String,
    pub summary: String,
    pub errors: Vec<String>,
    pub tags: Vec<String>,
    pub calculators: Vec<String>,
    pub updated: Option<String>,
    pub url: String,
    pub sections: Vec<SectionRef>,
    pub html: String,
    pub translations: Vec<Lang>,
}

#[derive(Serialize)]
pub struct SectionRef {
    pub id: String,
    pub title: String,
    pub level: u8,
    pub url: String,
}

/// Other languages of the group, the article's own left out.
fn other_translations(translations: Vec<Lang>, own: Lang) -> Vec<Lang> {
    translations.into_iter().filter(|&l| l != own).collect()
}

pub async fn list(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ListQuery>,
    headers: HeaderMap,
) -> Result<Json<ArticleList>, ApiError> {
    let lang = requested_lang(query.lang.as_deref(), accept_language(&headers))?;
    let library = state.library();
    let articles = library
        .listing(lang)
        .into_iter()
        .map(|(article, fallback)| ArticleSummary {
            id: article.id.clone(),
            lang: article.lang,
            title: article.title.clone(),
            summary: article.summary.clone(),
            url: article.url(),
            fallback,
            translations: other_translations(library.translations(&article.id), article.lang),
        })
        .collect();
    Ok(Json(ArticleList { lang, articles }))
}

/// `GET /api/v1/articles/{lang}/{id}`, with an ETag (the article's content and language) so
/// a client that has this version gets 304.
pub async fn show(
    State(state): State<AppState>,
    Path(request): Path<ArticleRequest>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let library = state.library();
    let article = find(&library, &request)?;
    let translations = library.translations(&article.id);
    let codes: Vec<&str> = translations.iter().map(|l| l.code()).collect();
    let etag = cache::etag(&[
        "api",
        &article.content_hash,
        article.lang.code(),
        &codes.join(","),
    ]);
    if cache::matches(&headers, &etag) {
        return Ok(cache::not_modified(etag, cache::API_CACHE_CONTROL));
    }
    let body = Json(article_body(article, translations)).into_response();
    Ok(cache::with_validators(body, etag, cache::API_CACHE_CONTROL))
}

/// The article the request names, as the API answers it.
pub fn get_article(state: &AppState, request: &ArticleRequest) -> Result<ArticleBody, ApiError> {
    let library = state.library();
    let article = find(&library, request)?;
    Ok(article_body(article, library.translations(&article.id)))
}

/// The article in exactly the language asked for (no fallback: the path names a version).
pub fn find<'a>(library: &'a Library, request: &ArticleRequest) -> Result<&'a Article, ApiError> {
    let lang: Lang = path_lang(&request.lang)?;
    let id = &request.id;
    let translations = library.translations(id);
    library.get(id, lang).ok_or_else(|| {
        if translations.is_empty() {
            ApiError::not_found(format!("no article with id `{}`", truncate(id)))
        } else {
            let available: Vec<&str> = translations.iter().map(|l| l.code()).collect();
            ApiError::not_found(format!(
                "article `{}` has no `{lang}` translation (available: {})",
                truncate(id),
                available.join(", ")
            ))
        }
    })
}

fn article_body(article: &Article, translations: Vec<Lang>) -> ArticleBody {
    let url = article.url();
    ArticleBody {
        id: article.id.clone(),
        lang: article.lang,
        title: article.title.clone(),
        summary: article.summary.clone(),
        errors: article.errors.clone(),
        tags: article.tags.clone(),
        calculators: article.calculators.clone(),
        updated: article.updated.clone(),
        sections: article
            .sections
            .iter()
            .map(|s| SectionRef {
                id: s.id.clone(),
                title: s.title.clone(),
                level: s.level,
                url: format!("{url}#{}", s.id),
            })
            .collect(),
        html: article.html.clone(),
        url,
        translations: other_translations(translations, article.lang),
    }
}

/// Ids echoed in messages are cut short; JSON encoding escapes the rest.
fn truncate(text: &str) -> String {
    text.chars().take(100).collect()
}
