//! Hindi: spelling normalization, stop words and a light suffix stemmer.
//!
//! Three steps, in this order:
//! 1. [`normalize_spelling`]: variants of one spelling become one (after Lucene's
//!    HindiNormalizer, itself after Pingali & Varma and Larkey's CLEF 2008 rules,
//!    reimplemented): nukta dropped (फ़ाइल = फाइल, ज़्यादा = ज्यादा), chandrabindu read as
//!    anusvara (घटाएँ = घटाएं), a nasal consonant with virama before a consonant read as
//!    anusvara (हिन्दी = हिंदी, कम्प्यूटर = कंप्यूटर), candra and short e/o read as e/o
//!    (मॉडल = मोडल), ZWJ/ZWNJ dropped, Devanagari digits as ASCII.
//! 2. [`stem`]: one inflectional suffix cut, longest first, after Ramanathan & Rao's
//!    "A Lightweight Stemmer for Hindi" (as Lucene's HindiStemmer), plus the English plural
//!    loanword ending ्स (वर्कर्स = वर्कर). A cut never leaves fewer than two chars nor a
//!    stem ending in virama (so वर्कर keeps its कर).
//! 3. [`fold_vowels`]: virama dropped and long vowels folded to short (ी = ि, ू = ु), so
//!    common misspellings meet. Done after stemming so the suffix list sees real spellings.
//!
//! The suffix list was measured against frostem's Hindi algorithm (the same Ramanathan & Rao
//! rules, applied before folding): see `own_stemmer_conflates_more_groups_than_frostem`.

use rustc_hash::FxHashSet;
use std::sync::LazyLock;

use tantivy::tokenizer::Token;

use super::filter::{Rewrite, base_fold, char_len, is_identifier_like};
use super::stopwords;

const VIRAMA: char = '\u{094D}';
const ANUSVARA: char = '\u{0902}';

#[derive(Clone)]
pub struct HindiRewrite;

impl Rewrite for HindiRewrite {
    fn rewrite(&self, token: &mut Token) -> bool {
        let mut word = normalize_spelling(&token.text);
        if word.is_empty() || STOP_WORDS.contains(&word) {
            return false;
        }
        if !is_identifier_like(&word) {
            stem(&mut word);
        }
        token.text = fold_vowels(&word);
        true
    }
}

static STOP_WORDS: LazyLock<FxHashSet<String>> = LazyLock::new(|| {
    stopwords::HINDI
        .split_whitespace()
        .map(normalize_spelling)
        .collect()
});

