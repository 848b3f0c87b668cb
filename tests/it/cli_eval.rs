//! `ilaj eval` measures only content that loads whole.

use crate::helpers::{copy_to_temp, repo_path, run_ilaj};

fn eval_on(content: &std::path::Path) -> (bool, String, String) {
    let eval_dir = tempfile::tempdir().unwrap();
    let content = content.to_str().unwrap();
    let eval_dir = eval_dir.path().to_str().unwrap();
    run_ilaj(&["eval", "--content", content, "--eval-dir", eval_dir], &[])
}

#[test]
fn eval_on_sound_content_prints_both_splits() {
    let (ok, stdout, stderr) = eval_on(&repo_path("tests/fixtures/seeds"));
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("dev") && stdout.contains("test"),
        "{stdout}"
    );
}

#[test]
fn eval_refuses_content_whose_glossary_does_not_parse() {
    let content = copy_to_temp(&repo_path("tests/fixtures/seeds"));
    let glossaries = content.path().join("glossary");
    std::fs::create_dir_all(&glossaries).unwrap();
    std::fs::write(
        glossaries.join("ar.yaml"),
        "lang: ar\nterms:\n  - id: memory\n    en: memory\n    term: الذاكرة\n    also: [ذاكره, , ميموري]\n",
    )
    .unwrap();
    let (ok, stdout, stderr) = eval_on(content.path());
    assert!(!ok, "eval ran without the Arabic glossary:\n{stdout}");
    assert!(stderr.contains("ar.yaml:"), "{stderr}");
    assert!(!stdout.contains("exact"), "{stdout}");
}
