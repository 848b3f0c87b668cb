//! What kind of out-of-memory situation a paste describes, read from its figures, its frames
//! and its words — and which catalog group and section that situation calls for.
//!
//! The catalog ids are part of the contract (CONTRACT.md), so the mapping from a
//! situation to its group lives here, in one table, rather than in article metadata.

use crate::traceback::{ErrorKind, Facts, Parsed};

mod cues;
mod figures;
mod phase;
mod stack;
#[cfg(test)]
mod tests;
mod words;

pub use self::cues::mentions_running_out;
use self::cues::*;
pub use self::figures::{MemoryReading, read_memory};
use self::figures::{free_exceeds_request, is_typed_sentence};
use self::phase::*;
pub use self::phase::{
    PhasesLeftBehind, contrast_splits, is_negation, is_negation_after, names_a_phase,
    single_phase_named,
};
pub use self::stack::stack;
use self::stack::{DIFFUSION_TRAINERS, stack_reading};
use self::words::*;

/// The reading of a paste that decides which article group comes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Situation {
    TrainingOom,
    InferenceOom,
    Fragmentation,
    MemoryGrowth,
    MpsOom,
    HostRam,
    /// Out of memory while fine-tuning a large language model (LoRA, QLoRA, TRL, …).
    LlmFinetune,
    /// Out of memory while an LLM server or `generate()` holds its KV cache.
    LlmServing,
    /// Out of memory in an image or video generation pipeline.
    Diffusion,
    /// Out of memory with DeepSpeed ZeRO or FSDP sharding.
    Sharded,
    /// Memory that `torch.compile` (Inductor, CUDA Graphs) holds.
    Compile,
    /// GPU memory still shown as used by `nvidia-smi` after a run ended or was interrupted.
    NotReleased,
    /// An out-of-memory error caught by the program's own handler, which retries.
    Recovery,
    /// Nothing specific: ranking rests on signatures and text alone.
    Other,
}

impl Situation {
    const WITH_ARTICLES: [Situation; 13] = [
        Situation::TrainingOom,
        Situation::InferenceOom,
        Situation::Fragmentation,
        Situation::MemoryGrowth,
        Situation::MpsOom,
        Situation::HostRam,
        Situation::LlmFinetune,
        Situation::LlmServing,
        Situation::Diffusion,
        Situation::Sharded,
        Situation::Compile,
        Situation::NotReleased,
        Situation::Recovery,
    ];

    /// The group this situation points to, if any.
    pub fn group(self) -> Option<&'static str> {
        match self {
            Situation::TrainingOom => Some("cuda-oom-training"),
            Situation::InferenceOom => Some("cuda-oom-inference"),
            Situation::Fragmentation => Some("cuda-oom-fragmentation"),
            Situation::MemoryGrowth => Some("memory-growth-leak"),
            Situation::MpsOom => Some("mps-oom"),
            Situation::HostRam => Some("cpu-ram-oom"),
            Situation::LlmFinetune => Some("llm-finetune-oom"),
            Situation::LlmServing => Some("llm-inference-kv-cache"),
            Situation::Diffusion => Some("diffusion-pipeline-oom"),
            Situation::Sharded => Some("zero-fsdp-oom"),
            Situation::Compile => Some("torch-compile-memory"),
            Situation::NotReleased => Some("gpu-memory-not-released"),
            Situation::Recovery => Some("oom-recovery-handler"),
            Situation::Other => None,
        }
    }

    /// The situation whose article is `group`.
    pub fn of_group(group: &str) -> Option<Situation> {
        Self::WITH_ARTICLES
            .into_iter()
            .find(|s| s.group() == Some(group))
    }

    /// Whether a library's own message can say where an out-of-memory error struck. Not the
    /// training default (its own wordings include PyTorch's old generic lines), nor host RAM
    /// and MPS, which the error itself names.
    pub fn is_told_by_library_messages(self) -> bool {
        !matches!(
            self,
            Situation::TrainingOom | Situation::HostRam | Situation::MpsOom | Situation::Other
        )
    }

    /// The situations a person can tell apart when asked where an out-of-memory error struck,
    /// with the stable names the API's `situation` field takes.
    pub const STATABLE: [(Situation, &'static str); 6] = [
        (Situation::TrainingOom, "training"),
        (Situation::InferenceOom, "inference"),
        (Situation::LlmFinetune, "llm_finetuning"),
        (Situation::LlmServing, "llm_serving"),
        (Situation::Diffusion, "image_generation"),
        (Situation::Sharded, "sharded_training"),
    ];

    /// The stable names, listed for an error message: "training, inference, …".
    pub fn statable_names() -> String {
        let names: Vec<&str> = Self::STATABLE.iter().map(|(_, name)| *name).collect();
        names.join(", ")
    }

    /// The situation a stable name (see [`Situation::STATABLE`]) states.
    pub fn stated(name: &str) -> Option<Situation> {
        Self::STATABLE
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(s, _)| *s)
    }
}

