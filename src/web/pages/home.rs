//! `/{lang}/`: the paste box, examples, and the ways in (search, topics, calculators).

use askama::Template;
use axum::http::Uri;
use axum::response::Response;

use super::{PageError, PageLang, PageMeta, Ui, render};

/// Errors as the software prints them (the same in every language), then a question in
/// the reader's own words.
const EXAMPLES: &[(&str, &str)] = &[
    (
        "home-example-oom",
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.14 GiB. GPU 0 has a total capacty of 11.69 GiB of which 2.68 GiB is free.",
    ),
    (
        "home-example-assert",
        "RuntimeError: CUDA error: device-side assert triggered",
    ),
    (
        "home-example-dataloader",
        "RuntimeError: DataLoader worker (pid 4242) is killed by signal: Bus error.",
    ),
    (
        "home-example-device",
        "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!",
    ),
];

pub struct Example {
    pub label: String,
    pub text: String,
}

#[derive(Template)]
#[template(path = "home.html")]
struct HomePage<'a> {
    ui: &'a Ui,
    meta: &'a PageMeta,
    examples: Vec<Example>,
}

pub async fn show(PageLang(lang): PageLang, uri: Uri) -> Result<Response, PageError> {
    let ui = Ui::new(lang);
    let meta = PageMeta::new(&ui, ui.t("home-title"), "paste", &uri);
    let mut examples: Vec<Example> = EXAMPLES
        .iter()
        .map(|(label, text)| Example {
            label: ui.t(label),
            text: (*text).to_owned(),
        })
        .collect();
    examples.push(Example {
        label: ui.t("home-example-words"),
        text: ui.t("home-example-words-text"),
    });
    render(
        &ui,
        &HomePage {
            ui: &ui,
            meta: &meta,
            examples,
        },
    )
}
