//! English prose: lowercase, stop words, Snowball English (Porter2) stemming.
//!
//! Porter2 removes the possessive (`model's` → `model`); curly apostrophes are read as
//! straight ones first so both spellings meet.

use rustc_hash::FxHashSet;
use std::sync::LazyLock;

use tantivy::tokenizer::Token;

use super::filter::{Rewrite, base_fold, is_identifier_like};
use super::stopwords;

#[derive(Clone)]
pub struct EnglishRewrite;

impl Rewrite for EnglishRewrite {
    fn rewrite(&self, token: &mut Token) -> bool {
        let word = fold(&token.text);
        if word.is_empty() || STOP_WORDS.contains(&word) {
            return false;
        }
        token.text = if is_identifier_like(&word) {
            word
        } else {
            STEMMER.stem(&word).into_owned()
        };
        true
    }
}

static STOP_WORDS: LazyLock<FxHashSet<String>> =
    LazyLock::new(|| stopwords::ENGLISH.split_whitespace().map(fold).collect());

static STEMMER: LazyLock<frostem::Stemmer> =
    LazyLock::new(|| frostem::Stemmer::new(frostem::Algorithm::English));

fn fold(text: &str) -> String {
    let folded = base_fold(text);
    if folded.is_ascii() {
        return folded;
    }
    folded.replace(['\u{2019}', '\u{02BC}'], "'")
}

#[cfg(test)]
mod tests {
    use super::super::{ENGLISH, analyze};

    fn one(word: &str) -> String {
        analyze(ENGLISH, word).join(" ")
    }

    #[test]
    fn word_table() {
        let table = [
            ("memory", "memori"),
            ("memories", "memori"),
            ("Allocation", "alloc"),
            ("allocated", "alloc"),
            ("workers", "worker"),
            ("worker", "worker"),
            ("model's", "model"),
            ("model’s", "model"),
            ("training", "train"),
            ("triggered", "trigger"),
            ("batch_size", "batch_size"),
            ("6.14", "6.14"),
            ("the", ""),
            ("not", "not"),
            ("no", "no"),
        ];
        for (word, expected) in table {
            assert_eq!(one(word), expected, "{word}");
        }
    }

    #[test]
    fn error_sentence_keeps_negation() {
        assert_eq!(
            analyze(
                ENGLISH,
                "no kernel image is available for execution on the device"
            ),
            ["no", "kernel", "imag", "avail", "execut", "devic"]
        );
    }
}
