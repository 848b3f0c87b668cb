//! Arabic: normalization, stop words and a light prefix/suffix stemmer.
//!
//! The chain follows Lucene's Arabic analyzer (normalizer and light stemmer after Larkey,
//! Ballesteros and Connell, "Light Stemming for Arabic Information Retrieval"), reimplemented
//! here, with additions: NFKC first (presentation forms, lam-alef ligatures), Arabic-Indic
//! digits to ASCII, ٱ unified with the other alef forms, every Arabic combining mark removed
//! (not only U+064B–U+0652), Persian yeh and keheh read as Arabic yeh and kaf, and stop words
//! compared after normalization so vocalized or hamza-less spellings are caught too.
//!
//! Limits: light stemming only strips affixes; broken plurals (نماذج / نموذج) stay apart,
//! and a leading و that belongs to the root can be cut (وحدة → حد), as in Lucene.
//! Latin words inside Arabic text (CUDA, batch_size) are only lowercased.

use rustc_hash::FxHashSet;
use std::sync::LazyLock;

use tantivy::tokenizer::Token;
use unicode_normalization::char::is_combining_mark;

use super::filter::{Rewrite, base_fold, char_len, is_identifier_like, strip_suffix_keeping};
use super::stopwords;

#[derive(Clone)]
pub struct ArabicRewrite;

impl Rewrite for ArabicRewrite {
    fn rewrite(&self, token: &mut Token) -> bool {
        let mut word = normalize(&token.text);
        // A function word with «و» ("and") glued on is still one: «وماكو», «ولكن».
        let unglued = word.strip_prefix('و').filter(|rest| char_len(rest) >= 2);
        if word.is_empty()
            || STOP_WORDS.contains(&word)
            || unglued.is_some_and(|rest| STOP_WORDS.contains(rest))
        {
            return false;
        }
        if !is_identifier_like(&word) {
            stem(&mut word);
        }
        token.text = word;
        true
    }
}

static STOP_WORDS: LazyLock<FxHashSet<String>> = LazyLock::new(|| {
    stopwords::ARABIC
        .split_whitespace()
        .map(normalize)
        .collect()
});

/// Orthographic normalization: the spelling variants people type for one word become one.
pub fn normalize(text: &str) -> String {
    base_fold(text)
        .chars()
        .filter(|&c| !(c == '\u{0640}' || (is_arabic_block(c) && is_combining_mark(c))))
        .map(|c| match c {
            // Alef with madda, hamza above, hamza below, wasla.
            '\u{0622}' | '\u{0623}' | '\u{0625}' | '\u{0671}' => '\u{0627}',
            // Alef maksura and Persian yeh → yeh.
            '\u{0649}' | '\u{06CC}' => '\u{064A}',
            // Teh marbuta → heh.
            '\u{0629}' => '\u{0647}',
            // Persian keheh → kaf.
            '\u{06A9}' => '\u{0643}',
            _ => c,
        })
        .collect()
}

fn is_arabic_block(c: char) -> bool {
    matches!(c, '\u{0600}'..='\u{06FF}' | '\u{0750}'..='\u{077F}' | '\u{08A0}'..='\u{08FF}')
}

/// Definite article and conjunction/preposition clitics, tried in order; one at most is cut.
const PREFIXES: [&str; 7] = ["ال", "وال", "بال", "كال", "فال", "لل", "و"];

/// Suffixes (already normalized: ة is ه here), each cut in turn when it ends the word.
const SUFFIXES: [&str; 8] = ["ها", "ان", "ات", "ون", "ين", "يه", "ه", "ي"];

/// Light stemming on a normalized word; every rule keeps at least two letters.
pub fn stem(word: &mut String) {
    for prefix in PREFIXES {
        let len = char_len(word);
        // A lone و is often a root letter: only cut it from words of four letters or more.
        let min_len = if prefix == "و" {
            4
        } else {
            char_len(prefix) + 2
        };
        if word.starts_with(prefix) && len >= min_len {
            word.replace_range(..prefix.len(), "");
            break;
        }
    }
    for suffix in SUFFIXES {
        // A four-letter word ending in «ان» is far more often a whole word (أمان, مكان,
        // زمان) than the dual of a two-letter one.
        let min_stem = if suffix == "ان" { 3 } else { 2 };
        strip_suffix_keeping(word, suffix, min_stem);
    }
}

/// Clitics of spoken Arabic that the light stemmer leaves on, since cutting them from every
/// word would cut root letters from many more: the present-tense ب (بيقول، بتزيد) and the
/// Maghrebi ك (كيطيح), «عال» and «هال» contracted from «على ال» and «هذا ال», the preposition
/// ل glued to a noun (لموديل), the verb's person prefixes, and at the end the negation ش
/// (نقدرش) and the plural وا.
const SPOKEN_PREFIXES: [&str; 12] = [
    "ب", "ك", "ح", "ل", "ع", "ف", "ا", "ي", "ت", "ن", "عال", "هال",
];
const SPOKEN_SUFFIXES: [&str; 4] = ["ش", "وا", "و", "اه"];

