//! The knowledge base covers the contract's catalog: every group in ar, hi and fr, with the
//! same sections in every language, and the metadata the matcher and the pages rely on.

use std::collections::BTreeMap;

use crate::helpers::{load, repo_path};
use ilaj::content::CALCULATORS;
use ilaj::i18n::Lang;

/// `(id, topic)` rows of a catalog table in Markdown (the contract's, or the in-repo copy).
fn catalog_rows(markdown: &str) -> Vec<(String, String)> {
    let table = markdown
        .split("| id | topic |")
        .nth(1)
        .expect("a catalog table");
    table
        .lines()
        .take_while(|line| !line.starts_with("## "))
        .filter_map(|line| line.strip_prefix("| "))
        .filter_map(|line| {
            let mut cells = line.split(" | ");
            let id = cells.next()?.trim();
            let topic = cells.next()?.trim().trim_end_matches('|').trim();
            (!id.starts_with('-')).then(|| (id.to_owned(), topic.to_owned()))
        })
        .collect()
}

/// Group ids of the in-repo copy of the catalog, which grows as each group's articles land.
fn catalog_ids() -> Vec<String> {
    let copy = std::fs::read_to_string(repo_path("tests/fixtures/catalog.md")).expect("catalog");
    catalog_rows(&copy).into_iter().map(|(id, _)| id).collect()
}

#[test]
fn the_in_repo_catalog_is_a_faithful_part_of_the_contract() {
    let copy = std::fs::read_to_string(repo_path("tests/fixtures/catalog.md")).expect("catalog");
    let rows = catalog_rows(&copy);
    assert!(rows.len() >= 21, "{rows:?}");
    // A clone without the team folder beside it has only the copy to go by.
    let Ok(contract) = std::fs::read_to_string(repo_path("..").join("shared").join("CONTRACT.md"))
    else {
        return;
    };
    let contract_rows = catalog_rows(&contract);
    for row in &rows {
        assert!(
            contract_rows.contains(row),
            "{row:?} differs from CONTRACT.md"
        );
    }
}

#[test]
fn every_catalog_group_exists_in_arabic_hindi_and_french() {
    let report = load(&repo_path("content"));
    assert!(report.problems.is_empty(), "{:#?}", report.problems);
    for id in catalog_ids() {
        for lang in Lang::REQUIRED {
            let article = report.library.get(&id, lang);
            assert!(article.is_some(), "{id} is missing in {lang}");
            let path = article.unwrap().source.clone();
            assert!(
                path.ends_with(format!("content/{lang}/{id}.md")),
                "{id}/{lang} lives at {}",
                path.display()
            );
        }
    }
    let known: Vec<String> = catalog_ids();
    for id in report.library.group_ids() {
        assert!(known.iter().any(|k| k == id), "{id} is not in the catalog");
    }
}

#[test]
fn translations_of_a_group_share_their_section_ids_in_order() {
    let report = load(&repo_path("content"));
    let mut sections: BTreeMap<&str, Vec<(Lang, Vec<&str>)>> = BTreeMap::new();
    for article in report.library.articles() {
        sections.entry(&article.id).or_default().push((
            article.lang,
            article.sections.iter().map(|s| s.id.as_str()).collect(),
        ));
    }
    for (id, versions) in sections {
        let (first_lang, first) = &versions[0];
        for (lang, ids) in &versions[1..] {
            assert_eq!(ids, first, "{id}: {lang} differs from {first_lang}");
        }
    }
}

#[test]
fn every_article_has_summary_signatures_sections_and_substance() {
    let report = load(&repo_path("content"));
    for article in report.library.articles() {
        let name = format!("{}/{}", article.lang, article.id);
        assert!(!article.summary.is_empty(), "{name}: no summary");
        assert!(!article.errors.is_empty(), "{name}: no error signature");
        assert!(
            article.sections.len() >= 3,
            "{name}: {} sections",
            article.sections.len()
        );
        assert!(
            article
                .sections
                .iter()
                .all(|s| s.level >= 2 && s.id.is_ascii()),
            "{name}: headings must be ## or ### with ASCII ids"
        );
        assert!(
            article.sections.iter().any(|s| s.id.starts_with("fix")),
            "{name}: no fix section"
        );
        let words = article.prose().split_whitespace().count();
        assert!(
            (300..=1600).contains(&words),
            "{name}: {words} words of prose"
        );
        assert!(!article.code().is_empty(), "{name}: no code or command");
        for calculator in &article.calculators {
            assert!(
                CALCULATORS.contains(&calculator.as_str()),
                "{name}: {calculator}"
            );
        }
    }
}

#[test]
fn every_calc_link_names_a_calculator_that_exists() {
    let report = load(&repo_path("content"));
    let mut links = 0;
    for article in report.library.articles() {
        for (index, _) in article.html.match_indices("/calculators/") {
            links += 1;
            let rest = &article.html[index + "/calculators/".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| *c != '?' && *c != '"')
                .collect();
            assert!(
                CALCULATORS.contains(&name.as_str()),
                "{}/{}: {name}",
                article.lang,
                article.id
            );
            let prefix = format!("/{}/calculators/", article.lang);
            assert_eq!(&article.html[index - 3..index + 13], prefix.as_str());
        }
    }
    assert!(
        links >= 20,
        "only {links} calculator links in the whole catalog"
    );
}
