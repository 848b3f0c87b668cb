//! The allocation explainer: which tensor a "Tried to allocate X" most likely is.
//!
//! A language model's biggest tensors have recognisable sizes: the logits are
//! batch × block × vocab elements of 2 bytes (bf16/fp16) or 4 (fp32: an fp32 model, or
//! the copy cross-entropy makes under autocast), and manual attention's scores are
//! batch × heads × block × block. The explainer searches plausible shapes — block sizes
//! that are powers of two or 1.5 × powers of two from 128 to 32768 (and a given one),
//! [`KNOWN_VOCAB_SIZES`] (and a given one), batch sizes up to 32 or multiples of 8 up to
//! 1024 (and a given one), 2 or 4 bytes — for one whose size, rounded as the allocator rounds requests
//! (512 bytes), falls within the rounding of the printed number (PyTorch prints two
//! decimals in the largest unit that keeps the number ≥ 1), and ranks them: values the
//! paste gave first, nanoGPT-like shapes next, 16-bit logits before their fp32 copy;
//! readings that combine an unusual vocabulary with an unusual shape are dropped.
//!
//! Limits: any size of a few GiB is *some* such product, so a match is a reading, not a
//! proof; the ranking says which reading is likelier. Sequences padded to odd lengths
//! (dynamic padding) are only found when the paste gives that length.

use serde::{Deserialize, Serialize};

use super::input::{MAX_BATCH_SIZE, MAX_BLOCK_SIZE, MAX_N_EMBD, MAX_VOCAB_SIZE};

/// Vocabularies worth recognising: GPT-2 (and nanoGPT's padded copy), Llama 2, Mistral
/// v3, Llama 3, Qwen 2, 2^16, cl100k, XLM-R.
pub const KNOWN_VOCAB_SIZES: [u64; 9] = [
    50_304, 50_257, 32_000, 32_768, 128_256, 151_936, 65_536, 100_277, 250_002,
];

/// Batch sizes above this are not considered plausible.
const MAX_BATCH: u64 = 65_536;
const REQUEST_ROUNDING: u128 = 512;
/// Splits of the token count into batch × block listed per match.
const MAX_SPLITS: usize = 6;
const MAX_MATCHES: usize = 10;
/// Readings below this combine an unusual vocabulary with an unusual block or batch
/// (e.g. 26 × 384 × 100277): coincidences more often than explanations. A known
/// vocabulary with a common block and batch scores 25 or more; any given value that
/// matches adds 100.
const MIN_SCORE: i64 = 20;

/// What an out-of-memory paste revealed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AllocationQuery {
    /// The "Tried to allocate" size in bytes, as printed (e.g. 6.14 GiB → 6.14 × 2^30).
    pub bytes: u64,
    /// How far the true size may be from `bytes`; by default half a unit of the second
    /// decimal of the unit PyTorch would print it in.
    pub tolerance_bytes: Option<u64>,
    pub vocab_size: Option<u64>,
    pub block_size: Option<u64>,
    pub batch_size: Option<u64>,
    pub n_head: Option<u64>,
    /// The GPU's total capacity.
    pub total_bytes: Option<u64>,
    /// Free memory on the GPU when the allocation failed.
    pub free_bytes: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TensorKind {
    /// The output of `lm_head` in 16 bits: batch·block rows of vocab logits.
    Logits,
    /// Logits in fp32: cross-entropy's upcast under autocast, or an fp32 model's logits.
    LogitsFp32,
    /// Manual attention's batch × heads × block × block scores (or softmax).
    AttentionScores,
}

