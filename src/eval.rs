//! The evaluation of matching and search on the evaluation sets in `eval/`: every paste
//! goes through `POST /api/v1/match` with lang = ar, hi and fr, every typed query through
//! `GET /api/v1/search`, exactly as a client would send them. Metrics as the sets' README
//! defines them: exact@1, family@1, MRR@5, the answer states (confident answers right,
//! coverage, out-of-scope answered confidently), plus the language, number and
//! language-independence checks. The test split is only counted, never listed case by case.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use axum::Router;
use axum::body::Body;
use axum::http::Request;
use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tower::ServiceExt;

use crate::content::Library;
use crate::i18n::Lang;
use crate::search::{Engine, Hit};

#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}:{line}: {source}", path.display())]
    Parse {
        path: PathBuf,
        line: usize,
        source: serde_json::Error,
    },
    #[error("the server answered {status} to {what}: {body}")]
    Request {
        what: String,
        status: u16,
        body: String,
    },
}

#[derive(Debug, Clone, Deserialize)]
pub struct PasteCase {
    pub id: String,
    pub expect: String,
    #[serde(default)]
    pub accept: Vec<String>,
    pub paste: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct QueryCase {
    pub id: String,
    pub lang: Lang,
    pub query: String,
    pub expect: String,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct SetScore {
    pub cases: usize,
    pub exact_at_1: f64,
    pub family_at_1: f64,
    pub mrr_at_5: f64,
}

/// The cases of one split: `dev` (tuned on) or `test` (held out, never looked at one by one).
/// Files that are not in the folder are skipped.
const PASTE_SPLITS: &[(&str, &[&str])] = &[
    (
        "dev",
        &[
            "pastes-dev.jsonl",
            "pastes-dev-wave2.jsonl",
            "pastes-dev-wave3.jsonl",
            "pastes-dev-wave4.jsonl",
            "pastes-dev-wave5.jsonl",
            "pastes-dev-wave6.jsonl",
            "pastes-dev-wave7.jsonl",
            "pastes-dev-wave8.jsonl",
            "pastes-dev-wave9.jsonl",
            "pastes-dev-wave12.jsonl",
            "pastes-dev-wave14.jsonl",
            "pastes-dev-wave15.jsonl",
            "pastes-dev-wave16.jsonl",
            "pastes-dev-wave17.jsonl",
            "pastes-dev-wave19.jsonl",
            "pastes-dev-wave20.jsonl",
            "pastes-dev-wave21.jsonl",
            "pastes-dev-wave22.jsonl",
            "pastes-dev-wave24.jsonl",
            "pastes-dev-wave26.jsonl",
            "pastes-dev-wave28.jsonl",
            "pastes-dev-wave35.jsonl",
            "pastes-dev-wave37.jsonl",
            "pastes-dev-wave39.jsonl",
            "pastes-dev-wave41.jsonl",
            "pastes-dev-wave43.jsonl",
            "pastes-dev-wave45.jsonl",
            "pastes-dev-wave48.jsonl",
            "pastes-dev-wave50.jsonl",
        ],
    ),
    (
        "test",
        &[
            "pastes-test.jsonl",
            "pastes-test-wave18.jsonl",
            "pastes-test-wave23.jsonl",
            "pastes-test-wave25.jsonl",
            "pastes-test-wave31.jsonl",
        ],
    ),
];
const QUERY_SPLITS: &[(&str, &[&str])] = &[
    (
        "dev",
        &[
            "queries-dev.jsonl",
            "queries-dev-wave3.jsonl",
            "queries-dev-wave5.jsonl",
            "queries-dev-wave6.jsonl",
            "queries-dev-wave7.jsonl",
            "queries-dev-wave8.jsonl",
            "queries-dev-wave9.jsonl",
            "queries-dev-wave10.jsonl",
            "queries-dev-wave11.jsonl",
            "queries-dev-wave12.jsonl",
            "queries-dev-wave13.jsonl",
            "queries-dev-wave15.jsonl",
            "queries-dev-wave16.jsonl",
            "queries-dev-wave17.jsonl",
            "queries-dev-wave19.jsonl",
            "queries-dev-wave20.jsonl",
            "queries-dev-wave21.jsonl",
            "queries-dev-wave22.jsonl",
            "queries-dev-wave24.jsonl",
            "queries-dev-wave26.jsonl",
            "queries-dev-wave27.jsonl",
            "queries-dev-wave30.jsonl",
            "queries-dev-wave32.jsonl",
            "queries-dev-wave33.jsonl",
            "queries-dev-wave34.jsonl",
            "queries-dev-wave36.jsonl",
            "queries-dev-wave38.jsonl",
            "queries-dev-wave40.jsonl",
            "queries-dev-wave42.jsonl",
            "queries-dev-wave44.jsonl",
            "queries-dev-wave46.jsonl",
            "queries-dev-wave47.jsonl",
            "queries-dev-wave49.jsonl",
            "queries-dev-wave51.jsonl",
        ],
    ),
    (
        "test",
        &[
            "queries-test.jsonl",
            "queries-test-wave18.jsonl",
            "queries-test-wave23.jsonl",
            "queries-test-wave25.jsonl",
            "queries-test-wave29.jsonl",
        ],
    ),
];
/// `expect` of a paste no article fixes.
pub const OUT_OF_SCOPE: &str = "out-of-scope";

/// How the answer states of one split came out: `confident` must be right, in-scope pastes
/// should be answered `confident`, out-of-scope ones should not.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct AnswerStates {
    pub confident: usize,
    /// Confident answers whose first result is `expect` or in `accept`.
    pub confident_right: usize,
    pub in_scope: usize,
    pub in_scope_confident: usize,
    pub out_of_scope: usize,
    pub out_of_scope_confident: usize,
    pub out_of_scope_none: usize,
}

impl AnswerStates {
    fn add(&mut self, answer: &Value, ids: &[String], expect: &str, accept: &[String]) {
        let state = answer["answer"].as_str().unwrap_or("");
        let first = ids.first().map(String::as_str);
        let confident = state == "confident";
        if expect == OUT_OF_SCOPE {
            self.out_of_scope += 1;
            self.out_of_scope_confident += usize::from(confident);
            self.out_of_scope_none += usize::from(state == "none");
        } else {
            self.in_scope += 1;
            self.in_scope_confident += usize::from(confident);
        }
        if confident {
            self.confident += 1;
            let right = first.is_some_and(|f| f == expect || accept.iter().any(|a| a == f));
            self.confident_right += usize::from(right);
        }
    }

