//! The content-gap report: which errors people bring that ilaj has no good article for, and
//! which articles readers find helpful or not.
//!
//! A query has **no good match** when its answer was `none` or `uncertain` (listed first, in
//! that order). Queries logged without a state (before answers had one) count when their
//! day's sum for that fingerprint and language holds one with no result or a best score below
//! `min_score` ([`DEFAULT_MIN_SCORE`] unless told otherwise): the log keeps daily sums, not
//! single queries (`query_log`).

use std::io::{self, Write};

use serde::Serialize;

use super::{DbError, FeedbackCounts, Store, format_time, now_ms};
use crate::search::AnswerState;

/// Best-result score under which a query counts as unanswered. The engine gives its best
/// word-similarity match 10 whatever the words (the text score is relative to the best one),
/// and adds the weight of the article's error signatures found in the paste and 16 for a
/// recognized situation; so below 15 only word overlap supported the top result. On the
/// evaluation pastes, 57 of 58 correct top results score 21.8 or more; unrelated errors
/// ("KeyError: 'foo'", "wandb login failed") score exactly 10.
pub const DEFAULT_MIN_SCORE: f64 = 15.0;
pub const DEFAULT_LIMIT: u32 = 20;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReportOptions {
    /// Rows per list.
    pub limit: u32,
    pub min_score: f64,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            limit: DEFAULT_LIMIT,
            min_score: DEFAULT_MIN_SCORE,
        }
    }
}

/// A fingerprint that found no good match.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GapRow {
    pub kind: String,
    pub exception: String,
    pub fingerprint: String,
    /// Queries with this fingerprint and no good match.
    pub count: u64,
    /// Languages they were asked in, sorted.
    pub langs: Vec<String>,
    /// The best score any of them reached (`None`: none had a result).
    pub best_score: Option<f64>,
    pub last_seen: i64,
    /// The least sure answer any of them got (`None`: logged before answers had a state).
    pub answer: Option<AnswerState>,
}

/// Votes of one article group, with the ranking factor they give.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArticleVotes {
    pub article: String,
    pub helpful: u64,
    pub not_helpful: u64,
    /// [`crate::search::helpful_share`]: the Bayesian helpful share.
    pub helpful_share: f64,
    /// [`crate::search::feedback_factor`].
    pub boost: f32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub generated_at: i64,
    pub min_score: f64,
    pub queries_recorded: u64,
    pub unmatched: Vec<GapRow>,
    /// Articles with at least one helpful vote, best first.
    pub most_helpful: Vec<ArticleVotes>,
    /// Articles with at least one "not helpful" vote, worst first.
    pub least_helpful: Vec<ArticleVotes>,
}

impl Report {
    pub async fn build(store: &dyn Store, options: ReportOptions) -> Result<Report, DbError> {
        let limit = options.limit.max(1);
        let unmatched = store
            .unmatched_fingerprints(options.min_score, limit)
            .await?;
        let votes: Vec<ArticleVotes> = store
            .all_feedback_counts()
            .await?
            .into_iter()
            .map(|(article, counts)| votes(article, counts))
            .collect();
        let take = usize::try_from(limit).unwrap_or(usize::MAX);
        let mut most: Vec<ArticleVotes> = votes.iter().filter(|v| v.helpful > 0).cloned().collect();
        most.sort_by(|a, b| {
            b.helpful_share
                .total_cmp(&a.helpful_share)
                .then_with(|| a.article.cmp(&b.article))
        });
        most.truncate(take);
        let mut least: Vec<ArticleVotes> =
            votes.into_iter().filter(|v| v.not_helpful > 0).collect();
        least.sort_by(|a, b| {
            a.helpful_share
                .total_cmp(&b.helpful_share)
                .then_with(|| a.article.cmp(&b.article))
        });
        least.truncate(take);
        Ok(Report {
            generated_at: now_ms(),
            min_score: options.min_score,
            queries_recorded: store.query_count().await?,
            unmatched,
            most_helpful: most,
            least_helpful: least,
        })
    }

    /// The report as plain text for a terminal.
    pub fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(
            out,
            "ilaj content-gap report, {} ({} queries recorded; no good match = answered none or uncertain, or, logged before answers had a state, no result or best score < {})",
            format_time(self.generated_at),
            self.queries_recorded,
            self.min_score
        )?;
        writeln!(out)?;
        writeln!(out, "Most frequent errors with no good match:")?;
        if self.unmatched.is_empty() {
            writeln!(out, "  (none)")?;
        }
        for (rank, row) in self.unmatched.iter().enumerate() {
            writeln!(
                out,
                "{:>3}. {:>5}×  {:<9}  {}  [{}; best score {}; last {}]",
                rank + 1,
                row.count,
                row.answer.map_or("low score", AnswerState::as_str),
                row.label(),
                row.langs.join(","),
                row.best_score
                    .map_or("none".to_owned(), |s| format!("{s:.2}")),
                format_time(row.last_seen),
            )?;
        }
        for (title, rows) in [
            ("Most helpful articles:", &self.most_helpful),
            ("Least helpful articles:", &self.least_helpful),
        ] {
            writeln!(out)?;
            writeln!(out, "{title}")?;
            if rows.is_empty() {
                writeln!(out, "  (no votes yet)")?;
            }
            for row in rows {
                writeln!(
                    out,
                    "  {:<32} {:>5} helpful {:>5} not helpful   ranking ×{:.3}",
                    row.article, row.helpful, row.not_helpful, row.boost
                )?;
            }
        }
        Ok(())
    }
}

impl GapRow {
    /// `kind · Exception: message`, with what is missing left out.
    pub fn label(&self) -> String {
        let mut label = self.kind.clone();
        match (self.exception.is_empty(), self.fingerprint.is_empty()) {
            (true, true) => label.push_str(" · (no error recognized)"),
            (true, false) => {
                label.push_str(" · ");
                label.push_str(&self.fingerprint);
            }
            (false, true) => {
                label.push_str(" · ");
                label.push_str(&self.exception);
            }
            (false, false) => {
                label.push_str(" · ");
                label.push_str(&self.exception);
                label.push_str(": ");
                label.push_str(&self.fingerprint);
            }
        }
        label
    }
}

fn votes(article: String, counts: FeedbackCounts) -> ArticleVotes {
    ArticleVotes {
        article,
        helpful: counts.helpful,
        not_helpful: counts.not_helpful,
        helpful_share: crate::search::helpful_share(counts),
        boost: crate::search::feedback_factor(counts),
    }
}
