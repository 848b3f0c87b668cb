//! The tantivy index: its schema and how the library is written into it.
//!
//! Every article is indexed twice over: one document for the whole article (its group-level
//! relevance) and one per section (so a result can point at the section that holds the fix).
//! Prose goes to per-language fields, each with its own analyzer and its own BM25 statistics;
//! error signatures and code go to language-neutral fields, identical across translations.

use std::collections::{HashMap, HashSet};

use rustc_hash::FxHashMap;

use tantivy::schema::{FAST, Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions};
use tantivy::{Index, IndexWriter, ReloadPolicy, TantivyDocument};

use super::analyzers;
use super::postings::PostingsIndex;
use super::vocabulary::Vocabulary;
use crate::content::Library;
use crate::i18n::Lang;

/// Writer memory: the whole catalog is a few hundred kilobytes of text.
const WRITER_MEMORY_BYTES: usize = 20_000_000;

#[derive(Clone, Copy)]
pub struct Fields {
    /// Position of the document's [`DocRef`] in [`BuiltIndex::docs`]: a fast field, so a
    /// hit is resolved without reading a stored document.
    ord: Field,
    title: [Field; 4],
    body: [Field; 4],
    pub code: Field,
    pub errors: Field,
}

impl Fields {
    pub fn title(&self, lang: Lang) -> Field {
        self.title[slot(lang)]
    }

    pub fn body(&self, lang: Lang) -> Field {
        self.body[slot(lang)]
    }

    /// Every field a query's terms are looked up in.
    fn text_fields(&self) -> Vec<Field> {
        let mut fields = self.title.to_vec();
        fields.extend(self.body);
        fields.extend([self.code, self.errors]);
        fields
    }
}

fn slot(lang: Lang) -> usize {
    match lang {
        Lang::Ar => 0,
        Lang::Hi => 1,
        Lang::Fr => 2,
        Lang::En => 3,
    }
}

pub fn prose_analyzer(lang: Lang) -> &'static str {
    analyzers::prose_analyzer_for_lang(lang.code())
}

fn text_field(analyzer: &str) -> TextOptions {
    TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(analyzer)
            .set_index_option(IndexRecordOption::WithFreqs),
    )
}

fn schema() -> (Schema, Fields) {
    let mut builder = Schema::builder();
    let ord = builder.add_u64_field(ORD_FIELD, FAST);
    let title = Lang::ALL
        .map(|l| builder.add_text_field(&format!("title_{l}"), text_field(prose_analyzer(l))));
    let body = Lang::ALL
        .map(|l| builder.add_text_field(&format!("body_{l}"), text_field(prose_analyzer(l))));
    let code = builder.add_text_field("code", text_field(analyzers::CODE));
    let errors = builder.add_text_field("errors", text_field(analyzers::CODE));
    let fields = Fields {
        ord,
        title,
        body,
        code,
        errors,
    };
    (builder.build(), fields)
}

pub const ORD_FIELD: &str = "ord";

/// What an indexed document stands for.
pub struct DocRef {
    pub group: String,
    /// Section id, empty for the whole-article document.
    pub section: String,
}

/// A built index, read into memory: tantivy analyzes and indexes the articles, and queries
/// are scored from the postings and document table read out of it once, when it is built.
pub struct BuiltIndex {
    pub fields: Fields,
    pub docs: Vec<DocRef>,
    /// For every term each analyzer produced while indexing, the number of articles that
    /// hold it. A query keeps only terms found here, rarest first: a pasted log holds
    /// hundreds of words, most in no article or in every article, and each clause costs a
    /// lookup and a walk over its postings.
    pub vocabulary: FxHashMap<&'static str, Vocabulary>,
    /// The postings of every text field, for scoring queries without tantivy's scorers.
    pub postings: PostingsIndex,
    /// Per document position in `postings`, its entry in `docs`: read from the `ord` fast
    /// field once, not per request.
    doc_of_position: Vec<Option<usize>>,
}

