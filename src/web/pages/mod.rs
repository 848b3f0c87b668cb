//! The HTML pages: server-rendered from `templates/` (askama: compiled in, autoescaped),
//! interface strings from `locales/<lang>/ui.ftl`. Every page lives under `/{lang}/`;
//! `/` picks the language. Pages work without JavaScript.
//!
//! One file per page kind; this module holds what they share: the [`Ui`] handed to every
//! template (strings, numbers, direction), the page frame ([`PageMeta`]: title, language
//! switcher), rendering, and the friendly 404/500 pages.

mod articles;
mod assets;
mod calculators;
mod charts;
mod glossary;
mod home;
mod language;
mod search;

use std::borrow::Borrow;
use std::sync::LazyLock;

use askama::Template;
use axum::Router;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use regex::Regex;

use super::state::AppState;
use crate::i18n::NumberFormat;
use crate::i18n::{FluentArgs, Lang, messages};

pub use assets::asset_url;

/// Name of the cookie that remembers the language of the last page read.
pub const LANG_COOKIE: &str = "lang";
const COOKIE_MAX_AGE_SECS: u32 = 365 * 24 * 3600;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(language::choose))
        .route("/static/{file}", get(assets::serve))
        .route("/{lang}", get(language::add_slash))
        .route("/{lang}/", get(home::show))
        .route("/{lang}/search", get(search::search))
        .route(
            "/{lang}/match",
            get(search::match_get).post(search::match_post),
        )
        .route("/{lang}/articles", get(articles::index))
        .route("/{lang}/glossary", get(glossary::show))
        .route("/{lang}/articles/{id}", get(articles::show))
        .route(
            "/{lang}/articles/{id}/feedback",
            get(articles::vote_form).post(articles::vote),
        )
        .route("/{lang}/calculators", get(calculators::index))
        .route(
            "/{lang}/calculators/training-memory",
            get(calculators::training_memory),
        )
        .route(
            "/{lang}/calculators/allocation",
            get(calculators::allocation),
        )
        .route(
            "/{lang}/calculators/llm-memory",
            get(calculators::llm_memory),
        )
}

/// What every template reads: the language, its strings and its number format. Number
/// methods take `impl Borrow<u64>` because templates pass fields by reference.
pub struct Ui {
    pub lang: Lang,
    num: NumberFormat,
}

impl Ui {
    pub fn new(lang: Lang) -> Self {
        Ui {
            lang,
            num: NumberFormat::new(lang),
        }
    }

    pub fn code(&self) -> &'static str {
        self.lang.code()
    }

    pub fn dir(&self) -> &'static str {
        dir(self.lang)
    }

    /// The interface string `id`.
    pub fn t(&self, id: &str) -> String {
        messages().format(self.lang, id, None)
    }

    /// The string `id` with one argument (already formatted text).
    pub fn t1(&self, id: &str, name: &str, value: &str) -> String {
        let mut args = FluentArgs::new();
        args.set(name.to_owned(), value.to_owned());
        messages().format(self.lang, id, Some(&args))
    }

    pub fn t2(&self, id: &str, n1: &str, v1: &str, n2: &str, v2: &str) -> String {
        let mut args = FluentArgs::new();
        args.set(n1.to_owned(), v1.to_owned());
        args.set(n2.to_owned(), v2.to_owned());
        messages().format(self.lang, id, Some(&args))
    }

    /// The string `id` with a count, for plural forms.
    pub fn count(&self, id: &str, count: usize) -> String {
        let mut args = FluentArgs::new();
        args.set("count", count);
        messages().format(self.lang, id, Some(&args))
    }

    pub fn bytes(&self, n: impl Borrow<u64>) -> String {
        self.num.bytes(*n.borrow())
    }

    pub fn gib_with(&self, n: impl Borrow<u64>, decimals: usize) -> String {
        self.num.gib_with(*n.borrow(), decimals)
    }

    pub fn percent(&self, share: f64) -> String {
        self.num.percent(share)
    }

    pub fn int(&self, n: impl Borrow<u64>) -> String {
        self.num.int(*n.borrow())
    }

    pub fn millions(&self, n: impl Borrow<u64>) -> String {
        self.num.millions(*n.borrow())
    }

    pub fn decimal(&self, x: f64, decimals: usize) -> String {
        self.num.decimal(x, decimals)
    }

    /// A language's name in itself (for links to other languages).
    pub fn lang_name(&self, lang: &Lang) -> &'static str {
        native_name(*lang)
    }
}

pub fn dir(lang: Lang) -> &'static str {
    if lang.is_rtl() { "rtl" } else { "ltr" }
}

pub fn native_name(lang: Lang) -> &'static str {
    match lang {
        Lang::Ar => "العربية",
        Lang::Hi => "हिन्दी",
        Lang::Fr => "Français",
        Lang::En => "English",
    }
}

