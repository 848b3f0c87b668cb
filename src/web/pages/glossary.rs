//! `/{lang}/glossary`: the words the articles use, one per concept, with the English term,
//! a definition, and the everyday words people type for it.

use askama::Template;
use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;

use super::{PageError, PageLang, PageMeta, Ui, render};
use crate::content::Term;
use crate::web::AppState;

#[derive(Template)]
#[template(path = "glossary.html")]
struct GlossaryPage<'a> {
    ui: &'a Ui,
    meta: &'a PageMeta,
    terms: &'a [Term],
}

pub async fn show(
    PageLang(lang): PageLang,
    State(state): State<AppState>,
    uri: Uri,
) -> Result<Response, PageError> {
    let ui = Ui::new(lang);
    let library = state.library();
    let glossary = library.glossary(lang).ok_or(PageError::NotFound(lang))?;
    let meta = PageMeta::new(&ui, ui.t("glossary-title"), "articles", &uri);
    render(
        &ui,
        &GlossaryPage {
            ui: &ui,
            meta: &meta,
            terms: &glossary.terms,
        },
    )
}
