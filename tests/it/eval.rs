//! The evaluation sets in eval/ (copied from the team's sets), run through the API, stay above the bar the project
//! set: pastes exact@1 ≥ 0.80 and family@1 ≥ 0.95 in every language, typed queries
//! exact@1 ≥ 0.80; every result in the requested language when it exists; every
//! "Tried to allocate" figure extracted exactly; results independent of the language.

use crate::helpers::{load, repo_path};
use ilaj::web::{self, AppState};

#[tokio::test]
async fn evaluation_sets_stay_above_the_bar() {
    let library = load(&repo_path("content")).library;
    let router = web::router(AppState::new(library.clone()).expect("index builds"));
    let report = ilaj::eval::run(&router, &library, &repo_path("eval"))
        .await
        .expect("evaluation runs");
    println!("{}", report.table());

    for (lang, score) in &report.pastes {
        assert!(score.cases >= 50, "{lang}: {} pastes", score.cases);
        assert!(
            score.exact_at_1 >= 0.80,
            "pastes exact@1 in {lang}: {:.3}",
            score.exact_at_1
        );
        assert!(
            score.family_at_1 >= 0.95,
            "pastes family@1 in {lang}: {:.3}",
            score.family_at_1
        );
    }
    assert_eq!(report.pastes.len(), 3);
    assert!(
        report.queries.exact_at_1 >= 0.80,
        "queries exact@1: {:.3}",
        report.queries.exact_at_1
    );
    assert!(
        report.language_violations.is_empty(),
        "{:?}",
        report.language_violations
    );
    assert!(
        report.numbers_checked >= 20,
        "{} figures checked",
        report.numbers_checked
    );
    assert!(
        report.number_failures.is_empty(),
        "{:?}",
        report.number_failures
    );
    assert!(
        report.language_dependent.is_empty(),
        "{:?}",
        report.language_dependent
    );

    // Every split runs, dev and held-out test, with out-of-scope pastes set apart.
    let splits: Vec<&str> = report.splits.iter().map(|s| s.split.as_str()).collect();
    assert_eq!(splits, ["dev", "test"]);
    for split in &report.splits {
        for lang in ilaj::i18n::Lang::REQUIRED {
            assert!(split.pastes[&lang].cases >= 60, "{} pastes", split.split);
            assert!(
                split.queries[&lang].cases >= 15,
                "{} {lang} queries",
                split.split
            );
        }
    }
    let out_of_scope: usize = report.splits.iter().map(|s| s.out_of_scope).sum();
    assert!(out_of_scope >= 40, "{out_of_scope} out-of-scope pastes");
}
