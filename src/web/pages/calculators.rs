//! `/{lang}/calculators/training-memory` and `/{lang}/calculators/allocation`: GET forms
//! whose query parameters are the fields of `POST /api/v1/estimate` and
//! `/api/v1/allocation`, so a link (an article's `calc:` link, a diagnosis) opens them
//! prefilled and submitting the form shows the results on the same page.

use std::collections::BTreeMap;

use askama::Template;
use axum::extract::Query;
use axum::http::Uri;
use axum::response::Response;
use serde_json::Value;

use super::charts::{self, Figure, Piece};
use super::{PageError, PageLang, PageMeta, Ui, asset_url, render};
use crate::estimator::{
    self, AllocationAnswer, AllocationInput, AllocationMatch, Attention, Estimate, EstimateInput,
    InvalidInput, LayerOps, Optimizer, Phase, Precision, TensorKind,
};
use crate::web::ApiError;

const GIB: u64 = 1 << 30;

/// Model presets: nanoGPT's GPT-2 configurations and the seed's 30M model.
const MODEL_PRESETS: &[(&str, &[(&str, &str)])] = &[
    (
        "GPT-2 124M",
        &[
            ("n_layer", "12"),
            ("n_head", "12"),
            ("n_embd", "768"),
            ("vocab_size", "50304"),
            ("block_size", "1024"),
        ],
    ),
    (
        "GPT-2 350M",
        &[
            ("n_layer", "24"),
            ("n_head", "16"),
            ("n_embd", "1024"),
            ("vocab_size", "50304"),
            ("block_size", "1024"),
        ],
    ),
    (
        "GPT-2 774M",
        &[
            ("n_layer", "36"),
            ("n_head", "20"),
            ("n_embd", "1280"),
            ("vocab_size", "50304"),
            ("block_size", "1024"),
        ],
    ),
    (
        "nanoGPT 30M",
        &[
            ("n_layer", "6"),
            ("n_head", "6"),
            ("n_embd", "384"),
            ("vocab_size", "50304"),
            ("block_size", "512"),
            ("batch_size", "16"),
            ("gradient_accumulation_steps", "4"),
            ("precision", "amp_fp16"),
        ],
    ),
];

/// GPU presets, in GiB as PyTorch counts them, with cards of that size.
const CARD_PRESETS: &[(&str, &str)] = &[
    ("8", "RTX 3070 · 4060"),
    ("12", "RTX 3060 · 4070"),
    ("16", "T4 · RTX 4080"),
    ("24", "RTX 3090 · 4090 · A10"),
    ("40", "A100 40GB"),
    ("80", "A100 · H100 80GB"),
];

pub struct Choice {
    pub value: String,
    pub label: String,
    pub selected: bool,
}

/// One input of a calculator form.
pub struct Field {
    pub name: &'static str,
    pub label: String,
    /// `number`, `text` or `select`.
    pub kind: &'static str,
    pub step: &'static str,
    pub value: String,
    pub choices: Vec<Choice>,
    pub placeholder: String,
    pub error: Option<FieldError>,
}

pub struct FieldError {
    pub text: String,
    pub detail: String,
}

pub struct Fieldset {
    pub legend: String,
    pub fields: Vec<Field>,
}

pub struct Preset {
    pub label: String,
    pub note: String,
    pub href: String,
    pub current: bool,
}

/// A query string from a map; values are percent-encoded.
fn query_string(map: &BTreeMap<String, String>) -> String {
    serde_urlencoded::to_string(map).unwrap_or_default()
}

/// Query parameters the form understands, without unknown ones (tracking tags, old links).
fn known_query<T>(query: &BTreeMap<String, String>) -> BTreeMap<String, String>
where
    T: serde::Serialize + Default,
{
    let known = estimator::field_names::<T>();
    query
        .iter()
        .filter(|(k, _)| known.iter().any(|f| f == *k))
        .map(|(k, v)| (k.clone(), v.chars().take(64).collect()))
        .collect()
}

/// The query's non-empty pairs, as the estimator's parsers take them.
fn pairs(query: &BTreeMap<String, String>) -> impl Iterator<Item = (&str, &str)> {
    query
        .iter()
        .filter(|(_, v)| !v.trim().is_empty())
        .map(|(k, v)| (k.as_str(), v.as_str()))
}

