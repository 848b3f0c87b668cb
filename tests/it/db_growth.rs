//! Measurements, not checks (ignored; run them on purpose, see BENCHMARKS.md):
//!
//! ```text
//! cargo test --test it db_growth -- --ignored --nocapture --test-threads 1
//! ```
//!
//! - how much the SQLite database grows per million logged requests;
//! - how long the content-gap report takes over a year of daily sums (SQLite, and PostgreSQL
//!   when `ILAJ_TEST_POSTGRES_URL` is set).

use std::time::{Duration, Instant};

use crate::helpers::TestDb;
use ilaj::db::query_log::DAY_MS;
use ilaj::db::{Endpoint, QueryRecord, Report, ReportOptions, Store};
use ilaj::i18n::Lang;
use ilaj::reading::Fingerprint;
use ilaj::search::AnswerState;

/// The writer's batch size (`query_queue::DEFAULT_BATCH`).
const BATCH: usize = 512;

/// A small deterministic generator (xorshift), so runs are comparable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A skewed pick in `0..n`: a few errors are very common, most are rare (as in any
    /// error tracker).
    fn skewed(&mut self, n: usize) -> usize {
        let u = (self.next() % 1_000_000) as f64 / 1_000_000.0;
        ((u * u * u) * n as f64) as usize
    }
}

/// Request `i` of a day: one of `fingerprints` errors, in one of four languages.
fn request(rng: &mut Rng, fingerprints: usize, at: i64) -> QueryRecord {
    let n = rng.skewed(fingerprints);
    let lang = [Lang::En, Lang::Fr, Lang::Ar, Lang::Hi][(rng.next() % 4) as usize];
    let answer = match n % 10 {
        0 => AnswerState::None,
        1 | 2 => AnswerState::Uncertain,
        _ => AnswerState::Confident,
    };
    let fingerprint = Fingerprint {
        kind: "python_exception".into(),
        exception: format!("torch.errors.Module{}Error", n % 97),
        message: format!(
            "expected tensor of shape <n> on device <n> for operator number {n} but got <n>"
        ),
    };
    let top = (answer != AnswerState::None).then(|| ("cuda-oom-training".to_owned(), 20.0));
    let mut record = QueryRecord::new(
        Endpoint::Match,
        lang,
        fingerprint,
        top,
        1,
        Duration::from_millis(rng.next() % 40),
    )
    .with_answer(answer);
    record.created_at = at;
    record
}

fn size_of(path: &std::path::Path) -> u64 {
    ["", "-wal", "-shm"]
        .iter()
        .filter_map(|suffix| {
            let mut name = path.as_os_str().to_owned();
            name.push(suffix);
            std::fs::metadata(name).ok().map(|m| m.len())
        })
        .sum()
}

#[tokio::test]
#[ignore = "a measurement: run with --ignored --nocapture"]
async fn measure_database_growth_per_million_requests() {
    for fingerprints in [2_000, 20_000] {
        let db = TestDb::sqlite();
        let ilaj::db::Location::SqliteFile(path) = db.location.clone() else {
            unreachable!()
        };
        let store = db.open().await;
        let empty = size_of(&path);
        let mut rng = Rng(0x5eed_1234_abcd);
        let day = ilaj::db::query_log::day_of(ilaj::db::now_ms()) * DAY_MS;
        let started = Instant::now();
        let mut batch = Vec::with_capacity(BATCH);
        let mut largest = 0;
        for i in 0..1_000_000_i64 {
            // A million requests spread over one day (about 12 a second).
            batch.push(request(&mut rng, fingerprints, day + i * 86));
            if batch.len() == BATCH {
                store.record_queries(&batch).await.unwrap();
                batch.clear();
                largest = largest.max(size_of(&path));
            }
        }
        store.record_queries(&batch).await.unwrap();
        let took = started.elapsed();
        assert_eq!(store.query_count().await.unwrap(), 1_000_000);
        let open = size_of(&path);
        store.close().await;
        let closed = size_of(&path);
        println!(
            "growth: 1,000,000 requests over {fingerprints} fingerprints × 4 languages in one day: \
             database {:.2} MB after closing (empty {:.2} MB; {:.2} MB with the WAL while open, \
             at most {:.2} MB); written in {:.1} s ({:.0} requests/s)",
            closed as f64 / 1e6,
            empty as f64 / 1e6,
            open as f64 / 1e6,
            largest as f64 / 1e6,
            took.as_secs_f64(),
            1e6 / took.as_secs_f64()
        );
    }
}

/// A year: 365 days × `fingerprints` fingerprints a day, each in 1–2 languages.
async fn fill_a_year(store: &dyn Store, fingerprints: usize) -> u64 {
    let today = ilaj::db::query_log::day_of(ilaj::db::now_ms());
    let mut rng = Rng(0xfeed_beef_0042);
    let mut batch = Vec::with_capacity(BATCH * 4);
    let mut rows = 0;
    for days_ago in 0..365 {
        let at = (today - days_ago) * DAY_MS + 3_600_000;
        for n in 0..fingerprints {
            let mut record = request(&mut rng, fingerprints, at);
            // Every fingerprint of the day, not a skewed pick: the most rows a day can have.
            record.fingerprint.message = format!(
                "expected tensor of shape <n> on device <n> for operator number {n} but got <n>"
            );
            record.fingerprint.exception = format!("torch.errors.Module{}Error", n % 97);
            record.answer = Some(match n % 10 {
                0 => AnswerState::None,
                1 | 2 => AnswerState::Uncertain,
                _ => AnswerState::Confident,
            });
            batch.push(record);
            rows += 1;
            if batch.len() == batch.capacity() {
                store.record_queries(&batch).await.unwrap();
                batch.clear();
            }
        }
    }
    store.record_queries(&batch).await.unwrap();
    rows
}

async fn time_reports(store: &dyn Store, label: &str, rows: u64) {
    let mut times = Vec::new();
    for _ in 0..3 {
        let started = Instant::now();
        let report = Report::build(store, ReportOptions::default())
            .await
            .unwrap();
        times.push(started.elapsed());
        assert_eq!(report.unmatched.len(), 20);
    }
    println!("report over a year on {label} ({rows} daily rows): {times:.2?}");
}

#[tokio::test]
#[ignore = "a measurement: run with --ignored --nocapture"]
async fn measure_report_latency_over_a_simulated_year() {
    const FINGERPRINTS: usize = 3_000;
    let db = TestDb::sqlite();
    let ilaj::db::Location::SqliteFile(path) = db.location.clone() else {
        unreachable!()
    };
    let store = db.open().await;
    let started = Instant::now();
    let rows = fill_a_year(store.as_ref(), FINGERPRINTS).await;
    println!(
        "a year of {FINGERPRINTS} fingerprints a day on SQLite: {rows} rows written in {:.1?}, {:.1} MB",
        started.elapsed(),
        size_of(&path) as f64 / 1e6
    );
    time_reports(store.as_ref(), "SQLite", rows).await;
    store.close().await;

    if let Some(db) = TestDb::postgres().await {
        let store = db.open().await;
        let rows = fill_a_year(store.as_ref(), FINGERPRINTS).await;
        time_reports(store.as_ref(), "PostgreSQL", rows).await;
        store.close().await;
        db.cleanup().await;
    }
}
