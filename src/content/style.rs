//! What `ilaj check` holds the articles and the interface strings to, beyond their format:
//! the glossary's words, each language's typography, the same code as the English version,
//! and `errors:` signatures that pick out their group.
//!
//! Prose is checked line by line with code (fenced blocks, code spans) and link targets
//! blanked, so an identifier, a URL or quoted error text never trips a rule.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use super::glossary::Glossary;
use super::model::{Article, Problem};
use crate::i18n::Lang;

/// The out-of-memory groups share the allocator's message and tell themselves apart by the
/// situation (training, evaluation, fragmentation, growth); a signature claimed by more groups
/// than that tells none of them apart.
const MAX_GROUPS_PER_SIGNATURE: usize = 4;
/// Shorter fragments match text they were not written for.
const MIN_SIGNATURE_CHARS: usize = 12;

const NARROW_NBSP: char = '\u{202f}';
const NBSP: char = '\u{a0}';

/// The lines of a Markdown body: prose (code and link targets blanked) and fenced code blocks,
/// each with its 1-based line in the file.
#[derive(Debug, Default)]
pub struct BodyLines {
    pub prose: Vec<(usize, String)>,
    /// Whether each prose line begins inside or with a code span.
    pub opens_with_code: Vec<bool>,
    /// Lines where a code span holds a no-break space: typography got into code.
    pub spaced_code: Vec<usize>,
    /// Each fenced block's first line and its content.
    pub code_blocks: Vec<(usize, String)>,
}

/// Blanks code spans, which may run over several lines of a paragraph: `open` is the length
/// of the backtick run of the span still open at the end of the previous line. Says whether a
/// span held a no-break space.
fn blank_code_spans(line: &str, open: &mut Option<usize>) -> (String, bool) {
    let mut spaced = false;
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '`' {
            let mut run = 1;
            while chars.next_if_eq(&'`').is_some() {
                run += 1;
            }
            *open = match *open {
                Some(n) if n == run => None,
                None => Some(run),
                still => still,
            };
            out.extend(std::iter::repeat_n(' ', run));
        } else if open.is_some() {
            spaced |= c == NBSP || c == NARROW_NBSP;
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    (out, spaced)
}
/// Link and image targets, heading ids and raw URLs: not prose.
static NOT_PROSE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\]\([^)]*\)|\{#[^}]*\}|https?://\S+|<[^>]+>").expect("link pattern")
});

/// Splits a Markdown body into prose lines and code blocks; `first_line` is the body's line
/// in the file.
pub fn body_lines(body: &str, first_line: usize) -> BodyLines {
    let mut out = BodyLines::default();
    let mut block: Option<(usize, String, String)> = None;
    let mut open_span = None;
    for (index, line) in body.lines().enumerate() {
        let number = first_line + index;
        let trimmed = line.trim_start();
        if let Some((start, fence, mut content)) = block.take() {
            if trimmed.starts_with(&fence) && trimmed.trim_end() == fence {
                out.code_blocks.push((start, content));
            } else {
                content.push_str(line);
                content.push('\n');
                block = Some((start, fence, content));
            }
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            let fence: String = trimmed
                .chars()
                .take_while(|c| *c == '`' || *c == '~')
                .collect();
            block = Some((number, fence, String::new()));
            continue;
        }
        if trimmed.is_empty() {
            open_span = None;
        }
        out.opens_with_code
            .push(open_span.is_some() || trimmed.starts_with('`'));
        let (without_code, spaced) = blank_code_spans(line, &mut open_span);
        if spaced {
            out.spaced_code.push(number);
        }
        let prose = NOT_PROSE.replace_all(&without_code, " ");
        out.prose.push((number, prose.into_owned()));
    }
    out
}

