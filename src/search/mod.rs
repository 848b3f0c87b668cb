//! Finding the article that fixes what a person pasted or typed.
//!
//! One [`Engine`] per content snapshot: the tantivy index of the library (one reader for the
//! process, a searcher per request), the error-signature matcher, and the ranking that joins
//! them with what the traceback parser read from the paste. Pasted text never reaches
//! tantivy's query parser: queries are scored term by term from analyzed tokens, over the
//! index's postings held in memory (see `postings`).
//!
//! Ranking, per article group:
//! `score = 10 × text / best_text + signatures + 16 × (group named by the situation)`, where
//! `text` is the BM25 score of the group's best whole-article document (any language),
//! `signatures` the weight of its `errors:` fragments found in the text, and the situation
//! (training or inference OOM, fragmentation, growth, MPS, host RAM) comes from the figures,
//! frames and words of the paste (see `reading`). The sum is then multiplied by the group's
//! feedback factor (0.9–1.1, from "did this fix it?" votes; see [`feedback`]), so votes only
//! reorder results that were already close. A group is shown in the requested language, or
//! the best other language with `fallback: true`.
//!
//! The engine never reads the paste itself: it takes the [`Reading`] and only retrieves and
//! ranks.

pub mod analyzers;
pub mod confidence;
pub mod feedback;
mod fixes;
mod index;
mod postings;
mod signatures;
mod synonyms;
mod vocabulary;

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};

use rustc_hash::FxHashSet;
use std::sync::{Arc, OnceLock};

use arc_swap::ArcSwap;

use serde::Serialize;

pub use confidence::{AnswerState, Evidence};
pub use feedback::{feedback_factor, helpful_share};

use self::confidence::{answer_state, confidence};

use self::index::{BuiltIndex, prose_analyzer};
use self::signatures::{FoundSignatures, Signatures};
use self::synonyms::{Found, Synonyms};
use crate::content::{Article, Library};
use crate::db::FeedbackCounts;
use crate::i18n::Lang;
use crate::reading::{
    Diagnosis, Fingerprint, MEMORY_FAMILY, Question, Reading, Situation, situation_question,
};
use crate::traceback::ErrorKind;

/// Documents looked at per query: the catalog has a few hundred in all.
const CANDIDATE_DOCS: usize = 300;
/// Distinct terms per field family: enough for any error, bounded for a 256 KiB paste.
const MAX_PROSE_TERMS: usize = 24;
const MAX_CODE_TERMS: usize = 32;
/// Tokens read from a query's text per analyzer: the distinct, known, rarest few are kept.
const MAX_QUERY_TOKENS: usize = 1500;
/// Below this many rare terms, common ones stay in the query.
const MIN_RARE_TERMS: usize = 6;
const SNIPPET_CHARS: usize = 240;
/// Lines of a section weighed for the snippet; fixes say what matters early.
const SNIPPET_LINES: usize = 40;

const TEXT_WEIGHT: f32 = 10.0;
/// A title that holds the words of the query says more than the same words in the body.
const TITLE_BOOST: f32 = 4.0;
const SITUATION_WEIGHT: f32 = 16.0;
const TYPED_SITUATION_WEIGHT: f32 = 6.0;
/// A concept's own word found through a typed synonym, and a known word a typo meant: both
/// count less than a word typed as the articles write it, so an exact match leads.
const SYNONYM_WEIGHT: f32 = 0.7;
/// Added to the group whose article holds a fix the typed words name.
const FIX_CONCEPT_WEIGHT: f32 = 6.0;
const TYPO_WEIGHT: f32 = 0.5;
const SPOKEN_WEIGHT: f32 = 0.7;

#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error("cannot build the search index: {0}")]
    Index(#[from] tantivy::TantivyError),
}

/// One article group in an answer, shown in one language.
#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    pub id: String,
    pub lang: Lang,
    pub title: String,
    pub summary: String,
    pub url: String,
    pub score: f32,
    /// The probability, calibrated on labelled pastes, that this result fixes the error.
    pub confidence: f32,
    /// What ranked it; kept for calibration, not part of the answer.
    #[serde(skip)]
    pub evidence: Evidence,
    pub fallback: bool,
    pub section: Option<SectionHit>,
    pub snippet: String,
    pub translations: Vec<Lang>,
    /// `Title › Section — URL`, ready to quote; only when the server knows its public
    /// address (set by the API, not the engine).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub citation: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SectionHit {
    pub id: String,
    pub title: String,
    pub url: String,
    /// The section's Markdown (code blocks intact) in the result's language.
    pub markdown: String,
}

