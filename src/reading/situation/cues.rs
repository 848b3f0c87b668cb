//! What the words of a paste say about memory: growth over steps, memory held after a run,
//! running out, a handler that catches the error, a language model named.

use std::sync::LazyLock;

use regex::Regex;

use super::words::contains_word;
use crate::traceback::ErrorKind;

/// Memory said to rise with the steps of a run: over iterations, epochs or time, or on and
/// on. «一致» is how a pinyin keyboard often writes «一直» ("all along").
static GROWTH_OVER_STEPS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        \b(increas\w*|grow\w*|leak\w*|more\s+and\s+more|keeps?\s+(using|getting|rising)|steady)
        [^.\n]{0,60}
        \b(iterations?|iters?|epochs?|steps?|batch(es)?|over\s+time)\b
      | (after|every|each)\s+(\d+k?|a\s+few|several|many|some)?\s*(training\s+)?(iterations|iters|epochs|steps)
      | (iteration|epoch|step)\w*\s[^.\n]{0,40}(increas|grow)
      | \b(keeps?|kept|continu\w*|constantly|steadily|gradually)\s+(on\s+)?(increas|grow|ris(e|ing)|going\s+up)
      | (一直|一致|不断|逐渐|持续|越来越)\p{Han}{0,3}(增加|增长|上升|涨|变大|增大|变多|爆)
",
    )
    .expect("growth pattern")
});

/// Memory said to rise, with nothing that ties the rise to the steps of a run: "memory
/// usage increases", which may as well be the jump from training to evaluation.
static GROWTH_SAID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        (memory|usage|consumption)[^.\n]{0,40}\b(increas|grow|ris(e|ing))
      | \b(increas|grow|ris(e|es|ing)\b)\w*[^.\n]{0,30}(memory|usage|consumption)
      | (显存|内存)[^。，,.\n]{0,15}(不断|持续|一直)?(增加|增长|上升|上涨|增大|飙升|暴涨|猛增)",
    )
    .expect("growth pattern")
});

/// Someone raising a setting ("increasing my batch size", "increasing the input size to
/// 1500"): the text is about what they changed, not about memory rising by itself.
static RAISES_A_SETTING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        \b(increas|rais)(e|ed|ing)\s+(my|our|your|the|their)\s+(\w+\s+)?
            (batch|input|image|img|gpu|vram|model|resolution|size|sequence|context|dataset|ram|memory|card)
      | \b(increas|rais)ing\s+(the\s+)?(batch|input|image|resolution|sequence|context|training\s+vram)",
    )
    .expect("raised setting pattern")
});

/// How the (lowercased) text says memory rose, if it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Growth {
    /// With the steps of the run: a leak, the rise that memory-growth-leak is about.
    OverSteps,
    /// Only that it rose; where the text says that happened may explain it better.
    Said,
}

pub(super) fn growth(lower: &str) -> Option<Growth> {
    let cleaned;
    let lower = if RAISES_A_SETTING.is_match(lower) {
        cleaned = RAISES_A_SETTING.replace_all(lower, " ");
        cleaned.as_ref()
    } else {
        lower
    };
    if GROWTH_OVER_STEPS.is_match(lower) {
        Some(Growth::OverSteps)
    } else if GROWTH_SAID.is_match(lower) {
        Some(Growth::Said)
    } else {
        None
    }
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

/// Text generated over a long prompt, a long context or a conversation, where the KV cache
/// grows with every token ("a prompt with 126k tokens", `num_ctx`, "chat", 多轮对话).
static GENERATES_AT_LENGTH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        \b(?:long|longer|large|huge)\ (?:prompts?|contexts?|inputs?|conversations?|dialogues?)\b
      | \b(?:num_ctx|max_new_tokens|max_model_len|context_length)\b
      | \bcontext\ (?:length|window|size|len)\b
      | \b\d+\ ?k\ (?:tokens?|context)\b
      | \b(?:chat|chatting|conversation|conversations|multi-turn|dialogue)\b
      | 对话|上下文|多轮|長文本|长文本",
    )
    .expect("long generation pattern")
});

