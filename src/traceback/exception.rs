//! Exception lines (`RuntimeError: …`), and the one that is the paste's error.
//!
//! Candidates are lines that start with an exception name (after quotes, emphasis or a `| `
//! group marker), VS Code's "Exception has occurred: X" (the message is on the next line), and,
//! failing those, a name followed by `: ` inside prose ("it reports "RuntimeError: …""). For a
//! known family (OOM, CUDA error) the error is the candidate on a line that shows the family's
//! keywords; otherwise the last candidate, as Python prints the final exception last.
//!
//! A message continues on following lines only where that looks like a hard wrap: a word or
//! number cut in two ("allo|cate"), or a terminal's full-width lines (at least 40 characters,
//! all of one length, the last no longer, and not a sentence end followed by a capital unless
//! the lengths prove the wrap). Wrapped pieces are joined without a space, so a word cut in two
//! is whole again; a wrap that fell on a space the copy trimmed glues two words (the numbers
//! are read elsewhere and do not suffer).

use super::classify;
use super::normalize::Line;
use super::{ErrorKind, MAX_MESSAGE_CHARS};
use aho_corasick::AhoCorasick;
use regex::Regex;
use std::sync::LazyLock;

/// An exception name printed on a line.
#[derive(Debug, Clone)]
pub(super) struct Candidate {
    pub line: usize,
    pub name: String,
    /// Byte offset of the message on its line (after `Name: `); the line's end when none.
    pub message_at: usize,
    /// Quote or emphasis characters just before the name, mirrored at the message's end.
    pub lead: String,
    pub warning: bool,
    /// Found inside a sentence rather than at the start of a line.
    pub midline: bool,
}

/// The paste's error: its line, its exception name when printed, and its message.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Chosen {
    pub line: usize,
    /// The last line the message spans.
    pub last_line: usize,
    pub exception: Option<String>,
    pub message: String,
}

const NAME: &str = r"(?:[A-Za-z_][A-Za-z0-9_]*\.){0,10}[A-Za-z0-9_]*(?:Error|Exception|Exit|Interrupt|Warning|Failed|Fault)";

// The patterns stop at the name (and colon): the message is sliced from the line, so
// capture groups never have to run over a long line.
static LINE_START: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r#"^(?P<lead>[\s`"'*_“”‘’|]*)(?P<name>{NAME})(?P<colon>\s*:)?"#
    ))
    .expect("valid regex")
});

static MIDLINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|(?P<pre>[^\w.]))(?P<name>(?:[A-Za-z_][A-Za-z0-9_]*\.){0,10}[A-Z][A-Za-z0-9_]*(?:Error|Exception))\s*:\s*\S")
        .expect("valid regex")
});

static VSCODE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*Exception has occurred:\s*(?P<name>[\w.]+)\s*$").expect("valid regex")
});

/// Bare suffixes are words people and shells print ("Error: …"), not Python class names.
const NOT_NAMES: [&str; 6] = ["Error", "Warning", "Failed", "Fault", "Exit", "Interrupt"];

pub(super) fn candidates(lines: &[Line]) -> Vec<Candidate> {
    lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| candidate(i, &l.text))
        .collect()
}

/// What every name [`NAME`] matches ends with, and what VS Code's line holds: a line without
/// any of them names no exception, and most lines of a paste do not.
static NAME_ENDINGS: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::new([
        "Error",
        "Exception",
        "Exit",
        "Interrupt",
        "Warning",
        "Failed",
        "Fault",
    ])
    .expect("valid patterns")
});

fn candidate(line: usize, text: &str) -> Option<Candidate> {
    if !NAME_ENDINGS.is_match(text) {
        return None;
    }
    if let Some(c) = VSCODE.captures(text) {
        let name = c.name("name")?.as_str().to_string();
        return Some(Candidate {
            line,
            warning: name.ends_with("Warning"),
            name,
            message_at: text.len(),
            lead: String::new(),
            midline: false,
        });
    }
    if let Some(c) = LINE_START.captures(text) {
        let name = c.name("name")?;
        let end = c.get(0)?.end();
        let rest = text.get(end..).unwrap_or("").trim();
        // IPython's header: "OutOfMemoryError      Traceback (most recent call last)".
        let ipython_header =
            c.name("colon").is_none() && rest.starts_with("Traceback (most recent call last)");
        // Without a colon the name must stand alone on its line.
        let whole = c.name("colon").is_some() || rest.is_empty() || ipython_header;
        if whole && !NOT_NAMES.contains(&name.as_str()) {
            return Some(Candidate {
                line,
                name: name.as_str().to_string(),
                message_at: if ipython_header { text.len() } else { end },
                lead: c.name("lead").map_or("", |m| m.as_str()).trim().to_string(),
                warning: name.as_str().ends_with("Warning"),
                midline: false,
            });
        }
    }
    let c = MIDLINE.captures(text)?;
    let name = c.name("name")?;
    // The match ends just past the message's first character.
    let first = c.get(0)?.as_str().chars().last().map_or(0, char::len_utf8);
    Some(Candidate {
        line,
        name: name.as_str().to_string(),
        message_at: c.get(0)?.end() - first,
        lead: c.name("pre").map_or("", |m| m.as_str()).trim().to_string(),
        warning: false,
        midline: true,
    })
}

