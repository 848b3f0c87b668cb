//! Sizes as PyTorch prints them ("6.14 GiB", "0 bytes", "459.07 MB") converted to bytes.
//!
//! The printed value is already rounded by PyTorch; we convert exactly what was printed:
//! round-half-up of `value × unit`, computed on the decimal digits in integers so that no
//! floating-point error can move the result by a byte. `KB/MB/GB` (Apple's MPS allocator) are
//! binary multiples in practice, like `KiB/MiB/GiB`.

/// Bytes in one `unit`, for the units PyTorch and its allocators print.
pub fn unit_bytes(unit: &str) -> Option<u64> {
    Some(match unit {
        "B" | "bytes" | "byte" | "Bytes" => 1,
        "KiB" | "KB" | "kB" => 1 << 10,
        "MiB" | "MB" => 1 << 20,
        "GiB" | "GB" => 1 << 30,
        "TiB" | "TB" => 1 << 40,
        _ => return None,
    })
}

/// Reads a size as a person types it or PyTorch prints it: `6.14 GiB`, `6,14 Gio`,
/// `512MiB`, `11.69 GB`, or plain bytes. Units are binary multiples, as PyTorch's are
/// (its `GB` in MPS messages too); the arithmetic is the traceback parser's, exact to the
/// byte. `None` if it is not a size.
pub fn parse_size(text: &str) -> Option<u64> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let split = compact
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
        .unwrap_or(compact.len());
    let (number, unit) = compact.split_at(split);
    // A French decimal comma; a number with both separators is ambiguous, so refused.
    if number.contains('.') && number.contains(',') {
        return None;
    }
    let number = number.replacen(',', ".", 1);
    let unit = match unit.to_ascii_lowercase().as_str() {
        "" | "b" | "o" | "bytes" | "octets" => "B",
        "k" | "kb" | "kib" | "ko" | "kio" => "KiB",
        "m" | "mb" | "mib" | "mo" | "mio" => "MiB",
        "g" | "gb" | "gib" | "go" | "gio" => "GiB",
        "t" | "tb" | "tib" | "to" | "tio" => "TiB",
        _ => return None,
    };
    size_to_bytes(&number, unit)
}

/// `number` (ASCII digits with at most one `.`, as printed) times `unit`, rounded half up.
/// `None` when the number is malformed, the unit unknown, or the result exceeds `u64`.
/// "6.14" GiB → 6592774799.
pub fn size_to_bytes(number: &str, unit: &str) -> Option<u64> {
    let unit = u128::from(unit_bytes(unit)?);
    let (int, frac) = number.split_once('.').unwrap_or((number, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Leading zeros of the integer and trailing zeros of the fraction carry no value; dropping
    // them keeps the integers small.
    let int = int.trim_start_matches('0');
    let frac = frac.trim_end_matches('0');
    if int.len() > 20 || frac.len() > 18 {
        return None;
    }
    let scale = 10u128.checked_pow(u32::try_from(frac.len()).ok()?)?;
    let int_value = digits_value(int)?;
    let frac_value = digits_value(frac)?;
    let value = int_value.checked_mul(scale)?.checked_add(frac_value)?;
    let product = value.checked_mul(unit)?;
    let rounded = product.checked_add(scale / 2)? / scale;
    u64::try_from(rounded).ok()
}

fn digits_value(digits: &str) -> Option<u128> {
    digits.bytes().try_fold(0u128, |acc, b| {
        acc.checked_mul(10)?
            .checked_add(u128::from(b.checked_sub(b'0')?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_printed_values_exactly() {
        assert_eq!(size_to_bytes("6.14", "GiB"), Some(6_592_774_799));
        assert_eq!(size_to_bytes("11.69", "GiB"), Some(12_552_041_923));
        assert_eq!(size_to_bytes("35.12", "MiB"), Some(36_825_989));
        assert_eq!(size_to_bytes("0", "bytes"), Some(0));
        assert_eq!(
            size_to_bytes("116813856768", "bytes"),
            Some(116_813_856_768)
        );
        assert_eq!(size_to_bytes("179.00", "KiB"), Some(183_296));
        assert_eq!(size_to_bytes("6.25", "MB"), Some(6_553_600));
        assert_eq!(size_to_bytes("1.5", "TiB"), Some(1_649_267_441_664));
    }

    #[test]
    fn rounds_half_up_without_float_error() {
        // 0.1 B is 0.1 → 0; 0.5 B → 1; 2.675 KiB = 2739.2 → 2739.
        assert_eq!(size_to_bytes("0.1", "B"), Some(0));
        assert_eq!(size_to_bytes("0.5", "B"), Some(1));
        assert_eq!(size_to_bytes("2.675", "KiB"), Some(2739));
        assert_eq!(size_to_bytes("8.44", "MiB"), Some(8_849_981));
        assert_eq!(size_to_bytes("4.35", "GiB"), Some(4_670_776_934));
    }

    #[test]
    fn accepts_mangled_but_readable_numbers() {
        assert_eq!(size_to_bytes("512.", "MiB"), Some(536_870_912));
        assert_eq!(size_to_bytes(".5", "KiB"), Some(512));
        assert_eq!(size_to_bytes("007.50", "B"), Some(8));
    }

    #[test]
    fn rejects_garbage_and_overflow() {
        assert_eq!(size_to_bytes("", "GiB"), None);
        assert_eq!(size_to_bytes(".", "GiB"), None);
        assert_eq!(size_to_bytes("1.2.3", "GiB"), None);
        assert_eq!(size_to_bytes("1e3", "GiB"), None);
        assert_eq!(size_to_bytes("12", "GiBs"), None);
        assert_eq!(size_to_bytes("99999999999", "TiB"), None);
        assert_eq!(size_to_bytes("1.0000000000000000000001", "B"), None);
    }

    #[test]
    fn typed_sizes_are_read_in_any_common_form() {
        assert_eq!(parse_size("6.14 GiB"), Some(6_592_774_799));
        assert_eq!(parse_size("6,14 Gio"), Some(6_592_774_799));
        assert_eq!(parse_size("512MiB"), Some(512 << 20));
        assert_eq!(parse_size("6592774799"), Some(6_592_774_799));
        assert_eq!(parse_size("12 GB"), Some(12 << 30));
        assert_eq!(parse_size("lots"), None);
        assert_eq!(parse_size("6.14 parsecs"), None);
        assert_eq!(parse_size(""), None);
        assert_eq!(parse_size("99999999999999999999 TiB"), None);
    }
}