pub(super) fn generates_at_length(lower: &str) -> bool {
    GENERATES_AT_LENGTH.is_match(lower)
}

/// `lower`: the text's head, lowercased.
pub(super) fn names_a_language_model(lower: &str) -> bool {
    LANGUAGE_MODEL.is_match(lower)
}

/// An `except` clause for the errors an out-of-memory raises, in the code pasted with it: the
/// program catches the error and goes on, which is what the recovery article is about.
pub(super) static CATCHES_OOM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^\s*except\s*\(?\s*(torch\.(cuda\.)?)?(OutOfMemoryError|RuntimeError)\b")
        .expect("except pattern")
});

/// A training loop's own log that it caught an out-of-memory error and skipped the batch
/// (fairseq's "ran out of memory … Skipping batch"): the recovery article's pattern.
pub(super) static SKIPS_BATCH_AFTER_OOM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?is)(?:out of memory|\boom\b).{0,300}?skipping (?:this |the )?batch")
        .expect("skip pattern")
});

/// Someone asking how to go on after an out-of-memory error: skip the batch that ran out,
/// recover from it, catch it. (A program that skips on its own is [`SKIPS_BATCH_AFTER_OOM`]:
/// there the question is usually why it ran out.)
pub(super) static ASKS_TO_GO_ON_AFTER_OOM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?isx)
        \bskip\ (?:the\ |this\ |that\ |a\ |such\ )?(?:batch|sample|step)e?s?\b.{0,40}?(?:out\ of\ memory|\boom\b)
      | \b(?:recover|resume|continu(?:e|ing))\ (?:training\ )?(?:from|after)\ (?:an?\ |the\ )?(?:cuda\ )?(?:out\ of\ memory|\boom\b)
      | \bcatch(?:ing)?\ (?:an?\ |the\ )?(?:cuda\ )?(?:out\ of\ memory|\boom\b)",
    )
    .expect("go-on pattern")
});

/// Python's line between an exception and one raised while handling it: after an
/// out-of-memory error, the program's own handler failed.
pub(super) const HANDLER_FAILED: &str =
    "During handling of the above exception, another exception occurred";

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

pub(super) fn killed_by_the_kernel(lower: &str) -> bool {
    SIGKILL_REPORTS.iter().any(|report| lower.contains(report))
}

/// GPU memory described as still held once a run is over or its objects are gone.
const MEMORY_HELD: &[&str] = &[
    // A process nvidia-smi does not list, or one that will not die, holding the memory.
    "ghost process",
    "zombie process",
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
pub(super) static HELD_AFTER_OOM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)(?:after|following)\s+(?:an?\s+|the\s+)?(?:cuda\s+)?(?:oom|out[- ]of[- ]memory)(?-u:\b)")
        .expect("after oom pattern")
});

/// The DataLoader's report that the kernel killed one of its workers.
static WORKER_KILLED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)DataLoader worker \(pid[^)]{0,40}\)\s*is killed by signal: Killed")
        .expect("worker killed pattern")
});

/// A DataLoader worker killed, and no other sign of host RAM running out (no shell `Killed`,
/// no kernel log, no allocator error): the DataLoader article's levers (fewer workers, lighter
/// samples, its own host-RAM section) are the first answer, as most such reports were
/// resolved.
pub(super) fn only_a_worker_was_killed(text: &str) -> bool {
    let rest = WORKER_KILLED.replace_all(text, "");
    rest.len() != text.len() && crate::traceback::parse(&rest).kind != ErrorKind::CpuOom
}

/// Chinese for "not released", said of the GPU's memory (see [`GPU_MEMORY_ZH`]; 内存 alone is the host's).
const NOT_RELEASED_ZH: &[&str] = &[
    "无法释放",
    "没有释放",
    "没释放",
    "未释放",
    "不释放",
    "释放不了",
    "不会释放",
    // "Cannot be cleared", "stays occupied".
    "无法清理",
    "清理不了",
    "无法清除",
    "清除不了",
    "清不掉",
    "一直占用",
    "一直被占用",
];

