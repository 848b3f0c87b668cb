//! The diagnosis: what the figures of a pasted error mean, in the reader's language, and a
//! calculator link prefilled with them.

use serde::Serialize;

use super::model_mention::{ModelMention, mention};
use super::situation::MemoryReading;
use crate::estimator::llm::{LlmInput, LlmPhase, estimate_llm};
use crate::estimator::{AllocationQuery, TensorKind, explain_allocation};
use crate::i18n::{FluentArgs, Lang, NumberFormat, messages};
use crate::traceback::{ErrorKind, Facts, Frame, Parsed};

/// Frames shown in an answer: the innermost ones say where it failed.
const MAX_FRAMES_SHOWN: usize = 30;

#[derive(Debug, Clone, Default, Serialize)]
pub struct Diagnosis {
    pub kind: ErrorKind,
    pub exception: Option<String>,
    pub facts: Facts,
    pub frames: Vec<Frame>,
    pub explanation: Vec<String>,
    pub calculator_url: Option<String>,
}

pub fn diagnose(parsed: &Parsed, memory: &MemoryReading, text: &str, lang: Lang) -> Diagnosis {
    let facts = &parsed.facts;
    let model = mention(text);
    // Any size of a few GiB is some batch × sequence × vocabulary product: the logits
    // reading is offered only for a run that is a language model.
    let allocation = facts
        .tried_to_allocate_bytes
        .filter(|_| parsed.kind == ErrorKind::CudaOom)
        .filter(|_| model.is_some() || shows_a_language_model(parsed, text))
        .and_then(|bytes| {
            explain_allocation(&AllocationQuery {
                bytes,
                total_bytes: facts.total_capacity_bytes,
                free_bytes: facts.free_bytes,
                ..AllocationQuery::default()
            })
            .into_iter()
            .next()
        });

    let mut say = Sentences::new(lang);
    if let Some(framework) = parsed.framework {
        say.named("diag-foreign-framework", "framework", framework);
    }
    match parsed.kind {
        ErrorKind::CudaOom => {
            explain_cuda_oom(&mut say, parsed, memory);
            if let Some(tensor) = &allocation {
                explain_tensor(&mut say, facts, tensor);
            }
        }
        ErrorKind::MpsOom => {
            if let (Some(allocated), Some(other), Some(max)) = (
                facts.mps_allocated_bytes,
                facts.other_allocations_bytes,
                facts.max_allowed_bytes,
            ) {
                say.bytes(
                    "diag-mps",
                    &[("allocated", allocated), ("other", other), ("max", max)],
                );
            }
        }
        ErrorKind::CpuOom => match facts.tried_to_allocate_bytes {
            Some(request) => say.bytes("diag-cpu", &[("request", request)]),
            None => say.plain("diag-cpu-unknown"),
        },
        // Kernel errors surface at a later call; the traceback may point at the wrong line.
        ErrorKind::CudaError
            if !parsed.hints.cuda_launch_blocking_set && is_kernel_error(parsed) =>
        {
            say.plain("diag-cuda-async");
        }
        _ => {}
    }

    if let Some(m) = &model {
        explain_model(&mut say, facts, m);
    }

    // A named model is described by the transformer calculator better than by the size
    // of one allocation.
    let model_url = model.as_ref().map(|m| llm_url(lang, facts, m));
    let calculator_url = model_url.or_else(|| {
        facts.tried_to_allocate_bytes.map(|request| {
            let mut params = vec![("tried_to_allocate_bytes", request)];
            params.extend(
                facts
                    .total_capacity_bytes
                    .map(|v| ("total_capacity_bytes", v)),
            );
            params.extend(facts.free_bytes.map(|v| ("free_bytes", v)));
            params.extend(
                memory
                    .reserved_unallocated
                    .map(|v| ("reserved_unallocated_bytes", v)),
            );
            if let Some(tensor) = &allocation {
                params.extend(tensor.vocab_size.map(|v| ("vocab_size", v)));
                params.push(("block_size", tensor.block_size));
                params.push(("batch_size", tensor.batch_size));
            }
            let query: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!("/{lang}/calculators/allocation?{}", query.join("&"))
        })
    });

    let skip = parsed.frames.len().saturating_sub(MAX_FRAMES_SHOWN);
    Diagnosis {
        kind: parsed.kind,
        exception: parsed.exception.clone(),
        facts: facts.clone(),
        frames: parsed.frames[skip..].to_vec(),
        explanation: say.done(),
        calculator_url,
    }
}

/// Identifiers only language-model code prints: its output layer and loss, its
/// vocabulary and context settings, its model classes.
const LANGUAGE_MODEL_WORDS: &[&str] = &[
    "logits",
    "lm_head",
    "cross_entropy",
    "vocab_size",
    "block_size",
    "max_seq_len",
    "max_seq_length",
    "seq_len",
    "max_length",
    "max_new_tokens",
    "tokenizer",
    "nanogpt",
    "gpt",
    "gpt2",
];
const LANGUAGE_MODEL_SUFFIXES: &[&str] = &["forcausallm", "lmheadmodel", "forseq2seqlm"];

