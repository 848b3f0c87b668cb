//! Numbers and sizes as each language writes them (the one formatter for pages, the diagnosis
//! and the API's explanations).
//!
//! Digits stay Western in every language (they are what tracebacks and nvidia-smi print);
//! the separators and the unit names change: `6.14 GiB` in English, `6,14 Gio` in French,
//! Indian digit grouping (`12,35,87,328`) in Hindi. Unit names come from `ui.ftl`
//! (`unit-gib`, …) so translators own them. Number and unit are joined by a no-break space
//! so a line never splits them.

use super::{FluentArgs, Lang, messages};

const KIB: u64 = 1 << 10;
const MIB: u64 = 1 << 20;
const GIB: u64 = 1 << 30;
const TIB: u64 = 1 << 40;

/// Formats numbers for one language.
#[derive(Debug, Clone, Copy)]
pub struct NumberFormat {
    lang: Lang,
}

impl NumberFormat {
    pub fn new(lang: Lang) -> Self {
        NumberFormat { lang }
    }

    fn decimal_separator(self) -> char {
        match self.lang {
            Lang::Fr => ',',
            _ => '.',
        }
    }

    /// An integer with grouped digits: 65,536 · 65 536 · in Hindi 12,35,87,328.
    pub fn int(self, n: u64) -> String {
        format_number(self.lang, n)
    }

    /// `x` with `decimals` digits after the separator (grouped integer part).
    pub fn decimal(self, x: f64, decimals: usize) -> String {
        if !x.is_finite() {
            return "—".to_owned();
        }
        let text = format!("{:.*}", decimals, x.abs());
        let (int_part, frac) = text.split_once('.').unwrap_or((&text, ""));
        let int_value: u64 = int_part.parse().unwrap_or(0);
        let mut out = String::new();
        if x < 0.0 && text.chars().any(|c| c.is_ascii_digit() && c != '0') {
            out.push('−');
        }
        out.push_str(&self.int(int_value));
        if !frac.is_empty() {
            out.push(self.decimal_separator());
            out.push_str(frac);
        }
        out
    }

    /// A size as PyTorch prints it — two decimals in the largest binary unit that keeps the
    /// number at least 1 — with the language's separator and unit name.
    pub fn bytes(self, n: u64) -> String {
        let (unit, id) = match n {
            _ if n >= TIB => (TIB, "unit-tib"),
            _ if n >= GIB => (GIB, "unit-gib"),
            _ if n >= MIB => (MIB, "unit-mib"),
            _ if n >= KIB => (KIB, "unit-kib"),
            _ => return self.with_unit(&self.int(n), "unit-b"),
        };
        self.with_unit(&self.decimal(n as f64 / unit as f64, 2), id)
    }

    /// A share as a whole percentage (0.874 → 87 %, with a narrow no-break space in French).
    pub fn percent(self, share: f64) -> String {
        let number = self.decimal(share * 100.0, 0);
        if self.lang == Lang::Fr {
            format!("{number}\u{202f}%")
        } else {
            format!("{number}%")
        }
    }

    /// A size in GiB with `decimals` decimals (axis ticks: 4 GiB, 2.5 GiB).
    pub fn gib_with(self, n: u64, decimals: usize) -> String {
        self.with_unit(&self.decimal(n as f64 / GIB as f64, decimals), "unit-gib")
    }

    /// A parameter count in millions: 123.59 M.
    pub fn millions(self, n: u64) -> String {
        self.with_unit(&self.decimal(n as f64 / 1e6, 2), "unit-million")
    }

    /// `number-unit` of ui.ftl puts the two together (with a no-break space).
    fn with_unit(self, number: &str, unit_id: &str) -> String {
        let mut args = FluentArgs::new();
        args.set("number", number.to_owned());
        args.set("unit", messages().format(self.lang, unit_id, None));
        messages().format(self.lang, "number-unit", Some(&args))
    }
}

/// A whole number with the language's digit grouping.
fn format_number(lang: Lang, n: u64) -> String {
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
    fn sizes_are_printed_like_pytorch_in_each_language() {
        let n = 6_592_774_799;
        assert_eq!(NumberFormat::new(Lang::En).bytes(n), "6.14\u{a0}GiB");
        assert_eq!(NumberFormat::new(Lang::Fr).bytes(n), "6,14\u{a0}Gio");
        assert_eq!(
            NumberFormat::new(Lang::En).bytes(35 * MIB),
            "35.00\u{a0}MiB"
        );
        assert_eq!(NumberFormat::new(Lang::En).bytes(512), "512\u{a0}B");
    }

    #[test]
    fn integers_are_grouped_per_language() {
        assert_eq!(NumberFormat::new(Lang::En).int(123_587_328), "123,587,328");
        assert_eq!(
            NumberFormat::new(Lang::Fr).int(65_536),
            "65\u{202f}536".to_owned()
        );
        assert_eq!(NumberFormat::new(Lang::Hi).int(123_587_328), "12,35,87,328");
        assert_eq!(NumberFormat::new(Lang::Hi).int(1000), "1,000");
        assert_eq!(NumberFormat::new(Lang::Ar).int(999), "999");
        assert_eq!(NumberFormat::new(Lang::En).int(0), "0");
    }

    #[test]
    fn decimals_use_the_language_separator() {
        assert_eq!(
            NumberFormat::new(Lang::Fr).decimal(1234.5, 1),
            "1\u{202f}234,5"
        );
        assert_eq!(NumberFormat::new(Lang::En).decimal(-0.001, 2), "0.00");
        assert_eq!(NumberFormat::new(Lang::En).decimal(f64::NAN, 2), "—");
    }
}