/// Memory said to be still taken: "still occupied", «لسا محجوزه», "toujours occupée". Not
/// "reserved": that is PyTorch's word for its cache, which fragmentation is about.
static STILL_HELD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        (?:\bstill|toujours|encore|لسا|لسه|لسة|لساتها|مازال\w*|ما\s+زال\w*|لا\s+تزال|لازال\w*
          |अभी\s+भी|अब\s+भी|abhi\s+bhi|ab\s+bhi)
        \s+(?:\S+\s+){0,4}?
        (?:occupied|in\s+use|occup[ée]e?s?|utilis[ée]e?s?|محجوز\w*|مشغول\w*|مليان\w*|ملان\w*|ممتلئ\w*)",
    )
    .expect("still held pattern")
});

pub(super) fn describes_memory_held(lower: &str) -> bool {
    EMPTY_CACHE_FAILS.is_match(lower)
        || (mentions_memory(lower)
            && (MEMORY_HELD.iter().any(|phrase| lower.contains(phrase))
                || HELD_WORDS.is_match(lower)
                || STILL_HELD.is_match(lower)))
        || (GPU_MEMORY_ZH.iter().any(|w| lower.contains(w))
            && NOT_RELEASED_ZH.iter().any(|p| lower.contains(p)))
}

/// The GPU's memory in Chinese: 显存, or 内存 (memory, the host's when alone) said of the GPU.
const GPU_MEMORY_ZH: &[&str] = &["显存", "gpu内存", "gpu 内存", "显卡内存", "显卡的内存"];

/// `empty_cache()` said not to give memory back ("torch.cuda.empty_cache() is not working"):
/// memory some reference or process still holds.
static EMPTY_CACHE_FAILS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        empty_cache(?:\(\))?[^.\n]{0,40}?
        (?:not\s+work|n't\s+work|no\s+effect|not\s+(?:free|releas)|n't\s+(?:free|releas)
          |ne\s+(?:fonctionne|marche|lib[eè]re)\s+pas|sans\s+effet
          |لا\s+يعمل|ما\s+بيشتغل|مش\s+شغال|ما\s+يشتغل|काम\s+नहीं|kaam\s+nahi)",
    )
    .expect("empty_cache fails pattern")
});

/// `nvidia-smi`'s table, or a row of it ("8525MiB / 11019MiB" is its memory column): someone
/// asking about the memory it shows as used.
pub(super) fn shows_nvidia_smi(text: &str) -> bool {
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
    "out of ram",
    "out of system ram",
    "out of system memory",
    "out of host memory",
    "out of cpu memory",
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
    "超显存",
    "超出显存",
    "显存超",
    "显存占满",
    "显存满了",
];
/// The card's own RAM, as people call its memory: "GPU RAM", "a GPU with 24gb of ram".
pub(super) static GPU_RAM: LazyLock<Regex> = LazyLock::new(|| {
    // «رام كارت الشاشة», «رام الكرت»: the graphics card's RAM.
    Regex::new(
        r"\bgpus?\b(?:\s+(?:with|has|having|of))?(?:\s+\d+\s*gb)?(?:\s+of)?\s+ram\b|(?:ال)?رام\s+(?:ال)?(?:كرت|كارت|كارط)",
    )
        .expect("GPU RAM pattern")
});
const MPS_WORDS: &[&str] = &["mps", "mac", "macbook", "apple", "ماك", "मैक", "ऐप्पल"];