/// What an analyzed word the articles do not hold may be once a spoken clitic is cut, fewest
/// letters cut first: «بيطلعوا» → «يطلعوا», «يطلع», …; each reading stemmed again and at
/// least three letters long.
pub fn spoken_readings(word: &str) -> Vec<String> {
    let mut readings: Vec<(usize, String)> = Vec::new();
    for prefix in std::iter::once("").chain(SPOKEN_PREFIXES) {
        let Some(rest) = word.strip_prefix(prefix) else {
            continue;
        };
        for suffix in std::iter::once("").chain(SPOKEN_SUFFIXES) {
            let Some(core) = rest.strip_suffix(suffix) else {
                continue;
            };
            if (prefix.is_empty() && suffix.is_empty()) || char_len(core) < 3 {
                continue;
            }
            let mut reading = core.to_owned();
            stem(&mut reading);
            if char_len(&reading) >= 3 && reading != word {
                readings.push((char_len(prefix) + char_len(suffix), reading));
            }
        }
    }
    readings.sort_by_key(|(cut, _)| *cut);
    let mut seen = FxHashSet::default();
    readings
        .into_iter()
        .map(|(_, reading)| reading)
        .filter(|reading| seen.insert(reading.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{ARABIC, analyze};

    fn one(word: &str) -> String {
        analyze(ARABIC, word).join(" ")
    }

    #[test]
    fn word_table() {
        let table = [
            ("ذاكرة", "ذاكر"),
            ("الذاكرة", "ذاكر"),
            ("بالذاكرة", "ذاكر"),
            ("للذاكرة", "ذاكر"),
            ("مُعالِجة", "معالج"),
            ("معالجات", "معالج"),
            ("الرسومات", "رسوم"),
            ("البيانات", "بيان"),
            ("والكتاب", "كتاب"),
            ("فالكتاب", "كتاب"),
            ("مكتبات", "مكتب"),
            ("نموذجي", "نموذج"),
            ("خَطَأ", "خطا"),
            ("أخطاء", "اخطاء"),
            ("إعادة", "اعاد"),
            ("آلة", "ال"),
            ("الأمان", "امان"),
            ("مكان", "مكان"),
            ("الكرتان", "كرت"),
            ("ٱلذاكرة", "ذاكر"),
            ("مستشفى", "مستشف"),
            ("الذاكـــرة", "ذاكر"),
            ("٦٫١٤", "6.14"),
            ("۱۲۸", "128"),
            ("CUDA", "cuda"),
            ("batch_size", "batch_size"),
            ("في", ""),
            ("فِي", ""),
            ("لماذا", ""),
            ("على", ""),
            ("وماكو", ""),
            ("وهذا", ""),
        ];
        for (word, expected) in table {
            assert_eq!(one(word), expected, "{word}");
        }
    }

    #[test]
    fn presentation_forms_and_lam_alef_ligature_are_unfolded() {
        // ﻻ is the lam-alef ligature; ﺍﻟﺬﺍﻛﺮﺓ is الذاكرة in presentation forms.
        assert_eq!(one("ﻻ"), "لا");
        assert_eq!(one("ﺍﻟﺬﺍﻛﺮﺓ"), "ذاكر");
    }

    #[test]
    fn query_words_meet_their_inflected_forms() {
        // Words of the dev queries against forms an article would use.
        assert_eq!(one("الرسومات"), one("رسومات"));
        assert_eq!(one("المتوقع"), one("متوقع"));
        assert_eq!(one("البيانات"), one("بيانات"));
        assert_eq!(one("ذاكرة"), one("الذاكرة"));
    }

    #[test]
    fn short_words_keep_two_letters() {
        assert_eq!(one("وه"), "وه");
        assert_eq!(one("الم"), "الم");
    }

    #[test]
    fn mixed_sentence_keeps_latin_terms() {
        assert_eq!(
            analyze(ARABIC, "نفاد ذاكرة MPS على ماك"),
            ["نفاد", "ذاكر", "mps", "ماك"]
        );
    }

    #[test]
    fn spoken_clitics_give_the_written_word_fewest_cut_first() {
        let readings = |word: &str| super::spoken_readings(&one(word));
        // Present-tense ب and the plural وا around «يحمل».
        assert!(readings("بيحملوا").contains(&"يحمل".to_owned()));
        // One prefix at most: «بيقبل» is «يقبل» (accepts), never «قبل» (before).
        assert_eq!(readings("بيقبل"), ["يقبل"]);
        // «عالكرت» is «على الكرت»: the article goes with the stemmer's rules.
        assert_eq!(readings("عالكرت").first().map(String::as_str), Some("كرت"));
        // Every reading keeps three letters.
        assert!(readings("بيه").is_empty());
    }
}
