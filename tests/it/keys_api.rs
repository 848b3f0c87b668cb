//! API keys, rate limits and CORS on `/api/*`, through the router.

use std::net::SocketAddr;
use std::num::NonZeroU32;

use crate::helpers::{Reply, TestDb, router_with, send, send_with};
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use ilaj::db::keys;
use ilaj::web::RateLimits;

fn limits(anonymous: u32, key: u32) -> Option<RateLimits> {
    Some(RateLimits {
        anonymous_per_minute: NonZeroU32::new(anonymous).unwrap(),
        key_per_minute: NonZeroU32::new(key).unwrap(),
    })
}

/// A GET as if from `peer` over a real connection.
async fn get_from(router: &axum::Router, uri: &str, peer: &str, key: Option<&str>) -> Reply {
    let mut request = Request::get(uri);
    if let Some(key) = key {
        request = request.header("authorization", format!("Bearer {key}"));
    }
    let mut request = request.body(Body::empty()).unwrap();
    let addr: SocketAddr = peer.parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(addr));
    send(router, request).await
}

const ARTICLES: &str = "/api/v1/articles?lang=fr";

async fn anonymous_clients_get_429_with_retry_after_past_their_limit(db: &TestDb) {
    let router = router_with(db.open().await, limits(3, 100), None);
    for _ in 0..3 {
        let reply = get_from(&router, ARTICLES, "192.0.2.10:5000", None).await;
        assert_eq!(reply.status, StatusCode::OK);
    }
    let reply = get_from(&router, ARTICLES, "192.0.2.10:5001", None).await;
    assert_eq!(reply.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(reply.json()["error"]["code"], "rate_limited");
    let retry: u64 = reply.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=20).contains(&retry), "Retry-After {retry}");
    // Browser bots can read the refusal.
    assert_eq!(reply.headers["access-control-allow-origin"], "*");

    // Another client address has its own allowance.
    let other = get_from(&router, ARTICLES, "198.51.100.7:5000", None).await;
    assert_eq!(other.status, StatusCode::OK);
    // Health checks and pages are never limited.
    let health = get_from(&router, "/healthz", "192.0.2.10:5002", None).await;
    assert_eq!(health.status, StatusCode::OK);
}

async fn a_key_gets_its_own_higher_limit(db: &TestDb) {
    let store = db.open().await;
    let (_, key) = keys::create(store.as_ref(), "bot").await.unwrap();
    let router = router_with(store, limits(1, 5), None);
    assert_eq!(
        get_from(&router, ARTICLES, "192.0.2.20:1", None)
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        get_from(&router, ARTICLES, "192.0.2.20:1", None)
            .await
            .status,
        StatusCode::TOO_MANY_REQUESTS
    );
    // Same address, but with a key: counted against the key.
    for _ in 0..5 {
        let reply = get_from(&router, ARTICLES, "192.0.2.20:1", Some(&key)).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    }
    let reply = get_from(&router, ARTICLES, "192.0.2.20:1", Some(&key)).await;
    assert_eq!(reply.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("5 per minute for this API key")
    );
}

async fn a_revoked_key_is_refused(db: &TestDb) {
    let store = db.open().await;
    let (_, key) = keys::create(store.as_ref(), "old-bot").await.unwrap();
    let router = router_with(store.clone(), limits(100, 100), None);
    let reply = get_from(&router, ARTICLES, "192.0.2.30:1", Some(&key)).await;
    assert_eq!(reply.status, StatusCode::OK);

    keys::revoke(store.as_ref(), "old-bot").await.unwrap();
    let reply = get_from(&router, ARTICLES, "192.0.2.30:1", Some(&key)).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    assert_eq!(reply.json()["error"]["code"], "invalid_api_key");
    assert!(reply.text().contains("revoked"));
    assert!(
        reply.headers["www-authenticate"]
            .to_str()
            .unwrap()
            .starts_with("Bearer")
    );
}

async fn unknown_and_malformed_keys_are_refused(db: &TestDb) {
    let router = router_with(db.open().await, None, None);
    let unknown = format!("ilaj_{}", "0".repeat(64));
    for header in [
        format!("Bearer {unknown}"),
        "Bearer not-a-key".to_owned(),
        "Basic dXNlcjpwYXNz".to_owned(),
        "Bearer".to_owned(),
    ] {
        let reply = send_with(
            &router,
            "GET",
            ARTICLES,
            &[("authorization", header.as_str())],
            None,
        )
        .await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{header}");
        assert_eq!(reply.json()["error"]["code"], "invalid_api_key", "{header}");
    }
    // Pages ignore Authorization.
    let reply = send_with(
        &router,
        "GET",
        "/healthz",
        &[("authorization", "Bearer nope")],
        None,
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
}

on_both_databases!(
    anonymous_clients_get_429_with_retry_after_past_their_limit,
    a_key_gets_its_own_higher_limit,
    a_revoked_key_is_refused,
    unknown_and_malformed_keys_are_refused,
);

#[tokio::test]
async fn cors_preflight_is_answered_and_not_counted() {
    let db = TestDb::sqlite();
    let router = router_with(db.open().await, limits(1, 1), None);
    for _ in 0..3 {
        let reply = send_with(
            &router,
            "OPTIONS",
            "/api/v1/feedback",
            &[
                ("origin", "https://bot.example"),
                ("access-control-request-method", "POST"),
                (
                    "access-control-request-headers",
                    "authorization, content-type",
                ),
            ],
            None,
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK);
        assert_eq!(reply.headers["access-control-allow-origin"], "*");
        let allowed = reply.headers["access-control-allow-headers"]
            .to_str()
            .unwrap()
            .to_lowercase();
        assert!(allowed.contains("authorization"), "{allowed}");
    }
    // The one allowed request is still there.
    let reply = send_with(
        &router,
        "GET",
        ARTICLES,
        &[("origin", "https://bot.example")],
        None,
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.headers["access-control-allow-origin"], "*");
}

#[tokio::test]
async fn pages_get_no_cors_headers() {
    let db = TestDb::sqlite();
    let router = router_with(db.open().await, None, None);
    let reply = send_with(
        &router,
        "GET",
        "/healthz",
        &[("origin", "https://bot.example")],
        None,
    )
    .await;
    assert!(!reply.headers.contains_key("access-control-allow-origin"));
}
