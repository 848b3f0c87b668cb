//! Editing the content folder while the server runs swaps in a new index without a restart.

use std::time::Duration;

use crate::helpers::{get, repo_path};
use ilaj::web::{self, AppState};

#[tokio::test]
async fn a_new_article_becomes_searchable_without_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let fr = dir.path().join("fr");
    std::fs::create_dir(&fr).unwrap();
    std::fs::copy(
        repo_path("tests/fixtures/content/fr/sample-fix.md"),
        fr.join("sample-fix.md"),
    )
    .unwrap();
    let state = AppState::new(crate::helpers::load(dir.path()).library).unwrap();
    let router = web::router(state.clone());
    let watcher = tokio::spawn(web::watch_content(
        state.clone(),
        dir.path().to_owned(),
        Duration::from_millis(50),
    ));

    let search = "/api/v1/search?q=zyxwvut&lang=fr";
    assert!(
        get(&router, search).await.json()["results"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    std::fs::write(
        fr.join("new-one.md"),
        "---\nid: new-one\nlang: fr\ntitle: \"Nouveau zyxwvut\"\nsummary: \"s\"\nerrors: [\"x y z w v\"]\n---\n## A {#a}\ntexte zyxwvut\n",
    )
    .unwrap();

    let mut found = false;
    for _ in 0..400 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let body = get(&router, search).await.json();
        if body["results"][0]["id"] == "new-one" {
            found = true;
            break;
        }
    }
    watcher.abort();
    assert!(found, "the new article was not indexed within 20 s");
    assert_eq!(state.library().len(), 2);
}
