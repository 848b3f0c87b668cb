//! The pieces of a calculator form: fields, choices, the error beside a field, and the query
//! string the form is read from.

use std::collections::BTreeMap;

/// A field of a form: its name, input kind and step.
pub type FieldSpec = (&'static str, &'static str, &'static str);

use super::super::Ui;
use crate::estimator::{self, InvalidInput};
use crate::web::ApiError;

pub struct Choice {
    pub value: String,
    pub label: String,
    pub selected: bool,
}

/// One input of a calculator form.
pub struct Field {
    pub name: &'static str,
    pub label: String,
    /// `number`, `text` or `select`.
    pub kind: &'static str,
    pub step: &'static str,
    pub value: String,
    pub choices: Vec<Choice>,
    pub placeholder: String,
    pub error: Option<FieldError>,
}

pub struct FieldError {
    pub text: String,
    pub detail: String,
}

pub struct Fieldset {
    pub legend: String,
    pub fields: Vec<Field>,
}

/// A query string from a map; values are percent-encoded.
pub(super) fn query_string(map: &BTreeMap<String, String>) -> String {
    serde_urlencoded::to_string(map).unwrap_or_default()
}

/// Query parameters the form understands, without unknown ones (tracking tags, old links).
pub(super) fn known_query<T>(query: &BTreeMap<String, String>) -> BTreeMap<String, String>
where
    T: serde::Serialize + Default,
{
    let known = estimator::field_names::<T>();
    query
        .iter()
        .filter(|(k, _)| known.iter().any(|f| f == *k))
        .map(|(k, v)| (k.clone(), v.chars().take(64).collect()))
        .collect()
}

/// The query's non-empty pairs, as the estimator's parsers take them.
pub(super) fn pairs(query: &BTreeMap<String, String>) -> impl Iterator<Item = (&str, &str)> {
    query
        .iter()
        .filter(|(_, v)| !v.trim().is_empty())
        .map(|(k, v)| (k.as_str(), v.as_str()))
}

/// The error shown beside its field: the API's code names the sentence.
pub(super) fn field_error(ui: &Ui, error: &InvalidInput) -> (String, FieldError) {
    let code = ApiError::from(error.clone()).code();
    (
        error.field.clone(),
        FieldError {
            text: ui.t(&format!("calc-error-{}", code.name())),
            detail: error.message.clone(),
        },
    )
}

pub(super) fn choices<T: Copy + PartialEq>(
    ui: &Ui,
    all: &[T],
    text: fn(T) -> &'static str,
    prefix: &str,
    current: &str,
) -> Vec<Choice> {
    all.iter()
        .map(|&v| {
            let value = text(v);
            Choice {
                value: value.to_owned(),
                label: ui.t(&format!("{prefix}-{value}")),
                selected: value == current,
            }
        })
        .collect()
}

pub(super) fn yes_no(ui: &Ui, current: &str) -> Vec<Choice> {
    ["true", "false"]
        .iter()
        .map(|v| Choice {
            value: (*v).to_owned(),
            label: ui.t(if *v == "true" { "yes" } else { "no" }),
            selected: *v == current,
        })
        .collect()
}
