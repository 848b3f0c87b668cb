//! Markdown → HTML, sections and plain text, in one walk over pulldown-cmark's events.

use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use super::model::{CALCULATORS, Section};
use crate::i18n::Lang;

/// What rendering a Markdown body yields.
#[derive(Debug, Default)]
pub struct Rendered {
    pub html: String,
    pub sections: Vec<Section>,
    pub intro: String,
    /// The first level-1 heading, used as the title when the front matter has none.
    pub h1: Option<String>,
    /// The body as Markdown to quote: the title heading left out, heading ids dropped and
    /// `calc:` links made paths, code blocks as written.
    pub markdown: String,
    /// Problems found while rendering, as (file line, message).
    pub problems: Vec<(usize, String)>,
}

/// Renders `body`; `line_offset` is the number of file lines before the body.
///
/// When `take_h1_as_title` is set, the first `#` heading becomes [`Rendered::h1`] and is left
/// out of the HTML and the sections (the page prints the title itself).
pub fn render(body: &str, lang: Lang, line_offset: usize, take_h1_as_title: bool) -> Rendered {
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_HEADING_ATTRIBUTES | Options::ENABLE_STRIKETHROUGH;
    let events: Vec<(Event<'_>, std::ops::Range<usize>)> =
        Parser::new_ext(body, options).into_offset_iter().collect();
    let lines = LineIndex::new(body, line_offset);

    let mut out = Rendered::default();
    let headings = heading_ids(&events, take_h1_as_title, &lines, &mut out.problems);

    let mut html_events: Vec<Event<'_>> = Vec::with_capacity(events.len());
    let mut heading_index = 0;
    let mut skipping_title = false;
    let mut in_heading = false;
    let mut in_code_block = false;
    let mut current: Option<Section> = None;
    // Where each section's heading sits in the body, for its Markdown; and the title's.
    let mut heading_spans: Vec<(u8, std::ops::Range<usize>)> = Vec::new();
    let mut title_span: Option<std::ops::Range<usize>> = None;

    for (event, range) in events {
        match event {
            Event::Start(Tag::Heading {
                level,
                classes,
                attrs,
                ..
            }) => {
                let plan = &headings[heading_index];
                heading_index += 1;
                if plan.is_title {
                    skipping_title = true;
                    out.h1 = Some(plan.title.clone());
                    title_span = Some(range);
                    continue;
                }
                heading_spans.push((heading_level_number(level), range.clone()));
                if let Some(section) = current.take() {
                    out.sections.push(section);
                }
                current = Some(Section {
                    id: plan.id.clone(),
                    title: plan.title.clone(),
                    level: heading_level_number(level),
                    text: String::new(),
                    code: String::new(),
                    markdown: String::new(),
                    line: lines.line_of(range.start),
                });
                in_heading = true;
                html_events.push(Event::Start(Tag::Heading {
                    level,
                    id: Some(CowStr::from(plan.id.clone())),
                    classes,
                    attrs,
                }));
            }
            Event::End(TagEnd::Heading(level)) => {
                if skipping_title {
                    skipping_title = false;
                    continue;
                }
                in_heading = false;
                html_events.push(Event::End(TagEnd::Heading(level)));
            }
            _ if skipping_title => {}
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                let dest_url = match dest_url.strip_prefix("calc:") {
                    Some(target) => {
                        let name = target.split(['?', '#']).next().unwrap_or_default();
                        if !CALCULATORS.contains(&name) {
                            out.problems.push((
                                lines.line_of(range.start),
                                format!(
                                    "link to unknown calculator `{name}` (known: {})",
                                    CALCULATORS.join(", ")
                                ),
                            ));
                        }
                        CowStr::from(format!("/{lang}/calculators/{target}"))
                    }
                    None => dest_url,
                };
                html_events.push(Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                }));
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                in_code_block = true;
                html_events.push(Event::Start(Tag::CodeBlock(kind)));
            }
            Event::End(TagEnd::CodeBlock) => {
                in_code_block = false;
                if let Some(section) = current.as_mut() {
                    section.code.push('\n');
                }
                html_events.push(Event::End(TagEnd::CodeBlock));
            }
            Event::Text(text) => {
                if !in_heading {
                    push_text(&mut current, &mut out.intro, &text, in_code_block);
                }
                html_events.push(Event::Text(text));
            }
            Event::Code(code) => {
                if !in_heading {
                    push_text(&mut current, &mut out.intro, &code, false);
                    if let Some(section) = current.as_mut() {
                        section.code.push_str(&code);
                        section.code.push('\n');
                    }
                }
                html_events.push(Event::Code(code));
            }
            // Raw HTML in an article is shown as text, never trusted as markup.
            Event::Html(raw) | Event::InlineHtml(raw) => {
                if !in_heading {
                    push_text(&mut current, &mut out.intro, &raw, false);
                }
                html_events.push(Event::Text(raw));
            }
            Event::SoftBreak | Event::HardBreak => {
                if !in_heading {
                    push_text(&mut current, &mut out.intro, " ", in_code_block);
                }
                html_events.push(event);
            }
            Event::End(
                TagEnd::Paragraph | TagEnd::Item | TagEnd::TableCell | TagEnd::BlockQuote(_),
            ) => {
                push_text(&mut current, &mut out.intro, "\n", false);
                html_events.push(event);
            }
            other => html_events.push(other),
        }
    }
    if let Some(section) = current.take() {
        out.sections.push(section);
    }
    for (index, section) in out.sections.iter_mut().enumerate() {
        section.text = tidy(&section.text);
        section.code = section.code.trim().to_owned();
        // A section runs to the next heading of its level or above: its subsections are
        // part of the fix a reader would quote.
        let (level, span) = &heading_spans[index];
        let end = heading_spans[index + 1..]
            .iter()
            .find(|(other, _)| other <= level)
            .map_or(body.len(), |(_, next)| next.start);
        section.markdown = quotable(body, span.end..end, &heading_spans, lang);
    }
    out.intro = tidy(&out.intro);
    let start = title_span.as_ref().map_or(0, |span| span.end);
    let before_title = title_span.map_or(0..0, |span| 0..span.start);
    out.markdown = format!(
        "{}{}",
        quotable(body, before_title, &heading_spans, lang),
        quotable(body, start..body.len(), &heading_spans, lang)
    )
    .trim()
    .to_owned();
    pulldown_cmark::html::push_html(&mut out.html, html_events.into_iter());
    out
}

