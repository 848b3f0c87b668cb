//! `/{lang}/calculators/llm-memory`: the transformer estimator as a GET form. The query's
//! fields are those of `POST /api/v1/estimate` with a `model`; the estimate, the savings
//! and their ranking come from the estimator.

use std::collections::BTreeMap;

use askama::Template;
use axum::extract::Query;
use axum::http::Uri;
use axum::response::Response;
use serde_json::Value;

use super::super::charts::{self, Figure, Piece};
use super::super::{PageError, PageLang, PageMeta, Ui, asset_url, render};
use super::form::FieldSpec;
use super::form::{
    Choice, Field, FieldError, Fieldset, choices, field_error, known_query, pairs, query_string,
    yes_no,
};
use super::presets::{CARD_PRESETS, Preset, preset};
use super::training::ComponentRow;
use crate::estimator::llm::{
    self, KvCacheDtype, LlmEstimate, LlmInput, LlmOptimizer, LlmPhase, Method, Quantization,
    Sharding,
};
use crate::estimator::{self, Attention, Precision};

/// Where a bare visit starts: a popular model whose full fine-tune does not fit a 24 GiB
/// card, so the page opens on what to change.
const DEFAULT_MODEL: &str = "meta-llama/Llama-3.1-8B";
/// At most this many bars in the per-GPU chart (every GPU holds the same under the
/// symmetric sharding modelled).
const MAX_BARS: u64 = 8;

pub struct SavingRow {
    pub label: String,
    pub saved: String,
    pub after: String,
    pub fits: bool,
    pub href: String,
}

pub struct LlmResult {
    pub estimate: LlmEstimate,
    pub fits: bool,
    pub rows: Vec<ComponentRow>,
    pub breakdown: Figure,
    pub peak_phase: String,
    pub savings: Vec<SavingRow>,
    /// The KV cache at this context, in one sentence (generate).
    pub kv_sentence: Option<String>,
    /// Generate only: KV bytes per token, vLLM's KV tokens and concurrent sequences.
    pub kv_rows: Vec<(String, String)>,
}

#[derive(Template)]
#[template(path = "calc_llm.html")]
struct LlmPage<'a> {
    ui: &'a Ui,
    meta: &'a PageMeta,
    fieldsets: Vec<Fieldset>,
    models: Vec<Preset>,
    cards: Vec<Preset>,
    result: Option<LlmResult>,
    api_body: String,
}

/// Presets offered as links above the form (all of them are in the model list).
const QUICK_MODELS: &[&str] = &[
    "meta-llama/Llama-3.1-8B",
    "meta-llama/Llama-3.2-3B",
    "mistralai/Mistral-7B-v0.3",
    "Qwen/Qwen2.5-7B",
    "google/gemma-2-9b",
    "microsoft/Phi-3-mini-4k-instruct",
    "meta-llama/Llama-3.1-70B",
];

pub async fn llm_memory(
    PageLang(lang): PageLang,
    Query(raw): Query<BTreeMap<String, String>>,
    uri: Uri,
) -> Result<Response, PageError> {
    let ui = Ui::new(lang);
    let mut query = known_query::<LlmInput>(&raw);
    // A config.json does not fit in a link; the form is about presets.
    query.remove("config");
    if query.get("model").is_none_or(|m| m.trim().is_empty()) {
        query.insert("model".into(), DEFAULT_MODEL.into());
    }
    let parsed = estimator::from_pairs::<LlmInput, _>(pairs(&query))
        .and_then(|input| Ok((llm::estimate_llm(&input)?, input)));
    let (result, error, api_body) = match parsed {
        Ok((estimate, input)) => {
            let given = estimator::given_as_json(&input, pairs(&query).map(|(k, _)| k));
            let body = serde_json::to_string(&Value::Object(given)).unwrap_or_default();
            (Some(llm_result(&ui, estimate, &input, &query)), None, body)
        }
        Err(error) => (None, Some(field_error(&ui, &error)), String::new()),
    };
    let fieldsets = llm_fieldsets(&ui, &query, error);
    let models = QUICK_MODELS
        .iter()
        .filter_map(|id| llm::preset(id))
        .map(|p| preset(&query, &p.name, "", &[("model", p.id.as_str())]))
        .collect();
    let cards = CARD_PRESETS
        .iter()
        .map(|(gib, note)| {
            preset(
                &query,
                &format!("{gib} GB"),
                note,
                &[("gpu_memory_gib", gib)],
            )
        })
        .collect();
    let mut meta = PageMeta::new(&ui, ui.t("calc-title-llm-memory"), "calculators", &uri);
    meta.script = Some(asset_url("calc.js"));
    render(
        &ui,
        &LlmPage {
            ui: &ui,
            meta: &meta,
            fieldsets,
            models,
            cards,
            result,
            api_body,
        },
    )
}

