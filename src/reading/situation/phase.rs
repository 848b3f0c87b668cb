//! Where in the workflow an error struck — training or evaluation and generation — from frames,
//! launched scripts, run-mode flags and the words of the text.

use rustc_hash::FxHashSet;
use std::sync::LazyLock;

use regex::Regex;

use super::words::WORD;
use crate::traceback::Parsed;

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
    "inferencing",
    "inferring",
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
    // Embedding models encode sentences into vectors once they are trained.
    "encode",
    "encoding",
    // The verb: an embedding layer is trained like any other.
    "embed",
    // The density of the prompt grid of Segment Anything's automatic mask generator.
    "points_per_side",
    "points_per_batch",
    "predictor",
    "detect",
    "detection",
    "inférence",
    "évaluation",
    "génération",
    "prédiction",
    "تقييم",
    "اختبار",
    "يختبر",
    "نختبر",
    "استدلال",
    "تحقق",
    "فاليديشن",
    "انفرنس",
    "अनुमान",
    "इन्फरेंस",
    "मूल्यांकन",
    "वैलिडेशन",
    "वेलिडेशन",
];
/// [`INFERENCE_WORDS`] and [`TRAINING_WORDS`] as sets: every word of a paste is looked up.
static PHASE_WORDS: LazyLock<(FxHashSet<&str>, FxHashSet<&str>)> = LazyLock::new(|| {
    (
        INFERENCE_WORDS.iter().copied().collect(),
        TRAINING_WORDS.iter().copied().collect(),
    )
});
const INFERENCE_SUBSTRINGS: &[&str] = &["推理", "验证", "测试", "生成", "预测"];
/// Inference named in several words: Segment Anything's mask generator.
const INFERENCE_PHRASES: &[&str] = &["segment anything"];
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
    "entrainement",
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
/// Library functions whose names hold an inference part but that run in any phase:
/// flash-attn's unpadding helper and the `datasets` builders' example generator.
const PHASELESS_FRAMES: &[&str] = &["generate_qkv", "_generate_examples"];

/// How much a paste says it was training and how much it was evaluating or generating:
/// frames and script names weigh more than words, and training is the default (the common
/// case and the safer advice).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct PhaseEvidence {
    pub(super) training: u32,
    pub(super) inference: u32,
}

impl PhaseEvidence {
    pub(super) fn is_inference(self) -> bool {
        self.inference > 0 && self.inference >= self.training
    }