/// Whether the paste comes from a language model: its words (source lines under the
/// frames included), or its frames in a `transformers` model file.
fn shows_a_language_model(parsed: &Parsed, text: &str) -> bool {
    parsed
        .frames
        .iter()
        .any(|frame| frame.file.contains("/models/") && frame.file.contains("modeling_"))
        || text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|token| token.len() >= 3)
            .any(|token| {
                LANGUAGE_MODEL_WORDS
                    .iter()
                    .any(|word| word.eq_ignore_ascii_case(token))
                    || LANGUAGE_MODEL_SUFFIXES.iter().any(|suffix| {
                        token.len() > suffix.len()
                            && token[token.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
                    })
            })
}

/// The run the paste describes, as the llm-memory calculator's input.
fn llm_input(facts: &Facts, m: &ModelMention) -> LlmInput {
    let gpu_gib = m.total_gpu_gib.or_else(|| {
        facts
            .total_capacity_bytes
            .map(|b| b as f64 / f64::from(1u32 << 30))
    });
    let mut input = LlmInput::preset(&m.preset.id);
    if m.serving {
        input.phase = LlmPhase::Generate;
        if let Some(len) = m.max_model_len {
            input.max_model_len = Some(len);
            input.sequence_length = len;
        }
    }
    if let Some(u) = m.gpu_memory_utilization {
        input.gpu_memory_utilization = u;
    }
    if let Some(gib) = gpu_gib {
        // Two decimals, as the calculator's field shows it.
        input.gpu_memory_gib = (gib * 100.0).floor() / 100.0;
    }
    input
}

fn llm_url(lang: Lang, facts: &Facts, m: &ModelMention) -> String {
    let input = llm_input(facts, m);
    let mut query = vec![("model", m.preset.id.clone())];
    if m.serving {
        query.push(("phase", "generate".to_owned()));
        if let Some(len) = m.max_model_len {
            query.push(("max_model_len", len.to_string()));
            query.push(("sequence_length", len.to_string()));
        }
    }
    if let Some(u) = m.gpu_memory_utilization {
        query.push(("gpu_memory_utilization", u.to_string()));
    }
    if m.total_gpu_gib.is_some() || facts.total_capacity_bytes.is_some() {
        query.push(("gpu_memory_gib", input.gpu_memory_gib.to_string()));
    }
    format!(
        "/{lang}/calculators/llm-memory?{}",
        serde_urlencoded::to_string(&query).unwrap_or_default()
    )
}

/// What the named model means for this run: its weights, its KV cache at the paste's
/// context, and (serving) how many sequences vLLM's cache holds on this GPU.
fn explain_model(say: &mut Sentences, facts: &Facts, m: &ModelMention) {
    let numbers = NumberFormat::new(say.lang);
    let input = llm_input(facts, m);
    let Ok(estimate) = estimate_llm(&LlmInput {
        phase: LlmPhase::Generate,
        ..input.clone()
    }) else {
        return;
    };
    let mut args = FluentArgs::new();
    args.set("model", m.preset.id.clone());
    args.set("params", numbers.int(estimate.parameters));
    args.set(
        "weights",
        numbers.bytes(estimate.parameters.saturating_mul(2)),
    );
    say.push(messages().format(say.lang, "diag-model", Some(&args)));
    let Some(per_token) = estimate.kv_cache_bytes_per_token else {
        return;
    };
    if let Some(len) = m.max_model_len {
        let mut args = FluentArgs::new();
        args.set("tokens", numbers.int(len));
        args.set("kv", numbers.bytes(per_token.saturating_mul(len)));
        args.set("per_token", numbers.int(per_token));
        say.push(messages().format(say.lang, "diag-model-kv", Some(&args)));
    }
    let has_gpu = m.total_gpu_gib.is_some() || facts.total_capacity_bytes.is_some();
    if m.serving
        && has_gpu
        && let (Some(tokens), Some(seqs)) =
            (estimate.kv_cache_tokens, estimate.max_concurrent_sequences)
    {
        let mut args = FluentArgs::new();
        args.set("total", numbers.bytes(estimate.gpu_memory_bytes));
        args.set("util", numbers.decimal(input.gpu_memory_utilization, 2));
        args.set("tokens", numbers.int(tokens));
        args.set("seqs", numbers.int(seqs));
        args.set(
            "len",
            numbers.int(input.max_model_len.unwrap_or(input.sequence_length)),
        );
        let id = if seqs == 0 {
            "diag-model-vllm-none"
        } else {
            "diag-model-vllm"
        };
        say.push(messages().format(say.lang, id, Some(&args)));
    }
}

