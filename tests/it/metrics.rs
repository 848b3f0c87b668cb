//! `/metrics`: Prometheus text that parses, counters that move, access by token or by a
//! separate address; `--log-format json`.

use std::collections::BTreeMap;

use crate::helpers::{
    Server, TestDb, http_request, load, post_json, repo_path, run_ilaj, send_with,
};
use axum::http::StatusCode;
use ilaj::web::{self, AppState};
use serde_json::json;

const TOKEN: &str = "scrape-me-please";

/// One sample: metric name, labels, value.
type Sample = (String, BTreeMap<String, String>, f64);

/// Parses the Prometheus text exposition format (version 0.0.4) strictly enough to fail on
/// anything a scraper would refuse: comments are `# HELP name …` or `# TYPE name kind`, sample
/// lines `name{label="value",…} number`, names and label names in the allowed alphabet.
fn parse_prometheus(text: &str) -> Result<Vec<Sample>, String> {
    let name_ok = |name: &str| {
        let mut chars = name.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == ':')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
    };
    let mut samples = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let bad = |why: &str| format!("line {}: {why}: {line}", n + 1);
        if line.is_empty() {
            continue;
        }
        if let Some(comment) = line.strip_prefix("# ") {
            let mut parts = comment.splitn(3, ' ');
            match (parts.next(), parts.next(), parts.next()) {
                (Some("HELP"), Some(name), _) if name_ok(name) => {}
                (Some("TYPE"), Some(name), Some(kind))
                    if name_ok(name)
                        && ["counter", "gauge", "histogram", "summary", "untyped"]
                            .contains(&kind) => {}
                _ => return Err(bad("malformed comment")),
            }
            continue;
        }
        let (series, value) = line.rsplit_once(' ').ok_or_else(|| bad("no value"))?;
        let value: f64 = match value {
            "+Inf" => f64::INFINITY,
            "-Inf" => f64::NEG_INFINITY,
            "NaN" => f64::NAN,
            v => v.parse().map_err(|_| bad("value is not a number"))?,
        };
        let (name, labels) = match series.split_once('{') {
            None => (series, BTreeMap::new()),
            Some((name, rest)) => {
                let body = rest
                    .strip_suffix('}')
                    .ok_or_else(|| bad("unclosed labels"))?;
                let mut labels = BTreeMap::new();
                let mut rest = body;
                while !rest.is_empty() {
                    let (label, after) = rest.split_once("=\"").ok_or_else(|| bad("label"))?;
                    if !name_ok(label) {
                        return Err(bad("label name"));
                    }
                    let mut value = String::new();
                    let mut chars = after.char_indices();
                    let end = loop {
                        match chars.next() {
                            Some((_, '\\')) => match chars.next() {
                                Some((_, 'n')) => value.push('\n'),
                                Some((_, c @ ('\\' | '"'))) => value.push(c),
                                _ => return Err(bad("bad escape")),
                            },
                            Some((i, '"')) => break i,
                            Some((_, c)) => value.push(c),
                            None => return Err(bad("unterminated label value")),
                        }
                    };
                    labels.insert(label.to_owned(), value);
                    rest = &after[end + 1..];
                    rest = rest.strip_prefix(',').unwrap_or(rest);
                }
                (name, labels)
            }
        };
        if !name_ok(name) {
            return Err(bad("metric name"));
        }
        samples.push((name.to_owned(), labels, value));
    }
    Ok(samples)
}

/// The sum of the samples named `name` whose labels include `with`.
fn total(samples: &[Sample], name: &str, with: &[(&str, &str)]) -> f64 {
    samples
        .iter()
        .filter(|(n, labels, _)| {
            n == name
                && with
                    .iter()
                    .all(|(k, v)| labels.get(*k).map(String::as_str) == Some(*v))
        })
        .map(|(_, _, v)| v)
        .sum()
}

fn metrics_router(store: std::sync::Arc<dyn ilaj::db::Store>) -> axum::Router {
    let library = load(&repo_path("tests/fixtures/content")).library;
    web::router(
        AppState::with_services(
            library,
            web::Services {
                store: Some(store),
                metrics_token: Some(TOKEN.to_owned()),
                metrics_route: true,
                ..web::Services::default()
            },
        )
        .expect("index builds"),
    )
}

