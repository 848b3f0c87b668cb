//! `POST /api/v1/match` and `GET /api/v1/search` answer as the contract says, and bad input
//! gets a JSON error with a stable code.

use std::sync::LazyLock;

use crate::helpers::{get, post_json, repo_path, router_for, send};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};

static CATALOG: LazyLock<Router> = LazyLock::new(|| router_for(&repo_path("content")));
static FIXTURES: LazyLock<Router> =
    LazyLock::new(|| router_for(&repo_path("tests/fixtures/content")));

fn seed_paste() -> String {
    std::fs::read_to_string(repo_path("eval/seed-oom-example.txt")).expect("seed example")
}

/// The diagnosis's sentences.
fn explanation_of(diagnosis: &Value) -> Vec<&str> {
    diagnosis["explanation"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect()
}

async fn match_text(text: &str, lang: &str) -> Value {
    let reply = post_json(
        &CATALOG,
        "/api/v1/match",
        &json!({"text": text, "lang": lang}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    reply.json()
}

#[tokio::test]
async fn seed_traceback_gets_the_training_article_in_french_with_its_figures() {
    let body = match_text(&seed_paste(), "fr").await;
    assert_eq!(body["lang"], "fr");
    let diagnosis = &body["diagnosis"];
    assert_eq!(diagnosis["kind"], "cuda_oom");
    assert_eq!(diagnosis["exception"], "torch.cuda.OutOfMemoryError");
    let facts = &diagnosis["facts"];
    assert_eq!(
        facts["tried_to_allocate_bytes"], 6_592_774_799_u64,
        "6.14 GiB"
    );
    assert_eq!(
        facts["total_capacity_bytes"], 12_552_041_923_u64,
        "11.69 GiB"
    );
    assert_eq!(facts["free_bytes"], 2_877_628_088_u64, "2.68 GiB");
    assert_eq!(
        facts["reserved_unallocated_bytes"], 36_825_989_u64,
        "35.12 MiB"
    );
    assert_eq!(facts["device"], 0);
    let frames = diagnosis["frames"].as_array().unwrap();
    assert!(
        frames
            .iter()
            .any(|f| f["function"] == "estimate_loss" && f["line"] == 224)
    );
    let explanation = explanation_of(diagnosis);
    assert!(
        explanation.iter().any(|s| s.contains("6,14\u{a0}Gio")),
        "{explanation:?}"
    );
    assert!(
        explanation
            .iter()
            .any(|s| s.contains("logits") && s.contains("50\u{202f}304")),
        "names the logits tensor: {explanation:?}"
    );
    let calculator = diagnosis["calculator_url"].as_str().unwrap();
    assert!(
        calculator.starts_with("/fr/calculators/allocation?tried_to_allocate_bytes=6592774799")
    );
    assert!(
        calculator.contains("vocab_size=50304&block_size=1024&batch_size=64"),
        "{calculator}"
    );

    let first = &body["results"][0];
    assert_eq!(first["id"], "cuda-oom-training");
    assert_eq!(first["lang"], "fr");
    assert_eq!(first["fallback"], false);
    assert_eq!(first["url"], "/fr/articles/cuda-oom-training");
    assert_eq!(first["section"]["id"], "fix-reduce-batch-size");
    assert_eq!(
        first["section"]["url"],
        "/fr/articles/cuda-oom-training#fix-reduce-batch-size"
    );
    assert!(!first["snippet"].as_str().unwrap().is_empty());
    assert_eq!(first["translations"], json!(["ar", "hi", "en"]));
}

/// A request of 3.75 GiB is also some batch × sequence × vocabulary product; from an
/// image generator's bare message that reading would be invented, so it is not offered.
#[tokio::test]
async fn an_oom_without_a_language_model_gets_no_logits_reading() {
    let paste = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.75 GiB (GPU 0; 8.00 GiB total capacity; 5.89 GiB already allocated; 0 bytes free; 6.00 GiB reserved in total by PyTorch)";
    for (text, names_logits) in [
        (paste.to_owned(), false),
        (
            format!("  File \"train.py\", line 9, in step\n    logits = model(x)\n{paste}"),
            true,
        ),
    ] {
        let body = match_text(&text, "en").await;
        let diagnosis = &body["diagnosis"];
        let explanation = diagnosis["explanation"].to_string();
        assert_eq!(
            explanation.contains("logits"),
            names_logits,
            "{explanation}"
        );
        let calculator = diagnosis["calculator_url"].as_str().unwrap();
        assert_eq!(
            calculator.contains("vocab_size="),
            names_logits,
            "{calculator}"
        );
    }
}

#[tokio::test]
async fn results_hold_one_entry_per_group_and_respect_the_limit() {
    let reply = post_json(
        &CATALOG,
        "/api/v1/match",
        &json!({"text": seed_paste(), "lang": "hi", "limit": 3}),
    )
    .await;
    let results = reply.json()["results"].as_array().unwrap().clone();
    assert!(results.len() <= 3 && !results.is_empty());
    let mut ids: Vec<&str> = results.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert!(results.iter().all(|r| r["lang"] == "hi"));
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), results.len());
}

#[tokio::test]
async fn result_ids_do_not_depend_on_the_requested_language() {
    let text = "RuntimeError: DataLoader worker (pid 46794) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory.";
    let mut runs = Vec::new();
    for lang in ["ar", "hi", "fr", "en"] {
        let body = match_text(text, lang).await;
        let ids: Vec<String> = body["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap().to_owned())
            .collect();
        runs.push(ids);
    }
    assert_eq!(runs[0][0], "dataloader-worker-crash");
    assert!(runs.windows(2).all(|w| w[0] == w[1]), "{runs:?}");
}

#[tokio::test]
async fn language_comes_from_accept_language_when_the_body_has_none() {
    let request = Request::post("/api/v1/match")
        .header("content-type", "application/json")
        .header("accept-language", "ar;q=0.9, fr;q=0.8")
        .body(Body::from(
            json!({"text": "CUDA error: device-side assert triggered"}).to_string(),
        ))
        .unwrap();
    let body = send(&CATALOG, request).await.json();
    assert_eq!(body["lang"], "ar");
    assert_eq!(body["results"][0]["id"], "device-side-assert");
    assert_eq!(body["results"][0]["lang"], "ar");
    let explanation = body["diagnosis"]["explanation"][0]
        .as_str()
        .unwrap_or_default();
    assert!(
        explanation.contains("CUDA_LAUNCH_BLOCKING=1") && explanation.contains("غير متزامن"),
        "asynchronous kernel errors are explained in Arabic: {explanation}"
    );
    let body = post_json(
        &CATALOG,
        "/api/v1/match",
        &json!({"text": "NCCL watchdog timeout"}),
    )
    .await
    .json();
    assert_eq!(body["lang"], "en");
}

#[tokio::test]
async fn missing_translation_falls_back_and_says_so() {
    let reply = get(&FIXTURES, "/api/v1/search?q=NCCL%20timeout&lang=fr").await;
    assert_eq!(reply.status, StatusCode::OK);
    let first = &reply.json()["results"][0];
    assert_eq!(first["id"], "arabic-only");
    assert_eq!(first["lang"], "ar");
    assert_eq!(first["fallback"], true);
}

#[tokio::test]
async fn search_finds_french_words_in_french_articles() {
    let reply = get(
        &CATALOG,
        "/api/v1/search?q=m%C3%A9moire%20r%C3%A9serv%C3%A9e%20fragment%C3%A9e&lang=fr&limit=3",
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    let body = reply.json();
    assert_eq!(body["lang"], "fr");
    assert_eq!(body["results"][0]["id"], "cuda-oom-fragmentation");
    assert!(body["results"].as_array().unwrap().len() <= 3);
}

async fn error_code(router: &Router, request: Request<Body>) -> (StatusCode, String) {
    let reply = send(router, request).await;
    let code = reply.json()["error"]["code"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    (reply.status, code)
}

fn post_raw(body: impl Into<Body>, content_type: Option<&str>) -> Request<Body> {
    let mut builder = Request::post("/api/v1/match");
    if let Some(content_type) = content_type {
        builder = builder.header("content-type", content_type);
    }
    builder.body(body.into()).unwrap()
}

#[tokio::test]
async fn bad_match_requests_get_stable_error_codes() {
    let json_type = Some("application/json");
    let cases: Vec<(Request<Body>, StatusCode, &str)> = vec![
        (
            post_raw(r#"{"text": "   "}"#, json_type),
            StatusCode::UNPROCESSABLE_ENTITY,
            "empty_text",
        ),
        (
            post_raw(r#"{"text": "x", "limit": 0}"#, json_type),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_limit",
        ),
        (
            post_raw(r#"{"text": "x", "limit": 21}"#, json_type),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_limit",
        ),
        (
            post_raw(r#"{"text": "x", "lang": "de"}"#, json_type),
            StatusCode::UNPROCESSABLE_ENTITY,
            "unsupported_language",
        ),
        (
            post_raw(r#"{"text": "x", "situation": "gaming"}"#, json_type),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_field",
        ),
        (
            post_raw(r#"{"text": 5}"#, json_type),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_field",
        ),
        (
            post_raw(r#"{"lang": "fr"}"#, json_type),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_field",
        ),
        (
            post_raw(r#"{"text": "x""#, json_type),
            StatusCode::BAD_REQUEST,
            "invalid_json",
        ),
        (
            post_raw(&b"{\"text\": \"\xff\xfe\"}"[..], json_type),
            StatusCode::BAD_REQUEST,
            "invalid_json",
        ),
        (
            post_raw(r#"{"text": "x"}"#, None),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
        ),
        (
            post_raw(
                json!({"text": "a".repeat(256 * 1024 + 1)}).to_string(),
                json_type,
            ),
            StatusCode::PAYLOAD_TOO_LARGE,
            "text_too_large",
        ),
        (
            post_raw(
                json!({"text": "a".repeat(2 * 1024 * 1024)}).to_string(),
                json_type,
            ),
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
        ),
    ];
    for (request, status, code) in cases {
        assert_eq!(
            error_code(&CATALOG, request).await,
            (status, code.to_owned())
        );
    }
}

#[tokio::test]
async fn bad_search_requests_get_stable_error_codes() {
    for (uri, status, code) in [
        (
            "/api/v1/search?lang=fr",
            StatusCode::UNPROCESSABLE_ENTITY,
            "empty_text",
        ),
        (
            "/api/v1/search?q=oom&limit=abc",
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_limit",
        ),
        (
            "/api/v1/search?q=oom&lang=xx",
            StatusCode::UNPROCESSABLE_ENTITY,
            "unsupported_language",
        ),
    ] {
        let request = Request::get(uri).body(Body::empty()).unwrap();
        assert_eq!(
            error_code(&CATALOG, request).await,
            (status, code.to_owned()),
            "{uri}"
        );
    }
}

#[tokio::test]
async fn hostile_or_odd_text_is_answered_without_echoing_markup() {
    let long_line = "x".repeat(200_000);
    let texts = [
        "<script>alert(1)</script> CUDA out of memory",
        "title:foo AND -bar \"unclosed ( [ { * ? ~ ^2",
        "\u{0}\u{1}\u{7}\u{1b}[31m binary \u{fffd}\u{fffd}",
        long_line.as_str(),
        "نفاد الذاكرة\u{200f} मेमोरी \u{202e}reversed",
    ];
    for text in texts {
        let reply = post_json(
            &CATALOG,
            "/api/v1/match",
            &json!({"text": text, "lang": "fr"}),
        )
        .await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "{}",
            &text[..text.len().min(40)]
        );
        assert!(
            !reply.text().contains("<script>"),
            "markup is never echoed raw"
        );
        let reply = get(
            &CATALOG,
            &format!(
                "/api/v1/search?q={}&lang=ar",
                urlencode(&text[..text.len().min(1000)])
            ),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK);
    }
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

#[tokio::test]
async fn a_known_error_is_answered_confidently_and_says_how_sure_each_result_is() {
    let body = match_text(&seed_paste(), "ar").await;
    assert_eq!(body["answer"], "confident", "{body}");
    let results = body["results"].as_array().unwrap();
    let confidences: Vec<f64> = results
        .iter()
        .map(|r| r["confidence"].as_f64().expect("confidence"))
        .collect();
    assert!(confidences.iter().all(|c| (0.0..=1.0).contains(c)));
    assert!(
        confidences.windows(2).all(|w| w[0] >= w[1]),
        "{confidences:?}"
    );
    assert!(confidences[0] > confidences[1] + 0.1, "{confidences:?}");
}

#[tokio::test]
async fn errors_no_article_covers_are_never_answered_confidently() {
    for text in [
        "hello how are you",
        "ModuleNotFoundError: No module named 'torch'",
        "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    import gradio\nImportError: cannot import name 'Blocks' from 'gradio'",
    ] {
        let body = match_text(text, "fr").await;
        assert_ne!(body["answer"], "confident", "{text}: {body}");
        assert!(
            ["none", "uncertain"].contains(&body["answer"].as_str().unwrap()),
            "{body}"
        );
    }
    let reply = get(&CATALOG, "/api/v1/search?q=hello%20how%20are%20you&lang=hi").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_ne!(reply.json()["answer"], "confident");
}

#[tokio::test]
async fn another_frameworks_out_of_memory_is_answered_none_and_named_in_the_diagnosis() {
    let tensorflow = "Traceback (most recent call last):\n  File \"train.py\", line 88, in <module>\n    model.fit(x, y, batch_size=256)\n  File \"/usr/lib/python3/site-packages/tensorflow/python/client/session.py\", line 1429, in _call_tf_sessionrun\n    run_metadata)\ntensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[256,112,112,64] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc";
    let body = match_text(tensorflow, "fr").await;
    assert_eq!(body["answer"], "none", "{body}");
    for result in body["results"].as_array().unwrap() {
        assert!(result["confidence"].as_f64().unwrap() < 0.5, "{result}");
    }
    let explanation = body["diagnosis"]["explanation"].to_string();
    assert!(explanation.contains("TensorFlow"), "{explanation}");
    // The same out-of-memory words from PyTorch are still a known fix.
    let pytorch = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.65 GiB of which 1.10 GiB is free. Of the allocated memory 21.9 GiB is allocated by PyTorch, and 120.00 MiB is reserved by PyTorch but unallocated.";
    assert_ne!(match_text(pytorch, "fr").await["answer"], "none");
}

#[tokio::test]
async fn a_vllm_log_naming_a_model_links_the_llm_calculator_prefilled() {
    let paste = "INFO 01-20 worker.py:240] the current vLLM instance can use total_gpu_memory (39.50GiB) x gpu_memory_utilization (0.90) = 35.55GiB\n\
INFO 01-20 llm_engine.py:234] Initializing an LLM engine (v0.6.6) with config: model='meta-llama/Llama-3.1-8B', max_model_len=131072, gpu_memory_utilization=0.9\n\
ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache (91000). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.";
    let reply = post_json(
        &FIXTURES,
        "/api/v1/match",
        &json!({"text": paste, "lang": "en"}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    let diagnosis = &reply.json()["diagnosis"];
    let url = diagnosis["calculator_url"].as_str().unwrap();
    assert!(
        url.starts_with("/en/calculators/llm-memory?model=meta-llama%2FLlama-3.1-8B&phase=generate&max_model_len=131072"),
        "{url}"
    );
    assert!(url.contains("gpu_memory_gib=39.5"), "{url}");
    let explanation = explanation_of(diagnosis);
    // 131,072 tokens × 131,072 bytes = 16 GiB for one sequence, which does not fit next
    // to 15 GiB of weights on a 39.5 GiB card at 90 %.
    assert!(
        explanation
            .iter()
            .any(|s| s.contains("16.00\u{a0}GiB") && s.contains("131,072 bytes per token")),
        "{explanation:?}"
    );
    assert!(
        explanation
            .iter()
            .any(|s| s.contains("less than one sequence of 131,072")),
        "{explanation:?}"
    );
    // The page the link opens shows the same run.
    let page = get(&FIXTURES, url).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.text()
            .contains(r#"<option value="generate" selected>"#)
    );
}

const BARE_OOM: &str = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.65 GiB of which 1.20 GiB is free.";

#[tokio::test]
async fn a_bare_out_of_memory_message_asks_where_it_struck_and_each_answer_leads_to_its_article() {
    let first = match_text(BARE_OOM, "hi").await;
    assert_eq!(first["answer"], "uncertain", "{first}");
    let ask = &first["ask"];
    assert!(
        ask["question"].as_str().is_some_and(|q| !q.is_empty()),
        "{ask}"
    );
    let choices = ask["choices"].as_array().expect("choices");
    assert_eq!(choices.len(), 6, "{ask}");
    for choice in choices {
        let situation = choice["situation"].as_str().unwrap();
        let reply = post_json(
            &CATALOG,
            "/api/v1/match",
            &json!({"text": BARE_OOM, "lang": "hi", "situation": situation}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
        let answer = reply.json();
        assert_eq!(answer["results"][0]["id"], choice["id"], "{situation}");
        assert!(answer.get("ask").is_none(), "{situation}: asked again");
    }
}

#[tokio::test]
async fn a_situation_stated_for_an_error_other_than_out_of_memory_changes_nothing() {
    let text = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x3 and 5x6)";
    let plain = match_text(text, "fr").await;
    let stated = post_json(
        &CATALOG,
        "/api/v1/match",
        &json!({"text": text, "lang": "fr", "situation": "image_generation"}),
    )
    .await
    .json();
    assert_eq!(plain["results"], stated["results"]);
    assert!(plain.get("ask").is_none());
}

#[tokio::test]
async fn an_unknown_situation_names_the_field_and_the_values_it_takes() {
    let reply = post_json(
        &CATALOG,
        "/api/v1/match",
        &json!({"text": BARE_OOM, "situation": "gaming"}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    let error = &reply.json()["error"];
    assert_eq!(error["field"], "situation");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("image_generation"),
        "{error}"
    );
}

#[tokio::test]
async fn input_and_weight_types_that_differ_in_precision_are_dtype_and_in_device_are_device() {
    for (line, expected) in [
        (
            "RuntimeError: Input type (torch.FloatTensor) and weight type (torch.HalfTensor) should be the same",
            "dtype-mismatch",
        ),
        (
            "RuntimeError: Input type (torch.DoubleTensor) and weight type (torch.FloatTensor) should be the same",
            "dtype-mismatch",
        ),
        (
            "RuntimeError: Input type (torch.cuda.HalfTensor) and weight type (torch.HalfTensor) should be the same",
            "device-mismatch",
        ),
    ] {
        let body = match_text(line, "fr").await;
        assert_eq!(body["results"][0]["id"], expected, "{line}: {body}");
    }
}

#[tokio::test]
async fn a_warning_printed_on_the_way_gives_way_to_the_exception_the_run_died_of() {
    // bitsandbytes warns that it was built without GPU support because PyTorch itself is a
    // CPU-only build: the assertion is the error, its article the fix.
    let paste = "WARNING:bitsandbytes.cextension:The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit multiplication, and GPU quantization are unavailable.
Traceback (most recent call last):
  File \"/home/user/webui/launch.py\", line 12, in <module>
    device = torch.device(torch.cuda.current_device())
  File \"/opt/venv/lib/python3.10/site-packages/torch/cuda/__init__.py\", line 284, in _lazy_init
    raise AssertionError(\"Torch not compiled with CUDA enabled\")
AssertionError: Torch not compiled with CUDA enabled";
    let body = match_text(paste, "ar").await;
    assert_eq!(body["results"][0]["id"], "cuda-not-available", "{body}");
    // The warning alone still names its own article.
    let warning_only = paste.lines().next().unwrap_or_default();
    let body = match_text(warning_only, "ar").await;
    assert_eq!(body["results"][0]["id"], "bitsandbytes-setup", "{body}");
}

#[tokio::test]
async fn a_library_message_of_its_own_says_where_a_bare_out_of_memory_error_struck() {
    // SGLang's hint under a CUDA-graph capture failure is the serving engine speaking: the
    // out-of-memory message alone would only be guessed as training.
    let sglang = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.14 GiB of which 1.79 GiB is free.
Exception: Capture cuda graph failed: CUDA out of memory.
Possible solutions:
1. set --mem-fraction-static to a smaller value (e.g., 0.8 or 0.7)";
    let body = match_text(sglang, "fr").await;
    assert_eq!(body["results"][0]["id"], "llm-inference-kv-cache", "{body}");
    assert_eq!(body["answer"], "confident", "{body}");
    assert!(
        body.get("ask").is_none(),
        "asked although SGLang said it: {body}"
    );

    let comfy =
        "Warning: Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding.
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB.";
    let body = match_text(comfy, "hi").await;
    assert_eq!(body["results"][0]["id"], "diffusion-pipeline-oom", "{body}");
}

#[tokio::test]
async fn a_wording_of_pytorchs_own_out_of_memory_message_is_no_library_speaking() {
    // "allocated in private pools" is only listed by the torch.compile article, yet it is part
    // of PyTorch's message whatever ran: the situation stays a guess, and the reader is asked.
    let text = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 23.65 GiB of which 7.56 MiB is free. Of the allocated memory 20.1 GiB is allocated by PyTorch, with 1.2 GiB allocated in private pools (e.g., CUDA Graphs), and 171 MiB is reserved by PyTorch but unallocated.";
    let body = match_text(text, "ar").await;
    assert_eq!(body["results"][0]["id"], "cuda-oom-training", "{body}");
    assert_eq!(body["answer"], "uncertain", "{body}");
    assert!(body.get("ask").is_some(), "{body}");

    // Two libraries that contradict each other leave the guess as well, where each alone
    // would have settled it.
    let webui = "Not enough memory, use lower resolution (max approx. 1024x1024). Need: 9.1GB free, Have:3.0GB free";
    let sglang = "The memory capacity is unbalanced. Some GPUs may be occupied by other processes.";
    for (alone, article) in [
        (webui, "diffusion-pipeline-oom"),
        (sglang, "gpu-memory-not-released"),
    ] {
        let body = match_text(&format!("{text}\n{alone}"), "ar").await;
        assert_eq!(body["results"][0]["id"], article, "{body}");
        assert!(body.get("ask").is_none(), "{body}");
    }
    let both = format!("{text}\n{webui}\n{sglang}");
    let body = match_text(&both, "ar").await;
    assert!(body.get("ask").is_some(), "{body}");
}
