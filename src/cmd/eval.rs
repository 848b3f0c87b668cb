//! `ilaj eval`: the evaluation sets through the API, as a table.

use super::{CmdError, fail_on_problems};
use crate::cli::EvalArgs;
use crate::content;
use crate::web;

/// Refuses to measure a content folder with problems: a glossary that fails to parse is
/// dropped by the loader, and the numbers would silently describe a different engine.
pub async fn run(args: &EvalArgs) -> Result<(), CmdError> {
    let report = content::load_dir(&args.content)?;
    fail_on_problems(&report.problems)?;
    let state = web::AppState::new(report.library)?;
    let library = state.library();
    if let Some(path) = &args.features {
        let rows = crate::eval::dev_features(&state.engine(), &args.eval_dir)?;
        std::fs::write(path, rows)?;
    }
    let router = web::router(state);
    let report = crate::eval::run(&router, &library, &args.eval_dir).await?;
    print!("{}", report.table());
    Ok(())
}