/// Step 1: one spelling for the variants people type.
pub fn normalize_spelling(text: &str) -> String {
    let chars: Vec<char> = base_fold(text)
        .chars()
        .filter(|&c| c != '\u{093C}')
        .map(|c| match c {
            '\u{0901}' => ANUSVARA,
            '\u{0929}' => '\u{0928}',
            '\u{0931}' => '\u{0930}',
            '\u{0934}' => '\u{0933}',
            '\u{0958}' => '\u{0915}',
            '\u{0959}' => '\u{0916}',
            '\u{095A}' => '\u{0917}',
            '\u{095B}' => '\u{091C}',
            '\u{095C}' => '\u{0921}',
            '\u{095D}' => '\u{0922}',
            '\u{095E}' => '\u{092B}',
            '\u{095F}' => '\u{092F}',
            '\u{0945}' | '\u{0946}' => '\u{0947}',
            '\u{0949}' | '\u{094A}' => '\u{094B}',
            '\u{090D}' | '\u{090E}' => '\u{090F}',
            '\u{0911}' | '\u{0912}' => '\u{0913}',
            _ => c,
        })
        .collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let virama_next = chars.get(i + 1) == Some(&VIRAMA);
        let after = chars.get(i + 2).copied();
        if virama_next && after.is_some_and(|a| nasal_becomes_anusvara(c, a)) {
            out.push(ANUSVARA);
            i += 2;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// ङ ञ ण न with virama before any consonant, and म before a labial, are written either way.
fn nasal_becomes_anusvara(nasal: char, next: char) -> bool {
    match nasal {
        '\u{0919}' | '\u{091E}' | '\u{0923}' | '\u{0928}' => is_consonant(next),
        '\u{092E}' => matches!(next, '\u{092A}'..='\u{092D}'),
        _ => false,
    }
}

fn is_consonant(c: char) -> bool {
    matches!(c, '\u{0915}'..='\u{0939}' | '\u{0958}'..='\u{095F}')
}

/// Inflectional suffixes, longest first; spelled as [`normalize_spelling`] leaves them.
const SUFFIXES: &[&str] = &[
    // Future and plural-oblique endings.
    "ाएंगी",
    "ाएंगे",
    "ाऊंगी",
    "ाऊंगा",
    "ाइयां",
    "ाइयों",
    "ाएगी",
    "ाएगा",
    "ाओगी",
    "ाओगे",
    "एंगी",
    "ेंगी",
    "एंगे",
    "ेंगे",
    "ूंगी",
    "ूंगा",
    "ातीं",
    "नाओं",
    "नाएं",
    "ताओं",
    "ताएं",
    "ियां",
    "ियों",
    // Participles, infinitives, imperatives and oblique plurals.
    "ाकर",
    "ाइए",
    "ाईं",
    "ाया",
    "ेगी",
    "ेगा",
    "ोगी",
    "ोगे",
    "ाने",
    "ाना",
    "ाते",
    "ाती",
    "ाता",
    "तीं",
    "ाओं",
    "ाएं",
    "ुओं",
    "ुएं",
    "ुआं",
    "कर",
    "ाओ",
    "िए",
    "ाई",
    "ाए",
    "ने",
    "नी",
    "ना",
    "ते",
    "ीं",
    "ती",
    "ता",
    "ां",
    "ों",
    "ें",
    // English plural on a loanword: वर्कर्स, बग्स.
    "्स",
    // Bare vowel endings (gender, number, case).
    "ो",
    "े",
    "ू",
    "ु",
    "ी",
    "ि",
    "ा",
];

/// Step 2: cut the longest suffix that leaves a stem of two chars or more, not ending in
/// virama (that would split a conjunct).
pub fn stem(word: &mut String) {
    let len = char_len(word);
    for suffix in SUFFIXES {
        if let Some(stem) = word.strip_suffix(suffix)
            && len >= char_len(suffix) + 2
            && !stem.ends_with(VIRAMA)
        {
            let keep = stem.len();
            word.truncate(keep);
            return;
        }
    }
}

/// Step 3: virama dropped, long vowels written short.
pub fn fold_vowels(word: &str) -> String {
    word.chars()
        .filter(|&c| c != VIRAMA)
        .map(|c| match c {
            '\u{0940}' => '\u{093F}',
            '\u{0942}' => '\u{0941}',
            '\u{0944}' => '\u{0943}',
            '\u{0908}' => '\u{0907}',
            '\u{090A}' => '\u{0909}',
            '\u{0960}' => '\u{090B}',
            '\u{0961}' => '\u{090C}',
            '\u{0963}' => '\u{0962}',
            _ => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{HINDI, analyze};
    use super::*;

    fn one(word: &str) -> String {
        analyze(HINDI, word).join(" ")
    }

    /// Forms that must meet, from the dev queries and the words articles use.
    const GROUPS: &[&[&str]] = &[
        &["त्रुटि", "त्रुटियाँ", "त्रुटियां", "त्रुटियों", "त्रुटी"],
        &["मेमोरी", "मेमोरि"],
        &["वर्कर", "वर्कर्स", "वर्करों"],
        &["मॉडल", "मोडल", "मॉडलों"],
        &["घटाएँ", "घटाएं", "घटाना", "घटाओ", "घटाने"],
        &["फ़ाइल", "फाइल", "फ़ाइलें", "फाइलों"],
        &["ज़्यादा", "ज्यादा"],
        &["प्रक्रिया", "प्रक्रियाएँ", "प्रक्रियाओं"],
        &["छोटा", "छोटे", "छोटी"],
        &["बैच", "बैचों"],
        &["आकार", "आकारों"],
        &["ग्रेडिएंट", "ग्रेडिएंट्स"],
        &["कंप्यूटर", "कम्प्यूटर"],
        &["हिंदी", "हिन्दी"],
        &["बढ़ाएँ", "बढ़ाना", "बढ़ाने"],
        &["डिवाइस", "डिवाइसों"],
        &["टेंसर", "टेंसरों", "टेन्सर"],
        &["करें", "करना", "करते"],
        &["लेयर", "लेयर्स", "लेयरों"],
        &["अपडेट", "अपडेट्स"],
    ];

    fn conflated_groups(analyze_word: impl Fn(&str) -> String) -> usize {
        GROUPS
            .iter()
            .filter(|group| {
                let first = analyze_word(group[0]);
                group.iter().all(|w| analyze_word(w) == first)
            })
            .count()
    }

    #[test]
    fn word_table() {
        let table = [
            ("त्रुटि", "तरुट"),
            ("त्रुटियाँ", "तरुट"),
            ("त्रुटियों", "तरुट"),
            ("मेमोरी", "मेमोर"),
            ("वर्कर्स", "वरकर"),
            ("वर्कर", "वरकर"),
            ("मॉडल", "मोडल"),
            ("ज़्यादा", "जयाद"),
            ("घटाएँ", "घट"),
            ("फ़ाइल", "फाइल"),
            ("डेटालोडर", "डेटालोडर"),
            ("टाइमआउट", "टाइमआउट"),
            ("१२८", "128"),
            ("CUDA", "cuda"),
            ("के", ""),
            ("क्यों", ""),
        ];
        for (word, expected) in table {
            assert_eq!(one(word), expected, "{word}");
        }
    }

    #[test]
    fn every_group_of_forms_meets() {
        for group in GROUPS {
            let first = one(group[0]);
            for w in *group {
                assert_eq!(one(w), first, "{w} vs {}", group[0]);
            }
        }
    }

    #[test]
    fn own_stemmer_conflates_more_groups_than_frostem() {
        let frostem = frostem::Stemmer::new(frostem::Algorithm::Hindi);
        let with_frostem = |w: &str| fold_vowels(&frostem.stem(&normalize_spelling(w)));
        let ours = conflated_groups(one);
        let theirs = conflated_groups(with_frostem);
        assert!(
            ours > theirs,
            "ours {ours}, frostem {theirs} of {}",
            GROUPS.len()
        );
    }

    #[test]
    fn stem_never_splits_a_conjunct_or_leaves_one_char() {
        let mut w = String::from("वर्कर");
        stem(&mut w);
        assert_eq!(w, "वर्कर");
        let mut short = String::from("का");
        stem(&mut short);
        assert_eq!(short, "का");
    }

    #[test]
    fn dev_query_is_analyzed_word_by_word() {
        assert_eq!(
            analyze(HINDI, "छोटे मॉडल के लिए इतनी ज़्यादा मेमोरी क्यों"),
            ["छोट", "मोडल", "जयाद", "मेमोर"]
        );
        assert_eq!(
            analyze(HINDI, "CUDA आउट ऑफ मेमोरी त्रुटि"),
            ["cuda", "आउट", "ओफ", "मेमोर", "तरुट"]
        );
    }
}
