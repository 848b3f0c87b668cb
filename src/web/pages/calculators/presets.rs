//! Presets: model shapes and GPU sizes a form can be filled with in one click.

use std::collections::BTreeMap;

use super::form::query_string;

/// Model presets: nanoGPT's GPT-2 configurations and the seed's 30M model.
pub(super) const MODEL_PRESETS: &[(&str, &[(&str, &str)])] = &[
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
pub(super) const CARD_PRESETS: &[(&str, &str)] = &[
    ("8", "RTX 3070 · 4060"),
    ("12", "RTX 3060 · 4070"),
    ("16", "T4 · RTX 4080"),
    ("24", "RTX 3090 · 4090 · A10"),
    ("40", "A100 40GB"),
    ("80", "A100 · H100 80GB"),
];

pub struct Preset {
    pub label: String,
    pub note: String,
    pub href: String,
    pub current: bool,
}

/// A preset link: the current form with the preset's values laid over it.
pub(super) fn preset(
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
