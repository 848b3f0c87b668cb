//! Answers ready to quote: each result's section Markdown, absolute links and citations when
//! the server knows its public address, cacheable articles (ETag, 304), and the language
//! falling back to Accept-Language.

use std::sync::LazyLock;

use crate::helpers::{get_with, load, post_json, repo_path, router_for, run_ilaj, send_with};
use axum::Router;
use axum::http::StatusCode;
use ilaj::i18n::Lang;
use ilaj::web::{self, AppState};
use serde_json::{Value, json};

static CATALOG: LazyLock<Router> = LazyLock::new(|| router_for(&repo_path("content")));
const PUBLIC: &str = "https://ilaj.example";
static PUBLIC_CATALOG: LazyLock<Router> = LazyLock::new(|| {
    let services = web::Services {
        public_url: Some(format!("{PUBLIC}/")),
        ..web::Services::default()
    };
    let library = load(&repo_path("content")).library;
    web::router(AppState::with_services(library, services).expect("index builds"))
});

fn seed_paste() -> String {
    std::fs::read_to_string(repo_path("eval/seed-oom-example.txt")).expect("seed example")
}

fn results(answer: &Value) -> &Vec<Value> {
    answer["results"].as_array().expect("results")
}

#[tokio::test]
async fn every_result_with_a_section_carries_its_markdown_in_the_results_language() {
    let library = load(&repo_path("content")).library;
    let mut answers = Vec::new();
    for lang in ["ar", "hi", "fr", "en"] {
        let reply = post_json(
            &CATALOG,
            "/api/v1/match",
            &json!({"text": seed_paste(), "lang": lang, "limit": 10}),
        )
        .await;
        answers.push(reply.json());
        for q in [
            "NCCL watchdog timeout",
            "state_dict missing keys",
            "bfloat16",
        ] {
            let uri = format!("/api/v1/search?q={}&lang={lang}", q.replace(' ', "%20"));
            answers.push(send_with(&CATALOG, "GET", &uri, &[], None).await.json());
        }
    }
    let (mut sections, mut with_code) = (0, 0);
    for answer in &answers {
        for hit in results(answer) {
            let Some(section) = hit["section"].as_object() else {
                continue;
            };
            sections += 1;
            let lang: Lang = hit["lang"].as_str().unwrap().parse().unwrap();
            let article = library.get(hit["id"].as_str().unwrap(), lang).unwrap();
            let own = article
                .section(section["id"].as_str().unwrap())
                .expect("the section is the article's");
            let markdown = section["markdown"].as_str().expect("markdown sent");
            assert!(!markdown.trim().is_empty(), "{hit}");
            assert_eq!(markdown, own.markdown, "in the result's language");
            if markdown.contains("```") {
                with_code += 1;
                assert_eq!(
                    markdown.matches("```").count() % 2,
                    0,
                    "code fences come in pairs: {markdown}"
                );
            }
        }
    }
    assert!(sections > 20, "{sections} sections seen");
    assert!(with_code > 0, "some quoted section holds a code block");
}

#[tokio::test]
async fn without_a_public_address_links_stay_site_paths_and_no_citation_is_sent() {
    let answer = post_json(
        &CATALOG,
        "/api/v1/match",
        &json!({"text": seed_paste(), "lang": "fr"}),
    )
    .await
    .json();
    for hit in results(&answer) {
        assert!(hit["url"].as_str().unwrap().starts_with("/fr/"), "{hit}");
        assert!(hit.get("citation").is_none(), "{hit}");
    }
}

#[tokio::test]
async fn with_a_public_address_results_carry_absolute_links_and_a_citation() {
    let answer = post_json(
        &PUBLIC_CATALOG,
        "/api/v1/match",
        &json!({"text": seed_paste(), "lang": "fr"}),
    )
    .await
    .json();
    let first = &results(&answer)[0];
    assert_eq!(
        first["url"],
        format!("{PUBLIC}/fr/articles/cuda-oom-training")
    );
    let section = &first["section"];
    let section_url = section["url"].as_str().unwrap();
    assert!(
        section_url.starts_with(&format!("{PUBLIC}/fr/articles/cuda-oom-training#")),
        "{section_url}"
    );
    assert_eq!(
        first["citation"],
        format!(
            "{} › {} — {section_url}",
            first["title"].as_str().unwrap(),
            section["title"].as_str().unwrap()
        )
    );
    let calculator = answer["diagnosis"]["calculator_url"].as_str().unwrap();
    assert!(calculator.starts_with(&format!("{PUBLIC}/fr/calculators/")));

    let search = send_with(
        &PUBLIC_CATALOG,
        "GET",
        "/api/v1/search?q=NCCL&lang=hi",
        &[],
        None,
    )
    .await
    .json();
    for hit in results(&search) {
        assert!(hit["url"].as_str().unwrap().starts_with(PUBLIC), "{hit}");
        assert!(hit["citation"].as_str().unwrap().contains(PUBLIC), "{hit}");
    }
}

