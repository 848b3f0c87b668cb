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
