//! Which language a text is written in: script first (Arabic, Devanagari), then whatlang for
//! Latin-script text. Code and error text inside an article are English, so a text counts as
//! Arabic or Hindi well below half of its letters.

use super::Lang;

/// Share of letters in Arabic or Devanagari script above which the script decides.
const SCRIPT_SHARE: f64 = 0.2;

pub fn detect_language(text: &str) -> Option<Lang> {
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
    if script as f64 >= SCRIPT_SHARE * letters as f64 {
        return Some(if arabic >= devanagari {
            Lang::Ar
        } else {
            Lang::Hi
        });
    }
    // whatlang's trigram count grows with the text; a thousand letters decide as well.
    let sample: String = text.chars().take(1_000).collect();
    match whatlang::detect_lang(&sample)? {
        whatlang::Lang::Fra => Some(Lang::Fr),
        whatlang::Lang::Eng => Some(Lang::En),
        _ => None,
    }
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
