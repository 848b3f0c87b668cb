//! What kind of out-of-memory situation a paste describes, read from its figures, its frames
//! and its words — and which catalog group and section that situation calls for.
//!
//! The catalog ids are part of the contract (CONTRACT.md), so the mapping from a
//! situation to its group lives here, in one table, rather than in article metadata.

use aho_corasick::AhoCorasick;
use rustc_hash::{FxHashMap, FxHashSet};
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

/// The software a paste comes from, read from package paths, imports, commands, class names
/// and log banners: each stack's own identifiers, compared as whole tokens.
const STACKS: &[(Situation, &[&str])] = &[
    (
        Situation::Compile,
        &[
            "_inductor",
            "_dynamo",
            "inductor",
            "cudagraphs",
            "cudagraph_trees",
            "max-autotune",
            "max_autotune",
            "torch.compile",
        ],
    ),
    (
        Situation::Sharded,
        &[
            "deepspeed",
            "zero3",
            "zero-3",
            "zero_optimization",
            "stage3",
            "fsdp",
            "fullyshardeddataparallel",
            "offload_optimizer",
            "offload_param",
            "megatron",
        ],
    ),
    (
        Situation::LlmFinetune,
        &[
            "peft",
            "trl",
            "unsloth",
            "llamafactory",
            "llama_factory",
            "llama-factory",
            "llamafactory-cli",
            "axolotl",
            // axolotl's setting that packs short samples into one sequence.
            "sample_packing",
            "ms-swift",
            "sft_type",
            "lora",
            "qlora",
            "sfttrainer",
            "sfttrainer.train",
            "loraconfig",
            "get_peft_model",
            "prepare_model_for_kbit_training",
            "lora_r",
            "lora_alpha",
            "train_bash",
            "finetune.py",
            // The sequence cap of the instruction-tuning scripts' arguments (Alpaca and its
            // descendants); servers call it max_model_len.
            "model_max_length",
            // Reinforcement-learning fine-tuning of language models, whose rollouts run a
            // generation engine: the job is training even when vLLM's settings show.
            "verl",
            "openrlhf",
            "rlhf",
            "grpo",
            "grpotrainer",
            "dpo",
            "dpotrainer",
            "ppotrainer",
            "orpo",
        ],
    ),
    (
        Situation::LlmServing,
        &[
            "vllm",
            "text_generation_server",
            "text-generation-launcher",
            "text-generation-inference",
            "text-generation-webui",
            "oobabooga",
            "tgi",
            "sglang",
            "lmdeploy",
            "exllama",
            "exllamav2",
            "cache_engine",
            "kv_cache",
            "kv-cache",
            "past_key_value",
            "past_key_values",
            "max_model_len",
            "gpu_memory_utilization",
            "max-batch-prefill-tokens",
            "max_num_seqs",
            "samplingparams",
            // vLLM's sleep-mode allocator, which prints its own out-of-memory error.
            "cumem_allocator",
            // Weight formats quantized for serving, loaded by the chat web UIs.
            "gptq",
            "awq",
            "auto_gptq",
            "autoawq",
        ],
    ),
    (
        Situation::Diffusion,
        &[
            "diffusers",
            "comfyui",
            "comfy",
            "ksampler",
            "stable-diffusion-webui",
            "stable_diffusion",
            "stable-diffusion",
            "sd-webui",
            "sd_hijack",
            "ldm",
            "sgm",
            "sdxl",
            "controlnet",
            "animatediff",
            "txt2img",
            "img2img",
            "hires",
            "highres",
            "hiresfix",
            "unet",
            "enable_model_cpu_offload",
            "enable_sequential_cpu_offload",
            "fooocus",
            // AUTOMATIC1111's low-memory launch flags, printed in its sysinfo and logs.
            "medvram",
            "lowvram",
            "invokeai",
            "upscale",
            "upscaler",
            "inpaint",
            "inpainting",
            // Samplers of the image generators, printed in their settings and progress lines.
            "k_lms",
            "k_heun",
            "k_euler",
            "k_euler_a",
            "k_dpm_2",
            "k_dpm_2_a",
            "plms",
            "ddim",
            "autoencoderkl",
            "unet2dconditionmodel",
            // Video generators and image-generation add-ons.
            "cogvideo",
            "cogvideox",
            "i2v",
            "t2v",
            "img2vid",
            "instantid",
            "ipadapter",
            "ip-adapter",
            "framepack",
            "wan2gp",
            "hunyuanvideo",
            "hunyuan_video",
            "ltxvideo",
            "ltx-video",
            "opensora",
            "open-sora",
            "flux",
            "pixart",
            "kandinsky",
            // Forge's memory manager logs the model it loads: "Target: KModel".
            "kmodel",
        ],
    ),
];

/// Tools and scripts that train image-generation models (LoRA, DreamBooth, full fine-tunes).
const DIFFUSION_TRAINERS: &[&str] = &[
    "kohya_ss",
    // DreamBooth is a way of fine-tuning an image model: whatever runs it trains.
    "dreambooth",
    "sd-scripts",
    "sd_scripts",
    "train_network.py",
    "sdxl_train.py",
    "sdxl_train_network.py",
    "train_dreambooth.py",
    "train_dreambooth_lora.py",
    "train_text_to_image.py",
    "textual_inversion.py",
    "onetrainer",
];

/// Stack names written as several words.
const STACK_PHRASES: &[(&str, Situation)] = &[
    ("kv cache", Situation::LlmServing),
    ("key-value cache", Situation::LlmServing),
    ("stable diffusion", Situation::Diffusion),
    ("diffusion pipeline", Situation::Diffusion),
    // ComfyUI's executor names the node that failed: "Error occurred when executing KSampler".
    ("error occurred when executing", Situation::Diffusion),
    // What image generators print when a picture is (not) made.
    ("image(s) generated", Situation::Diffusion),
    ("images generated", Situation::Diffusion),
    ("could not generate image", Situation::Diffusion),
    // The VAE turns latents into pictures; web UIs fall back to tiles when it runs out.
    ("tiled vae", Situation::Diffusion),
    ("vae decoding", Situation::Diffusion),
    ("vae decode", Situation::Diffusion),
    ("image to video", Situation::Diffusion),
    ("text to video", Situation::Diffusion),
    ("image-to-video", Situation::Diffusion),
    ("text-to-video", Situation::Diffusion),
    ("video diffusion", Situation::Diffusion),
    ("video generation", Situation::Diffusion),
    ("torch compile", Situation::Compile),
    ("zero stage 3", Situation::Sharded),
    ("zero 3", Situation::Sharded),
    ("instant id", Situation::Diffusion),
    // ms-swift's command line.
    ("swift sft", Situation::LlmFinetune),
    ("swift rlhf", Situation::LlmFinetune),
    ("केवी कैश", Situation::LlmServing),
    ("वीएलएलएम", Situation::LlmServing),
];

/// A picture's size, as image trainers and generators are set ("768x768", "1024 x 1024"):
/// beside a LoRA, the adapter is an image model's, whatever else the paste names.
static IMAGE_SIZE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)(?:256|384|512|576|640|704|768|832|896|960|1024|1152|1280|1536|2048) ?[x×] ?(?:256|384|512|576|640|704|768|832|896|960|1024|1152|1280|1536|2048)(?-u:\b)")
        .expect("image size pattern")
});

/// Videos are made by diffusion models: "generate a video", "generating 768px videos".
static GENERATES_VIDEO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)generat(?:e|es|ed|ing)\s+(?:an?\s+|the\s+)?(?:[\w.-]+\s+)?videos?(?-u:\b)")
        .expect("video generation pattern")
});

/// Markers of [`STACKS`]' language-model fine-tuning that name an adapter method, not a model.
const ADAPTER_MARKERS: &[&str] = &[
    "lora",
    "qlora",
    "lora_r",
    "lora_alpha",
    "loraconfig",
    "peft",
    "get_peft_model",
];

/// Every phrase of [`STACK_PHRASES`] in one pass over the text (what [`contains_word`] finds,
/// phrase by phrase).
static STACK_PHRASE_FINDER: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::new(STACK_PHRASES.iter().map(|(phrase, _)| phrase)).expect("valid phrases")
});

/// A token naming a stack, or a class name that is a generation pipeline
/// (`StableDiffusionXLPipeline`, `CogView3PlusPipeline`, `FluxPipeline`).
fn stack_of_token(token: &str) -> Option<Situation> {
    if token.len() > "pipeline".len() + 2
        && token.ends_with("pipeline")
        && !token.contains('_')
        && !token.contains('.')
    {
        return Some(Situation::Diffusion);
    }
    if token.contains('-') {
        STACK_OF_MARKER
            .get(token.replace('-', "_").as_str())
            .copied()
    } else {
        STACK_OF_MARKER.get(token).copied()
    }
}

/// A class name glued from a stack's name and other words (`VllmWorkerProcess`,
/// `RayWorkerVllm`, `AutoencoderKLHunyuanVideo`), read lowercased: it starts or ends with
/// one of [`GLUABLE_MARKERS`].
fn stack_of_class_name(word: &str) -> Option<Situation> {
    if word.len() < 8 || !word.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    // A model's name with its size or memory class glued on (`HunyuanVideo24G`, `Flux1`).
    let without_unit = word.trim_end_matches(['g', 'b', 'm', 'k']);
    let name_alone = without_unit.trim_end_matches(|c: char| c.is_ascii_digit());
    if name_alone.len() < without_unit.len()
        && word.len() - without_unit.len() <= 2
        && name_alone.len() >= 4
        && let Some(situation) = GLUABLE_MARKERS
            .iter()
            .find(|(marker, _)| *marker == name_alone)
            .map(|(_, situation)| *situation)
    {
        return Some(situation);
    }
    GLUABLE_MARKERS
        .iter()
        .filter(|(marker, _)| word.len() >= marker.len() + 4)
        .find(|(marker, _)| word.starts_with(marker) || word.ends_with(marker))
        .map(|(_, situation)| *situation)
}

