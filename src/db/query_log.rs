//! What is recorded of each match and search: never the text itself, only a fingerprint of
//! the error it shows, so the report can tell which errors ilaj has no article for.
//!
//! The fingerprint is the traceback parser's: the error kind, the exception type and the
//! message with numbers, sizes, paths, hex values and process ids replaced by placeholders (as
//! Sentry normalizes messages), so two people's "CUDA out of memory. Tried to allocate 2.00 GiB"
//! count as one. A paste in which no error can be recognized is recorded with an empty
//! fingerprint (it still counts, but says nothing of its content). A typed search that is not
//! an error line is recorded as kind `query` with the same replacements applied to the words,
//! cut to [`MAX_QUERY_FINGERPRINT_CHARS`].

use std::time::Duration;

use serde::Serialize;

use crate::i18n::Lang;
use crate::traceback;

/// Characters kept of a typed search's fingerprint.
pub const MAX_QUERY_FINGERPRINT_CHARS: usize = 200;
/// `kind` recorded for typed searches that show no error.
pub const QUERY_KIND: &str = "query";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Endpoint {
    Match,
    Search,
}

impl Endpoint {
    pub fn as_str(self) -> &'static str {
        match self {
            Endpoint::Match => "match",
            Endpoint::Search => "search",
        }
    }
}

/// The grouping key of a query.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fingerprint {
    /// `cuda_oom`, `python_exception`, … or [`QUERY_KIND`].
    pub kind: String,
    /// The exception type as printed, or empty.
    pub exception: String,
    /// The normalized message, or empty.
    pub message: String,
}

impl Fingerprint {
    /// The fingerprint of an already parsed paste (the match handler has parsed it anyway).
    pub fn from_parsed(parsed: &traceback::Parsed) -> Fingerprint {
        Fingerprint {
            kind: parsed.kind.as_str().to_owned(),
            exception: parsed.exception.clone().unwrap_or_default(),
            message: parsed.fingerprint_message.clone().unwrap_or_default(),
        }
    }

    /// The fingerprint from the search engine's grouping key (`MatchOutcome::fingerprint`,
    /// `kind|exception|message`), so a match need not be parsed twice.
    pub fn from_key(key: &str) -> Fingerprint {
        let mut parts = key.splitn(3, '|');
        let mut next = || parts.next().unwrap_or_default().to_owned();
        let kind = next();
        let exception = next();
        let message = next();
        Fingerprint {
            kind: if kind.is_empty() {
                traceback::ErrorKind::Unknown.as_str().to_owned()
            } else {
                kind
            },
            exception,
            message,
        }
    }

    /// The fingerprint of a pasted text.
    pub fn of_paste(text: &str) -> Fingerprint {
        Fingerprint::from_parsed(&traceback::parse(text))
    }

    /// The fingerprint of a typed search: the error it names if it is an error line, else the
    /// normalized words.
    pub fn of_search(query: &str) -> Fingerprint {
        let parsed = traceback::parse(query);
        if parsed.exception.is_some() || parsed.kind != traceback::ErrorKind::Unknown {
            return Fingerprint::from_parsed(&parsed);
        }
        let words = traceback::fingerprint(&query.to_lowercase());
        Fingerprint {
            kind: QUERY_KIND.to_owned(),
            exception: String::new(),
            message: words.chars().take(MAX_QUERY_FINGERPRINT_CHARS).collect(),
        }
    }
}

/// One recorded match or search.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QueryRecord {
    /// The id a client may send back with its feedback, if the handler gave one out.
    pub match_id: Option<String>,
    pub endpoint: Endpoint,
    pub lang: Lang,
    pub fingerprint: Fingerprint,
    /// Group id and score of the best result, if there was any.
    pub top: Option<(String, f64)>,
    pub result_count: u32,
    pub latency_ms: u64,
    pub created_at: i64,
}

impl QueryRecord {
    pub fn new(
        endpoint: Endpoint,
        lang: Lang,
        fingerprint: Fingerprint,
        top: Option<(String, f64)>,
        result_count: usize,
        latency: Duration,
    ) -> QueryRecord {
        QueryRecord {
            match_id: None,
            endpoint,
            lang,
            fingerprint,
            top,
            result_count: u32::try_from(result_count).unwrap_or(u32::MAX),
            latency_ms: u64::try_from(latency.as_millis()).unwrap_or(u64::MAX),
            created_at: super::now_ms(),
        }
    }

    pub fn with_match_id(mut self, match_id: impl Into<String>) -> QueryRecord {
        self.match_id = Some(match_id.into());
        self
    }
}

/// A fresh random id for a match (`m_` and 16 hex digits), to hand out with the results and
/// receive back with feedback.
pub fn new_match_id() -> String {
    let mut bytes = [0u8; 8];
    // A clock-derived id is unique enough when the OS refuses randomness, which it never does
    // in practice; the id is a correlation handle, not a secret.
    if getrandom::fill(&mut bytes).is_err() {
        bytes = super::now_ms().to_le_bytes();
    }
    let mut id = String::from("m_");
    for b in bytes {
        id.push_str(&format!("{b:02x}"));
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pastes_differing_only_in_figures_share_a_fingerprint() {
        let a = Fingerprint::of_paste(
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 11.69 GiB of which 1.02 GiB is free.",
        );
        let b = Fingerprint::of_paste(
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 3 has a total capacity of 79.15 GiB of which 12.00 MiB is free.",
        );
        assert_eq!(a, b);
        assert_eq!(a.kind, "cuda_oom");
        assert_eq!(a.exception, "torch.OutOfMemoryError");
        assert!(!a.message.contains("2.00"), "{}", a.message);
    }

    #[test]
    fn paths_and_user_names_do_not_reach_the_fingerprint() {
        let fp = Fingerprint::of_paste(
            "Traceback (most recent call last):\n  File \"/home/alice/secret-project/train.py\", line 12, in <module>\nFileNotFoundError: [Errno 2] No such file or directory: '/home/alice/secret-project/data.bin'",
        );
        assert_eq!(fp.exception, "FileNotFoundError");
        assert!(!fp.message.contains("alice"), "{}", fp.message);
    }

    #[test]
    fn typed_words_become_a_query_fingerprint() {
        let fp = Fingerprint::of_search("  Mémoire GPU   pleine après 3 epochs ");
        assert_eq!(fp.kind, QUERY_KIND);
        assert_eq!(fp.message, "mémoire gpu pleine après <n> epochs");
        let long = Fingerprint::of_search(&"mot ".repeat(300));
        assert_eq!(long.message.chars().count(), MAX_QUERY_FINGERPRINT_CHARS);
    }

    #[test]
    fn a_search_for_an_error_line_is_fingerprinted_as_the_error() {
        let fp = Fingerprint::of_search("RuntimeError: CUDA error: device-side assert triggered");
        assert_eq!(fp.kind, "cuda_error");
    }

    #[test]
    fn the_engine_key_gives_the_same_fingerprint_as_parsing() {
        let paste = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB | odd";
        let parsed = traceback::parse(paste);
        let key = format!(
            "{}|{}|{}",
            parsed.kind.as_str(),
            parsed.exception.as_deref().unwrap_or(""),
            parsed.fingerprint_message.as_deref().unwrap_or("")
        );
        assert_eq!(Fingerprint::from_key(&key), Fingerprint::of_paste(paste));
        assert_eq!(Fingerprint::from_key("").kind, "unknown");
    }

    #[test]
    fn match_ids_are_distinct_tokens() {
        let a = new_match_id();
        assert_eq!(a.len(), 18);
        assert!(a.starts_with("m_"));
        assert_ne!(a, new_match_id());
    }
}