async fn scrape(router: &axum::Router) -> Vec<Sample> {
    let auth = format!("Bearer {TOKEN}");
    let reply = send_with(router, "GET", "/metrics", &[("authorization", &auth)], None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    let content_type = reply.headers["content-type"].to_str().unwrap();
    assert!(
        content_type.starts_with("text/plain; version=0.0.4"),
        "{content_type}"
    );
    parse_prometheus(&reply.text()).unwrap_or_else(|e| panic!("{e}\n{}", reply.text()))
}

#[tokio::test]
async fn metrics_parse_as_prometheus_text_and_count_requests_and_answers() {
    let db = TestDb::sqlite();
    let store = db.open().await;
    let router = metrics_router(store.clone());
    let before = scrape(&router).await;
    let route = [("route", "/api/v1/match"), ("status", "200")];
    let paste = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB";
    let reply = post_json(&router, "/api/v1/match", &json!({"text": paste})).await;
    assert_eq!(reply.status, StatusCode::OK);
    let answer = reply.json()["answer"].as_str().unwrap().to_owned();
    let missing = send_with(
        &router,
        "GET",
        "/api/v1/articles/fr/no-such-article",
        &[],
        None,
    )
    .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);

    let after = scrape(&router).await;
    // Other tests in this process count too: compare the difference, not the value.
    let grew =
        |name: &str, with: &[(&str, &str)]| total(&after, name, with) - total(&before, name, with);
    assert!(grew("ilaj_http_requests_total", &route) >= 1.0);
    assert!(
        grew(
            "ilaj_http_requests_total",
            &[("route", "/api/v1/articles/{lang}/{id}"), ("status", "404")]
        ) >= 1.0,
        "labelled by route pattern, not by path"
    );
    assert!(after.iter().all(|(_, labels, _)| {
        labels
            .get("route")
            .is_none_or(|r| !r.contains("no-such-article"))
    }));
    assert!(
        grew(
            "ilaj_http_request_duration_seconds_count",
            &[("route", "/api/v1/match")]
        ) >= 1.0
    );
    assert!(
        after.iter().any(
            |(n, labels, _)| n == "ilaj_http_request_duration_seconds_bucket"
                && labels.get("le").is_some_and(|le| le == "+Inf")
        ),
        "latency is a histogram"
    );
    assert!(
        grew(
            "ilaj_answers_total",
            &[("endpoint", "match"), ("answer", &answer)]
        ) >= 1.0
    );
    assert!(total(&after, "ilaj_index_articles", &[]) >= 1.0);
    assert!(
        after
            .iter()
            .any(|(n, _, _)| n == "ilaj_query_log_queue_depth")
    );
    // The match reaches the database through the queue.
    assert!(crate::helpers::eventually(|| async { store.query_count().await.unwrap() >= 1 }).await);
    let written = scrape(&router).await;
    assert!(total(&written, "ilaj_query_log_written_total", &[]) >= 1.0);
}

#[tokio::test]
async fn metrics_ask_for_their_token() {
    let db = TestDb::sqlite();
    let router = metrics_router(db.open().await);
    let reply = send_with(&router, "GET", "/metrics", &[], None).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    assert_eq!(reply.json()["error"]["code"], "metrics_token_required");
    let reply = send_with(
        &router,
        "GET",
        "/metrics",
        &[("authorization", "Bearer nope")],
        None,
    )
    .await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    assert_eq!(reply.json()["error"]["code"], "invalid_metrics_token");
    // Without token or address there is no /metrics at all.
    let plain = crate::helpers::router_with(db.open().await, None, None);
    let reply = send_with(&plain, "GET", "/metrics", &[], None).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
}

#[test]
fn a_separate_metrics_address_serves_metrics_and_the_public_one_does_not() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let data = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", data.path().join("db.sqlite").display());
    let addr = format!("127.0.0.1:{port}");
    let server = Server::start(&["--database", &url, "--metrics-addr", &addr], &[]);
    let (status, _) = server.request("GET", "/metrics", &[], None);
    assert_eq!(status, 404, "not on the public address");
    let (status, _) = server.request("GET", "/healthz", &[], None);
    assert_eq!(status, 200);
    let (status, body) = http_request(port, "GET", "/metrics", &[], None);
    assert_eq!(status, 200, "{body}");
    let samples = parse_prometheus(&body).unwrap();
    assert!(
        total(
            &samples,
            "ilaj_http_requests_total",
            &[("route", "/healthz")]
        ) >= 1.0
    );
}

#[test]
fn json_logs_are_one_object_a_line() {
    let data = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", data.path().join("db.sqlite").display());
    let (ok, _, stderr) = run_ilaj(
        &["--log-format", "json", "keys", "list", "--database", &url],
        &[],
    );
    assert!(ok, "{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(!lines.is_empty(), "the database start is logged");
    for line in lines {
        let event: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(
            event["level"].is_string() && event["timestamp"].is_string(),
            "{line}"
        );
    }
}
