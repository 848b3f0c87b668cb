//! BM25 over the index's postings, read once into memory when the index is built.
//!
//! Tantivy builds a weight and a scorer for every clause of every request, and its Block-WAND
//! union re-sorts all of the query's term cursors at each document it visits: for a pasted
//! traceback (~160 term clauses) over the catalog (~1,200 documents) that cost more than
//! reading the paste. The catalog is small and fixed per snapshot, so each term of each field
//! keeps its postings with the part of BM25 that does not depend on the query, and a query is
//! summed clause by clause into one score per document.
//!
//! The terms' scores are tantivy's to the bit (same statistics, same formula, same order of
//! operations; a test holds them against `Bm25Weight`), and the candidates are its top-k
//! (score, then lower document first). The sum over one document's terms is taken in clause
//! order, where Block-WAND's order depends on its cursors: the two can differ in the last bit.

use std::collections::HashMap;

use rustc_hash::FxHashMap;

use tantivy::fieldnorm::FieldNormReader;
use tantivy::postings::Postings as _;
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, DocSet, Score, Searcher, TERMINATED};

/// BM25's parameters, as tantivy sets them.
const K1: Score = 1.2;
const B: Score = 0.75;

/// One term's documents in one field.
struct TermPostings {
    /// `idf × (1 + k1)`: the score of a document before its term frequency and length count.
    weight: Score,
    /// Per document (its position in the whole index), `tf / (tf + k1 × (1 − b + b × dl /
    /// avgdl))`.
    docs: Box<[(u32, Score)]>,
}

/// Every term of every indexed text field, with its postings.
pub struct PostingsIndex {
    terms: HashMap<Field, FxHashMap<Box<str>, TermPostings>>,
    /// Documents in the index; a document's position counts segments in the searcher's order.
    doc_count: usize,
    /// Per position, the document's address (segment, doc id).
    addresses: Vec<(u32, DocId)>,
}

impl PostingsIndex {
    /// Reads the postings of `fields` from every segment `searcher` sees.
    pub fn read(searcher: &Searcher, fields: &[Field]) -> tantivy::Result<Self> {
        let mut bases = Vec::new();
        let mut addresses = Vec::new();
        for (ord, segment) in searcher.segment_readers().iter().enumerate() {
            bases.push(addresses.len() as u32);
            addresses.extend((0..segment.max_doc()).map(|doc| (ord as u32, doc)));
        }
        let doc_count = addresses.len() as u64;
        let mut terms = HashMap::new();
        for &field in fields {
            let mut total_tokens = 0u64;
            for segment in searcher.segment_readers() {
                total_tokens += segment.inverted_index(field)?.total_num_tokens();
            }
            let average_fieldnorm = total_tokens as Score / doc_count as Score;
            let norms: Vec<Score> = (0..=255u8)
                .map(|id| tf_norm(FieldNormReader::id_to_fieldnorm(id), average_fieldnorm))
                .collect();
            // Per term: the documents of all segments, then its document frequency.
            let mut postings: HashMap<Box<str>, Vec<(u32, Score)>> = HashMap::new();
            for (segment, base) in searcher.segment_readers().iter().zip(&bases) {
                let inverted = segment.inverted_index(field)?;
                let fieldnorms = segment.get_fieldnorms_reader(field)?;
                let mut stream = inverted.terms().stream()?;
                while stream.advance() {
                    let Ok(text) = std::str::from_utf8(stream.key()) else {
                        continue;
                    };
                    let mut cursor = inverted.read_postings_from_terminfo(
                        stream.value(),
                        IndexRecordOption::WithFreqs,
                    )?;
                    let docs = postings.entry(text.into()).or_default();
                    let mut doc = cursor.doc();
                    while doc != TERMINATED {
                        let norm = norms[usize::from(fieldnorms.fieldnorm_id(doc))];
                        let tf = cursor.term_freq() as Score;
                        docs.push((base + doc, tf / (tf + norm)));
                        doc = cursor.advance();
                    }
                }
            }
            let field_terms = postings
                .into_iter()
                .map(|(text, docs)| {
                    let weight = idf(docs.len() as u64, doc_count) * (1.0 + K1);
                    let docs = docs.into_boxed_slice();
                    (text, TermPostings { weight, docs })
                })
                .collect();
            terms.insert(field, field_terms);
        }
        Ok(PostingsIndex {
            terms,
            doc_count: addresses.len(),
            addresses,
        })
    }

    /// The (segment, doc id) of the document at `position`.
    #[cfg(test)]
    pub fn address(&self, position: usize) -> Option<(u32, DocId)> {
        self.addresses.get(position).copied()
    }