/// Groups that answer one and the same out-of-memory message in different situations: the
/// message's signatures cannot tell them apart, so among them the situation decides.
pub const MEMORY_FAMILY: &[&str] = &[
    "cuda-oom-training",
    "cuda-oom-inference",
    "cuda-oom-fragmentation",
    "memory-growth-leak",
    "gpu-memory-estimate",
    "activation-memory",
    "llm-finetune-oom",
    "llm-inference-kv-cache",
    "diffusion-pipeline-oom",
    "zero-fsdp-oom",
    "torch-compile-memory",
    "oom-recovery-handler",
    "gpu-memory-not-released",
];

/// Characters of a text its words are read from.
const WORDS_READ_CHARS: usize = 64 * 1024;

/// The text's first [`WORDS_READ_CHARS`] characters, lowercased once for every reading of the
/// situation.
fn lowered_head(text: &str) -> String {
    let end = text
        .char_indices()
        .nth(WORDS_READ_CHARS)
        .map_or(text.len(), |(i, _)| i);
    text[..end].to_lowercase()
}

/// The situation, and whether it is only the default: an out-of-memory error that nothing in
/// the paste places in training or elsewhere reads as training, but that reading is a
/// guess, not evidence.
pub fn read_situation(parsed: &Parsed, text: &str) -> (Situation, bool) {
    let lower = lowered_head(text);
    let lower = lower.as_str();
    let read = |situation| (situation, false);
    match parsed.kind {
        ErrorKind::MpsOom => read(Situation::MpsOom),
        ErrorKind::CpuOom => match stack(lower) {
            Some(Situation::Sharded) => read(Situation::Sharded),
            // Unless the report itself blames the RAM ("not enough RAM").
            _ if only_a_worker_was_killed(text) && !names_ram(lower) => read(Situation::Other),
            // A process that was killed and left the card's memory held: what was killed is
            // not what ran out, the memory it held is the subject.
            _ if mentions_gpu_memory(lower) && describes_memory_held(lower) => {
                read(Situation::NotReleased)
            }
            _ => read(Situation::HostRam),
        },
        ErrorKind::CudaOom => cuda_oom_situation(parsed, text, lower),
        _ if shows_nvidia_smi(text) => read(Situation::NotReleased),
        // Memory an out-of-memory error left behind in a run that went on is what the
        // recovery article is about; memory held after a run or its objects are gone is not.
        _ if describes_memory_held(lower) && HELD_AFTER_OOM.is_match(lower) => {
            read(Situation::Recovery)
        }
        _ if describes_memory_held(lower) => read(Situation::NotReleased),
        _ if contains_word(lower, "killed") && lower.contains("checkpoint shards") => {
            read(Situation::HostRam)
        }
        _ if killed_by_the_kernel(lower) => match stack(lower) {
            Some(Situation::Sharded) => read(Situation::Sharded),
            _ => read(Situation::HostRam),
        },
        // Prose about memory without an error message ("my GPU runs out of memory after a
        // few iterations", "نفاد ذاكرة MPS على ماك") still names a situation, the stack it
        // comes from first.
        // A GPU that runs out raises an error; a process killed as its memory grows was
        // killed by the kernel, for host RAM.
        _ if mentions_memory(lower)
            && let Some(rise) = growth(lower) =>
        {
            if contains_word(lower, "killed") && !mentions_gpu_memory(lower) {
                read(Situation::HostRam)
            } else if on_a_mac(lower) {
                // On a Mac, rising or not, the MPS article holds the levers (its limit, its
                // cache), as for any error of the device.
                read(Situation::MpsOom)
            } else if let Some(stack) = stack(lower) {
                read(stack)
            } else if rise_explained_by_inference(rise, parsed, lower) {
                // The inference article's levers are the card's; host memory that rises
                // while evaluating is host memory running out.
                if names_host_memory(lower) && !mentions_gpu_memory(lower) {
                    read(Situation::HostRam)
                } else {
                    read(Situation::InferenceOom)
                }
            } else {
                read(Situation::MemoryGrowth)
            }
        }
        // Sizes typed in a sentence; a log's lines of sizes (totals, limits) compare other things.
        _ if is_typed_sentence(parsed, lower) && free_exceeds_request(lower) => {
            read(Situation::Fragmentation)
        }
        _ if mentions_running_out(lower) => situation_from_words(parsed, text, lower),
        _ => read(Situation::Other),
    }
}