/// One entry of the language switcher.
pub struct LangLink {
    pub code: &'static str,
    pub name: &'static str,
    pub dir: &'static str,
    pub href: String,
    pub current: bool,
}

/// The frame around a page: title, active menu entry, language switcher.
pub struct PageMeta {
    pub title: String,
    /// Which main-menu entry is the current page: `paste`, `search`, `articles`, `calculators`.
    pub nav: &'static str,
    pub switch: Vec<LangLink>,
    /// When set, the switcher re-submits this form (by id) to the same page in the other
    /// language instead of following links: how the results of a POST keep their page.
    pub switch_form: Option<&'static str>,
    pub stylesheet: String,
    /// A script of `static/` this page loads (CSP allows only same-origin files).
    pub script: Option<String>,
}

impl PageMeta {
    /// The frame for a page at `uri` (a `/{lang}/…` path); the switcher points at the
    /// same path and query in each language.
    pub fn new(ui: &Ui, title: String, nav: &'static str, uri: &Uri) -> Self {
        let rest = uri
            .path()
            .strip_prefix('/')
            .and_then(|p| p.split_once('/').map(|(_, rest)| rest))
            .unwrap_or("");
        let query = uri.query().map(|q| format!("?{q}")).unwrap_or_default();
        let switch = Lang::ALL
            .iter()
            .map(|&lang| LangLink {
                code: lang.code(),
                name: native_name(lang),
                dir: dir(lang),
                href: format!("/{}/{rest}{query}", lang.code()),
                current: lang == ui.lang,
            })
            .collect();
        PageMeta {
            title,
            nav,
            switch,
            switch_form: None,
            stylesheet: asset_url("app.css"),
            script: None,
        }
    }
}

/// A page that could not be shown: rendered as a friendly page in the reader's language.
#[derive(Debug)]
pub enum PageError {
    NotFound(Lang),
    Internal(Lang, String),
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    ui: &'a Ui,
    meta: &'a PageMeta,
    status: u16,
    heading: String,
    text: String,
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let (lang, status, id) = match &self {
            PageError::NotFound(lang) => (*lang, StatusCode::NOT_FOUND, "error-404"),
            PageError::Internal(lang, cause) => {
                tracing::error!(%cause, "page failed");
                (*lang, StatusCode::INTERNAL_SERVER_ERROR, "error-500")
            }
        };
        error_page(lang, status, id).unwrap_or_else(|_| {
            // The error page itself failed: plain text, still the right status.
            (status, status.canonical_reason().unwrap_or("error")).into_response()
        })
    }
}

/// The friendly error page with `status`, in the reader's language: `{prefix}-title` and
/// `{prefix}-text` say what happened.
fn error_page(lang: Lang, status: StatusCode, prefix: &str) -> Result<Response, askama::Error> {
    let ui = Ui::new(lang);
    let heading = ui.t(&format!("{prefix}-title"));
    // Any language's home: the switcher then points at each language's home.
    let home = Uri::from_static("/en/");
    let meta = PageMeta::new(&ui, heading.clone(), "", &home);
    let page = ErrorPage {
        ui: &ui,
        meta: &meta,
        status: status.as_u16(),
        heading,
        text: ui.t(&format!("{prefix}-text")),
    };
    Ok((status, Html(page.render()?)).into_response())
}

/// Renders a page and remembers its language in a cookie for `/`.
pub fn render(ui: &Ui, page: &impl Template) -> Result<Response, PageError> {
    let html = page
        .render()
        .map_err(|e| PageError::Internal(ui.lang, format!("template: {e}")))?;
    let cookie = format!(
        "{LANG_COOKIE}={}; Path=/; Max-Age={COOKIE_MAX_AGE_SECS}; SameSite=Lax",
        ui.code()
    );
    let mut response = Html(html).into_response();
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(header::SET_COOKIE, value);
    }
    Ok(response)
}

/// The language of a `/{lang}/…` page. An unknown prefix is a 404 page in the language the
/// browser asks for.
pub struct PageLang(pub Lang);

impl<S: Send + Sync> FromRequestParts<S> for PageLang {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let first = parts
            .uri
            .path()
            .trim_start_matches('/')
            .split('/')
            .next()
            .unwrap_or("");
        // Only the exact lowercase codes: `/FR/` would duplicate every page.
        match Lang::ALL.iter().find(|l| l.code() == first) {
            Some(&lang) => Ok(PageLang(lang)),
            None => Err(PageError::NotFound(preferred_lang(&parts.headers))),
        }
    }
}

/// The reader's language when the URL does not say: the cookie, then `Accept-Language`,
/// then English.
pub fn preferred_lang(headers: &HeaderMap) -> Lang {
    cookie_lang(headers)
        .or_else(|| {
            headers
                .get(header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .and_then(Lang::from_accept_language)
        })
        .unwrap_or(Lang::En)
}

fn cookie_lang(headers: &HeaderMap) -> Option<Lang> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == LANG_COOKIE)
        .and_then(|(_, value)| Lang::ALL.iter().copied().find(|l| l.code() == value.trim()))
}

