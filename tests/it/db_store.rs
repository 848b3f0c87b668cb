//! The storage layer, the same tests on SQLite and on PostgreSQL.

use std::time::Duration;

use crate::helpers::TestDb;
use ilaj::db::keys::{self, KeyCheck};
use ilaj::db::{
    DbError, Endpoint, FeedbackCounts, NewFeedback, QueryRecord, Report, ReportOptions,
};
use ilaj::i18n::Lang;
use ilaj::reading::Fingerprint;
use ilaj::search::AnswerState;

const UNMATCHED_PASTE: &str = "Traceback (most recent call last):\n  File \"/home/u/run.py\", line 7, in <module>\nflux_capacitor.TemporalError: capacitor 42 overheated at 0x7f3a2b1c";

fn vote(article: &str, lang: Lang, helpful: bool) -> NewFeedback {
    NewFeedback {
        article: article.to_owned(),
        lang,
        section: Some("fix-reduce-batch-size".to_owned()),
        helpful,
        match_id: Some("m_0123456789abcdef".to_owned()),
        created_at: ilaj::db::now_ms(),
    }
}

fn query(text: &str, lang: Lang, top: Option<(&str, f64)>) -> QueryRecord {
    QueryRecord::new(
        Endpoint::Match,
        lang,
        Fingerprint::of_paste(&ilaj::traceback::parse(text)),
        top.map(|(id, score)| (id.to_owned(), score)),
        usize::from(top.is_some()),
        Duration::from_millis(3),
    )
}

async fn feedback_counts_add_up_per_group_across_languages(db: &TestDb) {
    let store = db.open().await;
    assert_eq!(
        store.feedback_counts("sample-fix").await.unwrap(),
        FeedbackCounts::default()
    );
    store
        .record_feedback(&vote("sample-fix", Lang::Fr, true))
        .await
        .unwrap();
    store
        .record_feedback(&vote("sample-fix", Lang::Ar, true))
        .await
        .unwrap();
    store
        .record_feedback(&vote("sample-fix", Lang::Fr, false))
        .await
        .unwrap();
    store
        .record_feedback(&vote("other", Lang::Fr, false))
        .await
        .unwrap();
    assert_eq!(
        store.feedback_counts("sample-fix").await.unwrap(),
        FeedbackCounts {
            helpful: 2,
            not_helpful: 1
        }
    );
    let all = store.all_feedback_counts().await.unwrap();
    assert_eq!(
        all,
        vec![
            (
                "other".to_owned(),
                FeedbackCounts {
                    helpful: 0,
                    not_helpful: 1
                }
            ),
            (
                "sample-fix".to_owned(),
                FeedbackCounts {
                    helpful: 2,
                    not_helpful: 1
                }
            ),
        ]
    );
    store.close().await;
}

async fn feedback_survives_a_restart(db: &TestDb) {
    let store = db.open().await;
    store
        .record_feedback(&vote("sample-fix", Lang::Fr, true))
        .await
        .unwrap();
    store
        .record_feedback(&vote("sample-fix", Lang::Fr, false))
        .await
        .unwrap();
    store.close().await;
    drop(store);

    let reopened = db.open().await;
    assert_eq!(
        reopened.feedback_counts("sample-fix").await.unwrap(),
        FeedbackCounts {
            helpful: 1,
            not_helpful: 1
        }
    );
    reopened.close().await;
}

async fn report_lists_a_fingerprint_pasted_three_times_that_matched_nothing(db: &TestDb) {
    let store = db.open().await;
    // The same error three times, with different figures and paths, never matched.
    for (i, lang) in [Lang::Fr, Lang::Ar, Lang::Fr].into_iter().enumerate() {
        let text = UNMATCHED_PASTE
            .replace("42", &format!("{}", 40 + i))
            .replace("/home/u", &format!("/home/user{i}"));
        store.record_query(&query(&text, lang, None)).await.unwrap();
    }
    // Another error once, matched weakly: a gap, but a rarer one.
    store
        .record_query(&query(
            "ValueError: too many values to unpack (expected 2)",
            Lang::Hi,
            Some(("device-mismatch", 0.7)),
        ))
        .await
        .unwrap();
    // A well-matched error many times: not a gap.
    for _ in 0..5 {
        store
            .record_query(&query(
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
                Lang::Fr,
                Some(("cuda-oom-training", 18.5)),
            ))
            .await
            .unwrap();
    }

    let report = Report::build(store.as_ref(), ReportOptions::default())
        .await
        .unwrap();
    assert_eq!(report.queries_recorded, 9);
    assert_eq!(report.unmatched.len(), 2, "{:#?}", report.unmatched);
    let top = &report.unmatched[0];
    assert_eq!(top.count, 3);
    assert_eq!(top.exception, "flux_capacitor.TemporalError");
    assert_eq!(top.kind, "python_exception");
    assert_eq!(top.fingerprint, "capacitor <n> overheated at <hex>");
    assert_eq!(top.langs, vec!["ar", "fr"]);
    assert_eq!(top.best_score, None);
    let second = &report.unmatched[1];
    assert_eq!(second.count, 1);
    assert_eq!(second.best_score, Some(0.7));
    assert!(
        report
            .unmatched
            .iter()
            .all(|row| !row.fingerprint.contains("CUDA out of memory"))
    );

    // A stricter threshold turns the well-matched error into a gap too.
    let strict = Report::build(
        store.as_ref(),
        ReportOptions {
            limit: 1,
            min_score: 20.0,
        },
    )
    .await
    .unwrap();
    assert_eq!(strict.unmatched.len(), 1);
    assert_eq!(strict.unmatched[0].count, 5);
    store.close().await;
}

