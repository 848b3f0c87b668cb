//! `GET /admin/report`: the content-gap report as a page, behind `ILAJ_ADMIN_TOKEN`.
//!
//! The token comes as `Authorization: Bearer TOKEN`, or as the password of HTTP Basic
//! authentication (any user name), so a browser can open the page through its login prompt.
//! Without a configured token the page does not exist (404).

use std::fmt::Write as _;

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
use super::pages::escape_html;
use super::state::AppState;
use crate::content::Library;
use crate::db::report::{DEFAULT_LIMIT, DEFAULT_MIN_SCORE};
use crate::db::{ArticleVotes, Report, ReportOptions, format_time};

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
    let html = page(&report, &state.library());
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

fn page(report: &Report, library: &Library) -> String {
    let mut html = String::new();
    let _ = write!(
        html,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"robots\" content=\"noindex\">\
         <title>ilaj — content-gap report</title>\
         <style>body{{font-family:system-ui,sans-serif;margin:2rem;max-width:80rem}}\
         table{{border-collapse:collapse;width:100%;margin-bottom:2rem}}\
         th,td{{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:start;vertical-align:top}}\
         td.n{{text-align:end;font-variant-numeric:tabular-nums}}code{{word-break:break-word}}</style>\
         </head><body><h1>Content-gap report</h1>\
         <p>{} · {} queries recorded · no good match = no result, or best score below {}</p>",
        escape_html(&format_time(report.generated_at)),
        report.queries_recorded,
        report.min_score
    );
    html.push_str(
        "<h2>Most frequent errors with no good match</h2>\
         <table><thead><tr><th>count</th><th>kind</th><th>exception</th><th>fingerprint</th>\
         <th>languages</th><th>best score</th><th>last seen</th></tr></thead><tbody>",
    );
    if report.unmatched.is_empty() {
        html.push_str("<tr><td colspan=\"7\">none</td></tr>");
    }
    for row in &report.unmatched {
        let _ = write!(
            html,
            "<tr><td class=\"n\">{}</td><td>{}</td><td><code>{}</code></td><td><code>{}</code></td>\
             <td>{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            row.count,
            escape_html(&row.kind),
            escape_html(&row.exception),
            escape_html(if row.fingerprint.is_empty() {
                "(no error recognized)"
            } else {
                &row.fingerprint
            }),
            escape_html(&row.langs.join(", ")),
            row.best_score
                .map_or_else(|| "none".to_owned(), |s| format!("{s:.2}")),
            escape_html(&format_time(row.last_seen)),
        );
    }
    html.push_str("</tbody></table>");
    votes_table(
        &mut html,
        "Most helpful articles",
        &report.most_helpful,
        library,
    );
    votes_table(
        &mut html,
        "Least helpful articles",
        &report.least_helpful,
        library,
    );
    html.push_str("</body></html>\n");
    html
}

fn votes_table(html: &mut String, title: &str, rows: &[ArticleVotes], library: &Library) {
    let _ = write!(
        html,
        "<h2>{}</h2><table><thead><tr><th>article</th><th>helpful</th><th>not helpful</th>\
         <th>ranking factor</th></tr></thead><tbody>",
        escape_html(title)
    );
    if rows.is_empty() {
        html.push_str("<tr><td colspan=\"4\">no votes yet</td></tr>");
    }
    for row in rows {
        let article = match library.translations(&row.article).first() {
            Some(lang) => format!(
                "<a href=\"/{}/articles/{}\">{}</a>",
                lang.code(),
                escape_html(&row.article),
                escape_html(&row.article)
            ),
            None => escape_html(&row.article),
        };
        let _ = write!(
            html,
            "<tr><td>{article}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">×{:.3}</td></tr>",
            row.helpful, row.not_helpful, row.boost
        );
    }
    html.push_str("</tbody></table>");
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
