use std::collections::BTreeMap;

use super::glossary::Glossary;
use super::model::Article;
use crate::i18n::Lang;

/// Every loaded article, grouped by id.
#[derive(Debug, Default, Clone)]
pub struct Library {
    articles: Vec<Article>,
    groups: BTreeMap<String, BTreeMap<Lang, usize>>,
    glossaries: BTreeMap<Lang, Glossary>,
}

/// The order in which other languages stand in for a missing translation.
const FALLBACK_ORDER: [Lang; 4] = [Lang::En, Lang::Fr, Lang::Ar, Lang::Hi];

impl Library {
    /// Builds a library; the caller has already removed duplicate (id, lang) pairs.
    pub fn new(articles: Vec<Article>) -> Self {
        let mut groups: BTreeMap<String, BTreeMap<Lang, usize>> = BTreeMap::new();
        for (index, article) in articles.iter().enumerate() {
            groups
                .entry(article.id.clone())
                .or_default()
                .entry(article.lang)
                .or_insert(index);
        }
        Library {
            articles,
            groups,
            glossaries: BTreeMap::new(),
        }
    }

    pub fn with_glossaries(mut self, glossaries: BTreeMap<Lang, Glossary>) -> Self {
        self.glossaries = glossaries;
        self
    }

    /// The glossary of a language, if the content has one.
    pub fn glossary(&self, lang: Lang) -> Option<&Glossary> {
        self.glossaries.get(&lang)
    }

    pub fn articles(&self) -> &[Article] {
        &self.articles
    }

    pub fn len(&self) -> usize {
        self.articles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.articles.is_empty()
    }

    pub fn group_ids(&self) -> impl Iterator<Item = &str> {
        self.groups.keys().map(String::as_str)
    }

    pub fn get(&self, id: &str, lang: Lang) -> Option<&Article> {
        let index = *self.groups.get(id)?.get(&lang)?;
        self.articles.get(index)
    }

    /// Group `id` in `lang`, or the best stand-in; the flag says whether it is a stand-in.
    pub fn resolve(&self, id: &str, lang: Lang) -> Option<(&Article, bool)> {
        if let Some(article) = self.get(id, lang) {
            return Some((article, false));
        }
        FALLBACK_ORDER
            .iter()
            .find_map(|&other| self.get(id, other))
            .map(|article| (article, true))
    }

    /// The languages group `id` exists in.
    pub fn translations(&self, id: &str) -> Vec<Lang> {
        self.groups
            .get(id)
            .map(|langs| langs.keys().copied().collect())
            .unwrap_or_default()
    }

    /// One article per group, in `lang` when it exists, else the best stand-in.
    pub fn listing(&self, lang: Lang) -> Vec<(&Article, bool)> {
        self.groups
            .keys()
            .filter_map(|id| self.resolve(id, lang))
            .collect()
    }
}