/// The error shown beside its field: the API's code names the sentence.
fn field_error(ui: &Ui, error: &InvalidInput) -> (String, FieldError) {
    let code = ApiError::from(error.clone()).code();
    (
        error.field.clone(),
        FieldError {
            text: ui.t(&format!("calc-error-{}", code.name())),
            detail: error.message.clone(),
        },
    )
}

#[derive(Template)]
#[template(path = "calculators.html")]
struct IndexPage<'a> {
    ui: &'a Ui,
    meta: &'a PageMeta,
}

pub async fn index(PageLang(lang): PageLang, uri: Uri) -> Result<Response, PageError> {
    let ui = Ui::new(lang);
    let meta = PageMeta::new(&ui, ui.t("calc-index-title"), "calculators", &uri);
    render(
        &ui,
        &IndexPage {
            ui: &ui,
            meta: &meta,
        },
    )
}

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

/// A preset link: the current form with the preset's values laid over it.
fn preset(
    query: &BTreeMap<String, String>,
    label: &str,
    note: &str,
    values: &[(&str, &str)],
) -> Preset {
    let mut merged = query.clone();
    for (k, v) in values {
        merged.insert((*k).to_owned(), (*v).to_owned());
    }
    let current = values
        .iter()
        .all(|(k, v)| query.get(*k).is_some_and(|q| q.trim() == *v));
    Preset {
        label: label.to_owned(),
        note: note.to_owned(),
        href: format!("?{}", query_string(&merged)),
        current,
    }
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

fn choices<T: Copy + PartialEq>(
    ui: &Ui,
    all: &[T],
    text: fn(T) -> &'static str,
    prefix: &str,
    current: &str,
) -> Vec<Choice> {
    all.iter()
        .map(|&v| {
            let value = text(v);
            Choice {
                value: value.to_owned(),
                label: ui.t(&format!("{prefix}-{value}")),
                selected: value == current,
            }
        })
        .collect()
}

fn yes_no(ui: &Ui, current: &str) -> Vec<Choice> {
    ["true", "false"]
        .iter()
        .map(|v| Choice {
            value: (*v).to_owned(),
            label: ui.t(if *v == "true" { "yes" } else { "no" }),
            selected: *v == current,
        })
        .collect()
}

/// A field of a form: its name, input kind and step.
type FieldSpec = (&'static str, &'static str, &'static str);

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

pub struct MatchRow {
    pub kind: String,
    pub formula: String,
    pub dtype: &'static str,
    pub size: String,
    pub splits: String,
    pub fits: Option<String>,
    pub exceeds: bool,
}

pub struct AllocationResult {
    pub requested: String,
    pub headline: Option<String>,
    pub fit_sentence: Option<String>,
    pub picture: Option<Figure>,
    pub figures: Vec<(String, String)>,
    pub rows: Vec<MatchRow>,
    pub training_link: Option<String>,
}

#[derive(Template)]
#[template(path = "calc_allocation.html")]
struct AllocationPage<'a> {
    ui: &'a Ui,
    meta: &'a PageMeta,
    fieldsets: Vec<Fieldset>,
    example_href: String,
    result: Option<AllocationResult>,
}

/// Size fields of the allocation form, in the order of the form.
const SIZE_FIELDS: &[&str] = &[
    "tried_to_allocate_bytes",
    "total_capacity_bytes",
    "free_bytes",
    "reserved_unallocated_bytes",
    "process_in_use_bytes",
];
const SHAPE_FIELDS: &[&str] = &["vocab_size", "block_size", "batch_size", "n_head"];

pub async fn allocation(
    PageLang(lang): PageLang,
    Query(raw): Query<BTreeMap<String, String>>,
    uri: Uri,
) -> Result<Response, PageError> {
    let ui = Ui::new(lang);
    let query = known_query::<AllocationInput>(&raw);
    let submitted = pairs(&query).next().is_some();
    let (result, error) = if submitted {
        match estimator::from_pairs::<AllocationInput, _>(pairs(&query)).and_then(|i| i.answer()) {
            Ok(answer) => (Some(allocation_result(&ui, &answer)), None),
            Err(error) => (None, Some(field_error(&ui, &error))),
        }
    } else {
        (None, None)
    };
    let mut error = error;
    let mut field = |name: &'static str, is_size: bool| -> Field {
        let raw_value = query.get(name).cloned().unwrap_or_default();
        // Bytes from a link are shown as PyTorch would print them.
        let value = match raw_value.trim().parse::<u64>() {
            Ok(bytes) if is_size && bytes >= 1024 => ui.bytes(bytes),
            _ => raw_value,
        };
        Field {
            name,
            label: ui.t(&format!("field-{name}")),
            kind: if is_size { "text" } else { "number" },
            step: "1",
            value,
            choices: Vec::new(),
            placeholder: if is_size {
                "6.14 GiB".to_owned()
            } else {
                String::new()
            },
            error: error.take_if(|(f, _)| f == name).map(|(_, e)| e),
        }
    };
    let sizes: Vec<Field> = SIZE_FIELDS.iter().map(|n| field(n, true)).collect();
    let shape: Vec<Field> = SHAPE_FIELDS.iter().map(|n| field(n, false)).collect();
    let fieldsets = vec![
        Fieldset {
            legend: ui.t("alloc-legend-message"),
            fields: sizes,
        },
        Fieldset {
            legend: ui.t("alloc-legend-shape"),
            fields: shape,
        },
    ];
    let example = BTreeMap::from_iter(
        [
            ("tried_to_allocate_bytes", "6.14 GiB"),
            ("total_capacity_bytes", "11.69 GiB"),
            ("free_bytes", "2.68 GiB"),
            ("process_in_use_bytes", "7.04 GiB"),
            ("reserved_unallocated_bytes", "35.12 MiB"),
            ("batch_size", "64"),
            ("block_size", "1024"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned())),
    );
    let meta = PageMeta::new(&ui, ui.t("calc-title-allocation"), "calculators", &uri);
    render(
        &ui,
        &AllocationPage {
            ui: &ui,
            meta: &meta,
            fieldsets,
            example_href: format!("?{}", query_string(&example)),
            result,
        },
    )
}

