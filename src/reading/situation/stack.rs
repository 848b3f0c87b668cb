//! The software a paste comes from: package paths, imports, commands, class names and log
//! banners, each stack's identifiers compared as whole tokens.

use aho_corasick::AhoCorasick;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::LazyLock;

use regex::Regex;

use super::Situation;
use super::words::{glues, stands_alone};

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
            // The router's log lines, which relay the shard's error ("text_generation_client:
            // router/client/src/lib.rs:33: Server error: CUDA out of memory").
            "text_generation_client",
            "text_generation_router",
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
            // Image generators named after a language model's family or by a short name.
            "qwen-image",
            "sd3",
            "sd35",
            "hidream",
            "auraflow",
            // Forge's memory manager logs the model it loads: "Target: KModel".
            "kmodel",
            // Module paths of the generators' networks: latent diffusion's U-Net wrapper
            // (`model.diffusion_model.input_blocks`) and the double-stream blocks of the
            // Flux and HunyuanVideo transformers.
            "diffusion_model",
            "double_blocks",
            // What latent generators denoise and then decode ("OOM while decoding the
            // latents"). "vae" alone is not one: text and molecule models have VAEs too.
            "latents",
            "vaedecode",
            "vae_decode",
        ],
    ),
];

/// Tools and scripts that train image-generation models (LoRA, DreamBooth, full fine-tunes).
pub(super) const DIFFUSION_TRAINERS: &[&str] = &[
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
    // ComfyUI's memory manager, after it caught an out-of-memory error.
    (
        "got an oom, unloading all loaded models",
        Situation::Diffusion,
    ),
    // Text-to-video, image-to-video, text-to-image and image-to-image in Chinese.
    ("文生视频", Situation::Diffusion),
    ("图生视频", Situation::Diffusion),
    ("图片转视频", Situation::Diffusion),
    ("文生图", Situation::Diffusion),
    ("图生图", Situation::Diffusion),
    // Forge's memory manager, before it loads a generator's weights.
    ("required inference memory", Situation::Diffusion),
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
pub(super) fn stack_of_class_name(word: &str) -> Option<Situation> {
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
pub(super) fn stack_reading(lower: &str) -> Option<(Situation, bool)> {
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
    ) && (counts[diffusion] > u32::from(bare_name)
        || IMAGE_SIZE.is_match(lower)
        || DIFFUSION_TRAINERS.iter().any(|t| read.contains(t)))
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
