//! What a paste says about the model it ran: a preset's Hugging Face id (in a message, a
//! path, or the Hub cache's `models--org--name` folder), and vLLM's serving settings
//! (`max_model_len`, `gpu_memory_utilization`, the "max seq len (N)" of its KV-cache error).

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use regex::Regex;

use crate::estimator::llm::{Preset, presets};

/// What the paste says about the run, as the llm-memory calculator's fields.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelMention {
    pub preset: &'static Preset,
    pub max_model_len: Option<u64>,
    pub gpu_memory_utilization: Option<f64>,
    /// vLLM's own words or settings appear: the run serves rather than trains.
    pub serving: bool,
    /// vLLM's "total_gpu_memory (39.50GiB)", in GiB.
    pub total_gpu_gib: Option<f64>,
}

static MAX_MODEL_LEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:max[_-]model[_-]len\W{0,3}|max seq len \()(\d{2,8})").expect("regex")
});
static UTILIZATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)gpu[_-]memory[_-]utilization\W{0,3}(0?\.\d+|1(?:\.0+)?)\b").expect("regex")
});
static TOTAL_GPU: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)total_gpu_memory \((\d+(?:\.\d+)?) ?GiB\)").expect("regex"));
static SERVING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\bvllm\b|max[_-]model[_-]len|gpu[_-]memory[_-]utilization|KV cache|text-generation-inference")
        .expect("regex")
});

/// The preset the paste names, if any: the longest id found, so `…-70B` is not read as
/// `…-7B`, and only where the id ends (a variant suffix such as `-Instruct` is the same
/// architecture).
pub fn mention(text: &str) -> Option<ModelMention> {
    let (automaton, owners) = &*PRESET_NAMES;
    let preset = automaton
        .find_overlapping_iter(text)
        .filter(|m| whole_at(text, m.end()))
        .max_by_key(|m| m.len())
        .map(|m| owners[m.pattern().as_usize()])?;
    let max_model_len = MAX_MODEL_LEN.captures(text).and_then(|c| c[1].parse().ok());
    let gpu_memory_utilization = UTILIZATION
        .captures(text)
        .and_then(|c| c[1].parse::<f64>().ok())
        .filter(|u| *u > 0.0 && *u <= 1.0);
    Some(ModelMention {
        preset,
        max_model_len,
        gpu_memory_utilization,
        serving: SERVING.is_match(text),
        total_gpu_gib: TOTAL_GPU
            .captures(text)
            .and_then(|c| c[1].parse::<f64>().ok())
            .filter(|g| *g > 0.0 && *g <= 4096.0),
    })
}

/// Every preset's names (its id, the Hub cache folder's name, the id without `-hf`), found
/// in one pass over the paste whatever their case, and the preset each belongs to.
static PRESET_NAMES: LazyLock<(AhoCorasick, Vec<&'static Preset>)> = LazyLock::new(|| {
    let mut names = Vec::new();
    let mut owners = Vec::new();
    for preset in presets() {
        let id = preset.id.to_ascii_lowercase();
        let cache = format!("models--{}", id.replace('/', "--"));
        let bare = id.strip_suffix("-hf").map(str::to_owned);
        for name in [Some(id), Some(cache), bare].into_iter().flatten() {
            names.push(name);
            owners.push(preset);
        }
    }
    let automaton = AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(&names)
        .expect("preset names build an automaton");
    (automaton, owners)
});

/// A name ending at `end` is not followed by more of a name (a digit, a letter, or a dot
/// before a digit): `qwen2.5-7b` is not found in `qwen2.5-72b`.
fn whole_at(haystack: &str, end: usize) -> bool {
    let mut chars = haystack[end..].chars();
    match chars.next() {
        None => true,
        Some(c) if c.is_ascii_alphanumeric() => false,
        Some('.') => !chars.next().is_some_and(|c| c.is_ascii_digit()),
        Some(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hub_ids_are_found_in_messages_paths_and_the_cache() {
        let m = mention("OSError: meta-llama/Llama-3.1-8B-Instruct does not appear to have a file")
            .unwrap();
        assert_eq!(m.preset.id, "meta-llama/Llama-3.1-8B");
        let m =
            mention("/root/.cache/huggingface/hub/models--Qwen--Qwen2.5-72B/snapshots/x").unwrap();
        assert_eq!(m.preset.id, "Qwen/Qwen2.5-72B");
        let m = mention("loading meta-llama/Llama-2-7b-chat-hf").unwrap();
        assert_eq!(m.preset.id, "meta-llama/Llama-2-7b-hf");
        assert!(mention("Traceback: modeling_llama.py line 300").is_none());
    }

    #[test]
    fn a_longer_size_is_not_read_as_a_shorter_one() {
        let m = mention("model=Qwen/Qwen2.5-72B").unwrap();
        assert_eq!(m.preset.id, "Qwen/Qwen2.5-72B");
        assert!(
            mention("EleutherAI/pythia-1.4b")
                .is_some_and(|m| m.preset.id == "EleutherAI/pythia-1.4b")
        );
    }

    #[test]
    fn vllm_settings_are_read() {
        let m = mention(
            "INFO 01-15 llm_engine.py:234] Initializing an LLM engine (v0.6.6) with config: model='meta-llama/Meta-Llama-3-8B', max_model_len=8192, gpu_memory_utilization=0.95\nValueError: The model's max seq len (8192) is larger than the maximum number of tokens that can be stored in KV cache (5000).",
        )
        .unwrap();
        assert_eq!(m.max_model_len, Some(8192));
        assert_eq!(m.gpu_memory_utilization, Some(0.95));
        assert!(m.serving);
        let m = mention("the current vLLM instance can use total_gpu_memory (39.50GiB) x gpu_memory_utilization (0.90) = 35.55GiB; meta-llama/Llama-3.1-8B").unwrap();
        assert_eq!(m.total_gpu_gib, Some(39.5));
        assert_eq!(m.gpu_memory_utilization, Some(0.9));
        let m = mention("ValueError: The model's max seq len (131072) is larger than ... meta-llama/Llama-3.1-8B").unwrap();
        assert_eq!(m.max_model_len, Some(131_072));
    }
}
