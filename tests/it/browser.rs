//! The pages in a real browser: Debian's Chromium, headless, driven through chromedriver
//! (fantoccini) against the server listening on a loopback port. Screenshots of home,
//! results, article and calculator in each language, at desktop and phone widths, are
//! written to `target/screenshots/`.
//!
//! Needs `chromium` and `chromium-driver` (and `fonts-noto-core` for Arabic and
//! Devanagari). Without chromedriver the tests print why they skip; with `CI` set they fail.

use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::helpers::{load, repo_path};
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use ilaj::web::{self, AppState};
use serde_json::{Value, json};
use tokio::sync::Mutex;

const CHROMIUM: &str = "/usr/bin/chromium";
/// One browser at a time: two cores are shared with the rest of the suite.
static ONE_BROWSER: Mutex<()> = Mutex::const_new(());
const LANGS: [&str; 4] = ["ar", "hi", "fr", "en"];
const DESKTOP: (u32, u32) = (1280, 1000);
const PHONE: (u32, u32) = (390, 844);

fn find_in_path(name: &str) -> Option<PathBuf> {
    if let Some(explicit) = std::env::var_os("CHROMEDRIVER") {
        return Some(PathBuf::from(explicit));
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
}

/// chromedriver's path, or `None` (after saying why) when the browser tests cannot run here.
fn chromedriver() -> Option<PathBuf> {
    let driver = find_in_path("chromedriver");
    if driver.is_some() && Path::new(CHROMIUM).is_file() {
        return driver;
    }
    let why = "chromium or chromedriver is not installed \
               (apt-get install -y chromium chromium-driver fonts-noto-core)";
    assert!(
        std::env::var_os("CI").is_none(),
        "browser tests need a browser in CI: {why}"
    );
    eprintln!("SKIPPED browser test: {why}");
    None
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// chromedriver, stopped (by its own handle) when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The server, chromedriver and a browser session with a fresh profile.
struct Session {
    client: Client,
    base: String,
    _driver: Driver,
    _profile: tempfile::TempDir,
}

async fn start() -> Option<Session> {
    let driver_path = chromedriver()?;

    let state = AppState::new(load(&repo_path("content")).library).expect("index builds");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("loopback port");
    let addr: SocketAddr = listener.local_addr().expect("address");
    tokio::spawn(async move {
        axum::serve(listener, web::router(state))
            .await
            .expect("server runs");
    });

    let port = free_port();
    let child = Command::new(&driver_path)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver {
        child,
        url: format!("http://127.0.0.1:{port}"),
    };

    let profile = tempfile::tempdir().expect("profile dir");
    let args = [
        "--headless".to_owned(),
        "--no-sandbox".to_owned(),
        "--disable-gpu".to_owned(),
        "--disable-dev-shm-usage".to_owned(),
        "--no-first-run".to_owned(),
        "--disable-background-networking".to_owned(),
        "--disable-component-update".to_owned(),
        "--disable-sync".to_owned(),
        "--hide-scrollbars".to_owned(),
        format!("--user-data-dir={}", profile.path().display()),
    ];
    let capabilities = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {"binary": CHROMIUM, "args": args},
    });
    let Value::Object(capabilities) = capabilities else {
        unreachable!("a JSON object")
    };
    // chromedriver takes a moment to listen.
    let deadline = Instant::now() + Duration::from_secs(20);
    let client = loop {
        match ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities.clone())
            .connect(&driver.url)
            .await
        {
            Ok(client) => break client,
            Err(error) if Instant::now() > deadline => {
                panic!("cannot start a browser session: {error}")
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    };
    Some(Session {
        client,
        base: format!("http://{addr}"),
        _driver: driver,
        _profile: profile,
    })
}

fn screenshot_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_path("target"));
    let dir = target.join("screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot folder");
    dir
}

/// A screenshot of the whole page: the window grows to the page's height first.
async fn shoot(client: &Client, name: &str, width: u32) {
    let sizes = script(
        client,
        "return [document.documentElement.scrollHeight, window.outerHeight - window.innerHeight];",
    )
    .await;
    let number = |i: usize| sizes[i].as_u64().unwrap_or(0) as u32;
    let height = (number(0) + number(1)).clamp(400, 6000);
    client.set_window_size(width, height).await.expect("resize");
    let png = client.screenshot().await.expect("screenshot");
    std::fs::write(screenshot_dir().join(format!("{name}.png")), png).expect("write png");
}

async fn script(client: &Client, js: &str) -> Value {
    client.execute(js, Vec::new()).await.expect("script runs")
}

