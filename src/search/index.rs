//! The tantivy index: its schema and how the library is written into it.
//!
//! Every article is indexed twice over: one document for the whole article (its group-level
//! relevance) and one per section (so a result can point at the section that holds the fix).
//! Prose goes to per-language fields, each with its own analyzer and its own BM25 statistics;
//! error signatures and code go to language-neutral fields, identical across translations.

use tantivy::schema::{
    Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, TantivyDocument};

use super::analyzers;
use crate::content::Library;
use crate::i18n::Lang;

/// Writer memory: the whole catalog is a few hundred kilobytes of text.
const WRITER_MEMORY_BYTES: usize = 20_000_000;

#[derive(Clone, Copy)]
pub struct Fields {
    pub group: Field,
    pub lang: Field,
    /// Section id, empty on the whole-article document.
    pub section: Field,
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
    let group = builder.add_text_field("group", STRING | STORED);
    let lang = builder.add_text_field("lang", STRING | STORED);
    let section = builder.add_text_field("section", STRING | STORED);
    let title = Lang::ALL
        .map(|l| builder.add_text_field(&format!("title_{l}"), text_field(prose_analyzer(l))));
    let body = Lang::ALL
        .map(|l| builder.add_text_field(&format!("body_{l}"), text_field(prose_analyzer(l))));
    let code = builder.add_text_field("code", text_field(analyzers::CODE));
    let errors = builder.add_text_field("errors", text_field(analyzers::CODE));
    let fields = Fields {
        group,
        lang,
        section,
        title,
        body,
        code,
        errors,
    };
    (builder.build(), fields)
}

/// A built index and the one reader the process searches it with.
pub struct BuiltIndex {
    pub reader: IndexReader,
    pub fields: Fields,
}

pub fn build(library: &Library) -> tantivy::Result<BuiltIndex> {
    let (schema, fields) = schema();
    let index = Index::create_in_ram(schema);
    analyzers::register_all(index.tokenizers());
    let mut writer: IndexWriter = index.writer_with_num_threads(1, WRITER_MEMORY_BYTES)?;
    for article in library.articles() {
        let lang = article.lang;
        let mut whole = TantivyDocument::default();
        whole.add_text(fields.group, &article.id);
        whole.add_text(fields.lang, lang.code());
        whole.add_text(fields.section, "");
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
            doc.add_text(fields.group, &article.id);
            doc.add_text(fields.lang, lang.code());
            doc.add_text(fields.section, &section.id);
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
    Ok(BuiltIndex { reader, fields })
}