/// `body[range]` as Markdown to quote: heading ids (`{#fix}`) dropped from the headings inside
/// it, `calc:` links turned into the language's calculator paths, outer blank lines trimmed.
fn quotable(
    body: &str,
    range: std::ops::Range<usize>,
    headings: &[(u8, std::ops::Range<usize>)],
    lang: Lang,
) -> String {
    static HEADING_ID: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?m)[ \t]*\{[^{}\n]*\}[ \t]*$").expect("valid regex")
    });
    let mut out = String::with_capacity(range.len());
    let mut at = range.start;
    for (_, span) in headings
        .iter()
        .filter(|(_, span)| span.start >= range.start && span.end <= range.end)
    {
        out.push_str(&body[at..span.start]);
        out.push_str(&HEADING_ID.replace(&body[span.clone()], ""));
        at = span.end;
    }
    out.push_str(&body[at..range.end]);
    out.replace("](calc:", &format!("](/{lang}/calculators/"))
        .trim_matches(['\n', '\r'])
        .trim_end()
        .to_owned()
}

struct HeadingPlan {
    id: String,
    title: String,
    is_title: bool,
}

/// Decides each heading's id before rendering, since a slug needs the heading's text, which
/// comes after the heading's start event.
fn heading_ids(
    events: &[(Event<'_>, std::ops::Range<usize>)],
    take_h1_as_title: bool,
    lines: &LineIndex,
    problems: &mut Vec<(usize, String)>,
) -> Vec<HeadingPlan> {
    let mut plans = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut title_taken = !take_h1_as_title;
    let mut iter = events.iter();
    while let Some((event, range)) = iter.next() {
        let Event::Start(Tag::Heading { level, id, .. }) = event else {
            continue;
        };
        let mut title = String::new();
        for (inner, _) in iter.by_ref() {
            match inner {
                Event::End(TagEnd::Heading(_)) => break,
                Event::Text(t) | Event::Code(t) => title.push_str(t),
                _ => {}
            }
        }
        let title = title.trim().to_owned();
        if !title_taken && *level == HeadingLevel::H1 {
            title_taken = true;
            plans.push(HeadingPlan {
                id: String::new(),
                title,
                is_title: true,
            });
            continue;
        }
        let line = lines.line_of(range.start);
        let mut section_id = match id {
            Some(explicit) if is_ascii_id(explicit) => explicit.to_string(),
            Some(explicit) => {
                problems.push((
                    line,
                    format!("heading id `{explicit}` must be ASCII letters, digits, `-` or `_`"),
                ));
                slug(&title, plans.len() + 1)
            }
            None => slug(&title, plans.len() + 1),
        };
        if seen.contains(&section_id) {
            if id.is_some() {
                problems.push((line, format!("heading id `{section_id}` is used twice")));
            }
            let base = section_id.clone();
            let mut n = 2;
            while seen.contains(&section_id) {
                section_id = format!("{base}-{n}");
                n += 1;
            }
        }
        seen.push(section_id.clone());
        plans.push(HeadingPlan {
            id: section_id,
            title,
            is_title: false,
        });
    }
    plans
}

fn push_text(current: &mut Option<Section>, intro: &mut String, text: &str, is_code: bool) {
    match current.as_mut() {
        Some(section) if is_code => section.code.push_str(text),
        Some(section) => section.text.push_str(text),
        None if is_code => {}
        None => intro.push_str(text),
    }
}

/// Collapses runs of blank lines and trailing spaces left by the event walk.
fn tidy(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

fn heading_level_number(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

pub fn is_ascii_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 80
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

/// An ASCII slug of a heading; headings with no ASCII letters (Arabic, Hindi) get
/// `section-N` so the id stays ASCII and stable.
pub fn slug(title: &str, position: usize) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-');
    if out.is_empty() {
        format!("section-{position}")
    } else {
        out.chars().take(60).collect()
    }
}

struct LineIndex {
    starts: Vec<usize>,
    offset: usize,
}

impl LineIndex {
    fn new(text: &str, offset: usize) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts, offset }
    }

    /// 1-based file line of a byte offset in the body.
    fn line_of(&self, byte: usize) -> usize {
        self.starts.partition_point(|&start| start <= byte) + self.offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_heading_ids_are_kept_and_missing_ones_slugged() {
        let r = render(
            "intro\n\n## Cause {#cause}\ntext\n\n## Fix the Batch\nmore\n\n## خطوة\nx\n",
            Lang::Fr,
            0,
            false,
        );
        let ids: Vec<_> = r.sections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["cause", "fix-the-batch", "section-3"]);
        assert!(
            r.html.contains(r#"<h2 id="cause">Cause</h2>"#),
            "{}",
            r.html
        );
        assert_eq!(r.intro, "intro");
    }

    #[test]
    fn code_blocks_are_kept_apart_from_prose() {
        let r = render(
            "## Fix {#fix}\nSet it:\n\n```python\nbatch_size = 4\n```\n",
            Lang::Fr,
            0,
            false,
        );
        let fix = &r.sections[0];
        assert_eq!(fix.text, "Set it:");
        assert_eq!(fix.code, "batch_size = 4");
        assert!(r.html.contains(r#"<code class="language-python">"#));
    }

    #[test]
    fn calc_links_point_to_localized_calculators_and_unknown_ones_are_reported() {
        let r = render(
            "## A {#a}\n[x](calc:training-memory?n_layer=6&batch_size=8)\n\n[y](calc:nope)\n",
            Lang::Ar,
            10,
            false,
        );
        assert!(
            r.html
                .contains(r#"href="/ar/calculators/training-memory?n_layer=6&amp;batch_size=8""#),
            "{}",
            r.html
        );
        assert_eq!(r.problems.len(), 1);
        assert_eq!(r.problems[0].0, 14);
        assert!(r.problems[0].1.contains("nope"));
    }

    #[test]
    fn sections_carry_their_markdown_with_subsections_and_code_intact() {
        let body = "# T\n\nintro\n\n## Fix {#fix}\nRun:\n\n```python\n# keep {#this}\nx = 1\n```\n\n\
                    ### Step {#step}\nSee [calc](calc:allocation?a=1).\n\n## Next {#next}\nend\n";
        let r = render(body, Lang::Fr, 0, true);
        assert_eq!(
            r.sections[0].markdown,
            "Run:\n\n```python\n# keep {#this}\nx = 1\n```\n\n### Step\nSee \
             [calc](/fr/calculators/allocation?a=1)."
        );
        assert_eq!(
            r.sections[1].markdown,
            "See [calc](/fr/calculators/allocation?a=1)."
        );
        assert_eq!(r.sections[2].markdown, "end");
        assert!(
            r.markdown.starts_with("intro\n\n## Fix\n"),
            "{}",
            r.markdown
        );
        assert!(!r.markdown.contains("# T"));
    }

    #[test]
    fn raw_html_is_escaped() {
        let r = render("## A {#a}\n<script>alert(1)</script>\n", Lang::Fr, 0, false);
        assert!(!r.html.contains("<script>"));
        assert!(r.html.contains("&lt;script&gt;"));
    }

    #[test]
    fn heading_lines_count_from_file_start() {
        let r = render("x\n\n## A {#a}\n", Lang::Fr, 5, false);
        assert_eq!(r.sections[0].line, 8);
    }

    #[test]
    fn first_h1_becomes_title_when_asked() {
        let r = render("# Title\n\n## A {#a}\nbody\n", Lang::Fr, 0, true);
        assert_eq!(r.h1.as_deref(), Some("Title"));
        assert_eq!(r.sections.len(), 1);
        assert!(!r.html.contains("<h1"));
    }
}
