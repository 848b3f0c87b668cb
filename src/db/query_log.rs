//! What is recorded of each match and search: never the text itself, only the fingerprint of
//! the error it shows (`reading::Fingerprint`: kind, exception, message template), so the
//! report can tell which errors ilaj has no article for.
//!
//! Records are not kept one by one: they are summed per fingerprint, language, answer state
//! and UTC day ([`QueryStat`]), so a chatbot sending the same error a million times adds one
//! row a day, not a million; each fingerprint's text is stored once. Days older than the
//! retention setting are deleted, with the fingerprints no remaining day refers to.

use std::collections::HashMap;
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

/// Milliseconds in a day: days are counted in UTC from the Unix epoch.
pub const DAY_MS: i64 = 86_400_000;

/// The UTC day (days since 1970-01-01) of a Unix-milliseconds time.
pub fn day_of(ms: i64) -> i64 {
    ms.div_euclid(DAY_MS)
}

/// The sum of the queries of one fingerprint, language, answer state and day: one row of the
/// query log.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryStat {
    pub kind: String,
    pub exception: String,
    pub fingerprint: String,
    pub lang: Lang,
    /// `confident`, `uncertain`, `none`, or `unknown` for a record without a state.
    pub answer: &'static str,
    pub day: i64,
    pub queries: u64,
    /// Of which returned no result.
    pub unscored: u64,
    pub best_score: Option<f64>,
    pub worst_score: Option<f64>,
    pub latency_ms_sum: u64,
    pub latency_ms_max: u64,
    pub last_seen: i64,
}

/// The answer column of a record without a state.
pub const UNKNOWN_ANSWER: &str = "unknown";

impl QueryStat {
    fn of(record: &QueryRecord) -> QueryStat {
        let score = record.top.as_ref().map(|(_, score)| *score);
        QueryStat {
            kind: record.fingerprint.kind.clone(),
            exception: record.fingerprint.exception.clone(),
            fingerprint: record.fingerprint.message.clone(),
            lang: record.lang,
            answer: record.answer.map_or(UNKNOWN_ANSWER, AnswerState::as_str),
            day: day_of(record.created_at),
            queries: 1,
            unscored: u64::from(score.is_none()),
            best_score: score,
            worst_score: score,
            latency_ms_sum: record.latency_ms,
            latency_ms_max: record.latency_ms,
            last_seen: record.created_at,
        }
    }

    fn add(&mut self, other: &QueryStat) {
        self.queries += other.queries;
        self.unscored += other.unscored;
        self.best_score = merge(self.best_score, other.best_score, f64::max);
        self.worst_score = merge(self.worst_score, other.worst_score, f64::min);
        self.latency_ms_sum = self.latency_ms_sum.saturating_add(other.latency_ms_sum);
        self.latency_ms_max = self.latency_ms_max.max(other.latency_ms_max);
        self.last_seen = self.last_seen.max(other.last_seen);
    }
}

fn merge(a: Option<f64>, b: Option<f64>, pick: fn(f64, f64) -> f64) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(pick(a, b)),
        (a, b) => a.or(b),
    }
}

/// Sums a batch of records into one [`QueryStat`] per row they touch, in primary-key order
/// (so concurrent writers on a shared database lock rows in the same order).
pub fn aggregate(records: &[QueryRecord]) -> Vec<QueryStat> {
    type Key<'a> = (&'a str, &'a str, &'a str, Lang, &'static str, i64);
    let mut sums: HashMap<Key<'_>, QueryStat> = HashMap::new();
    for record in records {
        let stat = QueryStat::of(record);
        let key = (
            record.fingerprint.kind.as_str(),
            record.fingerprint.exception.as_str(),
            record.fingerprint.message.as_str(),
            stat.lang,
            stat.answer,
            stat.day,
        );
        match sums.get_mut(&key) {
            Some(sum) => sum.add(&stat),
            None => {
                sums.insert(key, stat);
            }
        }
    }
    let mut stats: Vec<QueryStat> = sums.into_values().collect();
    stats.sort_by(|a, b| {
        (
            a.day,
            &a.kind,
            &a.exception,
            &a.fingerprint,
            a.lang,
            a.answer,
        )
            .cmp(&(
                b.day,
                &b.kind,
                &b.exception,
                &b.fingerprint,
                b.lang,
                b.answer,
            ))
    });
    stats
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

    fn record(
        message: &str,
        top: Option<f64>,
        answer: Option<AnswerState>,
        at: i64,
    ) -> QueryRecord {
        let mut record = QueryRecord::new(
            Endpoint::Match,
            Lang::Fr,
            Fingerprint {
                kind: "python_exception".into(),
                exception: "E".into(),
                message: message.into(),
            },
            top.map(|s| ("a".to_owned(), s)),
            usize::from(top.is_some()),
            // The time into the day doubles as the latency.
            Duration::from_millis(u64::try_from(at.rem_euclid(DAY_MS)).unwrap()),
        );
        record.created_at = at;
        record.answer = answer;
        record
    }

    #[test]
    fn a_batch_sums_into_one_row_per_fingerprint_answer_and_day() {
        let day = 20_000 * DAY_MS;
        let records = [
            record("m", Some(12.0), Some(AnswerState::Uncertain), day + 5),
            record("m", None, Some(AnswerState::Uncertain), day + 9),
            record("m", Some(14.0), Some(AnswerState::Uncertain), day + 6),
            record("m", Some(30.0), Some(AnswerState::Confident), day + 1),
            record("m", Some(12.0), Some(AnswerState::Uncertain), day + DAY_MS),
            record("other", None, None, day + 2),
        ];
        let stats = aggregate(&records);
        assert_eq!(stats.len(), 4, "{stats:#?}");
        let uncertain = stats
            .iter()
            .find(|s| s.answer == "uncertain" && s.day == 20_000)
            .unwrap();
        assert_eq!(uncertain.queries, 3);
        assert_eq!(uncertain.unscored, 1);
        assert_eq!(uncertain.best_score, Some(14.0));
        assert_eq!(uncertain.worst_score, Some(12.0));
        assert_eq!(uncertain.latency_ms_sum, 5 + 9 + 6);
        assert_eq!(uncertain.latency_ms_max, 9);
        assert_eq!(uncertain.last_seen, day + 9);
        let unknown = stats.iter().find(|s| s.fingerprint == "other").unwrap();
        assert_eq!(unknown.answer, UNKNOWN_ANSWER);
        assert_eq!(unknown.best_score, None);
    }

    #[test]
    fn days_are_utc_days_since_the_epoch() {
        assert_eq!(day_of(0), 0);
        assert_eq!(day_of(DAY_MS - 1), 0);
        assert_eq!(day_of(DAY_MS), 1);
        assert_eq!(day_of(-1), -1);
    }

    #[test]
    fn match_ids_are_distinct_tokens() {
        let a = new_match_id();
        assert_eq!(a.len(), 18);
        assert!(a.starts_with("m_"));
        assert_ne!(a, new_match_id());
    }
}