/// A Mac named (or its GPU backend, MPS): whatever the stack, the MPS article holds the levers.
pub(super) fn on_a_mac(lower: &str) -> bool {
    MPS_WORDS.iter().any(|w| contains_word(lower, w))
}
pub(super) const HOST_WORDS: &[&str] = &["ram", "cpu", "العشوائية", "रैम", "vive", "内存"];
/// Fragmentation, or memory reserved yet unused, as people describe it — or its symptom:
/// memory reported free, yet a smaller block cannot be had.
/// Fragmentation by its name: "fragmented", «مجزأة», "खंडित".
pub(super) const FRAGMENTATION_NAMED: &[&str] = &[
    "fragment",
    "تجزئة",
    "مجزأة",
    "खंडित",
    "खंडन",
    "फ्रैगमेंटेशन",
    "碎片",
];
/// Fragmentation described: free or reserved memory that still did not serve the request.
pub(super) const FRAGMENTATION_WORDS: &[&str] = &[
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
    "محجوزة",
    "محجوزه",
    "आरक्षित",
];

/// Words that say memory ran out (`lower`: lowercased, glossed or not), or that ask how to
/// make a job fit in it or take less of it: "how do I make it fit on 16 GB", «كيف اخليه يكفي»,
/// "fit kaise karu", «اقلل الذاكره».
pub fn mentions_running_out(lower: &str) -> bool {
    // Shared memory is a kernel's scratchpad (Triton's "out of resource: shared memory") or
    // /dev/shm, neither of them the memory the OOM articles are about.
    let without_shared;
    let lower = if lower.contains("shared memory") {
        without_shared = lower.replace("shared memory", "shm");
        without_shared.as_str()
    } else {
        lower
    };
    OUT_OF_MEMORY.iter().any(|p| contains_word(lower, p))
        || MEMORY_RUNS_OUT.is_match(lower)
        || ASKS_TO_MAKE_IT_FIT.is_match(lower)
}

