//! Two `ilaj serve` processes on one PostgreSQL database, as behind a load balancer: votes on
//! one reach the other's ranking within its refresh interval, a key revoked through the
//! shared database is refused by both at once, and rate limits are counted per process.

use std::time::{Duration, Instant};

use crate::helpers::{Server, TestDb, run_ilaj};

const REFRESH_SECONDS: u64 = 1;
const SEARCH: &str = "/api/v1/search?q=CUDA%20out%20of%20memory&lang=fr";

/// Top result's id and score on `server`.
fn top(server: &Server, auth: &str) -> (String, f64) {
    let (status, body) = server.request("GET", SEARCH, &[("Authorization", auth)], None);
    assert_eq!(status, 200, "{body}");
    let body: serde_json::Value = serde_json::from_str(&body).unwrap();
    (
        body["results"][0]["id"].as_str().unwrap().to_owned(),
        body["results"][0]["score"].as_f64().unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_postgres_database_share_votes_and_keys_but_not_rate_limits() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let url = db.url();
    // Created before the servers start, so both run the migrations against a ready schema.
    drop(db.open().await);
    let (ok, key, stderr) = run_ilaj(
        &["keys", "create", "--name", "bot", "--database", &url],
        &[],
    );
    assert!(ok, "{stderr}");
    let auth = format!("Bearer {}", key.trim());
    let refresh = REFRESH_SECONDS.to_string();
    let args = [
        "--database",
        &url,
        "--refresh-seconds",
        &refresh,
        "--rate-limit-anonymous",
        "2",
        "--rate-limit-key",
        "1000",
        "--reload-seconds",
        "0",
    ];
    let (a, b) = (Server::start(&args, &[]), Server::start(&args, &[]));

    // Votes cast on A move B's ranking within B's refresh interval.
    let (article, before) = top(&b, &auth);
    let vote = format!(r#"{{"article": "{article}", "lang": "fr", "helpful": false}}"#);
    for _ in 0..20 {
        let (status, body) = a.request(
            "POST",
            "/api/v1/feedback",
            &[("Authorization", &auth)],
            Some(&vote),
        );
        assert_eq!(status, 201, "{body}");
    }
    let voted = Instant::now();
    // 20 votes against with the 10 neutral ones in front: factor 1 + (5/30 - 1/2) × 0.2.
    let expected = 1.0 + (5.0 / 30.0 - 0.5) * 0.2;
    let deadline = Duration::from_secs(REFRESH_SECONDS) + Duration::from_secs(3);
    loop {
        let (id, score) = top(&b, &auth);
        if id != article || (score / before - expected).abs() < 0.005 {
            break;
        }
        assert!(
            voted.elapsed() < deadline,
            "B's ranking ignored A's votes for {:?} (score {score}, before {before})",
            voted.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // A key revoked in the shared database is refused by both servers on the next request:
    // keys are looked up on every request, never cached.
    for server in [&a, &b] {
        let (status, _) = server.request(
            "GET",
            "/api/v1/articles?lang=fr",
            &[("Authorization", &auth)],
            None,
        );
        assert_eq!(status, 200);
    }
    let (ok, _, stderr) = run_ilaj(&["keys", "revoke", "bot", "--database", &url], &[]);
    assert!(ok, "{stderr}");
    for server in [&a, &b] {
        let (status, body) = server.request(
            "GET",
            "/api/v1/articles?lang=fr",
            &[("Authorization", &auth)],
            None,
        );
        assert_eq!(status, 401, "{body}");
        assert!(body.contains("invalid_api_key"), "{body}");
    }

    // Rate limits are each process's own: the same client gets the limit from each server.
    let statuses = |server: &Server| -> Vec<u16> {
        (0..3)
            .map(|_| {
                server
                    .request("GET", "/api/v1/articles?lang=fr", &[], None)
                    .0
            })
            .collect()
    };
    assert_eq!(statuses(&a), [200, 200, 429]);
    assert_eq!(statuses(&b), [200, 200, 429]);

    drop((a, b));
    db.cleanup().await;
}