fn llm_result(
    ui: &Ui,
    estimate: LlmEstimate,
    input: &LlmInput,
    query: &BTreeMap<String, String>,
) -> LlmResult {
    let peak = estimate.nvidia_smi_bytes.max(1);
    let training = matches!(estimate.peak_phase, "backward" | "optimizer_step");
    let pieces: Vec<Piece> = estimate
        .components
        .iter()
        .filter(|c| c.bytes > 0)
        .map(|c| Piece {
            bytes: c.bytes,
            class: colour(c.name).to_owned(),
            label: if c.name == "activations" && !training {
                // Nothing is kept for backward: one layer's working set.
                ui.t("comp-working_activations")
            } else {
                ui.t(&format!("comp-{}", c.name))
            },
        })
        .collect();
    let rows = pieces
        .iter()
        .map(|p| ComponentRow {
            class: p.class.clone(),
            label: p.label.clone(),
            value: ui.bytes(p.bytes),
            share: format!("{} %", ui.decimal(p.bytes as f64 * 100.0 / peak as f64, 1)),
        })
        .collect();
    let bars: Vec<(u64, Vec<Piece>)> = (0..estimate.gpus.min(MAX_BARS))
        .map(|_| {
            let copy = pieces
                .iter()
                .map(|p| Piece {
                    bytes: p.bytes,
                    class: p.class.clone(),
                    label: p.label.clone(),
                })
                .collect();
            (0, copy)
        })
        .collect();
    let breakdown = charts::stacked_bars(
        ui,
        ui.t("calc-chart-per-gpu"),
        ui.t("calc-chart-per-gpu"),
        &bars,
        Some((estimate.gpu_memory_bytes, ui.t("calc-gpu"))),
    );
    let savings = estimate
        .savings
        .iter()
        .map(|s| {
            let mut changed = query.clone();
            changed.insert(s.field.to_owned(), s.value.clone());
            let mut args = crate::i18n::FluentArgs::new();
            args.set("value", s.value.clone());
            SavingRow {
                label: crate::i18n::messages().format(
                    ui.lang,
                    &format!("saving-{}", s.change),
                    Some(&args),
                ),
                saved: ui.bytes(s.bytes_saved),
                after: ui.bytes(s.nvidia_smi_bytes),
                fits: s.fits,
                href: format!("?{}", query_string(&changed)),
            }
        })
        .collect();
    let kv_sentence = estimate.kv_cache_bytes_per_token.map(|per_token| {
        let mut args = crate::i18n::FluentArgs::new();
        args.set("tokens", ui.int(input.sequence_length));
        args.set(
            "bytes",
            ui.bytes(per_token.saturating_mul(input.sequence_length)),
        );
        args.set("per_token", ui.int(per_token));
        crate::i18n::messages().format(ui.lang, "calc-kv-sentence", Some(&args))
    });
    let kv_rows = [
        ("calc-kv-per-token", estimate.kv_cache_bytes_per_token),
        ("calc-kv-tokens", estimate.kv_cache_tokens),
        ("calc-concurrent", estimate.max_concurrent_sequences),
    ]
    .into_iter()
    .filter_map(|(key, v)| v.map(|v| (ui.t(key), ui.int(v))))
    .collect();
    LlmResult {
        kv_rows,
        fits: estimate.fits,
        peak_phase: ui.t(&format!("phase-{}", estimate.peak_phase)),
        estimate,
        rows,
        breakdown,
        savings,
        kv_sentence,
    }
}

const LLM_FORM: &[(&str, &[FieldSpec])] = &[
    (
        "calc-legend-model",
        &[
            ("model", "select", ""),
            ("phase", "select", ""),
            ("method", "select", ""),
            ("quantization", "select", ""),
            ("lora_rank", "number", "1"),
            ("lora_targets", "text", ""),
        ],
    ),
    (
        "calc-legend-training",
        &[
            ("sequence_length", "number", "1"),
            ("batch_size", "number", "1"),
            ("gradient_accumulation_steps", "number", "1"),
            ("precision", "select", ""),
            ("optimizer", "select", ""),
            ("gradient_checkpointing", "select", ""),
            ("attention", "select", ""),
        ],
    ),
    (
        "calc-legend-gpus",
        &[
            ("gpu_memory_gib", "number", "0.01"),
            ("gpus", "number", "1"),
            ("sharding", "select", ""),
            ("cpu_offload", "select", ""),
        ],
    ),
    (
        "calc-legend-serving",
        &[
            ("kv_cache_dtype", "select", ""),
            ("max_model_len", "number", "1"),
            ("gpu_memory_utilization", "number", "0.01"),
        ],
    ),
];

