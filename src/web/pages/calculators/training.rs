//! `/{lang}/calculators/training-memory`: the estimate of a training run.

use std::collections::BTreeMap;

use askama::Template;
use axum::extract::Query;
use axum::http::Uri;
use axum::response::Response;
use serde_json::Value;

use super::super::charts::{self, Figure, Piece};
use super::super::{PageError, PageLang, PageMeta, Ui, asset_url, render};
use super::form::FieldSpec;
use super::form::{Field, FieldError, Fieldset, choices, field_error, known_query, pairs, yes_no};
use super::presets::{CARD_PRESETS, MODEL_PRESETS, Preset, preset};
use crate::estimator::{
    self, Attention, Estimate, EstimateInput, LayerOps, Optimizer, Phase, Precision,
};

pub struct ComponentRow {
    pub class: String,
    pub label: String,
    pub value: String,
    pub share: String,
}

pub struct TrainingResult {
    pub estimate: Estimate,
    pub fits: bool,
    pub rows: Vec<ComponentRow>,
    pub breakdown: Figure,
    pub batch_chart: String,
    pub suggestion: Option<String>,
    pub largest: String,
    pub peak_phase: String,
}

#[derive(Template)]
#[template(path = "calc_training.html")]
struct TrainingPage<'a> {
    ui: &'a Ui,
    meta: &'a PageMeta,
    fieldsets: Vec<Fieldset>,
    models: Vec<Preset>,
    cards: Vec<Preset>,
    result: Option<TrainingResult>,
    api_body: String,
}

