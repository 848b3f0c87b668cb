//! Python stack frames: `File "…", line N, in func`, IPython 8's `File path:N, in func` /
//! `Cell In[3], line 5, in func`, and Rich's boxed `│ path:N in func │` (accelerate, typer).
//!
//! A paste may hold several tracebacks (chained exceptions, retries, other workers). The frames
//! reported are those of the traceback that ends at the chosen error line: the frames after the
//! last boundary (a `Traceback` header, an exception line, "During handling …") before it. With
//! no chosen line, the last block of frames is reported. C++ `frame #0:` lines are not Python
//! frames and are ignored. IPython 7's `<ipython-input-…> in f()` layout is not read.

use super::normalize::Line;
use super::{Frame, MAX_FRAMES};
use regex::Regex;
use std::sync::LazyLock;

static PY_FRAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"File "([^"]+)", line ([0-9]{1,12})(?:, in ([^\s"'`]+))?"#).expect("valid regex")
});

static IPY_FRAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^\s*(?:File\s+((?:[A-Za-z]:)?[^\s:]+):([0-9]{1,12}), in ([\w<>.]+)",
        r"|(Cell\s+In\s*\[[0-9]{1,9}\]), line ([0-9]{1,12})(?:, in ([\w<>.]+))?)",
    ))
    .expect("valid regex")
});

/// A frame of a traceback drawn by Rich: `│ /path/to/file.py:562 in simple_launcher   │`.
static RICH_FRAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*│\s+((?:[A-Za-z]:)?[^\s:│]+):([0-9]{1,12}) in ([\w<>.]+)\s*│?\s*$")
        .expect("valid regex")
});

/// Lines joined to a frame line cut by a terminal wrap.
const WRAP_JOIN_LINES: usize = 2;

/// All frames with the index of the line they end on.
pub(super) fn all_frames(lines: &[Line]) -> Vec<(usize, Frame)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let text = &lines[i].text;
        if let Some(frame) = ipython_frame(text).or_else(|| rich_frame(text)) {
            out.push((i, frame));
        } else if text.contains("File \"") {
            let (frame, used) = python_frame(lines, i);
            if let Some(frame) = frame {
                out.push((i + used, frame));
                i += used;
            }
        }
        i += 1;
    }
    out
}

/// The frame on line `i`, joining up to two following lines when a wrap cut it (the path, the
/// line number or the function name broken off). Returns how many extra lines were used.
fn python_frame(lines: &[Line], i: usize) -> (Option<Frame>, usize) {
    let Some(first) = lines.get(i) else {
        return (None, 0);
    };
    let own = py_frame(&first.text);
    if let Some(frame) = own.clone().filter(|f| !f.function.is_empty()) {
        return with_function_tail(lines, i, frame, 0);
    }
    let mut joined = first.text.clone();
    for extra in 1..=WRAP_JOIN_LINES {
        let Some(next) = lines.get(i + extra) else {
            break;
        };
        if next.trimmed().is_empty() || next.trimmed().starts_with("File \"") {
            break;
        }
        joined.push_str(&next.text);
        if let Some(frame) = py_frame(&joined).filter(|f| !f.function.is_empty()) {
            return with_function_tail(lines, i, frame, extra);
        }
    }
    (own, 0)
}

