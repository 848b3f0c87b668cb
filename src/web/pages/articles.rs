//! `/{lang}/articles` (index by topic, or by one tag) and `/{lang}/articles/{id}`.

use std::collections::BTreeMap;
use std::net::SocketAddr;

use askama::Template;
use axum::Form;
use axum::extract::rejection::{ExtensionRejection, FormRejection, QueryRejection};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::{
    PageError, PageLang, PageMeta, Ui, dir, error_page, isolate_figures, native_name, render,
    see_other,
};
use crate::content::{Article, CALCULATORS};
use crate::db::feedback::{FeedbackError, FeedbackInput};
use crate::db::{FeedbackCounts, now_ms};
use crate::i18n::{FluentArgs, Lang, messages};
use crate::web::AppState;
use crate::web::auth::Identity;
use crate::web::cache;

/// Topics of the index, each named by the tag that puts an article in it; an article goes
/// under the first topic whose tag it carries.
const TOPICS: &[(&str, &[&str])] = &[
    ("memory", &["memory", "oom"]),
    ("data", &["dataloader"]),
    ("distributed", &["distributed", "multi-gpu", "nccl", "ddp"]),
    ("precision", &["mixed-precision", "amp", "dtype"]),
    ("cuda", &["cuda"]),
];
const OTHER_TOPIC: &str = "other";

pub struct ArticleLink {
    pub title: String,
    pub summary: String,
    pub url: String,
    /// The article's own language when it stands in for a missing translation.
    pub shown_lang: Option<Lang>,
    pub lang: &'static str,
    pub dir: &'static str,
}

impl ArticleLink {
    fn new(article: &Article, fallback: bool, ui_lang: Lang) -> Self {
        ArticleLink {
            title: article.title.clone(),
            summary: article.summary.clone(),
            // The page stays in the reader's language; it shows the stand-in with a note.
            url: format!("/{}/articles/{}", ui_lang.code(), article.id),
            shown_lang: fallback.then_some(article.lang),
            lang: article.lang.code(),
            dir: dir(article.lang),
        }
    }
}

pub struct TopicGroup {
    pub name: String,
    pub articles: Vec<ArticleLink>,
}

pub struct TagChip {
    pub tag: String,
    pub count: usize,
    pub current: bool,
}

#[derive(Template)]
#[template(path = "articles.html")]
struct IndexPage<'a> {
    ui: &'a Ui,
    meta: &'a PageMeta,
    heading: String,
    groups: Vec<TopicGroup>,
    tags: Vec<TagChip>,
    tag: Option<String>,
}

#[derive(Deserialize)]
pub struct IndexQuery {
    tag: Option<String>,
}

pub async fn index(
    PageLang(lang): PageLang,
    State(state): State<AppState>,
    Query(query): Query<IndexQuery>,
    uri: Uri,
) -> Result<Response, PageError> {
    let ui = Ui::new(lang);
    let library = state.library();
    let listing = library.listing(lang);
    let tag = query
        .tag
        .map(|t| t.trim().chars().take(64).collect::<String>())
        .filter(|t| !t.is_empty());

    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (article, _) in &listing {
        for t in &article.tags {
            *counts.entry(t.as_str()).or_default() += 1;
        }
    }
    let mut tags: Vec<TagChip> = counts
        .into_iter()
        .map(|(t, count)| TagChip {
            tag: t.to_owned(),
            count,
            current: tag.as_deref() == Some(t),
        })
        .collect();
    tags.sort_by(|a, b| b.count.cmp(&a.count).then(a.tag.cmp(&b.tag)));

    let (heading, groups) = match &tag {
        Some(t) => {
            let articles: Vec<ArticleLink> = listing
                .iter()
                .filter(|(a, _)| a.tags.iter().any(|x| x == t))
                .map(|(a, fallback)| ArticleLink::new(a, *fallback, lang))
                .collect();
            let name = ui.count("articles-count", articles.len());
            (
                ui.t1("articles-tagged", "tag", t),
                vec![TopicGroup { name, articles }],
            )
        }
        None => (ui.t("articles-title"), by_topic(&ui, &listing)),
    };
    let meta = PageMeta::new(&ui, heading.clone(), "articles", &uri);
    render(
        &ui,
        &IndexPage {
            ui: &ui,
            meta: &meta,
            heading,
            groups,
            tags,
            tag,
        },
    )
}

fn topic_of(article: &Article) -> &'static str {
    TOPICS
        .iter()
        .find(|(_, tags)| article.tags.iter().any(|t| tags.contains(&t.as_str())))
        .map_or(OTHER_TOPIC, |(name, _)| name)
}

fn by_topic(ui: &Ui, listing: &[(&Article, bool)]) -> Vec<TopicGroup> {
    TOPICS
        .iter()
        .map(|(name, _)| *name)
        .chain([OTHER_TOPIC])
        .map(|topic| TopicGroup {
            name: ui.t(&format!("topic-{topic}")),
            articles: listing
                .iter()
                .filter(|(a, _)| topic_of(a) == topic)
                .map(|(a, fallback)| ArticleLink::new(a, *fallback, ui.lang))
                .collect(),
        })
        .filter(|g| !g.articles.is_empty())
        .collect()
}