/// The markers of [`STACKS`] that are names rather than English words, long enough not to
/// begin or end unrelated words by chance, in the order of [`STACKS`].
static GLUABLE_MARKERS: LazyLock<Vec<(&'static str, Situation)>> = LazyLock::new(|| {
    const ENGLISH_WORD_MARKERS: &[&str] = &[
        "comfy",
        "hires",
        "highres",
        "upscale",
        "upscaler",
        "inpaint",
        "inpainting",
        "unet",
    ];
    STACKS
        .iter()
        .flat_map(|(situation, markers)| markers.iter().map(move |m| (*m, *situation)))
        .filter(|(marker, _)| {
            marker.len() >= 4
                && marker.bytes().all(|b| b.is_ascii_alphanumeric())
                && !ENGLISH_WORD_MARKERS.contains(marker)
        })
        .collect()
});

/// Each marker of [`STACKS`] and its stack (the first that lists it), with `-` written `_`:
/// a package is `text_generation_server` in paths and `text-generation-server` on the
/// command line.
static STACK_OF_MARKER: LazyLock<FxHashMap<String, Situation>> = LazyLock::new(|| {
    let mut stacks = FxHashMap::default();
    for (situation, markers) in STACKS {
        for marker in *markers {
            stacks.entry(marker.replace('-', "_")).or_insert(*situation);
        }
    }
    stacks
});

/// The stack with the most distinct markers in `lower`, if any (ties: the earlier in
/// [`STACKS`], the more specific).
pub fn stack(lower: &str) -> Option<Situation> {
    stack_reading(lower).map(|(situation, _)| situation)
}

/// Where `situation` stands in [`STACKS`], if it is a stack.
fn stack_slot(situation: Situation) -> Option<usize> {
    STACKS.iter().position(|(s, _)| *s == situation)
}

/// [`stack`], and whether the only sign of it was how the exception is printed: a web UI's
/// bare `OutOfMemoryError:` is also the last line of every Jupyter traceback, which half the
/// LLM fine-tunes come from, so it guides the ranking but does not vouch for it.
fn stack_reading(lower: &str) -> Option<(Situation, bool)> {
    // Tokens looked at already: a paste repeats its paths and names frame after frame.
    let mut read: FxHashSet<&str> = FxHashSet::default();
    let mut counts = [0u32; STACKS.len()];
    let mut count = |situation: Situation| {
        if let Some(slot) = stack_slot(situation) {
            counts[slot] += 1;
        }
    };
    // Stable Diffusion web UIs (AUTOMATIC1111 and its forks) print the exception's bare
    // name; PyTorch's own traceback prints `torch.OutOfMemoryError` or `torch.cuda.…`.
    // Jupyter prints it too, and says so: its traceback header and cell markers.
    let jupyter = ["cell in[", "<ipython-input-", "ipykernel"]
        .iter()
        .any(|marker| lower.contains(marker));
    let bare_name = !jupyter
        && lower.lines().any(|line| {
            line.trim_start()
                .starts_with("outofmemoryerror: cuda out of memory")
        });
    if bare_name {
        count(Situation::Diffusion);
    }
    for token in lower
        .split(|c: char| !(glues(c) || matches!(c, '_' | '-' | '.')))
        .map(|t| t.trim_matches(['.', '-']))
        .filter(|t| t.len() >= 3)
    {
        if !read.insert(token) {
            continue;
        }
        let Some(situation) = stack_of_token(token)
            .or_else(|| {
                // `site-packages/vllm/worker.py`, `torch._dynamo.eval_frame` and
                // `fastchat.serve.vllm_worker` name their package in a part.
                token
                    .split(['.', '-'])
                    .filter(|part| part.len() >= 3)
                    .find_map(|part| {
                        stack_of_token(part).or_else(|| {
                            part.split('_')
                                .filter(|word| word.len() >= 3)
                                .find_map(stack_of_token)
                        })
                    })
            })
            .or_else(|| {
                // A hyphenated name that starts with one (`stable-diffusion-2-depth`).
                token
                    .match_indices('-')
                    .skip(1)
                    .find_map(|(end, _)| stack_of_token(&token[..end]))
            })
            .or_else(|| token.split(['.', '-', '_']).find_map(stack_of_class_name))
        else {
            continue;
        };
        count(situation);
    }
    if GENERATES_VIDEO.is_match(lower) {
        count(Situation::Diffusion);
    }
    let mut phrases_found = [false; STACK_PHRASES.len()];
    for found in STACK_PHRASE_FINDER.find_overlapping_iter(lower) {
        if stands_alone(lower, found.start(), found.end()) {
            phrases_found[found.pattern().as_usize()] = true;
        }
    }
    for (k, (_, situation)) in STACK_PHRASES.iter().enumerate() {
        if phrases_found[k] {
            count(*situation);
        }
    }
    // DeepSpeed's pipeline engine splits the model's layers into stages across GPUs; it
    // shards no optimizer state, so "deepspeed" alone in its frames is no sign of ZeRO.
    if let Some(sharded) = stack_slot(Situation::Sharded)
        && counts[sharded] == 1
        && read.contains("deepspeed")
        && (lower.contains("runtime/pipe/") || lower.contains("runtime\\pipe\\"))
    {
        counts[sharded] = 0;
    }
    // LoRA adapters train image models as often as language models: beside a sign of an
    // image or video generator they are that generator's (a bare exception name is no such
    // sign: Jupyter prints it too).
    if let (Some(diffusion), Some(llm)) = (
        stack_slot(Situation::Diffusion),
        stack_slot(Situation::LlmFinetune),
    ) && (counts[diffusion] > u32::from(bare_name) || IMAGE_SIZE.is_match(lower))
    {
        let adapters = read
            .iter()
            .filter(|token| ADAPTER_MARKERS.contains(token))
            .count() as u32;
        counts[llm] = counts[llm].saturating_sub(adapters);
    }
    let best = counts.iter().copied().max().unwrap_or(0);
    (best > 0)
        .then(|| counts.iter().position(|&c| c == best))
        .flatten()
        .map(|slot| {
            let situation = STACKS[slot].0;
            let by_name_alone = bare_name && best == 1 && situation == Situation::Diffusion;
            (situation, by_name_alone)
        })
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
    // Fragmentation: a large share of what PyTorch reserved sits unused, or enough of it to
    // hold the request was unused and the request still failed (no block was big enough).
    let fragmented = match (unallocated, reserved) {
        (Some(unallocated), Some(reserved)) if reserved > 0 => {
            let share = unallocated as f64 / reserved as f64;
            let request_fitted = facts
                .tried_to_allocate_bytes
                .is_some_and(|request| unallocated >= request);
            (unallocated >= 256 * MIB && share >= 0.3)
                || (request_fitted && unallocated >= 64 * MIB && share >= 0.15)
        }
        _ => false,
    };
    // Some drivers (Windows WDDM among them) report 0 bytes for the process itself: that
    // figure says nothing, and the memory PyTorch reserved stands for it.
    let reported_own = facts.process_in_use_bytes.filter(|&bytes| bytes > 0);
    let this_process = reported_own.or(reserved);
    let others = match (facts.total_capacity_bytes, facts.free_bytes, this_process) {
        (Some(total), Some(free), Some(own)) => {
            let others = total.saturating_sub(free).saturating_sub(own);
            (others >= GIB.max(total / 8)).then_some(others)
        }
        _ => None,
    }
    .or_else(|| {
        let listed: u64 = other_processes_listed(facts, reported_own, reserved).sum();
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

/// The memory of the processes the message lists, without the one that is this process.
///
/// PyTorch names this process "this process" only when its PID matches the driver's. In a
/// container the PIDs differ, and the process appears in the list as "Process N". When the
/// message has no "this process" figure (`reported_own`), the smallest listed process that
/// holds at least what PyTorch reserved is taken to be the process itself.
fn other_processes_listed(
    facts: &Facts,
    reported_own: Option<u64>,
    reserved: Option<u64>,
) -> impl Iterator<Item = u64> {
    let itself = match (reported_own, reserved) {
        (None, Some(reserved)) => facts
            .other_processes
            .iter()
            .enumerate()
            .filter(|(_, p)| p.bytes >= reserved)
            .min_by_key(|(_, p)| p.bytes)
            .map(|(k, _)| k),
        _ => None,
    };
    facts
        .other_processes
        .iter()
        .enumerate()
        .filter(move |(k, _)| Some(*k) != itself)
        .map(|(_, p)| p.bytes)
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
      | (increas|grow|ris(e|es|ing)\b)\w*[^.\n]{0,30}(memory|usage|consumption)
      | (一直|不断|逐渐|持续|越来越)\p{Han}{0,3}(增加|增长|上升|涨|变大|变多|爆)
      | (显存|内存)[^。，,.\n]{0,15}(不断|持续|一直)?(增加|增长|上升|上涨)",
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
    "evaluations",
    "evaluating",
    "inference",
    "infer",
    "predict",
    "prediction",
    "predictions",
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
    "whisper",
    "transcribe",
    "transcription",
    "diarization",
    "diarize",
    // Speech synthesis (TTS) makes audio from a trained model.
    "synthesize",
    "synthesized",
    "synthesizing",
    "synthesis",
    // What a generating model is given to answer.
    "prompt",
    "sam",
    "sam2",
    "sam3",
    "segment_anything",
    "predictor",
    "detect",
    "detection",
    "inférence",
    "évaluation",
    "génération",
    "prédiction",
    "تقييم",
    "استدلال",
    "تحقق",
    "فاليديشن",
    "انفرنس",
    "अनुमान",
    "इन्फरेंस",
    "मूल्यांकन",
    "वैलिडेशन",
];
/// [`INFERENCE_WORDS`] and [`TRAINING_WORDS`] as sets: every word of a paste is looked up.
static PHASE_WORDS: LazyLock<(FxHashSet<&str>, FxHashSet<&str>)> = LazyLock::new(|| {
    (
        INFERENCE_WORDS.iter().copied().collect(),
        TRAINING_WORDS.iter().copied().collect(),
    )
});
const INFERENCE_SUBSTRINGS: &[&str] = &["推理", "验证", "测试", "生成", "预测"];
const TRAINING_WORDS: &[&str] = &[
    "train",
    "training",
    "trainer",
    "finetune",
    "finetuning",
    // "fine tune", "fine-tuning": the words apart.
    "tune",
    "tuning",
    "backward",
    "pretrain",
    "entraînement",
    "تدريب",
    "प्रशिक्षण",
    "ट्रेनिंग",
];
const TRAINING_SUBSTRINGS: &[&str] = &["训练", "微调"];
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
    "transcribe",
    "detect",
];
const TRAINING_FRAME_PARTS: &[&str] = &["backward", "train", "finetun"];

/// How much a paste says it was training and how much it was evaluating or generating:
/// frames and script names weigh more than words, and training is the default (the common
/// case and the safer advice).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct PhaseEvidence {
    training: u32,
    inference: u32,
}

impl PhaseEvidence {
    fn is_inference(self) -> bool {
        self.inference > 0 && self.inference >= self.training
    }

    fn is_empty(self) -> bool {
        self.training == 0 && self.inference == 0
    }

    /// Points for a script whose (lowercased) name says the phase: `infer.py`, `train_lora.py`.
    fn count_script(&mut self, script: &str) {
        if INFERENCE_SCRIPT_PARTS.iter().any(|p| script.contains(p)) {
            self.inference += SCRIPT_POINTS;
        }
        if TRAINING_SCRIPT_PARTS.iter().any(|p| script.contains(p)) {
            self.training += SCRIPT_POINTS;
        }
    }
}

/// Points for a user frame's function that names the phase; the innermost such frame, where
/// the failing call was made, counts again (`validate` called from `train.py`'s `main`
/// failed in validation).
const FRAME_POINTS: u32 = 2;
const INNERMOST_FRAME_POINTS: u32 = 3;
/// Points for a script's name (`infer.py`, `train_lora.py`), once per script.
const SCRIPT_POINTS: u32 = 3;

const INFERENCE_SCRIPT_PARTS: &[&str] = &[
    "demo", "infer", "predict", "test", "eval", "generate", "sample",
];
const TRAINING_SCRIPT_PARTS: &[&str] = &["train", "finetun"];

/// `python train.py …`, `torchrun --nproc_per_node 8 finetune.py`, `accelerate launch x.py`.
static LAUNCHED_SCRIPT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?m)(?:^|[\s`$>])(?-u:\b)(?:python[0-9.]*|torchrun|deepspeed|accelerate\s+launch)(?:\s+-{1,2}[\w.=-]+(?:\s+[0-9]+)?)*\s+([^\s`'\x22]+\.py)\b",
    )
    .expect("launch pattern")
});