/// A CUDA out-of-memory error: the stack it came from first (its article knows that stack's
/// levers), then what the figures show, then where in the workflow it struck.
fn cuda_oom_situation(parsed: &Parsed, text: &str, lower: &str) -> (Situation, bool) {
    if let Some((stack, by_name_alone)) = stack_reading(lower) {
        // The diffusion article is about generating pictures; training an image model (a
        // LoRA, DreamBooth, a fine-tune) is training, when the code, not only the words,
        // says so.
        if stack == Situation::Diffusion {
            let phase = phase_evidence(parsed, lower);
            let trainer = DIFFUSION_TRAINERS.iter().any(|t| contains_word(lower, t));
            if !phase.is_inference() && (trainer || phase.training >= SCRIPT_POINTS) {
                return (Situation::TrainingOom, false);
            }
        }
        if stack == Situation::LlmFinetune {
            // A fine-tuning toolkit run with only its evaluation switches on evaluates.
            if run_only_evaluates(lower) == Some(true) {
                return (Situation::InferenceOom, false);
            }
            // Adapters (PEFT, LoRA) are loaded to run a tuned model too: with a frame or
            // script of evaluation or generation and nothing of training, it is being run.
            let phase = phase_evidence(parsed, lower);
            if phase.inference >= SCRIPT_POINTS && phase.training == 0 {
                return by_phase_and_model(phase, lower);
            }
        }
        return (stack, by_name_alone);
    }
    if let Some(rise) = growth(lower)
        && !rise_explained_by_inference(rise, parsed, lower)
    {
        return (Situation::MemoryGrowth, false);
    }
    if read_memory(&parsed.facts).fragmented {
        return (Situation::Fragmentation, false);
    }
    if CATCHES_OOM.is_match(text)
        || text.contains(HANDLER_FAILED)
        || SKIPS_BATCH_AFTER_OOM.is_match(lower)
        || ASKS_TO_GO_ON_AFTER_OOM.is_match(lower)
    {
        return (Situation::Recovery, false);
    }
    by_phase_and_model(phase_evidence(parsed, lower), lower)
}

/// Figures of fragmentation in a paste whose frames and words place the error in evaluation
/// or generation: two readings hold, and the labelled pastes split between them (the
/// fragmentation article, or the inference one's smaller inputs). Ranking keeps the figures'
/// reading; the answer is not a known fix.
pub fn fragmentation_contested(
    situation: Situation,
    memory: &MemoryReading,
    parsed: &Parsed,
    text: &str,
) -> bool {
    situation == Situation::Fragmentation
        && memory.fragmented
        && phase_evidence(parsed, &lowered_head(text)).is_inference()
}

