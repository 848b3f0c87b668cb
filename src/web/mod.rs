//! The HTTP layer: routes, extractors and error mapping. Domain work happens in the other
//! modules; handlers only translate between HTTP and them.

mod admin;
mod articles;
mod auth;
mod cache;
mod error;
mod estimate;
mod extract;
mod feedback;
mod lang;
mod matching;
pub mod mcp;
pub mod metrics;
pub mod openapi;
mod pages;
mod reload;
mod state;

use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, StatusCode, header};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

pub use articles::{ArticleBody, ArticleRequest};
pub use auth::{DEFAULT_ANONYMOUS_PER_MINUTE, DEFAULT_KEY_PER_MINUTE, RateLimits};
pub use error::{ApiError, Code};
pub use matching::{
    MAX_QUERY_BYTES, MAX_TEXT_BYTES, MatchAnswer, MatchRequest, SearchAnswer, SearchRequest,
};
pub use reload::{refresh_from_database, watch_content};
pub use state::{AppState, Services, matching_permits};

/// Largest request body accepted: a 256 KiB paste, JSON-escaped, fits with room to spare.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;
const REQUEST_TIMEOUT: Duration = Duration::from_secs(15);
/// Pages load only their own files: no inline script, no other origin, no framing.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
    img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; \
    frame-ancestors 'none'";

pub fn router(state: AppState) -> Router {
    let mut router = Router::new();
    if state.metrics_on_main_address() {
        router = router.route("/metrics", get(metrics::scrape));
    }
    router
        .route("/healthz", get(healthz))
        .route("/api/v1/articles", get(articles::list))
        .route("/api/v1/articles/{lang}/{id}", get(articles::show))
        .route("/api/v1/match", post(matching::match_paste))
        .route("/api/v1/search", get(matching::search))
        .route("/api/v1/estimate", post(estimate::estimate))
        .route("/api/v1/models", get(estimate::models))
        .route(
            "/api/v1/allocation",
            get(estimate::allocation_get).post(estimate::allocation_post),
        )
        .merge(pages::routes())
        .route(
            "/api/v1/articles/{lang}/{id}/feedback",
            get(feedback::counts),
        )
        .route("/api/v1/feedback", post(feedback::create))
        .route("/api/v1/openapi.json", get(openapi::serve))
        .route("/admin/report", get(admin::report))
        .route_service("/mcp", mcp::http_service(state.clone()))
        .fallback(pages::fallback)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            auth::api_guard,
        ))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(axum::middleware::from_fn(metrics::track))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

async fn healthz(
    axum::extract::State(state): axum::extract::State<AppState>,
) -> Json<serde_json::Value> {
    Json(json!({"status": "ok", "articles": state.library().len()}))
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        Code::MethodNotAllowed,
        "this endpoint does not accept that method",
    )
}

/// Serves until SIGINT or SIGTERM, then lets requests in flight finish and writes what the
/// query log still holds. With `metrics_addr`, `/metrics` is served there (alone) too.
pub async fn serve(
    addr: SocketAddr,
    metrics_addr: Option<SocketAddr>,
    state: AppState,
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    tracing::info!(addr = %listener.local_addr()?, "listening");
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let metrics_server = match metrics_addr {
        Some(metrics_addr) => {
            let listener = tokio::net::TcpListener::bind(metrics_addr).await?;
            tracing::info!(addr = %listener.local_addr()?, "metrics listening");
            Some(tokio::spawn(metrics::serve(
                listener,
                state.clone(),
                wait_for(stopped.clone()),
            )))
        }
        None => None,
    };
    tokio::spawn(async move {
        shutdown_signal().await;
        let _ = stop.send(true);
    });
    // The peer address keys the anonymous rate limit.
    let app = router(state.clone()).into_make_service_with_connect_info::<SocketAddr>();
    let outcome = axum::serve(listener, app)
        .with_graceful_shutdown(wait_for(stopped))
        .await;
    if let Some(metrics_server) = metrics_server {
        match metrics_server.await {
            Ok(Err(error)) => tracing::warn!(%error, "metrics server failed"),
            Err(error) => tracing::warn!(%error, "metrics server task failed"),
            Ok(Ok(())) => {}
        }
    }
    state.close().await;
    outcome
}

/// Resolves once the shutdown flag is raised (or its sender is gone).
async fn wait_for(mut stopped: tokio::sync::watch::Receiver<bool>) {
    let _ = stopped.wait_for(|stop| *stop).await;
}

async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::warn!(%error, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::warn!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}
