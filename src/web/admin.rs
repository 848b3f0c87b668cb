//! `GET /admin/report`: the content-gap report as a page, behind `ILAJ_ADMIN_TOKEN`.
//!
//! The token comes as `Authorization: Bearer TOKEN`, or as the password of HTTP Basic
//! authentication (any user name), so a browser can open the page through its login prompt.
//! Without a configured token the page does not exist (404).

use askama::Template;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::auth::{add_challenge, bearer_token};
use super::error::{ApiError, Code};
use super::extract::ApiQuery;
use super::state::AppState;
use crate::content::Library;
use crate::db::report::{DEFAULT_LIMIT, DEFAULT_MIN_SCORE};
use crate::db::{ArticleVotes, Report, ReportOptions, format_time};
use crate::search::AnswerState;

const MAX_LIMIT: u32 = 500;

#[derive(Deserialize)]
pub struct ReportQuery {
    limit: Option<u32>,
    min_score: Option<f64>,
}

pub async fn report(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<ApiQuery<ReportQuery>, ApiError>,
) -> Response {
    match render(&state, &headers, query).await {
        Ok(page) => page,
        Err(error) => {
            let mut response = error.into_response();
            if response.status() == StatusCode::UNAUTHORIZED {
                add_challenge(
                    response.headers_mut(),
                    "Basic realm=\"ilaj admin\", charset=\"UTF-8\"",
                );
            }
            response
        }
    }
}

async fn render(
    state: &AppState,
    headers: &HeaderMap,
    query: Result<ApiQuery<ReportQuery>, ApiError>,
) -> Result<Response, ApiError> {
    let Some(expected) = state.admin_token() else {
        return Err(ApiError::not_found("no such endpoint"));
    };
    let Some(presented) = presented_token(headers) else {
        return Err(ApiError::new(
            Code::AdminTokenRequired,
            "this page needs the admin token (Authorization: Bearer TOKEN)",
        ));
    };
    if !same_secret(&presented, expected) {
        return Err(ApiError::new(Code::InvalidAdminToken, "wrong admin token"));
    }
    let ApiQuery(query) = query?;
    let min_score = query.min_score.unwrap_or(DEFAULT_MIN_SCORE);
    if !min_score.is_finite() {
        return Err(ApiError::new(
            Code::InvalidQuery,
            "min_score must be a number",
        ));
    }
    let options = ReportOptions {
        limit: query.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT),
        min_score,
    };
    let Some(store) = state.store() else {
        return Err(ApiError::storage(
            "the report needs a database; this server runs without",
        ));
    };
    let report = Report::build(store.as_ref(), options).await?;
    let html = page(&report, &state.library())?;
    let mut response = (StatusCode::OK, html).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'"),
    );
    Ok(response)
}

/// The token from `Bearer TOKEN` or from Basic's password.
fn presented_token(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?;
    if let Some(token) = bearer_token(value) {
        return Some(token.to_owned());
    }
    let (scheme, encoded) = value.to_str().ok()?.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let credentials = String::from_utf8(decoded).ok()?;
    let (_user, password) = credentials.split_once(':')?;
    Some(password.to_owned())
}

/// Compares digests in constant time, so neither the content nor the length of the token
/// leaks through timing.
fn same_secret(presented: &str, expected: &str) -> bool {
    let a = Sha256::digest(presented.as_bytes());
    let b = Sha256::digest(expected.as_bytes());
    a.ct_eq(&b).into()
}

struct GapLine {
    count: u64,
    answer: &'static str,
    kind: String,
    exception: String,
    fingerprint: String,
    langs: String,
    best_score: String,
    last_seen: String,
}

struct VoteLine {
    article: String,
    /// The article's page in its first language, when the group still exists.
    href: Option<String>,
    helpful: u64,
    not_helpful: u64,
    factor: String,
}

struct VoteTable {
    title: &'static str,
    rows: Vec<VoteLine>,
}

/// English only: the page is for the team, not for readers.
#[derive(Template)]
#[template(path = "admin_report.html")]
struct ReportPage<'a> {
    report: &'a Report,
    generated: String,
    unmatched: Vec<GapLine>,
    votes: Vec<VoteTable>,
}

fn page(report: &Report, library: &Library) -> Result<String, ApiError> {
    let unmatched = report
        .unmatched
        .iter()
        .map(|row| GapLine {
            count: row.count,
            answer: row.answer.map_or("low score", AnswerState::as_str),
            kind: row.kind.clone(),
            exception: row.exception.clone(),
            fingerprint: if row.fingerprint.is_empty() {
                "(no error recognized)".to_owned()
            } else {
                row.fingerprint.clone()
            },
            langs: row.langs.join(", "),
            best_score: row
                .best_score
                .map_or_else(|| "none".to_owned(), |s| format!("{s:.2}")),
            last_seen: format_time(row.last_seen),
        })
        .collect();
    let votes = |title, rows: &[ArticleVotes]| VoteTable {
        title,
        rows: rows
            .iter()
            .map(|row| VoteLine {
                article: row.article.clone(),
                href: library
                    .translations(&row.article)
                    .first()
                    .map(|lang| format!("/{}/articles/{}", lang.code(), row.article)),
                helpful: row.helpful,
                not_helpful: row.not_helpful,
                factor: format!("{:.3}", row.boost),
            })
            .collect(),
    };
    ReportPage {
        report,
        generated: format_time(report.generated_at),
        unmatched,
        votes: vec![
            votes("Most helpful articles", &report.most_helpful),
            votes("Least helpful articles", &report.least_helpful),
        ],
    }
    .render()
    .map_err(ApiError::internal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_come_from_bearer_or_basic_password() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer s3cret"),
        );
        assert_eq!(presented_token(&headers).as_deref(), Some("s3cret"));
        // "admin:s3cret"
        headers.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Basic YWRtaW46czNjcmV0"),
        );
        assert_eq!(presented_token(&headers).as_deref(), Some("s3cret"));
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Basic %%%"));
        assert_eq!(presented_token(&headers), None);
    }

    #[test]
    fn secrets_compare_equal_only_when_identical() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "abcd"));
    }
}
