//! How words are found in a paste: scripts split apart, Arabic proclitics, unspaced Han.

use std::sync::LazyLock;

use regex::Regex;

/// Words of one script at a time, so "运行demo" yields "demo"; identifiers split at `_`.
pub(super) static WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[\p{Latin}\p{N}]+|\p{Arabic}+|\p{Devanagari}+").expect("word pattern")
});

/// `needle` in `haystack` not glued to other letters (so "oom" is not found in "room"). An
/// Arabic phrase may carry one glued conjunction or preposition (ومش مكفي, بالذاكرة).
pub(super) fn contains_word(haystack: &str, needle: &str) -> bool {
    haystack
        .match_indices(needle)
        .any(|(start, _)| stands_alone(haystack, start, start + needle.len()))
}

/// Whether `haystack[start..end]` is not glued to other letters; Arabic may carry one glued
/// conjunction or preposition before it. Chinese and Japanese write no spaces, so their
/// characters never glue: "lora微调" names LoRA, and "显存不足" stands alone in a sentence.
pub(super) fn stands_alone(haystack: &str, start: usize, end: usize) -> bool {
    let needle = &haystack[start..end];
    let arabic = needle.starts_with(|c: char| ('\u{0600}'..='\u{06FF}').contains(&c));
    let mut before = haystack[..start].chars().rev();
    let after = haystack[end..].chars().next();
    let starts_word = needle.starts_with(is_unspaced_script)
        || match before.next() {
            None => true,
            Some(c) if !glues(c) => true,
            Some('و' | 'ف' | 'ب' | 'ل' | 'ك') if arabic => !before.next().is_some_and(glues),
            Some(_) => false,
        };
    let ends_word = needle.ends_with(is_unspaced_script) || !after.is_some_and(glues);
    starts_word && ends_word
}

/// A letter or digit that continues the word beside it.
pub(super) fn glues(c: char) -> bool {
    c.is_alphanumeric() && !is_unspaced_script(c)
}

/// Han, kana and hangul: scripts whose words stand side by side without spaces (hangul
/// does use spaces, but glues Latin names to its particles: "LoRA를").
fn is_unspaced_script(c: char) -> bool {
    matches!(c, '\u{2E80}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7AF}' | '\u{F900}'..='\u{FAFF}')
}