    pub(super) fn is_empty(self) -> bool {
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
pub(super) const SCRIPT_POINTS: u32 = 3;

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
pub(super) fn phase_evidence(parsed: &Parsed, lower: &str) -> PhaseEvidence {
    let mut evidence = PhaseEvidence::default();
    let mut innermost_counted = false;
    let mut scripts_seen: Vec<&str> = Vec::new();
    for frame in parsed.frames.iter().rev() {
        let function = frame.function.to_lowercase();
        let inference = INFERENCE_FRAME_PARTS.iter().any(|p| function.contains(p))
            && !PHASELESS_FRAMES.contains(&function.as_str());
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
pub(super) fn run_only_evaluates(lower: &str) -> Option<bool> {
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

/// The words phase words are looked for among: runs of letters and digits, Arabic's article
/// cut.
fn phase_text_words(lower: &str) -> Vec<&str> {
    if lower.is_ascii() {
        // What `WORD` finds in ASCII text (most pastes): runs of letters and digits.
        lower
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect()
    } else {
        WORD.find_iter(lower)
            .map(|m| without_arabic_article(m.as_str()))
            .collect()
    }
}

/// A phase word of the text, and whether the text has left that phase behind, denies it
/// or compares another phase against it.
#[derive(Debug, Clone, Copy)]
struct PhaseSaid {
    inference: bool,
    left_behind: bool,
}

fn phase_words_said(words: &[&str]) -> Vec<PhaseSaid> {
    let mut said = Vec::new();
    for (at, word) in words.iter().enumerate() {
        // Whisper and the tools named after it (whisperx, whisperjav) transcribe.
        let inference = if PHASE_WORDS.0.contains(word) || word.starts_with("whisper") {
            true
        } else if PHASE_WORDS.1.contains(word) {
            false
        } else {
            continue;
        };
        let before = at.checked_sub(1).map(|i| words[i]);
        let denied_during = before.is_some_and(|b| DURING.contains(&b))
            && at.checked_sub(2).is_some_and(|i| is_negation(words[i]));
        let left_behind = before.is_some_and(|b| is_negation(b) || PHASE_LEFT.contains(&b))
            || denied_during
            || is_said_finished(words, at)
            || matches!(
                (words.get(at + 1), words.get(at + 2)),
                (Some(&("के" | "ke")), Some(&("बाद" | "baad" | "bad")))
            )
            || is_compared_against(words, at);
        said.push(PhaseSaid {
            inference,
            left_behind,
        });
    }
    said
}

/// The phases a text names only where it has left them behind, denies them or compares
/// against them ("after training", «بعد التدريب», "ट्रेनिंग के बाद", "more than training"): the
/// glossary's names for them, added to typed words, must not count as the phase the text is in.
#[derive(Debug, Clone, Copy)]
pub struct PhasesLeftBehind {
    training: bool,
    inference: bool,
}

impl PhasesLeftBehind {
    pub fn of(lower: &str) -> Self {
        let words = phase_text_words(lower);
        let said = phase_words_said(&words);
        let only_left = |inference: bool| {
            let mut of_phase = said.iter().filter(|s| s.inference == inference).peekable();
            of_phase.peek().is_some() && of_phase.all(|s| s.left_behind)
        };
        Self {
            training: only_left(false),
            inference: only_left(true),
        }
    }

    /// Whether a concept's English name ("training", "evaluation") names one of these phases.
    pub fn names(self, english_name: &str) -> bool {
        match phases_named(english_name) {
            (true, false) => self.inference,
            (false, true) => self.training,
            _ => false,
        }
    }
}

/// Phase words in `lower`, one point each; a word said after a negation ("without
/// training", «بلا تدريب», "bina training") names the phase the text is not in, and so
/// does one the text has left behind: "after training", «بعد التدريب», "ट्रेनिंग के बाद".
pub(super) fn count_phase_words(lower: &str, evidence: &mut PhaseEvidence) {
    let words = phase_text_words(lower);
    for said in phase_words_said(&words) {
        match said {
            PhaseSaid {
                left_behind: true, ..
            } => {}
            PhaseSaid {
                inference: true, ..
            } => evidence.inference += 1,
            PhaseSaid {
                inference: false, ..
            } => evidence.training += 1,
        }
    }
    evidence.inference += INFERENCE_PHRASES
        .iter()
        .filter(|p| lower.contains(*p))
        .count() as u32;
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

/// Whether the phase word at `at` is what another phase is compared against: "uses more
/// memory than training", «ياكل ذاكره اكثر من التدريب», "plus que l'entraînement",
/// "training से ज़्यादा". The phase that ran out is the one compared, not this one.
fn is_compared_against(words: &[&str], at: usize) -> bool {
    // «اكتر» is the Egyptian and Levantine spelling, «كثر» the Maghrebi and Gulf word.
    const MORE: &[&str] = &["more", "اكثر", "أكثر", "plus", "اكتر", "أكتر", "كثر"];
    const THAN: &[&str] = &["than", "من", "que", "qu"];
    // "than the training", "que l'entraînement", "than during training".
    let than_at = match at.checked_sub(1).map(|i| words[i]) {
        Some("l" | "le" | "la" | "the" | "during" | "pendant") => at.checked_sub(2),
        _ => at.checked_sub(1),
    }
    .filter(|&i| THAN.contains(&words[i]));
    // "more than", "more memory than", "plus de mémoire que".
    let said_before = than_at.is_some_and(|than| {
        words[than.saturating_sub(3)..than]
            .iter()
            .any(|w| MORE.contains(w))
    });
    let said_after = matches!(
        (words.get(at + 1), words.get(at + 2)),
        (
            Some(&("से" | "se")),
            Some(&("ज्यादा" | "ज़्यादा" | "zyada" | "jyada" | "jada" | "ziada"))
        )
    );
    said_before || said_after
}

/// Words that, set before a phase word, say the text has moved past that phase.
const PHASE_LEFT: &[&str] = &["after", "après", "apres", "بعد", "baad", "बाद"];

/// Verbs that say a phase came to its end: "after training finishes", «بعد ما يخلص التدريب».
const FINISHED: &[&str] = &[
    "finishes",
    "finished",
    "ends",
    "ended",
    "done",
    "completes",
    "completed",
    "termine",
    "terminé",
    "fini",
    "finit",
    "يخلص",
    "خلص",
    "تخلص",
    "ينتهي",
    "انتهى",
    "انتهي",
    "يكمل",
    "كمل",
];

/// Whether the phase word at `at` is said to have finished, after a word of [`PHASE_LEFT`]
/// a few words before it: "after the training is done", «بعد ما يخلص التدريب». The phase
/// the text is in comes later.
fn is_said_finished(words: &[&str], at: usize) -> bool {
    let near = |i: usize| words.get(i).is_some_and(|w| FINISHED.contains(w));
    let finished = at.checked_sub(1).is_some_and(near) || near(at + 1) || near(at + 2);
    finished
        && words[at.saturating_sub(3)..at]
            .iter()
            .any(|w| PHASE_LEFT.contains(w))
}

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
    // Algerian "but".
    "بصح",
    "although",
    "whereas",
    "tandis",
    "jabki",
    "जबकि",
    "رغم",
    "بالرغم",
];

/// The text before and after each contrast word, first to last (`lower`: lowercased).
pub fn contrast_splits(lower: &str) -> impl Iterator<Item = (&str, &str)> {
    let words: Vec<_> = WORD.find_iter(lower).collect();
    // Arabic "although" is two words, «مع ان» ("with that"); «مع» alone is only "with".
    let although = |i: usize| {
        words[i].as_str() == "مع"
            && words.get(i + 1).is_some_and(|next| {
                matches!(
                    next.as_str(),
                    "ان" | "انه" | "انو" | "اني" | "انها" | "أن" | "إن"
                )
            })
    };
    let splits: Vec<(&str, &str)> = (0..words.len())
        .filter(|&i| CONTRASTS.contains(&words[i].as_str()) || although(i))
        .map(|i| (&lower[..words[i].start()], &lower[words[i].end()..]))
        .collect();
    splits.into_iter()
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
    let (inference, training) = phases_named(english_name);
    inference || training
}

/// Whether a concept's English name holds a word of inference, and one of training.
fn phases_named(english_name: &str) -> (bool, bool) {
    let names = |set: &FxHashSet<&str>| {
        english_name
            .split(|c: char| !c.is_alphanumeric())
            .any(|word| set.contains(word))
    };
    (names(&PHASE_WORDS.0), names(&PHASE_WORDS.1))
}

pub fn is_negation(word: &str) -> bool {
    NEGATIONS.contains(&word)
}

/// Words that, set right after a phase word, say the text is not in that phase: spoken
/// French drops the «ne» ("j'entraîne pas", "j'entraîne rien").
pub fn is_negation_after(word: &str) -> bool {
    matches!(word, "pas" | "rien" | "jamais")
}

/// Words that, set before a phase word, say the text is not in that phase: "without",
/// and the spoken Arabic verb negations («مش بدربه», «مو ادربه»); «ما» is a stop word.
const NEGATIONS: &[&str] = &[
    "without",
    "not",
    "sans",
    "bina",
    "बिना",
    "बगैर",
    "bagair",
    "بلا",
    "بدون",
    "دون",
    "غير",
    "مش",
    "مو",
    "مب",
    "ماني",
    "مانيش",
    "ليس",
    "وليس",
    "ومش",
    "ومو",
];

/// Words that may stand between a negation and the phase it denies: "not during training",
/// «وليس اثناء التدريب».
const DURING: &[&str] = &[
    "during",
    "while",
    "in",
    "pendant",
    "lors",
    "اثناء",
    "أثناء",
    "خلال",
    "وقت",
    "في",
    "عند",
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