/// The `title:` and `summary:` lines of the front matter, which readers see as prose.
pub fn front_matter_prose(yaml: &str) -> BodyLines {
    let mut out = BodyLines::default();
    for (index, line) in yaml.lines().enumerate() {
        if let Some(value) = line
            .strip_prefix("title:")
            .or_else(|| line.strip_prefix("summary:"))
        {
            // The front matter starts on the file's second line, after `---`.
            out.prose.push((index + 2, value.to_owned()));
            out.opens_with_code.push(false);
        }
    }
    out
}

/// Per-file checks: glossary words and the language's typography.
pub fn check_prose(
    path: &Path,
    lang: Lang,
    lines: &BodyLines,
    glossary: Option<&Glossary>,
    problems: &mut Vec<Problem>,
) {
    for (number, line) in &lines.prose {
        if let Some(glossary) = glossary {
            for message in glossary_slips(glossary, line) {
                problems.push(Problem::new(path, *number, message));
            }
        }
        for message in typography_slips(lang, line) {
            problems.push(Problem::new(path, *number, message));
        }
    }
    if lang == Lang::Ar {
        conjunction_before_code(path, lines, problems);
    }
    for number in &lines.spaced_code {
        problems.push(Problem::new(
            path,
            *number,
            "a no-break space inside code: code and error text are kept as the software prints them",
        ));
    }
}

/// Interface strings (`locales/<lang>/*.ftl`): glossary words and typography, per message
/// line (placeables and the message id blanked).
pub fn check_messages(
    name: &str,
    lang: Lang,
    source: &str,
    glossary: Option<&Glossary>,
) -> Vec<Problem> {
    static PLACEABLE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\{[^}]*\}").expect("placeable pattern"));
    let mut problems = Vec::new();
    for (index, line) in source.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with('#') || trimmed.starts_with('[') || trimmed.starts_with('*') {
            continue;
        }
        let value = match line.split_once(" = ") {
            Some((id, value)) if !id.starts_with(' ') => value,
            _ => line,
        };
        let text = PLACEABLE.replace_all(value, " ");
        let (text, _) = blank_code_spans(&text, &mut None);
        let text = NOT_PROSE.replace_all(&text, " ");
        let mut found: Vec<String> = glossary
            .map(|g| glossary_slips(g, &text))
            .unwrap_or_default();
        found.extend(typography_slips(lang, &text));
        problems.extend(
            found
                .into_iter()
                .map(|message| Problem::new(PathBuf::from(name), index + 1, message)),
        );
    }
    problems
}

fn glossary_slips(glossary: &Glossary, line: &str) -> Vec<String> {
    let lower = line.to_lowercase();
    let mut out = Vec::new();
    for term in &glossary.terms {
        for avoided in &term.avoid {
            if contains_word(&lower, &avoided.to_lowercase()) {
                out.push(format!(
                    "glossary ({}): write «{}», not «{avoided}»",
                    term.id, term.term
                ));
            }
        }
    }
    out
}

/// `needle` in `haystack` with no letter or digit glued to either end.
fn contains_word(haystack: &str, needle: &str) -> bool {
    !needle.is_empty()
        && haystack.match_indices(needle).any(|(start, _)| {
            let before = haystack[..start].chars().next_back();
            let after = haystack[start + needle.len()..].chars().next();
            !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
        })
}

/// Identifiers (`gradient_accumulation_steps`) are one word.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// English quoted in French (`« CUDA error: out of memory »`) keeps English punctuation: the
/// contents of guillemets that hold only ASCII are blanked before the French rules.
fn without_quoted_english(line: &str) -> String {
    static QUOTED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"«([\u{a0}\u{202f} ]?)([\x20-\x7e]+?)([\u{a0}\u{202f} ]?)»")
            .expect("quote pattern")
    });
    QUOTED
        .replace_all(line, |c: &regex::Captures<'_>| {
            format!("«{}{}{}»", &c[1], " ".repeat(c[2].len()), &c[3])
        })
        .into_owned()
}