/// A wrap inside the function name leaves its tail alone on the next line, unindented (the
/// source line Python prints below a frame is indented).
fn with_function_tail(
    lines: &[Line],
    i: usize,
    mut frame: Frame,
    used: usize,
) -> (Option<Frame>, usize) {
    let end = i + used;
    let (Some(last), Some(next)) = (lines.get(end), lines.get(end + 1)) else {
        return (Some(frame), used);
    };
    let tail = next.text.trim_end();
    let is_tail = !tail.is_empty()
        && tail
            .chars()
            .all(|c| c.is_alphanumeric() || "_<>.".contains(c))
        && !["Error", "Exception", "Interrupt", "Exit", "Warning"]
            .iter()
            .any(|s| tail.ends_with(s))
        && char_len(&last.text) >= 40
        && last.text.trim_end().ends_with(frame.function.as_str());
    if is_tail {
        frame.function.push_str(tail);
        return (Some(frame), used + 1);
    }
    // A wrap just before the closing `>` leaves a lone `>`, which reads as a markdown quote.
    const PSEUDO: [&str; 6] = [
        "<module>",
        "<lambda>",
        "<listcomp>",
        "<dictcomp>",
        "<setcomp>",
        "<genexpr>",
    ];
    if next.trimmed().is_empty()
        && PSEUDO
            .iter()
            .any(|p| p.strip_suffix('>') == Some(frame.function.as_str()))
    {
        frame.function.push('>');
    }
    (Some(frame), used)
}

fn char_len(s: &str) -> usize {
    s.chars().count()
}

fn py_frame(text: &str) -> Option<Frame> {
    let c = PY_FRAME.captures(text)?;
    Some(Frame {
        file: c.get(1)?.as_str().to_string(),
        line: c.get(2).and_then(|m| m.as_str().parse().ok()),
        function: c
            .get(3)
            .map_or_else(String::new, |m| m.as_str().to_string()),
    })
}

fn rich_frame(text: &str) -> Option<Frame> {
    if !text.trim_start().starts_with('│') {
        return None;
    }
    let c = RICH_FRAME.captures(text)?;
    Some(Frame {
        file: c.get(1)?.as_str().to_string(),
        line: c.get(2).and_then(|m| m.as_str().parse().ok()),
        function: c.get(3)?.as_str().to_string(),
    })
}

fn ipython_frame(text: &str) -> Option<Frame> {
    // What IPY_FRAME's two forms start with: most lines are neither.
    let head = text.trim_start();
    if !head.starts_with("File") && !head.starts_with("Cell") {
        return None;
    }
    let c = IPY_FRAME.captures(text)?;
    let (file, line, function) = if c.get(1).is_some() {
        (c.get(1), c.get(2), c.get(3))
    } else {
        (c.get(4), c.get(5), c.get(6))
    };
    Some(Frame {
        file: file?.as_str().to_string(),
        line: line.and_then(|m| m.as_str().parse().ok()),
        function: function.map_or_else(|| "<module>".to_string(), |m| m.as_str().to_string()),
    })
}

/// Whether a line ends one traceback's run of frames: a header, "During handling …" or an
/// exception line (`exception_lines`, sorted).
fn is_boundary(text: &str, index: usize, exception_lines: &[usize]) -> bool {
    exception_lines.binary_search(&index).is_ok()
        || text.contains("Traceback (most recent call last)")
        || text.contains("During handling of the above exception")
        || text.contains("The above exception was the direct cause")
}

/// The frames of the traceback that ends at line `error_line`, else of the last traceback.
pub(super) fn select(
    lines: &[Line],
    frames: Vec<(usize, Frame)>,
    exception_lines: &[usize],
    error_line: Option<usize>,
) -> Vec<Frame> {
    let boundary_before = |end: usize| -> Option<usize> {
        (0..end).rev().find(|&j| {
            lines
                .get(j)
                .is_some_and(|l| is_boundary(&l.text, j, exception_lines))
        })
    };
    let (from, to) = match error_line {
        Some(e) => (boundary_before(e), e),
        None => {
            let Some(&(last, _)) = frames.last() else {
                return Vec::new();
            };
            (boundary_before(last), lines.len())
        }
    };
    let picked: Vec<Frame> = frames
        .into_iter()
        .filter(|(i, _)| *i < to && from.is_none_or(|b| *i > b))
        .map(|(_, f)| f)
        .collect();
    bound(picked)
}

