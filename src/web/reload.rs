//! Rebuilding the engine when the content folder changes. The new library and index are
//! built off the async threads and swapped in whole; requests in flight finish on the
//! snapshot they started with, so none is dropped.

use std::path::PathBuf;
use std::time::Duration;

use super::metrics;
use super::state::AppState;
use crate::content::{self, watch};
use crate::search::Engine;

/// Polls `dir` every `interval` and swaps in a fresh engine after a change from `seen`, the
/// folder's state when the served content was read. Runs until the runtime shuts down. A
/// folder that cannot be read keeps the current engine.
pub async fn watch_content(
    state: AppState,
    dir: PathBuf,
    interval: Duration,
    mut seen: watch::Snapshot,
) {
    loop {
        tokio::time::sleep(interval).await;
        let probe_dir = dir.clone();
        let Ok(current) = tokio::task::spawn_blocking(move || watch::snapshot(&probe_dir)).await
        else {
            continue;
        };
        if current == seen {
            continue;
        }
        seen = current;
        let build_dir = dir.clone();
        let built = tokio::task::spawn_blocking(move || {
            let report = content::load_dir(&build_dir).map_err(|e| e.to_string())?;
            for problem in &report.problems {
                tracing::warn!(%problem, "content problem");
            }
            let articles = report.library.len();
            Engine::build(std::sync::Arc::new(report.library))
                .map(|engine| (engine, articles))
                .map_err(|e| e.to_string())
        })
        .await;
        match built {
            Ok(Ok((engine, articles))) => {
                state.replace_engine(engine);
                state.refresh_feedback_factors().await;
                metrics::reloaded(true);
                tracing::info!(articles, "content changed: index rebuilt");
            }
            Ok(Err(error)) => {
                metrics::reloaded(false);
                tracing::error!(%error, "content changed but cannot be reloaded");
            }
            Err(error) => {
                metrics::reloaded(false);
                tracing::error!(%error, "reload task failed");
            }
        }
    }
}

/// Re-reads the votes every `interval`, so votes cast on another server sharing the
/// database reach this one's ranking within that time. Runs until the runtime shuts down.
pub async fn refresh_from_database(state: AppState, interval: Duration) {
    let mut every = tokio::time::interval(interval);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The first tick is immediate, and the factors were read at start.
    every.tick().await;
    loop {
        every.tick().await;
        state.refresh_feedback_factors().await;
    }
}
