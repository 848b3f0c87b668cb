//! The query log's writer: requests hand their records to a bounded queue and never wait for
//! the database; one background task drains it in batches, one transaction each, and deletes
//! the days past the retention period.
//!
//! A full queue (the database cannot keep up) drops the record and counts it rather than
//! holding memory or requests hostage. On shutdown the queue is closed and what it holds is
//! written before the database closes.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::{Mutex, Notify, mpsc};
use tokio::task::JoinHandle;

use super::query_log::{QueryRecord, day_of};
use super::{Store, now_ms};

/// Records waiting at most: about two seconds of a busy chatbot (2,000 requests/s), a
/// megabyte or two of memory.
pub const DEFAULT_CAPACITY: usize = 4096;
/// Records per transaction at most. Under load a batch fills while the previous one is
/// written; when idle each record goes alone, at once.
pub const DEFAULT_BATCH: usize = 512;
/// Days of the query log kept by default.
pub const DEFAULT_RETENTION_DAYS: u32 = 90;
/// How often old days are deleted.
const RETENTION_EVERY: Duration = Duration::from_secs(3600);

/// Metric names (Prometheus text format), shared with the `/metrics` documentation.
pub const METRIC_DROPPED: &str = "ilaj_query_log_dropped_total";
pub const METRIC_WRITTEN: &str = "ilaj_query_log_written_total";
pub const METRIC_FAILED: &str = "ilaj_query_log_failed_total";
pub const METRIC_DEPTH: &str = "ilaj_query_log_queue_depth";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueueOptions {
    pub capacity: usize,
    pub batch: usize,
    /// Days kept; `None` keeps everything.
    pub retention_days: Option<u32>,
}

impl Default for QueueOptions {
    fn default() -> Self {
        QueueOptions {
            capacity: DEFAULT_CAPACITY,
            batch: DEFAULT_BATCH,
            retention_days: Some(DEFAULT_RETENTION_DAYS),
        }
    }
}

/// The sending side, held by the web state.
pub struct QueryQueue {
    sender: mpsc::Sender<QueryRecord>,
    dropped: AtomicU64,
    shutdown: Arc<Notify>,
    task: Mutex<Option<JoinHandle<()>>>,
}

impl QueryQueue {
    /// Starts the writer task on the current Tokio runtime.
    pub fn start(store: Arc<dyn Store>, options: QueueOptions) -> QueryQueue {
        let (sender, receiver) = mpsc::channel(options.capacity.max(1));
        let shutdown = Arc::new(Notify::new());
        let task = tokio::spawn(write_batches(
            store,
            receiver,
            options,
            Arc::clone(&shutdown),
        ));
        QueryQueue {
            sender,
            dropped: AtomicU64::new(0),
            shutdown,
            task: Mutex::new(Some(task)),
        }
    }

    /// Queues a record without waiting; a full or closed queue drops it (counted).
    pub fn push(&self, record: QueryRecord) {
        if self.sender.try_send(record).is_err() {
            let dropped = self.dropped.fetch_add(1, Ordering::Relaxed) + 1;
            metrics::counter!(METRIC_DROPPED).increment(1);
            // Once, then every thousandth: a flood of identical warnings helps nobody.
            if dropped % 1000 == 1 {
                tracing::warn!(dropped, "the query log is falling behind; records dropped");
            }
        }
    }

    /// Records dropped so far because the queue was full (or closed).
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// Records waiting to be written.
    pub fn depth(&self) -> usize {
        self.sender.max_capacity() - self.sender.capacity()
    }

    /// Closes the queue, writes what it holds and waits for the writer to finish. Records
    /// pushed afterwards are dropped. Calling it again does nothing.
    pub async fn close(&self) {
        let task = self.task.lock().await.take();
        if let Some(task) = task {
            self.shutdown.notify_one();
            if let Err(error) = task.await {
                tracing::error!(%error, "the query log writer failed");
            }
        }
    }
}

async fn write_batches(
    store: Arc<dyn Store>,
    mut receiver: mpsc::Receiver<QueryRecord>,
    options: QueueOptions,
    shutdown: Arc<Notify>,
) {
    let batch = options.batch.max(1);
    let mut buffer = Vec::with_capacity(batch);
    let mut retention = tokio::time::interval(RETENTION_EVERY);
    retention.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            // Both receive futures are cancel-safe: nothing is lost when another branch wins.
            received = receiver.recv_many(&mut buffer, batch) => {
                if received == 0 {
                    break;
                }
                write(store.as_ref(), &mut buffer).await;
            }
            () = shutdown.notified() => {
                receiver.close();
                while receiver.recv_many(&mut buffer, batch).await > 0 {
                    write(store.as_ref(), &mut buffer).await;
                }
                break;
            }
            _ = retention.tick(), if options.retention_days.is_some() => {
                if let Some(days) = options.retention_days {
                    delete_old_days(store.as_ref(), days).await;
                }
            }
        }
    }
}

async fn write(store: &dyn Store, buffer: &mut Vec<QueryRecord>) {
    let count = buffer.len() as u64;
    match store.record_queries(buffer).await {
        Ok(()) => metrics::counter!(METRIC_WRITTEN).increment(count),
        Err(error) => {
            metrics::counter!(METRIC_FAILED).increment(count);
            tracing::warn!(%error, records = count, "cannot write to the query log");
        }
    }
    buffer.clear();
}

async fn delete_old_days(store: &dyn Store, days: u32) {
    let first_kept = day_of(now_ms()) - i64::from(days) + 1;
    match store.delete_queries_before(first_kept).await {
        Ok(0) => {}
        Ok(rows) => tracing::info!(rows, days, "query log: old days deleted"),
        Err(error) => tracing::warn!(%error, "cannot delete old days of the query log"),
    }
}
