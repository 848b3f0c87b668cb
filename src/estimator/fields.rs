//! Reading an estimator input from a JSON body or from query-string pairs (links, forms, the
//! command line) into the same typed value, with an error that names the field it is about.
//!
//! The field list of an input type is read from its serialized default, so it cannot drift
//! from the type; a value is deserialized once, through `serde_path_to_error`, which says
//! which field failed.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::input::{InvalidInput, Problem};

/// Characters of a serde message kept in an error: enough for "expected one of …".
const MAX_MESSAGE_CHARS: usize = 300;
/// Characters of a field name echoed back.
const MAX_FIELD_CHARS: usize = 64;

/// Why a JSON body is not an input.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BodyError {
    #[error("the body is not valid JSON: {0}")]
    NotJson(String),
    #[error("the body must be a JSON object of fields")]
    NotAnObject,
    #[error(transparent)]
    Field(#[from] InvalidInput),
}

/// The field names of an input type, read from its serialized default.
pub fn field_names<T: Serialize + Default>() -> Vec<String> {
    match serde_json::to_value(T::default()) {
        Ok(Value::Object(map)) => map.into_iter().map(|(k, _)| k).collect(),
        _ => Vec::new(),
    }
}

/// `T` from a JSON body.
pub fn from_json<T>(body: &[u8]) -> Result<T, BodyError>
where
    T: DeserializeOwned + Serialize + Default,
{
    let value: Value =
        serde_json::from_slice(body).map_err(|e| BodyError::NotJson(e.to_string()))?;
    let Value::Object(fields) = value else {
        return Err(BodyError::NotAnObject);
    };
    refuse_unknown::<T>(fields.keys().map(String::as_str))?;
    serde_path_to_error::deserialize(Value::Object(fields)).map_err(|e| invalid(e).into())
}

/// `T` from `name=value` pairs as a query string or a form sends them; empty values mean
/// "the default" (an empty form field).
pub fn from_pairs<'a, T, I>(pairs: I) -> Result<T, InvalidInput>
where
    T: DeserializeOwned + Serialize + Default,
    I: IntoIterator<Item = (&'a str, &'a str)>,
{
    let given: Vec<(&str, &str)> = pairs
        .into_iter()
        .map(|(k, v)| (k, v.trim()))
        .filter(|(_, v)| !v.is_empty())
        .collect();
    refuse_unknown::<T>(given.iter().map(|(k, _)| *k))?;
    let encoded = serde_urlencoded::to_string(&given).unwrap_or_default();
    let deserializer =
        serde_urlencoded::Deserializer::new(form_urlencoded::parse(encoded.as_bytes()));
    serde_path_to_error::deserialize(deserializer).map_err(invalid)
}

fn refuse_unknown<'a, T: Serialize + Default>(
    mut keys: impl Iterator<Item = &'a str>,
) -> Result<(), InvalidInput> {
    let mut known = field_names::<T>();
    let Some(unknown) = keys.find(|key| !known.iter().any(|k| k == key)) else {
        return Ok(());
    };
    known.sort_unstable();
    let field: String = unknown.chars().take(MAX_FIELD_CHARS).collect();
    Err(InvalidInput {
        message: format!(
            "unknown field `{field}`; the fields are: {}",
            known.join(", ")
        ),
        field,
        problem: Problem::Unknown,
    })
}

fn invalid<E: std::fmt::Display>(error: serde_path_to_error::Error<E>) -> InvalidInput {
    let field: String = error
        .path()
        .to_string()
        .chars()
        .take(MAX_FIELD_CHARS)
        .collect();
    let detail: String = error
        .inner()
        .to_string()
        .chars()
        .take(MAX_MESSAGE_CHARS)
        .collect();
    InvalidInput {
        message: format!("{field}: {detail}"),
        field,
        problem: Problem::Invalid,
    }
}

/// The given pairs as a JSON object of typed values, for showing the API body that a form
/// stands for: only the fields given, each as the input type reads it.
pub fn given_as_json<'a, T>(
    input: &T,
    given: impl IntoIterator<Item = &'a str>,
) -> Map<String, Value>
where
    T: Serialize,
{
    let Ok(Value::Object(all)) = serde_json::to_value(input) else {
        return Map::new();
    };
    let given: Vec<&str> = given.into_iter().collect();
    all.into_iter()
        .filter(|(k, v)| given.contains(&k.as_str()) && !v.is_null())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimator::{EstimateInput, Precision};

    #[test]
    fn json_and_query_pairs_give_the_same_input() {
        let from_body: EstimateInput =
            from_json(br#"{"n_layer": 12, "n_head": 12, "n_embd": 768, "precision": "fp32", "compile": true, "gpu_memory_gib": 24}"#)
                .unwrap();
        let from_query: EstimateInput = from_pairs([
            ("n_layer", "12"),
            ("n_head", "12"),
            ("n_embd", " 768 "),
            ("precision", "fp32"),
            ("compile", "true"),
            ("gpu_memory_gib", "24"),
            ("dropout", ""),
        ])
        .unwrap();
        assert_eq!(from_body, from_query);
        assert_eq!(from_query.precision, Precision::Fp32);
    }

    #[test]
    fn a_wrong_value_names_its_field() {
        let error =
            from_pairs::<EstimateInput, _>([("n_layer", "12"), ("precision", "fp8")]).unwrap_err();
        assert_eq!(
            (error.field.as_str(), error.problem),
            ("precision", Problem::Invalid)
        );
        let error = from_pairs::<EstimateInput, _>([("batch_size", "eight")]).unwrap_err();
        assert_eq!(error.field, "batch_size");
        match from_json::<EstimateInput>(br#"{"n_layer": "twelve"}"#) {
            Err(BodyError::Field(error)) => assert_eq!(error.field, "n_layer"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn unknown_fields_and_other_bodies_are_refused() {
        let error = from_pairs::<EstimateInput, _>([("n_layers", "12")]).unwrap_err();
        assert_eq!(
            (error.field.as_str(), error.problem),
            ("n_layers", Problem::Unknown)
        );
        assert!(matches!(
            from_json::<EstimateInput>(b"[1]"),
            Err(BodyError::NotAnObject)
        ));
        assert!(matches!(
            from_json::<EstimateInput>(b"{"),
            Err(BodyError::NotJson(_))
        ));
    }
}
