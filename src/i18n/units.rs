//! Numbers and byte sizes written the way each language writes them: French groups digits
//! with a narrow no-break space and uses a decimal comma and `Gio`; Hindi groups in lakhs
//! (12,34,567). Digits stay Western in every language, as PyTorch prints them.

use super::Lang;

const UNITS: [(u64, &str, &str); 4] = [
    (1 << 40, "TiB", "Tio"),
    (1 << 30, "GiB", "Gio"),
    (1 << 20, "MiB", "Mio"),
    (1 << 10, "KiB", "Kio"),
];

/// `6.14 GiB` (ar, hi, en) or `6,14 Gio` (fr), two decimals, binary units as PyTorch uses.
pub fn format_bytes(lang: Lang, bytes: u64) -> String {
    let (value, unit) = UNITS
        .iter()
        .find(|(size, _, _)| bytes >= *size)
        .map(|(size, en, fr)| {
            let unit = if lang == Lang::Fr { *fr } else { *en };
            (format!("{:.2}", bytes as f64 / *size as f64), unit)
        })
        .unwrap_or_else(|| {
            let unit = if lang == Lang::Fr { "o" } else { "B" };
            (bytes.to_string(), unit)
        });
    let value = if lang == Lang::Fr {
        value.replace('.', ",")
    } else {
        value
    };
    format!("{value}\u{a0}{unit}")
}

/// A whole number with the language's digit grouping.
pub fn format_number(lang: Lang, n: u64) -> String {
    let digits = n.to_string();
    let separator = if lang == Lang::Fr { '\u{202f}' } else { ',' };
    let mut groups: Vec<&str> = Vec::new();
    let (head, mut rest) = if lang == Lang::Hi && digits.len() > 3 {
        // Indian grouping: the last three digits, then pairs.
        let (head, tail) = digits.split_at(digits.len() - 3);
        groups.push(tail);
        (head, head.len())
    } else {
        (digits.as_str(), digits.len())
    };
    let step = if lang == Lang::Hi && digits.len() > 3 {
        2
    } else {
        3
    };
    while rest > step {
        groups.push(&head[rest - step..rest]);
        rest -= step;
    }
    groups.push(&head[..rest]);
    groups.reverse();
    groups.join(&separator.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_use_binary_units_and_the_language_decimal_mark() {
        assert_eq!(format_bytes(Lang::En, 6_592_670_679), "6.14\u{a0}GiB");
        assert_eq!(format_bytes(Lang::Fr, 6_592_670_679), "6,14\u{a0}Gio");
        assert_eq!(format_bytes(Lang::Ar, 35 * 1024 * 1024), "35.00\u{a0}MiB");
        assert_eq!(format_bytes(Lang::Hi, 0), "0\u{a0}B");
    }

    #[test]
    fn numbers_are_grouped_per_language() {
        assert_eq!(format_number(Lang::En, 1_234_567), "1,234,567");
        assert_eq!(format_number(Lang::Hi, 1_234_567), "12,34,567");
        assert_eq!(format_number(Lang::Fr, 65_536), "65\u{202f}536");
        assert_eq!(format_number(Lang::Ar, 999), "999");
        assert_eq!(format_number(Lang::Hi, 123_456_789), "12,34,56,789");
    }
}