fn llm_fieldsets(
    ui: &Ui,
    query: &BTreeMap<String, String>,
    error: Option<(String, FieldError)>,
) -> Vec<Fieldset> {
    let defaults = serde_json::to_value(LlmInput::default())
        .ok()
        .and_then(|v| v.as_object().cloned())
        .unwrap_or_default();
    let mut error = error;
    let value_of = |name: &str| -> String {
        query
            .get(name)
            .filter(|v| !v.trim().is_empty())
            .cloned()
            .or_else(|| match defaults.get(name) {
                Some(Value::String(s)) => Some(s.clone()),
                Some(Value::Array(items)) => Some(
                    items
                        .iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(","),
                ),
                Some(Value::Null) | None => None,
                Some(other) => Some(other.to_string()),
            })
            .unwrap_or_default()
    };
    let mut make = |name: &'static str, kind: &'static str, step: &'static str| -> Field {
        let value = value_of(name);
        let choices = match name {
            "model" => model_choices(&value),
            "phase" => choices(ui, LlmPhase::ALL, LlmPhase::as_str, "opt", &value),
            "method" => choices(ui, Method::ALL, Method::as_str, "opt", &value),
            "quantization" => choices(ui, Quantization::ALL, Quantization::as_str, "opt-q", &value),
            "precision" => choices(ui, Precision::ALL, Precision::as_str, "opt", &value),
            "optimizer" => choices(ui, LlmOptimizer::ALL, LlmOptimizer::as_str, "opt", &value),
            "attention" => choices(ui, Attention::ALL, Attention::as_str, "opt", &value),
            "sharding" => choices(ui, Sharding::ALL, Sharding::as_str, "opt-shard", &value),
            "kv_cache_dtype" => choices(
                ui,
                KvCacheDtype::ALL,
                KvCacheDtype::as_str,
                "opt-kv",
                &value,
            ),
            _ if kind == "select" => yes_no(ui, &value),
            _ => Vec::new(),
        };
        Field {
            name,
            label: ui.t(&format!("field-{name}")),
            kind,
            step,
            value,
            choices,
            placeholder: if name == "max_model_len" {
                ui.t("calc-placeholder-max-model-len")
            } else {
                String::new()
            },
            error: error.take_if(|(field, _)| field == name).map(|(_, e)| e),
        }
    };
    let mut sets: Vec<Fieldset> = LLM_FORM
        .iter()
        .map(|&(legend, fields)| Fieldset {
            legend: ui.t(legend),
            fields: fields
                .iter()
                .map(|&(name, kind, step)| make(name, kind, step))
                .collect(),
        })
        .collect();
    if let Some((_, e)) = error
        && let Some(first) = sets.first_mut().and_then(|s| s.fields.first_mut())
    {
        first.error = Some(e);
    }
    sets
}

/// Every preset, by display name; an id the list does not know stays selectable so the
/// form shows what was asked for next to its error.
fn model_choices(current: &str) -> Vec<Choice> {
    let mut out: Vec<Choice> = llm::presets()
        .iter()
        .map(|p| Choice {
            value: p.id.clone(),
            label: format!("{} — {}", p.name, p.id),
            selected: p.id.eq_ignore_ascii_case(current.trim()),
        })
        .collect();
    if !out.iter().any(|c| c.selected) && !current.trim().is_empty() {
        out.insert(
            0,
            Choice {
                value: current.to_owned(),
                label: current.to_owned(),
                selected: true,
            },
        );
    }
    out
}

/// A colour per component, the same on every run; components that share one never
/// appear together (the optimizer's temporaries, manual attention's scores and the KV
/// cache belong to different moments), except the CUDA context and NCCL, both overhead.
fn colour(component: &str) -> &'static str {
    match component {
        "weights" => "c0",
        "gradients" => "c1",
        "optimizer_state" => "c2",
        "autocast_weight_copies" | "gathered_parameters" => "c3",
        "communication_buffers" | "dequantization_buffer" => "c4",
        "kv_cache" | "attention_scores" | "optimizer_temporaries" => "c5",
        "activations" => "c6",
        "logits_and_loss" => "c7",
        "allocator_slack" => "c9",
        _ => "c8",
    }
}
