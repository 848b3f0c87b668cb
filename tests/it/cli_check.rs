//! `ilaj check` validates a content folder from the command line.

use std::process::Command;

use crate::helpers::{copy_to_temp, repo_path};

fn ilaj() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ilaj"))
}

#[test]
fn check_on_the_seeds_exits_zero_and_lists_the_five_articles() {
    let output = ilaj()
        .args(["check", "--content"])
        .arg(repo_path("tests/fixtures/seeds"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for name in ["000_", "001_", "002_", "003_", "004_"] {
        assert!(stdout.contains(name), "{name} missing from:\n{stdout}");
    }
    assert!(stdout.contains("5 articles"), "{stdout}");
}

#[test]
fn check_on_the_repository_content_passes() {
    let output = ilaj()
        .args(["check", "--content"])
        .arg(repo_path("content"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn check_exits_nonzero_with_file_line_messages() {
    let dir = copy_to_temp(&repo_path("tests/fixtures/seeds"));
    std::fs::write(
        dir.path().join("bad-lang.md"),
        "---\ntitle: \"x\"\nlang: de\n---\ntext\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("bad-calc.md"),
        "---\ntitle: \"x\"\nlang: fr\n---\n## A {#a}\n[c](calc:nowhere?x=1)\n",
    )
    .unwrap();
    let output = ilaj()
        .args(["check", "--content"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("bad-lang.md:3: unsupported language `de`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("bad-calc.md:6: link to unknown calculator `nowhere`"),
        "{stderr}"
    );
}

#[test]
fn check_reports_translations_whose_sections_differ() {
    let dir = tempfile::tempdir().unwrap();
    for (lang, sections) in [
        ("fr", "## A {#a}\nx\n## B {#b}\ny\n"),
        ("ar", "## A {#a}\nx\n## C {#c}\ny\n"),
    ] {
        std::fs::create_dir_all(dir.path().join(lang)).unwrap();
        std::fs::write(
            dir.path().join(lang).join("g.md"),
            format!("---\nid: g\ntitle: \"t\"\n---\n{sections}"),
        )
        .unwrap();
    }
    let output = ilaj()
        .args(["check", "--content"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("fr/g.md:7: section ids differ"), "{stderr}");
    assert!(stderr.contains("missing #c"), "{stderr}");
}
