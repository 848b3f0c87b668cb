//! Turning a paste back into the lines the program printed.
//!
//! Pastes pass through chat boxes, issue trackers, notebooks and log collectors, each adding its
//! own layer: JSON string escapes, `> ` quotes, code fences, ANSI colours, HTML entities, zero-width
//! spaces, and timestamps / levels / rank tags in front of every line. Each layer is undone per
//! line so later stages see what Python printed. A hard wrap cannot always be undone exactly (a
//! wrap that swallowed a space); the stages that read numbers therefore work on a whitespace-free
//! copy (`squash`), where a wrap anywhere, even inside a number, disappears.

use regex::Regex;
use std::borrow::Cow;
use std::sync::LazyLock;

/// One printed line after clean-up.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Line {
    /// The line with quotes, log prefix and colours removed; indentation and trailing spaces
    /// kept (the length of a hard-wrapped line is evidence of the wrap).
    pub text: String,
    /// The removed log prefix with digits and whitespace dropped. Lines of one log record share
    /// it, so a change tells that a new record began.
    pub prefix: String,
    /// `text` without whitespace, lower-cased ([`squash_lower`]): what the keyword patterns
    /// read, computed once for all of them.
    pub squashed: String,
}

impl Line {
    pub fn trimmed(&self) -> &str {
        self.text.trim()
    }
}

/// Splits and cleans `text` into lines.
pub(super) fn clean_lines(text: &str) -> Vec<Line> {
    let mut out = Vec::new();
    for raw in text.split('\n') {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        // A lone `\r` is how progress bars redraw themselves: each piece is its own line.
        let single = !raw.contains('\r');
        for piece in raw.split('\r') {
            if piece.is_empty() && !single {
                continue;
            }
            let mut current = Cow::Borrowed(piece);
            // JSON inside JSON (an escaped string in a log line) needs a second pass.
            for _ in 0..2 {
                if looks_json_escaped(&current) {
                    current = Cow::Owned(unescape_json(&current));
                } else {
                    break;
                }
            }
            for line in current.split('\n') {
                out.push(clean_one(line));
            }
        }
    }
    out
}

/// `text` with all whitespace removed, lines concatenated.
pub(super) fn squash(lines: &[Line]) -> String {
    let mut s = String::with_capacity(lines.iter().map(|l| l.text.len()).sum());
    for line in lines {
        for piece in line.text.split(char::is_whitespace) {
            s.push_str(piece);
        }
    }
    s
}

/// [`squash`] lower-cased: the lines' own squashed forms, joined.
pub(super) fn squash_lower_lines(lines: &[Line]) -> String {
    lines.iter().map(|line| line.squashed.as_str()).collect()
}

/// One string with whitespace removed and lower-cased: the form the keyword patterns read.
pub(super) fn squash_lower(text: &str) -> String {
    if text.is_ascii() {
        // `char::is_whitespace` in ASCII, vertical tab included.
        return text
            .bytes()
            .filter(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r'))
            .map(|b| char::from(b.to_ascii_lowercase()))
            .collect();
    }
    text.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

fn clean_one(line: &str) -> Line {
    let line = strip_invisible(line);
    let line = strip_ansi(&line);
    let line = decode_entities(&line);
    let trimmed = line.trim_start();
    let after_fence = trimmed
        .strip_prefix("```")
        .or_else(|| trimmed.strip_prefix("~~~"))
        .map(|rest| rest.trim_start_matches(['`', '~']));
    let line = match after_fence {
        // A fence, bare or with its language ("```python"), ends whatever came before, like
        // a blank line.
        Some(info) if !info.trim().contains([' ', ':']) => {
            return Line {
                text: String::new(),
                prefix: String::new(),
                squashed: String::new(),
            };
        }
        // Text glued to the fence ("```torch.cuda.OutOfMemoryError: CUDA out of memory. …```")
        // is the pasted line itself.
        Some(glued) => Cow::Owned(unfenced_end(glued).to_owned()),
        None => {
            // `unfenced_end` keeps a prefix of the line.
            let kept = unfenced_end(&line).len();
            if kept == line.len() {
                line
            } else {
                Cow::Owned(line[..kept].to_owned())
            }
        }
    };
    let unquoted = strip_quotes(&line);
    let (prefix, rest) = strip_log_prefix(unquoted);
    Line {
        text: rest.to_string(),
        prefix,
        squashed: squash_lower(rest),
    }
}

/// A line without the closing fence glued to its end ("… PYTORCH_CUDA_ALLOC_CONF```"): a
/// prefix of it.
fn unfenced_end(line: &str) -> &str {
    let end = line.trim_end();
    end.strip_suffix("```")
        .or_else(|| end.strip_suffix("~~~"))
        .map_or(line, |text| text.trim_end_matches(['`', '~']))
}

fn strip_invisible(line: &str) -> Cow<'_, str> {
    const INVISIBLE: [char; 3] = ['\u{200b}', '\u{feff}', '\u{2060}'];
    if line.contains(INVISIBLE) {
        Cow::Owned(line.replace(INVISIBLE, ""))
    } else {
        Cow::Borrowed(line)
    }
}

static ANSI: LazyLock<Regex> = LazyLock::new(|| {
    // Real escape sequences, and the `[0;31m` left when a viewer dropped the ESC byte.
    Regex::new(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-_]|\[[0-9;]{1,12}m").expect("valid regex")
});

fn strip_ansi(line: &str) -> Cow<'_, str> {
    if line.contains('\x1b') || line.contains('[') {
        ANSI.replace_all(line, "")
    } else {
        Cow::Borrowed(line)
    }
}

fn decode_entities(line: &str) -> Cow<'_, str> {
    if !line.contains('&') {
        return Cow::Borrowed(line);
    }
    let mut s = line.to_string();
    for (entity, plain) in [
        ("&quot;", "\""),
        ("&#34;", "\""),
        ("&#39;", "'"),
        ("&apos;", "'"),
        ("&lt;", "<"),
        ("&gt;", ">"),
        ("&nbsp;", " "),
        ("&amp;", "&"),
    ] {
        if s.contains(entity) {
            s = s.replace(entity, plain);
        }
    }
    Cow::Owned(s)
}

