//! Reading a paste or a typed query: what it says, computed once per request.
//!
//! A [`Reading`] holds the parsed traceback, the languages of its prose, the situation it
//! describes (training or inference OOM, fragmentation, growth, …), the memory figures, the
//! localized diagnosis and the fingerprint the query log keeps. Ranking (`search`) takes the
//! reading and only retrieves and ranks; the web layer and the command line hand the reading's
//! parts to the answer and the log. The flow is one way: paste → reading → ranking → web.

mod diagnosis;
mod fingerprint;
mod model_mention;
mod question;
mod situation;

pub use diagnosis::Diagnosis;
pub use fingerprint::{Fingerprint, MAX_QUERY_FINGERPRINT_CHARS, QUERY_KIND};
pub use question::{Choice, Question, situation_question};
pub use situation::{
    MEMORY_FAMILY, MemoryReading, Situation, is_negation, is_negation_after, names_a_phase,
};

use std::collections::BTreeSet;

use crate::i18n::{Lang, detect_language};
use crate::traceback::{self, ErrorKind, Parsed};

/// Text looked at for prose words: the head and the tail of a long paste.
const PROSE_HEAD_BYTES: usize = 16 * 1024;
const PROSE_TAIL_BYTES: usize = 8 * 1024;

/// What a paste or a query says.
#[derive(Debug, Clone)]
pub struct Reading<'a> {
    /// The text as received: error signatures are looked for in all of it.
    pub text: &'a str,
    pub parsed: Parsed,
    /// The words of the text (frames and C++ stacks removed), for the prose fields.
    pub prose: String,
    /// Exception, message, distinctive lines and functions, for the language-neutral fields.
    pub code: String,
    /// Languages whose analyzers read `prose`.
    pub prose_langs: Vec<Lang>,
    pub situation: Situation,
    /// The situation is training only because nothing in the text said where the error
    /// struck: ranking still prefers it, but it is no evidence for the answer's confidence.
    pub situation_by_default: bool,
    /// Another reading holds as well as the situation's (see
    /// [`situation::fragmentation_contested`]): ranking follows the situation, but it does not
    /// make the answer a known fix.
    pub situation_contested: bool,
    pub memory: MemoryReading,
    /// The section of the situation's group that holds the fix, when the figures say which.
    pub preferred_section: Option<&'static str>,
    pub fingerprint: Fingerprint,
    /// What the figures mean, in the reader's language (pastes only).
    pub diagnosis: Option<Diagnosis>,
}