    /// Share of confident answers that are right (1 when there are none).
    pub fn precision(&self) -> f64 {
        ratio(self.confident_right, self.confident, 1.0)
    }

    /// Share of in-scope cases answered confidently.
    pub fn coverage(&self) -> f64 {
        ratio(self.in_scope_confident, self.in_scope, 0.0)
    }

    /// Share of out-of-scope cases answered confidently (0 when there are none).
    pub fn out_of_scope_confident_share(&self) -> f64 {
        ratio(self.out_of_scope_confident, self.out_of_scope, 0.0)
    }
}

fn ratio(part: usize, whole: usize, empty: f64) -> f64 {
    if whole == 0 {
        empty
    } else {
        part as f64 / whole as f64
    }
}

/// One split's numbers: pastes per answer language (in-scope ones), typed queries per
/// language, and the answer states of pastes and of queries.
#[derive(Debug, Default, Serialize)]
pub struct SplitReport {
    pub split: String,
    pub pastes: BTreeMap<Lang, SetScore>,
    pub out_of_scope: usize,
    pub queries: BTreeMap<Lang, SetScore>,
    pub paste_answers: AnswerStates,
    pub query_answers: AnswerStates,
    /// Checks that must hold on every case; counted here, listed in `Report` for dev only.
    pub number_failures: usize,
    pub numbers_checked: usize,
    pub language_violations: usize,
    pub language_dependent: usize,
    pub asked: AskedPastes,
}

/// In-scope pastes whose answer asked where the error struck, and what answering it as the
/// issue thread's author would have (the choice leading to `expect`, else to an `accept`ed
/// group) made of the answer.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct AskedPastes {
    pub asked: usize,
    /// Of those, first result `expect` before answering.
    pub exact_before: usize,
    /// Asked pastes whose expected (or an accepted) group is one of the choices.
    pub answerable: usize,
    /// Of the answerable, first result `expect` after answering.
    pub exact_after: usize,
    pub confident_after: usize,
    pub confident_right_after: usize,
}

