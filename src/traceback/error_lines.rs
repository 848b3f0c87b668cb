//! Lines worth searching for: the final error line first, then, in the order printed, other
//! exception lines, device-side assertion failures, DataLoader worker deaths, NCCL watchdog
//! reports, warnings (`FooWarning: …` and warning-level log records), "Killed", and any line
//! showing a known error family (PyTorch's generic CUDA advice excluded). Frames (Python and
//! C++), source lines and headers are left out. Lines that differ only in numbers (the same
//! assertion on thirty threads) are kept once.

use super::classify;
use super::exception::{Candidate, Chosen, from_candidate};
use super::normalize::Line;
use super::template::message_template;
use super::{ErrorKind, MAX_ERROR_LINE_CHARS, MAX_ERROR_LINES};
use regex::Regex;
use rustc_hash::FxHashSet;
use std::sync::LazyLock;

/// Notable lines kept whole (the kernel or watchdog context is the distinctive part).
static WHOLE_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"Assertion .* failed|Watchdog caught collective operation timeout|detected by watchdog",
        r"|NCCL (?:error|timeout|WARN)|nccl(?:UnhandledCudaError|SystemError|InternalError|InvalidUsage|RemoteError)",
        r"|ProcessGroupNCCL.*(?:[Tt]imeout|[Ee]rror|[Ee]xception)",
    ))
    .expect("valid regex")
});

/// Notable lines kept from the match on (a warning's path prefix is noise).
static FROM_MATCH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"DataLoader worker .*(?:killed by signal|exited unexpectedly)",
        r"|(?-u:\b)(?:[A-Z][A-Za-z0-9_]*)?Warning: \S",
    ))
    .expect("valid regex")
});

const FAMILIES: [ErrorKind; 4] = [
    ErrorKind::MpsOom,
    ErrorKind::CudaOom,
    ErrorKind::CpuOom,
    ErrorKind::CudaError,
];

/// PyTorch's generic advice, printed under every CUDA error: not distinctive.
static BOILERPLATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"CUDA kernel errors might be asynchronously reported|For debugging consider passing",
        r"|Compile with .?TORCH_USE_CUDA_DSA",
    ))
    .expect("valid regex")
});

/// Notable lines examined at most.
const MAX_ATTEMPTS: usize = 256;

/// A line showing a family keyword in passing ("…I hit the CUDA error.") is too short to help.
const MIN_FAMILY_LINE_CHARS: usize = 16;

/// `chosen` is the paste's error (its lines are represented by `final_line`); `code_lines`
/// are the source lines Python prints under frames (sorted), which are never error lines.
pub(super) fn collect(
    lines: &[Line],
    cands: &[Candidate],
    chosen: Option<&Chosen>,
    final_line: Option<String>,
    code_lines: &[usize],
) -> Vec<String> {
    let mut out = Collected::default();
    if let Some(f) = final_line {
        out.push(&f);
    }
    let mut next_cand = cands.iter().peekable();
    let mut skip_until = chosen.map(|c| (c.line, c.last_line));
    let mut i = 0;
    while i < lines.len() && !out.is_full() {
        let Some(line) = lines.get(i) else { break };
        while next_cand.peek().is_some_and(|c| c.line < i) {
            next_cand.next();
        }
        if let Some((from, to)) = skip_until
            && i >= from
            && i <= to
        {
            i = to + 1;
            skip_until = None;
            continue;
        }
        let text = line.text.as_str();
        let t = line.trimmed();
        let is_code = code_lines.binary_search(&i).is_ok();
        let skip = t.is_empty()
            || is_code
            || t.starts_with("frame #")
            || t.starts_with("File \"")
            || t.starts_with("Traceback (most recent")
            || BOILERPLATE.is_match(text);
        if skip {
            i += 1;
            continue;
        }
        if let Some(c) = next_cand.peek().filter(|c| c.line == i) {
            let shown = from_candidate(lines, c);
            out.push(&format!("{}: {}", c.name, shown.message));
            i = shown.last_line.max(i);
        } else if let Some(m) = FROM_MATCH.find(text) {
            out.push(text.get(m.start()..).unwrap_or(t));
        } else if WHOLE_LINE.is_match(text)
            || classify::is_killed_line(text)
            || (is_warning_record(&line.prefix) && t.chars().count() >= MIN_FAMILY_LINE_CHARS)
        {
            out.push(t);
        } else if classify::line_shows_any(&FAMILIES, line) {
            let from = text.get(classify::message_start(text)..).unwrap_or(t);
            if from.trim().chars().count() >= MIN_FAMILY_LINE_CHARS {
                out.push(from);
            }
        }
        i += 1;
    }
    out.lines
}

