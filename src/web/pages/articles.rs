//! `/{lang}/articles` (index by topic, or by one tag) and `/{lang}/articles/{id}`.

use std::collections::BTreeMap;

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::Uri;
use axum::response::Response;
use serde::Deserialize;

use super::{PageError, PageLang, PageMeta, Ui, dir, native_name, render};
use crate::content::{Article, CALCULATORS};
use crate::i18n::Lang;
use crate::web::AppState;

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
}

pub async fn show(
    PageLang(lang): PageLang,
    State(state): State<AppState>,
    Path((_, id)): Path<(String, String)>,
    uri: Uri,
) -> Result<Response, PageError> {
    let ui = Ui::new(lang);
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
    let meta = PageMeta::new(&ui, article.title.clone(), "articles", &uri);
    render(
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
        },
    )
}
