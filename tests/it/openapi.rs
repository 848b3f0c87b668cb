//! The OpenAPI document: served, complete, its examples and the live answers matching its
//! schemas; and schemathesis against a running server.

use std::collections::BTreeSet;

use crate::helpers::{Server, TestDb, get, post_json, repo_path, router_with, run_ilaj, send_with};
use axum::http::StatusCode;
use ilaj::web::Code;
use serde_json::{Value, json};

fn spec() -> Value {
    ilaj::web::openapi::document().expect("openapi.yaml parses")
}

/// A validator for `schema`, whose `#/components/…` references resolve in the document.
fn validator(schema: &Value, spec: &Value) -> jsonschema::Validator {
    let root = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "allOf": [schema],
        "components": spec["components"],
    });
    jsonschema::validator_for(&root).unwrap_or_else(|e| panic!("schema {schema}: {e}"))
}

fn resolve<'a>(spec: &'a Value, value: &'a Value) -> &'a Value {
    match value.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let pointer = reference.trim_start_matches('#');
            resolve(
                spec,
                spec.pointer(pointer)
                    .unwrap_or_else(|| panic!("dangling {reference}")),
            )
        }
        None => value,
    }
}

/// The schema of the JSON answer of `method path` with `status`.
fn response_schema(spec: &Value, path: &str, method: &str, status: u16) -> Value {
    let operation = &spec["paths"][path][method];
    let response = resolve(spec, &operation["responses"][status.to_string()]);
    assert!(
        !response.is_null(),
        "{method} {path} does not document {status}"
    );
    response["content"]["application/json"]["schema"].clone()
}

fn assert_conforms(spec: &Value, path: &str, method: &str, status: u16, body: &Value) {
    let schema = response_schema(spec, path, method, status);
    let validator = validator(&schema, spec);
    let errors: Vec<String> = validator.iter_errors(body).map(|e| e.to_string()).collect();
    assert!(
        errors.is_empty(),
        "{method} {path} {status}: {errors:?}\n{body}"
    );
}

#[tokio::test]
async fn the_document_is_served_as_openapi_3_1_json() {
    let db = TestDb::sqlite();
    let router = router_with(db.open().await, None, None);
    let reply = get(&router, "/api/v1/openapi.json").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.headers["content-type"], "application/json");
    let served = reply.json();
    assert_eq!(served["openapi"], "3.1.0");
    assert_eq!(served, spec());
}

