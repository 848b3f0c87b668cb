//! The HTML pages: what each page kind shows in Arabic and French (insta snapshots of the
//! rendered HTML over the small fixture library), and the behaviour around them: language
//! choice, escaping, security headers, errors, sizes.

use std::sync::LazyLock;

use crate::helpers::{get, get_with, post_form, repo_path, router_for};
use axum::Router;
use axum::http::StatusCode;

static FIXTURES: LazyLock<Router> =
    LazyLock::new(|| router_for(&repo_path("tests/fixtures/content")));
static CATALOG: LazyLock<Router> = LazyLock::new(|| router_for(&repo_path("content")));

/// Asset URLs carry a hash of the file; snapshots should not change with the stylesheet.
fn stable(html: &str) -> String {
    regex::Regex::new(r"\?v=[0-9a-f]{8}")
        .unwrap()
        .replace_all(html, "?v=HASH")
        .into_owned()
}

async fn page(router: &Router, uri: &str) -> String {
    let reply = get(router, uri).await;
    assert_eq!(reply.status, StatusCode::OK, "{uri}: {}", reply.text());
    assert!(
        reply.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html"),
        "{uri}"
    );
    reply.text()
}

/// The seed's error with its last frame, which shows a language model's output layer (the
/// diagnosis then names the tensor).
const SEED_OOM: &str = "  File \"/home/me/nanoGPT/model.py\", line 187, in forward\n    logits = self.lm_head(x)\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.14 GiB. GPU 0 has a total capacty of 11.69 GiB of which 2.68 GiB is free. Including non-PyTorch memory, this process has 7.04 GiB memory in use. Of the allocated memory 6.78 GiB is allocated by PyTorch, and 35.12 MiB is reserved by PyTorch but unallocated.";

#[tokio::test]
async fn every_page_kind_renders_in_arabic_and_french() {
    let oom = serde_urlencoded::to_string([("text", SEED_OOM)]).unwrap();
    let pages = [
        ("home", "/{lang}/".to_owned()),
        ("article", "/{lang}/articles/sample-fix".to_owned()),
        ("article_index", "/{lang}/articles".to_owned()),
        ("article_tag", "/{lang}/articles?tag=memory".to_owned()),
        ("search", "/{lang}/search?q=CUDA+out+of+memory".to_owned()),
        ("results", format!("/{{lang}}/match?{oom}")),
        ("calculators", "/{lang}/calculators".to_owned()),
        (
            "training_memory",
            "/{lang}/calculators/training-memory?n_layer=6&n_head=6&n_embd=384&block_size=512&batch_size=16&gradient_accumulation_steps=4&precision=amp_fp16".to_owned(),
        ),
        (
            "llm_memory",
            "/{lang}/calculators/llm-memory?model=meta-llama/Llama-3.1-8B&method=qlora&sequence_length=4096&gpu_memory_gib=24".to_owned(),
        ),
        (
            "allocation",
            "/{lang}/calculators/allocation?tried_to_allocate_bytes=6593445888&total_capacity_bytes=12552041923&free_bytes=2877628088&process_in_use_bytes=7559142440&reserved_unallocated_bytes=36825989".to_owned(),
        ),
    ];
    for lang in ["ar", "fr"] {
        for (name, uri) in &pages {
            let uri = uri.replace("{lang}", lang);
            let html = page(&FIXTURES, &uri).await;
            insta::assert_snapshot!(format!("{name}_{lang}"), stable(&html));
        }
        let reply = get(&FIXTURES, &format!("/{lang}/no-such-page")).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND);
        insta::assert_snapshot!(format!("not_found_{lang}"), stable(&reply.text()));
    }
}

/// With a database the article ends with "Did this fix it?" and the group's votes.
#[tokio::test]
async fn article_pages_with_a_database_ask_whether_the_fix_worked() {
    let db = crate::helpers::TestDb::sqlite();
    let router = crate::helpers::router_with(db.open().await, None, None);
    for (helpful, times) in [("yes", 3), ("no", 1)] {
        for _ in 0..times {
            let reply = post_form(
                &router,
                "/fr/articles/sample-fix/feedback",
                &[("helpful", helpful)],
            )
            .await;
            assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
        }
    }
    for lang in ["ar", "fr"] {
        let html = page(&router, &format!("/{lang}/articles/sample-fix")).await;
        insta::assert_snapshot!(format!("article_feedback_{lang}"), stable(&html));
    }
    db.cleanup().await;
}