static FR_BINARY_UNIT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\d[\s\u{a0}\u{202f}]?(GB|GiB|MiB|KiB|TiB|Go|Mo)\b").expect("unit pattern")
});
/// Arithmetic that starts with a number: in right-to-left text the operators between numbers
/// take the paragraph's direction and the expression reads backwards (`8 / 23` shows as
/// `23 / 8`). After a Latin letter (`CUDA_LAUNCH_BLOCKING=1`, `B × T`) the run stays left to
/// right on its own.
static AR_ARITHMETIC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[^\p{L}\p{N}_.])(\d[\d.,]*[ \u{a0}]*[×*=+/][ \u{a0}]*[\d(][^ ]*)")
        .expect("arithmetic pattern")
});

fn typography_slips(lang: Lang, line: &str) -> Vec<String> {
    let mut out = Vec::new();
    match lang {
        Lang::Fr => {
            let chars: Vec<char> = without_quoted_english(line).chars().collect();
            for (i, &c) in chars.iter().enumerate() {
                let before = i.checked_sub(1).map(|j| chars[j]);
                let after = chars.get(i + 1).copied();
                let spaced = |c: Option<char>| matches!(c, Some(NBSP | NARROW_NBSP));
                match c {
                    ';' | '!' | '?'
                        if before.is_some_and(|b| !b.is_whitespace() || b == ' ')
                            && !spaced(before) =>
                    {
                        out.push(format!(
                            "French typography: a narrow no-break space (U+202F) before « {c} »"
                        ));
                    }
                    ':' if before.is_some_and(|b| b == ' ' || b.is_alphabetic())
                        && !after.is_some_and(char::is_alphanumeric)
                        && !english_around(&chars, i) =>
                    {
                        out.push(
                            "French typography: a no-break space (U+00A0) before « : »".to_owned(),
                        );
                    }
                    '«' if !spaced(after) => {
                        out.push("French typography: a no-break space after « « »".to_owned());
                    }
                    '»' if !spaced(before) => {
                        out.push("French typography: a no-break space before « » »".to_owned());
                    }
                    '\'' if before.is_some_and(char::is_alphabetic)
                        && after.is_some_and(char::is_alphabetic) =>
                    {
                        out.push("French typography: the apostrophe is ’ (U+2019)".to_owned());
                    }
                    _ => {}
                }
            }
            if let Some(unit) = FR_BINARY_UNIT.captures(line).and_then(|c| c.get(1)) {
                out.push(format!(
                    "French units: write Gio/Mio for binary sizes in prose, not {}",
                    unit.as_str()
                ));
            }
        }
        Lang::Ar => {
            if let Some(found) = AR_ARITHMETIC.captures(line).and_then(|c| c.get(1)) {
                out.push(format!(
                    "Arabic: put arithmetic in a code span so it stays left to right: «{}»",
                    found.as_str().trim()
                ));
            }
        }
        Lang::Hi => {
            if line.contains('«') || line.contains('»') {
                out.push("Hindi: quote with “…” or \"…\", not «»".to_owned());
            }
        }
        Lang::En => {}
    }
    dedup(out)
}

/// The words on both sides of `chars[at]` are plain ASCII: English quoted in French prose
/// (`CUDA error: device-side assert` in a title, where code spans cannot go).
fn english_around(chars: &[char], at: usize) -> bool {
    let before = chars[..at]
        .iter()
        .rev()
        .skip_while(|c| c.is_whitespace())
        .take_while(|c| !c.is_whitespace());
    let after = chars[at + 1..]
        .iter()
        .skip_while(|c| c.is_whitespace())
        .take_while(|c| !c.is_whitespace());
    let mut words = before.chain(after).peekable();
    words.peek().is_some() && words.all(|c| c.is_ascii())
}

fn dedup(mut messages: Vec<String>) -> Vec<String> {
    let mut seen = BTreeSet::new();
    messages.retain(|m| seen.insert(m.clone()));
    messages
}

