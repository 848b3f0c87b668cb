//! The article endpoints answer as the contract (CONTRACT.md) says.

use crate::helpers::{get, repo_path, router_for, send};
use axum::body::Body;
use axum::http::{Request, StatusCode};

fn fixture_router() -> axum::Router {
    router_for(&repo_path("tests/fixtures/content"))
}

#[tokio::test]
async fn healthz_answers_ok() {
    let reply = get(&fixture_router(), "/healthz").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.json()["status"], "ok");
}

#[tokio::test]
async fn article_json_has_the_contract_fields() {
    let reply = get(&fixture_router(), "/api/v1/articles/fr/sample-fix").await;
    assert_eq!(reply.status, StatusCode::OK);
    insta::assert_json_snapshot!("article_fr_sample_fix", reply.json());
}

#[tokio::test]
async fn article_list_gives_one_entry_per_group_with_fallback_flag() {
    let reply = get(&fixture_router(), "/api/v1/articles?lang=fr").await;
    assert_eq!(reply.status, StatusCode::OK);
    let body = reply.json();
    assert_eq!(body["lang"], "fr");
    let articles = body["articles"].as_array().unwrap();
    assert_eq!(articles.len(), 2);
    let sample = articles.iter().find(|a| a["id"] == "sample-fix").unwrap();
    assert_eq!(sample["lang"], "fr");
    assert_eq!(sample["fallback"], false);
    assert_eq!(sample["translations"], serde_json::json!(["ar"]));
    assert_eq!(sample["url"], "/fr/articles/sample-fix");
    let only = articles.iter().find(|a| a["id"] == "arabic-only").unwrap();
    assert_eq!(only["lang"], "ar");
    assert_eq!(only["fallback"], true);
}

#[tokio::test]
async fn article_list_language_comes_from_accept_language_when_not_given() {
    let request = Request::get("/api/v1/articles")
        .header("accept-language", "ar-EG,ar;q=0.9,en;q=0.5")
        .body(Body::empty())
        .unwrap();
    let reply = send(&fixture_router(), request).await;
    assert_eq!(reply.json()["lang"], "ar");
    let reply = get(&fixture_router(), "/api/v1/articles").await;
    assert_eq!(reply.json()["lang"], "en");
}

#[tokio::test]
async fn unknown_article_gives_404_not_found() {
    let reply = get(&fixture_router(), "/api/v1/articles/fr/no-such-thing").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(reply.json()["error"]["code"], "not_found");
}

#[tokio::test]
async fn missing_translation_gives_404_naming_the_languages_it_has() {
    let reply = get(&fixture_router(), "/api/v1/articles/hi/sample-fix").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    let body = reply.json();
    assert_eq!(body["error"]["code"], "not_found");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("ar, fr")
    );
}

#[tokio::test]
async fn an_unknown_language_is_404_in_a_path_and_422_in_a_query() {
    let reply = get(&fixture_router(), "/api/v1/articles/de/sample-fix").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(reply.json()["error"]["code"], "not_found");
    let message = reply.json()["error"]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(message.contains("ar, hi, fr and en"), "{message}");
    let reply = get(&fixture_router(), "/api/v1/articles?lang=xx").await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.json()["error"]["code"], "unsupported_language");
}

#[tokio::test]
async fn hostile_ids_are_not_echoed_raw() {
    let reply = get(
        &fixture_router(),
        "/api/v1/articles/fr/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    )
    .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(
        reply.headers["content-type"], "application/json",
        "served as JSON, never HTML"
    );
    assert_eq!(reply.headers["x-content-type-options"], "nosniff");
}

#[tokio::test]
async fn unknown_route_and_wrong_method_give_json_errors() {
    let reply = get(&fixture_router(), "/api/v1/nothing").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(reply.json()["error"]["code"], "not_found");
    let request = Request::delete("/api/v1/articles")
        .body(Body::empty())
        .unwrap();
    let reply = send(&fixture_router(), request).await;
    assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(reply.json()["error"]["code"], "method_not_allowed");
}
