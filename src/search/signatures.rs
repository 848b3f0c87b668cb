//! Error signatures: the `errors:` fragments of every article, found verbatim in a paste.
//!
//! Matching ignores case and all whitespace, so a terminal's hard wrap in the middle of a
//! word ("Tried to allo\ncate") or doubled spaces do not hide a fragment. One Aho-Corasick
//! pass over the paste finds every fragment at once, whatever the number of articles.
//!
//! Weighing: fragments found over overlapping stretches of the paste are wordings of one
//! message ("RuntimeError: CUDA out of memory", "CUDA out of memory. Tried to allocate"), so
//! they are weighed together: the fewer groups claim that stretch, the more it tells (an
//! IDF over the stretch, not over the exact wording), and a longer fragment tells more than
//! a shorter one. A group counts its strongest stretch in full and the others at a quarter,
//! so an article listing five wordings of one message does not outweigh one listing it once.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

use crate::content::Library;

/// Fragments shorter than this (squashed) would match by accident inside other words.
const MIN_FRAGMENT_CHARS: usize = 8;
/// Past this length a fragment is not more telling, only longer.
const LENGTH_CAP: usize = 80;
const EXTRA_STRETCH_SHARE: f32 = 0.25;
/// What a fragment found only on a warning line weighs: a warning printed on the way is
/// a clue, the exception the run died of is the error (bitsandbytes warns that it was built
/// without GPU support when the real failure is a CPU-only PyTorch).
const WARNING_SHARE: f32 = 0.25;
/// A message this long that one group alone lists is that library's own wording ("KV cache
/// pool is full", "retrying with tiled VAE decoding"), not a shared out-of-memory line.
const OWN_MESSAGE_CHARS: usize = 24;

pub struct Signatures {
    automaton: Option<AhoCorasick>,
    /// Per pattern: the groups listing it and its squashed length.
    patterns: Vec<(Vec<String>, usize)>,
    /// Per pattern: its squashed text.
    needles: Vec<String>,
    group_count: usize,
}

/// What the fragments found in a paste tell.
#[derive(Debug, Default)]
pub struct FoundSignatures {
    /// Per group, the evidence its fragments give.
    pub scores: HashMap<String, f32>,
    /// Groups named by a message of their own: a long stretch no other group claims.
    pub own_messages: BTreeSet<String>,
}