/// One tensor the allocation could be.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AllocationMatch {
    pub kind: TensorKind,
    /// `bf16/fp16` or `fp32`.
    pub dtype: &'static str,
    pub element_bytes: u64,
    /// Logits: `[batch × block, vocab]`; scores: `[batch, n_head, block, block]`.
    pub shape: Vec<u64>,
    /// The exact size of that tensor.
    pub bytes: u64,
    /// The most plausible split of the rows into batch × block.
    pub batch_size: u64,
    pub block_size: u64,
    pub vocab_size: Option<u64>,
    pub n_head: Option<u64>,
    /// Other batch × block splits with the same number of rows, most plausible first.
    pub splits: Vec<[u64; 2]>,
    /// The product, e.g. `65536 × 50304 × 2 B`.
    pub formula: String,
    /// Higher is more plausible; matches come sorted by it.
    pub score: i64,
    /// The tensor alone is larger than the GPU (when the total was given): no allocator
    /// setting can help, the tensor itself must shrink.
    pub exceeds_total: Option<bool>,
    /// The largest batch size at which this tensor fits in the free memory given (the
    /// other tensors shrink too, so the real limit is at least this).
    pub fits_batch_size: Option<u64>,
    /// The largest block size at which it fits in the free memory given.
    pub fits_block_size: Option<u64>,
}

/// Names the tensors a "Tried to allocate" size matches, most plausible first (at most
/// ten). Empty when nothing matches.
pub fn explain_allocation(query: &AllocationQuery) -> Vec<AllocationMatch> {
    if query.bytes == 0 {
        return Vec::new();
    }
    let tolerance = query
        .tolerance_bytes
        .unwrap_or_else(|| printed_tolerance(query.bytes));
    let window = Window {
        low: u128::from(query.bytes.saturating_sub(tolerance)),
        high: u128::from(query.bytes.saturating_add(tolerance)),
        target: u128::from(query.bytes),
    };
    // Values outside the estimator's ranges are ignored rather than trusted; this also
    // keeps every product below in u128.
    let plausible = |value: Option<u64>, max: u64| value.filter(|v| (1..=max).contains(v));
    let given = Given {
        vocab: plausible(query.vocab_size, MAX_VOCAB_SIZE),
        block: plausible(query.block_size, MAX_BLOCK_SIZE),
        batch: plausible(query.batch_size, MAX_BATCH_SIZE),
        n_head: plausible(query.n_head, MAX_N_EMBD),
    };

    let mut matches = logits_matches(&window, &given);
    matches.extend(score_matches(&window, &given));
    for m in &mut matches {
        add_fit_hints(m, query);
    }
    matches.retain(|m| m.score >= MIN_SCORE);
    matches.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then(a.bytes.cmp(&b.bytes))
            .then(a.shape.cmp(&b.shape))
    });
    matches.truncate(MAX_MATCHES);
    matches
}

/// Half a unit of the last printed digit: "6.14 GiB" is anything in [6.135, 6.145) GiB.
fn printed_tolerance(bytes: u64) -> u64 {
    let unit: u64 = if bytes >= 1 << 30 {
        1 << 30
    } else if bytes >= 1 << 20 {
        1 << 20
    } else if bytes >= 1 << 10 {
        1 << 10
    } else {
        // Sizes below 1 KiB are printed in bytes, exactly.
        return 0;
    };
    unit / 200 + 1
}

struct Window {
    low: u128,
    high: u128,
    target: u128,
}

impl Window {
    /// Whether a tensor of `bytes` would be printed as the queried size.
    fn contains(&self, bytes: u128) -> bool {
        let requested = bytes.div_ceil(REQUEST_ROUNDING) * REQUEST_ROUNDING;
        (self.low..=self.high).contains(&requested) || (self.low..=self.high).contains(&bytes)
    }

    /// Integer multipliers `k` with `k × unit` in the window (at most a few).
    fn multipliers(&self, unit: u128, max: u64) -> impl Iterator<Item = u64> {
        let first = self.low.div_ceil(unit.max(1)).max(1);
        let last = (self.high / unit.max(1)).min(u128::from(max));
        (first..=last).take(4).filter_map(|k| u64::try_from(k).ok())
    }

