//! reStructuredText → Markdown, for the subset PyTorch's docs (and the user's FAQ) use:
//! underlined titles, `.. _label:` targets, `.. code-block::` and `::` literal blocks,
//! ``literals``, `` `text <url>`_ `` links and Sphinx roles (`:ref:`, `:class:`, `:func:`, …).
//! Anything else passes through as text, so nothing is lost.

use std::sync::LazyLock;

use regex::{Captures, Regex};

/// Markdown produced from an RST document.
#[derive(Debug, Default)]
pub struct Converted {
    /// The document title (the first heading of the first underline style).
    pub title: Option<String>,
    pub markdown: String,
    /// For each Markdown line (0-based), the 1-based RST line it came from.
    pub source_lines: Vec<usize>,
}

impl Converted {
    /// The RST line behind a 1-based Markdown line.
    pub fn source_line(&self, markdown_line: usize) -> usize {
        self.source_lines
            .get(markdown_line.saturating_sub(1))
            .copied()
            .unwrap_or(markdown_line)
    }
}

/// Whether a file without front matter looks like reStructuredText rather than Markdown.
pub fn looks_like_rst(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().take(400).collect();
    let directives = lines
        .iter()
        .filter(|l| l.trim_start().starts_with(".. "))
        .count();
    let underlined = lines
        .windows(2)
        .filter(|w| !w[0].trim().is_empty() && underline_char(w[1]).is_some())
        .count();
    let markdown_headings = lines.iter().filter(|l| l.starts_with('#')).count();
    markdown_headings == 0 && (directives > 0 || underlined > 1 || text.contains("``"))
}

pub fn to_markdown(text: &str) -> Converted {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Converted::default();
    let mut styles: Vec<char> = Vec::new();
    let mut pending_label: Option<String> = None;
    let mut paragraph: Vec<(usize, &str)> = Vec::new();
    let mut literal_next = false;
    let mut i = 0;

    while i < lines.len() {
        let line = lines[i];
        let number = i + 1;

        // A title: text over an underline of one punctuation character.
        if !line.trim().is_empty()
            && underline_char(line).is_none()
            && let Some(c) = lines.get(i + 1).and_then(|next| underline_char(next))
        {
            flush_paragraph(&mut out, &mut paragraph, &mut literal_next);
            let level = match styles.iter().position(|&s| s == c) {
                Some(level) => level,
                None => {
                    styles.push(c);
                    styles.len() - 1
                }
            };
            let title = inline(line.trim());
            if level == 0 && out.title.is_none() {
                out.title = Some(title);
            } else {
                let hashes = "#".repeat((level + 1).clamp(2, 6));
                let id = pending_label
                    .take()
                    .map(|label| format!(" {{#{label}}}"))
                    .unwrap_or_default();
                push(&mut out, format!("{hashes} {title}{id}"), number);
                push(&mut out, String::new(), number);
            }
            i += 2;
            continue;
        }

        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();

        if let Some(label) = trimmed
            .strip_prefix(".. _")
            .and_then(|rest| rest.strip_suffix(':'))
        {
            flush_paragraph(&mut out, &mut paragraph, &mut literal_next);
            pending_label = Some(label.trim().to_ascii_lowercase().replace(' ', "-"));
            i += 1;
            continue;
        }

        if let Some(directive) = trimmed.strip_prefix(".. ") {
            flush_paragraph(&mut out, &mut paragraph, &mut literal_next);
            let (block, next) = indented_block(&lines, i + 1, indent);
            if let Some(language) = directive
                .strip_prefix("code-block::")
                .or_else(|| directive.strip_prefix("code::"))
                .or_else(|| directive.strip_prefix("sourcecode::"))
            {
                let body: Vec<(usize, &str)> = block
                    .into_iter()
                    .filter(|(_, l)| !l.trim_start().starts_with(':'))
                    .collect();
                push_code(&mut out, language.trim(), &body, number);
            } else if directive.contains("::") {
                // Admonitions and other directives: keep their text as a quote.
                for (n, l) in block {
                    push(&mut out, format!("> {}", inline(l.trim())), n);
                }
                push(&mut out, String::new(), number);
            }
            // A bare `.. text` is an RST comment: dropped.
            i = next;
            continue;
        }

        if trimmed.is_empty() {
            flush_paragraph(&mut out, &mut paragraph, &mut literal_next);
            push(&mut out, String::new(), number);
            i += 1;
            continue;
        }

        if indent > 0 && paragraph.is_empty() {
            let (block, next) = indented_block(&lines, i, 0);
            if literal_next {
                push_code(&mut out, "", &block, number);
                literal_next = false;
            } else {
                for (n, l) in block {
                    let text = if l.trim().is_empty() {
                        ">".to_owned()
                    } else {
                        format!("> {}", inline(l.trim()))
                    };
                    push(&mut out, text, n);
                }
                push(&mut out, String::new(), number);
            }
            i = next;
            continue;
        }

        paragraph.push((number, line));
        i += 1;
    }
    flush_paragraph(&mut out, &mut paragraph, &mut literal_next);
    out
}