impl AskedPastes {
    /// `first_answer`: the answer to the paste as sent; `answer_with`: the answer to the same
    /// paste with a `situation` stated.
    async fn add<F, Fut>(
        &mut self,
        first_answer: &Value,
        case: &PasteCase,
        answer_with: F,
    ) -> Result<(), EvalError>
    where
        F: FnOnce(String) -> Fut,
        Fut: std::future::Future<Output = Result<Value, EvalError>>,
    {
        let Some(choices) = first_answer["ask"]["choices"].as_array() else {
            return Ok(());
        };
        self.asked += 1;
        let first = result_ids(first_answer);
        self.exact_before += usize::from(first.first() == Some(&case.expect));
        let leads_to = |group: &str| {
            choices
                .iter()
                .find(|c| c["id"] == group)
                .and_then(|c| c["situation"].as_str())
        };
        let Some(situation) =
            leads_to(&case.expect).or_else(|| case.accept.iter().find_map(|group| leads_to(group)))
        else {
            return Ok(());
        };
        self.answerable += 1;
        let answer = answer_with(situation.to_owned()).await?;
        let ids = result_ids(&answer);
        let first = ids.first();
        self.exact_after += usize::from(first == Some(&case.expect));
        if answer["answer"] == "confident" {
            self.confident_after += 1;
            let right = first.is_some_and(|f| *f == case.expect || case.accept.contains(f));
            self.confident_right_after += usize::from(right);
        }
        Ok(())
    }
}

#[derive(Debug, Default, Serialize)]
pub struct Report {
    /// Every split, dev and test side by side.
    pub splits: Vec<SplitReport>,
    /// Dev cases only (the test split is never read case by case): a result in another
    /// language although the group exists in the requested one, …
    pub language_violations: Vec<String>,
    /// … a "Tried to allocate X" figure not extracted exactly, …
    pub number_failures: Vec<String>,
    /// … pastes whose result ids or answer state changed with the requested language, …
    pub language_dependent: Vec<String>,
    /// … and cases whose first result was not the expected group, or whose answer state was
    /// wrong for an out-of-scope case: `id: expected → got (state, confidence)`.
    pub misses: Vec<String>,
}

impl Report {
    pub fn split(&self, name: &str) -> Option<&SplitReport> {
        self.splits.iter().find(|s| s.split == name)
    }
}

pub fn read_jsonl<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Vec<T>, EvalError> {
    let text = std::fs::read_to_string(path).map_err(|source| EvalError::Read {
        path: path.to_owned(),
        source,
    })?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            serde_json::from_str(line).map_err(|source| EvalError::Parse {
                path: path.to_owned(),
                line: index + 1,
                source,
            })
        })
        .collect()
}

fn read_split<T: for<'de> Deserialize<'de>>(
    eval_dir: &Path,
    splits: &[(&str, &[&str])],
    split: &str,
) -> Result<Vec<T>, EvalError> {
    let files = splits
        .iter()
        .find(|(name, _)| *name == split)
        .map_or(&[][..], |(_, files)| *files);
    let mut cases = Vec::new();
    for file in files {
        let path = eval_dir.join(file);
        if path.exists() {
            cases.extend(read_jsonl::<T>(&path)?);
        }
    }
    Ok(cases)
}

/// Runs every split of `eval_dir` against `router`: numbers for all, and for dev the cases
/// that missed.
pub async fn run(router: &Router, library: &Library, eval_dir: &Path) -> Result<Report, EvalError> {
    let mut report = Report::default();
    for (split, _) in PASTE_SPLITS {
        let pastes: Vec<PasteCase> = read_split(eval_dir, PASTE_SPLITS, split)?;
        let queries: Vec<QueryCase> = read_split(eval_dir, QUERY_SPLITS, split)?;
        let listed = (*split == "dev").then_some(&mut report);
        let split_report = run_split(router, library, split, &pastes, &queries, listed).await?;
        report.splits.push(split_report);
    }
    Ok(report)
}

