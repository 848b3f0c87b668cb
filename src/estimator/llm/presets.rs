//! The preset models: `src/estimator/llm/models.yaml`, compiled into the binary (nothing is fetched at
//! run time), read once.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use super::model::HfConfig;

const MODELS_YAML: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/src/estimator/llm/models.yaml"
));

/// One preset: its Hugging Face id, a display name, the published parameter count and
/// where it is published, and the config fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    pub id: String,
    pub name: String,
    pub parameters: u64,
    pub source: String,
    pub config: HfConfig,
}

static PRESETS: LazyLock<Vec<Preset>> = LazyLock::new(|| {
    // The file is part of the source tree; the presets test parses it, so a broken file
    // fails the build's tests rather than a request.
    serde_norway::from_str(MODELS_YAML).unwrap_or_default()
});

/// Every preset, in the file's order.
pub fn presets() -> &'static [Preset] {
    &PRESETS
}

/// The preset with this id (case-insensitive, as the Hub treats ids).
pub fn preset(id: &str) -> Option<&'static Preset> {
    let id = id.trim();
    PRESETS.iter().find(|p| p.id.eq_ignore_ascii_case(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_preset_file_parses_and_has_at_least_25_models() {
        let parsed: Vec<Preset> =
            serde_norway::from_str(MODELS_YAML).expect("src/estimator/llm/models.yaml");
        assert!(parsed.len() >= 25, "{}", parsed.len());
        assert_eq!(presets().len(), parsed.len());
        let mut ids: Vec<&str> = parsed.iter().map(|p| p.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), parsed.len(), "duplicate ids");
    }

    #[test]
    fn every_preset_counts_its_published_parameters_exactly() {
        let mut wrong = Vec::new();
        for p in presets() {
            let arch = p.config.architecture().expect(&p.id);
            let counted = arch.parameters().total;
            if counted != p.parameters {
                wrong.push(format!(
                    "{}: counted {counted}, published {} ({:+})",
                    p.id,
                    p.parameters,
                    counted as i128 - p.parameters as i128
                ));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn lookup_ignores_case() {
        assert!(preset("META-LLAMA/Llama-3.1-8B").is_some());
        assert!(preset("no/such-model").is_none());
    }
}