const EVALUATION_HOOKS: &[&str] = &[
    "compute_metrics",
    "preprocess_logits_for_metrics",
    "eval_accumulation_steps",
];

/// A phase named after "at", "during", "in" or "when": group 1 for evaluation, validation,
/// testing or generation, group 2 for training.
static PHASE_SAID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)(?:at|during|in|when|while)\s+(?:the\s+)?(?:(eval(?:uation)?|validation|validating|val|test(?:ing)?|inference|prediction|predicting|generation|generating|evaluating|sampling)|(training|fine-?tuning|backward))(?:\s+(?:stage|step|phase|loop|time))?(?-u:\b)",
    )
    .expect("phase pattern")
});

/// A run said to reach evaluation ("when training proceeds to the second validation", "once
/// it gets to the eval step"): the error struck there, whatever phase the run was in before.
static PHASE_REACHED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)(?:proceeds?|proceeding|gets?|got|goes|going|comes?|came|moves?|reach(?:es|ed|ing)?)\s+(?:to\s+)?(?:the\s+)?(?:first\s+|second\s+|third\s+|next\s+|final\s+|\d+(?:st|nd|rd|th)\s+)?(?:eval(?:uation)?|validation|val|testing|test)(?-u:\b)",
    )
    .expect("phase reached pattern")
});

/// `lower`: the text's head, lowercased ([`lowered_head`]).
fn phase_evidence(parsed: &Parsed, lower: &str) -> PhaseEvidence {
    let mut evidence = PhaseEvidence::default();
    let mut innermost_counted = false;
    let mut scripts_seen: Vec<&str> = Vec::new();
    for frame in parsed.frames.iter().rev() {
        let function = frame.function.to_lowercase();
        let inference = INFERENCE_FRAME_PARTS.iter().any(|p| function.contains(p));
        let training = TRAINING_FRAME_PARTS.iter().any(|p| function.contains(p));
        let bonus =
            if !innermost_counted && (inference || training) && !frame.file.contains("-packages") {
                innermost_counted = true;
                INNERMOST_FRAME_POINTS
            } else {
                0
            };
        if inference {
            evidence.inference += FRAME_POINTS + bonus;
        }
        if training {
            evidence.training += FRAME_POINTS + bonus;
        }
        let script = frame.file.rsplit(['/', '\\']).next().unwrap_or("");
        if frame.file.contains("-packages") || scripts_seen.contains(&script) {
            continue;
        }
        scripts_seen.push(script);
        evidence.count_script(&script.to_lowercase());
    }
    // A script launched on the command line is named as plainly as one in a frame.
    let launches = lower.contains(".py")
        && ["python", "torchrun", "deepspeed", "accelerate"]
            .iter()
            .any(|launcher| lower.contains(launcher));
    let launched_scripts = launches.then(|| LAUNCHED_SCRIPT.captures_iter(lower));
    for launched in launched_scripts.into_iter().flatten() {
        let Some(path) = launched.get(1) else {
            continue;
        };
        let script = path.as_str().rsplit(['/', '\\']).next().unwrap_or("");
        if scripts_seen
            .iter()
            .any(|seen| seen.eq_ignore_ascii_case(script))
        {
            continue;
        }
        scripts_seen.push(script);
        evidence.count_script(script);
    }
    count_phases_said(lower, &mut evidence);
    count_run_mode_flags(lower, &mut evidence);
    count_phase_words(lower, &mut evidence);
    evidence
}

/// Command-line switches that choose what a run does (Hugging Face's `--do_eval`,
/// `--do_predict`; `--eval-only` and the like): a run that evaluates without `--do_train`
/// is an evaluation, however much its command says about the fine-tune it loads.
static RUN_MODE_FLAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\B)--(?:(do_eval|do_predict|eval[_-]only|test[_-]only|predict[_-]only)|(do_train))(?-u:\b)")
        .expect("run mode pattern")
});

/// What the run-mode switches in `lower` say: `Some(true)` for a run that only evaluates,
/// `Some(false)` for one that trains, `None` without such switches.
fn run_only_evaluates(lower: &str) -> Option<bool> {
    if !lower.contains("--") {
        return None;
    }
    let (mut evaluates, mut trains) = (false, false);
    for flag in RUN_MODE_FLAG.captures_iter(lower) {
        evaluates |= flag.get(1).is_some();
        trains |= flag.get(2).is_some();
    }
    (evaluates || trains).then_some(!trains)
}

fn count_run_mode_flags(lower: &str, evidence: &mut PhaseEvidence) {
    match run_only_evaluates(lower) {
        Some(true) => evidence.inference += SCRIPT_POINTS,
        Some(false) => evidence.training += SCRIPT_POINTS,
        None => {}
    }
}

/// "at eval stage", "during validation": the phase said outright weighs like a script.
fn count_phases_said(lower: &str, evidence: &mut PhaseEvidence) {
    // The Trainer's hooks that run only while it evaluates: set, they keep every batch's
    // logits until the evaluation ends.
    if EVALUATION_HOOKS.iter().any(|hook| lower.contains(hook)) {
        evidence.inference += SCRIPT_POINTS;
    }
    // Reaching evaluation outweighs the training it was reached from ("when training
    // proceeds to validation" says both).
    evidence.inference += 2 * SCRIPT_POINTS * PHASE_REACHED.find_iter(lower).count() as u32;
    for said in PHASE_SAID.captures_iter(lower) {
        if said.get(1).is_some() {
            evidence.inference += SCRIPT_POINTS;
        } else {
            evidence.training += SCRIPT_POINTS;
        }
    }
}

/// Phase words in `lower`, one point each; a word said after a negation ("without
/// training", «بلا تدريب», "bina training") names the phase the text is not in, and so
/// does one the text has left behind: "after training", «بعد التدريب», "ट्रेनिंग के बाद".
fn count_phase_words(lower: &str, evidence: &mut PhaseEvidence) {
    let words: Vec<&str> = if lower.is_ascii() {
        // What `WORD` finds in ASCII text (most pastes): runs of letters and digits.
        lower
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect()
    } else {
        WORD.find_iter(lower)
            .map(|m| without_arabic_article(m.as_str()))
            .collect()
    };
    for (at, word) in words.iter().enumerate() {
        let before = at.checked_sub(1).map(|i| words[i]);
        let left_behind = before.is_some_and(|b| is_negation(b) || PHASE_LEFT.contains(&b))
            || matches!(
                (words.get(at + 1), words.get(at + 2)),
                (Some(&("के" | "ke")), Some(&("बाद" | "baad" | "bad")))
            );
        if left_behind {
            continue;
        }
        // Whisper and the tools named after it (whisperx, whisperjav) transcribe.
        if PHASE_WORDS.0.contains(word) || word.starts_with("whisper") {
            evidence.inference += 1;
        } else if PHASE_WORDS.1.contains(word) {
            evidence.training += 1;
        }
    }
    if !lower.is_ascii() {
        // Chinese writes no spaces between words: its words are looked for inside the text.
        evidence.inference += INFERENCE_SUBSTRINGS
            .iter()
            .filter(|s| lower.contains(*s))
            .count() as u32;
        evidence.training += TRAINING_SUBSTRINGS
            .iter()
            .filter(|s| lower.contains(*s))
            .count() as u32;
    }
}