async fn html_lang(client: &Client) -> String {
    script(client, "return document.documentElement.lang;")
        .await
        .as_str()
        .unwrap_or("")
        .to_owned()
}

/// Waits until the browser shows a page whose path ends with `suffix` (a click only starts
/// the navigation).
async fn wait_for_path(client: &Client, suffix: &str) {
    for _ in 0..100 {
        let at = client
            .current_url()
            .await
            .map(|u| u.path().to_owned())
            .unwrap_or_default();
        let ready = script(client, "return document.readyState;").await;
        if at.ends_with(suffix) && ready == "complete" {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the browser never reached a page ending in {suffix}");
}

/// The first result's link. A form submission replaces the page while the old one may still
/// be found, so an element that goes stale between finding and reading is looked up again.
async fn first_hit_href(client: &Client) -> String {
    let mut last_error = String::new();
    for _ in 0..50 {
        let found = client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css(".hit h3 a"))
            .await;
        match found {
            Ok(hit) => match hit.attr("href").await {
                Ok(href) => return href.unwrap_or_default(),
                Err(error) => last_error = error.to_string(),
            },
            Err(error) => last_error = error.to_string(),
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("no stable first result: {last_error}");
}

async fn body_text(client: &Client) -> String {
    script(client, "return document.body.innerText;")
        .await
        .as_str()
        .unwrap_or("")
        .to_owned()
}

fn seed_paste() -> String {
    std::fs::read_to_string(repo_path("eval/seed-oom-example.txt")).expect("seed paste")
}

#[tokio::test]
async fn arabic_paste_shows_the_training_article_first_and_hindi_keeps_the_results() {
    let _one = ONE_BROWSER.lock().await;
    let Some(session) = start().await else { return };
    let c = &session.client;
    c.set_window_size(DESKTOP.0, DESKTOP.1).await.expect("size");

    c.goto(&format!("{}/ar/", session.base))
        .await
        .expect("home");
    assert_eq!(html_lang(c).await, "ar");
    let direction = script(c, "return getComputedStyle(document.body).direction;").await;
    assert_eq!(direction, "rtl");
    let box_ = c
        .find(Locator::Css("#paste-text"))
        .await
        .expect("paste box");
    box_.send_keys(&seed_paste()).await.expect("typing");
    c.find(Locator::Css("#paste button[type=submit]"))
        .await
        .expect("submit")
        .click()
        .await
        .expect("click");

    wait_for_path(c, "/ar/match").await;
    let first = first_hit_href(c).await;
    assert!(
        first.ends_with("/ar/articles/cuda-oom-training"),
        "first: {first}"
    );
    assert!(
        c.current_url()
            .await
            .expect("url")
            .path()
            .ends_with("/ar/match")
    );
    let text = body_text(c).await;
    assert!(text.contains("6.14"), "the 6.14 GiB figure is shown");
    assert!(text.contains("GiB"));

    c.find(Locator::Css("nav.langs button[lang=hi]"))
        .await
        .expect("Hindi in the switcher")
        .click()
        .await
        .expect("switch");
    wait_for_path(c, "/hi/match").await;
    let first = first_hit_href(c).await;
    assert_eq!(html_lang(c).await, "hi");
    assert!(
        c.current_url()
            .await
            .expect("url")
            .path()
            .ends_with("/hi/match")
    );
    assert!(
        first.ends_with("/hi/articles/cuda-oom-training"),
        "first: {first}"
    );
    let kept = c
        .find(Locator::Css("#paste-text"))
        .await
        .expect("paste kept")
        .prop("value")
        .await
        .expect("value")
        .unwrap_or_default();
    assert!(
        kept.contains("Tried to allocate 6.14 GiB"),
        "the paste is kept"
    );
    c.clone().close().await.expect("close");
}

#[tokio::test]
async fn french_search_finds_the_fragmentation_article() {
    let _one = ONE_BROWSER.lock().await;
    let Some(session) = start().await else { return };
    let c = &session.client;
    c.goto(&format!("{}/fr/search", session.base))
        .await
        .expect("search page");
    c.find(Locator::Css("#q"))
        .await
        .expect("search box")
        .send_keys("mémoire réservée mais non allouée, fragmentation")
        .await
        .expect("typing");
    c.find(Locator::Css("form[role=search] button[type=submit]"))
        .await
        .expect("submit")
        .click()
        .await
        .expect("click");
    let first = first_hit_href(c).await;
    assert!(
        first.ends_with("/fr/articles/cuda-oom-fragmentation"),
        "first: {first}"
    );
    c.clone().close().await.expect("close");
}

/// Nothing wider than the window (the page would scroll sideways on a phone).
async fn assert_no_horizontal_overflow(c: &Client, page: &str) {
    let overflow = script(
        c,
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
    )
    .await
    .as_i64()
    .unwrap_or(0);
    assert!(overflow <= 0, "{page}: {overflow}px wider than the phone");
}

#[tokio::test]
async fn every_page_kind_in_every_language_renders_and_fits_a_phone() {
    let _one = ONE_BROWSER.lock().await;
    let Some(session) = start().await else { return };
    let c = &session.client;
    let paste = serde_urlencoded::to_string([("text", seed_paste())]).expect("encode");
    let calculator = "calculators/training-memory?n_layer=6&n_head=6&n_embd=384&block_size=512&batch_size=16&gradient_accumulation_steps=4&precision=amp_fp16";
    let pages = [
        ("home", String::new()),
        ("results", format!("match?{paste}")),
        ("article", "articles/cuda-oom-training".to_owned()),
        ("calculator", calculator.to_owned()),
        (
            "llm-calculator",
            "calculators/llm-memory?model=meta-llama/Llama-3.1-8B&method=qlora&sequence_length=4096&gpus=2&sharding=ddp&gpu_memory_gib=24".to_owned(),
        ),
        (
            "llm-generate",
            "calculators/llm-memory?model=Qwen/Qwen2.5-72B&phase=generate&gpus=4&max_model_len=32768&sequence_length=32768&gpu_memory_gib=80".to_owned(),
        ),
    ];
    for lang in LANGS {
        for (name, path) in &pages {
            let url = format!("{}/{lang}/{path}", session.base);
            for (size, (w, h)) in [("desktop", DESKTOP), ("phone", PHONE)] {
                c.set_window_size(w, h).await.expect("size");
                c.goto(&url).await.expect("page");
                assert_eq!(html_lang(c).await, lang, "{url}");
                let dir = script(c, "return getComputedStyle(document.body).direction;").await;
                let want = if lang == "ar" { "rtl" } else { "ltr" };
                assert_eq!(dir, want, "{url}");
                if size == "phone" {
                    assert_no_horizontal_overflow(c, &url).await;
                }
                shoot(c, &format!("{name}-{lang}-{size}"), w).await;
                // Close-ups of the charts, legible at the size they are drawn.
                let charts = c
                    .find_all(Locator::Css("figure.chart"))
                    .await
                    .expect("charts");
                for (i, chart) in charts.iter().enumerate() {
                    let png = chart.screenshot().await.expect("chart screenshot");
                    let file = format!("{name}-{lang}-{size}-chart{}.png", i + 1);
                    std::fs::write(screenshot_dir().join(file), png).expect("write png");
                }
            }
        }
    }
    // Fonts that cover Arabic and Devanagari are installed (CI installs Noto), so the
    // screenshots show the scripts, not boxes.
    if std::env::var_os("CI").is_some() {
        for lang in ["ar", "hi"] {
            let fonts = Command::new("fc-list")
                .arg(format!(":lang={lang}"))
                .output()
                .expect("fc-list runs");
            assert!(!fonts.stdout.is_empty(), "no font covers {lang}");
        }
    }
    c.clone().close().await.expect("close");
}

#[tokio::test]
async fn calculator_recomputes_live_when_a_field_changes() {
    let _one = ONE_BROWSER.lock().await;
    let Some(session) = start().await else { return };
    let c = &session.client;
    c.goto(&format!(
        "{}/en/calculators/training-memory?n_layer=12&n_head=12&n_embd=768&batch_size=4&gpu_memory_gib=12",
        session.base
    ))
    .await
    .expect("calculator");
    // The script swaps `#result` while we read it, so an element found a moment ago can
    // be gone: such a read counts as "not there yet" and the poll tries again.
    let verdict = || async {
        match c.find(Locator::Css("#result .verdict")).await {
            Ok(element) => element.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        }
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while verdict().await != "Fits on this GPU" {
        assert!(Instant::now() < deadline, "the first result never showed");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let batch = c.find(Locator::Css("#f-batch_size")).await.expect("field");
    batch.clear().await.expect("clear");
    batch.send_keys("64").await.expect("typing");
    // No submit: the script (a same-origin file, allowed by the CSP) refreshes the results.
    let deadline = Instant::now() + Duration::from_secs(10);
    while verdict().await != "Does not fit on this GPU" {
        assert!(Instant::now() < deadline, "results were not recomputed");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let url = c.current_url().await.expect("url");
    assert!(url.query().unwrap_or("").contains("batch_size=64"), "{url}");
    c.clone().close().await.expect("close");
}
