//! `/{lang}/calculators/…`: GET forms whose query parameters are the fields of
//! `POST /api/v1/estimate` and `/api/v1/allocation`, so a link (an article's `calc:` link, a
//! diagnosis) opens them prefilled and submitting the form shows the results on the same
//! page. One module per calculator; the form pieces and presets they share beside them.

mod allocation;
mod form;
mod llm;
mod presets;
mod training;

use askama::Template;
use axum::http::Uri;
use axum::response::Response;

use super::{PageError, PageLang, PageMeta, Ui, render};

pub use allocation::allocation;
pub use llm::llm_memory;
pub use training::training_memory;

#[derive(Template)]
#[template(path = "calculators.html")]
struct IndexPage<'a> {
    ui: &'a Ui,
    meta: &'a PageMeta,
}

pub async fn index(PageLang(lang): PageLang, uri: Uri) -> Result<Response, PageError> {
    let ui = Ui::new(lang);
    let meta = PageMeta::new(&ui, ui.t("calc-index-title"), "calculators", &uri);
    render(
        &ui,
        &IndexPage {
            ui: &ui,
            meta: &meta,
        },
    )
}
