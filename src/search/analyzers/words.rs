//! The prose tokenizer: Unicode words (UAX #29), so combining marks stay inside their word.
//!
//! UAX #29 keeps the Devanagari virama, nukta, vowel signs and ZWJ/ZWNJ inside words
//! (`त्रुटि` is one token, unlike tantivy's `SimpleTokenizer`), keeps Arabic harakat inside
//! words, joins `l'allocation` / `l’allocation` for the elision rule, `6.14` and `batch_size`.
//! On top of UAX #29 a word is also cut at `:` and at a `.` between letters, so
//! `expandable_segments:True` and `torch.OutOfMemoryError` give their parts to prose fields
//! (the code analyzer keeps the whole identifiers).

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};
use unicode_segmentation::{UnicodeSegmentation, UnicodeWordIndices};

/// Longest prose token kept, in chars after normalization (checked by the rewrite filter);
/// longer ones are noise (hashes, base64, URLs).
pub const MAX_WORD_CHARS: usize = 40;

/// Longest word handed to normalization, in chars as written: harakat and vowel signs count
/// here, so the bound is looser; it only keeps huge tokens away from the normalizers.
const MAX_RAW_WORD_CHARS: usize = 2 * MAX_WORD_CHARS;

#[derive(Clone, Default)]
pub struct WordTokenizer;

impl Tokenizer for WordTokenizer {
    type TokenStream<'a> = WordStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> WordStream<'a> {
        WordStream {
            words: text.unicode_word_indices(),
            word: "",
            word_start: 0,
            cursor: 0,
            token: Token::default(),
        }
    }
}

pub struct WordStream<'a> {
    words: UnicodeWordIndices<'a>,
    /// The UAX #29 word being cut into pieces, its byte offset in the text, and how far
    /// into it (bytes) the pieces have been handed out.
    word: &'a str,
    word_start: usize,
    cursor: usize,
    token: Token,
}

impl WordStream<'_> {
    /// The next piece of the current word as a byte range inside it.
    fn next_piece(&mut self) -> Option<(usize, usize)> {
        while self.cursor < self.word.len() {
            let rest = self.word.get(self.cursor..)?;
            let start = self.cursor;
            let mut end = self.word.len();
            let mut prev: Option<char> = None;
            let mut chars = rest.char_indices().peekable();
            while let Some((i, c)) = chars.next() {
                let next = chars.peek().map(|&(_, n)| n);
                if is_cut(prev, c, next) {
                    end = start + i;
                    break;
                }
                prev = Some(c);
            }
            // Skip the cut character itself (all cut characters are ASCII).
            self.cursor = if end < self.word.len() { end + 1 } else { end };
            let piece = self.word.get(start..end)?;
            if piece.chars().any(char::is_alphanumeric) {
                return Some((start, end));
            }
        }
        None
    }
}

fn is_cut(prev: Option<char>, c: char, next: Option<char>) -> bool {
    match c {
        ':' => true,
        '.' => !(prev.is_some_and(|p| p.is_numeric()) && next.is_some_and(|n| n.is_numeric())),
        _ => false,
    }
}

impl TokenStream for WordStream<'_> {
    fn advance(&mut self) -> bool {
        loop {
            if let Some((from, to)) = self.next_piece() {
                let Some(piece) = self.word.get(from..to) else {
                    continue;
                };
                self.token.position = self.token.position.wrapping_add(1);
                if piece.chars().take(MAX_RAW_WORD_CHARS + 1).count() > MAX_RAW_WORD_CHARS {
                    continue;
                }
                self.token.offset_from = self.word_start + from;
                self.token.offset_to = self.word_start + to;
                self.token.text.clear();
                self.token.text.push_str(piece);
                return true;
            }
            let Some((start, word)) = self.words.next() else {
                return false;
            };
            self.word = word;
            self.word_start = start;
            self.cursor = 0;
        }
    }

    fn token(&self) -> &Token {
        &self.token
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.token
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<(String, usize, usize, usize)> {
        let mut tokenizer = WordTokenizer;
        let mut stream = tokenizer.token_stream(text);
        let mut out = Vec::new();
        while let Some(t) = stream.next() {
            out.push((t.text.clone(), t.offset_from, t.offset_to, t.position));
        }
        out
    }

    fn texts(text: &str) -> Vec<String> {
        words(text).into_iter().map(|w| w.0).collect()
    }

    #[test]
    fn devanagari_marks_stay_inside_words() {
        assert_eq!(texts("त्रुटि ज़्यादा घटाएँ"), ["त्रुटि", "ज़्यादा", "घटाएँ"]);
        assert_eq!(texts("डिवाइस-साइड एसर्ट।"), ["डिवाइस", "साइड", "एसर्ट"]);
    }

    #[test]
    fn arabic_harakat_and_digits_stay_inside_words() {
        assert_eq!(texts("مُعالِجة ٦٫١٤"), ["مُعالِجة", "٦٫١٤"]);
    }

    #[test]
    fn colon_and_dotted_names_are_cut_but_numbers_are_not() {
        assert_eq!(
            texts("torch.OutOfMemoryError: expandable_segments:True 6.14 GiB"),
            [
                "torch",
                "OutOfMemoryError",
                "expandable_segments",
                "True",
                "6.14",
                "GiB"
            ]
        );
    }

    #[test]
    fn apostrophes_join_for_elision() {
        assert_eq!(texts("l'allocation l’erreur"), ["l'allocation", "l’erreur"]);
    }

    #[test]
    fn offsets_and_positions_follow_pieces() {
        let w = words("a.b c");
        assert_eq!(
            w,
            [
                ("a".to_string(), 0, 1, 0),
                ("b".to_string(), 2, 3, 1),
                ("c".to_string(), 4, 5, 2)
            ]
        );
    }

    #[test]
    fn overlong_words_are_dropped_by_char_count() {
        let long = "ज".repeat(MAX_RAW_WORD_CHARS + 1);
        let ok = "ज".repeat(MAX_RAW_WORD_CHARS);
        assert_eq!(texts(&format!("{long} {ok}")), [ok]);
    }
}
