//! Which language a text is written in: script first (Arabic, Devanagari), then whatlang for
//! Latin-script text. Code and error text inside an article are English, so a text counts as
//! Arabic or Hindi well below half of its letters.

use std::sync::LazyLock;

use rustc_hash::FxHashSet;

use super::Lang;

/// Share of letters in Arabic or Devanagari script above which the script decides.
const SCRIPT_SHARE: f64 = 0.2;

/// Hindi's everyday grammar words as people write them in Latin letters (Hinglish). None is an
/// English or French word, so two of them among few words tell Hinglish from both.
const HINGLISH_WORDS: &[&str] = &[
    "hai", "hain", "nahi", "nahin", "nhi", "kaise", "kaisa", "kyun", "kyon", "kyu", "kya", "karo",
    "karein", "kare", "karna", "karne", "karke", "raha", "rahi", "rahe", "gaya", "gayi", "gaye",
    "hota", "hoti", "hote", "mein", "mera", "meri", "mere", "mujhe", "aur", "bhi", "toh", "tha",
    "thi", "wala", "wali", "chahiye", "sakta", "sakti", "sakte", "lagta", "lagti", "jata", "jaata",
    "jati", "zyada", "jyada", "kitna", "kitni", "bahut", "sirf", "abhi", "kuch", "yeh", "woh",
    "agar", "lekin", "phir", "baad", "pehle", "kam", "ho",
];
const HINGLISH_MAX_LEN: usize = 7;
static HINGLISH_SET: LazyLock<FxHashSet<&str>> =
    LazyLock::new(|| HINGLISH_WORDS.iter().copied().collect());
/// Share of a Latin text's words that must be Hinglish grammar words.
const HINGLISH_SHARE: f64 = 0.2;

static ENGLISH_OR_FRENCH: LazyLock<whatlang::Detector> = LazyLock::new(|| {
    whatlang::Detector::with_allowlist(vec![whatlang::Lang::Eng, whatlang::Lang::Fra])
});

pub fn detect_language(text: &str) -> Option<Lang> {
    if text.is_ascii() {
        // Nothing to count in ASCII but whether there is a letter at all.
        if !text.bytes().any(|b| b.is_ascii_alphabetic()) {
            return None;
        }
    } else if let Some(script) = script_language(text)? {
        return Some(script);
    }
    if is_hinglish(text) {
        return Some(Lang::Hi);
    }
    // whatlang's trigram count grows with the text; a thousand letters decide as well.
    let sample: String = text.chars().take(1_000).collect();
    // Scoring every Latin-script language was most of the cost of reading a paste, and most
    // pastes are English: French weighed against English alone settles those. French must
    // still beat every language, as before (Catalan or Latin readings of code are no French).
    match ENGLISH_OR_FRENCH.detect_lang(&sample)? {
        whatlang::Lang::Eng => Some(Lang::En),
        _ => match whatlang::detect_lang(&sample)? {
            whatlang::Lang::Fra => Some(Lang::Fr),
            whatlang::Lang::Eng => Some(Lang::En),
            _ => None,
        },
    }
}

/// Arabic or Hindi when their script holds enough of the letters; `None` when there are no
/// letters at all, `Some(None)` when the script does not decide.
fn script_language(text: &str) -> Option<Option<Lang>> {
    let (mut arabic, mut devanagari, mut letters) = (0usize, 0usize, 0usize);
    for c in text.chars().filter(|c| c.is_alphabetic()).take(20_000) {
        letters += 1;
        match c as u32 {
            0x0600..=0x06FF
            | 0x0750..=0x077F
            | 0x08A0..=0x08FF
            | 0xFB50..=0xFDFF
            | 0xFE70..=0xFEFF => arabic += 1,
            0x0900..=0x097F | 0xA8E0..=0xA8FF => devanagari += 1,
            _ => {}
        }
    }
    if letters == 0 {
        return None;
    }
    let script = arabic.max(devanagari);
    Some(
        (script as f64 >= SCRIPT_SHARE * letters as f64).then_some(if arabic >= devanagari {
            Lang::Ar
        } else {
            Lang::Hi
        }),
    )
}

/// Hindi written in Latin letters: at least two of its grammar words, and a fifth of the
/// words. Only the first few hundred words are read; a paste's log lines dilute the share.
fn is_hinglish(text: &str) -> bool {
    let mut words = 0usize;
    let mut found: Vec<&str> = Vec::new();
    for word in text
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .take(400)
    {
        words += 1;
        // Every Hinglish grammar word is short: longer words need no comparing.
        if word.len() > HINGLISH_MAX_LEN {
            continue;
        }
        let mut lowered = [0u8; HINGLISH_MAX_LEN];
        let lowered = &mut lowered[..word.len()];
        lowered.copy_from_slice(word.as_bytes());
        lowered.make_ascii_lowercase();
        if let Some(&known) = std::str::from_utf8(lowered)
            .ok()
            .and_then(|lower| HINGLISH_SET.get(lower))
            && !found.contains(&known)
        {
            found.push(known);
        }
    }
    found.len() >= 2 && found.len() as f64 >= HINGLISH_SHARE * words as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_decides_arabic_and_hindi_even_with_english_code() {
        assert_eq!(
            detect_language("اضبط batch_size = 4 ثم أعد تشغيل التدريب torch.cuda"),
            Some(Lang::Ar)
        );
        assert_eq!(
            detect_language("बैच साइज़ घटाएँ: batch_size = 4 torch.cuda.OutOfMemoryError"),
            Some(Lang::Hi)
        );
    }

    #[test]
    fn hinglish_words_fit_the_length_read() {
        assert!(HINGLISH_WORDS.iter().all(|w| w.len() <= HINGLISH_MAX_LEN));
        assert!(HINGLISH_WORDS.iter().any(|w| w.len() == HINGLISH_MAX_LEN));
    }

    #[test]
    fn whatlang_tells_french_from_english() {
        assert_eq!(
            detect_language(
                "La mémoire du GPU est insuffisante pendant l'entraînement du modèle, il faut réduire la taille du lot."
            ),
            Some(Lang::Fr)
        );
        assert_eq!(
            detect_language(
                "The GPU ran out of memory while training the model, so reduce the batch size."
            ),
            Some(Lang::En)
        );
        assert_eq!(detect_language("1234 ..."), None);
    }

    #[test]
    fn hindi_in_latin_letters_is_read_as_hindi_and_english_stays_english() {
        for text in [
            "gpu memory khatam ho gayi training ke time",
            "batch size kam karne ke baad bhi OOM aa raha hai",
            "cuda out of memory kaise theek kare",
        ] {
            assert_eq!(detect_language(text), Some(Lang::Hi), "{text}");
        }
        for text in [
            "How do I reduce memory when the batch is too big for the GPU?",
            "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB",
            "comment réduire la mémoire sans changer le modèle",
        ] {
            assert_ne!(detect_language(text), Some(Lang::Hi), "{text}");
        }
    }

    #[test]
    fn every_arabic_and_hindi_dev_query_is_read_in_its_script() {
        let data = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/eval/queries-dev.jsonl"
        ));
        let mut checked = 0;
        for line in data.lines().filter(|l| !l.trim().is_empty()) {
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            let expected = match case["lang"].as_str() {
                Some("ar") => Lang::Ar,
                Some("hi") => Lang::Hi,
                _ => continue,
            };
            let query = case["query"].as_str().unwrap();
            assert_eq!(detect_language(query), Some(expected), "{query}");
            checked += 1;
        }
        assert!(checked >= 10, "{checked}");
    }
}
