//! `ilaj eval`: the evaluation sets through the API, as a table.

use super::{CmdError, load_state};
use crate::cli::EvalArgs;
use crate::web;

pub async fn run(args: &EvalArgs) -> Result<(), CmdError> {
    let state = load_state(&args.content)?;
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