pub async fn training_memory(
    PageLang(lang): PageLang,
    Query(raw): Query<BTreeMap<String, String>>,
    uri: Uri,
) -> Result<Response, PageError> {
    let ui = Ui::new(lang);
    let mut query = known_query::<EstimateInput>(&raw);
    // A bare visit, or a link without a model shape, starts from GPT-2 124M.
    if !["n_layer", "n_head", "n_embd"]
        .iter()
        .any(|k| query.get(*k).is_some_and(|v| !v.trim().is_empty()))
    {
        for (k, v) in MODEL_PRESETS[0].1 {
            query
                .entry((*k).to_owned())
                .or_insert_with(|| (*v).to_owned());
        }
    }
    let parsed = estimator::from_pairs::<EstimateInput, _>(pairs(&query))
        .and_then(|input| Ok((estimator::estimate(&input)?, input)));
    let (result, error, api_body) = match parsed {
        Ok((estimate, input)) => {
            let given = estimator::given_as_json(&input, pairs(&query).map(|(k, _)| k));
            let body = serde_json::to_string(&Value::Object(given)).unwrap_or_default();
            (Some(training_result(&ui, estimate, &input)), None, body)
        }
        Err(error) => (None, Some(field_error(&ui, &error)), String::new()),
    };
    let fieldsets = training_fieldsets(&ui, &query, error);
    let models = MODEL_PRESETS
        .iter()
        .map(|(name, values)| preset(&query, name, "", values))
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
    let mut meta = PageMeta::new(&ui, ui.t("calc-title-training-memory"), "calculators", &uri);
    meta.script = Some(asset_url("calc.js"));
    render(
        &ui,
        &TrainingPage {
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

fn training_result(ui: &Ui, estimate: Estimate, input: &EstimateInput) -> TrainingResult {
    let peak = estimate.nvidia_smi_bytes.max(1);
    let pieces: Vec<Piece> = estimate
        .components
        .iter()
        .enumerate()
        .filter(|(_, c)| c.bytes > 0)
        .map(|(i, c)| Piece {
            bytes: c.bytes,
            class: format!("c{}", i % 10),
            label: ui.t(&format!("comp-{}", c.name)),
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
    let breakdown = charts::stacked_bars(
        ui,
        ui.t("calc-chart-breakdown"),
        ui.t("calc-chart-breakdown"),
        &[(0, pieces)],
        Some((estimate.gpu_memory_bytes, ui.t("calc-gpu"))),
    );
    let series: Vec<(u64, u64)> = charts::batch_samples(input.batch_size, estimate.max_batch_size)
        .into_iter()
        .filter_map(|b| {
            let mut at = input.clone();
            at.batch_size = b;
            crate::estimator::estimate(&at)
                .ok()
                .map(|e| (b, e.nvidia_smi_bytes))
        })
        .collect();
    let batch_chart = charts::memory_by_batch(
        ui,
        ui.t("calc-chart-batch"),
        "batch_size".to_owned(),
        &series,
        estimate.gpu_memory_bytes,
        &ui.t("calc-gpu"),
        input.batch_size,
    );
    let suggestion = (estimate.suggested_batch_size > 0
        && (estimate.suggested_batch_size != input.batch_size || !estimate.fits))
        .then(|| {
            let mut args = crate::i18n::FluentArgs::new();
            args.set("effective", ui.int(estimate.effective_batch_size));
            args.set("batch", ui.int(estimate.suggested_batch_size));
            args.set(
                "steps",
                ui.int(estimate.suggested_gradient_accumulation_steps),
            );
            crate::i18n::messages().format(ui.lang, "calc-suggestion", Some(&args))
        });
    TrainingResult {
        fits: estimate.fits,
        largest: ui.t(&format!("largest-{}", estimate.largest_allocation)),
        peak_phase: ui.t(&format!("phase-{}", estimate.peak_phase)),
        estimate,
        rows,
        breakdown,
        batch_chart,
        suggestion,
    }
}

/// The training form: each fieldset's legend and its fields.
const TRAINING_FORM: &[(&str, &[FieldSpec])] = &[
    (
        "calc-legend-model",
        &[
            ("n_layer", "number", "1"),
            ("n_head", "number", "1"),
            ("n_embd", "number", "1"),
            ("vocab_size", "number", "1"),
            ("block_size", "number", "1"),
            ("bias", "select", ""),
            ("tied_embeddings", "select", ""),
        ],
    ),
    (
        "calc-legend-training",
        &[
            ("batch_size", "number", "1"),
            ("gradient_accumulation_steps", "number", "1"),
            ("precision", "select", ""),
            ("optimizer", "select", ""),
            ("phase", "select", ""),
            ("dropout", "number", "0.01"),
        ],
    ),
    (
        "calc-legend-implementation",
        &[
            ("attention", "select", ""),
            ("layer_ops", "select", ""),
            ("compile", "select", ""),
            ("activation_checkpointing", "select", ""),
        ],
    ),
    ("calc-legend-gpu", &[("gpu_memory_gib", "number", "0.01")]),
];

fn training_fieldsets(
    ui: &Ui,
    query: &BTreeMap<String, String>,
    error: Option<(String, FieldError)>,
) -> Vec<Fieldset> {
    let defaults = serde_json::to_value(EstimateInput::default())
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
                Some(Value::Null) | None => None,
                Some(other) => Some(other.to_string()),
            })
            .unwrap_or_default()
    };
    let mut make = |name: &'static str, kind: &'static str, step: &'static str| -> Field {
        let value = value_of(name);
        let choices = match name {
            "precision" => choices(ui, Precision::ALL, Precision::as_str, "opt", &value),
            "optimizer" => choices(ui, Optimizer::ALL, Optimizer::as_str, "opt", &value),
            "attention" => choices(ui, Attention::ALL, Attention::as_str, "opt", &value),
            "layer_ops" => choices(ui, LayerOps::ALL, LayerOps::as_str, "opt", &value),
            "phase" => choices(ui, Phase::ALL, Phase::as_str, "opt", &value),
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
            placeholder: String::new(),
            error: error.take_if(|(field, _)| field == name).map(|(_, e)| e),
        }
    };
    let mut sets: Vec<Fieldset> = TRAINING_FORM
        .iter()
        .map(|&(legend, fields)| Fieldset {
            legend: ui.t(legend),
            fields: fields
                .iter()
                .map(|&(name, kind, step)| make(name, kind, step))
                .collect(),
        })
        .collect();
    // An error about no field of the form (an unknown field cannot reach here, but stay
    // safe): shown on the first field so it is never lost.
    if let Some((_, e)) = error
        && let Some(first) = sets.first_mut().and_then(|s| s.fields.first_mut())
    {
        first.error = Some(e);
    }
    sets
}