/// Asking how to make a job fit in the memory there is, or how to lower the memory it takes.
/// `.fit(` alone is a trainer's method.
static ASKS_TO_MAKE_IT_FIT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        \bmake\s+(?:it|this|them|the\s+model|my\s+model)\s+fit\b
        | \bfit\s+(?:it\s+|this\s+)?(?:in(?:to)?|on)\s+(?:\S+\s+){0,2}?(?:gpu|card|memory|vram|[0-9]+\s*gb)\b
        | faire\s+(?:tenir|rentrer)\b
        | \breduce\s+(?:the\s+)?(?:gpu\s+)?memory\b | r[ée]duire\s+(?:la\s+)?(?:m[ée]moire|vram)
        | (?:اقلل|اخفف|نقلل|نخفف|تقليل|تخفيف)\s+(?:ال)?(?:ذاكر|ذاكره|ذاكرة|ميموري|استهلاك)\p{Arabic}*
        | \bmemory\s+(?:kam\s+(?:kar|kaise)|bacha|bachegi|bachane)
        | मेमोरी\s+(?:बच|कम\s+कर)
        | (?:اخلي|خلي|نخلي|يخلي)\p{Arabic}*\s+(?:\S+\s+)?(?:يكفي|تكفي|يساع|يسع|يدخل|تدخل)\p{Arabic}*
        | (?:عشان|باش|حتى|لكي)\s+(?:يكفي|تكفي|يساع)\p{Arabic}*
        | (?:كيف|كيفاش|ازاي|شلون)\s+(?:ن|ا)?دخل\p{Arabic}*
        | \bfit\s+(?:kaise|kese|karu|karun|karoon|ho\b|hoga|nahi|nhi)
        | फिट\s+(?:कैसे|करूं|करूँ|करू|हो|नहीं)|(?:कैसे|kaise)\s+(?:फिट|fit)\b",
    )
    .expect("make it fit pattern")
});

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
        // Egyptian spelling often writes ذ as ز.
        "زاكرة",
        "زاكره",
        "ميموري",
        "مموري",
        // The French word in Arabic script, as the Maghreb says it.
        "ميموار",
        "رام",
        "mémoire",
        "memoire",
    ]
    .join("|");
    // The card said not to be up to it («الكرت مش شايل», "la carte ماكافياش"). Not after
    // «مافي» (there is no card: it is not found) nor before "crashed" (a driver can crash).
    let cards = [
        "كرت",
        "كارت",
        "كارط\\p{Arabic}*",
        "carte",
        "card",
        "gpu",
        "कार्ड",
    ]
    .join("|");
    // Verbs that say a card filled up, said before it: «بلا ما تعمر الكارطه».
    let cards_filled = ["تعمر", "عمرت", "يعمر", "تتعمر", "تملا", "اتملى"].join("|");
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
        // The Maghreb's "fills up".
        "تعمر",
        "عمرت",
        "بتطير",
        "طارت",
        "pleine",
        "saturée",
        "saturee",
        "insuffisante",
        "not enough",
        "insufficient",
        // "Not enough" with its negation, as the dialects say it: ما تكفي, مش كافيه, ما كافياش.
        // Moroccan past tense too (ماكفاتش, "it did not suffice"), and "does not carry it" (مش شايل).
        r"و?(?:ما|مش|مو|مب|موب)\s*(?:راضي\p{Arabic}*\s+)?(?:كافي|تكفي|يكفي|مكفي|كفا|كفى|شايل|يستحمل|تستحمل|بيستحمل)\p{Arabic}*",
        r"(?:kaafi|kafi|काफी|काफ़ी)\s+(?:nahi|nhi|नहीं)",
    ]
    .join("|");
    let said_first = [
        "خلصت",
        "تخلص",
        // "Runs out" in the present and the past, ذ often typed for د: تنفد, ينفذ, نفدت.
        r"[تي]?نف[دذ]\p{Arabic}*",
        "امتلأت",
        "plus de",
        "manque de",
        "pas assez de",
        // "There is no memory": مفيش ذاكرة, ما في ذاكرة, مافيش.
        // "It crashes with the memory" (يكراشي بالميموار).
        r"يكراش\p{Arabic}*",
        "مفيش",
        "مافيش",
        "مافي",
        r"ما\s+في",
        // "it consumes all of my RAM", "eats up all the memory".
        r"(?:consum|eat|use|using|fill|tak|hog)\w*\s+(?:up\s+)?all(?:\s+of)?",
    ]
    .join("|");
    // "My RAM crashes", "the memory crashed": memory said to crash is memory that ran out.
    let crashed = "crash(?:es|ed)?";
    // Arabic glues the article or a preposition to the noun (بالذاكرة, الذاكره).
    let glued = "(?:[وفبلك]?(?:ال)?)";
    Regex::new(&format!(
        r"\b{glued}(?:{nouns})\s+(?:\S+\s+){{0,2}}?(?:{used_up}|{crashed})\b|\b{glued}(?:{cards})\s+(?:\S+\s+){{0,2}}?(?:{used_up})\b|\b(?:{said_first})\s+(?:\S+\s+)?{glued}(?:{nouns})\b|\b(?:{cards_filled})\s+{glued}(?:{cards})"
    ))
    .expect("running-out pattern")
});

/// Memory named as the GPU's, not the host's.
pub(super) fn mentions_gpu_memory(lower: &str) -> bool {
    ["vram", "gpu memory", "cuda", "显卡"]
        .iter()
        .chain(GPU_MEMORY_ZH)
        .any(|w| lower.contains(w))
}

pub(super) fn mentions_memory(lower: &str) -> bool {
    // «ذاكر» also finds «الذاكره», typed with ه for the final ة; «زاكر» is its Egyptian
    // spelling.
    [
        "memory",
        "mémoire",
        "ذاكر",
        "زاكر",
        "ميموري",
        "مموري",
        "ميموار",
        "मेमोरी",
        "显存",
        "内存",
    ]
    .iter()
    .any(|w| lower.contains(w))
        || VRAM.is_match(lower)
}

/// VRAM as a word, not inside a flag (`--reserve-vram 2`, `--lowvram`).
static VRAM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[^\w-])vram\b").expect("vram pattern"));