async fn query_records_keep_no_pasted_text(db: &TestDb) {
    let store = db.open().await;
    let secret = "Traceback (most recent call last):\n  File \"/home/alice/acme-secret/train.py\", line 3\nRuntimeError: token sk-abcdef0123456789abcdef failed for alice@acme.example";
    store
        .record_query(&query(secret, Lang::En, None))
        .await
        .unwrap();
    let report = Report::build(store.as_ref(), ReportOptions::default())
        .await
        .unwrap();
    let recorded = serde_json::to_string(&report).unwrap();
    assert!(!recorded.contains("acme-secret"), "{recorded}");
    assert!(!recorded.contains("0123456789abcdef"), "{recorded}");
    store.close().await;
}

async fn report_ranks_articles_by_their_bayesian_helpful_share(db: &TestDb) {
    let store = db.open().await;
    for _ in 0..8 {
        store
            .record_feedback(&vote("loved", Lang::Fr, true))
            .await
            .unwrap();
    }
    store
        .record_feedback(&vote("liked-once", Lang::Fr, true))
        .await
        .unwrap();
    for _ in 0..6 {
        store
            .record_feedback(&vote("disliked", Lang::Hi, false))
            .await
            .unwrap();
    }
    store
        .record_feedback(&vote("loved", Lang::Fr, false))
        .await
        .unwrap();
    let report = Report::build(store.as_ref(), ReportOptions::default())
        .await
        .unwrap();
    let most: Vec<&str> = report
        .most_helpful
        .iter()
        .map(|v| v.article.as_str())
        .collect();
    let least: Vec<&str> = report
        .least_helpful
        .iter()
        .map(|v| v.article.as_str())
        .collect();
    // One helpful vote does not outrank eight.
    assert_eq!(most, vec!["loved", "liked-once"]);
    assert_eq!(least, vec!["disliked", "loved"]);
    assert!(report.least_helpful[0].boost < 1.0);
    store.close().await;
}

async fn api_keys_are_stored_hashed_listed_and_revoked(db: &TestDb) {
    let store = db.open().await;
    let (record, key) = keys::create(store.as_ref(), "support-bot").await.unwrap();
    assert!(key.starts_with("ilaj_"));
    assert_eq!(record.name, "support-bot");
    assert_eq!(record.last_used_at, None);

    match keys::create(store.as_ref(), "support-bot").await {
        Err(DbError::DuplicateKeyName(name)) => assert_eq!(name, "support-bot"),
        other => panic!("expected a duplicate-name error, got {other:?}"),
    }

    match keys::check(store.as_ref(), &key).await.unwrap() {
        KeyCheck::Valid(found) => assert_eq!(found.id, record.id),
        other => panic!("expected a valid key, got {other:?}"),
    }
    let listed = store.list_api_keys().await.unwrap();
    assert_eq!(listed.len(), 1);
    assert!(listed[0].last_used_at.is_some(), "use is recorded");
    assert_eq!(
        keys::check(store.as_ref(), "ilaj_0000").await.unwrap(),
        KeyCheck::Unknown
    );
    assert_eq!(
        keys::check(store.as_ref(), "not-even-prefixed")
            .await
            .unwrap(),
        KeyCheck::Unknown
    );

    let revoked = keys::revoke(store.as_ref(), "support-bot")
        .await
        .unwrap()
        .expect("the key exists");
    assert!(revoked.is_revoked());
    assert_eq!(
        keys::check(store.as_ref(), &key).await.unwrap(),
        KeyCheck::Revoked
    );
    // Revoking again keeps the first revocation time; by id works too.
    let again = keys::revoke(store.as_ref(), &record.id.to_string())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(again.revoked_at, revoked.revoked_at);
    assert_eq!(keys::revoke(store.as_ref(), "nobody").await.unwrap(), None);
    assert_eq!(keys::revoke(store.as_ref(), "99999").await.unwrap(), None);
    store.close().await;
}

