//! `POST /api/v1/feedback` and `GET /api/v1/articles/{lang}/{id}/feedback`, end to end through
//! the router, on both databases.

use crate::helpers::{TestDb, get, post_json, router_for, router_with, send_with};
use axum::http::StatusCode;
use serde_json::json;

async fn a_vote_is_recorded_and_counted_for_the_group(db: &TestDb) {
    let router = router_with(db.open().await, None, None);
    let reply = post_json(
        &router,
        "/api/v1/feedback",
        &json!({"article": "sample-fix", "lang": "fr", "section": "fix-reduce-batch-size",
                "helpful": true, "match_id": "m_3f9a1c0b7d2e4f60"}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text());
    let body = reply.json();
    assert_eq!(body["article"], "sample-fix");
    assert_eq!(body["lang"], "fr");
    assert_eq!(body["section"], "fix-reduce-batch-size");
    assert_eq!(body["counts"], json!({"helpful": 1, "not_helpful": 0}));
    assert!(body["id"].as_i64().is_some());

    // A vote on the Arabic translation, without section or match, counts for the same group.
    let reply = post_json(
        &router,
        "/api/v1/feedback",
        &json!({"article": "sample-fix", "lang": "ar", "helpful": false}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text());

    for lang in ["fr", "ar"] {
        let reply = get(
            &router,
            &format!("/api/v1/articles/{lang}/sample-fix/feedback"),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK);
        assert_eq!(reply.json(), json!({"helpful": 1, "not_helpful": 1}));
    }
}

async fn feedback_survives_a_server_restart(db: &TestDb) {
    let first = router_with(db.open().await, None, None);
    for helpful in [true, true, false] {
        let reply = post_json(
            &first,
            "/api/v1/feedback",
            &json!({"article": "sample-fix", "lang": "fr", "helpful": helpful}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::CREATED);
    }
    drop(first);
    let second = router_with(db.open().await, None, None);
    let reply = get(&second, "/api/v1/articles/fr/sample-fix/feedback").await;
    assert_eq!(reply.json(), json!({"helpful": 2, "not_helpful": 1}));
}

async fn votes_for_what_the_library_lacks_are_refused_with_codes(db: &TestDb) {
    let router = router_with(db.open().await, None, None);
    let cases = [
        (
            json!({"article": "no-such-article", "lang": "fr", "helpful": true}),
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            // The group exists, but not in Hindi.
            json!({"article": "sample-fix", "lang": "hi", "helpful": true}),
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            json!({"article": "sample-fix", "lang": "xx", "helpful": true}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "unsupported_language",
        ),
        (
            json!({"article": "sample-fix", "lang": "fr", "section": "fix-everything", "helpful": true}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown_section",
        ),
        (
            json!({"article": "sample-fix", "lang": "fr", "helpful": true, "match_id": "<script>"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_match_id",
        ),
        (
            json!({"article": "sample-fix", "lang": "fr"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_field",
        ),
        (
            json!({"article": "sample-fix", "lang": "fr", "helpful": "yes"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_field",
        ),
    ];
    for (body, status, code) in cases {
        let reply = post_json(&router, "/api/v1/feedback", &body).await;
        assert_eq!(reply.status, status, "{body}: {}", reply.text());
        assert_eq!(reply.json()["error"]["code"], code, "{body}");
    }
    // Nothing refused was stored.
    let reply = get(&router, "/api/v1/articles/fr/sample-fix/feedback").await;
    assert_eq!(reply.json(), json!({"helpful": 0, "not_helpful": 0}));
}

on_both_databases!(
    a_vote_is_recorded_and_counted_for_the_group,
    feedback_survives_a_server_restart,
    votes_for_what_the_library_lacks_are_refused_with_codes,
);

#[tokio::test]
async fn malformed_bodies_get_json_errors() {
    let db = TestDb::sqlite();
    let router = router_with(db.open().await, None, None);
    let reply = send_with(
        &router,
        "POST",
        "/api/v1/feedback",
        &[("content-type", "application/json")],
        None,
    )
    .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(reply.json()["error"]["code"], "invalid_json");

    let request = axum::http::Request::post("/api/v1/feedback")
        .header("content-type", "text/plain")
        .body(axum::body::Body::from("helpful"))
        .unwrap();
    let reply = crate::helpers::send(&router, request).await;
    assert_eq!(reply.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(reply.json()["error"]["code"], "unsupported_media_type");
}

#[tokio::test]
async fn echoed_names_are_cut_short() {
    let db = TestDb::sqlite();
    let router = router_with(db.open().await, None, None);
    let long = format!("<b>{}</b>", "x".repeat(500));
    let reply = post_json(
        &router,
        "/api/v1/feedback",
        &json!({"article": long, "lang": "fr", "helpful": true}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    let message = reply.json()["error"]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(message.chars().count() < 200, "{message}");
    // JSON served as application/json with nosniff: markup in it is inert.
    assert_eq!(reply.headers["x-content-type-options"], "nosniff");
}

#[tokio::test]
async fn without_a_database_feedback_is_unavailable_not_an_error() {
    let router = router_for(&crate::helpers::repo_path("tests/fixtures/content"));
    let reply = post_json(
        &router,
        "/api/v1/feedback",
        &json!({"article": "sample-fix", "lang": "fr", "helpful": true}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(reply.json()["error"]["code"], "storage_unavailable");
    let reply = get(&router, "/api/v1/articles/fr/sample-fix/feedback").await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE);
}

#[tokio::test]
async fn counts_of_an_unknown_article_are_not_found() {
    let db = TestDb::sqlite();
    let router = router_with(db.open().await, None, None);
    let reply = get(&router, "/api/v1/articles/fr/nothing-here/feedback").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(reply.json()["error"]["code"], "not_found");
}

#[tokio::test]
async fn the_page_helper_reads_counts_and_tolerates_a_broken_database() {
    let db = TestDb::sqlite();
    let store = db.open().await;
    let library =
        crate::helpers::load(&crate::helpers::repo_path("tests/fixtures/content")).library;
    let state = ilaj::web::AppState::with_services(
        library,
        ilaj::web::Services {
            store: Some(store.clone()),
            ..Default::default()
        },
    )
    .expect("index builds");
    assert_eq!(
        state.feedback_counts("sample-fix").await,
        Some(ilaj::db::FeedbackCounts::default())
    );
    store.close().await;
    // A closed pool fails every query: the page gets `None` and renders without counts.
    assert_eq!(state.feedback_counts("sample-fix").await, None);
}