    /// Every document's (segment, doc id), in position order.
    pub fn addresses(&self) -> impl Iterator<Item = (u32, DocId)> + '_ {
        self.addresses.iter().copied()
    }

    /// A query's scores: one per document, summed over its clauses in order.
    pub fn scorer(&self) -> Scores<'_> {
        Scores {
            index: self,
            sums: vec![0.0; self.doc_count],
            matched: vec![false; self.doc_count],
        }
    }
}

/// The scores of one query under construction.
pub struct Scores<'a> {
    index: &'a PostingsIndex,
    sums: Vec<Score>,
    matched: Vec<bool>,
}

impl Scores<'_> {
    /// Adds the clause `term` in `field`, its BM25 multiplied by `boost`.
    pub fn add(&mut self, field: Field, term: &str, boost: Score) {
        let Some(postings) = self.index.terms.get(&field).and_then(|t| t.get(term)) else {
            return;
        };
        // As tantivy's `Bm25Weight::boost_by`, then `score`.
        let weight = if boost == 1.0 {
            postings.weight
        } else {
            postings.weight * boost
        };
        for &(doc, tf_factor) in &postings.docs {
            let doc = doc as usize;
            self.sums[doc] += weight * tf_factor;
            self.matched[doc] = true;
        }
    }

    /// The `limit` best documents matched by some clause (by score, then the lower position
    /// first), in no particular order; each with its position ([`PostingsIndex::address`]).
    pub fn top(self, limit: usize) -> Vec<(Score, usize)> {
        let mut found: Vec<(Score, usize)> = self
            .matched
            .iter()
            .enumerate()
            .filter(|(_, matched)| **matched)
            .map(|(doc, _)| (self.sums[doc], doc))
            .collect();
        let order =
            |a: &(Score, usize), b: &(Score, usize)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
        if found.len() > limit {
            found.select_nth_unstable_by(limit, order);
            found.truncate(limit);
        }
        found
    }
}

/// tantivy's `idf`.
fn idf(doc_freq: u64, doc_count: u64) -> Score {
    let x = ((doc_count - doc_freq) as Score + 0.5) / (doc_freq as Score + 0.5);
    (1.0 + x).ln()
}

/// tantivy's cached term-frequency component for a field of `fieldnorm` tokens.
fn tf_norm(fieldnorm: u32, average_fieldnorm: Score) -> Score {
    K1 * (1.0 - B + B * fieldnorm as Score / average_fieldnorm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::collector::TopDocs;
    use tantivy::query::{BoostQuery, TermQuery};
    use tantivy::schema::{Schema, TEXT};
    use tantivy::{Index, TantivyDocument, Term};

    #[test]
    fn every_term_scores_as_tantivy_scores_it() {
        let mut builder = Schema::builder();
        let body = builder.add_text_field("body", TEXT);
        let title = builder.add_text_field("title", TEXT);
        let index = Index::create_in_ram(builder.build());
        let mut writer = index.writer_with_num_threads(1, 15_000_000).unwrap();
        let texts = [
            "cuda out of memory",
            "out of memory while training, memory memory memory",
            "a much longer body that mentions the cuda allocator once and other words many times \
             words words words words words words words words words words words words",
            "nothing related",
        ];
        for (i, text) in texts.iter().enumerate() {
            let mut doc = TantivyDocument::default();
            doc.add_text(body, text);
            doc.add_text(title, texts[(i + 1) % texts.len()]);
            writer.add_document(doc).unwrap();
        }
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let postings = PostingsIndex::read(&searcher, &[body, title]).unwrap();
        for field in [body, title] {
            for term in ["cuda", "memory", "words", "nothing", "absent"] {
                for boost in [1.0, 0.5, 1.5, 4.0 * 0.7] {
                    let query = BoostQuery::new(
                        Box::new(TermQuery::new(
                            Term::from_field_text(field, term),
                            IndexRecordOption::WithFreqs,
                        )),
                        boost,
                    );
                    let mut expected: Vec<(Score, (u32, DocId))> = searcher
                        .search(&query, &TopDocs::with_limit(10).order_by_score())
                        .unwrap()
                        .into_iter()
                        .map(|(score, a)| (score, (a.segment_ord, a.doc_id)))
                        .collect();
                    expected.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                    let mut scores = postings.scorer();
                    scores.add(field, term, boost);
                    let mut found: Vec<(Score, (u32, DocId))> = scores
                        .top(10)
                        .into_iter()
                        .map(|(score, position)| (score, postings.address(position).unwrap()))
                        .collect();
                    found.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                    assert_eq!(found, expected, "{term} ×{boost}");
                }
            }
        }
    }
}