/// Words that, set before a phase word, say the text has moved past that phase.
const PHASE_LEFT: &[&str] = &["after", "après", "apres", "بعد", "baad", "बाद"];

/// Words that set what failed against what went well: "training runs fine, but at
/// evaluation memory fills up". In Hindi पर and "par" are also "on": a split at one that
/// leaves running out on both sides, or on neither, is passed over.
const CONTRASTS: &[&str] = &[
    "but",
    "however",
    "mais",
    "cependant",
    "par",
    "pr",
    "lekin",
    "magar",
    "पर",
    "लेकिन",
    "मगर",
    "परंतु",
    "بس",
    "لكن",
    "ولكن",
    "لاكن",
    "بينما",
];

/// The text before and after each contrast word, first to last (`lower`: lowercased).
pub fn contrast_splits(lower: &str) -> impl Iterator<Item = (&str, &str)> {
    WORD.find_iter(lower)
        .filter(|word| CONTRASTS.contains(&word.as_str()))
        .map(|word| (&lower[..word.start()], &lower[word.end()..]))
}

/// The one phase `lower` names, if it names one and not the other: `Some(true)` for
/// evaluation, validation or generation, `Some(false)` for training.
pub fn single_phase_named(lower: &str) -> Option<bool> {
    let mut evidence = PhaseEvidence::default();
    count_phases_said(lower, &mut evidence);
    count_phase_words(lower, &mut evidence);
    match (evidence.training, evidence.inference) {
        (0, 0) => None,
        (0, _) => Some(true),
        (_, 0) => Some(false),
        _ => None,
    }
}

/// Whether a concept's English name is a phase word ("training", "evaluation"): said
/// after a negation, it names the phase the text is not in.
pub fn names_a_phase(english_name: &str) -> bool {
    english_name
        .split(|c: char| !c.is_alphanumeric())
        .any(|word| PHASE_WORDS.0.contains(word) || PHASE_WORDS.1.contains(word))
}

pub fn is_negation(word: &str) -> bool {
    NEGATIONS.contains(&word)
}

/// Words that, set before a phase word, say the text is not in that phase.
const NEGATIONS: &[&str] = &[
    "without",
    "sans",
    "bina",
    "बिना",
    "बगैर",
    "bagair",
    "بلا",
    "بدون",
    "دون",
    "غير",
];

/// An Arabic word without its article and the conjunction or preposition glued to it
/// (التدريب, والتقييم, بالتحقق → تدريب, تقييم, تحقق), so the word lists hold bare words.
fn without_arabic_article(word: &str) -> &str {
    // «عال» is spoken Arabic's «على ال» written as one word (عالفاليديشن).
    for prefix in ["وبال", "وال", "بال", "كال", "فال", "عال", "لل", "ال"] {
        if let Some(rest) = word.strip_prefix(prefix)
            && rest.chars().count() >= 3
        {
            return rest;
        }
    }
    word
}

/// Whether the (lowercased) text describes memory rising over iterations or epochs.
fn describes_growth(lower: &str) -> bool {
    GROWTH.is_match(lower)
}

/// A size typed in words: "3 Go", "500 MiB", "5 जीबी", «3 جيجا». Bare "M" and "G" are left
/// out: "a 300M model" counts parameters.
static TYPED_SIZE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)(\d+(?:[.,]\d+)?)\s*(?:
            (gib|gb|go|gigas?)(?-u:\b) | (?:mib|mb|mo|megas?)(?-u:\b)
          | (जीबी|गीगा\p{Devanagari}*|جيجا\p{Arabic}*|جيقا\p{Arabic}*|غيغا\p{Arabic}*)
          | एमबी|मेगा\p{Devanagari}*|ميجا\p{Arabic}*|ميقا\p{Arabic}*|ميغا\p{Arabic}*)",
    )
    .expect("typed size pattern")
});

/// Words that say memory is free: the size beside one is what the card still has.
static FREE_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)(?:free|libres?|dispo(?:nibles?)?|khali|available)(?-u:\b)|खाली|फ्री|बचा|فاضي\p{Arabic}*|متاح\p{Arabic}*|متوفر\p{Arabic}*|فارغ\p{Arabic}*",
    )
    .expect("free word pattern")
});

/// A short text with no traceback: what people write in a search box (with the glossary's
/// names of its concepts added under it, see `Reading::glossed`).
fn is_typed_sentence(parsed: &Parsed, lower: &str) -> bool {
    const TYPED_BYTES: usize = 600;
    parsed.frames.is_empty() && lower.len() <= TYPED_BYTES
}

/// Typed words that say more memory is free than was asked for ("3 Go de libre et il
/// arrive pas a allouer 500 Mo"): the free memory is there but not in one piece, which is
/// fragmentation whatever words describe it. The free size is the one nearest a word for free.
fn free_exceeds_request(lower: &str) -> bool {
    let sizes: Vec<(usize, f64)> = TYPED_SIZE
        .captures_iter(lower)
        .filter_map(|size| {
            let whole = size.get(0)?;
            let number = size.get(1)?.as_str().replace(',', ".");
            let gigabytes = size.get(2).is_some() || size.get(3).is_some();
            let megabytes: f64 = number.parse::<f64>().ok()? * if gigabytes { 1024.0 } else { 1.0 };
            Some((whole.start(), megabytes))
        })
        .collect();
    if sizes.len() < 2 {
        return false;
    }
    // A log puts one figure a line ("Device limit: 14.75 GiB" over "Free: 27 MiB"): only a
    // size on the free word's own line is the free one.
    let line_of = |at: usize| lower[..at].matches('\n').count();
    let free_at: Vec<usize> = FREE_WORD.find_iter(lower).map(|m| m.start()).collect();
    let distance_to_free = |at: usize| {
        free_at
            .iter()
            .filter(|&&f| line_of(f) == line_of(at))
            .map(|f| f.abs_diff(at))
            .min()
    };
    let Some(free) = sizes
        .iter()
        .filter_map(|&(at, size)| Some((distance_to_free(at)?, size)))
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, size)| size)
    else {
        return false;
    };
    sizes.iter().any(|&(_, size)| size < free)
}

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
        _ if describes_growth(lower) && mentions_memory(lower) => {
            if contains_word(lower, "killed") && !mentions_gpu_memory(lower) {
                read(Situation::HostRam)
            } else {
                read(stack(lower).unwrap_or(Situation::MemoryGrowth))
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
        // A fine-tuning toolkit run with only its evaluation switches on evaluates.
        if stack == Situation::LlmFinetune && run_only_evaluates(lower) == Some(true) {
            return (Situation::InferenceOom, false);
        }
        return (stack, by_name_alone);
    }
    if describes_growth(lower) {
        return (Situation::MemoryGrowth, false);
    }
    if read_memory(&parsed.facts).fragmented {
        return (Situation::Fragmentation, false);
    }
    if CATCHES_OOM.is_match(text)
        || text.contains(HANDLER_FAILED)
        || SKIPS_BATCH_AFTER_OOM.is_match(lower)
    {
        return (Situation::Recovery, false);
    }
    by_phase_and_model(phase_evidence(parsed, lower), lower)
}

/// A decoder language model named as such (the glossaries' English name for typed words in
/// any language), by its Hugging Face module (`modeling_qwen2.py`, remote
/// code's `modeling_chatglm.py`), by a model id with its size (`Qwen2.5-7B`,
/// `llama-2-13b`, `deepseek-coder-6.7b`, `vicuna13b`) or by a size in billions of
/// parameters alone ("a 7B model").
static LANGUAGE_MODEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        large\ language\ model
      | modeling_(?:llama|qwen|mistral|mixtral|gemma|falcon|gpt_neox|gptj|gpt_bigcode|granite
            |phi|bloom|opt|mpt|olmo|starcoder|cohere|stablelm|deepseek|internlm|baichuan
            |chatglm|glm|llava|mllama|codegen|gpt2)\w*\.py
      | (?-u:\b)(?:llama|qwen|mistral|mixtral|gemma|vicuna|baichuan|chatglm|internlm|falcon
            |deepseek|yi|starcoder|codellama|bloomz?|opt|pythia|olmo|granite|glm|tinyllama
            |llava|zephyr|openbuddy|alpaca|phi)
            [\d.]*(?:[-_\ ](?:[\d.]+|chat|coder|instruct|base|math|vl|moe))*[-_\ ]?
            \d{1,3}(?:\.\d)?b(?-u:\b)
      | (?-u:\b)\d{1,3}(?:\.\d)?b(?-u:\b)",
    )
    .expect("language model pattern")
});

/// `lower`: the text's head, lowercased.
fn names_a_language_model(lower: &str) -> bool {
    LANGUAGE_MODEL.is_match(lower)
}