/// The ranking evidence of every result of the dev split, one JSON line each, with whether the
/// result is right: what the confidence model is fitted on (never the test split).
pub fn dev_features(engine: &Engine, eval_dir: &Path) -> Result<String, EvalError> {
    let pastes: Vec<PasteCase> = read_split(eval_dir, PASTE_SPLITS, "dev")?;
    let queries: Vec<QueryCase> = read_split(eval_dir, QUERY_SPLITS, "dev")?;
    let mut out = String::new();
    let mut line = |case: &str, expect: &str, accept: &[String], rank: usize, hit: &Hit| {
        let right = hit.id == expect || accept.contains(&hit.id);
        let row = json!({
            "case": case,
            "rank": rank,
            "id": hit.id,
            "out_of_scope": expect == OUT_OF_SCOPE,
            "right": right,
            "evidence": hit.evidence,
        });
        out.push_str(&row.to_string());
        out.push('\n');
    };
    for case in &pastes {
        let outcome = engine.match_paste(&case.paste, Lang::Ar, 5);
        for (rank, hit) in outcome.results.iter().enumerate() {
            line(&case.id, &case.expect, &case.accept, rank, hit);
        }
    }
    for case in &queries {
        let outcome = engine.search(&case.query, case.lang, 5);
        for (rank, hit) in outcome.results.iter().enumerate() {
            line(&case.id, &case.expect, &[], rank, hit);
        }
    }
    Ok(out)
}

/// The pastes and queries of one split. `listed` receives the cases that failed, by id; it
/// is `None` for a held-out split, which is only ever counted.
async fn run_split(
    router: &Router,
    library: &Library,
    split: &str,
    pastes: &[PasteCase],
    queries: &[QueryCase],
    mut listed: Option<&mut Report>,
) -> Result<SplitReport, EvalError> {
    let mut report = SplitReport {
        split: split.to_owned(),
        out_of_scope: pastes.iter().filter(|c| c.expect == OUT_OF_SCOPE).count(),
        ..SplitReport::default()
    };
    let mut tallies: BTreeMap<Lang, Tally> = BTreeMap::new();
    for case in pastes {
        let mut runs: Vec<(Vec<String>, String)> = Vec::new();
        for lang in Lang::REQUIRED {
            let body = json!({"text": case.paste, "lang": lang.code(), "limit": 5});
            let answer = call(router, match_request(&body), &case.id).await?;
            let ids = result_ids(&answer);
            let label = format!("{} [{lang}]", case.id);
            for violation in language_violations(&answer, library, lang, &label) {
                report.language_violations += 1;
                if let Some(listed) = listed.as_deref_mut() {
                    listed.language_violations.push(violation);
                }
            }
            if lang == Lang::Ar {
                if let Some(failure) = check_number(&case.paste, &answer, &case.id) {
                    report.numbers_checked += 1;
                    if let Err(failure) = failure {
                        report.number_failures += 1;
                        if let Some(listed) = listed.as_deref_mut() {
                            listed.number_failures.push(failure);
                        }
                    }
                }
                report
                    .paste_answers
                    .add(&answer, &ids, &case.expect, &case.accept);
                if case.expect != OUT_OF_SCOPE {
                    let answer_with = |situation: String| {
                        let mut body = body.clone();
                        body["situation"] = json!(situation);
                        call(router, match_request(&body), &case.id)
                    };
                    report.asked.add(&answer, case, answer_with).await?;
                }
                if let Some(listed) = listed.as_deref_mut() {
                    note_miss(listed, &answer, &ids, &case.id, &case.expect, &case.accept);
                }
            }
            if case.expect != OUT_OF_SCOPE {
                tallies
                    .entry(lang)
                    .or_default()
                    .add(&ids, &case.expect, &case.accept);
            }
            let state = answer["answer"].as_str().unwrap_or("").to_owned();
            runs.push((ids, state));
        }
        if runs.windows(2).any(|w| w[0] != w[1]) {
            report.language_dependent += 1;
            if let Some(listed) = listed.as_deref_mut() {
                listed.language_dependent.push(case.id.clone());
            }
        }
    }
    report.pastes = tallies.into_iter().map(|(l, t)| (l, t.finish())).collect();

    let mut tallies: BTreeMap<Lang, Tally> = Lang::REQUIRED
        .into_iter()
        .map(|lang| (lang, Tally::default()))
        .collect();
    for case in queries {
        let uri = format!(
            "/api/v1/search?q={}&lang={}&limit=5",
            percent_encode(&case.query),
            case.lang
        );
        let request = Request::get(uri)
            .body(Body::empty())
            .expect("valid request");
        let answer = call(router, request, &case.id).await?;
        let ids = result_ids(&answer);
        for violation in language_violations(&answer, library, case.lang, &case.id) {
            report.language_violations += 1;
            if let Some(listed) = listed.as_deref_mut() {
                listed.language_violations.push(violation);
            }
        }
        tallies
            .entry(case.lang)
            .or_default()
            .add(&ids, &case.expect, &[]);
        report.query_answers.add(&answer, &ids, &case.expect, &[]);
        if let Some(listed) = listed.as_deref_mut() {
            let label = format!("{} «{}»", case.id, case.query);
            note_miss(listed, &answer, &ids, &label, &case.expect, &[]);
        }
    }
    report.queries = tallies.into_iter().map(|(l, t)| (l, t.finish())).collect();
    Ok(report)
}