/// The paste's error line given the family `kind` found by keywords (if any).
pub(super) fn choose(
    lines: &[Line],
    cands: &[Candidate],
    kind: Option<ErrorKind>,
) -> Option<Chosen> {
    // Candidates are in line order, at most one a line.
    let on_line = |i: usize| {
        cands
            .binary_search_by_key(&i, |c| c.line)
            .ok()
            .and_then(|k| cands.get(k))
    };
    if let Some(kind) = kind {
        let anchors: Vec<usize> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| classify::line_shows(kind, l))
            .map(|(i, _)| i)
            .collect();
        let on_anchor = |warning: bool| {
            anchors
                .iter()
                .rev()
                .filter_map(|&a| on_line(a))
                .find(|c| c.warning == warning)
        };
        if let Some(c) = on_anchor(false).or_else(|| on_anchor(true)) {
            return Some(from_candidate(lines, c));
        }
        if let Some(&first) = anchors.first() {
            // VS Code and some loggers print the class on its own line, the message below it.
            if let Some(c) = first
                .checked_sub(1)
                .and_then(on_line)
                .filter(|c| !c.warning && message_is_empty(lines, c))
            {
                return Some(from_candidate(lines, c));
            }
            let text = lines.get(first).map_or("", |l| l.text.as_str());
            let at = classify::message_start(text);
            let lead = text
                .get(..at)
                .and_then(|s| s.chars().last())
                .map(String::from)
                .unwrap_or_default();
            let (message, last_line) = assemble(lines, first, at, &lead);
            return Some(Chosen {
                line: first,
                last_line,
                exception: None,
                message,
            });
        }
    }
    let last = |midline: bool, warning: bool| {
        cands
            .iter()
            .rev()
            .find(|c| c.midline == midline && c.warning == warning)
    };
    last(false, false)
        .or_else(|| last(true, false))
        .or_else(|| last(false, true))
        .map(|c| from_candidate(lines, c))
}

fn message_is_empty(lines: &[Line], c: &Candidate) -> bool {
    lines
        .get(c.line)
        .and_then(|l| l.text.get(c.message_at..))
        .is_none_or(|m| m.trim().is_empty())
}

pub(super) fn from_candidate(lines: &[Line], c: &Candidate) -> Chosen {
    let (message, last_line) = assemble(lines, c.line, c.message_at, &c.lead);
    Chosen {
        line: c.line,
        last_line,
        exception: Some(c.name.clone()),
        message,
    }
}

/// Lines that begin something else and so end a message.
fn is_stop(line: &Line) -> bool {
    let t = line.trimmed();
    t.is_empty()
        || t.starts_with("Traceback (most recent call last)")
        || t.starts_with("File \"")
        || t.starts_with("frame #")
        || t.starts_with("During handling of the above exception")
        || t.starts_with("The above exception was the direct cause")
        || t.starts_with("Exception raised from")
        || candidate(0, &line.text).is_some_and(|c| !c.midline)
}

/// Lines a message may span (wraps of a long OOM message at 40 columns need ~15).
const MAX_MESSAGE_LINES: usize = 30;

