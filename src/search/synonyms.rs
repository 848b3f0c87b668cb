//! The words people type for a concept — the glossaries' `also:` lists: loanwords in Arabic or
//! Devanagari script, colloquial phrases, Hinglish, French without accents — lead a typed query
//! to the word the articles use for it in that language, and to its English name.

use std::collections::HashMap;

use super::analyzers;
use super::index::prose_analyzer;
use crate::content::Library;
use crate::i18n::Lang;
use crate::reading::{is_negation, is_negation_after, names_a_phase};

#[derive(Default)]
pub struct Synonyms {
    /// Per language, the phrases by their first analyzed term.
    phrases: HashMap<Lang, HashMap<String, Vec<Phrase>>>,
}

struct Phrase {
    /// The phrase as the language's analyzer reads it.
    terms: Vec<String>,
    /// For each term, whether other words may stand between it and the one before: the
    /// glossary writes such a phrase with `…` at the gap ("cumuler … mise à jour").
    gap_before: Vec<bool>,
    /// What it stands for: the glossary term's analyzed words, and the English name's
    /// (empty for the term itself).
    means: Vec<(Lang, String)>,
    /// The concept's English name, as written in the glossary.
    english: String,
}

/// A glossary phrase as its language's analyzer read it.
struct ReadPhrase {
    /// Its concept's position in the glossary.
    concept: usize,
    terms: Vec<String>,
    gap_before: Vec<bool>,
    /// It is the concept's own term, not one of the words people type for it.
    own_term: bool,
    /// The analyzer dropped some of its words.
    shortened: bool,
}

/// The concepts a query names, read through the glossaries.
#[derive(Debug, Default, PartialEq)]
pub struct Found {
    /// The articles' words for them that the query did not type.
    pub means: Vec<(Lang, String)>,
    /// Their English names, so that what is read from English words (the stack an error
    /// came from, say) is read from typed words of any language too.
    pub english: Vec<String>,
}

impl Synonyms {
    pub fn new(library: &Library) -> Self {
        let mut phrases: HashMap<Lang, HashMap<String, Vec<Phrase>>> = HashMap::new();
        for lang in Lang::ALL {
            let Some(glossary) = library.glossary(lang) else {
                continue;
            };
            let analyzer = prose_analyzer(lang);
            let mut read: Vec<ReadPhrase> = Vec::new();
            for (concept, entry) in glossary.terms.iter().enumerate() {
                for (index, phrase) in std::iter::once(&entry.term).chain(&entry.also).enumerate() {
                    let (terms, gap_before) = analyze_gapped(analyzer, phrase);
                    let shortened =
                        terms.len() < phrase.split_whitespace().filter(|w| *w != "…").count();
                    if !terms.is_empty() {
                        read.push(ReadPhrase {
                            concept,
                            terms,
                            gap_before,
                            own_term: index == 0,
                            shortened,
                        });
                    }
                }
            }
            let by_first = phrases.entry(lang).or_default();
            for phrase in &read {
                let (concept, terms) = (phrase.concept, &phrase.terms);
                // "sans gradients" reads as "gradient" once "sans" is dropped as a stopword,
                // and "checkpointing" as "checkpoint" once stemmed: a phrase that reads as
                // another concept's own term, or cut down to another concept's words, would
                // stand for both.
                let taken = read.iter().any(|other| {
                    other.concept != concept
                        && other.terms == *terms
                        && (other.own_term || phrase.shortened)
                });
                if taken {
                    continue;
                }
                let entry = &glossary.terms[concept];
                let mut means: Vec<(Lang, String)> = analyzers::analyze(analyzer, &entry.term)
                    .into_iter()
                    .map(|term| (lang, term))
                    .filter(|(_, term)| !terms.contains(term))
                    .collect();
                if lang != Lang::En {
                    means.extend(
                        analyzers::analyze(analyzers::ENGLISH, &entry.en)
                            .into_iter()
                            .map(|term| (Lang::En, term)),
                    );
                }
                by_first.entry(terms[0].clone()).or_default().push(Phrase {
                    terms: terms.clone(),
                    gap_before: phrase.gap_before.clone(),
                    means,
                    english: entry.en.to_lowercase(),
                });
            }
        }
        Synonyms { phrases }
    }

