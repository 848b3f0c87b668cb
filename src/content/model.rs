use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use serde::Serialize;

use crate::i18n::Lang;

/// The calculator pages a `calc:NAME?…` link may point to.
pub const CALCULATORS: &[&str] = &["training-memory", "allocation", "llm-memory"];

/// One fix article in one language.
#[derive(Debug, Clone, Serialize)]
pub struct Article {
    /// Group id shared by all translations (ASCII kebab-case).
    pub id: String,
    pub lang: Lang,
    pub title: String,
    pub summary: String,
    /// Message fragments, as the software prints them, that this article fixes.
    pub errors: Vec<String>,
    pub tags: Vec<String>,
    pub calculators: Vec<String>,
    pub updated: Option<String>,
    pub sections: Vec<Section>,
    /// Rendered body, ready to embed in a page (raw HTML of the source is escaped).
    pub html: String,
    /// Prose before the first heading.
    pub intro: String,
    /// The body as Markdown (what an agent reads as the article's resource).
    pub markdown: String,
    /// Hash of the source file, with the language naming a version of the article (ETag).
    pub content_hash: String,
    /// Front-matter keys ilaj does not use (`layout`, `model`, …), kept as found.
    #[serde(skip)]
    pub extra: BTreeMap<String, String>,
    #[serde(skip)]
    pub source: PathBuf,
}

/// A heading of an article and the text under it, up to the next heading.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Section {
    /// Stable ASCII id: the `{#id}` attribute, else a slug of the title.
    pub id: String,
    pub title: String,
    pub level: u8,
    /// Prose under the heading, code blocks left out.
    pub text: String,
    /// Code blocks and inline code under the heading: indexed apart from prose.
    pub code: String,
    /// The Markdown under the heading, subsections included, ready to quote (computed once
    /// when the article loads).
    pub markdown: String,
    /// 1-based line of the heading in the source file.
    #[serde(skip)]
    pub line: usize,
}

impl Article {
    /// All prose of the article (intro and sections), for indexing and snippets.
    pub fn prose(&self) -> String {
        let mut out = self.intro.clone();
        for section in &self.sections {
            out.push('\n');
            out.push_str(&section.title);
            out.push('\n');
            out.push_str(&section.text);
        }
        out
    }

    /// All code of the article, for the language-neutral code field.
    pub fn code(&self) -> String {
        self.sections
            .iter()
            .map(|s| s.code.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub fn section(&self, id: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.id == id)
    }

    pub fn url(&self) -> String {
        format!("/{}/articles/{}", self.lang, self.id)
    }
}

/// A problem found in a content file, printed as `file:line: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub file: PathBuf,
    pub line: usize,
    pub message: String,
}

impl Problem {
    pub fn new(file: impl Into<PathBuf>, line: usize, message: impl Into<String>) -> Self {
        Problem {
            file: file.into(),
            line: line.max(1),
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file.display(), self.line, self.message)
    }
}
