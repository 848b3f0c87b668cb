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
    let loaded_state = ilaj::content::watch::snapshot(dir.path());
    let state = AppState::new(crate::helpers::load(dir.path()).library).unwrap();
    let router = web::router(state.clone());
    let watcher = tokio::spawn(web::watch_content(
        state.clone(),
        dir.path().to_owned(),
        Duration::from_millis(50),
        loaded_state,
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

    use axum::body::Bytes;
    use http_body_util::{BodyExt, Full};
    use hyper_util::client::legacy::Client;
    use hyper_util::client::legacy::connect::HttpConnector;
    use hyper_util::rt::TokioExecutor;

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
    // Four clients on persistent connections, as a chatbot's HTTP client keeps them: a fresh
    // connection per request would also measure how fast loopback ports come free again.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let uri: axum::http::Uri = format!("http://127.0.0.1:{}/api/v1/match", server.port)
        .parse()
        .unwrap();
    let clients: Vec<_> = (0..4)
        .map(|_| {
            let (stop, answered, failures) = (stop.clone(), answered.clone(), failures.clone());
            let (uri, body) = (uri.clone(), body.clone());
            runtime.spawn(async move {
                let client: Client<HttpConnector, Full<Bytes>> =
                    Client::builder(TokioExecutor::new()).build_http();
                while !stop.load(Ordering::Relaxed) {
                    let request = axum::http::Request::post(uri.clone())
                        .header("content-type", "application/json")
                        .body(Full::new(Bytes::from(body.clone())))
                        .unwrap();
                    let outcome = match client.request(request).await {
                        Ok(response) => {
                            let status = response.status().as_u16();
                            match response.into_body().collect().await {
                                Ok(collected) => Ok((status, collected.to_bytes())),
                                Err(error) => Err(format!("reading the body: {error}")),
                            }
                        }
                        Err(error) => Err(format!("sending: {error:?}")),
                    };
                    let failure = match outcome {
                        Ok((200, reply)) => {
                            let results = serde_json::from_slice::<serde_json::Value>(&reply)
                                .ok()
                                .and_then(|v| v["results"].as_array().map(Vec::len))
                                .unwrap_or(0);
                            (results == 0).then(|| "200 without results".to_owned())
                        }
                        Ok((status, reply)) => Some(format!(
                            "{status}: {:.200}",
                            String::from_utf8_lossy(&reply)
                        )),
                        Err(error) => Some(error),
                    };
                    match failure {
                        None => {
                            answered.fetch_add(1, Ordering::Relaxed);
                        }
                        Some(failure) => failures.lock().unwrap().push(failure),
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
        runtime.block_on(client).unwrap();
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
