//! What kind of out-of-memory situation a paste describes, read from its figures, its frames
//! and its words — and which catalog group and section that situation calls for.
//!
//! The catalog ids are part of the contract (CONTRACT.md), so the mapping from a
//! situation to its group lives here, in one table, rather than in article metadata.

use std::sync::LazyLock;

use regex::Regex;

use crate::traceback::{ErrorKind, Facts, Parsed};

const MIB: u64 = 1 << 20;
const GIB: u64 = 1 << 30;

/// The reading of a paste that decides which article group comes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Situation {
    TrainingOom,
    InferenceOom,
    Fragmentation,
    MemoryGrowth,
    MpsOom,
    HostRam,
    /// Nothing specific: ranking rests on signatures and text alone.
    Other,
}

impl Situation {
    /// The group this situation points to, if any.
    pub fn group(self) -> Option<&'static str> {
        match self {
            Situation::TrainingOom => Some("cuda-oom-training"),
            Situation::InferenceOom => Some("cuda-oom-inference"),
            Situation::Fragmentation => Some("cuda-oom-fragmentation"),
            Situation::MemoryGrowth => Some("memory-growth-leak"),
            Situation::MpsOom => Some("mps-oom"),
            Situation::HostRam => Some("cpu-ram-oom"),
            Situation::Other => None,
        }
    }
}

/// Facts about the figures of a CUDA out-of-memory message.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemoryReading {
    /// Reserved by PyTorch but not handed to any tensor.
    pub reserved_unallocated: Option<u64>,
    /// Memory held by other processes (capacity − free − this process).
    pub others: Option<u64>,
    /// The request alone is larger than the whole GPU.
    pub request_exceeds_capacity: bool,
    /// A large share of what PyTorch reserved sits unused: fragmentation.
    pub fragmented: bool,
}

pub fn read_memory(facts: &Facts) -> MemoryReading {
    let unallocated = facts.reserved_unallocated_bytes.or_else(|| {
        let reserved = facts.reserved_total_bytes?;
        let allocated = facts.already_allocated_bytes?;
        Some(reserved.saturating_sub(allocated))
    });
    let reserved = facts
        .reserved_total_bytes
        .or_else(|| Some(facts.allocated_by_pytorch_bytes? + facts.reserved_unallocated_bytes?));
    let fragmented = match (unallocated, reserved) {
        (Some(unallocated), Some(reserved)) if reserved > 0 => {
            unallocated >= 256 * MIB && unallocated as f64 >= 0.3 * reserved as f64
        }
        _ => false,
    };
    let this_process = facts.process_in_use_bytes.or(reserved);
    let others = match (facts.total_capacity_bytes, facts.free_bytes, this_process) {
        (Some(total), Some(free), Some(own)) => {
            let others = total.saturating_sub(free).saturating_sub(own);
            (others >= GIB.max(total / 8)).then_some(others)
        }
        _ => None,
    }
    .or_else(|| {
        let listed: u64 = facts.other_processes.iter().map(|p| p.bytes).sum();
        (listed > 0).then_some(listed)
    });
    let request_exceeds_capacity = matches!(
        (facts.tried_to_allocate_bytes, facts.total_capacity_bytes),
        (Some(request), Some(total)) if request > total
    );
    MemoryReading {
        reserved_unallocated: unallocated,
        others,
        request_exceeds_capacity,
        fragmented,
    }
}

/// Words of one script at a time, so "运行demo" yields "demo"; identifiers split at `_`.
static WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[\p{Latin}\p{N}]+|\p{Arabic}+|\p{Devanagari}+").expect("word pattern")
});
static GROWTH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        \b(increas\w*|grow\w*|leak\w*|more\s+and\s+more|keeps?\s+(using|getting|rising)|steady)
        [^.\n]{0,60}
        \b(iterations?|iters?|epochs?|steps?|batch(es)?|over\s+time)\b
      | (after|every|each)\s+(\d+k?|a\s+few|several|many|some)?\s*(training\s+)?(iterations|iters|epochs|steps)
      | (iteration|epoch|step)\w*\s[^.\n]{0,40}(increas|grow)
      | (memory|usage|consumption)[^.\n]{0,40}(increas|grow|ris(e|ing))
      | (increas|grow)\w*[^.\n]{0,30}(memory|usage|consumption)",
    )
    .expect("growth pattern")
});

