//! "Did this fix it?": votes on articles and their validation. What votes do to the ranking
//! is the ranking's business (`search::feedback`).

use serde::Serialize;

use crate::content::Library;
use crate::i18n::Lang;

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
    fn match_ids_are_short_plain_tokens() {
        assert!(valid_match_id("q_01HZX3-abc"));
        assert!(!valid_match_id("<script>"));
        assert!(!valid_match_id(&"a".repeat(65)));
    }
}