fn match_request(body: &Value) -> Request<Body> {
    Request::post("/api/v1/match")
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .expect("valid request")
}

/// Lists a case whose first result is not `expect`, or an out-of-scope case answered
/// confidently.
fn note_miss(
    report: &mut Report,
    answer: &Value,
    ids: &[String],
    label: &str,
    expect: &str,
    accept: &[String],
) {
    let first = ids.first().map(String::as_str).unwrap_or("nothing");
    let state = answer["answer"].as_str().unwrap_or("-");
    let confidence = answer["results"][0]["confidence"].as_f64().unwrap_or(0.0);
    let wrong = if expect == OUT_OF_SCOPE {
        state == "confident"
    } else {
        first != expect
    };
    if wrong {
        let family = if accept.iter().any(|a| a == first) {
            " (family)"
        } else {
            ""
        };
        report.misses.push(format!(
            "{label}: {expect} → {first}{family} [{state} {confidence:.2}]"
        ));
    }
}

async fn call(router: &Router, request: Request<Body>, what: &str) -> Result<Value, EvalError> {
    let response = router
        .clone()
        .oneshot(request)
        .await
        .unwrap_or_else(|never| match never {});
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap_or_default();
    if !status.is_success() {
        return Err(EvalError::Request {
            what: what.to_owned(),
            status: status.as_u16(),
            body: String::from_utf8_lossy(&bytes).into_owned(),
        });
    }
    Ok(serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

fn result_ids(answer: &Value) -> Vec<String> {
    answer["results"]
        .as_array()
        .map(|results| {
            results
                .iter()
                .filter_map(|r| r["id"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn language_violations(answer: &Value, library: &Library, lang: Lang, case: &str) -> Vec<String> {
    let mut out = Vec::new();
    for result in answer["results"].as_array().into_iter().flatten() {
        let id = result["id"].as_str().unwrap_or_default();
        let shown = result["lang"].as_str().unwrap_or_default();
        if library.get(id, lang).is_some() && shown != lang.code() {
            out.push(format!("{case}: {id} shown in {shown}, asked for {lang}"));
        }
    }
    out
}

static TRIED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"Tried to allocate\s+(\d+(?:\.\d+)?)\s*(bytes|B|KiB|MiB|GiB|TiB|KB|MB|GB)\b")
        .expect("pattern")
});

/// Checks the figure against the paste independently of the parser: the printed value times
/// its unit, within half a unit of the last printed digit. When a paste holds several
/// messages, the last one counts: the error the process ended on. `None` when the paste has
/// no such figure.
fn check_number(paste: &str, answer: &Value, case: &str) -> Option<Result<(), String>> {
    let captures = TRIED.captures_iter(paste).last()?;
    let printed = &captures[1];
    let unit: f64 = match &captures[2] {
        "bytes" | "B" => 1.0,
        "KiB" | "KB" => 1024.0,
        "MiB" | "MB" => 1024.0 * 1024.0,
        "GiB" | "GB" => 1024.0 * 1024.0 * 1024.0,
        _ => 1024.0_f64.powi(4),
    };
    let decimals = printed.split_once('.').map(|(_, d)| d.len()).unwrap_or(0);
    let expected = printed.parse::<f64>().unwrap_or(0.0) * unit;
    let tolerance = 0.5 * unit / 10f64.powi(decimals as i32);
    let got = answer["diagnosis"]["facts"]["tried_to_allocate_bytes"].as_f64();
    if got.is_some_and(|got| (got - expected).abs() <= tolerance) {
        Some(Ok(()))
    } else {
        Some(Err(format!(
            "{case}: printed {printed} {}, extracted {got:?}",
            &captures[2]
        )))
    }
}

#[derive(Default)]
struct Tally {
    cases: usize,
    exact: usize,
    family: usize,
    reciprocal_ranks: f64,
}

impl Tally {
    fn add(&mut self, ids: &[String], expect: &str, accept: &[String]) {
        self.cases += 1;
        if let Some(first) = ids.first() {
            if first == expect {
                self.exact += 1;
            }
            if first == expect || accept.contains(first) {
                self.family += 1;
            }
        }
        if let Some(rank) = ids.iter().take(5).position(|id| id == expect) {
            self.reciprocal_ranks += 1.0 / (rank as f64 + 1.0);
        }
    }

    fn finish(self) -> SetScore {
        let n = self.cases.max(1) as f64;
        SetScore {
            cases: self.cases,
            exact_at_1: self.exact as f64 / n,
            family_at_1: self.family as f64 / n,
            mrr_at_5: self.reciprocal_ranks / n,
        }
    }
}

fn percent_encode(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.~".contains(&byte) {
            out.push(byte as char);
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

impl Report {
    /// The table the `ilaj eval` command prints.
    pub fn table(&self) -> String {
        let mut out = String::from("set                 cases  exact@1  family@1  MRR@5\n");
        let row = |out: &mut String, name: &str, s: &SetScore| {
            let _ = writeln!(
                out,
                "{name:<19} {:>5}  {:>7.3}  {:>8.3}  {:>5.3}",
                s.cases, s.exact_at_1, s.family_at_1, s.mrr_at_5
            );
        };
        for split in &self.splits {
            for (lang, score) in &split.pastes {
                row(&mut out, &format!("{} pastes {lang}", split.split), score);
            }
            for (lang, score) in &split.queries {
                row(&mut out, &format!("{} queries {lang}", split.split), score);
            }
        }
        let _ = writeln!(
            out,
            "\nanswer states          confident right  coverage  out-of-scope confident  out-of-scope none"
        );
        for split in &self.splits {
            for (what, states) in [
                ("pastes", &split.paste_answers),
                ("queries", &split.query_answers),
            ] {
                let _ = writeln!(
                    out,
                    "{:<22} {:>6.3} ({:>3}/{:<3}) {:>8.3}  {:>10.3} ({:>2}/{:<2})  {:>12}",
                    format!("{} {what}", split.split),
                    states.precision(),
                    states.confident_right,
                    states.confident,
                    states.coverage(),
                    states.out_of_scope_confident_share(),
                    states.out_of_scope_confident,
                    states.out_of_scope,
                    states.out_of_scope_none,
                );
            }
        }
        let _ = writeln!(
            out,
            "\nasked where it struck   in-scope asked  exact before  answerable  exact after  confident right after"
        );
        for split in &self.splits {
            let a = &split.asked;
            let _ = writeln!(
                out,
                "{:<22} {:>15}  {:>12}  {:>10}  {:>11}  {:>10}/{:<3}",
                format!("{} pastes", split.split),
                a.asked,
                a.exact_before,
                a.answerable,
                a.exact_after,
                a.confident_right_after,
                a.confident_after,
            );
        }
        out.push('\n');
        for split in &self.splits {
            let _ = writeln!(
                out,
                "{}: {}/{} \"Tried to allocate\" figures exact; language violations: {}; language-dependent pastes: {}",
                split.split,
                split.numbers_checked - split.number_failures,
                split.numbers_checked,
                split.language_violations,
                split.language_dependent
            );
        }
        for line in self
            .number_failures
            .iter()
            .chain(&self.language_violations)
            .chain(&self.language_dependent)
        {
            let _ = writeln!(out, "  {line}");
        }
        if !self.misses.is_empty() {
            let _ = writeln!(out, "\ndev cases answered wrong:");
            for miss in &self.misses {
                let _ = writeln!(out, "  {miss}");
            }
        }
        out
    }
}