/// Words that place an error in evaluation, validation or generation.
const INFERENCE_WORDS: &[&str] = &[
    "validation",
    "validate",
    "valid",
    "val",
    "eval",
    "evaluate",
    "evaluation",
    "evaluating",
    "inference",
    "infer",
    "predict",
    "prediction",
    "predicting",
    "generate",
    "generation",
    "generating",
    "sampling",
    "demo",
    "test",
    "testing",
    "no_grad",
    "inference_mode",
    "inférence",
    "évaluation",
    "génération",
    "prédiction",
    "تقييم",
    "استدلال",
    "التحقق",
    "अनुमान",
    "इन्फरेंस",
    "मूल्यांकन",
    "वैलिडेशन",
];
const INFERENCE_SUBSTRINGS: &[&str] = &["推理", "验证", "测试", "生成", "预测"];
const TRAINING_WORDS: &[&str] = &[
    "train",
    "training",
    "trainer",
    "finetune",
    "finetuning",
    "backward",
    "pretrain",
    "entraînement",
    "تدريب",
    "प्रशिक्षण",
    "ट्रेनिंग",
];
const TRAINING_SUBSTRINGS: &[&str] = &["训练"];
const INFERENCE_FRAME_PARTS: &[&str] = &[
    "valid",
    "eval",
    "test",
    "predict",
    "generate",
    "infer",
    "sample",
    "demo",
    "estimate_loss",
];
const TRAINING_FRAME_PARTS: &[&str] = &["backward", "train", "finetun"];

/// Where in the workflow an out-of-memory error struck: frames and script names weigh more
/// than words, and training is the default (the common case and the safer advice).
pub fn is_inference(parsed: &Parsed, text: &str) -> bool {
    let (mut training, mut inference) = (0u32, 0u32);
    for frame in &parsed.frames {
        let function = frame.function.to_lowercase();
        if INFERENCE_FRAME_PARTS.iter().any(|p| function.contains(p)) {
            inference += 2;
        }
        if TRAINING_FRAME_PARTS.iter().any(|p| function.contains(p)) {
            training += 2;
        }
        let script = frame
            .file
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or("")
            .to_lowercase();
        if !frame.file.contains("-packages") {
            if [
                "demo", "infer", "predict", "test", "eval", "generate", "sample",
            ]
            .iter()
            .any(|p| script.contains(p))
            {
                inference += 3;
            }
            if ["train", "finetun"].iter().any(|p| script.contains(p)) {
                training += 3;
            }
        }
    }
    let lower: String = text
        .chars()
        .take(64 * 1024)
        .collect::<String>()
        .to_lowercase();
    for word in WORD.find_iter(&lower).map(|m| m.as_str()) {
        if INFERENCE_WORDS.contains(&word) {
            inference += 1;
        } else if TRAINING_WORDS.contains(&word) {
            training += 1;
        }
    }
    inference += INFERENCE_SUBSTRINGS
        .iter()
        .filter(|s| lower.contains(*s))
        .count() as u32;
    training += TRAINING_SUBSTRINGS
        .iter()
        .filter(|s| lower.contains(*s))
        .count() as u32;
    inference > 0 && inference >= training
}

/// Whether the text describes memory rising over iterations or epochs.
pub fn describes_growth(text: &str) -> bool {
    let lower: String = text
        .chars()
        .take(64 * 1024)
        .collect::<String>()
        .to_lowercase();
    GROWTH.is_match(&lower)
}

pub fn situation(parsed: &Parsed, text: &str) -> Situation {
    match parsed.kind {
        ErrorKind::MpsOom => Situation::MpsOom,
        ErrorKind::CpuOom => Situation::HostRam,
        ErrorKind::CudaOom => {
            if describes_growth(text) {
                Situation::MemoryGrowth
            } else if read_memory(&parsed.facts).fragmented {
                Situation::Fragmentation
            } else if is_inference(parsed, text) {
                Situation::InferenceOom
            } else {
                Situation::TrainingOom
            }
        }
        // Prose about memory without an error message ("my GPU runs out of memory after a
        // few iterations", "نفاد ذاكرة MPS على ماك") still names a situation.
        _ if describes_growth(text) && mentions_memory(text) => Situation::MemoryGrowth,
        _ if mentions_running_out(text) => situation_from_words(parsed, text),
        _ => Situation::Other,
    }
}

/// Phrases for "out of memory" as people type them in each language.
const OUT_OF_MEMORY: &[&str] = &[
    "out of memory",
    "oom",
    "memory error",
    "نفاد",
    "نفاذ",
    "ذاكرة غير كافية",
    "मेमोरी खत्म",
    "मेमोरी ख़त्म",
    "आउट ऑफ मेमोरी",
    "मेमोरी कम",
    "mémoire insuffisante",
    "manque de mémoire",
    "plus de mémoire",
    "显存不足",
    "内存不足",
];
const MPS_WORDS: &[&str] = &["mps", "mac", "macbook", "apple", "ماك", "मैक", "ऐप्पल"];
const HOST_WORDS: &[&str] = &["ram", "cpu", "العشوائية", "रैम", "vive"];
const FRAGMENTATION_WORDS: &[&str] = &["fragment", "تجزئة", "مجزأة", "खंडित", "खंडन", "फ्रैगमेंटेशन"];

fn mentions_running_out(text: &str) -> bool {
    let lower = text.to_lowercase();
    OUT_OF_MEMORY.iter().any(|p| contains_word(&lower, p))
}

