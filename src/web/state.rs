use std::sync::Arc;

use arc_swap::ArcSwap;
use tokio::sync::Semaphore;

use super::auth::{Limiter, RateLimits};
use super::metrics;
use crate::content::Library;
use crate::db::query_log::new_match_id;
use crate::db::query_queue::{QueryQueue, QueueOptions};
use crate::db::{Endpoint, FeedbackCounts, QueryRecord, Store};
use crate::i18n::Lang;
use crate::reading::Situation;
use crate::search::{Engine, Hit, MatchOutcome, SearchError, SearchOutcome};

/// What every request reads. The engine (library + index) sits behind a lock so a reload can
/// swap it whole while requests in flight keep the snapshot they started with.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    engine: ArcSwap<Engine>,
    store: Option<Arc<dyn Store>>,
    limiter: Option<Limiter>,
    admin_token: Option<String>,
    public_url: Option<String>,
    /// Where matches and searches go to be logged; `None` without a database.
    query_queue: Option<QueryQueue>,
    metrics_token: Option<String>,
    metrics_route: bool,
    /// Matches and searches running at once. They are CPU-bound: more of them than cores
    /// only adds threads, and every blocking thread Tokio adds keeps its own analyzers and
    /// allocator arena, which made the resident memory creep under load (issue 15). Past
    /// the limit, requests wait their turn in order.
    matching: Arc<Semaphore>,
}

/// Matches and searches run at once per core.
const MATCHES_PER_CORE: usize = 2;

/// How many matches and searches run at once: the threads they need.
pub fn matching_permits() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get()) * MATCHES_PER_CORE
}

/// What a server adds to the engine. The default (no database, no limits, no admin page) is
/// what tests of the search and pages need.
#[derive(Default)]
pub struct Services {
    pub store: Option<Arc<dyn Store>>,
    /// `None`: no rate limiting.
    pub rate_limits: Option<RateLimits>,
    /// Token for `/admin/*`; `None` hides the admin pages.
    pub admin_token: Option<String>,
    /// Where clients reach the site (`https://ilaj.example`, no trailing slash): answers
    /// then carry absolute links and citations. `None`: links stay site paths.
    pub public_url: Option<String>,
    /// The query log's queue and retention.
    pub query_log: QueueOptions,
    /// Bearer token `/metrics` asks for; `None`: no token.
    pub metrics_token: Option<String>,
    /// Serve `/metrics` on the main address (with `metrics_token` if set). Off when the
    /// metrics have their own address.
    pub metrics_route: bool,
}

impl AppState {
    /// Indexes `library` and serves it, without database, limits or admin page.
    pub fn new(library: Library) -> Result<Self, SearchError> {
        Self::with_services(library, Services::default())
    }

    /// Indexes `library` and serves it with `services`.
    pub fn with_services(library: Library, services: Services) -> Result<Self, SearchError> {
        let engine = Engine::build(Arc::new(library))?;
        metrics::init();
        metrics::index_built(engine.library().len());
        // The writer runs on the runtime that serves; without one (a command that only
        // matches) nothing is logged.
        let query_queue = match (&services.store, tokio::runtime::Handle::try_current()) {
            (Some(store), Ok(_)) => Some(QueryQueue::start(Arc::clone(store), services.query_log)),
            (Some(_), Err(_)) => {
                tracing::warn!("no async runtime: matches and searches will not be logged");
                None
            }
            (None, _) => None,
        };
        Ok(AppState {
            inner: Arc::new(Inner {
                engine: ArcSwap::from_pointee(engine),
                store: services.store,
                limiter: services.rate_limits.map(Limiter::new),
                admin_token: services.admin_token.filter(|t| !t.is_empty()),
                public_url: services
                    .public_url
                    .map(|url| url.trim_end_matches('/').to_owned())
                    .filter(|url| !url.is_empty()),
                query_queue,
                metrics_token: services.metrics_token.filter(|t| !t.is_empty()),
                metrics_route: services.metrics_route,
                matching: Arc::new(Semaphore::new(matching_permits())),
            }),
        })
    }

    /// The current engine snapshot.
    pub fn engine(&self) -> Arc<Engine> {
        self.inner.engine.load_full()
    }

    /// The library of the current snapshot.
    pub fn library(&self) -> Arc<Library> {
        self.engine().library_arc()
    }

    /// Swaps in a freshly built engine; requests already running finish on the old one.
    pub fn replace_engine(&self, engine: Engine) {
        metrics::index_built(engine.library().len());
        self.inner.engine.store(Arc::new(engine));
    }

    pub fn store(&self) -> Option<&Arc<dyn Store>> {
        self.inner.store.as_ref()
    }

    pub(crate) fn limiter(&self) -> Option<&Limiter> {
        self.inner.limiter.as_ref()
    }