/// «و» or «أو» at the end of a line whose next line opens with code: rendered apart from it.
fn conjunction_before_code(path: &Path, lines: &BodyLines, problems: &mut Vec<Problem>) {
    for (index, pair) in lines.prose.windows(2).enumerate() {
        let (number, line) = &pair[0];
        let last_word = line.split_whitespace().next_back().unwrap_or_default();
        let line_ends_in_prose = !line.ends_with(' ');
        let next_is_code = lines.opens_with_code[index + 1];
        if (last_word == "و" || last_word == "أو") && line_ends_in_prose && next_is_code {
            problems.push(Problem::new(
                path,
                *number,
                "Arabic: «و» at a line end before code renders apart; keep it with what follows",
            ));
        }
    }
}

/// Each article's fenced code blocks (first line, content), by group id and language.
pub type CodeBlocks = BTreeMap<(String, Lang), (PathBuf, Vec<(usize, String)>)>;

/// Every translation's fenced code blocks are the English version's, in the same order.
pub fn check_code_matches_english(blocks: &CodeBlocks, problems: &mut Vec<Problem>) {
    for ((id, lang), (path, own)) in blocks {
        if *lang == Lang::En {
            continue;
        }
        let Some((_, english)) = blocks.get(&(id.clone(), Lang::En)) else {
            continue;
        };
        if own.len() != english.len() {
            problems.push(Problem::new(
                path,
                own.first().map_or(1, |(line, _)| *line),
                format!(
                    "{} code blocks where the English version has {}",
                    own.len(),
                    english.len()
                ),
            ));
            continue;
        }
        for ((line, code), (english_line, english_code)) in own.iter().zip(english) {
            if code.trim_end() != english_code.trim_end() {
                problems.push(Problem::new(
                    path,
                    *line,
                    format!(
                        "this code block differs from the English version's (line {english_line})"
                    ),
                ));
            }
        }
    }
}

