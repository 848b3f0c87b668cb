//! One glossary per language (`content/glossary/<lang>.yaml`): the one word the articles and
//! the interface use for each concept, the words people type for it, and the forms that are
//! wrong or inconsistent. It is shown at `/{lang}/glossary` and is what `ilaj check` holds the
//! articles and the interface strings to.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::model::Problem;
use crate::i18n::Lang;

/// The folder, inside the content folder, that holds the glossaries.
pub const GLOSSARY_DIR: &str = "glossary";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Glossary {
    pub lang: Lang,
    pub terms: Vec<Term>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Term {
    /// ASCII concept id, the same in every language.
    pub id: String,
    /// The English term, for readers who know it.
    pub en: String,
    /// The one word or phrase used in prose.
    pub term: String,
    /// What people type for it: fine when quoting them, and search synonyms. A phrase may
    /// hold `…` where other words may stand between its parts.
    #[serde(default)]
    pub also: Vec<String>,
    /// Wrong or inconsistent forms: `ilaj check` reports them in prose.
    #[serde(default)]
    pub avoid: Vec<String>,
    pub definition: String,
}

/// Every language's glossary that could be read, and what was wrong with the others.
pub fn load(content_dir: &Path) -> (BTreeMap<Lang, Glossary>, Vec<Problem>) {
    let mut glossaries = BTreeMap::new();
    let mut problems = Vec::new();
    for lang in Lang::ALL {
        let path = content_dir
            .join(GLOSSARY_DIR)
            .join(format!("{}.yaml", lang.code()));
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        match serde_norway::from_str::<Glossary>(&text) {
            Ok(glossary) if glossary.lang != lang => problems.push(Problem::new(
                &path,
                1,
                format!(
                    "the glossary says `lang: {}` in the {lang} file",
                    glossary.lang
                ),
            )),
            Ok(glossary) => {
                glossaries.insert(lang, glossary);
            }
            Err(error) => {
                let line = error.location().map_or(1, |l| l.line());
                problems.push(Problem::new(&path, line, error.to_string()));
            }
        }
    }
    (glossaries, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repository_glossaries_load_for_every_language_they_exist_in() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
        let (glossaries, problems) = load(&dir);
        assert!(problems.is_empty(), "{problems:?}");
        for lang in [Lang::Ar, Lang::Hi, Lang::Fr] {
            let glossary = &glossaries[&lang];
            assert!(
                glossary.terms.len() >= 35,
                "{lang}: {}",
                glossary.terms.len()
            );
            for term in &glossary.terms {
                assert!(
                    !term.avoid.contains(&term.term),
                    "{lang}/{}: the term is also to avoid",
                    term.id
                );
            }
        }
    }

    #[test]
    fn a_broken_glossary_is_reported_with_its_line() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(GLOSSARY_DIR)).unwrap();
        std::fs::write(
            dir.path().join(GLOSSARY_DIR).join("fr.yaml"),
            "lang: fr\nterms:\n  - id: x\n    en: x\n    term: [unclosed\n",
        )
        .unwrap();
        let (glossaries, problems) = load(dir.path());
        assert!(glossaries.is_empty());
        assert_eq!(problems.len(), 1);
        assert!(problems[0].line > 1, "{}", problems[0]);
    }
}