/// The message starting at byte `at` of line `first`, with continuations joined, and the
/// index of its last line. A terminal adds no log prefix to the pieces of a wrapped line, so a
/// wrap continuation has none; lines with the head's own prefix are separate printed lines,
/// joined only when Python indented them (or the head held the class name alone).
pub(super) fn assemble(lines: &[Line], first: usize, at: usize, lead: &str) -> (String, usize) {
    let Some(head) = lines.get(first) else {
        return (String::new(), first);
    };
    let mut message = head.text.get(at..).unwrap_or("").trim_start().to_string();
    let mut previous = head.text.as_str();
    let mut width = char_len(previous);
    let mut wrapped = false;
    let mut last = first;
    for (i, line) in lines
        .iter()
        .enumerate()
        .skip(first + 1)
        .take(MAX_MESSAGE_LINES)
    {
        if is_stop(line) || message.len() > MAX_MESSAGE_CHARS * 4 {
            break;
        }
        let same_record = line.prefix == head.prefix;
        if same_record && message.trim().is_empty() {
            // The name stood alone; its message is the next line.
            message = line.trimmed().to_string();
            width = char_len(&line.text);
            wrapped = false;
        } else if same_record && line.text.starts_with('\t') {
            // Python indents the extra lines of some messages (state_dict key lists).
            message.push('\n');
            message.push_str(line.trimmed());
            width = char_len(&line.text);
            wrapped = false;
        } else if line.prefix.is_empty() && is_wrap(previous, &line.text, width, wrapped) {
            message.push_str(&line.text);
            wrapped = true;
        } else {
            break;
        }
        previous = &line.text;
        last = i;
    }
    (tidy(&message, lead), last)
}

fn char_len(s: &str) -> usize {
    s.chars().count()
}

/// Whether `next` continues `previous` cut by a hard wrap. Either a terminal's: `previous` is
/// full (`width` columns; `chain` tells it was itself a continuation, so its length already
/// proves the width). Or a cut inside a word or number: a letter or digit on both sides with
/// the next piece starting in lower case ("allo|cate", "6.1|4"); a message's own new line
/// starts with a capital, a tab or punctuation.
fn is_wrap(previous: &str, next: &str, width: usize, chain: bool) -> bool {
    let (lp, ln) = (char_len(previous), char_len(next));
    let last = previous.chars().last();
    let first = next.chars().next();
    let mid_word = lp >= 20
        && last.is_some_and(|c| c.is_ascii_alphanumeric())
        && first.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if mid_word {
        return true;
    }
    if lp < 40 || ln > lp || lp != width {
        return false;
    }
    if chain || ln == lp {
        return true;
    }
    let ends_sentence = previous
        .trim_end()
        .chars()
        .last()
        .is_some_and(|c| ".!?:;)]\"'`。".contains(c));
    let starts_anew = first.is_some_and(|c| c.is_uppercase() || !c.is_ascii());
    !(ends_sentence && starts_anew)
}