pub struct TocEntry {
    pub id: String,
    pub title: String,
    pub level: u8,
}

pub struct Translation {
    pub code: &'static str,
    pub name: &'static str,
    pub dir: &'static str,
    pub url: String,
}

pub struct CalculatorLink {
    pub title: String,
    pub url: String,
}

#[derive(Template)]
#[template(path = "article.html")]
struct ArticlePage<'a> {
    ui: &'a Ui,
    meta: &'a PageMeta,
    article: &'a Article,
    article_lang: &'static str,
    article_dir: &'static str,
    /// Set when the article is shown in another language than the page's.
    fallback_note: Option<String>,
    toc: Vec<TocEntry>,
    translations: Vec<Translation>,
    calculators: Vec<CalculatorLink>,
    /// "Did this fix it?": only when the server has a database to keep the votes.
    feedback: Option<FeedbackBlock>,
}

/// The "Did this fix it?" block at the end of an article.
pub struct FeedbackBlock {
    /// Where the Yes / No form posts.
    pub action: String,
    /// After a vote (`?voted=yes|no`): whether it said the article helped. The page then
    /// thanks instead of asking again.
    pub voted: Option<bool>,
    /// The group's votes as a sentence (HTML: escaped, figures isolated); `None` when they
    /// cannot be read.
    pub tally: Option<String>,
}

#[derive(Deserialize)]
pub struct ShowQuery {
    voted: Option<String>,
}

pub async fn show(
    PageLang(lang): PageLang,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, String)>,
    query: Result<Query<ShowQuery>, QueryRejection>,
    uri: Uri,
    headers: axum::http::HeaderMap,
) -> Result<Response, PageError> {
    let ui = Ui::new(lang);
    // Only the two known values count; anything else is ignored, never shown.
    let voted = match query.ok().and_then(|Query(q)| q.voted).as_deref() {
        Some("yes") => Some(true),
        Some("no") => Some(false),
        _ => None,
    };
    let library = state.library();
    let (article, fallback) = library
        .resolve(&id, lang)
        .ok_or(PageError::NotFound(lang))?;
    let fallback_note = fallback.then(|| {
        ui.t2(
            "article-fallback",
            "lang",
            native_name(lang),
            "other",
            native_name(article.lang),
        )
    });
    let translations = library
        .translations(&article.id)
        .into_iter()
        .filter(|&l| l != article.lang)
        .map(|l| Translation {
            code: l.code(),
            name: native_name(l),
            dir: dir(l),
            url: format!("/{}/articles/{}", l.code(), article.id),
        })
        .collect();
    let calculators = article
        .calculators
        .iter()
        .filter(|c| CALCULATORS.contains(&c.as_str()))
        .map(|c| CalculatorLink {
            title: ui.t(&format!("calc-title-{c}")),
            url: format!("/{}/calculators/{c}", lang.code()),
        })
        .collect();
    let toc = article
        .sections
        .iter()
        .filter(|s| s.level <= 3)
        .map(|s| TocEntry {
            id: s.id.clone(),
            title: s.title.clone(),
            level: s.level,
        })
        .collect();
    let counts = match state.store() {
        Some(_) => Some(state.feedback_counts(&article.id).await),
        None => None,
    };
    // The page is the article's version in the page's language, plus the votes it shows.
    let versions: Vec<&str> = library
        .translations(&article.id)
        .iter()
        .map(|l| l.code())
        .collect();
    let etag = cache::etag(&[
        "page",
        &article.content_hash,
        article.lang.code(),
        lang.code(),
        &versions.join(","),
        &format!("{voted:?}/{counts:?}"),
    ]);
    if cache::matches(&headers, &etag) {
        return Ok(cache::not_modified(etag, cache::PAGE_CACHE_CONTROL));
    }
    let feedback = counts.map(|counts| FeedbackBlock {
        action: format!("/{}/articles/{}/feedback", lang.code(), article.id),
        voted,
        tally: counts.map(|counts| tally(&ui, counts)),
    });
    // The switcher and alternates point at the article itself, not at `?voted=`.
    let path: Uri = uri.path().parse().unwrap_or(uri);
    let meta = PageMeta::new(&ui, article.title.clone(), "articles", &path);
    let page = render(
        &ui,
        &ArticlePage {
            ui: &ui,
            meta: &meta,
            article,
            article_lang: article.lang.code(),
            article_dir: dir(article.lang),
            fallback_note,
            toc,
            translations,
            calculators,
            feedback,
        },
    )?;
    Ok(cache::with_validators(
        page,
        etag,
        cache::PAGE_CACHE_CONTROL,
    ))
}