fn push(out: &mut Converted, line: String, source_line: usize) {
    for part in line.split('\n') {
        out.markdown.push_str(part);
        out.markdown.push('\n');
        out.source_lines.push(source_line);
    }
}

fn push_code(out: &mut Converted, language: &str, block: &[(usize, &str)], number: usize) {
    let margin = block
        .iter()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(_, l)| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    push(out, format!("```{language}"), number);
    let mut body: Vec<(usize, &str)> = block.to_vec();
    while body.last().is_some_and(|(_, l)| l.trim().is_empty()) {
        body.pop();
    }
    while body.first().is_some_and(|(_, l)| l.trim().is_empty()) {
        body.remove(0);
    }
    for (n, l) in body {
        push(out, l.get(margin..).unwrap_or("").to_owned(), n);
    }
    push(out, "```".to_owned(), number);
    push(out, String::new(), number);
}

/// Lines after `start` indented deeper than `base_indent` (blank lines included), and the index
/// of the first line after them.
fn indented_block<'a>(
    lines: &[&'a str],
    start: usize,
    base_indent: usize,
) -> (Vec<(usize, &'a str)>, usize) {
    let mut block = Vec::new();
    let mut i = start;
    while let Some(&line) = lines.get(i) {
        let indent = line.len() - line.trim_start().len();
        if !line.trim().is_empty() && indent <= base_indent {
            break;
        }
        block.push((i + 1, line));
        i += 1;
    }
    while block.last().is_some_and(|(_, l)| l.trim().is_empty()) {
        block.pop();
        i -= 1;
    }
    (block, i)
}

fn flush_paragraph(out: &mut Converted, paragraph: &mut Vec<(usize, &str)>, literal: &mut bool) {
    let Some(&(first, _)) = paragraph.first() else {
        return;
    };
    let mut text = paragraph
        .iter()
        .map(|(_, l)| l.trim())
        .collect::<Vec<_>>()
        .join("\n");
    // `text::` announces a literal block; `::` alone on its line disappears.
    if let Some(stripped) = text.strip_suffix("::") {
        *literal = true;
        text = if stripped.ends_with(char::is_whitespace) || stripped.is_empty() {
            stripped.trim_end().to_owned()
        } else {
            format!("{stripped}:")
        };
    }
    let converted = inline(&text);
    for (offset, line) in converted.split('\n').enumerate() {
        let source = paragraph.get(offset).map(|(n, _)| *n).unwrap_or(first);
        push(out, line.to_owned(), source);
    }
    paragraph.clear();
}

fn underline_char(line: &str) -> Option<char> {
    let line = line.trim_end();
    let first = line.chars().next()?;
    let punctuation = "=-~^*#+`:'\"._";
    (line.chars().count() >= 3 && punctuation.contains(first) && line.chars().all(|c| c == first))
        .then_some(first)
}

static LITERAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"``([^`]+?)``").expect("literal pattern"));
static ROLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r":(?:py:)?(ref|doc|class|func|meth|attr|mod|data|exc|obj|math|envvar|term):\s*`([^`]+)`",
    )
    .expect("role pattern")
});
static LINK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"`([^`<]*?)\s*<([^<>`\s]+)>`__?").expect("link pattern"));

