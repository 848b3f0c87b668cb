//! `ilaj estimate`: a table by default, the API's body with `--json`.

use std::process::Command;

fn ilaj() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ilaj"))
}

const SEED_MODEL: [&str; 19] = [
    "estimate",
    "--n-layer",
    "6",
    "--n-head",
    "6",
    "--n-embd",
    "384",
    "--block-size",
    "512",
    "--batch-size",
    "16",
    "--gradient-accumulation-steps",
    "4",
    "--precision",
    "amp_fp16",
    "--compile",
    "--gpu-memory-gib",
    "12",
    "--json",
];

#[test]
fn json_output_is_the_api_body_for_the_seed_model() {
    let output = ilaj().args(SEED_MODEL).output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let body: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    // nanoGPT prints "number of parameters: 29.94M" for this config.
    let millions = body["parameters"].as_u64().unwrap() as f64 / 1e6;
    assert_eq!(format!("{millions:.2}"), "29.94");
    assert_eq!(body["fits"], true);
    assert!(body["components"].as_array().unwrap().len() > 3);
}

#[test]
fn table_output_names_the_components_and_the_verdict() {
    let output = ilaj()
        .args(&SEED_MODEL[..SEED_MODEL.len() - 1])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    for needle in [
        "parameters: 29.94M",
        "weights",
        "nvidia-smi",
        "fits: yes",
        "GiB",
    ] {
        assert!(stdout.contains(needle), "{needle} missing from:\n{stdout}");
    }
}

#[test]
fn invalid_input_exits_2_and_names_the_field() {
    let output = ilaj()
        .args([
            "estimate",
            "--n-layer",
            "6",
            "--n-head",
            "7",
            "--n-embd",
            "384",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let body: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(body["error"]["code"], "not_divisible");
    assert_eq!(body["error"]["field"], "n_head");

    let output = ilaj()
        .args([
            "estimate",
            "--n-layer",
            "0",
            "--n-head",
            "6",
            "--n-embd",
            "384",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("n_layer"));
}

#[test]
fn model_flag_runs_the_transformer_estimator() {
    let output = ilaj()
        .args([
            "estimate",
            "--model",
            "meta-llama/Llama-3.1-8B",
            "--method",
            "qlora",
            "--lora-targets",
            "q_proj,k_proj,v_proj,o_proj",
            "--gradient-checkpointing",
            "--batch-size",
            "2",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let body: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(body["parameters"], 8_030_261_248u64);
    // r = 8 on q, k, v, o: 32 × 8 × (8192 + 5120 + 5120 + 8192).
    assert_eq!(
        body["trainable_parameters"],
        32 * 8 * (8192 + 5120 + 5120 + 8192)
    );
}

#[test]
fn config_flag_reads_a_config_json_and_prints_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.json");
    std::fs::write(
        &path,
        r#"{"model_type": "qwen2", "hidden_size": 896, "intermediate_size": 4864,
        "num_hidden_layers": 24, "num_attention_heads": 14, "num_key_value_heads": 2,
        "vocab_size": 151936, "tie_word_embeddings": true, "torch_dtype": "bfloat16"}"#,
    )
    .unwrap();
    let output = ilaj()
        .args(["estimate", "--config"])
        .arg(&path)
        .args(["--phase", "generate", "--gpu-memory-gib", "8"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("parameters: 0.49B"), "{text}");
    assert!(text.contains("KV cache per token: 12288 bytes"), "{text}");
}

#[test]
fn a_transformer_flag_without_a_model_is_refused() {
    let output = ilaj()
        .args([
            "estimate",
            "--n-layer",
            "6",
            "--n-head",
            "6",
            "--n-embd",
            "384",
            "--method",
            "lora",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let body: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(body["error"]["field"], "method");
}
