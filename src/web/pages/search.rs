//! `/{lang}/search?q=` (typed words) and `/{lang}/match` (a pasted error: POST from the
//! home page's form, or GET `?text=` from a link): the engine's answers as pages.

use askama::Template;
use axum::Form;
use axum::extract::rejection::FormRejection;
use axum::extract::{Query, State};
use axum::http::Uri;
use axum::response::Response;
use serde::Deserialize;

use super::charts::Figure;
use super::charts::{GpuFigures, gpu_picture};
use super::{PageError, PageLang, PageMeta, Ui, dir, isolate_figures, native_name, render};
use crate::i18n::Lang;
use crate::reading::{Question, Situation};
use crate::search::{AnswerState, Hit, MatchOutcome};
use crate::web::{AppState, MAX_QUERY_BYTES, MAX_TEXT_BYTES};

const RESULTS: usize = 5;
const SEARCH_RESULTS: usize = 10;
/// Innermost frames shown: where the error happened, not the whole stack.
const FRAMES_SHOWN: usize = 4;

/// A hit as a page shows it.
pub struct HitView {
    pub title: String,
    pub summary: String,
    pub url: String,
    pub lang: &'static str,
    pub dir: &'static str,
    pub fallback_note: Option<String>,
    pub section_title: Option<String>,
    pub section_url: Option<String>,
    pub snippet: String,
    /// "Confidence: 87 %".
    pub confidence: String,
    pub translations: Vec<(&'static str, &'static str, String)>,
    /// Where its "Did this fix it?" form posts; `None` without a database to keep votes.
    pub feedback_action: Option<String>,
    /// The section the fix is in, sent with the vote.
    pub section_id: Option<String>,
    /// The logged match or search the hit came from, sent with the vote.
    pub match_id: Option<String>,
}

/// How sure the answer is, as the page says it: a class for the style, the sentence, and
/// the heading of the results.
pub struct AnswerView {
    pub state: &'static str,
    pub message: String,
    pub results_title: String,
}

fn answer_view(ui: &Ui, answer: AnswerState, typed: bool) -> AnswerView {
    let message = match answer {
        AnswerState::Confident => ui.t("answer-confident"),
        AnswerState::Uncertain => ui.t("answer-uncertain"),
        AnswerState::None if typed => ui.t("answer-none-search"),
        AnswerState::None => ui.t("answer-none"),
    };
    let results_title = match answer {
        AnswerState::Confident => ui.t("match-fixes"),
        AnswerState::Uncertain | AnswerState::None => ui.t("answer-closest"),
    };
    AnswerView {
        state: answer.as_str(),
        message,
        results_title,
    }
}

/// `match_id`: the logged answer the hit belongs to, when the server keeps votes (each hit
/// then gets its Yes / No form).
fn hit_view(ui: &Ui, hit: &Hit, match_id: Option<&str>) -> HitView {
    let votes = match_id.is_some();
    HitView {
        title: hit.title.clone(),
        summary: hit.summary.clone(),
        url: hit.url.clone(),
        lang: hit.lang.code(),
        dir: dir(hit.lang),
        fallback_note: hit
            .fallback
            .then(|| ui.t1("hit-fallback", "other", native_name(hit.lang))),
        section_title: hit.section.as_ref().map(|s| s.title.clone()),
        section_url: hit.section.as_ref().map(|s| s.url.clone()),
        snippet: hit.snippet.clone(),
        confidence: ui.t1(
            "hit-confidence",
            "percent",
            &ui.percent(f64::from(hit.confidence)),
        ),
        translations: hit
            .translations
            .iter()
            .map(|&l| {
                (
                    l.code(),
                    native_name(l),
                    format!("/{}/articles/{}", l.code(), hit.id),
                )
            })
            .collect(),
        // The article page the hit links to (its own language) takes the vote, so the
        // section named is one of that article's.
        feedback_action: votes
            .then(|| format!("/{}/articles/{}/feedback", hit.lang.code(), hit.id)),
        section_id: hit.section.as_ref().map(|s| s.id.clone()),
        match_id: match_id.map(str::to_owned),
    }
}