/// Removes markdown quote markers (`> `, `> > `), keeping Python's `>>>` prompt.
fn strip_quotes(line: &str) -> &str {
    let mut rest = line;
    for _ in 0..8 {
        let t = rest.trim_start();
        if t.starts_with(">>>") {
            break;
        }
        match t.strip_prefix('>') {
            Some(r) => rest = r.strip_prefix(' ').unwrap_or(r),
            None => break,
        }
    }
    rest
}

// ASCII classes throughout: prefixes are ASCII, and Unicode classes under counted repetition
// make the automaton large and slow.
static LOG_PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x-u)
        ^[\ \t]*(?:
            \[[\ -\\^-~]{0,100}\]:?                                 # [rank0]: [ERROR] [E321 ...cpp:607]
          | \d{4}[-/.]\d{1,2}[-/.]\d{1,2}
            (?:[T\ ]\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?,?   # date [time]
          | \d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?                         # time
          | [IWEF]\d{4}\ +\d{1,2}:\d{2}:\d{2}\.\d+\ +\d+\ +[\w./\\-]+:\d+\]   # glog
          | (?:ERROR|WARNING|WARN|INFO|DEBUG|CRITICAL|FATAL|TRACE)
            (?::[\w.<>-]*:|[\ \t]*[|:\-]|[\ \t])                    # levels, logging's ERROR:root:
          | \|                                                      # column separators
          | [\w.<>-]+(?::[\w.<>-]+)*:\d+[\ \t]+-[\ \t]              # loguru's module:func:12 -
          | [\w.-]{1,64}[\ \t]+\|[\ \t]                             # docker compose's name |
        )[\ \t]?",
    )
    .expect("valid regex")
});

/// Strips a run of log-prefix tokens; returns their signature and the rest of the line.
fn strip_log_prefix(line: &str) -> (String, &str) {
    let mut rest = line;
    let mut signature = String::new();
    for _ in 0..8 {
        let Some(m) = LOG_PREFIX.find(rest) else {
            break;
        };
        if m.end() == 0 {
            break;
        }
        signature.extend(
            m.as_str()
                .chars()
                .filter(|c| !c.is_ascii_digit() && !c.is_whitespace()),
        );
        rest = &rest[m.end()..];
    }
    (signature, rest)
}

/// A JSON (or Python repr) string pasted without decoding: `\n` escapes that end lines, and at
/// least two escapes in all. Windows paths (`C:\new\x`) have `\n` before a lower-case letter,
/// which does not count as a line end.
fn looks_json_escaped(s: &str) -> bool {
    let b = s.as_bytes();
    let (mut line_ends, mut escapes, mut i) = (0usize, 0usize, 0usize);
    while let Some(&c) = b.get(i) {
        if c == b'\\' {
            match b.get(i + 1) {
                Some(b'n') => {
                    escapes += 1;
                    let next = b.get(i + 2);
                    if next.is_none_or(|n| !n.is_ascii_lowercase() && *n != b'"' && *n != b'\'') {
                        line_ends += 1;
                    }
                    i += 2;
                    continue;
                }
                Some(b'"') | Some(b't') => escapes += 1,
                Some(b'\\') => {
                    i += 2;
                    continue;
                }
                _ => {}
            }
        }
        i += 1;
    }
    line_ends >= 1 && escapes >= 2
}

