//! The terms one analyzer produced from the whole library: how many articles hold each, and
//! which known term a mistyped word most likely meant.

use rustc_hash::FxHashMap;

/// Words shorter than this are not corrected: one edit turns a short word into another
/// real word too often (`batch` ↔ `match`, `cache` ↔ `cached` are already five).
pub const MIN_TYPO_CHARS: usize = 6;

/// A known term's letters and its position in [`Vocabulary::terms`].
type Spelling = (Box<[char]>, usize);

#[derive(Default)]
pub struct Vocabulary {
    articles: FxHashMap<String, u32>,
    /// Terms by their length in characters, for the typo lookup.
    by_length: FxHashMap<usize, Vec<Spelling>>,
    terms: Vec<(String, u32)>,
}

impl Vocabulary {
    /// `articles`: for each term, the number of articles that hold it.
    pub fn new(articles: FxHashMap<String, u32>) -> Self {
        let mut terms: Vec<(String, u32)> = articles
            .iter()
            .filter(|(term, _)| term.chars().count() + 1 >= MIN_TYPO_CHARS)
            .map(|(term, &count)| (term.clone(), count))
            .collect();
        // Sorted so that ties in the typo lookup always resolve the same way.
        terms.sort_unstable();
        let mut by_length: FxHashMap<usize, Vec<Spelling>> = FxHashMap::default();
        for (position, (term, _)) in terms.iter().enumerate() {
            let chars: Box<[char]> = term.chars().collect();
            by_length
                .entry(chars.len())
                .or_default()
                .push((chars, position));
        }
        Vocabulary {
            articles,
            by_length,
            terms,
        }
    }

    /// How many articles hold `term` (0: none).
    pub fn article_frequency(&self, term: &str) -> u32 {
        self.articles.get(term).copied().unwrap_or(0)
    }

    /// The known term one edit away from `word` (a letter changed, added, dropped, or two
    /// neighbours swapped), the one most articles hold when several are. None for short
    /// words, known words and words with no such neighbour.
    pub fn correction(&self, word: &str) -> Option<&str> {
        let chars: Vec<char> = word.chars().collect();
        if chars.len() < MIN_TYPO_CHARS || self.articles.contains_key(word) {
            return None;
        }
        let mut best: Option<(u32, usize)> = None;
        for length in chars.len() - 1..=chars.len() + 1 {
            for (candidate, position) in self.by_length.get(&length).into_iter().flatten() {
                if !one_edit_apart(&chars, candidate) {
                    continue;
                }
                let count = self.terms[*position].1;
                if best.is_none_or(|(best_count, _)| count > best_count) {
                    best = Some((count, *position));
                }
            }
        }
        best.map(|(_, position)| self.terms[position].0.as_str())
    }
}

/// Whether one substitution, insertion, deletion or transposition of neighbours turns `a`
/// into `b` (the restricted Damerau–Levenshtein distance is exactly 1).
fn one_edit_apart(a: &[char], b: &[char]) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if long.len() - short.len() > 1 {
        return false;
    }
    let Some(first) = short.iter().zip(long).position(|(x, y)| x != y) else {
        // One is the other plus a last letter; equal words are not a typo.
        return short.len() != long.len();
    };
    if short.len() == long.len() {
        let substituted = short[first + 1..] == long[first + 1..];
        let swapped = first + 1 < short.len()
            && short[first] == long[first + 1]
            && short[first + 1] == long[first]
            && short[first + 2..] == long[first + 2..];
        substituted || swapped
    } else {
        short[first..] == long[first + 1..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocabulary(terms: &[(&str, u32)]) -> Vocabulary {
        Vocabulary::new(terms.iter().map(|(t, c)| ((*t).to_owned(), *c)).collect())
    }

    fn chars(word: &str) -> Vec<char> {
        word.chars().collect()
    }

    #[test]
    fn one_edit_covers_substitution_insertion_deletion_and_swap() {
        for (a, b) in [
            ("gradient", "gradiant"),
            ("gradient", "gradinet"),
            ("gradient", "graident"),
            ("gradient", "gradients"),
            ("gradient", "radient"),
            ("ग्रेडिएंट", "ग्रेडियंट"),
        ] {
            assert!(one_edit_apart(&chars(a), &chars(b)), "{a} / {b}");
            assert!(one_edit_apart(&chars(b), &chars(a)), "{b} / {a}");
        }
        for (a, b) in [
            ("gradient", "gradient"),
            ("gradient", "gardeint"),
            ("gradient", "grad"),
            ("checkpoint", "checkpointing"),
        ] {
            assert!(!one_edit_apart(&chars(a), &chars(b)), "{a} / {b}");
        }
    }

    #[test]
    fn a_mistyped_long_word_finds_the_known_term_most_articles_hold() {
        let known = vocabulary(&[("checkpoint", 9), ("accumulat", 4), ("accumulet", 1)]);
        assert_eq!(known.correction("chekpoint"), Some("checkpoint"));
        assert_eq!(known.correction("acumulat"), Some("accumulat"));
        assert_eq!(known.correction("accumulwt"), Some("accumulat"));
    }

    #[test]
    fn known_short_and_far_words_are_left_alone() {
        let known = vocabulary(&[("checkpoint", 9), ("batch", 20), ("batchs", 1)]);
        assert_eq!(known.correction("checkpoint"), None);
        assert_eq!(known.correction("bacth"), None, "five letters is too short");
        assert_eq!(known.correction("chkpnt"), None);
        assert_eq!(known.correction("completely"), None);
    }
}