    /// The concepts whose glossary phrases `terms` (a query analyzed for `lang`, in order)
    /// holds, each once.
    pub fn find(&self, lang: Lang, terms: &[String]) -> Found {
        let mut found = Found::default();
        let Some(by_first) = self.phrases.get(&lang) else {
            return found;
        };
        // Only Arabic glues prepositions to words, and its spoken forms carry clitics the
        // written words do not; other languages read the terms as they are.
        let unglued: Vec<Vec<String>> = if lang == Lang::Ar {
            terms
                .iter()
                .map(|term| {
                    let mut forms: Vec<String> = without_proclitic(term).into_iter().collect();
                    forms.extend(analyzers::spoken_readings(prose_analyzer(lang), term));
                    forms
                })
                .collect()
        } else {
            Vec::new()
        };
        let unglued_at = |position: usize| unglued.get(position).into_iter().flatten();
        let term_at = |position: usize, wanted: &String| {
            terms.get(position) == Some(wanted) || unglued_at(position).any(|u| u == wanted)
        };
        // Every phrase found, as (first term, past its last term, phrase).
        let mut matches: Vec<(usize, usize, &Phrase)> = Vec::new();
        for (start, term) in terms.iter().enumerate() {
            let mut candidates: Vec<&Phrase> = by_first.get(term).into_iter().flatten().collect();
            for form in unglued_at(start) {
                candidates.extend(by_first.get(form).into_iter().flatten());
            }
            for phrase in candidates {
                if let Some(end) = phrase_end(phrase, start, &term_at) {
                    matches.push((start, end, phrase));
                }
            }
        }
        // A phrase read inside a longer one of another concept is a word of that one
        // («معالج» inside «معالج الرسوميات», the GPU, is not the CPU).
        let inside_longer = |&(start, end, phrase): &(usize, usize, &Phrase)| {
            matches.iter().any(|&(other_start, other_end, other)| {
                other.english != phrase.english
                    && other_start <= start
                    && end <= other_end
                    && other_end - other_start > end - start
            })
        };
        let mut english: Vec<&str> = Vec::new();
        for (start, end, phrase) in matches.iter().filter(|m| !inside_longer(m)) {
            for meaning in &phrase.means {
                if !found.means.contains(meaning) {
                    found.means.push(meaning.clone());
                }
            }
            // «بلا تدريب», «مش بدربه», "j'entraîne pas": the words still search, but the
            // phase they name is the one the text is not in, and a model that is not being
            // trained is being run.
            let negated = start
                .checked_sub(1)
                .is_some_and(|before| is_negation(&terms[before]))
                || terms
                    .get(*end)
                    .is_some_and(|after| is_negation_after(after));
            if negated && names_a_phase(&phrase.english) {
                if phrase.english == TRAINING {
                    english.push(INFERENCE);
                }
                continue;
            }
            english.push(&phrase.english);
        }
        for name in english {
            if !found.english.iter().any(|known| known == name) {
                found.english.push(name.to_owned());
            }
        }
        found
    }
}

/// The glossary's English names of the two phases.
const TRAINING: &str = "training";
const INFERENCE: &str = "inference";

/// Most words a gap in a glossary phrase may hold.
const MAX_GAP: usize = 4;

/// A glossary phrase analyzed, with `…` marking where other words may stand.
fn analyze_gapped(analyzer: &'static str, phrase: &str) -> (Vec<String>, Vec<bool>) {
    let mut terms = Vec::new();
    let mut gap_before = Vec::new();
    for (part_index, part) in phrase.split('…').enumerate() {
        for (k, term) in analyzers::analyze(analyzer, part).into_iter().enumerate() {
            gap_before.push(part_index > 0 && k == 0);
            terms.push(term);
        }
    }
    (terms, gap_before)
}

/// Past the last term of `phrase` read from `start`, if the whole phrase is there: each term
/// right after the one before, or within [`MAX_GAP`] words of it where the phrase has a gap.
fn phrase_end(
    phrase: &Phrase,
    start: usize,
    term_at: &impl Fn(usize, &String) -> bool,
) -> Option<usize> {
    let mut at = start;
    for (k, wanted) in phrase.terms.iter().enumerate() {
        if k == 0 {
            if !term_at(at, wanted) {
                return None;
            }
            continue;
        }
        let reach = if phrase.gap_before[k] { MAX_GAP + 1 } else { 1 };
        at = (at + 1..=at + reach).find(|&position| term_at(position, wanted))?;
    }
    Some(at + 1)
}

