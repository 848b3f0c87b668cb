//! The user's own documents (copied to tests/fixtures/seeds) load as they are.

use crate::helpers::{copy_to_temp, load, repo_path};
use ilaj::i18n::Lang;

#[test]
fn all_five_seed_files_load_with_their_languages() {
    let report = load(&repo_path("tests/fixtures/seeds"));
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let mut found: Vec<(String, Lang)> = report
        .library
        .articles()
        .iter()
        .map(|a| {
            let name = a.source.file_name().unwrap().to_string_lossy().into_owned();
            (name, a.lang)
        })
        .collect();
    found.sort();
    let langs: Vec<Lang> = found.iter().map(|(_, l)| *l).collect();
    assert_eq!(langs, [Lang::Ar, Lang::Hi, Lang::Fr, Lang::Ar, Lang::Ar]);
    assert!(found[0].0.starts_with("000_"));
}

#[test]
fn seed_ids_come_from_file_names_and_extra_keys_are_kept() {
    let report = load(&repo_path("tests/fixtures/seeds"));
    let article = report
        .library
        .articles()
        .iter()
        .find(|a| a.source.to_string_lossy().contains("002_"))
        .unwrap();
    assert!(article.id.starts_with("002-"), "{}", article.id);
    assert_eq!(
        article.extra.get("layout").map(String::as_str),
        Some("post")
    );
    assert!(article.title.contains("CUDA"));
}

#[test]
fn markdown_seed_renders_headings_code_and_lists() {
    let report = load(&repo_path("tests/fixtures/seeds"));
    let french = report
        .library
        .articles()
        .iter()
        .find(|a| a.lang == Lang::Fr)
        .unwrap();
    assert!(french.html.contains("<h3 id=\""), "headings carry ids");
    assert!(french.html.contains("<pre><code"), "code blocks render");
    assert!(french.html.contains("<strong>"), "emphasis renders");
    assert!(french.sections.len() >= 5);
    assert!(french.sections.iter().all(|s| s.id.is_ascii()));
    let code = french.code();
    assert!(code.contains("batch_size"), "code kept apart: {code}");
    assert!(!french.prose().contains("```"));
}

#[test]
fn rst_faq_yields_its_sections_with_label_ids_code_and_links() {
    let report = load(&repo_path("tests/fixtures/seeds"));
    let faq = report
        .library
        .articles()
        .iter()
        .find(|a| a.source.to_string_lossy().contains("004_"))
        .unwrap();
    assert_eq!(faq.lang, Lang::Ar);
    assert_eq!(faq.title, "أسئلة شائعة");
    let ids: Vec<&str> = faq.sections.iter().map(|s| s.id.as_str()).collect();
    assert!(ids.contains(&"dataloader-workers-random-seed"), "{ids:?}");
    assert!(
        ids.contains(&"pack-rnn-unpack-with-data-parallelism"),
        "{ids:?}"
    );
    let seeds = faq.section("dataloader-workers-random-seed").unwrap();
    assert!(seeds.title.contains("أرقامًا عشوائية"), "{}", seeds.title);
    assert!(seeds.text.contains("worker_init_fn"), "{}", seeds.text);
    assert!(
        faq.html.contains(
            r#"<a href="https://discuss.pytorch.org/t/high-memory-usage-while-training/162">"#
        ),
        "RST links become HTML links"
    );
    assert!(faq.html.contains(r#"<code class="language-python">"#));
    assert!(faq.html.contains("<code>total_loss</code>"));
    assert!(!faq.html.contains(".. code-block::"));
    assert!(!faq.html.contains(":class:"));
    let first = faq.sections.first().unwrap();
    assert!(first.code.contains("total_loss += loss"), "{}", first.code);
}

#[test]
fn a_broken_file_is_reported_with_file_and_line_and_the_rest_still_load() {
    let dir = copy_to_temp(&repo_path("tests/fixtures/seeds"));
    std::fs::write(
        dir.path().join("broken.md"),
        "---\nlang: fr\ntitle: \"Cassé\"\ntags: [a, b\n---\n## X {#x}\ntexte\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("binary.md"),
        b"---\ntitle: x\n---\n\xff\xfe\n",
    )
    .unwrap();
    let report = load(dir.path());
    assert_eq!(report.library.len(), 5, "the five seeds still load");
    let printed: Vec<String> = report.problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(printed.len(), 2, "{printed:?}");
    let broken = printed.iter().find(|p| p.contains("broken.md")).unwrap();
    assert!(
        broken.contains("broken.md:4:") || broken.contains("broken.md:5:"),
        "{broken}"
    );
    let binary = printed.iter().find(|p| p.contains("binary.md")).unwrap();
    assert!(binary.contains("binary.md:4: not UTF-8"), "{binary}");
}