/// Errors raised by a kernel (asserts, illegal accesses) rather than by a library call.
fn is_kernel_error(parsed: &Parsed) -> bool {
    let message = parsed.message.as_deref().unwrap_or_default().to_lowercase();
    [
        "device-side assert",
        "illegal memory access",
        "misaligned address",
        "launch failure",
    ]
    .iter()
    .any(|needle| message.contains(needle))
}

fn explain_cuda_oom(say: &mut Sentences, parsed: &Parsed, memory: &MemoryReading) {
    let facts = &parsed.facts;
    let is_cuda_error_form = parsed
        .message
        .as_deref()
        .is_some_and(|m| m.to_lowercase().contains("cuda error: out of memory"));
    if is_cuda_error_form && facts.tried_to_allocate_bytes.is_none() {
        say.plain("diag-cuda-error-oom");
        return;
    }
    if let Some(request) = facts.tried_to_allocate_bytes {
        say.bytes("diag-request", &[("request", request)]);
    }
    if let (Some(total), Some(free)) = (facts.total_capacity_bytes, facts.free_bytes) {
        say.bytes("diag-capacity", &[("total", total), ("free", free)]);
    }
    let allocated = facts
        .allocated_by_pytorch_bytes
        .or(facts.already_allocated_bytes);
    if let (Some(process), Some(allocated)) = (facts.process_in_use_bytes, allocated) {
        say.bytes(
            "diag-process",
            &[("process", process), ("allocated", allocated)],
        );
    }
    if memory.request_exceeds_capacity {
        if let Some(total) = facts.total_capacity_bytes {
            say.bytes("diag-exceeds-capacity", &[("total", total)]);
        }
    } else if let Some(unallocated) = memory.reserved_unallocated {
        if memory.fragmented {
            say.bytes("diag-fragmentation", &[("unallocated", unallocated)]);
            if parsed.hints.expandable_segments_set {
                say.plain("diag-fragmentation-already-set");
            }
        } else if facts.tried_to_allocate_bytes.is_some() {
            say.bytes("diag-not-fragmentation", &[("unallocated", unallocated)]);
        }
    }
    if let Some(others) = memory.others {
        say.bytes("diag-others", &[("others", others)]);
    }
}

fn explain_tensor(say: &mut Sentences, facts: &Facts, tensor: &crate::estimator::AllocationMatch) {
    let Some(request) = facts.tried_to_allocate_bytes else {
        return;
    };
    let lang = say.lang;
    let mut args = FluentArgs::new();
    args.set("request", NumberFormat::new(lang).bytes(request));
    args.set("batch", NumberFormat::new(lang).int(tensor.batch_size));
    args.set("block", NumberFormat::new(lang).int(tensor.block_size));
    args.set(
        "rows",
        NumberFormat::new(lang).int(tensor.batch_size * tensor.block_size),
    );
    args.set("bytes", tensor.element_bytes.to_string());
    args.set("dtype", tensor.dtype);
    if let Some(vocab) = tensor.vocab_size {
        args.set("vocab", NumberFormat::new(lang).int(vocab));
    }
    if let Some(heads) = tensor.n_head {
        args.set("heads", NumberFormat::new(lang).int(heads));
    }
    let id = match tensor.kind {
        TensorKind::Logits => "diag-logits",
        TensorKind::LogitsFp32 => "diag-logits-fp32",
        TensorKind::AttentionScores => "diag-attention",
    };
    say.push(messages().format(lang, id, Some(&args)));
    if let Some(batch) = tensor
        .fits_batch_size
        .filter(|&b| b > 0 && b < tensor.batch_size)
    {
        let mut args = FluentArgs::new();
        args.set("batch", NumberFormat::new(lang).int(batch));
        say.push(messages().format(lang, "diag-fits-batch", Some(&args)));
    }
}

/// Collects localized sentences.
struct Sentences {
    lang: Lang,
    out: Vec<String>,
}

impl Sentences {
    fn new(lang: Lang) -> Self {
        Sentences {
            lang,
            out: Vec::new(),
        }
    }

    fn plain(&mut self, id: &str) {
        self.out.push(messages().format(self.lang, id, None));
    }

    fn bytes(&mut self, id: &str, values: &[(&'static str, u64)]) {
        let mut args = FluentArgs::new();
        for (name, value) in values {
            args.set(*name, NumberFormat::new(self.lang).bytes(*value));
        }
        self.out.push(messages().format(self.lang, id, Some(&args)));
    }

    fn named(&mut self, id: &str, name: &'static str, value: &str) {
        let mut args = FluentArgs::new();
        args.set(name, value.to_owned());
        self.out.push(messages().format(self.lang, id, Some(&args)));
    }

    fn push(&mut self, sentence: String) {
        self.out.push(sentence);
    }

    fn done(self) -> Vec<String> {
        self.out
    }
}