/// Error lines gathered so far, without repeats.
#[derive(Default)]
struct Collected {
    lines: Vec<String>,
    seen: FxHashSet<String>,
    seen_raw: FxHashSet<String>,
    attempts: usize,
}

impl Collected {
    fn push(&mut self, line: &str) {
        self.attempts += 1;
        let line = bounded(line.trim());
        if !line.is_empty()
            && self.seen_raw.insert(line.clone())
            && self.seen.insert(dedup_key(&line))
        {
            self.lines.push(line);
        }
    }

    /// Full, or examined long enough: a log repeating one error thousands of times yields one
    /// line.
    fn is_full(&self) -> bool {
        self.lines.len() >= MAX_ERROR_LINES || self.attempts >= MAX_ATTEMPTS
    }
}

/// A log record at warning level: glog's `W0521 …]`, PyTorch's C++ `[W file.cpp:12]`, a
/// `WARNING` level (signatures have digits and spaces removed).
fn is_warning_record(prefix: &str) -> bool {
    prefix.starts_with("W::") || prefix.starts_with("[W") || prefix.contains("WARN")
}

/// Lines equal but for figures, spacing, or a closing quote are one line.
fn dedup_key(line: &str) -> String {
    message_template(line)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .trim_end_matches(|c: char| !c.is_alphanumeric())
        .to_string()
}

fn bounded(s: &str) -> String {
    match s.char_indices().nth(MAX_ERROR_LINE_CHARS) {
        Some((cut, _)) => s.get(..cut).unwrap_or(s).trim_end().to_string(),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::exception::candidates;
    use super::super::normalize::clean_lines;
    use super::*;

    fn lines_of(s: &str, final_line: Option<&str>) -> Vec<String> {
        let lines = clean_lines(s);
        let cands = candidates(&lines);
        collect(&lines, &cands, None, final_line.map(String::from), &[])
    }

    #[test]
    fn keeps_distinctive_lines_once_and_skips_frames() {
        let s = "/x/ClassNLLCriterion.cu:108: kern: block: [0,0,0], thread: [0,0,0] Assertion `t >= 0 && t < n_classes` failed.\n/x/ClassNLLCriterion.cu:108: kern: block: [0,0,0], thread: [8,0,0] Assertion `t >= 0 && t < n_classes` failed.\nTraceback (most recent call last):\n  File \"train.py\", line 379, in train_model\nframe #0: c10::Error::Error + 0x46\n/usr/lib/python3/site-packages/torch/amp.py:12: FutureWarning: `torch.cuda.amp.GradScaler(args...)` is deprecated.\nRuntimeError: CUDA error: device-side assert triggered";
        let got = lines_of(
            s,
            Some("RuntimeError: CUDA error: device-side assert triggered"),
        );
        assert_eq!(
            got,
            vec![
                "RuntimeError: CUDA error: device-side assert triggered",
                "/x/ClassNLLCriterion.cu:108: kern: block: [0,0,0], thread: [0,0,0] Assertion `t >= 0 && t < n_classes` failed.",
                "FutureWarning: `torch.cuda.amp.GradScaler(args...)` is deprecated.",
            ]
        );
    }

    #[test]
    fn keeps_watchdog_and_worker_lines() {
        let s = "[rank0]:[E321 02:07:08.408 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580) ran for 600060 milliseconds before timing out.\nERROR: Unexpected bus error encountered in worker. RuntimeError: DataLoader worker (pid 46794) is killed by signal: Bus error.";
        let got = lines_of(s, None);
        assert_eq!(got.len(), 2);
        assert!(got[0].starts_with("Watchdog caught collective operation timeout"));
        assert!(got[1].starts_with("RuntimeError: DataLoader worker (pid 46794)"));
    }

    #[test]
    fn is_bounded() {
        let s: String = (0..100)
            .map(|i| format!("E{i}Error: {}\n", "z".repeat(1000)))
            .collect();
        let got = lines_of(&s, None);
        assert_eq!(got.len(), MAX_ERROR_LINES);
        assert!(
            got.iter()
                .all(|l| l.chars().count() <= MAX_ERROR_LINE_CHARS)
        );
    }
}