async fn opening_twice_applies_migrations_once(db: &TestDb) {
    let first = db.open().await;
    first
        .record_feedback(&vote("x", Lang::Fr, true))
        .await
        .unwrap();
    first.close().await;
    let second = db.open().await;
    let third = db.open().await;
    assert_eq!(second.feedback_counts("x").await.unwrap().helpful, 1);
    assert_eq!(third.feedback_counts("x").await.unwrap().helpful, 1);
    second.close().await;
    third.close().await;
}

/// The gap report puts what no article covers first: `none`, then `uncertain`, then queries
/// logged before answers had a state (by score); confident answers are not gaps.
async fn report_lists_none_before_uncertain_before_low_scores(db: &TestDb) {
    let store = db.open().await;
    let paste = |name: &str| format!("Traceback (most recent call last):\nacme.{name}Error: broke");
    let answered = |name: &str, answer: Option<AnswerState>, times: usize| {
        let record = query(&paste(name), Lang::Ar, Some(("cuda-oom-training", 12.0)));
        let record = match answer {
            Some(answer) => record.with_answer(answer),
            None => record,
        };
        (record, times)
    };
    for (record, times) in [
        answered("Legacy", None, 5),
        answered("Unsure", Some(AnswerState::Uncertain), 4),
        answered("Nothing", Some(AnswerState::None), 1),
        answered("Known", Some(AnswerState::Confident), 9),
    ] {
        for _ in 0..times {
            store.record_query(&record).await.unwrap();
        }
    }
    let report = Report::build(store.as_ref(), ReportOptions::default())
        .await
        .unwrap();
    let listed: Vec<(&str, Option<AnswerState>)> = report
        .unmatched
        .iter()
        .map(|row| (row.exception.as_str(), row.answer))
        .collect();
    assert_eq!(
        listed,
        [
            ("acme.NothingError", Some(AnswerState::None)),
            ("acme.UnsureError", Some(AnswerState::Uncertain)),
            ("acme.LegacyError", None),
        ]
    );
    store.close().await;
}

on_both_databases!(
    report_lists_none_before_uncertain_before_low_scores,
    feedback_counts_add_up_per_group_across_languages,
    feedback_survives_a_restart,
    report_lists_a_fingerprint_pasted_three_times_that_matched_nothing,
    query_records_keep_no_pasted_text,
    report_ranks_articles_by_their_bayesian_helpful_share,
    api_keys_are_stored_hashed_listed_and_revoked,
    opening_twice_applies_migrations_once,
);

#[tokio::test]
async fn the_embedded_database_is_created_in_wal_mode_with_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested").join("ilaj.sqlite");
    let store = ilaj::db::open(&ilaj::db::Location::SqliteFile(path.clone()))
        .await
        .unwrap();
    assert_eq!(store.backend(), ilaj::db::Backend::Sqlite);
    store
        .record_feedback(&vote("x", Lang::Fr, true))
        .await
        .unwrap();
    assert!(path.exists());
    // WAL mode leaves its write-ahead log beside the database while connections are open.
    assert!(dir.path().join("nested").join("ilaj.sqlite-wal").exists());
    store.close().await;
}

#[tokio::test]
async fn a_data_folder_that_cannot_be_created_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "not a folder").unwrap();
    let location = ilaj::db::Location::SqliteFile(blocker.join("ilaj.sqlite"));
    let error = ilaj::db::open(&location).await.err().expect("must fail");
    assert!(
        error.to_string().contains("cannot create the data folder"),
        "{error}"
    );
}

/// The query log keeps daily sums: repeats of one error add to one row, and the days before
/// the retention period go.
async fn old_days_of_the_query_log_are_deleted_and_recent_ones_kept(db: &TestDb) {
    use ilaj::db::query_log::{DAY_MS, day_of};
    let store = db.open().await;
    let today = day_of(ilaj::db::now_ms());
    let mut records = Vec::new();
    for days_ago in [0, 1, 2, 30, 400] {
        for _ in 0..3 {
            let mut record = query(UNMATCHED_PASTE, Lang::Fr, None);
            record.created_at = (today - days_ago) * DAY_MS + 1000;
            records.push(record);
        }
    }
    store.record_queries(&records).await.unwrap();
    assert_eq!(store.query_count().await.unwrap(), 15);
    // Keep the last 30 days: today and the 29 before.
    let deleted = store.delete_queries_before(today - 29).await.unwrap();
    assert_eq!(
        deleted, 2,
        "one row a day for the 30- and 400-day-old queries"
    );
    assert_eq!(store.query_count().await.unwrap(), 9);
    let report = Report::build(store.as_ref(), ReportOptions::default())
        .await
        .unwrap();
    assert_eq!(report.unmatched[0].count, 9);
    assert_eq!(report.unmatched[0].last_seen, today * DAY_MS + 1000);
    // With every day gone the fingerprint goes too, and comes back with the next query.
    assert_eq!(store.delete_queries_before(today + 1).await.unwrap(), 3);
    assert_eq!(store.query_count().await.unwrap(), 0);
    store
        .record_query(&query(UNMATCHED_PASTE, Lang::Ar, None))
        .await
        .unwrap();
    let report = Report::build(store.as_ref(), ReportOptions::default())
        .await
        .unwrap();
    assert_eq!(report.unmatched[0].count, 1);
    assert_eq!(
        report.unmatched[0].exception,
        "flux_capacitor.TemporalError"
    );
    store.close().await;
}