/// Unknown paths: JSON for the API, a friendly page for people.
pub async fn fallback(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") || path == "/healthz" {
        return super::ApiError::not_found("no such endpoint").into_response();
    }
    let first = path.trim_start_matches('/').split('/').next().unwrap_or("");
    let lang = Lang::ALL
        .iter()
        .copied()
        .find(|l| l.code() == first)
        .unwrap_or_else(|| preferred_lang(&headers));
    PageError::NotFound(lang).into_response()
}

/// Plain text as HTML, with every figure (`6.14 GiB`, `35,12 Mio`, `1,024`) and every code
/// token (`CUDA_LAUNCH_BLOCKING=1`, `expandable_segments:True`) isolated left to right in a
/// `<bdi>`: in an Arabic sentence a number and its unit, or a setting and its value, then
/// read as one unit, as they do in the tables. The text is escaped first; the pattern only
/// ever wraps digits, separators, unit names and identifier characters.
pub fn isolate_figures(text: &str) -> String {
    static TOKEN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?P<code>\b[A-Za-z][A-Za-z0-9]*(?:[_.][A-Za-z0-9]+)+(?:[=:][A-Za-z0-9_.]+)*",
            r"|\b[A-Za-z][A-Za-z0-9]*(?:[=:][A-Za-z0-9_.]+)+)",
            r"|(?P<figure>\b\d(?:[\d.,\u{202f}]*\d)?(?:[\u{a0} ]?(?:[KMGT]i?B|[KMGT]io|B\b|bytes\b|octets\b))?)",
        ))
        .expect("valid regex")
    });
    let escaped = escape_html(text);
    TOKEN
        .replace_all(&escaped, |c: &regex::Captures<'_>| match c.name("code") {
            Some(code) => format!(r#"<bdi dir="ltr">{}</bdi>"#, code.as_str()),
            None => format!(r#"<bdi class="num">{}</bdi>"#, &c[0]),
        })
        .into_owned()
}

/// Text made safe for HTML element content and quoted attribute values.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A 303 to a path built from validated parts.
pub fn see_other(path: &str) -> Response {
    Redirect::to(path).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preferred_language_reads_the_cookie_before_accept_language() {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static("fr"));
        assert_eq!(preferred_lang(&headers), Lang::Fr);
        headers.insert(header::COOKIE, HeaderValue::from_static("a=b; lang=hi"));
        assert_eq!(preferred_lang(&headers), Lang::Hi);
        headers.insert(header::COOKIE, HeaderValue::from_static("lang=de"));
        assert_eq!(preferred_lang(&headers), Lang::Fr);
        assert_eq!(preferred_lang(&HeaderMap::new()), Lang::En);
    }

    #[test]
    fn figures_are_isolated_and_the_rest_escaped() {
        assert_eq!(
            isolate_figures("حاول PyTorch حجز 6.14 GiB <b>"),
            r#"حاول PyTorch حجز <bdi class="num">6.14 GiB</bdi> &lt;b&gt;"#
        );
        assert_eq!(
            isolate_figures("35,12\u{a0}Mio & 65\u{202f}536 lignes"),
            "<bdi class=\"num\">35,12\u{a0}Mio</bdi> &amp; <bdi class=\"num\">65\u{202f}536</bdi> lignes"
        );
        // Digits inside a word are not figures.
        assert_eq!(isolate_figures("bf16 fp8"), "bf16 fp8");
    }

    #[test]
    fn code_tokens_are_isolated_whole() {
        assert_eq!(
            isolate_figures("اضبط CUDA_LAUNCH_BLOCKING=1 ثم expandable_segments:True"),
            r#"اضبط <bdi dir="ltr">CUDA_LAUNCH_BLOCKING=1</bdi> ثم <bdi dir="ltr">expandable_segments:True</bdi>"#
        );
    }

    #[test]
    fn escaping_covers_markup_and_quotes() {
        assert_eq!(
            escape_html("<img src=x onerror='a()'>&\""),
            "&lt;img src=x onerror=&#39;a()&#39;&gt;&amp;&quot;"
        );
    }

    #[test]
    fn switcher_keeps_path_and_query() {
        let ui = Ui::new(Lang::Ar);
        let uri: Uri = "/ar/calculators/allocation?batch_size=8".parse().unwrap();
        let meta = PageMeta::new(&ui, String::new(), "", &uri);
        let hi = meta.switch.iter().find(|l| l.code == "hi").unwrap();
        assert_eq!(hi.href, "/hi/calculators/allocation?batch_size=8");
        assert!(meta.switch.iter().find(|l| l.code == "ar").unwrap().current);
    }
}