fn unescape_json(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.peek().copied() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => {}
            Some(q @ ('"' | '\\' | '/' | '\'')) => out.push(q),
            Some('u') => {
                chars.next();
                out.push(unicode_escape(&mut chars));
                continue;
            }
            _ => {
                out.push('\\');
                continue;
            }
        }
        chars.next();
    }
    out
}

/// Reads the `XXXX` of `\uXXXX` (and a following low surrogate); U+FFFD when invalid.
fn unicode_escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> char {
    let Some(high) = hex4(chars) else {
        return char::REPLACEMENT_CHARACTER;
    };
    if (0xD800..0xDC00).contains(&high) {
        let mut ahead = chars.clone();
        if ahead.next() == Some('\\')
            && ahead.next() == Some('u')
            && let Some(low) = hex4(&mut ahead)
            && (0xDC00..0xE000).contains(&low)
        {
            *chars = ahead;
            let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
            return char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER);
        }
    }
    char::from_u32(high).unwrap_or(char::REPLACEMENT_CHARACTER)
}

fn hex4(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<u32> {
    let mut value = 0u32;
    for _ in 0..4 {
        let digit = chars.peek()?.to_digit(16)?;
        chars.next();
        value = value * 16 + digit;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<String> {
        clean_lines(s).into_iter().map(|l| l.text).collect()
    }

    #[test]
    fn decodes_a_json_string_paste_into_lines() {
        let s = r#"{"log": "Traceback (most recent call last):\n  File \"C:\\Users\\me\\train.py\", line 3, in <module>\nRuntimeError: boom\n"}"#;
        let t = texts(s);
        assert_eq!(
            t[1],
            r#"  File "C:\Users\me\train.py", line 3, in <module>"#
        );
        assert_eq!(t[2], "RuntimeError: boom");
    }

    #[test]
    fn leaves_windows_paths_alone() {
        let s = r#"  File "C:\ProgramData\Anaconda3\lib\site-packages\torch\nn\modules\conv.py", line 415, in _conv_forward"#;
        assert_eq!(texts(s), vec![s.to_string()]);
    }

    #[test]
    fn decodes_surrogate_pairs_and_survives_bad_escapes() {
        assert_eq!(unescape_json(r"a\ud83d\ude00b\n"), "a\u{1F600}b\n");
        assert_eq!(unescape_json(r"\u12"), "\u{FFFD}");
        assert_eq!(unescape_json(r"x\q\"), r"x\q\");
    }

    #[test]
    fn strips_quotes_fences_and_colours_but_not_prompts() {
        let t = texts(
            "> >   File \"a.py\", line 1, in f\n```python\n\x1b[31mRuntimeError: x\x1b[0m\n>>> import torch",
        );
        assert_eq!(
            t,
            vec![
                "  File \"a.py\", line 1, in f",
                "",
                "RuntimeError: x",
                ">>> import torch"
            ]
        );
    }

    #[test]
    fn strips_log_prefixes_and_records_their_signature() {
        let lines = clean_lines(
            "2022-12-28 16:13:02 [ERROR]  RuntimeError: CUDA error\n[rank0]: CUDA kernel errors\n[08/14 07:32:25 d2.engine.hooks]: Total training time",
        );
        assert_eq!(lines[0].text, " RuntimeError: CUDA error");
        assert_eq!(lines[0].prefix, "--::[ERROR]");
        assert_eq!(lines[1].text, "CUDA kernel errors");
        assert_eq!(lines[1].prefix, "[rank]:");
        assert_eq!(lines[2].text, "Total training time");
        let logged =
            clean_lines("2024-01-02 03:04:05,678 | ERROR    | __main__:main:12 - ValueError: bad");
        assert_eq!(logged[0].text, "ValueError: bad");
        let plain = clean_lines("ERROR:root:KeyError: 'x'");
        assert_eq!(plain[0].text, "KeyError: 'x'");
    }

    #[test]
    fn splits_carriage_returns_without_inventing_blank_lines() {
        assert_eq!(texts("a\r\nb"), vec!["a", "b"]);
        assert_eq!(texts("10%\r20%\rdone"), vec!["10%", "20%", "done"]);
    }

    #[test]
    fn squash_removes_all_whitespace() {
        let lines = clean_lines("Tried to allo\ncate 6.1\n4 GiB");
        assert_eq!(squash(&lines), "Triedtoallocate6.14GiB");
        assert_eq!(squash_lower("A b\tC"), "abc");
        assert_eq!(squash_lower("A\u{0B}b\u{0C}C\r"), "abc");
        assert_eq!(squash_lower("Mé moire\u{A0}É"), "mémoireé");
    }

    #[test]
    fn decodes_html_entities() {
        assert_eq!(
            texts("File &quot;a.py&quot;, line 2, in &lt;module&gt;"),
            vec!["File \"a.py\", line 2, in <module>"]
        );
    }
}