/// A typed description of an out-of-memory error: the device or phase it names decides.
fn situation_from_words(parsed: &Parsed, text: &str) -> Situation {
    let lower = text.to_lowercase();
    let any = |words: &[&str]| words.iter().any(|w| contains_word(&lower, w));
    if any(MPS_WORDS) {
        Situation::MpsOom
    } else if any(HOST_WORDS) {
        Situation::HostRam
    } else if FRAGMENTATION_WORDS.iter().any(|w| lower.contains(w)) {
        Situation::Fragmentation
    } else if is_inference(parsed, text) {
        Situation::InferenceOom
    } else {
        Situation::TrainingOom
    }
}

/// `needle` in `haystack` not glued to other letters (so "oom" is not found in "room").
fn contains_word(haystack: &str, needle: &str) -> bool {
    haystack.match_indices(needle).any(|(start, _)| {
        let before = haystack[..start].chars().next_back();
        let after = haystack[start + needle.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

fn mentions_memory(text: &str) -> bool {
    let lower = text.to_lowercase();
    ["memory", "mémoire", "ذاكرة", "मेमोरी", "显存", "内存"]
        .iter()
        .any(|w| lower.contains(w))
}

/// The section of the situation's group that holds the fix, when the figures say which:
/// other processes only when freeing their memory would have satisfied the request.
pub fn preferred_section(
    situation: Situation,
    memory: &MemoryReading,
    facts: &Facts,
) -> Option<&'static str> {
    let others_would_suffice = match (
        memory.others,
        facts.tried_to_allocate_bytes,
        facts.free_bytes,
    ) {
        (Some(others), Some(request), Some(free)) => request <= free.saturating_add(others),
        (Some(_), None, _) => true,
        _ => false,
    };
    match situation {
        Situation::TrainingOom if others_would_suffice => Some("fix-other-processes"),
        Situation::TrainingOom => Some("fix-reduce-batch-size"),
        Situation::Fragmentation => Some("fix-expandable-segments"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traceback::parse;

    #[test]
    fn fragmentation_needs_a_large_unused_share_of_reserved_memory() {
        let fragmented = parse(
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.70 GiB. GPU 0 has a total capacity of 6.00 GiB of which 0 bytes is free. Of the allocated memory 2.93 GiB is allocated by PyTorch, and 2.30 GiB is reserved by PyTorch but unallocated.",
        );
        assert!(read_memory(&fragmented.facts).fragmented);
        let tight = parse(
            "RuntimeError: CUDA out of memory. Tried to allocate 284.00 MiB (GPU 0; 31.75 GiB total capacity; 27.12 GiB already allocated; 99.50 MiB free; 30.44 GiB reserved in total by PyTorch)",
        );
        assert!(!read_memory(&tight.facts).fragmented);
    }

    #[test]
    fn other_processes_show_as_capacity_not_accounted_for() {
        let parsed = parse(
            "RuntimeError: CUDA out of memory. Tried to allocate 314.00 MiB (GPU 0; 23.63 GiB total capacity; 2.74 GiB already allocated; 207.75 MiB free; 2.81 GiB reserved in total by PyTorch)",
        );
        let others = read_memory(&parsed.facts).others.unwrap();
        assert!(others > 20 * GIB, "{others}");
    }

    #[test]
    fn script_names_and_words_tell_inference_from_training() {
        let demo = "File \"head_detection_demo.py\", line 3, in <module>\nRuntimeError: CUDA error: out of memory";
        assert!(is_inference(&parse(demo), demo));
        let seed = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/eval/seed-oom-example.txt"
        ))
        .unwrap();
        assert!(
            !is_inference(&parse(&seed), &seed),
            "estimate_loss inside train.py is training"
        );
        let words = "on validation I've got OOM: RuntimeError: CUDA out of memory.";
        assert!(is_inference(&parse(words), words));
    }

    #[test]
    fn typed_words_name_the_situation_in_every_language() {
        let of = |text: &str| situation(&parse(text), text);
        assert_eq!(
            of("خطأ نفاد ذاكرة وحدة معالجة الرسومات"),
            Situation::TrainingOom
        );
        assert_eq!(of("نفاد ذاكرة MPS على ماك"), Situation::MpsOom);
        assert_eq!(
            of("mémoire insuffisante pendant la validation"),
            Situation::InferenceOom
        );
        assert_eq!(of("मेमोरी खत्म RAM"), Situation::HostRam);
        assert_eq!(of("the room is empty"), Situation::Other);
    }

    #[test]
    fn growth_is_read_from_prose() {
        assert!(describes_growth(
            "my GPU keeps using more memory with each iteration"
        ));
        assert!(describes_growth("after 15K training steps, out of memory"));
        assert!(!describes_growth(
            "CUDA out of memory. Tried to allocate 2.00 GiB"
        ));
    }
}