#[tokio::test]
async fn arabic_pages_are_right_to_left_and_others_left_to_right() {
    let html = page(&FIXTURES, "/ar/").await;
    assert!(html.contains(r#"<html lang="ar" dir="rtl">"#));
    for lang in ["hi", "fr", "en"] {
        let html = page(&FIXTURES, &format!("/{lang}/")).await;
        assert!(
            html.contains(&format!(r#"<html lang="{lang}" dir="ltr">"#)),
            "{lang}"
        );
    }
}

#[tokio::test]
async fn root_picks_cookie_then_accept_language_then_english() {
    let cases: [(&[(&str, &str)], &str); 4] = [
        (&[("cookie", "lang=hi"), ("accept-language", "fr")], "/hi/"),
        (&[("accept-language", "de, ar;q=0.8")], "/ar/"),
        (
            &[("cookie", "lang=xx"), ("accept-language", "fr-CA")],
            "/fr/",
        ),
        (&[], "/en/"),
    ];
    for (headers, target) in cases {
        let reply = get_with(&FIXTURES, "/", headers).await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER, "{headers:?}");
        assert_eq!(reply.headers["location"], target, "{headers:?}");
    }
}

#[tokio::test]
async fn reading_a_page_remembers_its_language() {
    let reply = get(&FIXTURES, "/fr/articles").await;
    let cookie = reply.headers["set-cookie"].to_str().unwrap();
    assert!(cookie.starts_with("lang=fr;"), "{cookie}");
}

#[tokio::test]
async fn switcher_links_to_the_same_page_in_each_language() {
    let html = page(&FIXTURES, "/fr/calculators/training-memory?batch_size=4").await;
    for lang in ["ar", "hi", "en"] {
        let href = format!(r#"href="/{lang}/calculators/training-memory?batch_size=4""#);
        assert!(html.contains(&href), "{href}");
    }
}

#[tokio::test]
async fn results_of_a_post_switch_language_by_resubmitting_the_paste() {
    let reply = post_form(&FIXTURES, "/ar/match", &[("text", SEED_OOM)]).await;
    assert_eq!(reply.status, StatusCode::OK);
    let html = reply.text();
    assert!(html.contains(r#"form="paste" formaction="/hi/match""#));
    assert!(html.contains(r#"<form id="paste" method="post" action="/ar/match">"#));
}

#[tokio::test]
async fn a_guessed_situation_is_asked_on_the_page_and_the_answer_ranks_its_article() {
    let bare = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB";
    let html = post_form(&CATALOG, "/fr/match", &[("text", bare)])
        .await
        .text();
    assert!(
        html.contains(r#"form="paste" name="situation" value="image_generation""#),
        "no question asked"
    );
    let reply = post_form(
        &CATALOG,
        "/fr/match",
        &[("text", bare), ("situation", "image_generation")],
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    let html = reply.text();
    let first_hit = html.find(r#"href="/fr/articles/"#).expect("a hit");
    assert!(
        html[first_hit..].starts_with(r#"href="/fr/articles/diffusion-pipeline-oom"#),
        "{}",
        &html[first_hit..first_hit + 80]
    );
    assert!(!html.contains(r#"name="situation""#), "asked again");
}

#[tokio::test]
async fn the_paste_is_shown_back_escaped() {
    let paste = "RuntimeError: <script>alert('x')</script> \"quoted\" & more";
    let reply = post_form(&FIXTURES, "/fr/match", &[("text", paste)]).await;
    assert_eq!(reply.status, StatusCode::OK);
    let html = reply.text();
    assert!(!html.contains("<script>alert"), "raw markup echoed");
    assert!(html.contains("&#60;script&#62;alert") || html.contains("&lt;script&gt;alert"));
    let reply = get(
        &FIXTURES,
        "/fr/search?q=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
    )
    .await;
    assert!(!reply.text().contains("<img src=x"));
}

#[tokio::test]
async fn empty_and_oversized_pastes_get_a_message_not_an_error() {
    let reply = post_form(&FIXTURES, "/en/match", &[("text", "   ")]).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(
        reply
            .text()
            .contains("Paste an error or type a few words first.")
    );
    let big = "x".repeat(300 * 1024);
    let reply = post_form(&FIXTURES, "/en/match", &[("text", &big)]).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(reply.text().contains("at most 256 KiB"));
}

#[tokio::test]
async fn pages_forbid_inline_script_and_framing() {
    let inline = regex::Regex::new(r"<script(?:\s[^>]*)?>\s*[^<\s]").unwrap();
    for uri in [
        "/ar/",
        "/fr/calculators/training-memory",
        "/fr/no-such-page",
    ] {
        let reply = get(&FIXTURES, uri).await;
        let csp = reply.headers["content-security-policy"].to_str().unwrap();
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
            "{csp}"
        );
        assert_eq!(reply.headers["x-frame-options"], "DENY");
        let html = reply.text();
        assert!(!inline.is_match(&html), "{uri} has an inline script");
        assert!(
            !html.contains(" onclick=") && !html.contains(" style="),
            "{uri}"
        );
    }
}

#[tokio::test]
async fn unknown_pages_are_friendly_html_and_unknown_api_paths_json() {
    let reply = get_with(&FIXTURES, "/xx/whatever", &[("accept-language", "hi")]).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert!(reply.text().contains(r#"<html lang="hi""#));
    let reply = get(&FIXTURES, "/fr/articles/no-such-article").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert!(reply.text().contains("Page introuvable"));
    let reply = get(&FIXTURES, "/api/v1/nothing").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(reply.json()["error"]["code"], "not_found");
}

#[tokio::test]
async fn an_article_missing_in_the_language_is_shown_in_another_with_a_note() {
    let html = page(&FIXTURES, "/fr/articles/arabic-only").await;
    assert!(html.contains(r#"<article lang="ar" dir="rtl">"#));
    assert!(html.contains("n’existe pas encore dans cette langue"));
}

#[tokio::test]
async fn calculator_errors_are_shown_beside_the_field() {
    let html = page(
        &FIXTURES,
        "/en/calculators/training-memory?n_layer=6&n_head=7&n_embd=384",
    )
    .await;
    assert!(html.contains(r#"id="f-n_head" name="n_head" type="number" dir="ltr" value="7""#));
    assert!(html.contains(r#"aria-invalid="true" aria-describedby="e-n_head""#));
    assert!(html.contains("n_embd must be a multiple of n_head."));
    assert!(!html.contains("calc-results"));
}

#[tokio::test]
async fn calculator_links_from_articles_open_prefilled() {
    // The seed article's link: its 30M model on a 12 GB card.
    let html = page(&CATALOG, "/hi/calculators/training-memory?n_layer=6&n_head=6&n_embd=384&vocab_size=50304&block_size=512&batch_size=16&gradient_accumulation_steps=4&precision=amp_fp16&optimizer=adamw_fused&attention=flash&compile=true&gpu_memory_gib=12").await;
    assert!(html.contains(r#"name="n_embd" type="number" dir="ltr" value="384""#));
    assert!(html.contains(r#"<option value="amp_fp16" selected>"#));
    assert!(html.contains("29.94"), "parameter count shown");
    assert!(html.contains("<svg"), "charts drawn");
    let html = page(&CATALOG, "/fr/calculators/allocation?tried_to_allocate_bytes=6593445888&vocab_size=50304&block_size=1024&batch_size=64").await;
    assert!(html.contains("65536 × 50304 × 2 B"));
    assert!(html.contains("value=\"6,14\u{a0}Gio\""));
}

#[tokio::test]
async fn numbers_and_units_follow_the_language() {
    let uri = "/{lang}/calculators/allocation?tried_to_allocate_bytes=6593445888";
    let fr = page(&CATALOG, &uri.replace("{lang}", "fr")).await;
    assert!(fr.contains("6,14\u{a0}Gio"));
    let en = page(&CATALOG, &uri.replace("{lang}", "en")).await;
    assert!(en.contains("6.14\u{a0}GiB"));
    let hi = page(
        &CATALOG,
        "/hi/calculators/training-memory?n_layer=48&n_head=25&n_embd=1600",
    )
    .await;
    assert!(hi.contains("मिलियन"), "millions named in Hindi");
}

#[tokio::test]
async fn pages_stay_small() {
    let mut uris = vec![
        "/ar/".to_owned(),
        "/fr/articles".to_owned(),
        "/hi/calculators/training-memory".to_owned(),
        "/hi/calculators/llm-memory".to_owned(),
        format!(
            "/ar/match?{}",
            serde_urlencoded::to_string([("text", SEED_OOM)]).unwrap()
        ),
    ];
    for lang in ["ar", "hi", "fr"] {
        for id in [
            "cuda-oom-training",
            "cuda-oom-fragmentation",
            "gpu-memory-estimate",
        ] {
            uris.push(format!("/{lang}/articles/{id}"));
        }
    }
    for uri in uris {
        let html = page(&CATALOG, &uri).await;
        assert!(html.len() < 50 * 1024, "{uri} is {} bytes", html.len());
    }
}

#[tokio::test]
async fn no_interface_string_is_missing_in_any_language() {
    let tags = regex::Regex::new(r"(?s)<[^>]*>").unwrap();
    let id = regex::Regex::new(
        r"\b(?:calc|alloc|fig|comp|opt|field|kind|hit|match|search|home|nav|article|articles|topic|phase|largest|error|unit)-[a-z0-9_]+(?:-[a-z0-9_]+)*\b",
    )
    .unwrap();
    let oom = serde_urlencoded::to_string([("text", SEED_OOM)]).unwrap();
    for lang in ["ar", "hi", "fr", "en"] {
        for uri in [
            format!("/{lang}/"),
            format!("/{lang}/articles"),
            format!("/{lang}/articles/cuda-oom-training"),
            format!("/{lang}/search?q=fragmentation"),
            format!("/{lang}/match?{oom}"),
            format!("/{lang}/calculators"),
            format!("/{lang}/calculators/training-memory?attention=manual&phase=eval"),
            format!(
                "/{lang}/calculators/allocation?tried_to_allocate_bytes=6.14GiB&total_capacity_bytes=11.69GiB&free_bytes=2.68GiB&process_in_use_bytes=7.04GiB"
            ),
            format!("/{lang}/calculators/training-memory?n_layer=0"),
            format!("/{lang}/calculators/llm-memory"),
            format!(
                "/{lang}/calculators/llm-memory?model=meta-llama/Llama-2-70b-hf&phase=generate&gpus=4&max_model_len=4096&kv_cache_dtype=fp8&quantization=int8"
            ),
            format!(
                "/{lang}/calculators/llm-memory?model=Qwen/Qwen2.5-7B&method=lora&gpus=4&sharding=zero2&cpu_offload=true&optimizer=paged_adamw_8bit&batch_size=4"
            ),
            format!("/{lang}/calculators/llm-memory?model=acme/none"),
        ] {
            let text = tags
                .replace_all(&page(&CATALOG, &uri).await, " ")
                .into_owned();
            let missing: Vec<&str> = id
                .find_iter(&text)
                .map(|m| m.as_str())
                .filter(|m| !m.starts_with("cuda-") && !m.ends_with(".py"))
                .collect();
            assert!(missing.is_empty(), "{uri}: {missing:?}");
        }
    }
}

#[tokio::test]
async fn static_files_are_served_with_types_and_long_caching() {
    let html = page(&FIXTURES, "/en/").await;
    let href = regex::Regex::new(r#"href="(/static/app\.css\?v=[0-9a-f]{8})""#)
        .unwrap()
        .captures(&html)
        .expect("stylesheet link")[1]
        .to_owned();
    let reply = get(&FIXTURES, &href).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.headers["content-type"], "text/css; charset=utf-8");
    assert!(
        reply.headers["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable")
    );
    assert_eq!(
        get(&FIXTURES, "/static/nope.js").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn the_glossary_shows_each_language_s_word_for_a_concept() {
    let router = router_for(&repo_path("content"));
    for (lang, word) in [
        ("ar", "تراكم التدرجات"),
        ("hi", "ग्रेडिएंट एक्युमुलेशन"),
        ("fr", "accumulation des gradients"),
        ("en", "gradient accumulation"),
    ] {
        let html = page(&router, &format!("/{lang}/glossary")).await;
        assert!(
            html.contains(&format!(r#"<dt id="gradient-accumulation">{word}"#)),
            "{lang}"
        );
    }
    let html = page(&router, "/ar/glossary").await;
    assert!(html.contains(r#"dir="rtl""#));
    let reply = get(&FIXTURES, "/fr/glossary").await;
    assert_eq!(
        reply.status,
        StatusCode::NOT_FOUND,
        "no glossary in the fixtures"
    );
}

#[tokio::test]
async fn pages_say_whether_the_answer_is_a_known_fix_or_only_the_closest_reading() {
    let seed = std::fs::read_to_string(repo_path("eval/seed-oom-example.txt")).unwrap();
    let cases = [
        (
            "ar",
            seed.as_str(),
            "confident",
            "هذه المقالات تعالج هذا الخطأ.",
        ),
        (
            "fr",
            "hello how are you",
            "none",
            "Aucun article ne traite encore cette erreur.",
        ),
        (
            "hi",
            "ModuleNotFoundError: No module named 'torch'",
            "none",
            "इस त्रुटि पर अभी तक कोई लेख नहीं है।",
        ),
    ];
    for (lang, text, state, sentence) in cases {
        let reply = post_form(&CATALOG, &format!("/{lang}/match"), &[("text", text)]).await;
        assert_eq!(reply.status, StatusCode::OK);
        let html = reply.text();
        assert!(
            html.contains(&format!("data-answer=\"{state}\"")),
            "{lang}: {html}"
        );
        assert!(html.contains(sentence), "{lang}: {sentence}");
    }
    // The diagnosis stays when no article covers the error.
    let reply = post_form(
        &CATALOG,
        "/en/match",
        &[("text", "RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x3 and 5x6)\nModuleNotFoundError: No module named 'flux_capacitor'")],
    )
    .await;
    assert!(reply.text().contains("diagnosis-title"));
}

#[tokio::test]
async fn the_llm_calculator_opens_prefilled_and_ranks_what_frees_memory() {
    let html = page(
        &CATALOG,
        "/fr/calculators/llm-memory?model=meta-llama/Llama-3.1-8B&method=lora&sequence_length=1024&batch_size=2&gpu_memory_gib=24",
    )
    .await;
    assert!(html.contains(r#"<option value="meta-llama/Llama-3.1-8B" selected>"#));
    assert!(html.contains(r#"<option value="lora" selected>"#));
    assert!(
        html.contains("8\u{202f}030\u{202f}261\u{202f}248")
            || html.contains("8030261248")
            || html.contains("8 030 261 248")
            || html.contains("8\u{a0}030\u{a0}261\u{a0}248"),
        "parameter count shown"
    );
    assert!(html.contains("<svg"), "chart drawn");
    // The ranking is the estimator's: QLoRA first or not, each a link that applies it.
    assert!(html.contains(r#"id="savings""#));
    assert!(html.contains("method=qlora"));
    assert!(html.contains("gradient_checkpointing=true"));
    // Generation says what the KV cache needs at this context.
    let html = page(
        &CATALOG,
        "/en/calculators/llm-memory?model=meta-llama/Llama-3.1-8B&phase=generate&sequence_length=32768&gpu_memory_gib=24",
    )
    .await;
    assert!(
        html.contains("At 32,768 tokens of context the KV cache of one sequence takes 4.00\u{a0}GiB (131,072 bytes per token)."),
        "{}",
        html.lines().filter(|l| l.contains("KV")).collect::<Vec<_>>().join("\n")
    );
}

#[tokio::test]
async fn an_unknown_model_is_named_beside_the_model_field() {
    let html = page(
        &FIXTURES,
        "/en/calculators/llm-memory?model=acme%2F%3Cb%3Enone",
    )
    .await;
    assert!(html.contains(r#"aria-describedby="e-model""#));
    assert!(html.contains("No preset has this id."));
    assert!(!html.contains("<b>none"), "the id is escaped");
}