/// A database written before the query log became daily sums keeps its queries: migration 3
/// folds the raw rows into sums and drops them.
async fn raw_query_rows_are_folded_into_daily_sums_by_the_migration(db: &TestDb) {
    let folder = match db.location {
        ilaj::db::Location::Postgres(_) => "postgres",
        _ => "sqlite",
    };
    let dir = crate::helpers::repo_path("migrations").join(folder);
    let mut migrator = sqlx::migrate::Migrator::new(dir.as_path()).await.unwrap();
    migrator.migrations = std::borrow::Cow::Owned(migrator.migrations[..2].to_vec());
    let day = 20_000_i64 * 86_400_000;
    let rows = [
        ("none", Some(11.0), 4, day + 5),
        ("none", None, 8, day + 9),
        ("none", Some(13.0), 6, day + 86_400_000),
        ("confident", Some(40.0), 2, day + 7),
    ];
    let insert = "INSERT INTO queries (endpoint, lang, kind, exception, fingerprint, top_score,
                  result_count, latency_ms, created_at, answer)
                  VALUES ('match', 'fr', 'python_exception', 'acme.OldError', 'broke', $1, 1, $2, $3, $4)";
    match &db.location {
        ilaj::db::Location::Postgres(url) => {
            let pool = sqlx::PgPool::connect(url).await.unwrap();
            migrator.run(&pool).await.unwrap();
            for (answer, score, latency, at) in rows {
                sqlx::query(insert)
                    .bind(score)
                    .bind(latency as i64)
                    .bind(at)
                    .bind(answer)
                    .execute(&pool)
                    .await
                    .unwrap();
            }
            pool.close().await;
        }
        ilaj::db::Location::SqliteFile(path) => {
            let options = sqlx::sqlite::SqliteConnectOptions::new()
                .filename(path)
                .create_if_missing(true);
            let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
            migrator.run(&pool).await.unwrap();
            for (answer, score, latency, at) in rows {
                sqlx::query(insert)
                    .bind(score)
                    .bind(latency as i64)
                    .bind(at)
                    .bind(answer)
                    .execute(&pool)
                    .await
                    .unwrap();
            }
            pool.close().await;
        }
        ilaj::db::Location::SqliteMemory => unreachable!("tests use files"),
    }

    let store = db.open().await;
    assert_eq!(store.query_count().await.unwrap(), 4);
    let report = Report::build(store.as_ref(), ReportOptions::default())
        .await
        .unwrap();
    assert_eq!(report.unmatched.len(), 1, "{:#?}", report.unmatched);
    let row = &report.unmatched[0];
    assert_eq!(row.exception, "acme.OldError");
    assert_eq!(row.count, 3, "the confident query is no gap");
    assert_eq!(row.best_score, Some(13.0));
    assert_eq!(row.last_seen, day + 86_400_000);
    assert_eq!(row.answer, Some(AnswerState::None));
    // New queries land in the same sums.
    let fingerprint = Fingerprint {
        kind: "python_exception".into(),
        exception: "acme.OldError".into(),
        message: "broke".into(),
    };
    let mut record = QueryRecord::new(
        Endpoint::Match,
        Lang::Fr,
        fingerprint,
        None,
        0,
        Duration::from_millis(1),
    )
    .with_answer(AnswerState::None);
    record.created_at = day + 86_400_000 + 1;
    store.record_query(&record).await.unwrap();
    let report = Report::build(store.as_ref(), ReportOptions::default())
        .await
        .unwrap();
    assert_eq!(report.unmatched[0].count, 4, "{:#?}", report.unmatched);
    store.close().await;
}

on_both_databases!(
    old_days_of_the_query_log_are_deleted_and_recent_ones_kept,
    raw_query_rows_are_folded_into_daily_sums_by_the_migration,
);