/// What a GPU held when an allocation failed, as a bar: PyTorch's tensors, its reserved
/// but unallocated blocks, the rest of this process, other processes, free; and below it
/// the request, starting where the free memory starts.
pub struct GpuFigures {
    pub requested: Option<u64>,
    pub total: Option<u64>,
    pub free: Option<u64>,
    pub process_in_use: Option<u64>,
    pub reserved_unallocated: Option<u64>,
    pub allocated_by_pytorch: Option<u64>,
}

pub fn gpu_picture(ui: &Ui, f: &GpuFigures) -> Option<Figure> {
    let total = f.total?;
    let free = f.free?.min(total);
    let used = total - free;
    let mut pieces = Vec::new();
    let mut accounted = 0u64;
    if let Some(process) = f.process_in_use.map(|p| p.min(used)) {
        let reserved = f.reserved_unallocated.unwrap_or(0).min(process);
        let allocated = f
            .allocated_by_pytorch
            .unwrap_or(process - reserved)
            .min(process - reserved);
        pieces.push(Piece {
            bytes: allocated,
            class: "allocated".to_owned(),
            label: ui.t("fig-allocated"),
        });
        pieces.push(Piece {
            bytes: reserved,
            class: "reserved".to_owned(),
            label: ui.t("fig-reserved-unallocated"),
        });
        pieces.push(Piece {
            bytes: process - reserved - allocated,
            class: "c8".to_owned(),
            label: ui.t("fig-process-other"),
        });
        accounted = process;
    }
    pieces.push(Piece {
        bytes: used - accounted,
        class: "others".to_owned(),
        label: ui.t(if accounted > 0 {
            "fig-others"
        } else {
            "fig-used"
        }),
    });
    pieces.push(Piece {
        bytes: free,
        class: "free".to_owned(),
        label: ui.t("fig-free"),
    });
    let mut rows = vec![(0, pieces)];
    if let Some(requested) = f.requested {
        rows.push((
            used,
            vec![Piece {
                bytes: requested,
                class: "requested".to_owned(),
                label: ui.t("fig-requested"),
            }],
        ));
    }
    Some(charts::stacked_bars(
        ui,
        ui.t("fig-picture"),
        ui.t("fig-picture-caption"),
        &rows,
        Some((total, ui.t("fig-capacity"))),
    ))
}

