//! The one question that settles a guessed situation: where did the out-of-memory error strike?
//!
//! A bare "CUDA out of memory" message reads the same in a training loop, a validation loop, an
//! LLM server and an image generator, and each has its own article. When nothing in the paste
//! says which, the answer asks, and the reader's choice comes back as the `situation` of the
//! next match (`Reading::stated`), which then ranks that situation's article as evidence.

use serde::Serialize;

use super::{Reading, Situation};
use crate::i18n::{Lang, messages};
use crate::traceback::ErrorKind;

/// A question whose answer changes the ranking, in the reader's language.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Question {
    pub question: String,
    pub choices: Vec<Choice>,
}

/// One answer to a [`Question`]: send `situation` back with the same text to match again.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Choice {
    pub situation: &'static str,
    pub label: String,
    /// The article group this answer leads to.
    pub id: &'static str,
}

/// The question to ask about `reading`, when its out-of-memory situation is only a guess.
pub fn situation_question(reading: &Reading<'_>, lang: Lang) -> Option<Question> {
    // Another framework's out-of-memory error is answered `none`: no choice would lead to
    // an article about it.
    if !reading.situation_by_default
        || reading.parsed.kind != ErrorKind::CudaOom
        || reading.parsed.framework.is_some()
    {
        return None;
    }
    let choices = Situation::STATABLE
        .iter()
        .filter_map(|&(situation, name)| {
            Some(Choice {
                situation: name,
                label: messages().format(lang, &label_id(name), None),
                id: situation.group()?,
            })
        })
        .collect();
    Some(Question {
        question: messages().format(lang, "ask-situation", None),
        choices,
    })
}

/// The message id of a choice's label: `ask-` and its stable name, hyphenated as Fluent ids are.
fn label_id(name: &str) -> String {
    format!("ask-{}", name.replace('_', "-"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_out_of_memory_message_asks_where_it_struck() {
        let reading = Reading::paste(
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
            Lang::Fr,
        );
        let question = situation_question(&reading, Lang::Fr).expect("a guess is asked about");
        let names: Vec<_> = question.choices.iter().map(|c| c.situation).collect();
        assert_eq!(
            names,
            [
                "training",
                "inference",
                "llm_finetuning",
                "llm_serving",
                "image_generation",
                "sharded_training"
            ]
        );
        assert!(
            question
                .choices
                .iter()
                .all(|c| !c.label.starts_with("ask-"))
        );
        assert_ne!(
            question.question,
            situation_question(&reading, Lang::Ar).unwrap().question
        );
    }

    #[test]
    fn a_paste_that_says_where_it_struck_or_is_no_out_of_memory_error_asks_nothing() {
        for (paste, lang) in [
            (
                "File \"train.py\", line 3, in <module>\n    loss.backward()\n\
                 torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
                Lang::Hi,
            ),
            (
                "RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x3 and 5x6)",
                Lang::Ar,
            ),
        ] {
            assert_eq!(
                situation_question(&Reading::paste(paste, lang), lang),
                None,
                "{paste}"
            );
        }
    }

    #[test]
    fn another_frameworks_out_of_memory_asks_nothing() {
        let paste = "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[256,112,112,64]\nCUDA out of memory. Tried to allocate 2.00 GiB";
        let reading = Reading::paste(paste, Lang::Fr);
        assert!(reading.parsed.framework.is_some());
        assert_eq!(reading.parsed.kind, ErrorKind::CudaOom);
        assert!(reading.situation_by_default);
        assert_eq!(situation_question(&reading, Lang::Fr), None);
    }

    #[test]
    fn every_choice_has_a_label_in_every_language() {
        for lang in Lang::ALL {
            for (_, name) in Situation::STATABLE {
                assert!(messages().has(lang, &label_id(name)), "{lang} {name}");
            }
            assert!(messages().has(lang, "ask-situation"), "{lang}");
        }
    }
}