/// Trims the message, drops quote marks that closed the quoted error in prose, and bounds it.
fn tidy(message: &str, lead: &str) -> String {
    let mut m = message.trim();
    if lead.contains(['*', '_']) {
        m = m.trim_end_matches(['*', '_']).trim_end();
    }
    for (open, close) in [('"', '"'), ('`', '`'), ('“', '”'), ('\'', '\'')] {
        let opened = lead.contains(open);
        let body = m.trim_end_matches(['.', ',', ';']);
        if let Some(inner) = body.strip_suffix(close) {
            // A closing mark counts when the quote opened before the name, or when it is
            // unbalanced in the message (the opening one was outside the message).
            let unbalanced = open == close && inner.matches(close).count() % 2 == 0;
            let unmatched = open != close && !inner.contains(open);
            if opened || (open != '\'' && (unbalanced || unmatched)) {
                m = inner.trim_end();
            }
        }
    }
    match m.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((cut, _)) => m.get(..cut).unwrap_or(m).to_string(),
        None => m.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::normalize::clean_lines;
    use super::*;

    fn chosen(s: &str, kind: Option<ErrorKind>) -> Option<Chosen> {
        let lines = clean_lines(s);
        let cands = candidates(&lines);
        choose(&lines, &cands, kind)
    }

    #[test]
    fn finds_names_at_line_start_in_prose_and_in_vscode() {
        let lines = clean_lines(
            "torch.cuda.OutOfMemoryError: CUDA out\nit said \"RuntimeError: boom\".\nException has occurred: RuntimeError\nError: not a class\n    raise ValueError('x')\n_**KeyError: 'k'**_",
        );
        let c = candidates(&lines);
        let names: Vec<(&str, bool)> = c.iter().map(|c| (c.name.as_str(), c.midline)).collect();
        assert_eq!(
            names,
            vec![
                ("torch.cuda.OutOfMemoryError", false),
                ("RuntimeError", true),
                ("RuntimeError", false),
                ("KeyError", false),
            ]
        );
    }

    #[test]
    fn an_ipython_header_names_the_exception_when_the_message_is_cut_off() {
        let text = "---------------------------------------------------------------------------\nOutOfMemoryError                          Traceback (most recent call last)\nCell In[2], line 7\n----> 7 model = whisperx.load_model(\"large\", device)";
        let parsed = crate::traceback::parse(text);
        assert_eq!(parsed.exception.as_deref(), Some("OutOfMemoryError"));
        assert_eq!(parsed.kind, ErrorKind::CudaOom);
    }

    #[test]
    fn strips_the_quotes_around_an_error_quoted_in_prose() {
        let c = chosen(
            "it reports error \"RuntimeError: CUDA out of memory. Tried to allocate 1 MiB (x)\".",
            Some(ErrorKind::CudaOom),
        );
        assert_eq!(
            c.map(|c| c.message),
            Some("CUDA out of memory. Tried to allocate 1 MiB (x)".to_string())
        );
        let e = chosen(
            "_**RuntimeError: Expected all tensors to be on the same device**_",
            None,
        );
        assert_eq!(
            e.map(|c| c.message),
            Some("Expected all tensors to be on the same device".to_string())
        );
        let k = chosen("KeyError: 'weight'", None);
        assert_eq!(k.map(|c| c.message), Some("'weight'".to_string()));
    }

    #[test]
    fn joins_a_message_hard_wrapped_mid_word() {
        let s = "RuntimeError: CUDA out of memory. Tried to allo\ncate 6.14 GiB. GPU 0 has a total cap\nacity of 11.69 GiB";
        let c = chosen(s, Some(ErrorKind::CudaOom)).map(|c| c.message);
        assert_eq!(
            c.as_deref(),
            Some(
                "CUDA out of memory. Tried to allocate 6.14 GiB. GPU 0 has a total capacity of 11.69 GiB"
            )
        );
    }

    #[test]
    fn does_not_swallow_the_next_sentence_or_log_record() {
        let s = "RuntimeError: CUDA out of memory. Tried to allocate 14.00 MiB (GPU 1; x)\nTableMaster 在训练完成一轮后";
        assert_eq!(
            chosen(s, Some(ErrorKind::CudaOom))
                .map(|c| c.message)
                .as_deref(),
            Some("CUDA out of memory. Tried to allocate 14.00 MiB (GPU 1; x)")
        );
        let t = "RuntimeError: CUDA out of memory. Tried to allocate 190.00 MiB (GPU 0; 3.94 GiB)\n[08/14 07:32:25 d2.engine.hooks]: Total";
        assert!(!chosen(t, Some(ErrorKind::CudaOom)).is_some_and(|c| c.message.contains("Total")));
        let u = "RuntimeError: CUDA error: device-side assert triggered\nCUDA kernel errors might be asynchronously reported at some other API call";
        assert_eq!(
            chosen(u, Some(ErrorKind::CudaError))
                .map(|c| c.message)
                .as_deref(),
            Some("CUDA error: device-side assert triggered")
        );
    }

    #[test]
    fn takes_the_message_from_the_line_after_a_lone_name() {
        let s = "Exception has occurred: RuntimeError\nCUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`\n```";
        let c = chosen(s, Some(ErrorKind::CudaError));
        assert_eq!(
            c.as_ref().and_then(|c| c.exception.as_deref()),
            Some("RuntimeError")
        );
        assert_eq!(
            c.map(|c| c.message).as_deref(),
            Some("CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`")
        );
    }

    #[test]
    fn a_bare_message_without_a_class_starts_at_its_keywords() {
        let c = chosen(
            "at the end I keep getting CUDA out of memory.",
            Some(ErrorKind::CudaOom),
        );
        assert_eq!(c.as_ref().and_then(|c| c.exception.clone()), None);
        assert_eq!(c.map(|c| c.message).as_deref(), Some("CUDA out of memory."));
    }

    #[test]
    fn prefers_the_last_exception_for_plain_python_errors() {
        let s = "Traceback (most recent call last):\nKeyError: 1\nDuring handling of the above exception, another exception occurred:\nValueError: 2\nUserWarning: meh";
        let c = chosen(s, None);
        assert_eq!(c.and_then(|c| c.exception).as_deref(), Some("ValueError"));
    }

    #[test]
    fn bounds_the_message() {
        let long = format!("ValueError: {}", "x".repeat(10_000));
        let c = chosen(&long, None).map(|c| c.message);
        assert_eq!(c.map(|m| m.chars().count()), Some(MAX_MESSAGE_CHARS));
    }
}