#[derive(Deserialize)]
pub struct SearchParams {
    q: Option<String>,
    /// The language of the articles; the page's own by default.
    #[serde(rename = "in")]
    results_lang: Option<String>,
}

pub struct LangChoice {
    pub code: &'static str,
    pub name: &'static str,
    pub selected: bool,
}

#[derive(Template)]
#[template(path = "search.html")]
struct SearchPage<'a> {
    ui: &'a Ui,
    meta: &'a PageMeta,
    query: String,
    langs: Vec<LangChoice>,
    error: Option<String>,
    answer: Option<AnswerView>,
    hits: Option<Vec<HitView>>,
}

pub async fn search(
    PageLang(lang): PageLang,
    State(state): State<AppState>,
    Query(params): Query<SearchParams>,
    uri: Uri,
) -> Result<Response, PageError> {
    let ui = Ui::new(lang);
    let results_lang = params
        .results_lang
        .as_deref()
        .and_then(|code| Lang::ALL.iter().copied().find(|l| l.code() == code))
        .unwrap_or(lang);
    let query = params.q.unwrap_or_default();
    let (error, answer, hits) = if query.len() > MAX_QUERY_BYTES {
        (Some(ui.t("search-too-long")), None, None)
    } else if query.trim().is_empty() {
        (None, None, None)
    } else {
        let (found, match_id) = state
            .run_search(query.clone(), results_lang, SEARCH_RESULTS)
            .await
            .map_err(|e| PageError::Internal(lang, format!("search task: {e}")))?;
        let votes = state.store().is_some().then_some(match_id.as_str());
        (
            None,
            Some(answer_view(&ui, found.answer, true)),
            Some(
                found
                    .results
                    .iter()
                    .map(|h| hit_view(&ui, h, votes))
                    .collect(),
            ),
        )
    };
    let title = if query.trim().is_empty() || error.is_some() {
        ui.t("search-title")
    } else {
        ui.t1("search-results-for", "query", &shorten(&query, 80))
    };
    let meta = PageMeta::new(&ui, title, "search", &uri);
    let langs = Lang::ALL
        .iter()
        .map(|&l| LangChoice {
            code: l.code(),
            name: native_name(l),
            selected: l == results_lang,
        })
        .collect();
    render(
        &ui,
        &SearchPage {
            ui: &ui,
            meta: &meta,
            query,
            langs,
            error,
            answer,
            hits,
        },
    )
}

fn shorten(text: &str, chars: usize) -> String {
    let mut out: String = text.chars().take(chars).collect();
    if text.chars().nth(chars).is_some() {
        out.push('…');
    }
    out
}

#[derive(Deserialize, Default)]
pub struct MatchForm {
    #[serde(default)]
    text: String,
    /// The reader's answer to the page's "what were you doing?" question.
    #[serde(default)]
    situation: Option<String>,
}

pub struct FrameView {
    pub file: String,
    pub line: String,
    pub function: String,
}

pub struct DiagnosisView {
    pub kind: String,
    pub exception: Option<String>,
    /// Sentences as HTML, figures isolated (see [`isolate_figures`]).
    pub explanation: Vec<String>,
    pub frames: Vec<FrameView>,
    pub figures: Vec<(String, String)>,
    pub picture: Option<Figure>,
    pub calculator_url: Option<String>,
}

#[derive(Template)]
#[template(path = "match.html")]
struct MatchPage<'a> {
    ui: &'a Ui,
    meta: &'a PageMeta,
    text: String,
    error: Option<String>,
    diagnosis: Option<DiagnosisView>,
    answer: Option<AnswerView>,
    ask: Option<Question>,
    hits: Vec<HitView>,
}

pub async fn match_get(
    PageLang(lang): PageLang,
    State(state): State<AppState>,
    Query(form): Query<MatchForm>,
    uri: Uri,
) -> Result<Response, PageError> {
    match_page(lang, state, form, uri).await
}

