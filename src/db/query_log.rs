//! What is recorded of each match and search: never the text itself, only the fingerprint of
//! the error it shows (`reading::Fingerprint`: kind, exception, message template), so the
//! report can tell which errors ilaj has no article for.

use std::time::Duration;

use serde::Serialize;

use crate::i18n::Lang;
use crate::reading::Fingerprint;
use crate::search::AnswerState;

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
    /// How sure the answer was.
    pub answer: Option<AnswerState>,
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
            answer: None,
        }
    }

    pub fn with_answer(mut self, answer: AnswerState) -> QueryRecord {
        self.answer = Some(answer);
        self
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
    fn match_ids_are_distinct_tokens() {
        let a = new_match_id();
        assert_eq!(a.len(), 18);
        assert!(a.starts_with("m_"));
        assert_ne!(a, new_match_id());
    }
}