impl<'a> Reading<'a> {
    /// Reads a paste (traceback, error line, log, or words); the diagnosis is in `lang`.
    pub fn paste(text: &'a str, lang: Lang) -> Reading<'a> {
        let parsed = traceback::parse(text);
        let prose = prose_of(text);
        let mut prose_langs = vec![Lang::En];
        if let Some(detected) = detect_language(&prose).filter(|&l| l != Lang::En) {
            prose_langs.push(detected);
        }
        let (situation, situation_by_default) = situation::read_situation(&parsed, text);
        let memory = situation::read_memory(&parsed.facts);
        let situation_contested =
            situation::fragmentation_contested(situation, &memory, &parsed, text);
        Reading {
            text,
            code: code_of(&parsed, text),
            prose,
            prose_langs,
            situation,
            situation_by_default,
            situation_contested,
            preferred_section: situation::preferred_section(situation, &memory, &parsed.facts),
            fingerprint: Fingerprint::of_paste(&parsed),
            diagnosis: Some(diagnosis::diagnose(&parsed, &memory, text, lang)),
            memory,
            parsed,
        }
    }

    /// Reads typed words (any of ar, hi, fr, en, or error text) searched from a `lang` page.
    pub fn query(query: &'a str, lang: Lang) -> Reading<'a> {
        let parsed = traceback::parse(query);
        let mut prose_langs = vec![lang];
        if let Some(detected) = detect_language(query) {
            prose_langs.push(detected);
        }
        if query.chars().any(|c| c.is_ascii_alphabetic()) {
            prose_langs.push(Lang::En);
        }
        prose_langs.sort();
        prose_langs.dedup();
        let (situation, situation_by_default) = situation::read_situation(&parsed, query);
        Reading {
            text: query,
            prose: query.to_owned(),
            code: query.to_owned(),
            prose_langs,
            situation,
            situation_by_default,
            situation_contested: false,
            memory: situation::read_memory(&parsed.facts),
            preferred_section: None,
            fingerprint: Fingerprint::of_query(&parsed, query),
            diagnosis: None,
            parsed,
        }
    }
}

impl Reading<'_> {
    /// A paste whose reader said where its out-of-memory error struck (the answer to
    /// [`situation_question`]): what they saw outweighs what the text lets us guess. Other
    /// errors have no such situation, so for them the statement changes nothing.
    pub fn stated(mut self, situation: Option<Situation>) -> Self {
        if let Some(situation) = situation.filter(|_| self.parsed.kind == ErrorKind::CudaOom) {
            self.situation = situation;
            self.situation_by_default = false;
            self.situation_contested = false;
            self.preferred_section =
                situation::preferred_section(situation, &self.memory, &self.parsed.facts);
        }
        self
    }

    /// PyTorch's CUDA out-of-memory message as the paste prints it, when that is the error
    /// read: its parsed message and every line that holds one of its wordings (a paste may
    /// print it twice, through two allocators).
    pub fn out_of_memory_message(&self) -> Option<String> {
        if self.parsed.kind != ErrorKind::CudaOom {
            return None;
        }
        let mut message = self.parsed.message.clone().unwrap_or_default();
        for line in self.text.lines().filter(|line| {
            line.contains("OutOfMemoryError")
                || line.contains("CUDA out of memory")
                || line.contains("(out of memory)")
        }) {
            message.push('\n');
            message.push_str(line);
        }
        Some(message)
    }

    /// An out-of-memory paste whose situation was only guessed, holding a message of one
    /// memory group's own (`own_messages`: SGLang's "KV cache pool is full", ComfyUI's
    /// "retrying with tiled VAE decoding"): the library that printed it says where the error
    /// struck. Messages of two such groups contradict each other and leave the guess.
    pub fn signed(mut self, own_messages: &BTreeSet<String>) -> Self {
        if !self.situation_by_default {
            return self;
        }
        let mut named = own_messages
            .iter()
            .filter_map(|group| Situation::of_group(group))
            .filter(|situation| situation.is_told_by_library_messages());
        if let (Some(situation), None) = (named.next(), named.next()) {
            self.situation = situation;
            self.situation_by_default = false;
            self.preferred_section =
                situation::preferred_section(situation, &self.memory, &self.parsed.facts);
        }
        self
    }

    /// Typed words read again with the English names of the concepts they name (from the
    /// glossaries): `الكومبايل` or `ديفيوجن` tell the situation what `torch.compile` or
    /// `diffusion` would.
    pub fn glossed(mut self, english_names: &[String]) -> Self {
        if english_names.is_empty() {
            return self;
        }
        let glossed = format!("{}\n{}", self.text, names_said_in(self.text, english_names));
        (self.situation, self.situation_by_default) =
            situation::read_situation(&self.parsed, &glossed);
        self
    }

    /// Typed words that set one phase against the other ("training runs fine, but at
    /// evaluation memory fills up"): the error struck in the phase named on the side of the
    /// contrast that says memory ran out. `names_in` gives the English names of the concepts
    /// a part of the text names.
    pub fn contrasted(mut self, names_in: impl Fn(&str) -> Vec<String>) -> Self {
        let read_from_phase = matches!(
            self.situation,
            Situation::TrainingOom | Situation::InferenceOom | Situation::LlmFinetune
        );
        if !read_from_phase {
            return self;
        }
        let lower = self.text.to_lowercase();
        let read = |part: &str| {
            let glossed =
                format!("{part}\n{}", names_said_in(part, &names_in(part))).to_lowercase();
            (
                situation::single_phase_named(&glossed),
                situation::mentions_running_out(&glossed),
            )
        };
        for (before, after) in situation::contrast_splits(&lower) {
            let (phase_before, ran_out_before) = read(before);
            let (phase_after, ran_out_after) = read(after);
            let phase = match (ran_out_before, ran_out_after) {
                (false, true) => phase_after,
                (true, false) => phase_before,
                _ => None,
            };
            let Some(inference) = phase else {
                continue;
            };
            self.situation = match (inference, self.situation) {
                (true, _) => Situation::InferenceOom,
                (false, Situation::LlmFinetune) => Situation::LlmFinetune,
                (false, _) => Situation::TrainingOom,
            };
            self.situation_by_default = false;
            break;
        }
        self
    }
}

/// The concepts' English names that `text` names, one a line, for reading its situation
/// again; a phase's name is left out where the text names that phase only as one it has
/// left behind or compares against ("ट्रेनिंग के बाद", "more than training").
fn names_said_in(text: &str, english_names: &[String]) -> String {
    let left_behind = situation::PhasesLeftBehind::of(&text.to_lowercase());
    english_names
        .iter()
        .map(String::as_str)
        .filter(|name| !left_behind.names(name))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The prose of a paste: frame lines, source lines under them and C++ frames removed; the
/// head and the tail of a long paste.
fn prose_of(text: &str) -> String {
    let bounded = if text.len() > PROSE_HEAD_BYTES + PROSE_TAIL_BYTES {
        let head = floor_char_boundary(text, PROSE_HEAD_BYTES);
        let tail = floor_char_boundary(text, text.len() - PROSE_TAIL_BYTES);
        format!("{}\n{}", &text[..head], &text[tail..])
    } else {
        text.to_owned()
    };
    let mut out = String::with_capacity(bounded.len());
    let mut skip_next = false;
    for line in bounded.lines() {
        let trimmed = line.trim_start_matches(['>', ' ', '\t', '`']);
        if skip_next {
            skip_next = false;
            if line.starts_with(char::is_whitespace) {
                continue;
            }
        }
        if trimmed.starts_with("File \"") {
            skip_next = true;
            continue;
        }
        if trimmed.starts_with("frame #") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Error text for the language-neutral fields: exception, message, distinctive lines and the
/// functions the traceback went through.
fn code_of(parsed: &Parsed, text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    out.extend(parsed.exception.clone());
    out.extend(parsed.message.clone());
    // The error line usually repeats the message: analyze each text once.
    for line in &parsed.error_lines {
        if !out.iter().any(|seen| seen.contains(line.as_str())) {
            out.push(line.clone());
        }
    }
    let mut functions = BTreeSet::new();
    for frame in &parsed.frames {
        if !frame.function.is_empty() && functions.insert(frame.function.clone()) {
            out.push(frame.function.clone());
        }
    }
    if out.is_empty() {
        out.push(text.chars().take(4096).collect());
    }
    out.join("\n")
}

fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paste_is_read_once_into_every_part_the_answer_needs() {
        let seed = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/eval/seed-oom-example.txt"
        ));
        let reading = Reading::paste(seed, Lang::Fr);
        assert_eq!(reading.situation, Situation::TrainingOom);
        assert_eq!(reading.fingerprint.kind, "cuda_oom");
        assert!(!reading.prose.contains("File \""), "{}", reading.prose);
        assert!(reading.code.contains("estimate_loss"), "{}", reading.code);
        let diagnosis = reading.diagnosis.expect("a paste is diagnosed");
        assert_eq!(diagnosis.facts.tried_to_allocate_bytes, Some(6_592_774_799));
    }

    #[test]
    fn a_stated_situation_replaces_the_guess_of_an_out_of_memory_error_only() {
        let oom = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB";
        assert!(Reading::paste(oom, Lang::Fr).situation_by_default);
        let stated = Reading::paste(oom, Lang::Fr).stated(Some(Situation::Diffusion));
        assert_eq!(
            (stated.situation, stated.situation_by_default),
            (Situation::Diffusion, false)
        );
        let shapes = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x3 and 5x6)";
        let unchanged = Reading::paste(shapes, Lang::Fr);
        let stated = Reading::paste(shapes, Lang::Fr).stated(Some(Situation::Diffusion));
        assert_eq!(stated.situation, unchanged.situation);
    }