/// The answer to a paste: what it means and what fixes it.
#[derive(Debug, Clone, Serialize)]
pub struct MatchOutcome {
    pub answer: AnswerState,
    pub lang: Lang,
    pub diagnosis: Diagnosis,
    pub results: Vec<Hit>,
    /// The question whose answer would settle a guessed situation: send one of its choices
    /// back as `situation` with the same text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ask: Option<Question>,
    /// What the query log keeps of the paste; not part of the answer.
    #[serde(skip)]
    pub fingerprint: Fingerprint,
}

/// The answer to typed words.
#[derive(Debug, Clone)]
pub struct SearchOutcome {
    pub answer: AnswerState,
    pub results: Vec<Hit>,
    pub fingerprint: Fingerprint,
}

pub struct Engine {
    library: Arc<Library>,
    index: BuiltIndex,
    signatures: Signatures,
    synonyms: Synonyms,
    /// Per group, the factor its feedback applies to its score (absent: 1).
    feedback: ArcSwap<HashMap<String, f32>>,
    /// Per snippet source (an article's summary, or one of its sections' text, by article
    /// id, language and section id), the words of its lines as the article's analyzer reads
    /// them: analyzed once, when a result first shows it.
    snippet_words: HashMap<SnippetSource, OnceLock<Vec<Vec<String>>>>,
}

/// An article's summary (empty section id) or one of its sections: article id, language,
/// section id.
type SnippetSource = (String, Lang, String);

/// The analyzed terms of a query, per field family, each with the weight of its clauses.
struct QueryTerms {
    prose: Vec<(Lang, Vec<(String, f32)>)>,
    code: Vec<String>,
}

impl Engine {
    pub fn build(library: Arc<Library>) -> Result<Self, SearchError> {
        let index = index::build(&library)?;
        let signatures = Signatures::new(&library);
        let synonyms = Synonyms::new(&library);
        let mut snippet_words = HashMap::new();
        for article in library.articles() {
            let sections = article.sections.iter().map(|s| s.id.clone());
            for section in std::iter::once(String::new()).chain(sections) {
                let key = (article.id.clone(), article.lang, section);
                snippet_words.insert(key, OnceLock::new());
            }
        }
        Ok(Engine {
            library,
            index,
            signatures,
            synonyms,
            feedback: ArcSwap::default(),
            snippet_words,
        })
    }

    /// Takes every group's votes into the ranking.
    pub fn set_feedback(&self, counts: Vec<(String, FeedbackCounts)>) {
        let factors = counts
            .into_iter()
            .map(|(group, counts)| (group, feedback_factor(counts)))
            .collect();
        self.feedback.store(Arc::new(factors));
    }

    pub fn library(&self) -> &Library {
        &self.library
    }

    pub fn library_arc(&self) -> Arc<Library> {
        Arc::clone(&self.library)
    }

    /// Reads a paste (traceback, error line, log, or words) and finds what fixes it.
    /// The result ids do not depend on `lang`; only the language they are shown in does.
    pub fn match_paste(&self, text: &str, lang: Lang, limit: usize) -> MatchOutcome {
        self.match_stated(text, lang, limit, None)
    }

    /// Like [`Engine::match_paste`], for a paste whose reader said where its out-of-memory
    /// error struck (`stated`), typically answering the question a first match asked.
    pub fn match_stated(
        &self,
        text: &str,
        lang: Lang,
        limit: usize,
        stated: Option<Situation>,
    ) -> MatchOutcome {
        let reading = Reading::paste(text, lang);
        let found = self
            .signatures
            .find(text, reading.out_of_memory_message().as_deref());
        let reading = reading.signed(&found.own_messages).stated(stated);
        // A paste's terms count once each, so its repeated words are analyzed once.
        let tokens = self.prose_tokens(
            &reading.prose_langs,
            &reading.prose,
            analyzers::analyze_distinct,
        );
        let terms = self.query_terms(&reading, tokens, &[]);
        let (answer, results) = self.rank(&reading, terms, found, &[], lang, limit);
        MatchOutcome {
            answer,
            lang,
            ask: situation_question(&reading, lang),
            diagnosis: reading.diagnosis.unwrap_or_default(),
            results,
            fingerprint: reading.fingerprint,
        }
    }

