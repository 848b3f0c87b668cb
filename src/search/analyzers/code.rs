//! The code analyzer, for error messages and identifiers: each whole identifier plus its
//! parts at the same position, like Elasticsearch's `word_delimiter_graph` with
//! `preserve_original`.
//!
//! A whole token is a run of letters, digits, combining marks and `_`, joined across `.`, `-`
//! and `٫` when a word character follows (`torch.OutOfMemoryError`, `sm_86`, `6.14`,
//! `device-side`). Its parts come in two levels (a part equal to one given before is skipped):
//! 1. split at `.`, `-`, `_` (a `.` or `٫` between digits is part of a number, not a split);
//! 2. each of those split at case changes (`OutOfMemory` → out, of, memory; `OOMError` → oom,
//!    error) and letter/digit changes (`6.14GiB` → 6.14, gib); units (`GiB`, `MiB`, `kB`)
//!    stay whole.
//!
//! `torch.OutOfMemoryError` → `torch.outofmemoryerror`, `torch`, `outofmemoryerror`, `out`,
//! `of`, `memory`, `error`. All text is lowercased (after NFKC, with ASCII digits); no stop
//! words, no stemming. Tokens over [`MAX_CODE_TOKEN_CHARS`] chars are dropped (their shorter
//! parts are still kept).
//!
//! Parts carry the offsets of their whole, not their own span: tantivy's `SnippetGenerator`
//! assumes both token starts and ends never decrease, which nested spans would break (it
//! slices out of range). So a hit on `memory` highlights all of `torch.OutOfMemoryError`.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};
use unicode_normalization::char::is_combining_mark;

use super::Distinct;
use super::filter::{base_fold, char_len};

/// Longest whole identifier or part kept, in chars.
pub const MAX_CODE_TOKEN_CHARS: usize = 64;

/// Units that look like camel case but are one word.
const UNITS: [&str; 6] = ["kib", "mib", "gib", "tib", "pib", "kb"];

#[derive(Clone, Default)]
pub struct CodeTokenizer;

impl Tokenizer for CodeTokenizer {
    type TokenStream<'a> = CodeStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> CodeStream<'a> {
        CodeStream {
            text,
            cursor: 0,
            pending: VecDeque::new(),
            token: Token::default(),
        }
    }
}

pub struct CodeStream<'a> {
    text: &'a str,
    /// Byte offset where the scan for the next whole token resumes.
    cursor: usize,
    /// Tokens of the current whole (whole and parts), all at one position.
    pending: VecDeque<Token>,
    token: Token,
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || is_combining_mark(c) || matches!(c, '\u{200C}' | '\u{200D}')
}

fn is_joiner(c: char) -> bool {
    matches!(c, '.' | '-' | '\u{066B}')
}

impl CodeStream<'_> {
    /// Finds the next whole token's byte span, from `cursor` on.
    fn next_whole(&mut self) -> Option<(usize, usize)> {
        let rest = self.text.get(self.cursor..)?;
        let mut chars = rest.char_indices().peekable();
        let mut start = None;
        let mut end = rest.len();
        while let Some((i, c)) = chars.next() {
            match start {
                None if is_word_char(c) => start = Some(i),
                None => {}
                Some(_) if is_word_char(c) => {}
                Some(_) if is_joiner(c) && chars.peek().is_some_and(|&(_, n)| is_word_char(n)) => {}
                Some(_) => {
                    end = i;
                    break;
                }
            }
        }
        let from = self.cursor + start?;
        let to = self.cursor + end;
        self.cursor = to;
        Some((from, to))
    }

    /// Queues the whole token and its parts, all at `position` and all with the whole's
    /// offsets.
    fn queue(&mut self, from: usize, to: usize, position: usize) {
        let Some(whole) = self.text.get(from..to) else {
            return;
        };
        let mut spans = vec![(0, whole.len())];
        for (p_from, p_to) in split_delimiters(whole) {
            spans.push((p_from, p_to));
            let part = whole.get(p_from..p_to).unwrap_or_default();
            spans.extend(
                split_case_and_digits(part)
                    .into_iter()
                    .map(|(s_from, s_to)| (p_from + s_from, p_from + s_to)),
            );
        }
        // `pending` holds this whole's tokens only: it is empty when the next whole is read.
        for (k, &(s_from, s_to)) in spans.iter().enumerate() {
            // A part spanning what an earlier one spans gives the same token (`line` is its
            // own whole, part and sub-part).
            if spans[..k].contains(&(s_from, s_to)) {
                continue;
            }
            let Some(raw) = whole.get(s_from..s_to) else {
                continue;
            };
            if raw.chars().take(MAX_CODE_TOKEN_CHARS + 1).count() > MAX_CODE_TOKEN_CHARS {
                continue;
            }
            let text = base_fold(raw);
            // A part equal to the whole or to an earlier part adds nothing.
            if text.is_empty()
                || char_len(&text) > MAX_CODE_TOKEN_CHARS
                || self.pending.iter().any(|token| token.text == text)
            {
                continue;
            }
            self.pending.push_back(Token {
                offset_from: from,
                offset_to: to,
                position,
                text,
                position_length: 1,
            });
        }
    }
}

