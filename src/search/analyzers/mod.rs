//! The text analyzers of the search index: one prose analyzer per language and one for code.
//!
//! Each analyzer is a tantivy [`TextAnalyzer`] registered under a versioned name (bump the
//! version when its output changes: an index built with the old one must be rebuilt).
//! - Prose (`ar`, `hi`, `fr`, `en`): Unicode words (UAX #29, see `words`), then one rewrite
//!   per language: normalization, stop words, light stemming (`arabic`, `hindi`, `french`,
//!   `english`). Latin words inside Arabic or Hindi text are only lowercased.
//! - Code: whole identifiers plus their parts at the same position (`code`), for error
//!   messages, exception names and config keys.
//!
//! Normalization only ever rewrites token text: offsets are byte offsets into the original
//! text, on char boundaries, and never decrease from one token to the next, which is what
//! tantivy's `SnippetGenerator` needs. Length limits count chars, not bytes.
//!
//! Register the analyzers with [`register_all`] every time an index is opened or created, and
//! analyze query text with [`analyze`] through the same analyzer as the field it targets.

mod arabic;
mod code;
mod english;
mod filter;
mod french;
mod hindi;
mod stopwords;
mod words;

use rustc_hash::{FxHashMap, FxHashSet};
use tantivy::tokenizer::{TextAnalyzer, TokenStream, Tokenizer, TokenizerManager};

use self::arabic::ArabicRewrite;
use self::code::CodeTokenizer;
use self::english::EnglishRewrite;
use self::filter::{Rewrite, RewriteFilter};
use self::french::FrenchRewrite;
use self::hindi::HindiRewrite;
use self::words::WordTokenizer;

pub use self::code::MAX_CODE_TOKEN_CHARS;
pub use self::words::MAX_WORD_CHARS;

pub const ARABIC: &str = "ilaj_ar_v1";
pub const HINDI: &str = "ilaj_hi_v1";
pub const FRENCH: &str = "ilaj_fr_v1";
pub const ENGLISH: &str = "ilaj_en_v1";
pub const CODE: &str = "ilaj_code_v1";

/// Every analyzer name, for registration and tests.
pub const ALL: [&str; 5] = [ARABIC, HINDI, FRENCH, ENGLISH, CODE];

/// Most tokens [`analyze`] returns: a query needs no more, and pasted text can be 256 KiB.
pub const MAX_ANALYZE_TOKENS: usize = 4096;

/// Registers every analyzer under its name. Call it each time an index is opened or created:
/// tantivy does not persist custom tokenizers.
pub fn register_all(manager: &TokenizerManager) {
    for name in ALL {
        if let Some(analyzer) = analyzer(name) {
            manager.register(name, analyzer);
        }
    }
}

/// The analyzer registered under `name`, or `None` for an unknown name.
pub fn analyzer(name: &str) -> Option<TextAnalyzer> {
    let analyzer = match name {
        ARABIC => TextAnalyzer::builder(WordTokenizer)
            .filter(RewriteFilter(ArabicRewrite))
            .build(),
        HINDI => TextAnalyzer::builder(WordTokenizer)
            .filter(RewriteFilter(HindiRewrite))
            .build(),
        FRENCH => TextAnalyzer::builder(WordTokenizer)
            .filter(RewriteFilter(FrenchRewrite))
            .build(),
        ENGLISH => TextAnalyzer::builder(WordTokenizer)
            .filter(RewriteFilter(EnglishRewrite))
            .build(),
        CODE => TextAnalyzer::from(CodeTokenizer),
        _ => return None,
    };
    Some(analyzer)
}

/// The prose analyzer for a language tag (`ar`, `hi`, `fr`, `en`, also `fr-CA` or `AR`);
/// English for anything else.
pub fn prose_analyzer_for_lang(lang: &str) -> &'static str {
    let primary = lang.split(['-', '_']).next().unwrap_or_default();
    match primary.to_ascii_lowercase().as_str() {
        "ar" => ARABIC,
        "hi" => HINDI,
        "fr" => FRENCH,
        _ => ENGLISH,
    }
}