/// The group's votes as one sentence, e.g. "3 people said yes, 1 said no.", with plural
/// forms chosen by Fluent on the raw count and the figures written by the number formatter.
fn tally(ui: &Ui, counts: FeedbackCounts) -> String {
    if counts.total() == 0 {
        return isolate_figures(&ui.t("feedback-no-votes"));
    }
    let helpful = counted(ui, "feedback-count-yes", counts.helpful);
    let not_helpful = counted(ui, "feedback-count-no", counts.not_helpful);
    isolate_figures(&ui.t2("feedback-tally", "yes", &helpful, "no", &not_helpful))
}

/// Message `id` with `$count` (a number, for the plural selector) and `$n` (the same count
/// as the page's language writes it).
fn counted(ui: &Ui, id: &str, count: u64) -> String {
    let mut args = FluentArgs::new();
    args.set("count", count);
    args.set("n", ui.int(count));
    messages().format(ui.lang, id, Some(&args))
}

/// The Yes / No form as a browser sends it. Every field is optional here so that a missing
/// or odd one is answered with the page's own error, not the extractor's plain text.
#[derive(Deserialize)]
pub struct VoteForm {
    helpful: Option<String>,
    section: Option<String>,
    match_id: Option<String>,
}

/// `POST /{lang}/articles/{id}/feedback`: records a vote from the article page or a result,
/// validated and stored as `POST /api/v1/feedback` does, then sends the reader back to the
/// article (303, so reloading does not vote again), where a thank-you shows.
pub async fn vote(
    PageLang(lang): PageLang,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, String)>,
    peer: Result<ConnectInfo<SocketAddr>, ExtensionRejection>,
    form: Result<Form<VoteForm>, FormRejection>,
) -> Response {
    // Votes from pages count against the same anonymous limit as the API's, so the form is
    // no way around it.
    if let Some(limiter) = state.limiter() {
        let client = crate::web::auth::client_key(peer.ok().map(|ConnectInfo(addr)| addr.ip()));
        if let Err(wait) = limiter.check(Identity::Client(client)) {
            let mut response =
                refusal_page(lang, StatusCode::TOO_MANY_REQUESTS, "error-vote-limit");
            // Rounded up, as the API does: retrying after a truncated wait fails again.
            let seconds = wait.as_millis().div_ceil(1000).max(1).to_string();
            if let Ok(value) = HeaderValue::from_str(&seconds) {
                response.headers_mut().insert(header::RETRY_AFTER, value);
            }
            return response;
        }
    }
    let library = state.library();
    // The vote is for the article the page shows: a missing translation's stand-in counts
    // in its own language, whose sections the form names.
    let Some((article, _)) = library.resolve(&id, lang) else {
        return PageError::NotFound(lang).into_response();
    };
    let Ok(Form(form)) = form else {
        return refusal_page(lang, StatusCode::BAD_REQUEST, "error-vote");
    };
    let helpful = match form.helpful.as_deref() {
        Some("yes") => true,
        Some("no") => false,
        _ => return refusal_page(lang, StatusCode::BAD_REQUEST, "error-vote"),
    };
    let input = FeedbackInput {
        article: article.id.clone(),
        lang: article.lang.code().to_owned(),
        section: form.section,
        helpful,
        match_id: form.match_id,
    };
    let vote = match input.validate(&library, now_ms()) {
        Ok(vote) => vote,
        Err(FeedbackError::UnknownArticle { .. } | FeedbackError::UnsupportedLanguage(_)) => {
            return PageError::NotFound(lang).into_response();
        }
        Err(FeedbackError::UnknownSection { .. } | FeedbackError::InvalidMatchId) => {
            return refusal_page(lang, StatusCode::BAD_REQUEST, "error-vote");
        }
    };
    let Some(store) = state.store() else {
        return refusal_page(
            lang,
            StatusCode::SERVICE_UNAVAILABLE,
            "error-vote-unavailable",
        );
    };
    if let Err(error) = store.record_feedback(&vote).await {
        tracing::error!(%error, "cannot record a vote from a page");
        return refusal_page(
            lang,
            StatusCode::SERVICE_UNAVAILABLE,
            "error-vote-unavailable",
        );
    }
    state.refresh_feedback_factors().await;
    let answer = if vote.helpful { "yes" } else { "no" };
    // Built from the library's id (lowercase ASCII, digits, `-`), never from the request.
    see_other(&format!(
        "/{}/articles/{}?voted={answer}#feedback",
        lang.code(),
        vote.article
    ))
}

/// `GET` of the vote address (a bookmarked or retyped form target): the article's block.
pub async fn vote_form(
    PageLang(lang): PageLang,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, String)>,
) -> Response {
    match state.library().resolve(&id, lang) {
        Some((article, _)) => see_other(&format!(
            "/{}/articles/{}#feedback",
            lang.code(),
            article.id
        )),
        None => PageError::NotFound(lang).into_response(),
    }
}

/// The friendly error page, in the reader's language, for a vote that cannot be taken:
/// `{prefix}-title` and `{prefix}-text` say why, without repeating what was sent.
fn refusal_page(lang: Lang, status: StatusCode, prefix: &str) -> Response {
    error_page(lang, status, prefix).unwrap_or_else(|error| {
        PageError::Internal(lang, format!("template: {error}")).into_response()
    })
}