/// Where in the workflow an out-of-memory error struck, from the phase evidence and what
/// model it ran: training a language model is a fine-tune, whose article knows its levers.
fn by_phase_and_model(phase: PhaseEvidence, lower: &str) -> (Situation, bool) {
    if phase.training > 0 && !phase.is_inference() && names_a_language_model(lower) {
        return (Situation::LlmFinetune, false);
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

/// An `except` clause for the errors an out-of-memory raises, in the code pasted with it: the
/// program catches the error and goes on, which is what the recovery article is about.
static CATCHES_OOM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^\s*except\s*\(?\s*(torch\.(cuda\.)?)?(OutOfMemoryError|RuntimeError)\b")
        .expect("except pattern")
});

/// A training loop's own log that it caught an out-of-memory error and skipped the batch
/// (fairseq's "ran out of memory … Skipping batch"): the recovery article's pattern.
static SKIPS_BATCH_AFTER_OOM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?is)(?:out of memory|\boom\b).{0,300}?skipping (?:this |the )?batch")
        .expect("skip pattern")
});

/// Python's line between an exception and one raised while handling it: after an
/// out-of-memory error, the program's own handler failed.
const HANDLER_FAILED: &str = "During handling of the above exception, another exception occurred";

/// How launchers report a worker the kernel killed with SIGKILL — on a training machine, the
/// out-of-memory killer reclaiming host RAM.
const SIGKILL_REPORTS: &[&str] = &[
    "exitcode: -9",
    "exit code -9",
    "exit code: -9",
    "returncode=-9",
    "return code -9",
    "return code = -9",
    "signals.sigkill: 9",
    "signal 9 (sigkill)",
];

fn killed_by_the_kernel(lower: &str) -> bool {
    SIGKILL_REPORTS.iter().any(|report| lower.contains(report))
}

/// GPU memory described as still held once a run is over or its objects are gone.
const MEMORY_HELD: &[&str] = &[
    "remains occupied",
    "still occupied",
    "not released",
    "never released",
    "not being released",
    "not freed",
    "not being freed",
    "never freed",
    "isn't freed",
    "isn't released",
    "pas libérée",
    "pas liberee",
    "jamais libérée",
    "reste occupée",
    "reste occupee",
    "toujours occupée",
    "toujours occupee",
    "لا تتحرر",
    "ما تتحرر",
    "مش بتتحرر",
    "لا يتم تحريرها",
    "free नहीं होती",
    "free नहीं हो रही",
    "free nahi hoti",
    "free nahi ho rahi",
    "रिलीज़ नहीं",
    "रिलीज नहीं",
    // A finished run's processes that live on, holding their memory.
    "zombie process",
    "processus zombie",
    "僵尸进程",
];

/// Memory said to be left in use once a program is done with it ("TabbyAPI does not fully
/// unload them", "memory is left used on the GPUs").
static HELD_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)(?:(?:not|n't|never)\s+(?:fully\s+|completely\s+|properly\s+)?(?:unload|free|releas)\w*|(?:is|are|stays?|remains?)\s+(?:still\s+)?left\s+(?:used|allocated|occupied|in\s+use))")
        .expect("held pattern")
});

/// An out-of-memory error the program went on after ("after the OOM in the backward() call,
/// the intermediate tensors are not freed").
static HELD_AFTER_OOM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)(?:after|following)\s+(?:an?\s+|the\s+)?(?:cuda\s+)?(?:oom|out[- ]of[- ]memory)(?-u:\b)")
        .expect("after oom pattern")
});

/// Chinese for "not released", said of 显存 (the GPU's memory; 内存 is the host's).
const NOT_RELEASED_ZH: &[&str] = &[
    "无法释放",
    "没有释放",
    "没释放",
    "未释放",
    "不释放",
    "释放不了",
    "不会释放",
];

fn describes_memory_held(lower: &str) -> bool {
    (mentions_memory(lower)
        && (MEMORY_HELD.iter().any(|phrase| lower.contains(phrase)) || HELD_WORDS.is_match(lower)))
        || (lower.contains("显存") && NOT_RELEASED_ZH.iter().any(|p| lower.contains(p)))
}

/// `nvidia-smi`'s table, or a row of it ("8525MiB / 11019MiB" is its memory column): someone
/// asking about the memory it shows as used.
fn shows_nvidia_smi(text: &str) -> bool {
    text.contains("NVIDIA-SMI")
        || (text.contains("Memory-Usage") && text.contains("MiB /"))
        || NVIDIA_SMI_MEMORY.is_match(text)
}

static NVIDIA_SMI_MEMORY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\|\s+\d+MiB\s+/\s+\d+MiB\s+\|").expect("nvidia-smi memory column")
});

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
    "मेमोरी खतम",
    "memory khatam",
    "memory khatm",
    "الذاكرة خلصت",
    "الذاكره خلصت",
    "الذاكرة تخلص",
    "الذاكره تخلص",
    "आउट ऑफ मेमोरी",
    "मेमोरी कम पड़",
    "मेमोरी कम है",
    "not enough memory",
    "not enough vram",
    "not enough gpu memory",
    "mémoire insuffisante",
    "memoire insuffisante",
    "vram insuffisante",
    "pas assez de mémoire",
    "pas assez de memoire",
    "pas assez de vram",
    "manque de vram",
    "الذاكرة لا تكفي",
    "الذاكره لا تكفي",
    "الذاكرة ما تكفي",
    "الذاكره ما تكفي",
    "مش مكفي",
    "مش مكفية",
    "مش كافي",
    "مش كفاية",
    "مو كافي",
    "ما يكفي",
    "मेमोरी काफी नहीं",
    "मेमोरी पर्याप्त नहीं",
    "memory kam pad",
    // Everyday words for a card that is full.
    "card bhar",
    "कार्ड भर",
    "memory bhar",
    "मेमोरी भर",
    "memory ki kami",
    "मेमोरी की कमी",
    "memory khatm",
    "plus de place sur la carte",
    "carte pleine",
    "carte graphique pleine",
    "memoire pleine",
    "mémoire pleine",
    "arrive pas a prendre",
    "arrive pas à prendre",
    "ما تكفي",
    "ما تكفيش",
    "مبيشيلش",
    "تخلص ذاكرة",
    "خلصت ذاكرة",
    "يخلص الكرت",
    "نقص الذاكرة",
    "نقص الذاكره",
    "الذاكرة بتطير",
    "الذاكره بتطير",
    "can't allocate",
    "cannot allocate",
    "unable to allocate",
    "impossible d'allouer",
    "impossible d’allouer",
    "n'arrive pas à allouer",
    "n'arrive pas a allouer",
    "allocate नहीं",
    "allocate nahi",
    "ما يقدر يحجز",
    "vram kam",
    // Memory that a run "eats": people describe the pressure before the error.
    "eats memory",
    "eating memory",
    "too much memory",
    "bouffe la mémoire",
    "bouffe la memoire",
    "bouffe la vram",
    "mange la mémoire",
    "mange la memoire",
    "mange toute la vram",
    "ياكل الذاكرة",
    "ياكل ذاكرة",
    "ياكل الذاكره",
    "ياكل ذاكره",
    "تاكل الذاكرة",
    "ياكل الرام",
    "memory kha",
    "मेमोरी खा",
    "manque de mémoire",
    "plus de mémoire",
    "显存不足",
    "内存不足",
    "显存不够",
    "内存不够",
    "显存溢出",
    "内存溢出",
    "爆显存",
    "显存爆",
    "爆内存",
];
const MPS_WORDS: &[&str] = &["mps", "mac", "macbook", "apple", "ماك", "मैक", "ऐप्पल"];
const HOST_WORDS: &[&str] = &["ram", "cpu", "العشوائية", "रैम", "vive"];
/// Fragmentation, or memory reserved yet unused, as people describe it — or its symptom:
/// memory reported free, yet a smaller block cannot be had.
const FRAGMENTATION_WORDS: &[&str] = &[
    "fragment",
    "free but",
    "libre mais",
    "फ्री है फिर भी",
    "reservee",
    "pas utilisee",
    "pas utilisée",
    "tukdon me",
    "टुकड़ों में",
    "free hai phir bhi",
    "free hai fir bhi",
    "فاضية بس",
    "فاضي بس",
    "فارغة لكن",
    "réservée",
    "reserved",
    "تجزئة",
    "مجزأة",
    "محجوزة",
    "محجوزه",
    "खंडित",
    "खंडन",
    "फ्रैगमेंटेशन",
    "आरक्षित",
];

/// Words that say memory ran out (`lower`: lowercased, glossed or not).
pub fn mentions_running_out(lower: &str) -> bool {
    OUT_OF_MEMORY.iter().any(|p| contains_word(lower, p)) || MEMORY_RUNS_OUT.is_match(lower)
}

/// Memory named and said to be used up, in any of the readers' languages and in the mixed
/// script people type ("memory खत्म", "الرام خلصت", "la vram est pleine"): the noun and the
/// verb come from separate lists, so every pairing counts, not only the pairings seen.
static MEMORY_RUNS_OUT: LazyLock<Regex> = LazyLock::new(|| {
    let nouns = [
        "memory",
        "vram",
        "ram",
        "मेमोरी",
        "मेमरी",
        "रैम",
        "वीरैम",
        "ذاكرة",
        "ذاكره",
        "ميموري",
        "مموري",
        "رام",
        "mémoire",
        "memoire",
    ]
    .join("|");
    let used_up = [
        "खत्म",
        "ख़त्म",
        "खतम",
        "khatam",
        "khatm",
        "khtm",
        "khatham",
        "full",
        "फुल",
        "भर",
        "bhar",
        "कम",
        "kam",
        "خلصت",
        "تخلص",
        "بتخلص",
        "خلصانة",
        "خلصانه",
        "فل",
        "فلت",
        "مليانة",
        "مليانه",
        "امتلأت",
        "امتلت",
        "اتملت",
        "ممتلئة",
        "بتطير",
        "طارت",
        "pleine",
        "saturée",
        "saturee",
        "insuffisante",
        "not enough",
        "insufficient",
        // "Not enough" with its negation, as the dialects say it: ما تكفي, مش كافيه, ما كافياش.
        r"(?:ما|مش|مو|مب|موب)\s*(?:كافي|تكفي|يكفي|مكفي)\p{Arabic}*",
        r"(?:kaafi|kafi|काफी|काफ़ी)\s+(?:nahi|nhi|नहीं)",
    ]
    .join("|");
    let said_first = [
        "خلصت",
        "تخلص",
        "نفدت",
        "امتلأت",
        "plus de",
        "manque de",
        "pas assez de",
    ]
    .join("|");
    // Arabic glues the article or a preposition to the noun (بالذاكرة, الذاكره).
    Regex::new(&format!(
        r"\b(?:[وفبلك]?(?:ال)?)(?:{nouns})\s+(?:\S+\s+){{0,2}}?(?:{used_up})\b|\b(?:{said_first})\s+(?:\S+\s+)?(?:[وفبلك]?(?:ال)?)(?:{nouns})\b"
    ))
    .expect("running-out pattern")
});

