//! `ilaj serve`: the web server and the API on the embedded defaults or the given database.

use std::sync::Arc;

use super::{CmdError, open_store};
use crate::cli::ServeArgs;
use crate::content;
use crate::db::query_queue::QueueOptions;
use crate::web;

pub async fn run(args: ServeArgs) -> Result<(), CmdError> {
    // The folder as it was before loading: an edit made while the server starts is then
    // seen as a change by the first poll, not taken for the state already served.
    let loaded_state = content::watch::snapshot(&args.content);
    let report = content::load_dir(&args.content)?;
    for problem in &report.problems {
        tracing::warn!(%problem, "content problem");
    }
    tracing::info!(
        articles = report.library.len(),
        files = report.files_read,
        "content loaded"
    );
    let store = open_store(&args.db).await?;
    let services = web::Services {
        store: Some(Arc::clone(&store)),
        rate_limits: Some(web::RateLimits {
            anonymous_per_minute: args.rate_limit_anonymous,
            key_per_minute: args.rate_limit_key,
        }),
        admin_token: args.admin_token.clone(),
        public_url: args.public_url.clone(),
        query_log: QueueOptions {
            retention_days: (args.query_log_retention_days > 0)
                .then_some(args.query_log_retention_days),
            ..QueueOptions::default()
        },
        metrics_token: args.metrics_token.clone(),
        // A separate address keeps /metrics off the public one; otherwise the token guards it.
        metrics_route: args.metrics_addr.is_none() && args.metrics_token.is_some(),
    };
    let state = web::AppState::with_services(report.library, services)?;
    state.refresh_feedback_factors().await;
    if args.reload_seconds > 0 {
        let interval = std::time::Duration::from_secs(args.reload_seconds);
        tokio::spawn(web::watch_content(
            state.clone(),
            args.content.clone(),
            interval,
            loaded_state,
        ));
    }
    if args.refresh_seconds > 0 {
        let interval = std::time::Duration::from_secs(args.refresh_seconds);
        tokio::spawn(web::refresh_from_database(state.clone(), interval));
    }
    let outcome = web::serve(args.addr, args.metrics_addr, state).await;
    store.close().await;
    outcome.map_err(CmdError::Serve)
}