    /// Searches typed words (any of ar, hi, fr, en, or error text) and shows hits in `lang`.
    pub fn search(&self, query: &str, lang: Lang, limit: usize) -> SearchOutcome {
        let reading = Reading::query(query, lang);
        // The typed words analysed once: the glossary concepts they name tell the situation
        // (through their English names) and widen the query (through the articles' words).
        // Glossary phrases are read in sequence: every token, repeats included.
        let tokens = self.prose_tokens(
            &reading.prose_langs,
            &reading.prose,
            analyzers::analyze_limited,
        );
        let concepts: Vec<Found> = tokens
            .iter()
            .map(|(lang, tokens)| self.synonyms.find(*lang, tokens))
            .collect();
        let names = english_names(&concepts);
        let fix_groups = fixes::groups_fixing(&names);
        let langs = reading.prose_langs.clone();
        let reading = reading.glossed(&names).contrasted(|part| {
            let concepts: Vec<Found> = self
                .prose_tokens(&langs, part, analyzers::analyze_limited)
                .iter()
                .map(|(lang, tokens)| self.synonyms.find(*lang, tokens))
                .collect();
            english_names(&concepts)
        });
        tracing::debug!(?names, ?fix_groups, situation = ?reading.situation, "typed concepts");
        let terms = self.query_terms(&reading, tokens, &concepts);
        // Typed words name their situation themselves: no library message is read for it.
        let found = self.signatures.find(reading.text, None);
        let (answer, results) = self.rank(&reading, terms, found, &fix_groups, lang, limit);
        SearchOutcome {
            answer,
            results,
            fingerprint: reading.fingerprint,
        }
    }

    /// The words of `prose`, as each of `langs`' analyzers reads them (`analyze`: every
    /// token, or each distinct one).
    fn prose_tokens(
        &self,
        langs: &[Lang],
        prose: &str,
        analyze: fn(&str, &str, usize) -> Vec<String>,
    ) -> Vec<(Lang, Vec<String>)> {
        langs
            .iter()
            .map(|&lang| {
                let analyzer = prose_analyzer(lang);
                let tokens = analyze(analyzer, prose, MAX_QUERY_TOKENS);
                (lang, tokens)
            })
            .collect()
    }