impl TokenStream for CodeStream<'_> {
    fn advance(&mut self) -> bool {
        loop {
            if let Some(token) = self.pending.pop_front() {
                self.token = token;
                return true;
            }
            let Some((from, to)) = self.next_whole() else {
                return false;
            };
            let position = self.token.position.wrapping_add(1);
            // Keep the position even when everything of this whole is dropped, so the next
            // whole token does not reuse it.
            self.token.position = position;
            self.queue(from, to, position);
        }
    }

    fn token(&self) -> &Token {
        &self.token
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.token
    }
}

/// [`super::analyze_distinct`] for code: a whole identifier written again gives the same
/// tokens, so it is split and folded once.
pub fn distinct_tokens(text: &str, max_tokens: usize) -> Vec<String> {
    let mut tokenizer = CodeTokenizer;
    let mut stream = tokenizer.token_stream(text);
    // Per whole as written: how many tokens it gives.
    let mut counts: FxHashMap<&str, usize> = FxHashMap::default();
    let mut distinct = Distinct::default();
    while distinct.counted < max_tokens {
        let Some((from, to)) = stream.next_whole() else {
            break;
        };
        let whole = text.get(from..to).unwrap_or_default();
        if let Some(&count) = counts.get(whole) {
            distinct.counted += count;
            continue;
        }
        stream.queue(from, to, 0);
        counts.insert(whole, stream.pending.len());
        for token in stream.pending.drain(..) {
            if distinct.counted == max_tokens {
                break;
            }
            distinct.add(&token.text);
        }
    }
    distinct.tokens
}

/// Level 1: byte spans between `.`, `-`, `_`, `٫` (except a `.`/`٫` inside a number).
fn split_delimiters(whole: &str) -> Vec<(usize, usize)> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut prev: Option<char> = None;
    let mut chars = whole.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let in_number = matches!(c, '.' | '\u{066B}')
            && prev.is_some_and(char::is_numeric)
            && next.is_some_and(char::is_numeric);
        if matches!(c, '.' | '-' | '_' | '\u{066B}') && !in_number {
            if i > start {
                parts.push((start, i));
            }
            start = i + c.len_utf8();
        }
        prev = Some(c);
    }
    if whole.len() > start {
        parts.push((start, whole.len()));
    }
    parts
}

/// Level 2: byte spans split at lower→upper, UPPER→Upper-lower and letter↔digit changes.
fn split_case_and_digits(part: &str) -> Vec<(usize, usize)> {
    let chars: Vec<(usize, char)> = part.char_indices().collect();
    let mut spans = Vec::new();
    let mut start = 0;
    for (k, pair) in chars.windows(2).enumerate() {
        let [(_, a), (i, b)] = pair else { continue };
        let after = chars.get(k + 2).map(|&(_, c)| c);
        // `GPUs`: a plural `s` after an acronym does not start a word.
        let plural_s = after == Some('s') && k + 3 == chars.len();
        let boundary = (a.is_lowercase() && b.is_uppercase())
            || (a.is_uppercase()
                && b.is_uppercase()
                && after.is_some_and(char::is_lowercase)
                && !plural_s)
            || (a.is_alphabetic() && b.is_numeric())
            || (a.is_numeric() && b.is_alphabetic());
        if boundary {
            spans.push((start, *i));
            start = *i;
        }
    }
    if part.len() > start {
        spans.push((start, part.len()));
    }
    merge_units(part, spans)
}