    /// 0 for an exact match, up to 4 at the edge of the rounding.
    fn distance_penalty(&self, bytes: u128) -> i64 {
        let off = bytes.abs_diff(self.target);
        let half_width = (self.high - self.low) / 2 + 1;
        i64::try_from(off * 4 / half_width).unwrap_or(4).min(4)
    }
}

struct Given {
    vocab: Option<u64>,
    block: Option<u64>,
    batch: Option<u64>,
    n_head: Option<u64>,
}

/// Block sizes people use: powers of two and 1.5 × powers of two from 128 to 32768.
fn common_blocks(given: Option<u64>) -> Vec<u64> {
    let mut blocks: Vec<u64> = (7..=15).map(|k| 1u64 << k).collect();
    blocks.extend((6..=14).map(|k| 3u64 << k));
    if let Some(t) = given
        && !blocks.contains(&t)
    {
        blocks.push(t);
    }
    blocks
}

fn vocabularies(given: Option<u64>) -> Vec<u64> {
    let mut vocabs = KNOWN_VOCAB_SIZES.to_vec();
    if let Some(v) = given
        && !vocabs.contains(&v)
    {
        vocabs.push(v);
    }
    vocabs
}

/// Batch sizes people pick: small ones, multiples of 8, or the one the paste gave. Any
/// size in the GiB range is *some* batch × block × vocab product; odd batches like 393 are
/// coincidences, not explanations.
fn plausible_batch(b: u64, given: Option<u64>) -> bool {
    Some(b) == given || b <= 32 || (b <= 1024 && b.is_multiple_of(8))
}

fn block_score(t: u64, given: Option<u64>) -> i64 {
    if Some(t) == given {
        return 100;
    }
    match t {
        1024 => 10,
        256 | 512 | 2048 => 8,
        _ if t.is_power_of_two() && (128..=32_768).contains(&t) => 6,
        _ if t.is_multiple_of(3) && (t / 3).is_power_of_two() && (192..=24_576).contains(&t) => 3,
        _ => 0,
    }
}

fn batch_score(b: u64, given: Option<u64>) -> i64 {
    if Some(b) == given {
        return 100;
    }
    let round = if b.is_power_of_two() { 3 } else { 0 };
    let small = if b <= 512 { 2 } else { 0 };
    round + small
}

fn vocab_score(v: u64, given: Option<u64>) -> i64 {
    if Some(v) == given {
        return 100;
    }
    match v {
        50_304 => 20,
        50_257 => 18,
        _ if KNOWN_VOCAB_SIZES.contains(&v) => 10,
        _ => 0,
    }
}

/// Under autocast the 16-bit logits come first, so with nothing else to go on they are
/// the likelier reading.
fn element_score(kind: TensorKind) -> i64 {
    match kind {
        TensorKind::Logits => 4,
        TensorKind::LogitsFp32 | TensorKind::AttentionScores => 3,
    }
}

fn dtype(element_bytes: u64) -> &'static str {
    if element_bytes == 4 {
        "fp32"
    } else {
        "bf16/fp16"
    }
}

