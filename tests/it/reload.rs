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

/// Clients keep posting the seed traceback to a real server while its articles are edited
/// again and again: every reload swaps the index under them, and not one request may fail
/// or come back without an answer.
#[test]
fn content_reloads_under_load_drop_no_request() {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};

    use crate::helpers::{Server, copy_to_temp};

    let content = copy_to_temp(&repo_path("content"));
    let data = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", data.path().join("ilaj.sqlite").display());
    let server = Server::start(
        &[
            "--content",
            content.path().to_str().unwrap(),
            "--database",
            &database,
            "--reload-seconds",
            "1",
            "--rate-limit-anonymous",
            "4000000000",
        ],
        &[],
    );
    let paste = std::fs::read_to_string(repo_path("eval/seed-oom-example.txt")).unwrap();
    let body = serde_json::json!({ "text": paste, "lang": "fr" }).to_string();

    let stop = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(AtomicUsize::new(0));
    let failures = Arc::new(Mutex::new(Vec::new()));
    let clients: Vec<_> = (0..4)
        .map(|_| {
            let (stop, answered, failures) = (stop.clone(), answered.clone(), failures.clone());
            let (port, body) = (server.port, body.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let (status, reply) = crate::helpers::http_request(
                        port,
                        "POST",
                        "/api/v1/match",
                        &[],
                        Some(&body),
                    );
                    let results = serde_json::from_str::<serde_json::Value>(&reply)
                        .ok()
                        .and_then(|v| v["results"].as_array().map(Vec::len))
                        .unwrap_or(0);
                    if status == 200 && results > 0 {
                        answered.fetch_add(1, Ordering::Relaxed);
                    } else {
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{status}: {reply:.200}"));
                    }
                }
            })
        })
        .collect();

    // Each round adds a word no article holds to one article; the round ends when a search
    // for that word finds it, that is when the rebuilt index is the one being served.
    let article = content.path().join("fr/cuda-oom-training.md");
    let original = std::fs::read_to_string(&article).unwrap();
    let rounds = 4;
    for round in 0..rounds {
        let marker = format!("qzxreload{round}");
        std::fs::write(&article, format!("{original}\n{marker}\n")).unwrap();
        let path = format!("/api/v1/search?q={marker}&lang=fr");
        let reloaded = (0..300).any(|_| {
            std::thread::sleep(Duration::from_millis(100));
            let (_, reply) = server.request("GET", &path, &[], None);
            reply.contains("\"id\":\"cuda-oom-training\"")
        });
        assert!(
            reloaded,
            "round {round}: the edited article was not reindexed within 30 s"
        );
    }
    stop.store(true, Ordering::Relaxed);
    for client in clients {
        client.join().unwrap();
    }

    let failures = failures.lock().unwrap();
    assert!(
        failures.is_empty(),
        "{} requests failed during reloads, first: {:?}",
        failures.len(),
        failures.first()
    );
    assert!(
        answered.load(Ordering::Relaxed) >= 4 * rounds,
        "too few requests ran during the reloads: {}",
        answered.load(Ordering::Relaxed)
    );
}