/// Converts inline markup of one paragraph (which may span lines).
fn inline(text: &str) -> String {
    let text = LITERAL.replace_all(text, |c: &Captures<'_>| code_span(&c[1]));
    let text = ROLE.replace_all(&text, |c: &Captures<'_>| {
        let role = &c[1];
        let target = c[2].trim();
        // `text <target>` shows the text; `~a.b.C` shows only `C`.
        let (shown, target) = match (target.find('<'), target.strip_suffix('>')) {
            (Some(open), Some(inner)) => (target[..open].trim(), &inner[open + 1..]),
            _ => (target, target),
        };
        let shown = match shown.strip_prefix('~') {
            Some(path) => path.rsplit('.').next().unwrap_or(path),
            None => shown.trim_start_matches('!'),
        };
        match role {
            "ref" => format!("[{shown}](#{})", target.trim()),
            _ => code_span(shown),
        }
    });
    let text = LINK.replace_all(&text, |c: &Captures<'_>| {
        let label = c[1].split_whitespace().collect::<Vec<_>>().join(" ");
        let url = &c[2];
        if label.is_empty() {
            format!("<{url}>")
        } else {
            format!("[{label}]({url})")
        }
    });
    text.into_owned()
}

fn code_span(code: &str) -> String {
    if code.contains('`') {
        format!("`` {code} ``")
    } else {
        format!("`{code}`")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "FAQ\n===\n\nIntro with ``total_loss`` and :class:`~torch.nn.Module`.\n\n.. _my-label:\n\nFirst question\n--------------\nSee `the docs\n<https://example.org/x>`_ and :ref:`cuda-memory-management`.\n\n.. code-block:: python\n\n    x = 1\n    y = 2\n\nWrite::\n\n    z = 3\n\nOther\n-----\ntext\n";

    #[test]
    fn converts_titles_labels_and_inline_markup() {
        let c = to_markdown(SAMPLE);
        assert_eq!(c.title.as_deref(), Some("FAQ"));
        let md = &c.markdown;
        assert!(md.contains("## First question {#my-label}"), "{md}");
        assert!(md.contains("## Other\n"), "{md}");
        assert!(md.contains("`total_loss`"), "{md}");
        assert!(md.contains("`Module`"), "{md}");
        assert!(md.contains("[the docs](https://example.org/x)"), "{md}");
        assert!(
            md.contains("[cuda-memory-management](#cuda-memory-management)"),
            "{md}"
        );
    }

    #[test]
    fn code_blocks_and_literal_blocks_become_fences() {
        let md = to_markdown(SAMPLE).markdown;
        assert!(md.contains("```python\nx = 1\ny = 2\n```"), "{md}");
        assert!(md.contains("Write:\n"), "{md}");
        assert!(md.contains("```\nz = 3\n```"), "{md}");
    }

    #[test]
    fn markdown_lines_map_back_to_rst_lines() {
        let c = to_markdown(SAMPLE);
        let line = c
            .markdown
            .lines()
            .position(|l| l.starts_with("## First question"))
            .unwrap();
        assert_eq!(c.source_line(line + 1), 8);
    }

    #[test]
    fn tells_rst_from_markdown() {
        assert!(looks_like_rst(SAMPLE));
        assert!(!looks_like_rst("# Title\n\nSome `code` here.\n"));
    }
}