#[test]
fn a_public_address_must_be_an_http_url() {
    let (ok, _, stderr) = run_ilaj(&["serve", "--public-url", "ilaj.example"], &[]);
    assert!(!ok);
    assert!(stderr.contains("https://"), "{stderr}");
}

#[tokio::test]
async fn the_article_api_sends_an_etag_and_answers_304_to_it() {
    let uri = "/api/v1/articles/fr/cuda-oom-training";
    let first = get_with(&CATALOG, uri, &[]).await;
    assert_eq!(first.status, StatusCode::OK);
    let etag = first.headers["etag"].to_str().unwrap().to_owned();
    assert!(etag.starts_with('"') && etag.ends_with('"'), "{etag}");
    assert_eq!(first.headers["cache-control"], "public, max-age=300");

    let again = get_with(&CATALOG, uri, &[("if-none-match", &etag)]).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty());
    assert_eq!(again.headers["etag"].to_str().unwrap(), etag);

    let listed = format!("\"stale\", W/{etag}");
    let weak = get_with(&CATALOG, uri, &[("if-none-match", &listed)]).await;
    assert_eq!(weak.status, StatusCode::NOT_MODIFIED);

    let stale = get_with(&CATALOG, uri, &[("if-none-match", "\"stale\"")]).await;
    assert_eq!(stale.status, StatusCode::OK);
    assert_eq!(stale.json(), first.json());

    let arabic = get_with(&CATALOG, "/api/v1/articles/ar/cuda-oom-training", &[]).await;
    assert_ne!(
        arabic.headers["etag"].to_str().unwrap(),
        etag,
        "each language is its own version"
    );
    let other = get_with(
        &CATALOG,
        "/api/v1/articles/ar/cuda-oom-training",
        &[("if-none-match", &etag)],
    )
    .await;
    assert_eq!(other.status, StatusCode::OK);
}

#[tokio::test]
async fn article_pages_send_an_etag_and_answer_304_to_it() {
    let uri = "/hi/articles/cuda-oom-training";
    let first = get_with(&CATALOG, uri, &[]).await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(first.headers["cache-control"], "no-cache");
    let etag = first.headers["etag"].to_str().unwrap().to_owned();
    let again = get_with(&CATALOG, uri, &[("if-none-match", &etag)]).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty());
    let french = get_with(&CATALOG, "/fr/articles/cuda-oom-training", &[]).await;
    assert_ne!(french.headers["etag"].to_str().unwrap(), etag);
}

#[tokio::test]
async fn the_api_language_falls_back_to_accept_language_then_english() {
    let paste = json!({"text": "RuntimeError: CUDA error: device-side assert triggered"});
    let cases = [
        (Some("fr-CA,fr;q=0.9,en;q=0.5"), "fr"),
        (Some("hi"), "hi"),
        (Some("de-DE,de;q=0.9"), "en"),
        (None, "en"),
    ];
    for (accept, expected) in cases {
        let headers: Vec<(&str, &str)> =
            accept.map(|a| ("accept-language", a)).into_iter().collect();
        let matched = send_with(&CATALOG, "POST", "/api/v1/match", &headers, Some(&paste)).await;
        assert_eq!(matched.json()["lang"], expected, "{accept:?}");
        let searched = send_with(&CATALOG, "GET", "/api/v1/search?q=NCCL", &headers, None).await;
        assert_eq!(searched.json()["lang"], expected, "{accept:?}");
        let listed = send_with(&CATALOG, "GET", "/api/v1/articles", &headers, None).await;
        assert_eq!(listed.json()["lang"], expected, "{accept:?}");
    }
    // An explicit `lang` wins over the header.
    let headers = [("accept-language", "fr")];
    let body = json!({"text": "CUDA out of memory", "lang": "ar"});
    let matched = send_with(&CATALOG, "POST", "/api/v1/match", &headers, Some(&body)).await;
    assert_eq!(matched.json()["lang"], "ar");
}
