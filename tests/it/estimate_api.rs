//! `POST /api/v1/estimate` and `/api/v1/allocation`: answers and field-named rejections.

use crate::helpers::{get, post_json, post_raw, repo_path, router_for};
use axum::http::StatusCode;
use serde_json::json;

fn router() -> axum::Router {
    router_for(&repo_path("tests/fixtures/content"))
}

fn assert_field_error(reply: &crate::helpers::Reply, status: StatusCode, code: &str, field: &str) {
    assert_eq!(reply.status, status, "{}", reply.text());
    let error = &reply.json()["error"];
    assert_eq!(error["code"], code, "{error}");
    assert_eq!(error["field"], field, "{error}");
    assert!(!error["message"].as_str().unwrap_or("").is_empty());
}

#[tokio::test]
async fn contract_example_gives_the_gpt2_breakdown() {
    let body = json!({"n_layer": 12, "n_head": 12, "n_embd": 768, "vocab_size": 50304,
        "block_size": 1024, "batch_size": 8, "gradient_accumulation_steps": 1,
        "precision": "amp_bf16", "optimizer": "adamw_fused", "attention": "flash",
        "layer_ops": "native", "dropout": 0.0, "compile": false,
        "activation_checkpointing": false, "tied_embeddings": true, "bias": false,
        "phase": "train", "gpu_memory_gib": 12.0});
    let reply = post_json(&router(), "/api/v1/estimate", &body).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    let e = reply.json();
    assert_eq!(e["parameters"], 123_587_328);
    for key in [
        "components",
        "peak_allocated_bytes",
        "reserved_bytes",
        "nvidia_smi_bytes",
        "largest_allocation_bytes",
        "fits",
        "max_batch_size",
        "suggested_gradient_accumulation_steps",
    ] {
        assert!(e.get(key).is_some(), "missing {key}");
    }
    let components = e["components"].as_array().unwrap();
    let sum: u64 = components
        .iter()
        .map(|c| c["bytes"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, e["nvidia_smi_bytes"].as_u64().unwrap());
}

#[tokio::test]
async fn missing_model_shape_is_422_missing_field() {
    let reply = post_json(
        &router(),
        "/api/v1/estimate",
        &json!({"n_head": 6, "n_embd": 384}),
    )
    .await;
    assert_field_error(
        &reply,
        StatusCode::UNPROCESSABLE_ENTITY,
        "missing_field",
        "n_layer",
    );
}

#[tokio::test]
async fn absurd_values_are_422_with_the_estimators_code() {
    let cases = [
        (
            json!({"n_layer": 0, "n_head": 6, "n_embd": 384}),
            "out_of_range",
            "n_layer",
        ),
        (
            json!({"n_layer": 6, "n_head": 7, "n_embd": 384}),
            "not_divisible",
            "n_head",
        ),
        (
            json!({"n_layer": 6, "n_head": 6, "n_embd": 384, "gpu_memory_gib": -1}),
            "out_of_range",
            "gpu_memory_gib",
        ),
        (
            json!({"n_layer": 6, "n_head": 6, "n_embd": 384, "batch_size": 100000000}),
            "out_of_range",
            "batch_size",
        ),
    ];
    for (body, code, field) in cases {
        let reply = post_json(&router(), "/api/v1/estimate", &body).await;
        assert_field_error(&reply, StatusCode::UNPROCESSABLE_ENTITY, code, field);
    }
}

#[tokio::test]
async fn wrong_types_and_unknown_values_are_invalid_field() {
    let cases = [
        (
            json!({"n_layer": "twelve", "n_head": 6, "n_embd": 384}),
            "n_layer",
        ),
        (
            json!({"n_layer": 6, "n_head": 6, "n_embd": 384, "precision": "fp8"}),
            "precision",
        ),
        (
            json!({"n_layer": 6, "n_head": 6, "n_embd": 384, "batch_size": -4}),
            "batch_size",
        ),
        (
            json!({"n_layer": 6, "n_head": 6, "n_embd": 384, "compile": "yes"}),
            "compile",
        ),
    ];
    for (body, field) in cases {
        let reply = post_json(&router(), "/api/v1/estimate", &body).await;
        assert_field_error(
            &reply,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_field",
            field,
        );
    }
}

#[tokio::test]
async fn unknown_fields_are_named() {
    let body = json!({"n_layers": 12, "n_head": 12, "n_embd": 768});
    let reply = post_json(&router(), "/api/v1/estimate", &body).await;
    assert_field_error(
        &reply,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unknown_field",
        "n_layers",
    );
}

#[tokio::test]
async fn malformed_json_is_400_and_wrong_media_type_is_415() {
    let reply = post_raw(
        &router(),
        "/api/v1/estimate",
        "application/json",
        "{\"n_layer\": 1,",
    )
    .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(reply.json()["error"]["code"], "invalid_json");

    let reply = post_raw(&router(), "/api/v1/estimate", "text/plain", "{}").await;
    assert_eq!(reply.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(reply.json()["error"]["code"], "unsupported_media_type");

    let reply = post_raw(&router(), "/api/v1/estimate", "application/json", "[1, 2]").await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.json()["error"]["code"], "invalid_body");
}

#[tokio::test]
async fn allocation_names_the_seed_logits_from_a_get_query() {
    let reply = get(
        &router(),
        "/api/v1/allocation?tried_to_allocate_bytes=6.14%20GiB&free_bytes=2877628088",
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    let body = reply.json();
    let top = &body["matches"][0];
    assert_eq!(top["kind"], "logits");
    assert_eq!(top["shape"], json!([65536, 50304]));
    assert_eq!(top["fits_batch_size"], 27);
    assert_eq!(body["free_bytes"], 2_877_628_088u64);
}

#[tokio::test]
async fn allocation_post_takes_bytes_and_rejects_bad_fields() {
    let body = json!({"tried_to_allocate_bytes": 6_593_445_888u64, "batch_size": 32});
    let reply = post_json(&router(), "/api/v1/allocation", &body).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.json()["matches"][0]["kind"], "logits_fp32");

    let reply = post_json(&router(), "/api/v1/allocation", &json!({"batch_size": 32})).await;
    assert_field_error(
        &reply,
        StatusCode::UNPROCESSABLE_ENTITY,
        "missing_field",
        "tried_to_allocate_bytes",
    );
    let reply = post_json(
        &router(),
        "/api/v1/allocation",
        &json!({"tried_to_allocate_bytes": "a lot"}),
    )
    .await;
    assert_field_error(
        &reply,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_field",
        "tried_to_allocate_bytes",
    );
    let reply = get(
        &router(),
        "/api/v1/allocation?tried_to_allocate_bytes=1024&n_head=0",
    )
    .await;
    assert_field_error(
        &reply,
        StatusCode::UNPROCESSABLE_ENTITY,
        "out_of_range",
        "n_head",
    );
}

#[tokio::test]
async fn a_zero_free_figure_from_a_paste_is_accepted_by_the_calculator_api() {
    let router = crate::helpers::router_for(&crate::helpers::repo_path("tests/fixtures/content"));
    let reply = crate::helpers::get(
        &router,
        "/api/v1/allocation?tried_to_allocate_bytes=20971520&total_capacity_bytes=25394010521&free_bytes=0",
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["free_bytes"], 0);
}

#[tokio::test]
async fn an_oversized_estimate_body_gets_a_json_413() {
    let router = crate::helpers::router_for(&crate::helpers::repo_path("tests/fixtures/content"));
    for uri in ["/api/v1/estimate", "/api/v1/allocation"] {
        let reply =
            crate::helpers::post_raw(&router, uri, "application/json", &" ".repeat(1_100_000))
                .await;
        assert_eq!(reply.status, 413, "{uri}");
        assert_eq!(reply.json()["error"]["code"], "payload_too_large", "{uri}");
    }
}

#[tokio::test]
async fn a_preset_model_gives_a_per_gpu_transformer_estimate() {
    let body = json!({"model": "meta-llama/Llama-3.1-8B", "method": "qlora",
        "lora_targets": "all_linear", "sequence_length": 2048, "gradient_checkpointing": true,
        "gpu_memory_gib": 24});
    let reply = post_json(&router(), "/api/v1/estimate", &body).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    let e = reply.json();
    assert_eq!(e["parameters"], 8_030_261_248u64);
    assert_eq!(e["model"], "meta-llama/Llama-3.1-8B");
    assert_eq!(e["fits"], true);
    let sum: u64 = e["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["bytes"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, e["nvidia_smi_bytes"].as_u64().unwrap());
    assert!(e.get("kv_cache_bytes_per_token").is_none());
}

#[tokio::test]
async fn a_config_json_generates_with_the_kv_cache_and_the_vllm_view() {
    let body = json!({"config": {"model_type": "llama", "hidden_size": 4096,
        "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
        "num_key_value_heads": 8, "vocab_size": 128256, "rope_theta": 500000.0,
        "architectures": ["LlamaForCausalLM"]},
        "phase": "generate", "max_model_len": 8192, "gpu_memory_gib": 80});
    let reply = post_json(&router(), "/api/v1/estimate", &body).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    let e = reply.json();
    assert_eq!(e["kv_cache_bytes_per_token"], 131_072);
    let tokens = e["kv_cache_tokens"].as_u64().unwrap();
    assert_eq!(tokens % 16, 0);
    assert_eq!(
        e["max_concurrent_sequences"].as_u64().unwrap(),
        tokens / 8192
    );
}

#[tokio::test]
async fn an_unknown_model_and_a_bad_config_are_named() {
    let reply = post_json(
        &router(),
        "/api/v1/estimate",
        &json!({"model": "acme/nonexistent-7b"}),
    )
    .await;
    assert_field_error(
        &reply,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unknown_model",
        "model",
    );
    let reply = post_json(
        &router(),
        "/api/v1/estimate",
        &json!({"config": {"hidden_size": 4096, "num_attention_heads": 32}}),
    )
    .await;
    assert_field_error(
        &reply,
        StatusCode::UNPROCESSABLE_ENTITY,
        "missing_field",
        "config.num_hidden_layers",
    );
    let reply = post_json(
        &router(),
        "/api/v1/estimate",
        &json!({"model": "meta-llama/Llama-3.1-8B", "n_layer": 12}),
    )
    .await;
    assert_field_error(
        &reply,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unknown_field",
        "n_layer",
    );
}

#[tokio::test]
async fn the_models_list_holds_every_preset_with_its_count() {
    let reply = get(&router(), "/api/v1/models").await;
    assert_eq!(reply.status, StatusCode::OK);
    let models = reply.json()["models"].as_array().unwrap().clone();
    assert!(models.len() >= 25);
    let llama = models
        .iter()
        .find(|m| m["id"] == "meta-llama/Llama-3.1-8B")
        .unwrap();
    assert_eq!(llama["parameters"], 8_030_261_248u64);
    assert_eq!(llama["config"]["num_key_value_heads"], 8);
}