    /// `signatures`: the error fragments found in the text; `fix_groups`: groups whose fixes
    /// the typed words name.
    fn rank(
        &self,
        reading: &Reading<'_>,
        terms: QueryTerms,
        signatures: FoundSignatures,
        fix_groups: &[&str],
        lang: Lang,
        limit: usize,
    ) -> (AnswerState, Vec<Hit>) {
        let (group_text, section_scores) = self.text_scores(&terms);
        let mut signature_scores = signatures.scores;
        let situation_group = reading.situation.group();
        // The out-of-memory message is one for all its situations: the situation's group
        // takes the strongest evidence that message gave any group of its family.
        if let Some(group) = situation_group.filter(|g| MEMORY_FAMILY.contains(g)) {
            let family_best = MEMORY_FAMILY
                .iter()
                .filter_map(|g| signature_scores.get(*g))
                .copied()
                .fold(0.0_f32, f32::max);
            let own = signature_scores.entry(group.to_owned()).or_insert(0.0);
            *own = own.max(family_best);
        }
        let best_text = group_text.values().copied().fold(0.0_f32, f32::max);
        let feedback = self.feedback.load();

        let mut groups: BTreeSet<&str> = group_text.keys().copied().collect();
        groups.extend(signature_scores.keys().map(String::as_str));
        groups.extend(situation_group.filter(|g| !self.library.translations(g).is_empty()));
        groups.extend(
            fix_groups
                .iter()
                .filter(|g| !self.library.translations(g).is_empty()),
        );

        let mut scored: Vec<(f32, &str)> = groups
            .into_iter()
            .map(|group| {
                let text = group_text.get(group).copied().unwrap_or(0.0);
                let mut score = if best_text > 0.0 {
                    TEXT_WEIGHT * text / best_text
                } else {
                    0.0
                };
                score += signature_scores.get(group).copied().unwrap_or(0.0);
                // Training read by default is a guess; a fix the words name is not.
                let situation_counts = !reading.situation_by_default || fix_groups.is_empty();
                if situation_group == Some(group) && situation_counts {
                    // Typed words that say nothing of where the error struck are read by
                    // their text: the training default is only a tie-breaker there.
                    // A fix the words name elsewhere weighs as much as where they say it struck.
                    let typed_guess = reading.situation_by_default || !fix_groups.is_empty();
                    score += if typed_guess && reading.diagnosis.is_none() {
                        TYPED_SITUATION_WEIGHT
                    } else {
                        SITUATION_WEIGHT
                    };
                }
                if fix_groups.contains(&group) {
                    score += FIX_CONCEPT_WEIGHT;
                }
                score *= feedback.get(group).copied().unwrap_or(1.0).clamp(0.9, 1.1);
                (score, group)
            })
            .filter(|(score, _)| *score > 0.0)
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));

        // Snippet lines are picked by the query's words in the language shown, when the
        // query has any (a pasted English traceback has none in Hindi: first lines then).
        let display_terms: Vec<String> = terms
            .prose
            .iter()
            .find(|(l, _)| *l == lang)
            .map(|(_, words)| words.iter().map(|(word, _)| word.clone()).collect())
            .unwrap_or_default();
        let top = scored.first().map_or(0.0, |s| s.0);
        let second = scored.get(1).map_or(0.0, |s| s.0);
        let error_read = !matches!(reading.parsed.kind, ErrorKind::Unknown)
            || reading.parsed.exception.is_some();
        let hits: Vec<Hit> = scored
            .into_iter()
            .take(limit)
            .enumerate()
            .filter_map(|(rank, (score, group))| {
                let (article, fallback) = self.library.resolve(group, lang)?;
                let preferred = reading
                    .preferred_section
                    .filter(|_| situation_group == Some(group));
                let section = choose_section(article, section_scores.get(group), preferred);
                let evidence = Evidence {
                    signature: signature_scores.get(group).copied().unwrap_or(0.0),
                    situation: situation_group == Some(group) && !reading.situation_by_default,
                    guessed: situation_group == Some(group) && reading.situation_by_default,
                    contested: situation_group == Some(group) && reading.situation_contested,
                    text: group_text.get(group).copied().unwrap_or(0.0),
                    share: score / top,
                    lead: if rank == 0 {
                        (score - second) / top
                    } else {
                        (score - top) / top
                    },
                    error_read,
                    typed: reading.diagnosis.is_none(),
                    foreign: reading.parsed.framework.is_some(),
                };
                Some(self.hit(article, fallback, score, evidence, section, &display_terms))
            })
            .collect();
        let answer = answer_state(hits.first().map(|h| (&h.evidence, h.confidence)));
        (answer, hits)
    }

    /// BM25 per group (best whole-article document) and per (group, section).
    #[allow(clippy::type_complexity)]
    fn text_scores(
        &self,
        terms: &QueryTerms,
    ) -> (HashMap<&str, f32>, HashMap<&str, HashMap<&str, f32>>) {
        let mut group_text: HashMap<&str, f32> = HashMap::new();
        let mut section_scores: HashMap<&str, HashMap<&str, f32>> = HashMap::new();
        let top = self.query_scores(terms).top(CANDIDATE_DOCS);
        if top.is_empty() {
            return (group_text, section_scores);
        }
        for (score, position) in top {
            let Some(doc) = self.index.doc_at(position) else {
                continue;
            };
            if doc.section.is_empty() {
                let best = group_text.entry(&doc.group).or_insert(0.0);
                *best = best.max(score);
            } else {
                let best = section_scores
                    .entry(&doc.group)
                    .or_default()
                    .entry(&doc.section)
                    .or_insert(0.0);
                *best = best.max(score);
            }
        }
        (group_text, section_scores)
    }

    /// The BM25 of every document for the query: each term in the title (boosted) and body of
    /// its language, each code term in the error signatures and the code.
    fn query_scores(&self, terms: &QueryTerms) -> postings::Scores<'_> {
        let fields = self.index.fields;
        let mut scores = self.index.postings.scorer();
        for (lang, words) in &terms.prose {
            for (term, weight) in words {
                scores.add(fields.title(*lang), term, TITLE_BOOST * weight);
                scores.add(fields.body(*lang), term, *weight);
            }
        }
        for term in &terms.code {
            scores.add(fields.errors, term, 1.5);
            scores.add(fields.code, term, 0.5);
        }
        scores
    }

    /// Analyzes the query once: the terms of each prose language and of the code fields.
    /// Typed words are widened with what they stand for (glossary synonyms) and what a
    /// mistyped long word meant, both weighed below the words as typed.
    /// `concepts`: what the glossaries found in each language's tokens (typed words only).
    fn query_terms(
        &self,
        reading: &Reading<'_>,
        tokens: Vec<(Lang, Vec<String>)>,
        concepts: &[Found],
    ) -> QueryTerms {
        let typed = reading.diagnosis.is_none();
        let mut prose: Vec<(Lang, Vec<(String, f32)>)> = Vec::new();
        let mut widened: Vec<(Lang, String, f32)> = Vec::new();
        for (position, (lang, tokens)) in tokens.into_iter().enumerate() {
            let analyzer = prose_analyzer(lang);
            if typed {
                for (meant_lang, term) in concepts.get(position).into_iter().flat_map(|f| &f.means)
                {
                    widened.push((*meant_lang, term.clone(), SYNONYM_WEIGHT));
                }
                for token in tokens.iter().filter(|t| written_in_script_of(t, lang)) {
                    if self.index.article_frequency(analyzer, token) > 0 {
                        continue;
                    }
                    let spoken = analyzers::spoken_readings(analyzer, token)
                        .into_iter()
                        .find(|reading| self.index.article_frequency(analyzer, reading) > 0);
                    if let Some(written) = spoken {
                        widened.push((lang, written, SPOKEN_WEIGHT));
                    } else if let Some(known) = self.index.correction(analyzer, token) {
                        widened.push((lang, known.to_owned(), TYPO_WEIGHT));
                    }
                }
            }
            let words = self.known_terms(analyzer, tokens, MAX_PROSE_TERMS);
            prose.push((lang, words.into_iter().map(|w| (w, 1.0)).collect()));
        }
        for (lang, term, weight) in widened {
            if self.index.article_frequency(prose_analyzer(lang), &term) == 0 {
                continue;
            }
            let position = match prose.iter().position(|(l, _)| *l == lang) {
                Some(position) => position,
                None => {
                    prose.push((lang, Vec::new()));
                    prose.len() - 1
                }
            };
            let words = &mut prose[position].1;
            match words.iter_mut().find(|(word, _)| *word == term) {
                Some((_, existing)) => *existing = existing.max(weight),
                None => words.push((term, weight)),
            }
        }
        tracing::debug!(?prose, "query terms");
        QueryTerms {
            prose,
            code: self.known_terms(
                analyzers::CODE,
                analyzers::analyze_distinct(analyzers::CODE, &reading.code, MAX_QUERY_TOKENS),
                MAX_CODE_TERMS,
            ),
        }
    }

    /// The `max` most telling distinct terms of `tokens`: only terms some article has, the
    /// rarest across articles first (ties in text order).
    fn known_terms(&self, analyzer: &'static str, tokens: Vec<String>, max: usize) -> Vec<String> {
        let mut seen = FxHashSet::default();
        let mut terms: Vec<(u32, usize, &str)> = tokens
            .iter()
            .map(String::as_str)
            .filter(|t| seen.insert(*t))
            .enumerate()
            .filter_map(|(position, term)| {
                let frequency = self.index.article_frequency(analyzer, term);
                (frequency > 0).then_some((frequency, position, term))
            })
            .collect();
        terms.sort_unstable();
        // Words in most articles barely move BM25 but walk the longest posting lists; keep
        // them only when the text has little else.
        let common = (self.library.len() as u32 / 3).max(1);
        let rare = terms.iter().filter(|(f, _, _)| *f <= common).count();
        if rare >= MIN_RARE_TERMS {
            terms.retain(|(f, _, _)| *f <= common);
        }
        terms
            .into_iter()
            .take(max)
            .map(|(_, _, term)| term.to_owned())
            .collect()
    }

    /// The analyzed words of each snippet line of `text`, the summary (`section` empty) or a
    /// section of `article`.
    fn snippet_words(
        &self,
        article: &Article,
        section: &str,
        text: &str,
    ) -> Cow<'_, [Vec<String>]> {
        let analyze = || {
            let analyzer = prose_analyzer(article.lang);
            snippet_lines(text)
                .map(|line| analyzers::analyze_limited(analyzer, line, 200))
                .collect()
        };
        let key = (article.id.clone(), article.lang, section.to_owned());
        match self.snippet_words.get(&key) {
            Some(cached) => Cow::Borrowed(cached.get_or_init(analyze)),
            None => Cow::Owned(analyze()),
        }
    }

    fn hit(
        &self,
        article: &Article,
        fallback: bool,
        score: f32,
        evidence: Evidence,
        section: Option<&crate::content::Section>,
        display_terms: &[String],
    ) -> Hit {
        let url = article.url();
        let shown = section.filter(|s| !s.text.is_empty());
        let snippet_source = shown.map_or(article.summary.as_str(), |s| s.text.as_str());
        // A query with no words in the result's language picks no line by its words.
        let words = (!display_terms.is_empty()).then(|| {
            self.snippet_words(article, shown.map_or("", |s| s.id.as_str()), snippet_source)
        });
        Hit {
            id: article.id.clone(),
            lang: article.lang,
            title: article.title.clone(),
            summary: article.summary.clone(),
            score: (score * 1000.0).round() / 1000.0,
            confidence: confidence(&evidence),
            evidence,
            fallback,
            section: section.map(|s| SectionHit {
                id: s.id.clone(),
                title: s.title.clone(),
                url: format!("{url}#{}", s.id),
                markdown: s.markdown.clone(),
            }),
            snippet: snippet(snippet_source, words.as_deref(), display_terms),
            translations: self
                .library
                .translations(&article.id)
                .into_iter()
                .filter(|&l| l != article.lang)
                .collect(),
            url,
            citation: None,
        }
    }
}

