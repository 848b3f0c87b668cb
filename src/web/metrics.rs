//! `GET /metrics`: counters and histograms in the Prometheus text format, for operators.
//!
//! Recorded through the `metrics` facade into one process-wide Prometheus recorder (the
//! exporter without its own HTTP listener: this module renders it on our route). Requests are
//! labelled by their route pattern (`/api/v1/articles/{lang}/{id}`), never the raw path, so a
//! scanner cannot create a series per URL.
//!
//! Access: with `--metrics-token` the route asks for `Authorization: Bearer TOKEN`; with
//! `--metrics-addr` it is served on that address only (`serve_metrics`), for a network the
//! public does not reach. Without either, `/metrics` does not exist.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::auth::{add_challenge, bearer_token};
use super::error::{ApiError, Code};
use super::state::AppState;
use crate::db::Endpoint;
use crate::db::query_queue::METRIC_DEPTH;
use crate::search::AnswerState;

pub const REQUESTS: &str = "ilaj_http_requests_total";
pub const DURATION: &str = "ilaj_http_request_duration_seconds";
pub const ANSWERS: &str = "ilaj_answers_total";
pub const INDEX_DOCUMENTS: &str = "ilaj_index_articles";
pub const RELOADS: &str = "ilaj_index_reloads_total";
pub const FEEDBACK_REFRESHES: &str = "ilaj_feedback_refreshes_total";

/// Upper bounds of the latency buckets, in seconds: a match takes about a millisecond alone
/// and tens of milliseconds under load; the request timeout is 15 s.
const BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 15.0,
];
/// How often histogram samples are folded into their buckets when nobody scrapes, so they
/// never pile up in memory.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// The process's recorder, installed on first use. `None` if another recorder was installed
/// first (then nothing is exported).
fn handle() -> Option<&'static PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Full(DURATION.to_owned()), BUCKETS)
                .ok()?;
            match builder.install_recorder() {
                Ok(handle) => {
                    describe();
                    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                        let upkeep = handle.clone();
                        runtime.spawn(async move {
                            let mut every = tokio::time::interval(UPKEEP_EVERY);
                            loop {
                                every.tick().await;
                                upkeep.run_upkeep();
                            }
                        });
                    }
                    Some(handle)
                }
                Err(error) => {
                    tracing::warn!(%error, "cannot install the metrics recorder");
                    None
                }
            }
        })
        .as_ref()
}

fn describe() {
    metrics::describe_counter!(
        REQUESTS,
        "HTTP requests by route pattern, method and status"
    );
    metrics::describe_histogram!(
        DURATION,
        metrics::Unit::Seconds,
        "time to answer HTTP requests, by route pattern and method"
    );
    metrics::describe_counter!(ANSWERS, "matches and searches by how sure their answer was");
    metrics::describe_gauge!(INDEX_DOCUMENTS, "articles in the search index being served");
    metrics::describe_counter!(RELOADS, "content reloads by outcome (ok, error)");
    metrics::describe_counter!(
        FEEDBACK_REFRESHES,
        "reads of the votes for ranking by outcome (ok, error)"
    );
    metrics::describe_gauge!(METRIC_DEPTH, "query-log records waiting to be written");
    metrics::describe_counter!(
        crate::db::query_queue::METRIC_DROPPED,
        "query-log records dropped because the queue was full"
    );
    metrics::describe_counter!(
        crate::db::query_queue::METRIC_WRITTEN,
        "query-log records written"
    );
    metrics::describe_counter!(
        crate::db::query_queue::METRIC_FAILED,
        "query-log records lost to a database error"
    );
}

/// Installs the recorder (if not yet), so series recorded from now on are kept.
pub fn init() {
    let _ = handle();
}

/// Middleware: counts every request and times it, labelled by route pattern.
pub async fn track(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", |path| path.as_str())
        .to_owned();
    let method = request.method().as_str().to_owned();
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    metrics::histogram!(DURATION, "route" => route.clone(), "method" => method.clone())
        .record(started.elapsed().as_secs_f64());
    metrics::counter!(REQUESTS, "route" => route, "method" => method, "status" => status)
        .increment(1);
    response
}

/// A match or search answered (`None`: a caller that gave no state).
pub fn answer(endpoint: Endpoint, answer: Option<AnswerState>) {
    let answer = answer.map_or("unknown", AnswerState::as_str);
    metrics::counter!(ANSWERS, "endpoint" => endpoint.as_str(), "answer" => answer).increment(1);
}

/// A new index is being served.
pub fn index_built(articles: usize) {
    metrics::gauge!(INDEX_DOCUMENTS).set(articles as f64);
}

pub fn reloaded(ok: bool) {
    metrics::counter!(RELOADS, "outcome" => if ok { "ok" } else { "error" }).increment(1);
}

pub fn feedback_refreshed(ok: bool) {
    metrics::counter!(FEEDBACK_REFRESHES, "outcome" => if ok { "ok" } else { "error" })
        .increment(1);
}

/// The `/metrics` route alone, for the separate metrics address.
pub fn router(state: AppState) -> axum::Router {
    axum::Router::new()
        .route("/metrics", get(scrape))
        .with_state(state)
}

/// `GET /metrics`.
pub async fn scrape(State(state): State<AppState>, headers: HeaderMap) -> Response {
    if let Some(expected) = state.metrics_token() {
        let presented = headers.get(header::AUTHORIZATION).and_then(bearer_token);
        let Some(presented) = presented else {
            let mut response = ApiError::new(
                Code::MetricsTokenRequired,
                "/metrics needs the metrics token (Authorization: Bearer TOKEN)",
            )
            .into_response();
            add_challenge(response.headers_mut(), "Bearer realm=\"ilaj metrics\"");
            return response;
        };
        if !same_secret(presented, expected) {
            return ApiError::new(Code::InvalidMetricsToken, "wrong metrics token").into_response();
        }
    }
    let Some(handle) = handle() else {
        return ApiError::new(
            Code::InternalError,
            "metrics are not available in this process",
        )
        .into_response();
    };
    if let Some(queue) = state.query_queue() {
        metrics::gauge!(METRIC_DEPTH).set(queue.depth() as f64);
    }
    let mut response = (StatusCode::OK, handle.render()).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Compares digests in constant time, so neither the content nor the length of the token
/// leaks through timing.
fn same_secret(presented: &str, expected: &str) -> bool {
    let a = Sha256::digest(presented.as_bytes());
    let b = Sha256::digest(expected.as_bytes());
    a.ct_eq(&b).into()
}

/// Serves `/metrics` alone on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(state))
        .with_graceful_shutdown(shutdown)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latency_buckets_rise() {
        assert!(BUCKETS.windows(2).all(|w| w[0] < w[1]));
    }
}