pub async fn match_post(
    PageLang(lang): PageLang,
    State(state): State<AppState>,
    uri: Uri,
    form: Result<Form<MatchForm>, FormRejection>,
) -> Result<Response, PageError> {
    // A body that is not a form reads as an empty paste: the page asks for one.
    let form = form.map(|Form(f)| f).unwrap_or_default();
    match_page(lang, state, form, uri).await
}

async fn match_page(
    lang: Lang,
    state: AppState,
    form: MatchForm,
    uri: Uri,
) -> Result<Response, PageError> {
    let ui = Ui::new(lang);
    let text = form.text;
    // A page cannot show a field error next to a button the reader pressed: an unknown
    // situation (an edited URL) is simply not stated.
    let stated = form.situation.as_deref().and_then(Situation::stated);
    let (error, outcome) = if text.len() > MAX_TEXT_BYTES {
        (Some(ui.t("match-too-long")), None)
    } else if text.trim().is_empty() {
        (Some(ui.t("match-empty")), None)
    } else {
        let answer = state
            .run_match(text.clone(), lang, RESULTS, stated)
            .await
            .map_err(|e| PageError::Internal(lang, format!("match task: {e}")))?;
        (None, Some(answer))
    };
    let mut meta = PageMeta::new(&ui, ui.t("match-title"), "paste", &uri);
    // The switcher re-sends the paste with the form: the results of a POST cannot be
    // reached by a link, and a long paste in four links would bloat the page.
    meta.switch_form = Some("paste");
    // Each choice is a button that sends the paste again with that answer.
    let ask = outcome
        .as_ref()
        .and_then(|(outcome, _)| outcome.ask.clone());
    let (diagnosis, answer, hits) = match &outcome {
        Some((outcome, match_id)) => (
            Some(diagnosis_view(&ui, outcome)),
            Some(answer_view(&ui, outcome.answer, false)),
            outcome
                .results
                .iter()
                .map(|h| hit_view(&ui, h, state.store().is_some().then_some(match_id.as_str())))
                .collect(),
        ),
        None => (None, None, Vec::new()),
    };
    render(
        &ui,
        &MatchPage {
            ui: &ui,
            meta: &meta,
            text,
            error,
            diagnosis,
            answer,
            ask,
            hits,
        },
    )
}

fn diagnosis_view(ui: &Ui, outcome: &MatchOutcome) -> DiagnosisView {
    let d = &outcome.diagnosis;
    let f = &d.facts;
    let others = match (f.total_capacity_bytes, f.free_bytes, f.process_in_use_bytes) {
        (Some(total), Some(free), Some(process)) => total.checked_sub(free + process),
        _ => None,
    };
    let figures = [
        ("fig-requested", f.tried_to_allocate_bytes),
        ("fig-free", f.free_bytes),
        ("fig-reserved-unallocated", f.reserved_unallocated_bytes),
        ("fig-others", others.filter(|&o| o > 0)),
        ("fig-process", f.process_in_use_bytes),
        ("fig-allocated", f.allocated_by_pytorch_bytes),
        ("fig-capacity", f.total_capacity_bytes),
    ]
    .into_iter()
    .filter_map(|(id, value)| value.map(|v| (ui.t(id), ui.bytes(v))))
    .collect();
    let picture = gpu_picture(
        ui,
        &GpuFigures {
            requested: f.tried_to_allocate_bytes,
            total: f.total_capacity_bytes,
            free: f.free_bytes,
            process_in_use: f.process_in_use_bytes,
            reserved_unallocated: f.reserved_unallocated_bytes,
            allocated_by_pytorch: f.allocated_by_pytorch_bytes,
        },
    );
    let skip = d.frames.len().saturating_sub(FRAMES_SHOWN);
    DiagnosisView {
        kind: ui.t(&format!("kind-{}", d.kind.as_str())),
        exception: d.exception.clone(),
        explanation: d.explanation.iter().map(|s| isolate_figures(s)).collect(),
        frames: d.frames[skip..]
            .iter()
            .map(|frame| FrameView {
                file: frame.file.clone(),
                line: frame.line.map(|l| l.to_string()).unwrap_or_default(),
                function: frame.function.clone(),
            })
            .collect(),
        figures,
        picture,
        calculator_url: d.calculator_url.clone(),
    }
}