fn allocation_result(ui: &Ui, answer: &AllocationAnswer) -> AllocationResult {
    let picture = gpu_picture(
        ui,
        &GpuFigures {
            requested: Some(answer.tried_to_allocate_bytes),
            total: answer.total_capacity_bytes,
            free: answer.free_bytes,
            process_in_use: answer.process_in_use_bytes,
            reserved_unallocated: answer.reserved_unallocated_bytes,
            allocated_by_pytorch: None,
        },
    );
    let mut figures = vec![(
        ui.t("fig-requested"),
        ui.bytes(answer.tried_to_allocate_bytes),
    )];
    for (id, value) in [
        ("fig-free", answer.free_bytes),
        (
            "fig-reserved-unallocated",
            answer.reserved_unallocated_bytes,
        ),
        ("fig-process", answer.process_in_use_bytes),
        ("fig-capacity", answer.total_capacity_bytes),
    ] {
        if let Some(v) = value {
            figures.push((ui.t(id), ui.bytes(v)));
        }
    }
    let rows = answer.matches.iter().map(|m| match_row(ui, m)).collect();
    let top = answer.matches.first();
    let headline = top.map(|m| {
        ui.t2(
            &format!("alloc-headline-{}", kind_id(m.kind)),
            "formula",
            &m.formula,
            "size",
            &ui.bytes(m.bytes),
        )
    });
    let fit_sentence = top.and_then(|m| {
        let batch = m.fits_batch_size?;
        let block = m.fits_block_size?;
        Some(if batch == 0 {
            ui.t1("alloc-fits-block-only", "block", &ui.int(block))
        } else {
            ui.t2(
                "alloc-fits",
                "batch",
                &ui.int(batch),
                "block",
                &ui.int(block),
            )
        })
    });
    let training_link = top.filter(|m| m.vocab_size.is_some()).map(|m| {
        let mut q = BTreeMap::new();
        q.insert("batch_size".to_owned(), m.batch_size.to_string());
        q.insert("block_size".to_owned(), m.block_size.to_string());
        if let Some(v) = m.vocab_size {
            q.insert("vocab_size".to_owned(), v.to_string());
        }
        if let Some(total) = answer.total_capacity_bytes {
            q.insert(
                "gpu_memory_gib".to_owned(),
                format!("{:.2}", total as f64 / GIB as f64),
            );
        }
        format!(
            "/{}/calculators/training-memory?{}",
            ui.code(),
            query_string(&q)
        )
    });
    AllocationResult {
        requested: ui.bytes(answer.tried_to_allocate_bytes),
        headline,
        fit_sentence,
        picture,
        figures,
        rows,
        training_link,
    }
}

fn kind_id(kind: TensorKind) -> &'static str {
    match kind {
        TensorKind::Logits => "logits",
        TensorKind::LogitsFp32 => "logits_fp32",
        TensorKind::AttentionScores => "attention_scores",
    }
}

fn match_row(ui: &Ui, m: &AllocationMatch) -> MatchRow {
    let splits = m
        .splits
        .iter()
        .map(|[b, t]| format!("{b} × {t}"))
        .collect::<Vec<_>>()
        .join(", ");
    let fits = match (m.fits_batch_size, m.fits_block_size) {
        (Some(b), Some(t)) => Some(format!(
            "batch_size ≤ {} · block_size ≤ {}",
            ui.int(b),
            ui.int(t)
        )),
        _ => None,
    };
    MatchRow {
        kind: ui.t(&format!("alloc-kind-{}", kind_id(m.kind))),
        formula: m.formula.clone(),
        dtype: m.dtype,
        size: ui.bytes(m.bytes),
        splits,
        fits,
        exceeds: m.exceeds_total == Some(true),
    }
}