/// Keeps the outermost and innermost frames of a very deep stack.
fn bound(mut frames: Vec<Frame>) -> Vec<Frame> {
    if frames.len() > MAX_FRAMES {
        let half = MAX_FRAMES / 2;
        frames.drain(half..frames.len() - half);
    }
    frames
}

#[cfg(test)]
mod tests {
    use super::super::normalize::clean_lines;
    use super::*;

    /// Each frame as (file, line, function).
    fn described(frames: &[Frame]) -> Vec<(&str, Option<u32>, &str)> {
        frames
            .iter()
            .map(|f| (f.file.as_str(), f.line, f.function.as_str()))
            .collect()
    }

    fn frames_of(s: &str, error_line: Option<usize>) -> Vec<Frame> {
        let lines = clean_lines(s);
        let all = all_frames(&lines);
        select(&lines, all, &[], error_line)
    }

    #[test]
    fn reads_unix_windows_and_ipython_frames() {
        let f = frames_of(
            "  File \"/a/train.py\", line 264, in <module>\n  File \"C:\\x\\conv.py\", line 415, in _conv_forward\nFile ~/m.py:12, in forward(self, x)\nCell In[3], line 5",
            None,
        );
        assert_eq!(
            described(&f),
            vec![
                ("/a/train.py", Some(264), "<module>"),
                ("C:\\x\\conv.py", Some(415), "_conv_forward"),
                ("~/m.py", Some(12), "forward"),
                ("Cell In[3]", Some(5), "<module>"),
            ]
        );
    }

    #[test]
    fn reads_the_frames_rich_draws_in_a_box() {
        let f = frames_of(
            "╭────────────── Traceback (most recent call last) ──────────────╮\n│ /home/me/kohya_ss/venv/bin/accelerate:8 in <module>                │\n│                                                                    │\n│   5 from accelerate.commands.accelerate_cli import main             │\n│ C:\\sd\\sdxl_train_network.py:45 in train                         │\n╰────────────────────────────────────────────────────────────────────╯\nOutOfMemoryError: CUDA out of memory.",
            None,
        );
        assert_eq!(
            described(&f),
            vec![
                ("/home/me/kohya_ss/venv/bin/accelerate", Some(8), "<module>"),
                ("C:\\sd\\sdxl_train_network.py", Some(45), "train"),
            ]
        );
    }

    #[test]
    fn rejoins_a_frame_line_cut_by_a_wrap() {
        let f = frames_of(
            "  File \"/home/me/nanoGPT/mo\ndel.py\", line 18\n7, in forward\n    x",
            None,
        );
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].file, "/home/me/nanoGPT/model.py");
        assert_eq!(f[0].line, Some(187));
        assert_eq!(f[0].function, "forward");
    }

    #[test]
    fn keeps_the_traceback_that_ends_at_the_error() {
        let s = "Traceback (most recent call last):\n  File \"a.py\", line 1, in f\nKeyError: 1\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"b.py\", line 2, in g\nValueError: 2";
        let lines = clean_lines(s);
        let all = all_frames(&lines);
        let first = select(&lines, all.clone(), &[2, 8], Some(2));
        assert_eq!(first.len(), 1);
        assert_eq!(first[0].file, "a.py");
        let last = select(&lines, all, &[2, 8], None);
        assert_eq!(last[0].file, "b.py");
    }

    #[test]
    fn ignores_cpp_frames_and_bounds_deep_stacks() {
        assert!(
            frames_of(
                "frame #0: c10::Error::Error(c10::SourceLocation) + 0x46 (0x7f in /x/libc10.so)",
                None
            )
            .is_empty()
        );
        let deep: String = (0..1000)
            .map(|i| format!("  File \"r.py\", line {i}, in f\n"))
            .collect();
        let f = frames_of(&deep, None);
        assert_eq!(f.len(), MAX_FRAMES);
        assert_eq!(f[0].line, Some(0));
        assert_eq!(f.last().and_then(|f| f.line), Some(999));
    }
}
