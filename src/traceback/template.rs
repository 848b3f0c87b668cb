//! The message template: the message with its variable parts replaced, so identical errors group.
//!
//! Like Sentry's message normalisation: paths, hex values, sizes, process ids and the remaining
//! numbers (device ids, counts, line numbers) become placeholders, whitespace is collapsed.
//! Numbers inside identifiers (`sm_86`, `cublasCreate_v2`) are kept: they name things. Word
//! boundaries are ASCII ones, which the fast regex engines support on any text.

use super::MAX_TEMPLATE_CHARS;
use regex::Regex;
use std::sync::LazyLock;

static PATH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r#"(?P<pre>^|[\s"'(\[=,`])"#,
        r"(?:(?:[A-Za-z]:|\.{1,2}|~)?[\\/][\w.@~+-]+(?:[\\/][\w.@~+-]*)*|[\w.@~+-]+(?:[\\/][\w.@~+-]+){2,})",
    ))
    .expect("valid regex")
});
static HEX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?-u:\b)0x[0-9a-fA-F]+(?-u:\b)",
        r"|(?-u:\b)(?:[0-9a-fA-F]*[0-9][0-9a-fA-F]*[a-fA-F]|[0-9a-fA-F]*[a-fA-F][0-9a-fA-F]*[0-9])[0-9a-fA-F]*(?-u:\b)",
    ))
        .expect("valid regex")
});
static SIZE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)[0-9]+(?:\.[0-9]*)?[—–]?\s*(?:KiB|MiB|GiB|TiB|KB|MB|GB|TB|kB|bytes|B)(?-u:\b)",
    )
    .expect("valid regex")
});
static PID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?-u:\b)(?P<word>pid(?:\(s\))?|process)(?P<sep>\s*[:=]?\s*)[0-9]+(?:\s*,\s*[0-9]+)*",
    )
    .expect("valid regex")
});
static NUMBER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u:\b)[0-9]+(?:\.[0-9]+)?(?-u:\b)").expect("valid regex"));

/// `message` with variable parts replaced by `<path>`, `<hex>`, `<size>`, `<pid>`, `<n>`.
pub fn message_template(message: &str) -> String {
    let s = PATH.replace_all(message, "${pre}<path>");
    let s = HEX.replace_all(&s, |c: &regex::Captures<'_>| {
        let m = c.get(0).map_or("", |m| m.as_str());
        // A short all-letter word like "bad" or "cafe" is a word, not a value.
        if m.len() >= 8 || m.starts_with("0x") {
            "<hex>".to_string()
        } else {
            m.to_string()
        }
    });
    let s = SIZE.replace_all(&s, "<size>");
    let s = PID.replace_all(&s, "${word}${sep}<pid>");
    let s = NUMBER.replace_all(&s, "<n>");
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    match out.char_indices().nth(MAX_TEMPLATE_CHARS) {
        Some((cut, _)) => out.get(..cut).unwrap_or(&out).to_string(),
        None => out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_oom_messages_that_differ_only_in_figures() {
        let a = message_template(
            "CUDA out of memory. Tried to allocate 6.14 GiB. GPU 0 has a total capacty of 11.69 GiB of which 2.68 GiB is free. Process 1246069 has 577.00 MiB memory in use.",
        );
        let b = message_template(
            "CUDA out of memory. Tried to allocate 138.00 MiB. GPU 1 has a total capacty of 15.90 GiB of which 8.44 MiB is free. Process 77 has 1.00 GiB memory in use.",
        );
        assert_eq!(a, b);
        assert_eq!(
            a,
            "CUDA out of memory. Tried to allocate <size>. GPU <n> has a total capacty of <size> of which <size> is free. Process <pid> has <size> memory in use."
        );
    }

    #[test]
    fn replaces_paths_hex_and_pids_but_keeps_identifiers() {
        assert_eq!(
            message_template(
                "cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/generic/THCStorage.cu:58"
            ),
            "cuda runtime error (<n>) : out of memory at <path>:<n>"
        );
        assert_eq!(
            message_template("DataLoader worker (pid(s) 1995171, 1996371) exited unexpectedly"),
            "DataLoader worker (pid(s) <pid>) exited unexpectedly"
        );
        assert_eq!(
            message_template("at 0x7f698eb62536 in deadbeef00"),
            "at <hex> in <hex>"
        );
        assert_eq!(
            message_template("GPU with CUDA capability sm_86 is not compatible with cuda:0"),
            "GPU with CUDA capability sm_86 is not compatible with cuda:<n>"
        );
        assert_eq!(
            message_template(
                r"[enforce fail at C:\b\abs_x\work\c10\core\impl\alloc_cpu.cpp:81] data."
            ),
            "[enforce fail at <path>:<n>] data."
        );
    }

    #[test]
    fn collapses_whitespace_and_bounds_length() {
        assert_eq!(message_template("  a \n\t b  "), "a b");
        assert_eq!(
            message_template(&"y ".repeat(5000)).chars().count(),
            MAX_TEMPLATE_CHARS
        );
    }
}