/// Joins neighbouring spans that together spell a unit (`Gi` + `B`).
fn merge_units(part: &str, spans: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
    for (from, to) in spans {
        if let Some(last) = merged.last_mut()
            && part
                .get(last.0..to)
                .is_some_and(|s| UNITS.contains(&s.to_lowercase().as_str()))
        {
            last.1 = to;
            continue;
        }
        merged.push((from, to));
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<Token> {
        let mut tokenizer = CodeTokenizer;
        let mut stream = tokenizer.token_stream(text);
        let mut out = Vec::new();
        while let Some(t) = stream.next() {
            out.push(t.clone());
        }
        out
    }

    fn texts(text: &str) -> Vec<String> {
        tokens(text).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn identifier_table() {
        let table: [(&str, &[&str]); 15] = [
            (
                "torch.OutOfMemoryError",
                &[
                    "torch.outofmemoryerror",
                    "torch",
                    "outofmemoryerror",
                    "out",
                    "of",
                    "memory",
                    "error",
                ],
            ),
            ("estimate_loss", &["estimate_loss", "estimate", "loss"]),
            (
                "PYTORCH_CUDA_ALLOC_CONF",
                &[
                    "pytorch_cuda_alloc_conf",
                    "pytorch",
                    "cuda",
                    "alloc",
                    "conf",
                ],
            ),
            (
                "CUBLAS_STATUS_ALLOC_FAILED",
                &[
                    "cublas_status_alloc_failed",
                    "cublas",
                    "status",
                    "alloc",
                    "failed",
                ],
            ),
            ("6.14", &["6.14"]),
            ("GiB", &["gib"]),
            ("6.14GiB", &["6.14gib", "6.14", "gib"]),
            ("sm_86", &["sm_86", "sm", "86"]),
            ("OOMError", &["oomerror", "oom", "error"]),
            ("__init__", &["__init__", "init"]),
            ("GPUs", &["gpus"]),
            ("device-side", &["device-side", "device", "side"]),
            ("٦٫١٤", &["6.14"]),
            ("CUDA", &["cuda"]),
            ("त्रुटि", &["त्रुटि"]),
        ];
        for (text, expected) in table {
            assert_eq!(texts(text), expected, "{text}");
        }
    }

    #[test]
    fn parts_share_the_position_of_their_whole() {
        let t = tokens("a torch.OutOfMemoryError b");
        let positions: Vec<usize> = t.iter().map(|t| t.position).collect();
        assert_eq!(positions, [0, 1, 1, 1, 1, 1, 1, 1, 2]);
    }

    #[test]
    fn parts_carry_the_offsets_of_their_whole() {
        let text = "x torch.OutOfMemoryError";
        let spans: Vec<&str> = tokens(text)
            .iter()
            .map(|t| &text[t.offset_from..t.offset_to])
            .collect();
        assert_eq!(spans[0], "x");
        assert!(spans[1..].iter().all(|s| *s == "torch.OutOfMemoryError"));
        assert_eq!(spans.len(), 8);
    }

    #[test]
    fn error_line_is_cut_at_punctuation() {
        assert_eq!(
            texts("Tried to allocate 6.14 GiB (GPU 0; 11.76 GiB total)"),
            [
                "tried", "to", "allocate", "6.14", "gib", "gpu", "0", "11.76", "gib", "total"
            ]
        );
        assert_eq!(
            texts("expandable_segments:True --flag"),
            [
                "expandable_segments",
                "expandable",
                "segments",
                "true",
                "flag"
            ]
        );
    }

    #[test]
    fn long_tokens_are_dropped_by_chars_but_parts_stay() {
        let long = "ज".repeat(MAX_CODE_TOKEN_CHARS + 1);
        assert_eq!(texts(&long), Vec::<String>::new());
        let ok = "ज".repeat(MAX_CODE_TOKEN_CHARS);
        assert_eq!(texts(&ok), std::slice::from_ref(&ok));
        let joined = format!("{ok}_x");
        assert_eq!(texts(&joined), [ok, "x".to_string()]);
    }
}