/// A typed description of an out-of-memory error: the device or phase it names decides.
/// `lower`: the text's head, lowercased.
fn situation_from_words(parsed: &Parsed, text: &str, lower: &str) -> (Situation, bool) {
    let any = |words: &[&str]| words.iter().any(|w| contains_word(lower, w));
    // The device first: on a Mac, whatever the stack, the MPS article holds the levers.
    if any(MPS_WORDS) {
        (Situation::MpsOom, false)
    } else if let Some(stack) = stack(lower) {
        (stack, false)
    } else if any(HOST_WORDS) && !lower.contains("cuda") && !contains_word(lower, "gpu ram") {
        // "copying the inputs to CPU due to CUDA OOM": the CPU is where the memory was not
        // short; words that name CUDA ran out on the card, and "GPU RAM" is the card's.
        (Situation::HostRam, false)
    } else if FRAGMENTATION_WORDS.iter().any(|w| lower.contains(w)) {
        (Situation::Fragmentation, false)
    } else if CATCHES_OOM.is_match(text) {
        // Words about running out over code that catches the error: the handler is the
        // subject, as when the handler's own failure is pasted.
        (Situation::Recovery, false)
    } else {
        by_phase_and_model(phase_evidence(parsed, lower), lower)
    }
}

/// `needle` in `haystack` not glued to other letters (so "oom" is not found in "room"). An
/// Arabic phrase may carry one glued conjunction or preposition (ومش مكفي, بالذاكرة).
fn contains_word(haystack: &str, needle: &str) -> bool {
    haystack
        .match_indices(needle)
        .any(|(start, _)| stands_alone(haystack, start, start + needle.len()))
}

/// Whether `haystack[start..end]` is not glued to other letters; Arabic may carry one glued
/// conjunction or preposition before it. Chinese and Japanese write no spaces, so their
/// characters never glue: "lora微调" names LoRA, and "显存不足" stands alone in a sentence.
fn stands_alone(haystack: &str, start: usize, end: usize) -> bool {
    let needle = &haystack[start..end];
    let arabic = needle.starts_with(|c: char| ('\u{0600}'..='\u{06FF}').contains(&c));
    let mut before = haystack[..start].chars().rev();
    let after = haystack[end..].chars().next();
    let starts_word = needle.starts_with(is_unspaced_script)
        || match before.next() {
            None => true,
            Some(c) if !glues(c) => true,
            Some('و' | 'ف' | 'ب' | 'ل' | 'ك') if arabic => !before.next().is_some_and(glues),
            Some(_) => false,
        };
    let ends_word = needle.ends_with(is_unspaced_script) || !after.is_some_and(glues);
    starts_word && ends_word
}

/// A letter or digit that continues the word beside it.
fn glues(c: char) -> bool {
    c.is_alphanumeric() && !is_unspaced_script(c)
}

/// Han, kana and hangul: scripts whose words stand side by side without spaces (hangul
/// does use spaces, but glues Latin names to its particles: "LoRA를").
fn is_unspaced_script(c: char) -> bool {
    matches!(c, '\u{2E80}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7AF}' | '\u{F900}'..='\u{FAFF}')
}

/// Memory named as the GPU's, not the host's.
fn mentions_gpu_memory(lower: &str) -> bool {
    ["vram", "gpu memory", "cuda", "显存", "显卡"]
        .iter()
        .any(|w| lower.contains(w))
}