/// Logits of `rows × vocab` elements, grouped by (rows, vocab, element size): the
/// allocation is one `(rows, vocab)` tensor whatever the batch × block split.
fn logits_matches(window: &Window, given: &Given) -> Vec<AllocationMatch> {
    let mut found: Vec<(u64, u64, u64, Vec<[u64; 2]>)> = Vec::new();
    let mut record = |b: u64, t: u64, v: u64, e: u64| {
        let rows = b.saturating_mul(t);
        match found
            .iter_mut()
            .find(|(r, fv, fe, _)| (*r, *fv, *fe) == (rows, v, e))
        {
            Some((_, _, _, splits)) if !splits.contains(&[b, t]) => splits.push([b, t]),
            Some(_) => {}
            None => found.push((rows, v, e, vec![[b, t]])),
        }
    };
    for e in [2u64, 4] {
        for v in vocabularies(given.vocab) {
            for t in common_blocks(given.block) {
                let unit = u128::from(t) * u128::from(v) * u128::from(e);
                for b in window.multipliers(unit, MAX_BATCH) {
                    if plausible_batch(b, given.batch) && window.contains(unit * u128::from(b)) {
                        record(b, t, v, e);
                    }
                }
            }
        }
    }

    found
        .into_iter()
        .map(|(rows, v, e, mut splits)| {
            let split_score =
                |&[b, t]: &[u64; 2]| batch_score(b, given.batch) + block_score(t, given.block);
            splits.sort_by_key(|s| std::cmp::Reverse(split_score(s)));
            splits.truncate(MAX_SPLITS);
            let [batch_size, block_size] = splits.first().copied().unwrap_or([rows, 1]);
            let best_split = splits.first().map(split_score).unwrap_or(0);
            let bytes = u128::from(rows) * u128::from(v) * u128::from(e);
            let kind = if e == 4 {
                TensorKind::LogitsFp32
            } else {
                TensorKind::Logits
            };
            AllocationMatch {
                kind,
                dtype: dtype(e),
                element_bytes: e,
                shape: vec![rows, v],
                bytes: u64::try_from(bytes).unwrap_or(u64::MAX),
                batch_size,
                block_size,
                vocab_size: Some(v),
                n_head: None,
                splits,
                formula: format!("{rows} × {v} × {e} B"),
                score: vocab_score(v, given.vocab) + best_split + element_score(kind)
                    - window.distance_penalty(bytes),
                exceeds_total: None,
                fits_batch_size: None,
                fits_block_size: None,
            }
        })
        .collect()
}

/// Scores are only searched with a given head count, which plays the part a known
/// vocabulary plays for logits.
const GIVEN_HEADS_SCORE: i64 = 20;

/// Manual attention's scores `batch × n_head × block × block`, when the head count is known.
fn score_matches(window: &Window, given: &Given) -> Vec<AllocationMatch> {
    let Some(h) = given.n_head else {
        return Vec::new();
    };
    let mut matches = Vec::new();
    for e in [2u64, 4] {
        for t in common_blocks(given.block) {
            let unit = u128::from(h) * u128::from(t) * u128::from(t) * u128::from(e);
            for b in window.multipliers(unit, MAX_BATCH) {
                let bytes = unit * u128::from(b);
                if !plausible_batch(b, given.batch) || !window.contains(bytes) {
                    continue;
                }
                let kind = TensorKind::AttentionScores;
                matches.push(AllocationMatch {
                    kind,
                    dtype: dtype(e),
                    element_bytes: e,
                    shape: vec![b, h, t, t],
                    bytes: u64::try_from(bytes).unwrap_or(u64::MAX),
                    batch_size: b,
                    block_size: t,
                    vocab_size: None,
                    n_head: Some(h),
                    splits: vec![[b, t]],
                    formula: format!("{b} × {h} × {t} × {t} × {e} B"),
                    score: GIVEN_HEADS_SCORE
                        + batch_score(b, given.batch)
                        + block_score(t, given.block)
                        + element_score(kind)
                        - window.distance_penalty(bytes),
                    exceeds_total: None,
                    fits_batch_size: None,
                    fits_block_size: None,
                });
            }
        }
    }
    matches
}

