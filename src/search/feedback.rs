//! What "did this fix it?" votes do to the ranking: a factor on a group's score.
//!
//! A Bayesian average: the helpful share is computed as if [`PRIOR_VOTES`] neutral votes (half
//! each way) had been cast before the real ones, then mapped linearly onto `1 ± MAX_NUDGE`.
//! With no votes the factor is exactly 1; one vote moves it by less than 1 %; 40 helpful votes
//! and none against give ×1.08; the factor never leaves 0.9–1.1, so feedback reorders only
//! results that were already close and a handful of votes never flips a ranking.

use crate::db::FeedbackCounts;

/// Votes a group gets before it moves away from neutral.
pub const PRIOR_VOTES: f64 = 10.0;
/// The largest change feedback makes to a score, either way (0.1 → ×0.9 … ×1.1).
pub const MAX_NUDGE: f64 = 0.1;

/// Share of helpful votes, pulled towards ½ by [`PRIOR_VOTES`] neutral votes.
pub fn helpful_share(counts: FeedbackCounts) -> f64 {
    (counts.helpful as f64 + PRIOR_VOTES / 2.0) / (counts.total() as f64 + PRIOR_VOTES)
}

/// The factor feedback applies to a group's ranking score.
pub fn feedback_factor(counts: FeedbackCounts) -> f32 {
    let factor = 1.0 + (helpful_share(counts) - 0.5) * 2.0 * MAX_NUDGE;
    factor.clamp(1.0 - MAX_NUDGE, 1.0 + MAX_NUDGE) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn factor(helpful: u64, not_helpful: u64) -> f32 {
        feedback_factor(FeedbackCounts {
            helpful,
            not_helpful,
        })
    }

    #[test]
    fn no_votes_leave_the_score_alone() {
        assert_eq!(factor(0, 0), 1.0);
        assert_eq!(factor(7, 7), 1.0);
    }

    #[test]
    fn a_few_votes_barely_move_the_score() {
        let one_up = factor(1, 0);
        let one_down = factor(0, 1);
        assert!(one_up > 1.0 && one_up < 1.01, "{one_up}");
        assert!(one_down < 1.0 && one_down > 0.99, "{one_down}");
        // Three angry votes cannot outweigh a 5 % lead in the engine's score.
        assert!(factor(0, 3) * 1.05 > factor(0, 0));
    }

    #[test]
    fn many_votes_approach_but_never_pass_the_bounds() {
        assert!((factor(40, 0) - 1.08).abs() < 1e-6);
        let best = factor(1_000_000, 0);
        let worst = factor(0, 1_000_000);
        assert!(best > 1.099 && best <= 1.1, "{best}");
        assert!((0.9..0.901).contains(&worst), "{worst}");
        assert!(factor(u64::MAX / 2, u64::MAX / 2).is_finite());
    }

    #[test]
    fn more_helpful_votes_never_lower_the_factor() {
        let mut last = 0.0;
        for helpful in 0..200 {
            let next = factor(helpful, 20);
            assert!(next >= last);
            last = next;
        }
    }
}