    #[test]
    fn hinglish_typed_on_an_english_page_is_read_as_hindi_and_english() {
        let reading = Reading::query("gpu memory khatam ho gayi training ke time", Lang::En);
        assert_eq!(reading.prose_langs, vec![Lang::Hi, Lang::En]);
    }

    #[test]
    fn a_query_is_read_in_the_page_language_its_own_and_english() {
        let reading = Reading::query("mémoire insuffisante pendant la validation", Lang::Ar);
        assert_eq!(reading.prose_langs, vec![Lang::Ar, Lang::Fr, Lang::En]);
        assert_eq!(reading.situation, Situation::InferenceOom);
        assert_eq!(reading.fingerprint.kind, QUERY_KIND);
        assert!(reading.diagnosis.is_none());
    }

    #[test]
    fn long_pastes_keep_the_head_and_the_tail_of_their_prose() {
        let text = format!("début {} fin", "x".repeat(100_000));
        let prose = prose_of(&text);
        assert!(prose.starts_with("début") && prose.trim_end().ends_with("fin"));
        assert!(prose.len() < 30 * 1024);
    }

    #[test]
    fn the_phase_on_the_side_of_a_contrast_that_ran_out_is_where_it_struck() {
        // Glossary names as the engine would give them: the words themselves stand in.
        let no_names = |_: &str| Vec::new();
        let typed = |text| {
            Reading::query(text, Lang::Hi)
                .contrasted(no_names)
                .situation
        };
        assert_eq!(
            typed("training and training loss are fine but evaluation: out of memory"),
            Situation::InferenceOom
        );
        assert_eq!(
            typed("evaluation: out of memory, but training and training loss are fine"),
            Situation::InferenceOom
        );
        assert_eq!(
            typed("evaluation and evaluation metrics are fine but training: out of memory"),
            Situation::TrainingOom
        );
        // "par" is also "on": a split whose side that ran out names no phase says nothing.
        assert_eq!(
            typed("validation data par out of memory aata hai, kya karu"),
            Situation::InferenceOom
        );
        // The names of the concepts in a part count as its words.
        let names = |part: &str| {
            if part.contains("check") {
                vec!["evaluation".to_owned(), "out of memory".to_owned()]
            } else {
                Vec::new()
            }
        };
        let reading = Reading::query(
            "training to thik h par model ko check karte memory bhar",
            Lang::Hi,
        )
        .glossed(&["training".to_owned(), "out of memory".to_owned()])
        .contrasted(names);
        assert_eq!(reading.situation, Situation::InferenceOom);
        assert!(!reading.situation_by_default);
    }
}