impl BuiltIndex {
    /// What the document at `position` (in `postings`) stands for.
    pub fn doc_at(&self, position: usize) -> Option<&DocRef> {
        let ord = self.doc_of_position.get(position).copied().flatten()?;
        self.docs.get(ord)
    }

    /// How many articles hold `term` (0: none).
    pub fn article_frequency(&self, analyzer: &str, term: &str) -> u32 {
        self.vocabulary
            .get(analyzer)
            .map_or(0, |terms| terms.article_frequency(term))
    }

    /// The known term a mistyped `word` most likely meant (see [`Vocabulary::correction`]).
    pub fn correction(&self, analyzer: &str, word: &str) -> Option<&str> {
        self.vocabulary.get(analyzer)?.correction(word)
    }
}

pub fn build(library: &Library) -> tantivy::Result<BuiltIndex> {
    let (schema, fields) = schema();
    let index = Index::create_in_ram(schema);
    analyzers::register_all(index.tokenizers());
    let mut writer: IndexWriter = index.writer_with_num_threads(1, WRITER_MEMORY_BYTES)?;
    let mut docs = Vec::new();
    let mut next_ord = |group: &str, section: &str| {
        docs.push(DocRef {
            group: group.to_owned(),
            section: section.to_owned(),
        });
        docs.len() as u64 - 1
    };
    let mut vocabulary: HashMap<&'static str, FxHashMap<String, u32>> = HashMap::new();
    for article in library.articles() {
        let lang = article.lang;
        let prose = prose_analyzer(lang);
        let mut own: HashMap<&'static str, HashSet<String>> = HashMap::new();
        for text in [&article.title, &article.summary, &article.prose()] {
            own.entry(prose)
                .or_default()
                .extend(analyzers::analyze_limited(prose, text, usize::MAX));
        }
        for text in article
            .errors
            .iter()
            .chain(&article.tags)
            .chain([&article.code()])
        {
            own.entry(analyzers::CODE)
                .or_default()
                .extend(analyzers::analyze_limited(
                    analyzers::CODE,
                    text,
                    usize::MAX,
                ));
        }
        for (analyzer, terms) in own {
            let counts = vocabulary.entry(analyzer).or_default();
            for term in terms {
                *counts.entry(term).or_insert(0) += 1;
            }
        }
        let mut whole = TantivyDocument::default();
        whole.add_u64(fields.ord, next_ord(&article.id, ""));
        whole.add_text(fields.title(lang), &article.title);
        whole.add_text(fields.body(lang), &article.summary);
        whole.add_text(fields.body(lang), article.prose());
        for tag in &article.tags {
            whole.add_text(fields.code, tag);
        }
        for signature in &article.errors {
            whole.add_text(fields.errors, signature);
        }
        whole.add_text(fields.code, article.code());
        writer.add_document(whole)?;

        for section in &article.sections {
            let mut doc = TantivyDocument::default();
            doc.add_u64(fields.ord, next_ord(&article.id, &section.id));
            doc.add_text(fields.title(lang), &section.title);
            doc.add_text(fields.body(lang), &section.text);
            doc.add_text(fields.code, &section.code);
            writer.add_document(doc)?;
        }
    }
    writer.commit()?;
    let reader = index
        .reader_builder()
        .reload_policy(ReloadPolicy::Manual)
        .try_into()?;
    let searcher = reader.searcher();
    let postings = PostingsIndex::read(&searcher, &fields.text_fields())?;
    let mut ord_columns = HashMap::new();
    let doc_of_position = postings
        .addresses()
        .map(|(segment, doc)| {
            let column = ord_columns.entry(segment).or_insert_with(|| {
                searcher
                    .segment_reader(segment)
                    .fast_fields()
                    .u64(ORD_FIELD)
                    .ok()
            });
            let ord = column.as_ref()?.first(doc)?;
            usize::try_from(ord).ok().filter(|&ord| ord < docs.len())
        })
        .collect();
    Ok(BuiltIndex {
        postings,
        doc_of_position,
        fields,
        docs,
        vocabulary: vocabulary
            .into_iter()
            .map(|(analyzer, counts)| (analyzer, Vocabulary::new(counts)))
            .collect(),
    })
}
