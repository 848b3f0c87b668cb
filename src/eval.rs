//! The evaluation of matching and search on the evaluation sets in `eval/`: every paste
//! goes through `POST /api/v1/match` with lang = ar, hi and fr, every typed query through
//! `GET /api/v1/search`, exactly as a client would send them. Metrics as the sets' README
//! defines them: exact@1, family@1, MRR@5, plus the language, number and
//! language-independence checks.

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
        ],
    ),
    ("test", &["pastes-test.jsonl"]),
];
const QUERY_SPLITS: &[(&str, &[&str])] = &[
    ("dev", &["queries-dev.jsonl", "queries-dev-wave3.jsonl"]),
    ("test", &["queries-test.jsonl"]),
];
/// `expect` of a paste no article fixes.
pub const OUT_OF_SCOPE: &str = "out-of-scope";

/// One split's numbers: pastes per answer language (in-scope ones), typed queries per
/// language, and how many out-of-scope pastes were asked.
#[derive(Debug, Default, Serialize)]
pub struct SplitReport {
    pub split: String,
    pub pastes: BTreeMap<Lang, SetScore>,
    pub out_of_scope: usize,
    pub queries: BTreeMap<Lang, SetScore>,
}

#[derive(Debug, Default, Serialize)]
pub struct Report {
    /// The first dev sets (`pastes-dev.jsonl`, `queries-dev.jsonl`): the bar the tests hold.
    pub pastes: BTreeMap<Lang, SetScore>,
    pub queries: SetScore,
    /// Every set, dev and test side by side.
    pub splits: Vec<SplitReport>,
    /// A result in another language although the group exists in the requested one.
    pub language_violations: Vec<String>,
    /// A "Tried to allocate X" figure not extracted exactly.
    pub number_failures: Vec<String>,
    pub numbers_checked: usize,
    /// Pastes whose result ids changed with the requested language.
    pub language_dependent: Vec<String>,
    /// Cases whose first result was not the expected group: `id: expected → got`.
    pub misses: Vec<String>,
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

/// Runs the first dev sets (`pastes-dev.jsonl`, `queries-dev.jsonl`, with misses listed) and
/// every split (numbers only) of `eval_dir` against `router`.
pub async fn run(router: &Router, library: &Library, eval_dir: &Path) -> Result<Report, EvalError> {
    let pastes: Vec<PasteCase> = read_jsonl(&eval_dir.join("pastes-dev.jsonl"))?;
    let queries: Vec<QueryCase> = read_jsonl(&eval_dir.join("queries-dev.jsonl"))?;
    let mut report = Report::default();

    let mut ids_by_case: BTreeMap<&str, Vec<Vec<String>>> = BTreeMap::new();
    for lang in Lang::REQUIRED {
        let mut score = Tally::default();
        for case in &pastes {
            let body = json!({"text": case.paste, "lang": lang.code(), "limit": 5});
            let answer = call(
                router,
                Request::post("/api/v1/match")
                    .header("content-type", "application/json")
                    .body(Body::from(body.to_string()))
                    .expect("valid request"),
                &case.id,
            )
            .await?;
            if lang == Lang::Ar {
                check_number(&case.paste, &answer, &case.id, &mut report);
            }
            let label = format!("{} [{lang}]", case.id);
            let ids = score_answer(
                &mut report,
                &mut score,
                library,
                &answer,
                lang,
                &label,
                &case.expect,
                &case.accept,
            );
            ids_by_case.entry(&case.id).or_default().push(ids);
        }
        report.pastes.insert(lang, score.finish());
    }
    for (id, runs) in ids_by_case {
        if runs.windows(2).any(|w| w[0] != w[1]) {
            report.language_dependent.push(id.to_owned());
        }
    }

    let mut score = Tally::default();
    for case in &queries {
        let uri = format!(
            "/api/v1/search?q={}&lang={}&limit=5",
            percent_encode(&case.query),
            case.lang
        );
        let answer = call(
            router,
            Request::get(uri)
                .body(Body::empty())
                .expect("valid request"),
            &case.id,
        )
        .await?;
        score_answer(
            &mut report,
            &mut score,
            library,
            &answer,
            case.lang,
            &case.id,
            &case.expect,
            &[],
        );
    }
    report.queries = score.finish();
    for (split, files) in PASTE_SPLITS {
        report
            .splits
            .push(run_split(router, eval_dir, split, files).await?);
    }
    Ok(report)
}

/// The pastes and queries of one split; only numbers, so a held-out split is never read case
/// by case.
async fn run_split(
    router: &Router,
    eval_dir: &Path,
    split: &str,
    paste_files: &[&str],
) -> Result<SplitReport, EvalError> {
    let mut pastes: Vec<PasteCase> = Vec::new();
    for file in paste_files {
        let path = eval_dir.join(file);
        if path.exists() {
            pastes.extend(read_jsonl::<PasteCase>(&path)?);
        }
    }
    let mut queries: Vec<QueryCase> = Vec::new();
    let query_files = QUERY_SPLITS
        .iter()
        .find(|(name, _)| *name == split)
        .map_or(&[][..], |(_, files)| *files);
    for file in query_files {
        let path = eval_dir.join(file);
        if path.exists() {
            queries.extend(read_jsonl::<QueryCase>(&path)?);
        }
    }
    let (in_scope, out_of_scope): (Vec<&PasteCase>, Vec<&PasteCase>) =
        pastes.iter().partition(|c| c.expect != OUT_OF_SCOPE);
    let mut report = SplitReport {
        split: split.to_owned(),
        out_of_scope: out_of_scope.len(),
        ..SplitReport::default()
    };
    for lang in Lang::REQUIRED {
        let mut tally = Tally::default();
        for case in &in_scope {
            let body = json!({"text": case.paste, "lang": lang.code(), "limit": 5});
            let request = Request::post("/api/v1/match")
                .header("content-type", "application/json")
                .body(Body::from(body.to_string()))
                .expect("valid request");
            let answer = call(router, request, &case.id).await?;
            tally.add(&result_ids(&answer), &case.expect, &case.accept);
        }
        report.pastes.insert(lang, tally.finish());
        let mut tally = Tally::default();
        for case in queries.iter().filter(|c| c.lang == lang) {
            let uri = format!(
                "/api/v1/search?q={}&lang={}&limit=5",
                percent_encode(&case.query),
                case.lang
            );
            let request = Request::get(uri)
                .body(Body::empty())
                .expect("valid request");
            let answer = call(router, request, &case.id).await?;
            tally.add(&result_ids(&answer), &case.expect, &[]);
        }
        report.queries.insert(lang, tally.finish());
    }
    Ok(report)
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

/// Scores one answer: the language check, the tally and, when the first result is not the
/// expected group, a line in `misses`. Returns the result ids.
#[allow(clippy::too_many_arguments)]
fn score_answer(
    report: &mut Report,
    tally: &mut Tally,
    library: &Library,
    answer: &Value,
    lang: Lang,
    label: &str,
    expect: &str,
    accept: &[String],
) -> Vec<String> {
    let ids = result_ids(answer);
    check_languages(
        answer,
        library,
        lang,
        label,
        &mut report.language_violations,
    );
    tally.add(&ids, expect, accept);
    if ids.first().map(String::as_str) != Some(expect) {
        report.misses.push(format!(
            "{label}: {expect} → {}",
            ids.first().map(String::as_str).unwrap_or("nothing")
        ));
    }
    ids
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

fn check_languages(
    answer: &Value,
    library: &Library,
    lang: Lang,
    case: &str,
    out: &mut Vec<String>,
) {
    for result in answer["results"].as_array().into_iter().flatten() {
        let id = result["id"].as_str().unwrap_or_default();
        let shown = result["lang"].as_str().unwrap_or_default();
        if library.get(id, lang).is_some() && shown != lang.code() {
            out.push(format!("{case}: {id} shown in {shown}, asked for {lang}"));
        }
    }
}

static TRIED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"Tried to allocate\s+(\d+(?:\.\d+)?)\s*(bytes|B|KiB|MiB|GiB|TiB|KB|MB|GB)\b")
        .expect("pattern")
});