/// The computer's RAM named, and nothing of the card's memory: "RAM", «الرام», "रैम".
fn names_ram_alone(lower: &str) -> bool {
    names_ram(lower)
        && !mentions_gpu_memory(lower)
        && !GPU_RAM.is_match(lower)
        && !contains_word(lower, "gpu")
}

/// The computer's RAM named: "RAM", «الرام», "रैम", 内存.
fn names_ram(lower: &str) -> bool {
    ["ram", "رام", "الرام", "रैम", "内存"]
        .iter()
        .any(|w| contains_word(lower, w))
}

fn names_host_memory(lower: &str) -> bool {
    HOST_WORDS.iter().any(|w| contains_word(lower, w))
}

/// Memory said to rise, not with the steps of a run, where the text places the error in
/// evaluation or generation: "training takes 9 GB, evaluation goes up to 27 GB" is the
/// evaluation's own need, not a leak.
fn rise_explained_by_inference(rise: Growth, parsed: &Parsed, lower: &str) -> bool {
    rise == Growth::Said && phase_evidence(parsed, lower).is_inference()
}

/// Where in the workflow an out-of-memory error struck, from the phase evidence and what
/// model it ran: training a language model is a fine-tune, whose article knows its levers.
fn by_phase_and_model(phase: PhaseEvidence, lower: &str) -> (Situation, bool) {
    // A language model generating over a long prompt or a conversation holds a KV cache
    // that grows with every token: the serving article's levers, not the evaluation loop's.
    let language_model = names_a_language_model(lower);
    if phase.is_inference() && language_model && generates_at_length(lower) {
        return (Situation::LlmServing, false);
    }
    if !phase.is_inference() && language_model {
        // A language model named with no word of serving or evaluation is most often being
        // fine-tuned; with no word of training either, that stays a guess.
        return (Situation::LlmFinetune, phase.training == 0);
    }
    by_phase(phase)
}

fn by_phase(phase: PhaseEvidence) -> (Situation, bool) {
    if phase.is_inference() {
        (Situation::InferenceOom, false)
    } else {
        (Situation::TrainingOom, phase.is_empty())
    }
}

/// A typed description of an out-of-memory error: the device or phase it names decides.
/// `lower`: the text's head, lowercased.
fn situation_from_words(parsed: &Parsed, text: &str, lower: &str) -> (Situation, bool) {
    // The device first: on a Mac, whatever the stack, the MPS article holds the levers.
    if on_a_mac(lower) {
        (Situation::MpsOom, false)
    } else if FRAGMENTATION_NAMED.iter().any(|w| lower.contains(w)) {
        // The cause named outright outranks the stack it happened in.
        (Situation::Fragmentation, false)
    } else if names_ram_alone(lower) && stack(lower) != Some(Situation::Sharded) {
        // "SDXL RAM crashed on Colab": the RAM it names ran out, whatever the stack, save
        // DeepSpeed's and FSDP's, whose article budgets the RAM their offload takes.
        (Situation::HostRam, false)
    } else if let Some(stack) = stack(lower) {
        (stack, false)
    } else if names_host_memory(lower) && !lower.contains("cuda") && !GPU_RAM.is_match(lower) {
        // "copying the inputs to CPU due to CUDA OOM": the CPU is where the memory was not
        // short; words that name CUDA ran out on the card, and "GPU RAM" ("a GPU with 24gb
        // of ram") is the card's.
        (Situation::HostRam, false)
    } else if FRAGMENTATION_WORDS.iter().any(|w| lower.contains(w)) {
        (Situation::Fragmentation, false)
    } else if CATCHES_OOM.is_match(text) || ASKS_TO_GO_ON_AFTER_OOM.is_match(lower) {
        // Words about running out over code that catches the error, or asking how to go on
        // after it: the handler is the subject, as when the handler's own failure is pasted.
        (Situation::Recovery, false)
    } else {
        by_phase_and_model(phase_evidence(parsed, lower), lower)
    }
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