/// Lowercase, with whitespace, quotes and backticks removed (and JSON-escaped line breaks).
pub fn squash(text: &str) -> String {
    if text.is_ascii() {
        return squash_ascii(text.as_bytes());
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.next_if(|&n| n == 'n' || n == 't').is_some() {
            continue;
        }
        if c.is_whitespace() || matches!(c, '`' | '"' | '\'' | '’') {
            continue;
        }
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// [`squash`] byte by byte, for the common all-ASCII paste.
fn squash_ascii(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\\' && matches!(bytes.get(i + 1), Some(b'n' | b't')) {
            i += 2;
            continue;
        }
        // `char::is_whitespace` in ASCII, vertical tab included.
        if !matches!(
            b,
            b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r' | b'`' | b'"' | b'\''
        ) {
            out.push(char::from(b.to_ascii_lowercase()));
        }
        i += 1;
    }
    out
}

impl Signatures {
    pub fn new(library: &Library) -> Self {
        let mut groups_of: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for article in library.articles() {
            for fragment in &article.errors {
                let squashed = squash(fragment);
                if squashed.chars().count() >= MIN_FRAGMENT_CHARS {
                    groups_of
                        .entry(squashed)
                        .or_default()
                        .insert(article.id.clone());
                }
            }
        }
        let mut needles = Vec::with_capacity(groups_of.len());
        let mut patterns = Vec::with_capacity(groups_of.len());
        for (squashed, groups) in groups_of {
            patterns.push((groups.into_iter().collect(), squashed.chars().count()));
            needles.push(squashed);
        }
        // A full DFA (a few hundred patterns: well under a megabyte) scans a paste several
        // times faster than the default NFA, and every request scans one.
        let automaton = AhoCorasick::builder()
            .kind(Some(AhoCorasickKind::DFA))
            .match_kind(MatchKind::Standard)
            .build(&needles)
            .ok();
        Signatures {
            automaton,
            patterns,
            needles,
            group_count: library.group_ids().count().max(1),
        }
    }

    /// Per group, the evidence its fragments found in `text` give (absent when none), and
    /// the groups that a message of their own names outside `error_message`: PyTorch's own
    /// out-of-memory message is printed by every library alike, whichever group lists a
    /// wording of it ("allocated in private pools", "would exceed allowed memory").
    pub fn find(&self, text: &str, error_message: Option<&str>) -> FoundSignatures {
        let Some(automaton) = &self.automaton else {
            return FoundSignatures::default();
        };
        let haystack = squash(text);
        let warnings = warning_spans(text);
        let mut found: Vec<(usize, usize, usize)> = automaton
            .find_overlapping_iter(&haystack)
            .map(|m| (m.start(), m.end(), m.pattern().as_usize()))
            .collect();
        found.sort_unstable();

        let mut per_group: HashMap<String, Vec<f32>> = HashMap::new();
        let mut own_messages = BTreeSet::new();
        let error_message = error_message.map(squash).unwrap_or_default();
        let mut weigh = |stretch: &[usize], share: f32| {
            self.weigh_stretch(stretch, share, &mut per_group);
            if let Some(group) = self.own_message(stretch, &error_message) {
                own_messages.insert(group.to_owned());
            }
        };
        let mut stretch: Vec<usize> = Vec::new();
        let mut stretch_start = 0;
        let mut stretch_end = 0;
        for (start, end, pattern) in found {
            if !stretch.is_empty() && start >= stretch_end {
                weigh(
                    &stretch,
                    stretch_share(&warnings, stretch_start, stretch_end),
                );
                stretch.clear();
            }
            if stretch.is_empty() {
                stretch_start = start;
            }
            stretch.push(pattern);
            stretch_end = stretch_end.max(end);
        }
        weigh(
            &stretch,
            stretch_share(&warnings, stretch_start, stretch_end),
        );

        let scores = per_group
            .into_iter()
            .map(|(group, mut weights)| {
                weights.sort_by(|a, b| b.total_cmp(a));
                let strongest = weights.first().copied().unwrap_or(0.0);
                let rest: f32 = weights.iter().skip(1).sum();
                (group, strongest + EXTRA_STRETCH_SHARE * rest)
            })
            .collect();
        FoundSignatures {
            scores,
            own_messages,
        }
    }

    fn weigh_stretch(
        &self,
        stretch: &[usize],
        share: f32,
        per_group: &mut HashMap<String, Vec<f32>>,
    ) {
        let mut longest: BTreeMap<&str, usize> = BTreeMap::new();
        for (groups, length) in stretch.iter().filter_map(|&p| self.patterns.get(p)) {
            for group in groups {
                let best = longest.entry(group.as_str()).or_insert(0);
                *best = (*best).max(*length);
            }
        }
        if longest.is_empty() {
            return;
        }
        let idf = (1.0 + self.group_count as f32 / longest.len() as f32).ln();
        for (group, length) in longest {
            let weight = (length.min(LENGTH_CAP) as f32).sqrt() * idf * share;
            per_group.entry(group.to_owned()).or_default().push(weight);
        }
    }
}

impl Signatures {
    /// The group a stretch is a message of its own of: the only group listing its
    /// fragments, with one long enough to be a library's wording, outside `error_message`.
    fn own_message(&self, stretch: &[usize], error_message: &str) -> Option<&str> {
        let mut group = None;
        let mut own = false;
        for &pattern in stretch {
            let (groups, length) = self.patterns.get(pattern)?;
            let [only] = &groups[..] else {
                return None;
            };
            if group.is_some_and(|g| g != only.as_str()) {
                return None;
            }
            group = Some(only.as_str());
            own |= *length >= OWN_MESSAGE_CHARS
                && !error_message.contains(self.needles.get(pattern)?.as_str());
        }
        group.filter(|_| own)
    }
}

/// The stretches of the squashed text that come from warning lines (`UserWarning: …`,
/// `WARNING:bitsandbytes…`, `[WARNING] …`), as squashed byte ranges.
fn warning_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    if !text.contains("arning") && !text.contains("ARNING") {
        return spans;
    }
    let mut offset = 0;
    for line in text.split('\n') {
        let length = squash(line).len();
        if is_warning_line(line) {
            match spans.last_mut() {
                Some((_, end)) if *end == offset => *end += length,
                _ => spans.push((offset, offset + length)),
            }
        }
        offset += length;
    }
    spans
}

fn is_warning_line(line: &str) -> bool {
    let lower = line
        .trim_start()
        .chars()
        .take(160)
        .collect::<String>()
        .to_ascii_lowercase();
    lower.starts_with("warning")
        || lower.starts_with("[warning")
        || lower.contains("warning:")
        || lower.contains(" - warning - ")
}

/// The weight share of the stretch `start..end`: reduced when it lies on warning lines.
fn stretch_share(warnings: &[(usize, usize)], start: usize, end: usize) -> f32 {
    if warnings
        .iter()
        .any(|&(from, to)| from <= start && end <= to)
    {
        WARNING_SHARE
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squash_undoes_wraps_case_and_quotes() {
        assert_eq!(squash("Tried to allo\ncate `X`"), "triedtoallocatex");
        assert_eq!(squash("a\\nb"), "ab");
        assert_eq!(squash("a\\tB\\x"), "ab\\x");
        assert_eq!(squash("Mémoire ÉPUISÉE\\n"), "mémoireépuisée");
        assert_eq!(squash("A\u{0B}b\u{0C}c\rd"), "abcd");
        assert_eq!(squash("A\u{0B}b\u{0C}c\ré"), "abcé");
    }

    fn signatures_of(groups: &[(&str, &[&str])]) -> Signatures {
        let mut groups_of: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (group, fragments) in groups {
            for fragment in *fragments {
                groups_of
                    .entry(squash(fragment))
                    .or_default()
                    .insert((*group).to_owned());
            }
        }
        let (needles, patterns): (Vec<String>, Vec<_>) = groups_of
            .into_iter()
            .map(|(needle, groups)| {
                let length = needle.chars().count();
                (needle, (groups.into_iter().collect(), length))
            })
            .unzip();
        Signatures {
            automaton: AhoCorasick::new(&needles).ok(),
            patterns,
            needles,
            group_count: groups.len(),
        }
    }

    #[test]
    fn a_long_message_one_group_lists_outside_the_error_message_is_its_own() {
        let signatures = signatures_of(&[
            (
                "serving",
                &[
                    "KV cache pool is full. Retract requests.",
                    "CUDA out of memory",
                ],
            ),
            ("training", &["CUDA out of memory", "Tried to allocate"]),
            (
                "compile",
                &["allocated in private pools (e.g., CUDA Graphs)"],
            ),
        ]);
        let oom = "CUDA out of memory. Tried to allocate 2 GiB, with 1 GiB allocated in private pools (e.g., CUDA Graphs)";
        let log = format!("KV cache pool is full. Retract requests.\n{oom}");
        let found = signatures.find(&log, Some(oom));
        assert_eq!(found.own_messages, BTreeSet::from(["serving".to_owned()]));
        assert!(found.scores["serving"] > found.scores["training"]);
        // Shared, short or inside PyTorch's message: nobody's own.
        assert!(signatures.find(oom, Some(oom)).own_messages.is_empty());
        let compile = signatures.find(oom, None).own_messages;
        assert_eq!(compile, BTreeSet::from(["compile".to_owned()]));
    }

    #[test]
    fn warning_lines_are_found_in_squashed_offsets() {
        let text = "Traceback:\nUserWarning: a b\nWARNING:bnb: c d\nRuntimeError: e f";
        // "traceback:" is 10 squashed bytes, the two warning lines 14 each, side by side.
        assert_eq!(warning_spans(text), vec![(10, 38)]);
        assert_eq!(stretch_share(&warning_spans(text), 12, 20), WARNING_SHARE);
        assert_eq!(stretch_share(&warning_spans(text), 30, 40), 1.0);
        assert!(warning_spans("RuntimeError: CUDA error").is_empty());
    }
}