fn mentions_memory(lower: &str) -> bool {
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

    fn situation_of(text: &str) -> Situation {
        read_situation(&parse(text), text).0
    }

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
    fn a_listed_process_holding_what_pytorch_reserved_is_the_process_itself() {
        // In a container the process is listed under its host PID, not as "this process".
        let alone = parse(
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 134.00 MiB. GPU 0 has a total capacity of 39.39 GiB of which 107.94 MiB is free. Process 3679748 has 39.28 GiB memory in use. Of the allocated memory 37.86 GiB is allocated by PyTorch, and 93.47 MiB is reserved by PyTorch but unallocated.",
        );
        assert_eq!(read_memory(&alone.facts).others, None);
        // Without the capacity figures (a cut paste), only the list tells who holds what.
        let shared = parse(
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 26.00 MiB. Process 3431486 has 18.91 GiB memory in use. Process 3081991 has 4.72 GiB memory in use. Of the allocated memory 4.09 GiB is allocated by PyTorch, and 171.75 MiB is reserved by PyTorch but unallocated.",
        );
        assert_eq!(
            read_memory(&shared.facts).others,
            crate::traceback::size_to_bytes("18.91", "GiB")
        );
        // With "this process" printed, every listed process is another one.
        let named = parse(
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 138.00 MiB. GPU 0 has a total capacty of 15.90 GiB of which 8.44 MiB is free. Process 1246069 has 577.00 MiB memory in use. Including non-PyTorch memory, this process has 15.32 GiB memory in use. Of the allocated memory 14.12 GiB is allocated by PyTorch, and 410.41 MiB is reserved by PyTorch but unallocated.",
        );
        assert_eq!(read_memory(&named.facts).others, Some(577 * MIB));
    }

    #[test]
    fn a_process_reported_with_zero_bytes_is_not_taken_at_its_word() {
        let wddm = parse(
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 32.00 MiB. GPU 0 has a total capacity of 23.43 GiB of which 4.06 MiB is free. Including non-PyTorch memory, this process has 0 bytes memory in use. Of the allocated memory 23.03 GiB is allocated by PyTorch, and 15.67 MiB is reserved by PyTorch but unallocated.",
        );
        assert_eq!(read_memory(&wddm.facts).others, None);
    }

    #[test]
    fn script_names_and_words_tell_inference_from_training() {
        let demo = "File \"head_detection_demo.py\", line 3, in <module>\nRuntimeError: CUDA error: out of memory";
        assert!(phase_evidence(&parse(demo), &lowered_head(demo)).is_inference());
        let seed = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/eval/seed-oom-example.txt"
        ))
        .unwrap();
        assert!(
            !phase_evidence(&parse(&seed), &lowered_head(&seed)).is_inference(),
            "estimate_loss inside train.py is training"
        );
        let words = "on validation I've got OOM: RuntimeError: CUDA out of memory.";
        assert!(phase_evidence(&parse(words), &lowered_head(words)).is_inference());
    }

    #[test]
    fn the_function_where_the_call_failed_outweighs_the_script_it_lives_in() {
        let validate = "Traceback (most recent call last):\n  File \"train.py\", line 349, in <module>\n    main()\n  File \"train.py\", line 127, in main\n    criterion=criterion)\n  File \"train.py\", line 282, in validate\n    scores_copy = scores.clone()\nRuntimeError: CUDA error: out of memory";
        assert!(phase_evidence(&parse(validate), &lowered_head(validate)).is_inference());
    }

    #[test]
    fn a_package_reads_the_same_with_hyphens_or_underscores() {
        for text in [
            "ERROR text_generation_launcher: Method Prefill encountered an error.\nCUDA out of memory. Tried to allocate 16.00 MiB",
            "  File \"/opt/conda/bin/text-generation-server\", line 8\nCUDA out of memory. Tried to allocate 16.00 MiB",
        ] {
            assert_eq!(
                read_situation(&parse(text), text).0,
                Situation::LlmServing,
                "{text}"
            );
        }
    }

    #[test]
    fn deepspeeds_pipeline_engine_alone_is_not_zero_sharding() {
        let oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.68 GiB.";
        let pipe = format!(
            "  File \"/venv/lib/python3.10/site-packages/deepspeed/runtime/pipe/engine.py\", line 389, in train_batch\n{oom}"
        );
        assert_ne!(stack(&pipe.to_lowercase()), Some(Situation::Sharded));
        let zero = format!(
            "{pipe}\n  File \"/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/stage3.py\", line 12"
        );
        assert_eq!(stack(&zero.to_lowercase()), Some(Situation::Sharded));
    }

    #[test]
    fn a_lora_trained_on_pictures_of_a_given_size_is_not_a_language_model() {
        let lora = "my second Lora, 20 pictures at 768x768, 10 epochs\nOutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB";
        assert_ne!(stack(&lora.to_lowercase()), Some(Situation::LlmFinetune));
        let text = "my second Lora, 20 pictures, 10 epochs\nOutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB";
        assert_eq!(stack(&text.to_lowercase()), Some(Situation::LlmFinetune));
    }

    #[test]
    fn serving_weight_formats_and_forges_model_loader_name_their_stack() {
        let gptq = "Loading TheBloke_vicuna-13B-GPTQ...\n  File \"modules/GPTQ_loader.py\", line 172\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 50.00 MiB";
        assert_eq!(read_situation(&parse(gptq), gptq).0, Situation::LlmServing);
        let forge = "[Memory Management] Target: KModel, Free GPU: 1024.00 MB\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB";
        assert_eq!(read_situation(&parse(forge), forge).0, Situation::Diffusion);
    }
    #[test]
    fn a_row_of_nvidia_smi_is_memory_still_held() {
        let row = "| 30%   28C    P8    22W / 250W |   8525MiB / 11019MiB |      0%      Default |\nhow do I empty the cache of this GPU?";
        assert_eq!(read_situation(&parse(row), row).0, Situation::NotReleased);
    }

    #[test]
    fn memory_described_as_still_held_is_memory_not_released() {
        let text = "When I finish training LoRA, even though the process has ended, the GPU memory remains occupied.";
        assert_eq!(read_situation(&parse(text), text).0, Situation::NotReleased);
    }

    #[test]
    fn a_script_launched_on_the_command_line_names_the_phase() {
        let launched = "$ python train.py -mode train -bert_data_path ../data/test_data/test -visible_gpus 0\nRuntimeError: CUDA out of memory. Tried to allocate 12.00 MiB (GPU 0; 2.00 GiB total capacity; 1.19 GiB already allocated; 11.31 MiB free; 1.33 GiB reserved in total by PyTorch)";
        let phase = phase_evidence(&parse(launched), &lowered_head(launched));
        assert!(!phase.is_inference(), "{phase:?}");
        let infer = "torchrun --nproc_per_node 2 scripts/infer_video.py --fp16\nCUDA out of memory. Tried to allocate 2.00 GiB";
        assert!(phase_evidence(&parse(infer), &lowered_head(infer)).is_inference());
    }

    #[test]
    fn a_worker_killed_with_signal_9_ran_out_of_host_ram() {
        let torchrun = "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 8180) of binary: /usr/bin/python3";
        assert_eq!(
            read_situation(&parse(torchrun), torchrun).0,
            Situation::HostRam
        );
    }

    #[test]
    fn an_oom_caught_by_the_programs_own_handler_is_about_recovery() {
        let handler = "    except RuntimeError as e:\n        print(e)\n>>> oom()\nCUDA out of memory. Tried to allocate 381.50 MiB (GPU 1; 7.92 GiB total capacity; 7.16 GiB already allocated; 231.00 MiB free; 452.50 KiB cached)";
        assert_eq!(
            read_situation(&parse(handler), handler).0,
            Situation::Recovery
        );
        let failed = "RuntimeError: CUDA out of memory. Tried to allocate 1024.00 MiB (GPU 0; 15.90 GiB total capacity; 14.25 GiB already allocated; 991.56 MiB free; 607.00 KiB cached)\n\nDuring handling of the above exception, another exception occurred:\n";
        assert_eq!(
            read_situation(&parse(failed), failed).0,
            Situation::Recovery
        );
    }

    #[test]
    fn a_loop_that_logs_skipping_the_batch_after_an_oom_is_about_recovery() {
        let message = "CUDA out of memory. Tried to allocate 40.00 MiB (GPU 0; 10.76 GiB total capacity; 9.80 GiB already allocated; 12.19 MiB free; 210.00 MiB cached)";
        let skipped =
            format!("| WARNING: ran out of memory with exception: {message};\n Skipping batch\n");
        assert_eq!(situation_of(&skipped), Situation::Recovery);
        let crashed = format!("RuntimeError: {message}\n");
        assert_ne!(situation_of(&crashed), Situation::Recovery);
    }

    #[test]
    fn a_finetuning_toolkit_run_with_only_evaluation_switches_evaluates() {
        let oom = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.";
        let predict = format!(
            "llamafactory-cli train --stage sft --model_name_or_path Qwen2-7B --finetuning_type lora --do_predict --predict_with_generate --per_device_eval_batch_size 16\n{oom}"
        );
        assert_eq!(situation_of(&predict), Situation::InferenceOom);
        let train = predict.replace("--do_predict", "--do_train --do_eval");
        assert_eq!(situation_of(&train), Situation::LlmFinetune);
    }

    #[test]
    fn a_bare_message_reads_as_training_only_by_default() {
        let bare = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 768.00 MiB (GPU 0; 4.00 GiB total capacity; 2.71 GiB already allocated; 0 bytes free; 2.81 GiB reserved in total by PyTorch)";
        assert_eq!(
            read_situation(&parse(bare), bare),
            (Situation::TrainingOom, true)
        );
        let trainer = format!("  File \"main.py\", line 80, in train_step\n{bare}");
        assert_eq!(
            read_situation(&parse(&trainer), &trainer),
            (Situation::TrainingOom, false)
        );
    }

    #[test]
    fn a_web_uis_bare_exception_name_points_to_diffusion_without_vouching_for_it() {
        let bare = "OutOfMemoryError: CUDA out of memory. Tried to allocate 1.25 GiB (GPU 1; 79.10 GiB total capacity; 76.13 GiB already allocated; 290.12 MiB free; 77.47 GiB reserved in total by PyTorch)";
        assert_eq!(
            read_situation(&parse(bare), bare),
            (Situation::Diffusion, true)
        );
        let pipeline = format!(
            "  File \"/venv/site-packages/diffusers/pipelines/pipeline_utils.py\", line 80, in __call__\n{bare}"
        );
        assert_eq!(
            read_situation(&parse(&pipeline), &pipeline),
            (Situation::Diffusion, false)
        );
        // Jupyter prints the same bare name under its own traceback header.
        let notebook = format!(
            "{bare}\n---------------------------------------------------------------------------\nOutOfMemoryError                          Traceback (most recent call last)\nCell In[9], line 15\n---> 15 generated = model.generate(batch[\"input_ids\"].to(\"cuda\"), max_length=64)"
        );
        assert_ne!(situation_of(&notebook), Situation::Diffusion);
    }

    #[test]
    fn a_phase_named_after_without_is_not_the_phase() {
        let negated = "CUDA out of memory on new images, without training, batch of 2";
        assert_eq!(
            read_situation(&parse(negated), negated),
            (Situation::TrainingOom, true)
        );
        let said = "CUDA out of memory on new images during training, batch of 2";
        assert_eq!(
            read_situation(&parse(said), said),
            (Situation::TrainingOom, false)
        );
    }

    #[test]
    fn a_lora_beside_an_image_or_video_generator_is_the_generators() {
        assert_eq!(
            stack("when i use lora to fine tune the wan2.1-t2v-14b model with 720p data"),
            Some(Situation::Diffusion)
        );
        assert_eq!(
            stack("lora fine-tune of my chat model"),
            Some(Situation::LlmFinetune)
        );
        // Jupyter prints the bare exception name too: no sign of a generator.
        assert_eq!(
            stack("from peft import loraconfig\noutofmemoryerror: cuda out of memory."),
            Some(Situation::LlmFinetune)
        );
    }

    #[test]
    fn training_a_language_model_named_by_its_module_or_id_is_a_fine_tune() {
        let oom = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 112.00 MiB (GPU 0; 79.15 GiB total capacity; 76.61 GiB already allocated; 112.38 MiB free; 77.55 GiB reserved in total by PyTorch)";
        let module = format!(
            "  File \"/opt/site-packages/transformers/models/qwen2/modeling_qwen2.py\", line 80, in forward\n  File \"train.py\", line 12, in train\n{oom}"
        );
        assert_eq!(
            read_situation(&parse(&module), &module),
            (Situation::LlmFinetune, false)
        );
        let id = format!("lora微调qwen2.5-7b逐渐爆显存\n{oom}");
        assert_eq!(read_situation(&parse(&id), &id).0, Situation::LlmFinetune);
        // A model named without a sign of training says nothing of what the run was doing,
        // and a size alone ("7b") or a word that only begins like a family is no model.
        assert_eq!(
            read_situation(
                &parse(&format!("Llama-2-13b\n{oom}")),
                &format!("Llama-2-13b\n{oom}")
            ),
            (Situation::TrainingOom, true)
        );
        assert!(!names_a_language_model("options_7b train"));
        for id in [
            "vicuna13b",
            "deepseek-coder-6.7b",
            "qwen2-vl-7b",
            "llama-2-13b-chat",
            "un llama 8b",
        ] {
            assert!(names_a_language_model(id), "{id}");
        }
    }

    #[test]
    fn words_about_running_out_over_code_that_catches_it_are_about_recovery() {
        let catching = "catch the out of memory errors and continue:\nfor x in loader:\n    try:\n        step(x)\n    except RuntimeError as e:\n        torch.cuda.empty_cache()";
        assert_eq!(
            read_situation(&parse(catching), catching).0,
            Situation::Recovery
        );
    }

    #[test]
    fn video_generators_and_the_vae_s_fallback_are_the_diffusion_stack() {
        for text in [
            "Warning: Ran out of memory when regular decoding, retrying with tiled VAE decoding.",
            "The model is based on Stable Video Diffusion (SVD).\ntorch.OutOfMemoryError: CUDA out of memory.",
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 56.50 GiB. GPU\nimage to video, 512x288",
            "File \"n:\\FramePack-Eichi\\system\\python\\lib\\site-packages\\torch\\nn\\parameter.py\", line 68",
            "loading HunyuanVideo transformer\ntorch.OutOfMemoryError: CUDA out of memory.",
        ] {
            assert_eq!(
                stack(&text.to_lowercase()),
                Some(Situation::Diffusion),
                "{text}"
            );
        }
    }

    #[test]
    fn reinforcement_learning_of_a_language_model_is_fine_tuning_though_vllm_generates() {
        let text = "verl/trainer/main_ppo.py\nactor_rollout_ref.rollout.name=vllm \
                    actor_rollout_ref.rollout.gpu_memory_utilization=0.6 algorithm.adv_estimator=grpo\n\
                    torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.";
        assert_eq!(stack(&text.to_lowercase()), Some(Situation::LlmFinetune));
    }

    #[test]
    fn speech_synthesis_is_inference() {
        let tts = "When I tried to synthesize a second sentence, I ran out of CUDA memory.\nRuntimeError: CUDA out of memory. Tried to allocate 6.41 GiB (GPU 0; 10.92 GiB total capacity; 7.46 GiB already allocated; 2.83 GiB free; 7.47 GiB reserved in total by PyTorch)";
        assert_eq!(
            read_situation(&parse(tts), tts),
            (Situation::InferenceOom, false)
        );
    }

    #[test]
    fn typed_words_name_the_situation_in_every_language() {
        let of = |text: &str| read_situation(&parse(text), text).0;
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
    fn an_arabic_phrase_is_found_behind_a_glued_conjunction_but_not_inside_a_word() {
        assert!(contains_word("الكرت 8 جيجا ومش مكفي", "مش مكفي"));
        assert!(!contains_word("الكرت 8 جيجا ومامش مكفي", "مش مكفي"));
        assert!(!contains_word("a broom", "oom"));
    }

    #[test]
    fn chinese_characters_do_not_glue_to_the_latin_words_between_them() {
        let oom = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 136.00 MiB. GPU 0 has a total capacity of 31.73 GiB of which 24.69 MiB is free.";
        let lora = format!("在使用LoRA微调大模型的时候出现了显存爆炸的问题\n{oom}");
        assert_eq!(situation_of(&lora), Situation::LlmFinetune);
        assert!(contains_word("一直报显存不足。", "显存不足"));
        assert!(contains_word(
            "报错out of memory,两个数据集",
            "out of memory"
        ));
        // Latin letters still glue to Latin letters.
        assert!(!contains_word("floral", "lora"));
    }

    #[test]
    fn chinese_prose_says_memory_ran_out_grew_or_where() {
        assert_eq!(
            situation_of("训练时验证显存溢出，batch_size设置的很小也会出现"),
            Situation::InferenceOom
        );
        assert_eq!(
            situation_of("我发现每一轮训练内存占用在一直增加，最后程序崩溃"),
            Situation::MemoryGrowth
        );
    }

    #[test]
    fn memory_said_used_up_in_mixed_script_is_running_out() {
        let runs_out = |text: &str| mentions_running_out(&lowered_head(text));
        assert!(runs_out("बड़ी photo बनाते ही memory खत्म"));
        assert!(runs_out("الرام خلصت وهو بيحمل الموديل"));
        assert!(runs_out("la VRAM est pleine des le debut"));
        assert!(runs_out("GPU memory not enough in the evaluation steps"));
        assert!(!runs_out("memory usage is fine, the loss is nan"));
        assert_eq!(
            situation_of("stable diffusion में बड़ी photo बनाते ही memory खत्म"),
            Situation::Diffusion
        );
        // "GPU RAM" is the card's memory, not the host's.
        assert_ne!(
            situation_of("colab me model delete kiya phir bhi gpu ram full dikha rha"),
            Situation::HostRam
        );
    }

    #[test]
    fn a_class_name_glued_from_a_stacks_name_names_the_stack() {
        let oom = "CUDA out of memory. Tried to allocate 524.00 MiB. GPU 0 has a total capacity of 15.77 GiB of which 137.12 MiB is free.";
        let worker = format!(
            "(VllmWorkerProcess pid=90) INFO model_runner_base.py:120] Writing input of failed execution\n{oom}"
        );
        assert_eq!(situation_of(&worker), Situation::LlmServing);
        let vae = format!("{oom}\nUnloaded AutoencoderKLHunyuanVideo as complete.");
        assert_eq!(situation_of(&vae), Situation::Diffusion);
        // An English word that ends like a marker names nothing.
        assert_eq!(stack_of_class_name("attentionunet"), None);
    }

    #[test]
    fn the_trainers_evaluation_hooks_place_the_error_in_evaluation() {
        let oom = "RuntimeError: CUDA out of memory. Tried to allocate 1.53 GiB (GPU 0; 39.59 GiB total capacity; 35.21 GiB already allocated; 1.02 GiB free; 37.11 GiB reserved in total by PyTorch)";
        let hooked = format!(
            "trainer = Seq2SeqTrainer(model=model, args=args, compute_metrics=compute_metrics)\n{oom}"
        );
        assert_eq!(situation_of(&hooked), Situation::InferenceOom);
        let plain = format!("trainer = Seq2SeqTrainer(model=model, args=args)\n{oom}");
        assert_ne!(situation_of(&plain), Situation::InferenceOom);
    }

    #[test]
    fn growth_is_read_from_prose() {
        let growth = |text: &str| describes_growth(&lowered_head(text));
        assert!(growth("my GPU keeps using more memory with each iteration"));
        assert!(growth("after 15K training steps, out of memory"));
        assert!(growth("Continuous rising of GPU memory"));
        assert!(growth("显存从最开始的30G一致上涨"));
        assert!(!growth("CUDA out of memory. Tried to allocate 2.00 GiB"));
    }

    #[test]
    fn a_model_name_with_its_size_glued_on_names_its_stack() {
        assert_eq!(
            stack_of_class_name("hunyuanvideo24g"),
            Some(Situation::Diffusion)
        );
        // Letters that are no size unit are a different word.
        assert_eq!(stack_of_class_name("hunyuanvideoxyz"), None);
    }

    #[test]
    fn generating_a_video_of_any_size_is_diffusion() {
        let text = "my H800 got OOM when generate 768px video\nCUDA out of memory.";
        assert_eq!(situation_of(text), Situation::Diffusion);
        let plain = "my H800 got OOM when generating text\nCUDA out of memory.";
        assert_ne!(situation_of(plain), Situation::Diffusion);
    }

    #[test]
    fn dreambooth_training_is_training_not_generation() {
        let text = "OOM Detected, reducing batch/grad size to 0/2.\nFile \"G:\\AI\\stable-diffusion-webui\\extensions\\sd_dreambooth_extension\\dreambooth\\memory.py\", line 126, in decorator\ntorch.cuda.OutOfMemoryError: CUDA out of memory.";
        assert_eq!(situation_of(text), Situation::TrainingOom);
    }

    #[test]
    fn reaching_validation_places_the_error_there() {
        let text = "when training proceeds to the second validation (8000iters), it occurs: RuntimeError: CUDA out of memory.";
        assert_eq!(situation_of(text), Situation::InferenceOom);
        let during = "it occurs when training: RuntimeError: CUDA out of memory.";
        assert_ne!(situation_of(during), Situation::InferenceOom);
    }

    #[test]
    fn memory_an_oom_left_behind_is_the_recovery_case() {
        let after = "After the OOM in the backward() call, the intermediate tensors are not freed, which will lead to OOM in the following steps. Current memory: 6413632512";
        assert_eq!(situation_of(after), Situation::Recovery);
        let held = "After the script ends the GPU memory is not freed until I restart";
        assert_eq!(situation_of(held), Situation::NotReleased);
        let unloaded = "When unloading models, the server does not fully unload them. Memory is left used on the GPUs.";
        assert_eq!(situation_of(unloaded), Situation::NotReleased);
    }

    #[test]
    fn chinese_not_released_is_the_gpus_memory_only() {
        assert_eq!(
            situation_of("训练进程意外中止时有僵尸进程，无法释放占用显存"),
            Situation::NotReleased
        );
        // 内存 is the host's memory: growing until the process is killed is host RAM.
        assert_eq!(
            situation_of(
                "num_workers 为20时候，内存一直慢慢涨上来，最后被killed了，还是内存没有释放呢？"
            ),
            Situation::HostRam
        );
    }

    #[test]
    fn a_size_in_billions_names_a_language_model() {
        assert!(names_a_language_model("fine-tuning a 7b model on 24gb"));
        assert!(names_a_language_model("qwen2.5-7b"));
        assert!(!names_a_language_model("tried to allocate 24gb"));
    }

    #[test]
    fn typed_sizes_with_more_free_than_asked_read_as_fragmentation() {
        for typed in [
            "il reste 3 Go de libre mais il arrive pas a allouer 500 Mo",
            "card pe 6 gb khali h phir bhi 2 gb nahi mil rahe",
            "الكرت فيه 4 جيجا فاضيه ومش راضي ياخد 700 ميجا",
        ] {
            assert!(free_exceeds_request(&typed.to_lowercase()), "{typed}");
            assert_eq!(situation_of(typed), Situation::Fragmentation, "{typed}");
        }
        // Less free than asked is plainly too little memory; "300M" counts parameters.
        assert!(!free_exceeds_request("only 2 gb free and it wants 6 gb"));
        assert!(!free_exceeds_request("a 300m model with 2 gb free"));
        // A log's figures stand one a line: the line under a limit is not its free memory.
        assert!(!free_exceeds_request(
            "device limit : 14.75 gib\nfree (according to cuda): 27.06 mib\nrequested : 640.00 mib"
        ));
    }

    #[test]
    fn a_phase_the_text_has_left_behind_is_not_where_it_failed() {
        let mut evidence = PhaseEvidence::default();
        count_phase_words(
            "after training, predicting on the test set runs out",
            &mut evidence,
        );
        assert_eq!(evidence.training, 0);
        let mut evidence = PhaseEvidence::default();
        count_phase_words("ट्रेनिंग के बाद test पर memory खत्म", &mut evidence);
        assert_eq!(evidence.training, 0);
        let mut evidence = PhaseEvidence::default();
        count_phase_words("fine tune runs out of memory", &mut evidence);
        assert!(evidence.training > 0);
    }

    #[test]
    fn not_enough_memory_is_read_with_its_dialect_negation() {
        assert!(mentions_running_out("الذاكره ما كافياش"));
        assert!(mentions_running_out("والذاكرة ما تكفي"));
        assert!(mentions_running_out("memory kaafi nahi hai"));
        assert!(!mentions_running_out("الذاكرة كافية"));
    }
}
