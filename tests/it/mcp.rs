//! MCP for agents: the tools answer exactly what the REST API answers, refusals carry the REST
//! error codes, and the official Python SDK (PyPI `mcp`) drives the real server over HTTP and
//! over stdio (`tests/mcp/client.py`).

use std::sync::LazyLock;

use crate::helpers::{Server, post_json, repo_path, router_for, run_ilaj, send_with};
use axum::Router;
use axum::http::StatusCode;
use serde_json::{Value, json};

static CATALOG: LazyLock<Router> = LazyLock::new(|| router_for(&repo_path("content")));

fn seed_paste() -> String {
    std::fs::read_to_string(repo_path("eval/seed-oom-example.txt")).expect("seed example")
}

/// One JSON-RPC request to `/mcp` (stateless: no session needed); returns the JSON answer.
async fn rpc(method: &str, params: Value, headers: &[(&str, &str)]) -> Value {
    let mut all = vec![
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", "2025-06-18"),
        ("host", "ilaj.test"),
    ];
    all.extend_from_slice(headers);
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let reply = send_with(&CATALOG, "POST", "/mcp", &all, Some(&body)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    reply.json()
}

async fn call_tool(name: &str, arguments: Value, headers: &[(&str, &str)]) -> Value {
    let answer = rpc(
        "tools/call",
        json!({"name": name, "arguments": arguments}),
        headers,
    )
    .await;
    answer["result"].clone()
}

/// The answer without its per-request match id (a fresh random one on every call).
fn without_match_id(mut answer: Value) -> Value {
    if let Some(object) = answer.as_object_mut() {
        assert!(
            object.remove("match_id").is_some(),
            "a match id is sent: {answer:?}"
        );
    }
    answer
}

#[tokio::test]
async fn mcp_tools_answer_exactly_what_the_rest_api_answers() {
    let paste = seed_paste();
    let rest = post_json(
        &CATALOG,
        "/api/v1/match",
        &json!({"text": paste, "lang": "fr", "limit": 4}),
    )
    .await;
    assert_eq!(rest.status, StatusCode::OK);
    let tool = call_tool(
        "match_error",
        json!({"text": paste, "lang": "fr", "limit": 4}),
        &[],
    )
    .await;
    assert_eq!(tool["isError"], false, "{tool}");
    let structured = without_match_id(tool["structuredContent"].clone());
    assert_eq!(structured, without_match_id(rest.json()));
    assert_eq!(structured["results"][0]["id"], "cuda-oom-training");
    assert!(
        ["confident", "uncertain", "none"].contains(&structured["answer"].as_str().unwrap()),
        "{structured}"
    );

    // Accept-Language picks the language on both when the arguments do not.
    let rest = send_with(
        &CATALOG,
        "GET",
        "/api/v1/search?q=NCCL%20watchdog%20timeout&limit=3",
        &[("accept-language", "hi-IN,hi;q=0.9")],
        None,
    )
    .await;
    assert_eq!(rest.status, StatusCode::OK);
    let tool = call_tool(
        "search_fixes",
        json!({"q": "NCCL watchdog timeout", "limit": 3}),
        &[("accept-language", "hi-IN,hi;q=0.9")],
    )
    .await;
    let structured = without_match_id(tool["structuredContent"].clone());
    assert_eq!(structured["lang"], "hi");
    assert_eq!(structured, without_match_id(rest.json()));

    let rest = send_with(
        &CATALOG,
        "GET",
        "/api/v1/articles/ar/device-mismatch",
        &[],
        None,
    )
    .await;
    let tool = call_tool(
        "get_article",
        json!({"lang": "ar", "id": "device-mismatch"}),
        &[],
    )
    .await;
    assert_eq!(tool["structuredContent"], rest.json());

    let body =
        json!({"n_layer": 6, "n_head": 6, "n_embd": 384, "batch_size": 32, "precision": "fp32"});
    let rest = post_json(&CATALOG, "/api/v1/estimate", &body).await;
    assert_eq!(rest.status, StatusCode::OK);
    let tool = call_tool("estimate_memory", body, &[]).await;
    assert_eq!(tool["structuredContent"], rest.json());
}

#[tokio::test]
async fn mcp_text_answers_are_short_localized_and_cite_the_fixing_section() {
    let tool = call_tool(
        "match_error",
        json!({"text": seed_paste(), "lang": "ar"}),
        &[],
    )
    .await;
    let text = tool["content"][0]["text"].as_str().unwrap();
    let first = &tool["structuredContent"]["results"][0];
    assert!(text.contains(first["title"].as_str().unwrap()), "{text}");
    assert!(
        text.contains(first["section"]["url"].as_str().unwrap()),
        "{text}"
    );
    assert!(text.lines().count() <= 6, "{text}");
    assert!(
        text.chars().any(|c| ('\u{0600}'..='\u{06FF}').contains(&c)),
        "Arabic: {text}"
    );
}

#[tokio::test]
async fn an_agent_is_told_what_to_ask_when_the_situation_is_a_guess_and_can_answer_it() {
    let bare = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB";
    let tool = call_tool("match_error", json!({"text": bare, "lang": "fr"}), &[]).await;
    let text = tool["content"][0]["text"].as_str().unwrap();
    let ask = &tool["structuredContent"]["ask"];
    assert!(text.contains(ask["question"].as_str().unwrap()), "{text}");
    assert!(text.contains("situation=llm_serving"), "{text}");
    let answered = call_tool(
        "match_error",
        json!({"text": bare, "lang": "fr", "situation": "llm_serving"}),
        &[],
    )
    .await;
    let answer = &answered["structuredContent"];
    assert_eq!(
        answer["results"][0]["id"], "llm-inference-kv-cache",
        "{answer}"
    );
    assert!(answer.get("ask").is_none());
}

#[tokio::test]
async fn mcp_refusals_are_tool_errors_carrying_the_rest_error_codes() {
    let cases = [
        (
            "match_error",
            json!({"text": "x", "lang": "de"}),
            "unsupported_language",
        ),
        ("match_error", json!({"text": "   "}), "empty_text"),
        (
            "match_error",
            json!({"text": "x", "limit": 0}),
            "invalid_limit",
        ),
        ("match_error", json!({"lang": "fr"}), "missing_field"),
        ("match_error", json!({"text": 42}), "invalid_field"),
        (
            "search_fixes",
            json!({"q": "a".repeat(5000)}),
            "text_too_large",
        ),
        (
            "get_article",
            json!({"lang": "fr", "id": "nope"}),
            "not_found",
        ),
        ("estimate_memory", json!({"n_layer": 12}), "missing_field"),
        (
            "estimate_memory",
            json!({"n_layer": 12, "n_head": 5, "n_embd": 768}),
            "not_divisible",
        ),
        ("no_such_tool", json!({}), "not_found"),
    ];
    for (tool, arguments, code) in cases {
        let result = call_tool(tool, arguments.clone(), &[]).await;
        assert_eq!(result["isError"], true, "{tool} {arguments}: {result}");
        assert_eq!(
            result["structuredContent"]["error"]["code"], code,
            "{tool} {arguments}: {result}"
        );
        let text = result["content"][0]["text"].as_str().unwrap();
        assert!(text.starts_with(code), "{text}");
    }
}

#[tokio::test]
async fn tool_input_schemas_come_from_the_rest_request_types() {
    let tools = rpc("tools/list", json!({}), &[]).await["result"]["tools"].clone();
    let schema = |name: &str| {
        tools
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("{name} listed"))["inputSchema"]
            .clone()
    };
    assert_eq!(schema("match_error")["required"], json!(["text"]));
    assert_eq!(schema("match_error")["properties"]["limit"]["maximum"], 20);
    assert_eq!(schema("search_fixes")["required"], json!(["q"]));
    let mut required: Vec<String> =
        serde_json::from_value(schema("get_article")["required"].clone()).unwrap();
    required.sort();
    assert_eq!(required, ["id", "lang"]);
    // Every estimate field the REST body takes, and its enumerations.
    let estimate = schema("estimate_memory");
    let fields: Vec<&str> = estimate["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    for field in ilaj::estimator::field_names::<ilaj::estimator::EstimateInput>() {
        assert!(fields.contains(&field.as_str()), "{field} in {fields:?}");
    }
    assert!(estimate.to_string().contains("amp_bf16"), "{estimate}");
}