/// Checks the figure against the paste independently of the parser: the printed value times
/// its unit, within half a unit of the last printed digit.
fn check_number(paste: &str, answer: &Value, case: &str, report: &mut Report) {
    let Some(captures) = TRIED.captures(paste) else {
        return;
    };
    report.numbers_checked += 1;
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
    if !got.is_some_and(|got| (got - expected).abs() <= tolerance) {
        report.number_failures.push(format!(
            "{case}: printed {printed} {}, extracted {got:?}",
            &captures[2]
        ));
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
        for (lang, score) in &self.pastes {
            row(&mut out, &format!("pastes ({lang})"), score);
        }
        row(&mut out, "queries", &self.queries);
        let _ = writeln!(out, "\nevery set, dev (tuned on) and test (held out):");
        for split in &self.splits {
            for (lang, score) in &split.pastes {
                row(&mut out, &format!("{} pastes {lang}", split.split), score);
            }
            for (lang, score) in &split.queries {
                row(&mut out, &format!("{} queries {lang}", split.split), score);
            }
            let _ = writeln!(
                out,
                "{} out-of-scope pastes: {} (no answer state yet to score them)",
                split.split, split.out_of_scope
            );
        }
        let _ = writeln!(
            out,
            "\nnumbers: {}/{} \"Tried to allocate\" figures exact; language violations: {}; language-dependent pastes: {}",
            self.numbers_checked - self.number_failures.len(),
            self.numbers_checked,
            self.language_violations.len(),
            self.language_dependent.len()
        );
        for line in self
            .number_failures
            .iter()
            .chain(&self.language_violations)
            .chain(&self.language_dependent)
        {
            let _ = writeln!(out, "  {line}");
        }
        if !self.misses.is_empty() {
            let _ = writeln!(out, "\nfirst result not the expected group:");
            for miss in &self.misses {
                let _ = writeln!(out, "  {miss}");
            }
        }
        out
    }
}
