//! Reads a content folder into a [`Library`], collecting every problem as `file:line: message`.
//! A file with a fatal problem is skipped; the others still load.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::frontmatter::{self, FrontMatter};
use super::glossary::{self, GLOSSARY_DIR};
use super::library::Library;
use super::markdown;
use super::model::{Article, Problem};
use super::rst;
use super::style;
use crate::i18n::{Lang, detect_language};

/// Files larger than this are not articles; reading them would only waste memory.
const MAX_FILE_BYTES: u64 = 2 * 1024 * 1024;
const ARTICLE_EXTENSIONS: &[&str] = &["md", "markdown", "txt", "rst"];
const SUMMARY_CHARS: usize = 240;

#[derive(Debug, thiserror::Error)]
pub enum ContentError {
    #[error("cannot read content folder {}: {source}", path.display())]
    Folder {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The outcome of loading a folder.
#[derive(Debug, Default)]
pub struct LoadReport {
    pub library: Library,
    pub problems: Vec<Problem>,
    /// Article files looked at, loaded or not.
    pub files_read: usize,
}

/// Loads every article file below `dir`, and the glossaries of `dir/glossary/`.
///
/// A folder with a glossary is a curated catalog: its Markdown articles are also held to the
/// house style (`style`): the glossary's words, each language's typography, the English
/// version's code blocks, signatures that pick out their group. Files as people already have
/// them (a folder without a glossary) are only checked for what ilaj needs to load them.
pub fn load_dir(dir: &Path) -> Result<LoadReport, ContentError> {
    let mut files = Vec::new();
    collect_files(dir, &mut files).map_err(|source| ContentError::Folder {
        path: dir.to_owned(),
        source,
    })?;
    files.sort();

    let (glossaries, mut problems) = glossary::load(dir);
    let house_style = dir.join(GLOSSARY_DIR).is_dir();
    let mut articles = Vec::new();
    let mut code_blocks = style::CodeBlocks::new();
    for path in &files {
        match read_text(path) {
            Ok(text) => match parse_article(path, &text) {
                Ok((article, warnings)) => {
                    problems.extend(warnings);
                    let is_markdown = path.extension().is_some_and(|e| e == "md");
                    if house_style && is_markdown {
                        let split = frontmatter::split(&text);
                        let lines = style::body_lines(split.body, split.body_line_offset + 1);
                        let glossary = glossaries.get(&article.lang);
                        let front = style::front_matter_prose(split.yaml.unwrap_or(""));
                        style::check_prose(path, article.lang, &front, glossary, &mut problems);
                        style::check_prose(path, article.lang, &lines, glossary, &mut problems);
                        code_blocks.insert(
                            (article.id.clone(), article.lang),
                            (path.clone(), lines.code_blocks),
                        );
                    }
                    articles.push(article);
                }
                Err(fatal) => problems.extend(fatal),
            },
            Err(problem) => problems.push(problem),
        }
    }
    let articles = drop_duplicates(articles, &mut problems);
    check_translations_share_sections(&articles, &mut problems);
    if house_style {
        style::check_code_matches_english(&code_blocks, &mut problems);
        style::check_signatures(&articles, &mut problems);
    }
    Ok(LoadReport {
        library: Library::new(articles).with_glossaries(glossaries),
        problems,
        files_read: files.len(),
    })
}

fn collect_files(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let file_type = entry.file_type()?;
        if file_type.is_dir() {
            collect_files(&path, files)?;
        } else if is_article_file(&name) {
            files.push(path);
        }
    }
    Ok(())
}

/// A README describes the folder; it is not an article.
fn is_article_file(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let extension = lower.rsplit_once('.').map(|(_, ext)| ext).unwrap_or("");
    ARTICLE_EXTENSIONS.contains(&extension) && !lower.starts_with("readme")
}

fn read_text(path: &Path) -> Result<String, Problem> {
    let metadata = std::fs::metadata(path).map_err(|e| Problem::new(path, 1, e.to_string()))?;
    if metadata.len() > MAX_FILE_BYTES {
        return Err(Problem::new(
            path,
            1,
            format!(
                "file is {} bytes; articles are limited to {MAX_FILE_BYTES}",
                metadata.len()
            ),
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| Problem::new(path, 1, e.to_string()))?;
    String::from_utf8(bytes).map_err(|error| {
        let valid = &error.as_bytes()[..error.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        Problem::new(path, line, "not UTF-8 text")
    })
}

/// Parses one article file. `Ok` carries non-fatal problems; `Err` means the file is skipped.
pub fn parse_article(path: &Path, text: &str) -> Result<(Article, Vec<Problem>), Vec<Problem>> {
    let split = frontmatter::split(text);
    let yaml = split.yaml.unwrap_or("");
    let key_line = |key: &str| yaml_key_line(yaml, key).unwrap_or(1);
    let fm: FrontMatter = frontmatter::parse(yaml)
        .map_err(|(line, message)| vec![Problem::new(path, line + 1, message)])?;

    let mut fatal = Vec::new();
    if split.body.trim().is_empty() {
        fatal.push(Problem::new(
            path,
            split.body_line_offset + 1,
            "empty body: the article has no text",
        ));
    }

    let is_rst = path.extension().is_some_and(|e| e == "rst")
        || (split.yaml.is_none() && rst::looks_like_rst(split.body));
    let converted = is_rst.then(|| rst::to_markdown(split.body));
    let markdown_body = converted
        .as_ref()
        .map(|c| c.markdown.as_str())
        .unwrap_or(split.body);

    let lang = match fm.lang.as_deref() {
        Some(code) => match code.parse::<Lang>() {
            Ok(lang) => Some(lang),
            Err(error) => {
                fatal.push(Problem::new(path, key_line("lang"), error.to_string()));
                None
            }
        },
        None => folder_language(path).or_else(|| detect_language(split.body)),
    };
    let Some(lang) = lang else {
        if fatal.is_empty() {
            fatal.push(Problem::new(
                path,
                1,
                "cannot tell the language: add `lang: ar|hi|fr|en` to the front matter",
            ));
        }
        return Err(fatal);
    };

    let id = match fm.id.as_deref() {
        Some(id) if is_group_id(id) => id.to_owned(),
        Some(id) => {
            fatal.push(Problem::new(
                path,
                key_line("id"),
                format!("id `{id}` must be ASCII kebab-case (a-z, 0-9, -)"),
            ));
            String::new()
        }
        None => id_from_file_name(path),
    };
    if id.is_empty() && fm.id.is_none() {
        fatal.push(Problem::new(
            path,
            1,
            "cannot derive an id from the file name",
        ));
    }

    let take_h1 = fm.title.is_none() && converted.is_none();
    let line_offset = if converted.is_some() {
        0
    } else {
        split.body_line_offset
    };
    let mut rendered = markdown::render(markdown_body, lang, line_offset, take_h1);
    if let Some(converted) = &converted {
        for section in &mut rendered.sections {
            section.line = converted.source_line(section.line);
        }
        for (line, _) in &mut rendered.problems {
            *line = converted.source_line(*line);
        }
    }

    let title = fm
        .title
        .clone()
        .or_else(|| converted.as_ref().and_then(|c| c.title.clone()))
        .or_else(|| rendered.h1.clone())
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty());
    let Some(title) = title else {
        fatal.push(Problem::new(path, 1, "missing title"));
        return Err(fatal);
    };
    if !fatal.is_empty() {
        return Err(fatal);
    }

    let summary = fm
        .summary
        .clone()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| derived_summary(&rendered));
    let warnings = rendered
        .problems
        .iter()
        .map(|(line, message)| Problem::new(path, *line, message.clone()))
        .collect();
    let article = Article {
        id,
        lang,
        title,
        summary,
        errors: fm.errors,
        tags: fm.tags,
        calculators: fm.calculators,
        updated: fm.updated.as_ref().map(frontmatter::value_to_string),
        sections: rendered.sections,
        html: rendered.html,
        intro: rendered.intro,
        markdown: rendered.markdown,
        content_hash: content_hash(text),
        extra: fm
            .extra
            .iter()
            .map(|(k, v)| (k.clone(), frontmatter::value_to_string(v)))
            .collect(),
        source: path.to_owned(),
    };
    Ok((article, warnings))
}

/// The first 16 bytes of the file's SHA-256, in hex: enough to tell versions apart.
fn content_hash(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes())[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `content/fr/x.md` is French even without a `lang` key.
fn folder_language(path: &Path) -> Option<Lang> {
    path.parent()?.file_name()?.to_str()?.parse().ok()
}

fn is_group_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 100
        && !id.starts_with('-')
        && !id.ends_with('-')
        && !id.contains("--")
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn id_from_file_name(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut id = String::new();
    for c in stem.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
    id.trim_end_matches('-').to_owned()
}

/// 1-based file line of a top-level key in the front matter (the `---` is line 1).
fn yaml_key_line(yaml: &str, key: &str) -> Option<usize> {
    yaml.lines()
        .position(|line| {
            line.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .map(|index| index + 2)
}

fn derived_summary(rendered: &markdown::Rendered) -> String {
    let source = if rendered.intro.is_empty() {
        rendered
            .sections
            .iter()
            .map(|s| s.text.as_str())
            .find(|t| !t.is_empty())
            .unwrap_or("")
    } else {
        rendered.intro.as_str()
    };
    let first = source.lines().next().unwrap_or("").trim();
    if first.chars().count() <= SUMMARY_CHARS {
        return first.to_owned();
    }
    let cut: String = first.chars().take(SUMMARY_CHARS).collect();
    match cut.rfind(' ') {
        Some(space) => format!("{}…", &cut[..space]),
        None => format!("{cut}…"),
    }
}

fn drop_duplicates(articles: Vec<Article>, problems: &mut Vec<Problem>) -> Vec<Article> {
    let mut seen: BTreeMap<(String, Lang), PathBuf> = BTreeMap::new();
    let mut kept = Vec::with_capacity(articles.len());
    for article in articles {
        let key = (article.id.clone(), article.lang);
        if let Some(first) = seen.get(&key) {
            problems.push(Problem::new(
                &article.source,
                1,
                format!(
                    "duplicate article `{}` in `{}`: already defined in {}",
                    article.id,
                    article.lang,
                    first.display()
                ),
            ));
            continue;
        }
        seen.insert(key, article.source.clone());
        kept.push(article);
    }
    kept
}

/// Translations of a group must share section ids, so a section can be linked in any language.
fn check_translations_share_sections(articles: &[Article], problems: &mut Vec<Problem>) {
    let mut groups: BTreeMap<&str, Vec<&Article>> = BTreeMap::new();
    for article in articles {
        groups.entry(&article.id).or_default().push(article);
    }
    for members in groups.values_mut() {
        members.sort_by_key(|a| a.lang);
        let Some((reference, others)) = members.split_first() else {
            continue;
        };
        let expected: Vec<&str> = reference.sections.iter().map(|s| s.id.as_str()).collect();
        for other in others {
            let found: Vec<&str> = other.sections.iter().map(|s| s.id.as_str()).collect();
            if found == expected {
                continue;
            }
            let missing: Vec<String> = expected
                .iter()
                .filter(|id| !found.contains(id))
                .map(|id| format!("#{id}"))
                .collect();
            let extra: Vec<&crate::content::Section> = other
                .sections
                .iter()
                .filter(|s| !expected.contains(&s.id.as_str()))
                .collect();
            let line = extra.first().map(|s| s.line).unwrap_or(1);
            let mut message = format!(
                "section ids differ from the `{}` translation ({})",
                reference.lang,
                reference.source.display()
            );
            if !missing.is_empty() {
                message.push_str(&format!("; missing {}", missing.join(", ")));
            }
            if !extra.is_empty() {
                let names: Vec<String> = extra.iter().map(|s| format!("#{}", s.id)).collect();
                message.push_str(&format!(
                    "; not in `{}`: {}",
                    reference.lang,
                    names.join(", ")
                ));
            }
            if missing.is_empty() && extra.is_empty() {
                message.push_str("; same ids in another order");
            }
            problems.push(Problem::new(&other.source, line, message));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(name: &str, text: &str) -> Result<(Article, Vec<Problem>), Vec<Problem>> {
        parse_article(Path::new(name), text)
    }

    #[test]
    fn front_matter_fields_and_sections_are_read() {
        let (a, warnings) = parse(
            "content/fr/x.md",
            "---\nid: cuda-oom-training\nlang: fr\ntitle: \"T\"\nsummary: \"S\"\nerrors: [\"CUDA out of memory\"]\ntags: [cuda]\ncalculators: [allocation]\nupdated: 2026-11-21\n---\n## A {#a}\ntext\n",
        )
        .unwrap();
        assert!(warnings.is_empty());
        assert_eq!(a.id, "cuda-oom-training");
        assert_eq!(a.lang, Lang::Fr);
        assert_eq!(a.errors, ["CUDA out of memory"]);
        assert_eq!(a.updated.as_deref(), Some("2026-11-21"));
        assert_eq!(a.sections[0].line, 11);
    }

    #[test]
    fn id_comes_from_file_name_and_language_from_folder_when_missing() {
        let (a, _) = parse("content/hi/My_Fix.md", "---\ntitle: T\n---\nbody\n").unwrap();
        assert_eq!(a.id, "my-fix");
        assert_eq!(a.lang, Lang::Hi);
    }

    #[test]
    fn bad_yaml_is_reported_at_its_file_line() {
        let problems = parse("x.md", "---\ntitle: T\ntags: [a\n---\nbody\n").unwrap_err();
        assert_eq!(problems.len(), 1);
        assert!(problems[0].line >= 3, "{}", problems[0]);
        assert!(problems[0].message.contains("front matter"));
    }

    #[test]
    fn unknown_language_missing_title_and_empty_body_are_fatal() {
        let p = parse("x.md", "---\nlang: de\ntitle: T\n---\nbody\n").unwrap_err();
        assert_eq!((p[0].line, p[0].message.contains("de")), (2, true));
        let p = parse("content/fr/x.md", "---\nlang: fr\n---\nno heading\n").unwrap_err();
        assert!(p[0].message.contains("missing title"));
        let p = parse("x.md", "---\nlang: fr\ntitle: T\n---\n\n").unwrap_err();
        assert!(p[0].message.contains("empty body"));
    }

    #[test]
    fn non_kebab_id_is_rejected_at_its_line() {
        let p = parse("x.md", "---\ntitle: T\nlang: fr\nid: Not Kebab\n---\nb\n").unwrap_err();
        assert_eq!(p[0].line, 4);
    }
}
