//! "Did this fix it?": votes on articles, their validation, and the ranking nudge they give.

use serde::Serialize;

use crate::content::Library;
use crate::i18n::Lang;

/// Votes a group gets before it moves away from neutral: every group starts as if it had this
/// many votes, half helpful, half not.
pub const PRIOR_VOTES: f64 = 10.0;
/// The largest change feedback makes to a score, either way (0.1 → ×0.9 … ×1.1).
pub const MAX_NUDGE: f64 = 0.1;
/// Longest `match_id` accepted.
pub const MAX_MATCH_ID_CHARS: usize = 64;

/// Votes of one article group.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct FeedbackCounts {
    pub helpful: u64,
    pub not_helpful: u64,
}

impl FeedbackCounts {
    pub fn total(self) -> u64 {
        self.helpful + self.not_helpful
    }

    /// Share of helpful votes, pulled towards ½ by [`PRIOR_VOTES`] neutral votes.
    pub fn helpful_share(self) -> f64 {
        (self.helpful as f64 + PRIOR_VOTES / 2.0) / (self.total() as f64 + PRIOR_VOTES)
    }

    pub fn boost(self) -> f32 {
        feedback_boost(self.helpful, self.not_helpful)
    }
}

/// The factor feedback applies to an article's ranking score.
///
/// A Bayesian average: the helpful share is computed as if [`PRIOR_VOTES`] neutral votes
/// (half each way) had been cast before the real ones, then mapped linearly onto
/// `1 ± MAX_NUDGE`. With no votes the factor is exactly 1; one vote moves it by less than 1 %;
/// 40 helpful votes and none against give ×1.08; the factor never leaves 0.9–1.1, so feedback
/// reorders only results that were already close and a handful of votes never flips a ranking.
pub fn feedback_boost(helpful: u64, not_helpful: u64) -> f32 {
    let share = FeedbackCounts {
        helpful,
        not_helpful,
    }
    .helpful_share();
    let factor = 1.0 + (share - 0.5) * 2.0 * MAX_NUDGE;
    factor.clamp(1.0 - MAX_NUDGE, 1.0 + MAX_NUDGE) as f32
}

/// A vote as sent by a client, before validation.
#[derive(Debug, Clone)]
pub struct FeedbackInput {
    pub article: String,
    pub lang: String,
    pub section: Option<String>,
    pub helpful: bool,
    pub match_id: Option<String>,
}

/// A vote checked against the library, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewFeedback {
    pub article: String,
    pub lang: Lang,
    pub section: Option<String>,
    pub helpful: bool,
    pub match_id: Option<String>,
    pub created_at: i64,
}

/// Why a vote was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FeedbackError {
    #[error("`{0}` is not a supported language (ar, hi, fr, en)")]
    UnsupportedLanguage(String),
    #[error("no article `{article}` in `{lang}`")]
    UnknownArticle { article: String, lang: Lang },
    #[error("article `{article}` has no section `{section}`")]
    UnknownSection { article: String, section: String },
    #[error("match_id must be 1–64 characters among A–Z, a–z, 0–9, `-` and `_`")]
    InvalidMatchId,
}

impl FeedbackInput {
    /// Checks the vote names an article (and section) the library has. Names echoed in errors
    /// are cut short; the caller escapes them for its medium.
    pub fn validate(self, library: &Library, now_ms: i64) -> Result<NewFeedback, FeedbackError> {
        let lang: Lang = self
            .lang
            .parse()
            .map_err(|_| FeedbackError::UnsupportedLanguage(cut(&self.lang)))?;
        let article =
            library
                .get(&self.article, lang)
                .ok_or_else(|| FeedbackError::UnknownArticle {
                    article: cut(&self.article),
                    lang,
                })?;
        let section = match self.section.filter(|s| !s.is_empty()) {
            Some(id) if article.section(&id).is_none() => {
                return Err(FeedbackError::UnknownSection {
                    article: article.id.clone(),
                    section: cut(&id),
                });
            }
            other => other,
        };
        let match_id = match self.match_id.filter(|m| !m.is_empty()) {
            Some(id) if !valid_match_id(&id) => return Err(FeedbackError::InvalidMatchId),
            other => other,
        };
        Ok(NewFeedback {
            article: article.id.clone(),
            lang,
            section,
            helpful: self.helpful,
            match_id,
            created_at: now_ms,
        })
    }
}

fn valid_match_id(id: &str) -> bool {
    id.len() <= MAX_MATCH_ID_CHARS
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn cut(text: &str) -> String {
    text.chars().take(100).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_votes_leave_the_score_alone() {
        assert_eq!(feedback_boost(0, 0), 1.0);
        assert_eq!(feedback_boost(7, 7), 1.0);
    }

    #[test]
    fn a_few_votes_barely_move_the_score() {
        let one_up = feedback_boost(1, 0);
        let one_down = feedback_boost(0, 1);
        assert!(one_up > 1.0 && one_up < 1.01, "{one_up}");
        assert!(one_down < 1.0 && one_down > 0.99, "{one_down}");
        // Three angry votes cannot outweigh a 5 % lead in the engine's score.
        assert!(feedback_boost(0, 3) * 1.05 > feedback_boost(0, 0));
    }

    #[test]
    fn many_votes_approach_but_never_pass_the_bounds() {
        assert!((feedback_boost(40, 0) - 1.08).abs() < 1e-6);
        let best = feedback_boost(1_000_000, 0);
        let worst = feedback_boost(0, 1_000_000);
        assert!(best > 1.099 && best <= 1.1, "{best}");
        assert!((0.9..0.901).contains(&worst), "{worst}");
        assert!(feedback_boost(u64::MAX / 2, u64::MAX / 2).is_finite());
    }

    #[test]
    fn more_helpful_votes_never_lower_the_factor() {
        let mut last = 0.0;
        for helpful in 0..200 {
            let factor = feedback_boost(helpful, 20);
            assert!(factor >= last);
            last = factor;
        }
    }

    #[test]
    fn match_ids_are_short_plain_tokens() {
        assert!(valid_match_id("q_01HZX3-abc"));
        assert!(!valid_match_id("<script>"));
        assert!(!valid_match_id(&"a".repeat(65)));
    }
}