    /// The site's public address, without a trailing slash.
    pub fn public_url(&self) -> Option<&str> {
        self.inner.public_url.as_deref()
    }

    pub(crate) fn admin_token(&self) -> Option<&str> {
        self.inner.admin_token.as_deref()
    }

    pub(crate) fn metrics_token(&self) -> Option<&str> {
        self.inner.metrics_token.as_deref()
    }

    pub(crate) fn metrics_on_main_address(&self) -> bool {
        self.inner.metrics_route
    }

    pub(crate) fn query_queue(&self) -> Option<&QueryQueue> {
        self.inner.query_queue.as_ref()
    }

    /// Hands a match or search to the query log's queue: the response never waits for the
    /// database, and a full queue drops the record (counted). Without a database it does
    /// nothing.
    fn record_query(&self, record: QueryRecord) {
        metrics::answer(record.endpoint, record.answer);
        if let Some(queue) = &self.inner.query_queue {
            queue.push(record);
        }
    }

    /// Writes what the query log's queue holds and stops its writer; call once the server
    /// has stopped taking requests, before closing the database.
    pub async fn close(&self) {
        if let Some(queue) = &self.inner.query_queue {
            queue.close().await;
        }
    }

    /// Reads every group's votes and hands the engine their ranking factors. Called at start,
    /// after each vote, after a reload and every refresh interval (votes cast on another
    /// server sharing the database); a database error keeps the factors it had.
    pub async fn refresh_feedback_factors(&self) {
        let Some(store) = self.inner.store.as_ref() else {
            return;
        };
        match store.all_feedback_counts().await {
            Ok(counts) => {
                self.engine().set_feedback(counts);
                metrics::feedback_refreshed(true);
            }
            Err(error) => {
                metrics::feedback_refreshed(false);
                tracing::warn!(%error, "cannot read feedback for ranking");
            }
        }
    }

    /// Matches a paste off the async threads and logs it (in the background) under a new
    /// match id, which the answer carries so a vote can name it. The API and the pages both
    /// come through here, so every match is in the content-gap report.
    pub async fn run_match(
        &self,
        text: String,
        lang: Lang,
        limit: usize,
        stated: Option<Situation>,
    ) -> Result<(MatchOutcome, String), tokio::task::JoinError> {
        let started = std::time::Instant::now();
        let engine = self.engine();
        let permit = self.matching_permit().await;
        let outcome = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            engine.match_stated(&text, lang, limit, stated)
        })
        .await?;
        let match_id = new_match_id();
        let (fingerprint, top, count) = (
            outcome.fingerprint.clone(),
            top_result(&outcome.results),
            outcome.results.len(),
        );
        let (id, latency) = (match_id.clone(), started.elapsed());
        self.record_query(
            QueryRecord::new(Endpoint::Match, lang, fingerprint, top, count, latency)
                .with_match_id(id)
                .with_answer(outcome.answer),
        );
        Ok((outcome, match_id))
    }

    /// Searches typed words off the async threads and logs the search, like [`Self::run_match`].
    pub async fn run_search(
        &self,
        query: String,
        lang: Lang,
        limit: usize,
    ) -> Result<(SearchOutcome, String), tokio::task::JoinError> {
        let started = std::time::Instant::now();
        let engine = self.engine();
        let permit = self.matching_permit().await;
        let outcome = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            engine.search(&query, lang, limit)
        })
        .await?;
        let match_id = new_match_id();
        let (top, count) = (top_result(&outcome.results), outcome.results.len());
        let (id, latency) = (match_id.clone(), started.elapsed());
        let fingerprint = outcome.fingerprint.clone();
        self.record_query(
            QueryRecord::new(Endpoint::Search, lang, fingerprint, top, count, latency)
                .with_match_id(id)
                .with_answer(outcome.answer),
        );
        Ok((outcome, match_id))
    }

    /// A turn to match or search. It moves into the blocking task, so work a timed-out request
    /// left running still counts until it ends. (The semaphore is never closed; were it, the
    /// work would run unbounded rather than fail.)
    async fn matching_permit(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        Arc::clone(&self.inner.matching).acquire_owned().await.ok()
    }

    /// Votes for an article group, for its page: `None` without a database or when it fails
    /// (logged), so a page still renders.
    pub async fn feedback_counts(&self, article: &str) -> Option<FeedbackCounts> {
        let store = self.inner.store.as_ref()?;
        match store.feedback_counts(article).await {
            Ok(counts) => Some(counts),
            Err(error) => {
                tracing::warn!(%error, "cannot read feedback counts");
                None
            }
        }
    }
}

/// What the query log keeps of an answer: the best group and its score.
fn top_result(results: &[Hit]) -> Option<(String, f64)> {
    results
        .first()
        .map(|hit| (hit.id.clone(), f64::from(hit.score)))
}
