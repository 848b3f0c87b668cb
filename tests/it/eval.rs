//! The evaluation sets in eval/ (real pastes from public issue trackers, typed queries in
//! three languages), run through the API, stay above the bar the project set, on the dev split
//! it was tuned on and on the held-out test split, which is only ever counted. Every result is
//! in the requested language when it exists, every "Tried to allocate" figure is extracted
//! exactly, and results do not depend on the requested language.

use crate::helpers::{load, repo_path};
use ilaj::eval::SplitReport;
use ilaj::i18n::Lang;
use ilaj::web::{self, AppState};

struct Bar {
    paste_exact: f64,
    paste_family: f64,
    query_exact: f64,
    confident_right: f64,
    coverage: f64,
    out_of_scope_confident: f64,
}

fn assert_meets(split: &SplitReport, bar: &Bar) {
    let name = &split.split;
    for lang in Lang::REQUIRED {
        let pastes = &split.pastes[&lang];
        assert!(pastes.cases >= 60, "{name}: {} pastes", pastes.cases);
        assert!(
            pastes.exact_at_1 >= bar.paste_exact,
            "{name} pastes exact@1 in {lang}: {:.3}",
            pastes.exact_at_1
        );
        assert!(
            pastes.family_at_1 >= bar.paste_family,
            "{name} pastes family@1 in {lang}: {:.3}",
            pastes.family_at_1
        );
        let queries = &split.queries[&lang];
        assert!(
            queries.cases >= 15,
            "{name} {lang}: {} queries",
            queries.cases
        );
        assert!(
            queries.exact_at_1 >= bar.query_exact,
            "{name} queries exact@1 in {lang}: {:.3}",
            queries.exact_at_1
        );
    }
    let typed = &split.query_answers;
    assert!(
        typed.precision() >= bar.confident_right,
        "{name}: confident typed answers right {:.3}",
        typed.precision()
    );
    let answers = &split.paste_answers;
    assert!(
        answers.precision() >= bar.confident_right,
        "{name}: confident answers right {:.3}",
        answers.precision()
    );
    assert!(
        answers.coverage() >= bar.coverage,
        "{name}: in-scope pastes answered confidently {:.3}",
        answers.coverage()
    );
    assert!(
        answers.out_of_scope_confident_share() <= bar.out_of_scope_confident,
        "{name}: out-of-scope pastes answered confidently {:.3}",
        answers.out_of_scope_confident_share()
    );
    assert!(
        split.numbers_checked >= 20,
        "{name}: {} figures",
        split.numbers_checked
    );
    assert_eq!(split.number_failures, 0, "{name}: figures not exact");
    assert_eq!(
        split.language_violations, 0,
        "{name}: results in another language"
    );
    assert_eq!(
        split.language_dependent, 0,
        "{name}: results depend on the language"
    );
}

/// The contract's promise for answer states (confident answers ≥ 95 % right, out-of-scope
/// pastes confident ≤ 5 %) and, for ranking, bars a little under the measured numbers, so a
/// regression fails; the held-out split's ranking bars are lower because it is lower. (The dev
/// pastes' bars went down when wave 5, 97 pastes measured at exact@1 0.800 before any tuning,
/// joined the split; wave 7, 47 in-scope pastes measured at 0.596, kept them there; waves 8–10
/// of typed searches, measured at 0.50–0.83 when they joined, hold the typed bar under the
/// earlier sets' 0.98.) The held-out split doubled with wave 18 — 81 pastes and 120 typed
/// searches collected blind, measured once at exact@1 0.815, family@1 0.852 and typed
/// Arabic 0.700 — which set its family and typed bars where they are. Wave 23 (81 in-scope
/// pastes, 120 typed searches) went straight to it too and, at family@1 0.827, brought the
/// split's family@1 to 0.880, so that bar is 0.86. Coverage bars went down (dev 0.827 →
/// 0.777, test 0.784 → 0.747) when answers resting on a situation read from prose alone
/// needed 0.80 to be confident: that class was right 7 times in 11 in wave 22 before tuning.
/// Wave 25 (80 in-scope pastes, 120 typed searches) joined the held-out split at exact@1
/// 0.887 and brought its exact@1 to 0.832, so that bar rose to 0.80 and the typed one to 0.82.
/// Waves 39 and 41 (pastes of models being run: generation, serving, memory held or growing),
/// measured blind at exact@1 0.580 and 0.650, brought the dev pastes from 0.859 to 0.845, so
/// that bar is 0.83. Waves 45, 48 and 50 (blind exact@1 0.700, 0.762, 0.709; coverage
/// 0.625, 0.700, 0.696) and answers whose fragmentation figures an evaluation phase contests
/// (no longer `confident`: 5 of 6 such dev answers were wrong) brought dev to exact@1 0.826,
/// family@1 0.909 and coverage 0.769, so those bars are 0.82, 0.90 and 0.76.
const DEV_BAR: Bar = Bar {
    paste_exact: 0.82,
    paste_family: 0.90,
    query_exact: 0.95,
    confident_right: 0.95,
    coverage: 0.76,
    out_of_scope_confident: 0.05,
};
const TEST_BAR: Bar = Bar {
    paste_exact: 0.80,
    paste_family: 0.86,
    query_exact: 0.82,
    confident_right: 0.95,
    coverage: 0.75,
    out_of_scope_confident: 0.05,
};

#[tokio::test]
async fn evaluation_sets_stay_above_the_bar() {
    let library = load(&repo_path("content")).library;
    let router = web::router(AppState::new(library.clone()).expect("index builds"));
    let report = ilaj::eval::run(&router, &library, &repo_path("eval"))
        .await
        .expect("evaluation runs");
    println!("{}", report.table());

    let splits: Vec<&str> = report.splits.iter().map(|s| s.split.as_str()).collect();
    assert_eq!(splits, ["dev", "test"]);
    let dev = report.split("dev").expect("dev split");
    let test = report.split("test").expect("test split");
    assert_meets(dev, &DEV_BAR);
    assert_meets(test, &TEST_BAR);
    let out_of_scope = dev.out_of_scope + test.out_of_scope;
    assert!(out_of_scope >= 40, "{out_of_scope} out-of-scope pastes");
}
