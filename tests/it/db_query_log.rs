//! Matches and searches are recorded in the background, without the pasted text, on both
//! databases; a failing database never fails the request.

use crate::helpers::{TestDb, eventually, get, post_json, router_with};
use axum::http::StatusCode;
use ilaj::db::{Report, ReportOptions};
use ilaj::search::AnswerState;
use serde_json::json;

const PASTE: &str = "Traceback (most recent call last):\n  File \"/home/carol/private-thesis/train.py\", line 88, in <module>\n    loss.backward()\nquantum_widgets.EntanglementError: qubit 7 decohered after 0.31 s";

async fn a_match_is_recorded_as_its_fingerprint_and_linked_to_feedback(db: &TestDb) {
    let store = db.open().await;
    let router = router_with(store.clone(), None, None);
    let reply = post_json(
        &router,
        "/api/v1/match",
        &json!({"text": PASTE, "lang": "fr"}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    let match_id = reply.json()["match_id"].as_str().unwrap().to_owned();
    assert!(match_id.starts_with("m_"), "{match_id}");

    assert!(
        eventually(|| async { store.query_count().await.unwrap() == 1 }).await,
        "the match was not recorded"
    );
    let report = Report::build(
        store.as_ref(),
        ReportOptions {
            limit: 10,
            min_score: f64::INFINITY,
        },
    )
    .await
    .unwrap();
    let row = &report.unmatched[0];
    assert_eq!(row.exception, "quantum_widgets.EntanglementError");
    assert_eq!(row.fingerprint, "qubit <n> decohered after <n> s");
    assert_eq!(row.langs, vec!["fr"]);
    let everything = serde_json::to_string(&report).unwrap();
    assert!(!everything.contains("carol"), "{everything}");
    assert!(!everything.contains("private-thesis"), "{everything}");

    // The id handed out comes back with the vote.
    let vote =
        json!({"article": "sample-fix", "lang": "fr", "helpful": true, "match_id": match_id});
    let reply = post_json(&router, "/api/v1/feedback", &vote).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text());
}

async fn a_search_is_recorded_with_its_top_result(db: &TestDb) {
    let store = db.open().await;
    let router = router_with(store.clone(), None, None);
    let reply = get(
        &router,
        "/api/v1/search?q=r%C3%A9duire%20le%20lot%2032&lang=fr",
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    let body = reply.json();
    assert!(body["match_id"].as_str().is_some());
    let top = body["results"][0]["id"].as_str().map(str::to_owned);
    let answer = body["answer"].as_str().and_then(AnswerState::parse);
    assert!(answer.is_some(), "{body}");
    assert!(eventually(|| async { store.query_count().await.unwrap() == 1 }).await);
    let report = Report::build(
        store.as_ref(),
        ReportOptions {
            limit: 10,
            min_score: f64::INFINITY,
        },
    )
    .await
    .unwrap();
    // The search is a gap unless it was answered confidently, and it carries its answer.
    let row = report.unmatched.first();
    if answer == Some(AnswerState::Confident) {
        assert!(row.is_none(), "{row:?}");
    } else {
        let row = row.expect("the search is listed");
        assert_eq!(row.kind, "query");
        assert_eq!(row.fingerprint, "réduire le lot <n>");
        assert_eq!(row.answer, answer);
        assert_eq!(row.best_score.is_some(), top.is_some());
    }
}

on_both_databases!(
    a_match_is_recorded_as_its_fingerprint_and_linked_to_feedback,
    a_search_is_recorded_with_its_top_result,
);

#[tokio::test]
async fn a_broken_database_never_fails_a_match() {
    let db = TestDb::sqlite();
    let store = db.open().await;
    let router = router_with(store.clone(), None, None);
    store.close().await;
    let reply = post_json(&router, "/api/v1/match", &json!({"text": PASTE})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    let reply = get(&router, "/api/v1/search?q=batch").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
}

#[tokio::test]
async fn refused_requests_are_not_recorded() {
    let db = TestDb::sqlite();
    let store = db.open().await;
    let router = router_with(store.clone(), None, None);
    let reply = post_json(&router, "/api/v1/match", &json!({"text": "   "})).await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert_eq!(store.query_count().await.unwrap(), 0);
}

fn gizmo_record() -> ilaj::db::QueryRecord {
    ilaj::db::QueryRecord::new(
        ilaj::db::Endpoint::Match,
        ilaj::i18n::Lang::Hi,
        ilaj::reading::Fingerprint::of_paste(&ilaj::traceback::parse(PASTE)),
        None,
        0,
        std::time::Duration::from_millis(1),
    )
    .with_answer(AnswerState::None)
}

/// The request path never waits for the database: a full queue drops (and counts) what does
/// not fit, and closing writes what it holds.
#[tokio::test]
async fn a_full_query_queue_drops_and_counts_and_closing_writes_what_it_holds() {
    use ilaj::db::query_queue::{QueryQueue, QueueOptions};
    let db = TestDb::sqlite();
    let store = db.open().await;
    let queue = QueryQueue::start(
        store.clone(),
        QueueOptions {
            capacity: 4,
            batch: 2,
            retention_days: None,
        },
    );
    // On this single-threaded runtime the writer cannot run between the pushes.
    for _ in 0..100 {
        queue.push(gizmo_record());
    }
    assert_eq!(queue.depth(), 4);
    assert_eq!(queue.dropped(), 96);
    queue.close().await;
    assert_eq!(store.query_count().await.unwrap(), 4);
    // After closing, records are dropped, not queued.
    queue.push(gizmo_record());
    assert_eq!(queue.dropped(), 97);
    store.close().await;
}

#[tokio::test]
async fn the_query_queue_deletes_days_past_the_retention_at_start() {
    use ilaj::db::query_log::DAY_MS;
    use ilaj::db::query_queue::{QueryQueue, QueueOptions};
    let db = TestDb::sqlite();
    let store = db.open().await;
    let mut old = gizmo_record();
    old.created_at -= 10 * DAY_MS;
    store.record_queries(&[old, gizmo_record()]).await.unwrap();
    assert_eq!(store.query_count().await.unwrap(), 2);
    let queue = QueryQueue::start(
        store.clone(),
        QueueOptions {
            retention_days: Some(7),
            ..QueueOptions::default()
        },
    );
    assert!(eventually(|| async { store.query_count().await.unwrap() == 1 }).await);
    queue.close().await;
    store.close().await;
}

/// SIGTERM stops the real server cleanly: requests answered before it are all in the query
/// log (the queue is written out before the database closes).
#[test]
fn a_terminated_server_has_logged_every_answered_match() {
    let data = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", data.path().join("db.sqlite").display());
    let server = crate::helpers::Server::start(&["--database", &url], &[]);
    let body = json!({"text": PASTE, "lang": "ar"}).to_string();
    for _ in 0..5 {
        let (status, reply) = server.request("POST", "/api/v1/match", &[], Some(&body));
        assert_eq!(status, 200, "{reply}");
    }
    let exit = server.terminate();
    assert!(exit.success(), "{exit:?}");
    let (ok, stdout, stderr) =
        crate::helpers::run_ilaj(&["report", "--json", "--database", &url], &[]);
    assert!(ok, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["queries_recorded"], 5, "{report}");
    assert_eq!(report["unmatched"][0]["count"], 5, "{report}");
}