#[tokio::test]
async fn articles_are_resources_read_as_markdown() {
    let listed = rpc("resources/list", json!({}), &[]).await;
    let resources = listed["result"]["resources"].as_array().unwrap();
    let library = crate::helpers::load(&repo_path("content")).library;
    assert_eq!(resources.len(), library.len());
    let read = rpc(
        "resources/read",
        json!({"uri": "ilaj://articles/en/cuda-oom-training"}),
        &[],
    )
    .await;
    let contents = &read["result"]["contents"][0];
    assert_eq!(contents["mimeType"], "text/markdown");
    let text = contents["text"].as_str().unwrap();
    let article = library
        .get("cuda-oom-training", ilaj::i18n::Lang::En)
        .unwrap();
    assert!(
        text.starts_with(&format!("# {}\n", article.title)),
        "{text}"
    );
    assert!(text.contains("```"), "code blocks kept");
    assert!(!text.contains("{#"), "heading ids dropped: {text}");
    let missing = rpc(
        "resources/read",
        json!({"uri": "ilaj://articles/xx/cuda-oom-training"}),
        &[],
    )
    .await;
    assert_eq!(missing["error"]["data"]["error"]["code"], "not_found");
}

// --- The official Python SDK against the real binary ------------------------------------------

/// Whether `python3` can import the MCP SDK. Under CI it must: a missing SDK fails the test
/// instead of skipping it.
fn python_sdk_available() -> bool {
    let available = std::process::Command::new("python3")
        .args(["-c", "import mcp.client.streamable_http, mcp.client.stdio"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !available {
        if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
            panic!("the MCP Python SDK must be installed in CI (python3 -m pip install mcp)");
        }
        eprintln!("skipping: the MCP Python SDK is not installed (python3 -m pip install mcp)");
    }
    available
}

fn run_client(args: &[&str]) {
    let started = std::time::Instant::now();
    let output = std::process::Command::new("python3")
        .arg(repo_path("tests/mcp/client.py"))
        .args(args)
        .args([
            "--paste",
            repo_path("eval/seed-oom-example.txt").to_str().unwrap(),
        ])
        .current_dir(repo_path(""))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the Python MCP client failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("all checks passed"), "{stdout}");
    eprintln!(
        "Python MCP client ({}): {} checks in {:.1} s",
        args[0],
        stdout.lines().filter(|l| l.starts_with("ok ")).count(),
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn the_python_sdk_drives_the_server_over_streamable_http() {
    if !python_sdk_available() {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", data.path().join("mcp.sqlite").display());
    let (ok, key, stderr) = run_ilaj(
        &["keys", "create", "--name", "agent", "--database", &url],
        &[],
    );
    assert!(ok, "{stderr}");
    let server = Server::start(&["--database", &url, "--reload-seconds", "0"], &[]);
    run_client(&[
        "http",
        &format!("{}/mcp", server.base_url()),
        "--key",
        key.trim(),
    ]);
}

#[test]
fn the_python_sdk_drives_ilaj_mcp_over_stdio() {
    if !python_sdk_available() {
        return;
    }
    run_client(&[
        "stdio",
        "--ilaj",
        env!("CARGO_BIN_EXE_ilaj"),
        "--content",
        repo_path("content").to_str().unwrap(),
    ]);
}

#[tokio::test]
async fn mcp_messages_count_against_the_same_rate_limit_as_the_api() {
    let db = crate::helpers::TestDb::sqlite();
    let limits = ilaj::web::RateLimits {
        anonymous_per_minute: std::num::NonZeroU32::new(2).unwrap(),
        key_per_minute: std::num::NonZeroU32::new(2).unwrap(),
    };
    let router = crate::helpers::router_with(db.open().await, Some(limits), None);
    let headers = [
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", "2025-06-18"),
        ("host", "ilaj.test"),
    ];
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let api = send_with(&router, "GET", "/api/v1/search?q=NCCL", &headers, None).await;
    assert_eq!(api.status, StatusCode::OK);
    let first = send_with(&router, "POST", "/mcp", &headers, Some(&list)).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text());
    let refused = send_with(&router, "POST", "/mcp", &headers, Some(&list)).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.json()["error"]["code"], "rate_limited");
    assert!(refused.headers.contains_key("retry-after"));
    let bad_key = [("authorization", "Bearer ilaj_unknown"), headers[2]];
    let refused = send_with(&router, "POST", "/mcp", &bad_key, Some(&list)).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    assert_eq!(refused.json()["error"]["code"], "invalid_api_key");
}
