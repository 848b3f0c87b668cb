//! Error signatures: the `errors:` fragments of every article, found verbatim in a paste.
//!
//! Matching ignores case and all whitespace, so a terminal's hard wrap in the middle of a
//! word ("Tried to allo\ncate") or doubled spaces do not hide a fragment. One Aho-Corasick
//! pass over the paste finds every fragment at once, whatever the number of articles.
//! A fragment weighs more the longer it is and the fewer groups list it (an IDF), so
//! "CUDA out of memory", listed by several groups, decides less than
//! "CUBLAS_STATUS_ALLOC_FAILED", listed by one.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use aho_corasick::{AhoCorasick, MatchKind};

use crate::content::Library;

/// Fragments shorter than this (squashed) would match by accident inside other words.
const MIN_FRAGMENT_CHARS: usize = 8;
/// Past this length a fragment is not more telling, only longer.
const LENGTH_CAP: usize = 80;

pub struct Signatures {
    automaton: Option<AhoCorasick>,
    /// Per pattern: the groups listing it and its weight.
    patterns: Vec<(Vec<String>, f32)>,
}

/// Lowercase, with whitespace, quotes and backticks removed (and JSON-escaped line breaks).
pub fn squash(text: &str) -> String {
    text.replace("\\n", "")
        .replace("\\t", "")
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '`' | '"' | '\'' | '’'))
        .flat_map(char::to_lowercase)
        .collect()
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
        let group_count = library.group_ids().count().max(1) as f32;
        let mut needles = Vec::with_capacity(groups_of.len());
        let mut patterns = Vec::with_capacity(groups_of.len());
        for (squashed, groups) in groups_of {
            let length = squashed.chars().count().min(LENGTH_CAP) as f32;
            let idf = (1.0 + group_count / groups.len() as f32).ln();
            patterns.push((groups.into_iter().collect(), length.sqrt() * idf));
            needles.push(squashed);
        }
        let automaton = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .build(&needles)
            .ok();
        Signatures {
            automaton,
            patterns,
        }
    }

    /// Per group, the summed weight of the distinct fragments found in `text`.
    pub fn scores(&self, text: &str) -> HashMap<String, f32> {
        let mut scores = HashMap::new();
        let Some(automaton) = &self.automaton else {
            return scores;
        };
        let haystack = squash(text);
        let found: BTreeSet<usize> = automaton
            .find_overlapping_iter(&haystack)
            .map(|m| m.pattern().as_usize())
            .collect();
        for index in found {
            if let Some((groups, weight)) = self.patterns.get(index) {
                for group in groups {
                    *scores.entry(group.clone()).or_insert(0.0) += weight;
                }
            }
        }
        scores
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squash_undoes_wraps_case_and_quotes() {
        assert_eq!(squash("Tried to allo\ncate `X`"), "triedtoallocatex");
        assert_eq!(squash("a\\nb"), "ab");
    }
}
