//! `/{lang}/calculators/allocation`: which tensor a "Tried to allocate" is.

use std::collections::BTreeMap;

use askama::Template;
use axum::extract::Query;
use axum::http::Uri;
use axum::response::Response;

use super::super::charts::{Figure, GpuFigures, gpu_picture};
use super::super::{PageError, PageLang, PageMeta, Ui, render};
use super::form::{Field, Fieldset, field_error, known_query, pairs, query_string};
use crate::estimator::{self, AllocationAnswer, AllocationInput, AllocationMatch, TensorKind};

const GIB: u64 = 1 << 30;

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
