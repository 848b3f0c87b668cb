//! Localized interface and diagnosis messages, from Fluent files in `locales/<lang>/`.
//!
//! The files are compiled into the binary, so the server needs nothing beside it at run time.
//! A message missing in one language falls back to English, then to its id, so a gap shows
//! up as an English sentence rather than an error page.

use std::collections::HashMap;
use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};
use unic_langid::LanguageIdentifier;

use super::Lang;

/// Every Fluent file, by language. Add a file here when you add one to `locales/`.
const SOURCES: &[(Lang, &str, &str)] = &[
    (Lang::Ar, "ui.ftl", include_str!("../../locales/ar/ui.ftl")),
    (Lang::Hi, "ui.ftl", include_str!("../../locales/hi/ui.ftl")),
    (Lang::Fr, "ui.ftl", include_str!("../../locales/fr/ui.ftl")),
    (Lang::En, "ui.ftl", include_str!("../../locales/en/ui.ftl")),
    (
        Lang::Ar,
        "diagnosis.ftl",
        include_str!("../../locales/ar/diagnosis.ftl"),
    ),
    (
        Lang::Hi,
        "diagnosis.ftl",
        include_str!("../../locales/hi/diagnosis.ftl"),
    ),
    (
        Lang::Fr,
        "diagnosis.ftl",
        include_str!("../../locales/fr/diagnosis.ftl"),
    ),
    (
        Lang::En,
        "diagnosis.ftl",
        include_str!("../../locales/en/diagnosis.ftl"),
    ),
];

pub struct Messages {
    bundles: HashMap<Lang, FluentBundle<FluentResource>>,
}

/// The Fluent sources compiled in: language, file name and text.
pub fn sources() -> &'static [(Lang, &'static str, &'static str)] {
    SOURCES
}

/// Problems in the Fluent files, as `lang/file: message`; tests assert there are none.
pub fn source_problems() -> Vec<String> {
    build().1
}

static MESSAGES: LazyLock<Messages> = LazyLock::new(|| build().0);

pub fn messages() -> &'static Messages {
    &MESSAGES
}

fn build() -> (Messages, Vec<String>) {
    let mut problems = Vec::new();
    let mut bundles = HashMap::new();
    for lang in Lang::ALL {
        let langid: LanguageIdentifier = lang.code().parse().unwrap_or_default();
        let mut bundle = FluentBundle::new_concurrent(vec![langid]);
        // Isolation marks (U+2068/U+2069) would show up in JSON answers and plain-text
        // contexts; pages isolate numbers with <bdi> instead.
        bundle.set_use_isolating(false);
        for (_, file, source) in SOURCES.iter().filter(|(l, _, _)| *l == lang) {
            let resource = match FluentResource::try_new((*source).to_owned()) {
                Ok(resource) => resource,
                Err((resource, errors)) => {
                    for error in errors {
                        problems.push(format!("{lang}/{file}: {error:?}"));
                    }
                    resource
                }
            };
            if let Err(errors) = bundle.add_resource(resource) {
                for error in errors {
                    problems.push(format!("{lang}/{file}: {error}"));
                }
            }
        }
        bundles.insert(lang, bundle);
    }
    (Messages { bundles }, problems)
}

impl Messages {
    /// The message `id` in `lang`, else in English, else the id itself.
    pub fn format(&self, lang: Lang, id: &str, args: Option<&FluentArgs<'_>>) -> String {
        [lang, Lang::En]
            .iter()
            .find_map(|l| self.try_format(*l, id, args))
            .unwrap_or_else(|| id.to_owned())
    }

    pub fn has(&self, lang: Lang, id: &str) -> bool {
        self.bundles.get(&lang).is_some_and(|b| b.has_message(id))
    }

    fn try_format(&self, lang: Lang, id: &str, args: Option<&FluentArgs<'_>>) -> Option<String> {
        let bundle = self.bundles.get(&lang)?;
        let pattern = bundle.get_message(id)?.value()?;
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, args, &mut errors);
        if !errors.is_empty() {
            tracing::warn!(%lang, id, ?errors, "message formatted with errors");
        }
        Some(text.into_owned())
    }

    /// Ids defined in `lang`, for completeness tests.
    pub fn ids(&self, lang: Lang) -> Vec<String> {
        let Some(bundle) = self.bundles.get(&lang) else {
            return Vec::new();
        };
        SOURCES
            .iter()
            .filter(|(l, _, _)| *l == lang)
            .flat_map(|(_, _, source)| message_ids(source))
            .filter(|id| bundle.has_message(id))
            .collect()
    }
}

fn message_ids(source: &str) -> Vec<String> {
    source
        .lines()
        .filter(|line| line.starts_with(|c: char| c.is_ascii_alphabetic()))
        .filter_map(|line| line.split_once('=').map(|(id, _)| id.trim().to_owned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fluent_files_parse_without_errors() {
        assert_eq!(source_problems(), Vec::<String>::new());
    }

    #[test]
    fn every_language_defines_every_english_message() {
        let english = messages().ids(Lang::En);
        for lang in [Lang::Ar, Lang::Hi, Lang::Fr] {
            let missing: Vec<&String> = english
                .iter()
                .filter(|id| !messages().has(lang, id))
                .collect();
            assert!(missing.is_empty(), "{lang} lacks {missing:?}");
        }
    }

    #[test]
    fn unknown_ids_fall_back_to_the_id() {
        assert_eq!(
            messages().format(Lang::Ar, "no-such-id", None),
            "no-such-id"
        );
    }
}