/// The API paths the router serves: every `/api/…` string literal of `src/web/mod.rs`
/// (`.route("/api/…", …)`).
fn routed_paths() -> BTreeSet<String> {
    let source = std::fs::read_to_string(repo_path("src/web/mod.rs")).unwrap();
    let literal = regex::Regex::new(r#""(/api/[^"\s]*)""#).unwrap();
    literal
        .captures_iter(&source)
        .map(|c| c[1].to_owned())
        .collect()
}

#[test]
fn every_api_route_of_the_router_is_described() {
    let routes = routed_paths();
    assert!(routes.len() >= 5, "{routes:?}");
    let spec = spec();
    let described: BTreeSet<String> = spec["paths"].as_object().unwrap().keys().cloned().collect();
    let missing: Vec<&String> = routes.difference(&described).collect();
    assert!(
        missing.is_empty(),
        "routes missing from openapi.yaml: {missing:?}"
    );
}

#[test]
fn every_example_matches_its_schema() {
    let spec = spec();
    let mut checked = 0;
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let mut media = Vec::new();
            if let Some(body) = operation.get("requestBody") {
                media.push(("request".to_owned(), &body["content"]["application/json"]));
            }
            for (status, response) in operation["responses"].as_object().unwrap() {
                let response = resolve(&spec, response);
                if let Some(content) = response.get("content") {
                    media.push((status.clone(), &content["application/json"]));
                }
            }
            for (which, media) in media {
                let mut examples: Vec<&Value> = media.get("example").into_iter().collect();
                if let Some(named) = media.get("examples").and_then(Value::as_object) {
                    examples.extend(named.values().map(|e| &resolve(&spec, e)["value"]));
                }
                if examples.is_empty() {
                    continue;
                }
                let validator = validator(&media["schema"], &spec);
                for example in examples {
                    let errors: Vec<String> = validator
                        .iter_errors(example)
                        .map(|e| e.to_string())
                        .collect();
                    assert!(errors.is_empty(), "{method} {path} {which}: {errors:?}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 10, "only {checked} examples checked");
}

#[tokio::test]
async fn live_answers_match_the_documented_schemas() {
    let spec = spec();
    let db = TestDb::sqlite();
    let store = db.open().await;
    let (_, key) = ilaj::db::keys::create(store.as_ref(), "bot").await.unwrap();
    ilaj::db::keys::revoke(store.as_ref(), "bot").await.unwrap();
    let router = router_with(
        store,
        Some(ilaj::web::RateLimits {
            anonymous_per_minute: std::num::NonZeroU32::new(12).unwrap(),
            key_per_minute: std::num::NonZeroU32::new(12).unwrap(),
        }),
        None,
    );

    let reply = get(&router, "/api/v1/articles?lang=fr").await;
    assert_conforms(&spec, "/api/v1/articles", "get", 200, &reply.json());
    let reply = get(&router, "/api/v1/articles/fr/sample-fix").await;
    assert_conforms(
        &spec,
        "/api/v1/articles/{lang}/{id}",
        "get",
        200,
        &reply.json(),
    );
    let reply = get(&router, "/api/v1/articles/fr/missing").await;
    assert_conforms(
        &spec,
        "/api/v1/articles/{lang}/{id}",
        "get",
        404,
        &reply.json(),
    );

    let vote = json!({"article": "sample-fix", "lang": "fr", "section": "check", "helpful": false});
    let reply = post_json(&router, "/api/v1/feedback", &vote).await;
    assert_eq!(reply.status, StatusCode::CREATED);
    assert_conforms(&spec, "/api/v1/feedback", "post", 201, &reply.json());
    let reply = post_json(&router, "/api/v1/feedback", &json!({"article": 1})).await;
    assert_conforms(
        &spec,
        "/api/v1/feedback",
        "post",
        reply.status.as_u16(),
        &reply.json(),
    );
    let reply = get(&router, "/api/v1/articles/ar/sample-fix/feedback").await;
    assert_conforms(
        &spec,
        "/api/v1/articles/{lang}/{id}/feedback",
        "get",
        200,
        &reply.json(),
    );

    let auth = format!("Bearer {key}");
    let reply = send_with(
        &router,
        "GET",
        "/api/v1/articles",
        &[("authorization", &auth)],
        None,
    )
    .await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    assert_conforms(&spec, "/api/v1/articles", "get", 401, &reply.json());

    let mut last = get(&router, "/api/v1/articles").await;
    for _ in 0..12 {
        last = get(&router, "/api/v1/articles").await;
    }
    assert_eq!(last.status, StatusCode::TOO_MANY_REQUESTS);
    assert_conforms(&spec, "/api/v1/articles", "get", 429, &last.json());
}

/// schemathesis (from PyPI) against a live server: no 5xx, every answer documented and
/// matching its schema. Required under CI; skipped with a note elsewhere when not installed.
#[test]
fn schemathesis_finds_no_failure() {
    let installed = std::process::Command::new("schemathesis")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
            panic!("schemathesis must be installed in CI (pip install schemathesis)");
        }
        eprintln!("skipping: schemathesis is not installed (pip install schemathesis)");
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", data.path().join("st.sqlite").display());
    // A key exercises the authenticated path; the generous limit keeps the run from being
    // throttled (429 is documented, but would hide everything else).
    let (ok, key, stderr) = run_ilaj(
        &[
            "keys",
            "create",
            "--name",
            "schemathesis",
            "--database",
            &url,
        ],
        &[],
    );
    assert!(ok, "{stderr}");
    let server = Server::start(
        &[
            "--database",
            &url,
            "--rate-limit-key",
            "1000000",
            "--rate-limit-anonymous",
            "1000000",
        ],
        &[],
    );
    // Described operations not routed yet are left out (and named), so the run checks what
    // the server serves; they join the run as soon as their route exists.
    let routes = routed_paths();
    let mut excluded = Vec::new();
    for path in spec()["paths"].as_object().unwrap().keys() {
        if path.starts_with("/api/") && !routes.contains(path) {
            eprintln!("schemathesis: {path} is described but not routed yet; left out");
            excluded.extend(["--exclude-path".to_owned(), path.clone()]);
        }
    }
    let output = std::process::Command::new("schemathesis")
        .current_dir(data.path())
        .args([
            "run",
            &format!("{}/api/v1/openapi.json", server.base_url()),
            "--checks",
            "not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance",
            "--max-examples",
            "40",
            "--header",
            &format!("Authorization: Bearer {}", key.trim()),
            "--request-timeout",
            "20",
            "--no-color",
            "--seed",
            "7",
        ])
        .args(&excluded)
        .env("SCHEMATHESIS_HOOKS", "")
        .output()
        .expect("schemathesis runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "schemathesis found failures:\n{stdout}\n{stderr}"
    );
}

#[test]
fn the_documented_error_codes_are_the_error_table() {
    let spec = spec();
    let documented: BTreeSet<String> =
        spec["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"]
            .as_array()
            .expect("the Error schema lists its codes")
            .iter()
            .map(|c| c.as_str().unwrap().to_owned())
            .collect();
    let table: BTreeSet<String> = Code::ALL.iter().map(|c| c.name().to_owned()).collect();
    assert_eq!(documented, table);
}

#[test]
fn the_readme_states_each_code_with_its_status() {
    let readme = std::fs::read_to_string(repo_path("README.md")).unwrap();
    for code in Code::ALL {
        let row = format!("| {} | `{}` |", code.status().as_u16(), code.name());
        assert!(readme.contains(&row), "README lacks {row}");
    }
    let rows = readme
        .lines()
        .filter(|l| l.starts_with("| 4") || l.starts_with("| 5"))
        .count();
    assert_eq!(rows, Code::ALL.len(), "README has codes the table does not");
}