/// `errors:` fragments that are too short, or claimed by more groups than can be told apart.
/// Reported once, on the English version of each group that claims them.
pub fn check_signatures(articles: &[Article], problems: &mut Vec<Problem>) {
    let mut claims: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for article in articles {
        for fragment in &article.errors {
            claims
                .entry(fragment.trim().to_lowercase())
                .or_default()
                .insert(&article.id);
        }
    }
    for article in articles.iter().filter(|a| a.lang == Lang::En) {
        // Read once per article, for the line of each of its fragments.
        let source = std::fs::read_to_string(&article.source).unwrap_or_default();
        for fragment in &article.errors {
            let groups = &claims[&fragment.trim().to_lowercase()];
            let line = source
                .lines()
                .position(|l| l.contains(fragment.as_str()))
                .map_or(1, |i| i + 1);
            if fragment.trim().chars().count() < MIN_SIGNATURE_CHARS {
                problems.push(Problem::new(
                    &article.source,
                    line,
                    format!("the signature \"{fragment}\" is too short to pick out this article"),
                ));
            }
            if groups.len() > MAX_GROUPS_PER_SIGNATURE {
                let others: Vec<&str> = groups
                    .iter()
                    .copied()
                    .filter(|g| *g != article.id)
                    .collect();
                problems.push(Problem::new(
                    &article.source,
                    line,
                    format!(
                        "the signature \"{fragment}\" is claimed by {} groups (also {}): it tells none apart",
                        groups.len(),
                        others.join(", ")
                    ),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::glossary::Term;

    fn glossary(lang: Lang, term: &str, avoid: &str) -> Glossary {
        Glossary {
            lang,
            terms: vec![Term {
                id: "concept".into(),
                en: "concept".into(),
                term: term.into(),
                also: Vec::new(),
                avoid: vec![avoid.into()],
                definition: String::new(),
            }],
        }
    }

    fn problems(lang: Lang, body: &str, glossary: Option<&Glossary>) -> Vec<String> {
        let mut found = Vec::new();
        check_prose(
            Path::new("x.md"),
            lang,
            &body_lines(body, 10),
            glossary,
            &mut found,
        );
        found.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn avoided_words_are_reported_in_prose_but_not_in_code() {
        let g = glossary(Lang::Fr, "wheel", "roue");
        let found = problems(
            Lang::Fr,
            "Installez la roue\u{a0}:\n```\nroue\n```\n`roue`\n",
            Some(&g),
        );
        assert_eq!(
            found,
            ["x.md:10: glossary (concept): write «wheel», not «roue»"]
        );
        assert!(
            problems(Lang::Fr, "Les roues tournent.", Some(&g)).is_empty(),
            "whole words only"
        );
    }

    #[test]
    fn french_spacing_units_and_apostrophes_are_checked() {
        let found = problems(
            Lang::Fr,
            "Pourquoi ? Il faut 6 GB : l'erreur « oom ». Symptômes : rien",
            None,
        );
        assert!(found.iter().any(|p| p.contains("U+202F")), "{found:?}");
        assert!(found.iter().any(|p| p.contains("U+00A0")), "{found:?}");
        let english = problems(Lang::Fr, "Le message CUDA error: device-side assert", None);
        assert!(english.is_empty(), "{english:?}");
        assert!(found.iter().any(|p| p.contains("Gio/Mio")), "{found:?}");
        assert!(found.iter().any(|p| p.contains("’")), "{found:?}");
        assert!(found.iter().any(|p| p.contains("after « « »")), "{found:?}");
        let clean = "Pourquoi\u{202f}? Il faut 6\u{a0}Gio\u{a0}: l’erreur «\u{a0}CUDA error: oom\u{a0}». Voir [ici](https://x.org/a?b=c) et `a: b`.";
        assert!(
            problems(Lang::Fr, clean, None).is_empty(),
            "{:?}",
            problems(Lang::Fr, clean, None)
        );
    }

    #[test]
    fn arabic_formulas_outside_code_and_a_dangling_conjunction_are_reported() {
        let found = problems(
            Lang::Ar,
            "الحجم 65536 × 50304 كبير\nاستعمل و\n`x` بعد ذلك",
            None,
        );
        assert!(
            found
                .iter()
                .any(|p| p.starts_with("x.md:10:") && p.contains("arithmetic")),
            "{found:?}"
        );
        assert!(
            found
                .iter()
                .any(|p| p.starts_with("x.md:11:") && p.contains("«و»")),
            "{found:?}"
        );
        assert!(problems(Lang::Ar, "الحجم `65536 × 50304` كبير", None).is_empty());
        assert!(problems(Lang::Ar, "اضبط CUDA_LAUNCH_BLOCKING=1 و B × T", None).is_empty());
    }

    #[test]
    fn translations_must_carry_the_english_code_blocks() {
        let mut blocks = BTreeMap::new();
        blocks.insert(
            ("g".to_owned(), Lang::En),
            (PathBuf::from("en/g.md"), vec![(5, "a = 1\n".to_owned())]),
        );
        blocks.insert(
            ("g".to_owned(), Lang::Fr),
            (PathBuf::from("fr/g.md"), vec![(7, "a = 2\n".to_owned())]),
        );
        let mut found = Vec::new();
        check_code_matches_english(&blocks, &mut found);
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].file.to_str(), found[0].line),
            (Some("fr/g.md"), 7)
        );
    }

    #[test]
    fn interface_strings_are_held_to_the_same_rules() {
        let g = glossary(Lang::Fr, "appareil", "périphérique");
        let found = check_messages(
            "fr/ui.ftl",
            Lang::Fr,
            "# comment: périphérique\nkey = Le périphérique { $n } est plein !\n",
            Some(&g),
        );
        let lines: Vec<usize> = found.iter().map(|p| p.line).collect();
        assert_eq!(lines, [2, 2], "{found:?}");
    }
}