/// An Arabic word without the one-letter preposition or conjunction written glued to it
/// (بتجميع → تجميع, لطبقة → طبقة, فالذاكرة is the stemmer's): the stemmer leaves these,
/// since stripping them from every word would damage words that begin with those letters,
/// but a glossary phrase that then matches is a safe reading. Spoken Arabic also writes
/// «على ال» as a glued «عال» (عالفاليديشن: at the validation).
fn without_proclitic(term: &str) -> Option<String> {
    if let Some(rest) = term.strip_prefix("عال")
        && rest.chars().count() >= 3
    {
        return Some(rest.to_owned());
    }
    let mut chars = term.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    (matches!(first, 'ب' | 'ل' | 'ف' | 'ك') && rest.chars().count() >= 3).then(|| rest.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::glossary::{Glossary, Term};
    use std::collections::BTreeMap;

    /// A glossary entry whose id is its English name.
    fn term(en: &str, term: &str, also: &[&str]) -> Term {
        Term {
            id: en.into(),
            en: en.into(),
            term: term.into(),
            also: also.iter().map(|a| (*a).to_owned()).collect(),
            avoid: Vec::new(),
            definition: String::new(),
        }
    }

    fn library_of(lang: Lang, terms: Vec<Term>) -> Library {
        let glossary = Glossary { lang, terms };
        Library::default().with_glossaries(BTreeMap::from([(lang, glossary)]))
    }

    fn library(lang: Lang, en: &str, term_text: &str, also: &[&str]) -> Library {
        library_of(lang, vec![term(en, term_text, also)])
    }

    fn analyzed(lang: Lang, text: &str) -> Vec<String> {
        analyzers::analyze(prose_analyzer(lang), text)
    }

    #[test]
    fn a_typed_loanword_stands_for_the_articles_term_and_its_english_name() {
        let synonyms = Synonyms::new(&library(Lang::Ar, "batch", "الدفعة", &["باتش"]));
        let query = analyzed(Lang::Ar, "كيف اصغر الباتش");
        let found = synonyms.find(Lang::Ar, &query);
        let meant = &found.means;
        assert!(meant.contains(&(Lang::Ar, analyzed(Lang::Ar, "الدفعة")[0].clone())));
        assert!(meant.contains(&(Lang::En, "batch".to_owned())), "{meant:?}");
        assert_eq!(found.english, ["batch"]);
    }

    #[test]
    fn a_phrase_that_reads_as_another_concepts_word_stands_for_neither() {
        let library = library_of(
            Lang::Fr,
            vec![
                term("gradient", "gradient", &[]),
                // Once the stopword goes, "sans gradients" is just "gradient".
                term("no_grad", "torch.no_grad", &["sans gradients"]),
                term("checkpoint (saved file)", "checkpoint", &[]),
                // Stemmed, "checkpointing" is "checkpoint".
                term(
                    "activation checkpointing",
                    "recalcul des activations",
                    &["checkpointing"],
                ),
            ],
        );
        let synonyms = Synonyms::new(&library);
        let found = synonyms.find(Lang::Fr, &analyzed(Lang::Fr, "les gradients explosent"));
        assert_eq!(found.english, ["gradient"]);
        let found = synonyms.find(Lang::Fr, &analyzed(Lang::Fr, "charger le checkpoint"));
        assert_eq!(found.english, ["checkpoint (saved file)"]);
    }

    #[test]
    fn a_word_inside_a_longer_phrase_of_another_concept_is_that_concepts() {
        let library = library_of(
            Lang::Ar,
            vec![
                term("cpu", "cpu", &["المعالج"]),
                term("gpu", "gpu", &["معالج الرسوميات"]),
            ],
        );
        let synonyms = Synonyms::new(&library);
        let graphics = analyzed(Lang::Ar, "ذاكرة معالج الرسوميات ممتلئة");
        assert_eq!(synonyms.find(Lang::Ar, &graphics).english, ["gpu"]);
        let both = analyzed(
            Lang::Ar,
            "البيانات على المعالج والنموذج على معالج الرسوميات",
        );
        assert_eq!(synonyms.find(Lang::Ar, &both).english, ["cpu", "gpu"]);
    }

    #[test]
    fn a_phase_after_a_negation_names_the_other_phase() {
        let synonyms = Synonyms::new(&library(Lang::Ar, "training", "التدريب", &["تدريب"]));
        let said = synonyms.find(Lang::Ar, &analyzed(Lang::Ar, "نفاد الذاكرة اثناء التدريب"));
        assert_eq!(said.english, ["training"]);
        let negated = synonyms.find(Lang::Ar, &analyzed(Lang::Ar, "نفاد الذاكرة بلا تدريب"));
        assert_eq!(negated.english, ["inference"], "{negated:?}");
    }

    #[test]
    fn an_arabic_preposition_glued_to_a_loanword_does_not_hide_it() {
        let synonyms = Synonyms::new(&library(Lang::Ar, "LoRA", "لورا", &[]));
        let glued = analyzed(Lang::Ar, "فاين تيون بلورا");
        assert_eq!(synonyms.find(Lang::Ar, &glued).english, ["lora"]);
        // Only Arabic words lose a glued letter: "بلورا" is nothing in another language.
        assert_eq!(synonyms.find(Lang::Fr, &glued), Found::default());
    }

    #[test]
    fn spoken_arabic_s_glued_at_the_does_not_hide_a_word() {
        let synonyms = Synonyms::new(&library(
            Lang::Ar,
            "evaluation / validation",
            "التقييم",
            &["الفاليديشن"],
        ));
        let glued = analyzed(Lang::Ar, "لما يوصل عالفاليديشن تخلص الذاكرة");
        assert_eq!(
            synonyms.find(Lang::Ar, &glued).english,
            ["evaluation / validation"]
        );
        // «عالم» (world) is a word of its own, not «على» glued to «م».
        assert_eq!(without_proclitic("عالم"), None);
    }

    #[test]
    fn a_phrase_counts_only_when_its_words_follow_each_other() {
        let synonyms = Synonyms::new(&library(
            Lang::Hi,
            "out of memory",
            "मेमोरी ख़त्म",
            &["memory khatam"],
        ));
        let together = analyzed(Lang::Hi, "gpu memory khatam ho gayi");
        assert_eq!(
            synonyms.find(Lang::Hi, &together).english,
            ["out of memory"]
        );
        let apart = analyzed(Lang::Hi, "memory abhi khatam nahi");
        assert_eq!(synonyms.find(Lang::Hi, &apart), Found::default());
        assert_eq!(synonyms.find(Lang::Fr, &together), Found::default());
    }

    #[test]
    fn a_phrase_with_a_gap_counts_when_its_parts_stand_close_in_order() {
        let synonyms = Synonyms::new(&library(
            Lang::Fr,
            "gradient accumulation",
            "accumulation de gradients",
            &["cumuler … mise à jour"],
        ));
        let near = analyzed(Lang::Fr, "cumuler les petits lots avant la mise a jour");
        assert_eq!(
            synonyms.find(Lang::Fr, &near).english,
            ["gradient accumulation"]
        );
        let reversed = analyzed(Lang::Fr, "la mise a jour puis cumuler");
        assert_eq!(synonyms.find(Lang::Fr, &reversed), Found::default());
        let far = analyzed(
            Lang::Fr,
            "cumuler les pertes de chaque exemple du jeu de validation complet puis faire la mise a jour",
        );
        assert_eq!(synonyms.find(Lang::Fr, &far), Found::default());
    }

    #[test]
    fn a_spoken_arabic_verb_meets_the_glossarys_written_form() {
        let synonyms = Synonyms::new(&library(
            Lang::Ar,
            "gpu not detected",
            "المعالج الرسومي غير مكتشف",
            &["ما يشوف الكرت"],
        ));
        let spoken = analyzed(Lang::Ar, "البرنامج مش بيشوف الكرت خالص");
        assert_eq!(
            synonyms.find(Lang::Ar, &spoken).english,
            ["gpu not detected"]
        );
    }

    #[test]
    fn a_training_the_words_say_is_not_being_done_reads_as_running_the_model() {
        for (lang, text) in [
            (Lang::Ar, "بجربه على ملفات بس، مش بدربه اصلا"),
            (Lang::Fr, "je teste le modele, j'entraine pas"),
            (Lang::Fr, "pourtant j'entraine rien a ce moment la"),
        ] {
            let synonyms = Synonyms::new(&library_of(
                lang,
                vec![
                    term("training", "training", &["درب", "entraine"]),
                    term("inference", "inference", &[]),
                ],
            ));
            let found = synonyms.find(lang, &analyzed(lang, text));
            assert_eq!(found.english, ["inference"], "{text}");
        }
        let synonyms = Synonyms::new(&library(Lang::Ar, "training", "التدريب", &["درب"]));
        let trained = analyzed(Lang::Ar, "ندرب الموديل والذاكره مش مكفيه");
        assert_eq!(synonyms.find(Lang::Ar, &trained).english, ["training"]);
    }
}