/// Whether the tensor alone exceeds the GPU, and at which batch or block size it would
/// fit in the free memory.
fn add_fit_hints(m: &mut AllocationMatch, query: &AllocationQuery) {
    m.exceeds_total = query.total_bytes.map(|total| m.bytes > total);
    let Some(free) = query.free_bytes.map(u128::from) else {
        return;
    };
    let e = u128::from(m.element_bytes);
    let b = u128::from(m.batch_size);
    let t = u128::from(m.block_size);
    let clamp = |x: u128| u64::try_from(x).unwrap_or(u64::MAX);
    match (m.kind, m.vocab_size, m.n_head) {
        (TensorKind::AttentionScores, _, Some(h)) => {
            let h = u128::from(h);
            m.fits_batch_size = Some(clamp(free / (h * t * t * e).max(1)));
            m.fits_block_size = Some(clamp(isqrt(free / (b * h * e).max(1))));
        }
        (_, Some(v), _) => {
            let v = u128::from(v);
            m.fits_batch_size = Some(clamp(free / (t * v * e).max(1)));
            m.fits_block_size = Some(clamp(free / (b * v * e).max(1)));
        }
        _ => {}
    }
}

fn isqrt(n: u128) -> u128 {
    // Newton's method from above; converges in a few dozen steps for any u128.
    if n < 2 {
        return n;
    }
    let mut x = n;
    let mut y = x.div_ceil(2);
    while y < x {
        x = y;
        y = (x + n / x) / 2;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: f64 = (1u64 << 30) as f64;

    fn printed_gib(x: f64) -> u64 {
        (x * GIB) as u64
    }

    #[test]
    fn seed_oom_6_14_gib_is_the_bf16_logits_of_65536_tokens() {
        let matches = explain_allocation(&AllocationQuery {
            bytes: printed_gib(6.14),
            ..Default::default()
        });
        let top = matches.first().expect("a match");
        assert_eq!(top.kind, TensorKind::Logits);
        assert_eq!(top.shape, vec![65_536, 50_304]);
        assert_eq!(top.element_bytes, 2);
        assert_eq!((top.batch_size, top.block_size), (64, 1024));
        assert_eq!(top.formula, "65536 × 50304 × 2 B");
        assert!(top.splits.contains(&[128, 512]));
    }

    #[test]
    fn nanogpt_issue_88_with_batch_32_is_the_fp32_copy() {
        let query = AllocationQuery {
            bytes: printed_gib(6.14),
            batch_size: Some(32),
            ..Default::default()
        };
        let top = explain_allocation(&query)
            .into_iter()
            .next()
            .expect("a match");
        assert_eq!(top.kind, TensorKind::LogitsFp32);
        assert_eq!(
            (top.batch_size, top.block_size, top.vocab_size),
            (32, 1024, Some(50_304))
        );
        assert_eq!(top.bytes, 32 * 1024 * 50_304 * 4);
    }

    #[test]
    fn a_given_vocab_ranks_first() {
        // 8 × 2048 × 128256 × 2 B = 3.91 GiB: Llama 3's vocabulary.
        let query = AllocationQuery {
            bytes: printed_gib(3.91),
            vocab_size: Some(128_256),
            ..Default::default()
        };
        let top = explain_allocation(&query)
            .into_iter()
            .next()
            .expect("a match");
        assert_eq!(top.vocab_size, Some(128_256));
        assert_eq!(top.shape[0] * 128_256 * top.element_bytes, top.bytes);
    }

    #[test]
    fn an_unlisted_given_vocab_and_block_are_searched() {
        let bytes = 4 * 777 * 30_001 * 2;
        let query = AllocationQuery {
            bytes,
            vocab_size: Some(30_001),
            block_size: Some(777),
            ..Default::default()
        };
        let top = explain_allocation(&query)
            .into_iter()
            .next()
            .expect("a match");
        assert_eq!(
            (top.batch_size, top.block_size, top.vocab_size),
            (4, 777, Some(30_001))
        );
    }

    #[test]
    fn attention_scores_are_recognised_when_heads_are_known() {
        // 16 × 12 × 2048 × 2048 × 4 B = 3.00 GiB (fp32 softmax under autocast).
        let query = AllocationQuery {
            bytes: printed_gib(3.00),
            n_head: Some(12),
            block_size: Some(2048),
            ..Default::default()
        };
        let matches = explain_allocation(&query);
        let scores = matches
            .iter()
            .find(|m| m.kind == TensorKind::AttentionScores)
            .expect("scores among the matches");
        assert_eq!(scores.shape, vec![16, 12, 2048, 2048]);
        assert_eq!(scores.element_bytes, 4);
    }

    #[test]
    fn fit_hints_use_the_free_memory() {
        let query = AllocationQuery {
            bytes: printed_gib(6.14),
            batch_size: Some(64),
            block_size: Some(1024),
            vocab_size: Some(50_304),
            total_bytes: Some(printed_gib(11.69)),
            free_bytes: Some(printed_gib(2.68)),
            ..Default::default()
        };
        let top = explain_allocation(&query)
            .into_iter()
            .next()
            .expect("a match");
        assert_eq!(top.kind, TensorKind::Logits);
        assert_eq!(top.exceeds_total, Some(false));
        // 2.68 GiB / (1024 × 50304 × 2 B) = 27.9 → 27 sequences; / (64 × 50304 × 2 B) = 446 tokens.
        assert_eq!(top.fits_batch_size, Some(27));
        assert_eq!(top.fits_block_size, Some(446));
    }

    #[test]
    fn a_tensor_larger_than_the_gpu_is_flagged() {
        let query = AllocationQuery {
            bytes: printed_gib(24.56),
            total_bytes: Some(printed_gib(15.78)),
            ..Default::default()
        };
        let matches = explain_allocation(&query);
        assert!(!matches.is_empty());
        assert!(matches.iter().all(|m| m.exceeds_total == Some(true)));
    }

    #[test]
    fn sizes_outside_the_printed_rounding_do_not_match() {
        // 6.15 GiB is not 6.14 GiB.
        let query = AllocationQuery {
            bytes: printed_gib(6.15),
            batch_size: Some(64),
            block_size: Some(1024),
            vocab_size: Some(50_304),
            ..Default::default()
        };
        assert!(
            explain_allocation(&query)
                .iter()
                .all(|m| m.shape != vec![65_536, 50_304])
        );
    }

    #[test]
    fn sizes_no_language_model_shape_explains_give_no_match() {
        // From segmentation and detection pastes: no known vocabulary with a common block
        // and batch gives these sizes.
        for printed in [1.86, 22.78] {
            let query = AllocationQuery {
                bytes: printed_gib(printed),
                ..Default::default()
            };
            assert_eq!(explain_allocation(&query), Vec::new(), "{printed} GiB");
        }
    }

    #[test]
    fn unmatched_and_degenerate_queries_are_empty_or_bounded() {
        assert!(explain_allocation(&AllocationQuery::default()).is_empty());
        assert!(
            explain_allocation(&AllocationQuery {
                bytes: 3,
                ..Default::default()
            })
            .is_empty()
        );
        let wild = AllocationQuery {
            bytes: u64::MAX,
            tolerance_bytes: Some(u64::MAX),
            vocab_size: Some(u64::MAX),
            block_size: Some(u64::MAX),
            batch_size: Some(u64::MAX),
            n_head: Some(u64::MAX),
            total_bytes: Some(0),
            free_bytes: Some(u64::MAX),
        };
        assert!(explain_allocation(&wild).len() <= MAX_MATCHES);
    }

    #[test]
    fn query_deserializes_from_json() {
        let q: AllocationQuery =
            serde_json::from_str(r#"{"bytes": 6592625541, "batch_size": 32}"#).unwrap();
        assert_eq!(q.batch_size, Some(32));
        assert!(serde_json::from_str::<AllocationQuery>(r#"{"bytez": 1}"#).is_err());
    }

    #[test]
    fn integer_square_root_is_exact() {
        for n in [0u128, 1, 2, 3, 4, 15, 16, 17, 1 << 40, u128::MAX] {
            let r = isqrt(n);
            assert!(r * r <= n, "{n}");
            assert!((r + 1).checked_mul(r + 1).is_none_or(|sq| sq > n), "{n}");
        }
    }
}
