//! What identifies an error across people without keeping what they pasted: the error kind,
//! the exception type and the message template (numbers, sizes, paths, hex values and process
//! ids replaced, as Sentry groups messages), so two people's "CUDA out of memory. Tried to
//! allocate 2.00 GiB" count as one. The query log stores these three fields.

use serde::Serialize;

use crate::traceback::{self, ErrorKind, Parsed};

/// Characters kept of a typed search's words.
pub const MAX_QUERY_FINGERPRINT_CHARS: usize = 200;
/// `kind` of a typed search that shows no error.
pub const QUERY_KIND: &str = "query";

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Fingerprint {
    /// `cuda_oom`, `python_exception`, … or [`QUERY_KIND`].
    pub kind: String,
    /// The exception type as printed, or empty.
    pub exception: String,
    /// The message template, or empty (a paste in which no error can be recognized).
    pub message: String,
}

impl Fingerprint {
    /// The fingerprint of a parsed paste.
    pub fn of_paste(parsed: &Parsed) -> Fingerprint {
        Fingerprint {
            kind: parsed.kind.as_str().to_owned(),
            exception: parsed.exception.clone().unwrap_or_default(),
            message: parsed.message_template.clone().unwrap_or_default(),
        }
    }

    /// The fingerprint of a typed search: the error it names if it is an error line, else its
    /// words with the same replacements, cut to [`MAX_QUERY_FINGERPRINT_CHARS`].
    pub fn of_query(parsed: &Parsed, query: &str) -> Fingerprint {
        if parsed.exception.is_some() || parsed.kind != ErrorKind::Unknown {
            return Fingerprint::of_paste(parsed);
        }
        let words = traceback::message_template(&query.to_lowercase());
        Fingerprint {
            kind: QUERY_KIND.to_owned(),
            exception: String::new(),
            message: words.chars().take(MAX_QUERY_FINGERPRINT_CHARS).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traceback::parse;

    fn of_paste(text: &str) -> Fingerprint {
        Fingerprint::of_paste(&parse(text))
    }

    fn of_query(text: &str) -> Fingerprint {
        Fingerprint::of_query(&parse(text), text)
    }

    #[test]
    fn pastes_differing_only_in_figures_share_a_fingerprint() {
        let a = of_paste(
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 11.69 GiB of which 1.02 GiB is free.",
        );
        let b = of_paste(
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 3 has a total capacity of 79.15 GiB of which 12.00 MiB is free.",
        );
        assert_eq!(a, b);
        assert_eq!(a.kind, "cuda_oom");
        assert_eq!(a.exception, "torch.OutOfMemoryError");
        assert!(!a.message.contains("2.00"), "{}", a.message);
    }

    #[test]
    fn paths_and_user_names_do_not_reach_the_fingerprint() {
        let fp = of_paste(
            "Traceback (most recent call last):\n  File \"/home/alice/secret-project/train.py\", line 12, in <module>\nFileNotFoundError: [Errno 2] No such file or directory: '/home/alice/secret-project/data.bin'",
        );
        assert_eq!(fp.exception, "FileNotFoundError");
        assert!(!fp.message.contains("alice"), "{}", fp.message);
    }

    #[test]
    fn typed_words_become_a_query_fingerprint() {
        let fp = of_query("  Mémoire GPU   pleine après 3 epochs ");
        assert_eq!(fp.kind, QUERY_KIND);
        assert_eq!(fp.message, "mémoire gpu pleine après <n> epochs");
        let long = of_query(&"mot ".repeat(300));
        assert_eq!(long.message.chars().count(), MAX_QUERY_FINGERPRINT_CHARS);
    }

    #[test]
    fn a_search_for_an_error_line_is_fingerprinted_as_the_error() {
        let fp = of_query("RuntimeError: CUDA error: device-side assert triggered");
        assert_eq!(fp.kind, "cuda_error");
    }
}