/// What an analyzed word no article holds may be in the written language, once the clitics of
/// its spoken forms are cut, likeliest first (Arabic only, see [`arabic::spoken_readings`]).
pub fn spoken_readings(name: &str, word: &str) -> Vec<String> {
    match name {
        ARABIC => arabic::spoken_readings(word),
        _ => Vec::new(),
    }
}

/// Token texts of `text` under analyzer `name`, at most [`MAX_ANALYZE_TOKENS`]; empty for an
/// unknown name.
pub fn analyze(name: &str, text: &str) -> Vec<String> {
    analyze_limited(name, text, MAX_ANALYZE_TOKENS)
}

/// Like [`analyze`], with the caller's token limit.
pub fn analyze_limited(name: &str, text: &str, max_tokens: usize) -> Vec<String> {
    // Building an analyzer (stemmer tables, filters) costs more than analyzing a short
    // query, and queries come in per request: keep one per analyzer per thread.
    thread_local! {
        static CACHE: std::cell::RefCell<Vec<(&'static str, TextAnalyzer)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    let Some(&name) = ALL.iter().find(|&&known| known == name) else {
        return Vec::new();
    };
    CACHE.with_borrow_mut(|cache| {
        let position = match cache.iter().position(|(cached, _)| *cached == name) {
            Some(position) => position,
            None => match analyzer(name) {
                Some(built) => {
                    cache.push((name, built));
                    cache.len() - 1
                }
                None => return Vec::new(),
            },
        };
        let analyzer = &mut cache[position].1;
        let mut stream = analyzer.token_stream(text);
        let mut out = Vec::new();
        while out.len() < max_tokens {
            match stream.next() {
                Some(token) => out.push(token.text.clone()),
                None => break,
            }
        }
        out
    })
}

/// The distinct token texts of `text` under analyzer `name`, in order of first appearance:
/// [`analyze_limited`] without repeats (the limit still counts every token). A paste repeats
/// its words (log lines, frames, paths), and each distinct word is analyzed only once.
pub fn analyze_distinct(name: &str, text: &str, max_tokens: usize) -> Vec<String> {
    match name {
        ARABIC => distinct_words(text, &ArabicRewrite, max_tokens),
        HINDI => distinct_words(text, &HindiRewrite, max_tokens),
        FRENCH => distinct_words(text, &FrenchRewrite, max_tokens),
        ENGLISH => distinct_words(text, &EnglishRewrite, max_tokens),
        CODE => code::distinct_tokens(text, max_tokens),
        _ => Vec::new(),
    }
}

/// Tokens kept in order of first appearance, and every token counted, repeats included (the
/// limit of [`analyze_limited`] counts them all).
#[derive(Default)]
pub(super) struct Distinct {
    seen: FxHashSet<String>,
    pub tokens: Vec<String>,
    pub counted: usize,
}

impl Distinct {
    pub fn add(&mut self, token: &str) {
        self.counted += 1;
        if !self.seen.contains(token) {
            self.seen.insert(token.to_owned());
            self.tokens.push(token.to_owned());
        }
    }
}

fn distinct_words<R: Rewrite>(text: &str, rewrite: &R, max_tokens: usize) -> Vec<String> {
    let mut tokenizer = WordTokenizer;
    let mut stream = tokenizer.token_stream(text);
    // Per word as written: whether the chain keeps it (a rewrite reads only the word).
    let mut kept: FxHashMap<&str, bool> = FxHashMap::default();
    let mut distinct = Distinct::default();
    while distinct.counted < max_tokens && stream.advance() {
        let token = stream.token_mut();
        let written = text
            .get(token.offset_from..token.offset_to)
            .unwrap_or_default();
        match kept.get(written) {
            Some(true) => distinct.counted += 1,
            Some(false) => {}
            None => {
                let keep = filter::keeps(rewrite, token);
                kept.insert(written, keep);
                if keep {
                    distinct.add(&token.text);
                }
            }
        }
    }
    distinct.tokens
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use tantivy::collector::TopDocs;
    use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
    use tantivy::schema::{
        Field, IndexRecordOption, STORED, Schema, TextFieldIndexing, TextOptions,
    };
    use tantivy::snippet::SnippetGenerator;
    use tantivy::{Index, TantivyDocument, Term};

    #[test]
    fn every_name_has_an_analyzer_and_unknown_names_none() {
        for name in ALL {
            assert!(analyzer(name).is_some(), "{name}");
        }
        assert!(analyzer("default").is_none());
        assert!(analyze("nope", "text").is_empty());
    }

    #[test]
    fn language_tags_pick_prose_analyzers() {
        assert_eq!(prose_analyzer_for_lang("ar"), ARABIC);
        assert_eq!(prose_analyzer_for_lang("hi-IN"), HINDI);
        assert_eq!(prose_analyzer_for_lang("FR"), FRENCH);
        assert_eq!(prose_analyzer_for_lang("en"), ENGLISH);
        assert_eq!(prose_analyzer_for_lang("de"), ENGLISH);
        assert_eq!(prose_analyzer_for_lang(""), ENGLISH);
    }

    #[test]
    fn prose_tokens_longer_than_the_limit_are_dropped_by_chars() {
        let ok = "ज".repeat(MAX_WORD_CHARS);
        let long = "ज".repeat(MAX_WORD_CHARS + 1);
        // 40 Devanagari letters are 120 bytes: a byte limit would drop them.
        assert_eq!(analyze(HINDI, &format!("{long} {ok}")), [ok]);
        assert!(analyze(ARABIC, &"ﷺ".repeat(3)).is_empty());
    }

    #[test]
    fn analyze_stops_at_the_limit() {
        let text = "word ".repeat(10_000);
        assert_eq!(analyze(CODE, &text).len(), MAX_ANALYZE_TOKENS);
        assert_eq!(analyze_limited(CODE, &text, 3).len(), 3);
    }

    #[test]
    fn dev_query_terms_reach_every_language_analyzer() {
        assert_eq!(
            analyze(ARABIC, "خطأ نفاد ذاكرة وحدة معالجة الرسومات"),
            ["خطا", "نفاد", "ذاكر", "حد", "معالج", "رسوم"]
        );
        assert_eq!(
            analyze(HINDI, "डिवाइस-साइड एसर्ट ट्रिगर"),
            ["डिवाइस", "साइड", "एसरट", "टरिगर"]
        );
        assert_eq!(
            analyze(FRENCH, "assertion côté périphérique déclenchée"),
            ["assert", "cot", "peripher", "declench"]
        );
        assert_eq!(
            analyze(CODE, "torch.OutOfMemoryError: CUDA out of memory"),
            [
                "torch.outofmemoryerror",
                "torch",
                "outofmemoryerror",
                "out",
                "of",
                "memory",
                "error",
                "cuda",
                "out",
                "of",
                "memory"
            ]
        );
    }

    struct TestIndex {
        index: Index,
        fields: Vec<(&'static str, Field)>,
    }

    fn build_index(docs: &[[&str; 5]]) -> TestIndex {
        let mut builder = Schema::builder();
        let fields: Vec<(&'static str, Field)> = ALL
            .iter()
            .map(|&name| {
                let indexing = TextFieldIndexing::default()
                    .set_tokenizer(name)
                    .set_index_option(IndexRecordOption::WithFreqsAndPositions);
                let options = TextOptions::default().set_indexing_options(indexing) | STORED;
                (name, builder.add_text_field(name, options))
            })
            .collect();
        let index = Index::create_in_ram(builder.build());
        register_all(index.tokenizers());
        let mut writer = index
            .writer_with_num_threads::<TantivyDocument>(1, 15_000_000)
            .expect("writer");
        for texts in docs {
            let mut document = TantivyDocument::default();
            for ((_, field), text) in fields.iter().zip(texts) {
                document.add_text(*field, text);
            }
            writer.add_document(document).expect("add");
        }
        writer.commit().expect("commit");
        TestIndex { index, fields }
    }

    fn query_for(field: Field, name: &str, text: &str) -> BooleanQuery {
        let clauses: Vec<(Occur, Box<dyn Query>)> = analyze(name, text)
            .into_iter()
            .map(|t| {
                let term = Term::from_field_text(field, &t);
                let query: Box<dyn Query> =
                    Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs));
                (Occur::Should, query)
            })
            .collect();
        BooleanQuery::new(clauses)
    }

    const DOCS: [[&str; 5]; 2] = [
        [
            "نفاد الذاكرة في وحدة المعالجة: قلّل حجم الدفعة batch_size إلى ٨.",
            "CUDA आउट ऑफ मेमोरी: बैच का आकार घटाएँ, फ़ाइलें जाँचें।",
            "Mémoire insuffisante : réduisez la taille du lot pour l’allocation.",
            "CUDA out of memory: reduce the batch size before allocating.",
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.14 GiB",
        ],
        [
            "انتهت مهلة NCCL أثناء التدريب الموزع.",
            "NCCL टाइमआउट वितरित प्रशिक्षण में।",
            "Délai d’attente NCCL dépassé en entraînement distribué.",
            "NCCL watchdog timeout in distributed training.",
            "RuntimeError: NCCL communicator was aborted",
        ],
    ];

    #[test]
    fn a_query_analyzed_like_its_field_ranks_the_document_first() {
        let test = build_index(&DOCS);
        let searcher = test.index.reader().expect("reader").searcher();
        let queries = [
            (ARABIC, "بالذاكرة"),
            (HINDI, "मेमोरी घटाएं फाइल"),
            (FRENCH, "memoire allocation"),
            (ENGLISH, "memory allocation"),
            (CODE, "OutOfMemoryError"),
        ];
        for ((name, field), (q_name, q_text)) in test.fields.iter().zip(queries) {
            assert_eq!(*name, q_name);
            let query = query_for(*field, name, q_text);
            let hits = searcher
                .search(&query, &TopDocs::with_limit(2).order_by_score())
                .expect("search");
            assert!(!hits.is_empty(), "{name}: {q_text}");
            let doc: TantivyDocument = searcher.doc(hits[0].1).expect("doc");
            let stored = doc
                .get_first(*field)
                .and_then(|v| tantivy::schema::Value::as_str(&v).map(str::to_string))
                .unwrap_or_default();
            assert_eq!(
                stored,
                DOCS[0][ALL.iter().position(|n| n == name).unwrap_or(0)]
            );
        }
    }

    #[test]
    fn snippets_on_arabic_and_hindi_text_do_not_panic_and_highlight() {
        let test = build_index(&DOCS);
        let searcher = test.index.reader().expect("reader").searcher();
        for (name, field) in &test.fields {
            let q_text = match *name {
                ARABIC => "الذاكرة الدفعة",
                HINDI => "मेमोरी आकार",
                FRENCH => "mémoire taille",
                ENGLISH => "memory",
                _ => "memory GiB",
            };
            let query = query_for(*field, name, q_text);
            let generator = SnippetGenerator::create(&searcher, &query, *field).expect("gen");
            let column = ALL.iter().position(|n| n == name).unwrap_or(0);
            let snippet = generator.snippet(DOCS[0][column]);
            assert!(!snippet.highlighted().is_empty(), "{name}");
            let html = snippet.to_html();
            assert!(html.contains("<b>"), "{name}: {html}");
        }
    }

    #[test]
    fn snippet_on_long_mixed_text_does_not_panic() {
        let test = build_index(&DOCS);
        let searcher = test.index.reader().expect("reader").searcher();
        let long = format!(
            "{} ज़्यादा मेमोरी {} مُعالِجة الذاكرة {}",
            "त्रुटि ".repeat(60),
            "x_".repeat(200),
            "__init__ a_b_a ".repeat(40)
        );
        for (name, field) in &test.fields {
            let query = query_for(*field, name, &long);
            let generator = SnippetGenerator::create(&searcher, &query, *field).expect("gen");
            let _ = generator.snippet(&long).to_html();
        }
    }

    fn check_offsets(name: &str, text: &str) -> Result<(), TestCaseError> {
        let Some(mut analyzer) = analyzer(name) else {
            return Err(TestCaseError::fail("no analyzer"));
        };
        let mut stream = analyzer.token_stream(text);
        let (mut last_from, mut last_to) = (0, 0);
        while let Some(t) = stream.next() {
            prop_assert!(t.offset_from <= t.offset_to && t.offset_to <= text.len());
            prop_assert!(text.is_char_boundary(t.offset_from), "{name}");
            prop_assert!(text.is_char_boundary(t.offset_to), "{name}");
            prop_assert!(
                t.offset_from >= last_from && t.offset_to >= last_to,
                "{name}"
            );
            prop_assert!(!t.text.is_empty());
            let limit = if name == CODE {
                MAX_CODE_TOKEN_CHARS
            } else {
                MAX_WORD_CHARS
            };
            prop_assert!(t.text.chars().count() <= limit, "{name}");
            (last_from, last_to) = (t.offset_from, t.offset_to);
        }
        Ok(())
    }

    /// Characters this module treats specially, mixed into random text.
    const SPECIAL: &str =
        "ـًٌٍَُِّْٰٱآأإىة٫٬٠٩۰۹ﻻ\u{093C}\u{094D}\u{0901}\u{0902}\u{200C}\u{200D}\u{00AD}क़ऩॉ०९.-_:'’ʼAaZz09 ";

    /// What [`analyze_distinct`] must equal: [`analyze_limited`] with repeats removed.
    fn first_occurrences(name: &str, text: &str, max_tokens: usize) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for token in analyze_limited(name, text, max_tokens) {
            if !out.contains(&token) {
                out.push(token);
            }
        }
        out
    }

    #[test]
    fn distinct_analysis_is_the_full_analysis_without_repeats_at_every_limit() {
        let seed = include_str!("../../../eval/seed-oom-example.txt");
        let texts = [
            seed.to_owned(),
            seed.repeat(3),
            "L'allocation a échoué : l'allocation de 6.14 GiB, d'allocation, L’allocation"
                .to_owned(),
            "نفاد ذاكرة وحدة معالجة الرسومات، والذاكرة بالذاكرة torch.cuda torch.cuda".to_owned(),
            "मेमोरी खत्म मेमोरी ख़त्म बैच साइज़ batch_size batch_size".to_owned(),
            "torch.OutOfMemoryError torch.OutOfMemoryError OOMError oom 6.14GiB 6.14GiB".to_owned(),
        ];
        for name in ALL {
            for text in &texts {
                for limit in [0, 1, 2, 5, 17, 40, 1500] {
                    assert_eq!(
                        analyze_distinct(name, text, limit),
                        first_occurrences(name, text, limit),
                        "{name}, limit {limit}: {text}"
                    );
                }
            }
        }
    }

    proptest! {
        #[test]
        fn distinct_analysis_matches_the_full_analysis_for_arbitrary_strings(
            picks in proptest::collection::vec(0..SPECIAL.chars().count(), 0..60),
            limit in 0usize..30,
        ) {
            let chars: Vec<char> = SPECIAL.chars().collect();
            let text: String = picks.iter().filter_map(|&i| chars.get(i)).collect();
            for name in ALL {
                prop_assert_eq!(
                    analyze_distinct(name, &text, limit),
                    first_occurrences(name, &text, limit)
                );
            }
        }

        #[test]
        fn offsets_are_char_boundaries_for_arbitrary_strings(text in "\\PC{0,80}") {
            for name in ALL {
                check_offsets(name, &text)?;
            }
        }

        #[test]
        fn offsets_are_char_boundaries_for_special_characters(
            picks in proptest::collection::vec(0..SPECIAL.chars().count(), 0..60)
        ) {
            let chars: Vec<char> = SPECIAL.chars().collect();
            let text: String = picks.iter().filter_map(|&i| chars.get(i)).collect();
            for name in ALL {
                check_offsets(name, &text)?;
            }
        }
    }
}