/// Whether a term is in the script its analyzer's language is written in: a typo is looked
/// for among one language's words only (Latin words among the French and English ones).
fn written_in_script_of(term: &str, lang: Lang) -> bool {
    let Some(first) = term.chars().next() else {
        return false;
    };
    match lang {
        Lang::Ar => ('\u{0600}'..='\u{06FF}').contains(&first),
        Lang::Hi => ('\u{0900}'..='\u{097F}').contains(&first),
        Lang::Fr | Lang::En => first.is_alphabetic() && (first as u32) < 0x0250,
    }
}

/// The section that holds the fix: the situation's own section when the figures name one,
/// else the best-matching `fix-…` section close to the best match, else the best match, else
/// the first fix.
fn choose_section<'a>(
    article: &'a Article,
    scores: Option<&HashMap<&str, f32>>,
    preferred: Option<&str>,
) -> Option<&'a crate::content::Section> {
    if let Some(section) = preferred.and_then(|id| article.section(id)) {
        return Some(section);
    }
    let score_of = |id: &str| scores.and_then(|s| s.get(id)).copied().unwrap_or(0.0);
    let best = article
        .sections
        .iter()
        .filter(|s| score_of(&s.id) > 0.0)
        .max_by(|a, b| score_of(&a.id).total_cmp(&score_of(&b.id)));
    let first_fix = || article.sections.iter().find(|s| s.id.starts_with("fix"));
    match best {
        Some(best) if best.id.starts_with("fix") => Some(best),
        Some(best) => {
            let best_fix = article
                .sections
                .iter()
                .filter(|s| s.id.starts_with("fix") && score_of(&s.id) >= 0.5 * score_of(&best.id))
                .max_by(|a, b| score_of(&a.id).total_cmp(&score_of(&b.id)));
            best_fix.or_else(first_fix).or(Some(best))
        }
        None => first_fix().or_else(|| article.sections.first()),
    }
}

/// The lines of `text` weighed for its snippet.
fn snippet_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .take(SNIPPET_LINES)
}

/// The line of `text` sharing the most query terms, cut to a readable length. `words`: the
/// analyzed words of each of its [`snippet_lines`] (none: the first line).
fn snippet(text: &str, words: Option<&[Vec<String>]>, terms: &[String]) -> String {
    let best = snippet_lines(text)
        .enumerate()
        .max_by_key(|(index, _)| {
            let shared = words
                .and_then(|words| words.get(*index))
                .map_or(0, |line| line.iter().filter(|w| terms.contains(w)).count());
            (shared, std::cmp::Reverse(*index))
        })
        .map(|(_, line)| line)
        .unwrap_or("");
    if best.chars().count() <= SNIPPET_CHARS {
        return best.to_owned();
    }
    let cut: String = best.chars().take(SNIPPET_CHARS).collect();
    match cut.rfind(' ') {
        Some(space) if space > SNIPPET_CHARS / 2 => format!("{}…", &cut[..space]),
        _ => format!("{cut}…"),
    }
}

/// The English names of `concepts`, each once.
fn english_names(concepts: &[Found]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for name in concepts.iter().flat_map(|found| &found.english) {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    names
}
