//! The one token filter every language chain uses, and the character folding they share.
//!
//! A language is a [`Rewrite`]: it turns one token's text (the original word) into its index
//! form, or drops the token. Only `token.text` and, for elision, `token.offset_from` change:
//! offsets keep pointing into the original text, so snippets and highlighting stay valid.

use tantivy::tokenizer::{Token, TokenFilter, TokenStream, Tokenizer};
use unicode_normalization::UnicodeNormalization;

use super::words::MAX_WORD_CHARS;

/// A per-token rewrite: normalize, filter stop words, stem.
pub trait Rewrite: Clone + Send + Sync + 'static {
    /// Rewrites `token.text` in place. Returns false to drop the token. May move
    /// `token.offset_from` forward, to a char boundary inside the original token only.
    fn rewrite(&self, token: &mut Token) -> bool;
}

/// Adapts a [`Rewrite`] to tantivy's filter API, and drops rewritten tokens longer than
/// [`MAX_WORD_CHARS`] (NFKC can make a word longer: ﷺ is 18 letters).
#[derive(Clone)]
pub struct RewriteFilter<R>(pub R);

impl<R: Rewrite> TokenFilter for RewriteFilter<R> {
    type Tokenizer<T: Tokenizer> = RewriteTokenizer<T, R>;

    fn transform<T: Tokenizer>(self, tokenizer: T) -> RewriteTokenizer<T, R> {
        RewriteTokenizer {
            inner: tokenizer,
            rewrite: self.0,
        }
    }
}

#[derive(Clone)]
pub struct RewriteTokenizer<T, R> {
    inner: T,
    rewrite: R,
}

impl<T: Tokenizer, R: Rewrite> Tokenizer for RewriteTokenizer<T, R> {
    type TokenStream<'a> = RewriteStream<'a, T::TokenStream<'a>, R>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        RewriteStream {
            inner: self.inner.token_stream(text),
            rewrite: &self.rewrite,
        }
    }
}

pub struct RewriteStream<'a, S, R> {
    inner: S,
    rewrite: &'a R,
}

impl<S: TokenStream, R: Rewrite> TokenStream for RewriteStream<'_, S, R> {
    fn advance(&mut self) -> bool {
        while self.inner.advance() {
            if keeps(self.rewrite, self.inner.token_mut()) {
                return true;
            }
        }
        false
    }

    fn token(&self) -> &Token {
        self.inner.token()
    }

    fn token_mut(&mut self) -> &mut Token {
        self.inner.token_mut()
    }
}

/// Rewrites `token` and tells whether the chain keeps it.
pub fn keeps<R: Rewrite>(rewrite: &R, token: &mut Token) -> bool {
    rewrite.rewrite(token) && char_len(&token.text) <= MAX_WORD_CHARS
}

/// NFKC, lowercase, ASCII digits, and no invisible format characters: the first step of every
/// chain. NFKC unfolds Arabic presentation forms and lam-alef ligatures, full-width Latin and
/// `ﬁ`-style ligatures, and splits Devanagari nukta letters (क़ → क + ़) for the Hindi rules.
pub fn base_fold(text: &str) -> String {
    // NFKC leaves ASCII as it is, and no ASCII character is invisible or a non-ASCII digit:
    // most tokens (code, English, Latin words in any text) take this path.
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    let mut out = String::with_capacity(text.len());
    for c in text.nfkc() {
        if is_invisible(c) {
            continue;
        }
        match ascii_digit(c) {
            Some(d) => out.push(d),
            None => match c {
                // Arabic decimal and thousands separators, so ٦٫١٤ reads as 6.14.
                '\u{066B}' => out.push('.'),
                '\u{066C}' => out.push(','),
                _ => out.extend(c.to_lowercase()),
            },
        }
    }
    out
}

/// Zero-width joiners, soft hyphens and byte-order marks: they change how a word is drawn
/// or broken, never what it means.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}' | '\u{200B}'..='\u{200F}' | '\u{2060}' | '\u{FEFF}'
    )
}

/// Arabic-Indic (٠–٩), Extended Arabic-Indic (۰–۹) and Devanagari (०–९) digits as ASCII.
pub fn ascii_digit(c: char) -> Option<char> {
    let zero = match c {
        '\u{0660}'..='\u{0669}' => 0x0660,
        '\u{06F0}'..='\u{06F9}' => 0x06F0,
        '\u{0966}'..='\u{096F}' => 0x0966,
        _ => return None,
    };
    char::from_digit(c as u32 - zero, 10)
}

/// Tokens that look like identifiers or numbers (`batch_size`, `6.14`, `fp16`) are kept as
/// written: stemming them would only mangle them.
pub fn is_identifier_like(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_ascii_digit() || matches!(c, '_' | '.' | ':' | '/' | '\\'))
}

/// Char count, the unit of every length rule here (bytes would penalize non-Latin scripts).
pub fn char_len(text: &str) -> usize {
    text.chars().count()
}

/// Removes `suffix` when what stays has at least `min_stem` chars.
pub fn strip_suffix_keeping(word: &mut String, suffix: &str, min_stem: usize) -> bool {
    if word.ends_with(suffix) && char_len(word) >= char_len(suffix) + min_stem {
        word.truncate(word.len() - suffix.len());
        true
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_fold_maps_digits_ligatures_and_case() {
        assert_eq!(base_fold("٦٫١٤"), "6.14");
        assert_eq!(base_fold("۱۲۳"), "123");
        assert_eq!(base_fold("१०२४"), "1024");
        assert_eq!(base_fold("ＣＵＤＡ"), "cuda");
        assert_eq!(base_fold("ﻻ"), "لا");
        assert_eq!(base_fold("a\u{200D}b\u{00AD}c"), "abc");
    }

    #[test]
    fn strip_suffix_respects_minimum_stem() {
        let mut w = String::from("ذاكره");
        assert!(strip_suffix_keeping(&mut w, "ه", 2));
        assert_eq!(w, "ذاكر");
        let mut short = String::from("به");
        assert!(!strip_suffix_keeping(&mut short, "ه", 2));
        assert_eq!(short, "به");
    }

    #[test]
    fn identifiers_are_recognized() {
        assert!(is_identifier_like("batch_size"));
        assert!(is_identifier_like("6.14"));
        assert!(!is_identifier_like("mémoire"));
    }
}
