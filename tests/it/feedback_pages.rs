//! "Did this fix it?" on the pages: the Yes / No forms of the article page and of each result,
//! which work without JavaScript (a plain form POST, then a 303 back to the article), the
//! thank-you and the group's counts, the friendly error pages for bad votes, and the block's
//! absence on a server without a database. Run on SQLite and on PostgreSQL.

use std::num::NonZeroU32;
use std::sync::Arc;

use crate::helpers::{
    TestDb, get, load, post_form, post_raw, repo_path, router_for, router_with, send_with,
};
use axum::Router;
use axum::http::StatusCode;
use ilaj::web::{self, AppState, RateLimits};

const ARTICLE: &str = "/fr/articles/sample-fix";
const VOTE: &str = "/fr/articles/sample-fix/feedback";
const SEED_OOM: &str = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.14 GiB. GPU 0 has a total capacty of 11.69 GiB of which 2.68 GiB is free.";

async fn counts(router: &Router, lang: &str) -> (u64, u64) {
    let reply = get(
        router,
        &format!("/api/v1/articles/{lang}/sample-fix/feedback"),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    let json = reply.json();
    (
        json["helpful"].as_u64().expect("helpful"),
        json["not_helpful"].as_u64().expect("not_helpful"),
    )
}

async fn html(router: &Router, uri: &str) -> String {
    let reply = get(router, uri).await;
    assert_eq!(reply.status, StatusCode::OK, "{uri}: {}", reply.text());
    reply.text()
}

fn location(reply: &crate::helpers::Reply) -> &str {
    reply.headers["location"].to_str().expect("ASCII location")
}

async fn voting_yes_from_the_french_article_is_stored_and_thanked(db: &TestDb) {
    let router = router_with(db.open().await, None, None);
    let page = html(&router, ARTICLE).await;
    assert!(page.contains(r#"<section id="feedback""#), "block shown");
    assert!(page.contains(&format!(r#"<form method="post" action="{VOTE}">"#)));
    assert!(page.contains(
        "<legend id=\"feedback-title\">Cela a-t-il résolu le problème\u{202f}?</legend>"
    ));
    assert!(page.contains(r#"<button type="submit" name="helpful" value="yes">Oui</button>"#));
    assert!(page.contains(r#"<button type="submit" name="helpful" value="no">Non</button>"#));
    assert!(page.contains("Pas encore de vote."));

    let reply = post_form(
        &router,
        VOTE,
        &[("helpful", "yes"), ("section", "fix-reduce-batch-size")],
    )
    .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    assert_eq!(
        location(&reply),
        "/fr/articles/sample-fix?voted=yes#feedback"
    );
    assert_eq!(counts(&router, "fr").await, (1, 0));

    // What the browser loads next (it drops the fragment from the request).
    let page = html(&router, "/fr/articles/sample-fix?voted=yes").await;
    assert!(
        page.contains(r#"<p class="notice" role="status">Merci"#),
        "thank-you shown"
    );
    assert!(
        page.contains(
            r#"<bdi class="num">1</bdi> personne a répondu oui, personne n’a répondu non."#
        ),
        "counts with French plurals: {page}"
    );
    assert!(
        !page.contains(r#"name="helpful""#),
        "no second vote offered"
    );
    // The switcher leads to the article, not to another thank-you.
    assert!(page.contains(r#"href="/ar/articles/sample-fix" hreflang="ar""#));
    assert!(!page.contains("/ar/articles/sample-fix?voted"));
}

async fn voting_no_counts_in_the_group_and_offers_other_ways(db: &TestDb) {
    let router = router_with(db.open().await, None, None);
    let reply = post_form(&router, VOTE, &[("helpful", "no")]).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert_eq!(
        location(&reply),
        "/fr/articles/sample-fix?voted=no#feedback"
    );
    for _ in 0..2 {
        let reply = post_form(
            &router,
            "/ar/articles/sample-fix/feedback",
            &[("helpful", "yes"), ("section", "symptoms")],
        )
        .await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER);
        assert_eq!(
            location(&reply),
            "/ar/articles/sample-fix?voted=yes#feedback"
        );
    }
    // Translations share one fix: the counts are the group's.
    assert_eq!(counts(&router, "fr").await, (2, 1));
    assert_eq!(counts(&router, "ar").await, (2, 1));

    let page = html(&router, "/fr/articles/sample-fix?voted=no").await;
    assert!(page.contains("Merci de nous l’avoir dit"));
    assert!(page.contains(r#"<a href="/fr/">"#));
    assert!(page.contains(
        r#"<bdi class="num">2</bdi> personnes ont répondu oui, <bdi class="num">1</bdi> a répondu non."#
    ));
    // Arabic plural forms: two, and one.
    let page = html(&router, "/ar/articles/sample-fix").await;
    assert!(
        page.contains("قال شخصان «نعم»، وقال شخص واحد «لا»."),
        "Arabic dual and singular"
    );
    assert!(page.contains(r#"<section id="feedback" class="card vote" lang="ar" dir="rtl""#));
    // An unknown `voted` value is ignored, never shown.
    let page = html(&router, "/fr/articles/sample-fix?voted=%3Cb%3Ehi").await;
    assert!(page.contains(r#"name="helpful""#));
    assert!(!page.contains("<b>hi") && !page.contains("&lt;b&gt;hi"));
}

async fn a_missing_translation_takes_the_vote_for_the_article_shown(db: &TestDb) {
    let router = router_with(db.open().await, None, None);
    // No Hindi translation: the page shows a stand-in, whose sections the form names.
    let page = html(&router, "/hi/articles/sample-fix").await;
    assert!(page.contains(r#"action="/hi/articles/sample-fix/feedback""#));
    let reply = post_form(
        &router,
        "/hi/articles/sample-fix/feedback",
        &[("helpful", "yes"), ("section", "check")],
    )
    .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    assert_eq!(
        location(&reply),
        "/hi/articles/sample-fix?voted=yes#feedback"
    );
    assert_eq!(counts(&router, "fr").await, (1, 0));
    let page = html(&router, "/hi/articles/sample-fix?voted=yes").await;
    assert!(page.contains("धन्यवाद!"));
    assert!(page.contains("व्यक्ति ने “हाँ” कहा"));
}

async fn bad_votes_get_the_friendly_error_page_and_store_nothing(db: &TestDb) {
    let router = router_with(db.open().await, None, None);
    let cases: [(&[(&str, &str)], StatusCode); 6] = [
        (
            &[("helpful", "yes"), ("section", "<script>alert(1)</script>")],
            StatusCode::BAD_REQUEST,
        ),
        (&[("helpful", "maybe")], StatusCode::BAD_REQUEST),
        (&[("section", "check")], StatusCode::BAD_REQUEST),
        (&[("helpful", "true")], StatusCode::BAD_REQUEST),
        (
            &[("helpful", "no"), ("match_id", "<img src=x>")],
            StatusCode::BAD_REQUEST,
        ),
        (
            &[("helpful", "yes"), ("helpful", "no")],
            StatusCode::BAD_REQUEST,
        ),
    ];
    for (fields, status) in cases {
        let reply = post_form(&router, VOTE, fields).await;
        assert_eq!(reply.status, status, "{fields:?}");
        let page = reply.text();
        assert!(
            reply.headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html"),
            "{fields:?}"
        );
        assert!(page.contains(r#"<html lang="fr" dir="ltr">"#));
        assert!(
            page.contains("Votre vote n’a pas pu être enregistré"),
            "{page}"
        );
        assert!(page.contains(r#"<bdi class="num">400</bdi>"#));
        assert!(!page.contains("<script>alert") && !page.contains("alert(1)"));
        assert!(!page.contains("<img src") && !page.contains("img src"));
    }
    // Not a form at all.
    let reply = post_raw(&router, VOTE, "application/json", r#"{"helpful": "yes"}"#).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert!(
        reply
            .text()
            .contains("Votre vote n’a pas pu être enregistré")
    );
    // An article that does not exist: the 404 page, without the id.
    let reply = post_form(
        &router,
        "/fr/articles/no-such-article%3Cb%3E/feedback",
        &[("helpful", "yes")],
    )
    .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert!(reply.text().contains("Page introuvable"));
    assert!(!reply.text().contains("no-such-article"));
    // An unknown language prefix: the 404 page too.
    let reply = post_form(
        &router,
        "/de/articles/sample-fix/feedback",
        &[("helpful", "yes")],
    )
    .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(counts(&router, "fr").await, (0, 0));
}

async fn a_match_id_from_a_chatbot_answer_is_accepted(db: &TestDb) {
    let router = router_with(db.open().await, None, None);
    let reply = post_form(
        &router,
        VOTE,
        &[
            ("helpful", "yes"),
            ("section", "fix-reduce-batch-size"),
            ("match_id", "m_3f9a1c0b7d2e4f60"),
        ],
    )
    .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    // Empty optional fields, as a form with blank hidden inputs sends them.
    let reply = post_form(
        &router,
        VOTE,
        &[("helpful", "no"), ("section", ""), ("match_id", "")],
    )
    .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    assert_eq!(counts(&router, "fr").await, (1, 1));
}

async fn each_result_has_a_compact_vote_form(db: &TestDb) {
    let router = router_with(db.open().await, None, None);
    let paste = serde_urlencoded::to_string([("text", SEED_OOM)]).unwrap();
    let search = "/fr/search?q=CUDA+out+of+memory".to_owned();
    for uri in [format!("/fr/match?{paste}"), search] {
        let page = html(&router, &uri).await;
        assert!(
            page.contains(r#"<form class="vote compact" method="post" action="/fr/articles/sample-fix/feedback">"#),
            "{uri}: {page}"
        );
        assert!(
            page.contains("<legend>Cela a-t-il résolu le problème\u{202f}?<span class=\"vh\">")
        );
        assert!(page.contains(r#"<button type="submit" name="helpful" value="yes">Oui</button>"#));
    }
    // The paste's results name the section that holds the fix; the vote carries it.
    let page = html(&router, &format!("/fr/match?{paste}")).await;
    let section = regex::Regex::new(r#"<input type="hidden" name="section" value="([^"]+)">"#)
        .unwrap()
        .captures(&page)
        .expect("section field")[1]
        .to_owned();
    let reply = post_form(
        &router,
        "/fr/articles/sample-fix/feedback",
        &[("section", &section), ("helpful", "yes")],
    )
    .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert_eq!(
        location(&reply),
        "/fr/articles/sample-fix?voted=yes#feedback"
    );
    assert_eq!(counts(&router, "fr").await, (1, 0));
    // The POSTed results page (the home page's form) has the forms too.
    let reply = post_form(&router, "/ar/match", &[("text", SEED_OOM)]).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(
        reply
            .text()
            .contains(r#"action="/ar/articles/sample-fix/feedback""#)
    );
}

async fn page_votes_count_against_the_anonymous_rate_limit(db: &TestDb) {
    let limits = RateLimits {
        anonymous_per_minute: NonZeroU32::new(2).unwrap(),
        key_per_minute: NonZeroU32::new(100).unwrap(),
    };
    let router = router_with(db.open().await, Some(limits), None);
    for _ in 0..2 {
        let reply = post_form(&router, VOTE, &[("helpful", "yes")]).await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER);
    }
    let reply = post_form(&router, VOTE, &[("helpful", "yes")]).await;
    assert_eq!(reply.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(reply.headers.contains_key("retry-after"));
    assert!(reply.text().contains("Trop de requêtes"));
    // Reading pages is not limited.
    assert_eq!(get(&router, ARTICLE).await.status, StatusCode::OK);
}

async fn the_vote_address_read_as_a_page_leads_to_the_block(db: &TestDb) {
    let router = router_with(db.open().await, None, None);
    let reply = get(&router, VOTE).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert_eq!(location(&reply), "/fr/articles/sample-fix#feedback");
    let reply = get(&router, "/fr/articles/nothing/feedback").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert!(reply.text().contains("Page introuvable"));
    let reply = send_with(&router, "DELETE", VOTE, &[], None).await;
    assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED);
}

async fn pages_with_the_block_stay_small_and_script_free(db: &TestDb) {
    let store: Arc<dyn ilaj::db::Store> = db.open().await;
    let catalog = web::router(
        AppState::with_services(
            load(&repo_path("content")).library,
            web::Services {
                store: Some(store),
                ..web::Services::default()
            },
        )
        .expect("index builds"),
    );
    let inline = regex::Regex::new(r"<script(?:\s[^>]*)?>\s*[^<\s]").unwrap();
    for lang in ["ar", "hi", "fr"] {
        for uri in [
            format!("/{lang}/articles/cuda-oom-training"),
            format!("/{lang}/articles/cuda-oom-fragmentation"),
            format!(
                "/{lang}/match?{}",
                serde_urlencoded::to_string([("text", SEED_OOM)]).unwrap()
            ),
        ] {
            let reply = get(&catalog, &uri).await;
            assert_eq!(reply.status, StatusCode::OK, "{uri}");
            let csp = reply.headers["content-security-policy"].to_str().unwrap();
            assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"));
            let page = reply.text();
            assert!(page.contains(r#"name="helpful" value="yes""#), "{uri}");
            assert!(page.len() < 50 * 1024, "{uri} is {} bytes", page.len());
            assert!(!inline.is_match(&page), "{uri} has an inline script");
            assert!(
                !page.contains(" style=") && !page.contains(" onclick="),
                "{uri}"
            );
        }
    }
}

on_both_databases!(
    voting_yes_from_the_french_article_is_stored_and_thanked,
    voting_no_counts_in_the_group_and_offers_other_ways,
    a_missing_translation_takes_the_vote_for_the_article_shown,
    bad_votes_get_the_friendly_error_page_and_store_nothing,
    a_match_id_from_a_chatbot_answer_is_accepted,
    each_result_has_a_compact_vote_form,
    page_votes_count_against_the_anonymous_rate_limit,
    the_vote_address_read_as_a_page_leads_to_the_block,
    pages_with_the_block_stay_small_and_script_free,
);

#[tokio::test]
async fn without_a_database_there_is_no_block_and_votes_are_refused_kindly() {
    let router = router_for(&repo_path("tests/fixtures/content"));
    let page = html(&router, ARTICLE).await;
    assert!(!page.contains(r#"id="feedback""#));
    assert!(!page.contains(r#"name="helpful""#));
    let paste = serde_urlencoded::to_string([("text", SEED_OOM)]).unwrap();
    let page = html(&router, &format!("/fr/match?{paste}")).await;
    assert!(page.contains("/fr/articles/sample-fix"), "results listed");
    assert!(!page.contains(r#"class="vote"#));
    let page = html(&router, "/fr/search?q=CUDA+out+of+memory").await;
    assert!(!page.contains(r#"class="vote"#));
    // A vote sent anyway (an old page, a script) gets a page, not a panic.
    let reply = post_form(&router, VOTE, &[("helpful", "yes")]).await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        reply
            .text()
            .contains("Les votes ne peuvent pas être enregistrés")
    );
}
