//! Feedback nudges the ranking of results that were close, within 0.9–1.1, and votes sent
//! through the API reach the ranking.

use std::sync::Arc;

use crate::helpers::{TestDb, eventually, load, router_with, send_with};
use ilaj::db::FeedbackCounts;
use ilaj::i18n::Lang;
use ilaj::search::{Engine, feedback_factor};
use serde_json::json;

fn twin_articles() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let fr = dir.path().join("fr");
    std::fs::create_dir(&fr).unwrap();
    for id in ["twin-a", "twin-b"] {
        std::fs::write(
            fr.join(format!("{id}.md")),
            format!(
                "---\nid: {id}\nlang: fr\ntitle: \"Jumeau\"\nsummary: \"s\"\nerrors: [\"zorglub failure\"]\n---\n## Corriger {{#fix}}\nLe zorglub tombe en panne.\n"
            ),
        )
        .unwrap();
    }
    dir
}

fn votes(helpful: u64, not_helpful: u64) -> FeedbackCounts {
    FeedbackCounts {
        helpful,
        not_helpful,
    }
}

fn order(engine: &Engine) -> Vec<String> {
    engine
        .search("zorglub panne", Lang::Fr, 5)
        .results
        .into_iter()
        .map(|hit| hit.id)
        .collect()
}

#[test]
fn feedback_factors_reorder_equal_results_but_stay_bounded() {
    let dir = twin_articles();
    let engine = Engine::build(Arc::new(load(dir.path()).library)).unwrap();
    assert_eq!(order(&engine), ["twin-a", "twin-b"], "ties break by id");
    let (down, up) = (votes(0, 30), votes(30, 0));
    engine.set_feedback(vec![("twin-a".to_owned(), down), ("twin-b".to_owned(), up)]);
    assert_eq!(order(&engine), ["twin-b", "twin-a"]);
    let scores: Vec<f32> = engine
        .search("zorglub panne", Lang::Fr, 5)
        .results
        .iter()
        .map(|h| h.score)
        .collect();
    assert!(
        (scores[0] / scores[1] - feedback_factor(up) / feedback_factor(down)).abs() < 0.01,
        "{scores:?}"
    );
    engine.set_feedback(vec![("twin-a".to_owned(), votes(u64::MAX / 4, 0))]);
    let scores: Vec<f32> = engine
        .search("zorglub panne", Lang::Fr, 5)
        .results
        .iter()
        .map(|h| h.score)
        .collect();
    assert!(
        scores[0] / scores[1] <= 1.1 + 1e-3,
        "a factor is clamped to 1.1: {scores:?}"
    );
}

async fn top_score(router: &axum::Router) -> f64 {
    let body = send_with(
        router,
        "GET",
        "/api/v1/search?q=CUDA%20out%20of%20memory&lang=fr",
        &[],
        None,
    )
    .await
    .json();
    assert_eq!(body["results"][0]["id"], "sample-fix");
    body["results"][0]["score"].as_f64().unwrap()
}

async fn votes_reach_the_ranking(db: &TestDb) {
    let store = db.open().await;
    let router = router_with(store, None, None);
    let before = top_score(&router).await;
    let vote = json!({"article": "sample-fix", "lang": "fr", "helpful": false});
    for _ in 0..20 {
        let reply = send_with(&router, "POST", "/api/v1/feedback", &[], Some(&vote)).await;
        assert_eq!(reply.status, 201, "{}", reply.text());
    }
    // 20 votes against, with 10 neutral ones in front: share 5/30, factor 1 + (1/6 - 1/2) × 0.2.
    let expected = 1.0 + (5.0 / 30.0 - 0.5) * 0.2;
    let reached = eventually(|| {
        let router = router.clone();
        async move { (top_score(&router).await / before - expected).abs() < 0.005 }
    })
    .await;
    assert!(reached, "score did not move by the factor {expected}");
}

on_both_databases!(votes_reach_the_ranking);
