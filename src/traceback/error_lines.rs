//! Lines worth searching for: the final error line first, then, in the order printed, other
//! exception lines, device-side assertion failures, DataLoader worker deaths, NCCL watchdog
//! reports, warnings and any line showing a known error family. Frames (Python and C++) and
//! headers are left out. Lines that differ only in numbers (the same assertion on thirty
//! threads) are kept once.

use super::classify;
use super::exception::Candidate;
use super::fingerprint::fingerprint;
use super::normalize::Line;
use super::{ErrorKind, MAX_ERROR_LINE_CHARS, MAX_ERROR_LINES};
use regex::Regex;
use std::collections::HashSet;
use std::sync::LazyLock;

/// Notable lines kept whole (the kernel or watchdog context is the distinctive part).
static WHOLE_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"Assertion .{0,400} failed|Watchdog caught collective operation timeout|detected by watchdog",
        r"|NCCL (?:error|timeout|WARN)|nccl(?:UnhandledCudaError|SystemError|InternalError|InvalidUsage|RemoteError)",
        r"|ProcessGroupNCCL.{0,300}(?:[Tt]imeout|[Ee]rror|[Ee]xception)",
    ))
    .expect("valid regex")
});

/// Notable lines kept from the match on (a warning's path prefix is noise).
static FROM_MATCH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"DataLoader worker .{0,200}(?:killed by signal|exited unexpectedly)",
        r"|\b[A-Z]\w*Warning: \S",
    ))
    .expect("valid regex")
});

const FAMILIES: [ErrorKind; 4] = [
    ErrorKind::MpsOom,
    ErrorKind::CudaOom,
    ErrorKind::CpuOom,
    ErrorKind::CudaError,
];

pub(super) fn collect(lines: &[Line], cands: &[Candidate], final_line: Option<String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut push = |line: &str, out: &mut Vec<String>| {
        let line = bounded(line.trim());
        if !line.is_empty() && seen.insert(fingerprint(&line)) {
            out.push(line);
        }
    };
    if let Some(f) = final_line {
        push(&f, &mut out);
    }
    let mut next_cand = cands.iter().peekable();
    for (i, line) in lines.iter().enumerate() {
        if out.len() >= MAX_ERROR_LINES {
            break;
        }
        while next_cand.peek().is_some_and(|c| c.line < i) {
            next_cand.next();
        }
        let text = line.text.as_str();
        let t = line.trimmed();
        if t.is_empty() || t.starts_with("frame #") || t.starts_with("File \"") || t.starts_with("Traceback (most recent") {
            continue;
        }
        if let Some(c) = next_cand.peek().filter(|c| c.line == i) {
            let start = text.len().min(text.find(c.name.as_str()).unwrap_or(0));
            push(text.get(start..).unwrap_or(t), &mut out);
        } else if WHOLE_LINE.is_match(text) {
            push(t, &mut out);
        } else if let Some(m) = FROM_MATCH.find(text) {
            push(text.get(m.start()..).unwrap_or(t), &mut out);
        } else if FAMILIES.iter().any(|&k| classify::line_shows(k, text)) {
            push(text.get(classify::message_start(text)..).unwrap_or(t), &mut out);
        }
    }
    out.truncate(MAX_ERROR_LINES);
    out
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
        collect(&lines, &cands, final_line.map(String::from))
    }

    #[test]
    fn keeps_distinctive_lines_once_and_skips_frames() {
        let s = "/x/ClassNLLCriterion.cu:108: kern: block: [0,0,0], thread: [0,0,0] Assertion `t >= 0 && t < n_classes` failed.\n/x/ClassNLLCriterion.cu:108: kern: block: [0,0,0], thread: [8,0,0] Assertion `t >= 0 && t < n_classes` failed.\nTraceback (most recent call last):\n  File \"train.py\", line 379, in train_model\nframe #0: c10::Error::Error + 0x46\n/usr/lib/python3/site-packages/torch/amp.py:12: FutureWarning: `torch.cuda.amp.GradScaler(args...)` is deprecated.\nRuntimeError: CUDA error: device-side assert triggered";
        let got = lines_of(s, Some("RuntimeError: CUDA error: device-side assert triggered"));
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
        let s: String = (0..100).map(|i| format!("E{i}Error: {}\n", "z".repeat(1000))).collect();
        let got = lines_of(&s, None);
        assert_eq!(got.len(), MAX_ERROR_LINES);
        assert!(got.iter().all(|l| l.chars().count() <= MAX_ERROR_LINE_CHARS));
    }
}
