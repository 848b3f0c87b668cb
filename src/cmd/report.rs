//! `ilaj report`: the content-gap report, as text or JSON.

use std::io::Write;

use super::{CmdError, with_store};
use crate::cli::ReportArgs;
use crate::db::{Report, ReportOptions, Store};

pub async fn run(args: &ReportArgs) -> Result<(), CmdError> {
    if !args.min_score.is_finite() {
        return Err(CmdError::Usage("--min-score must be a number".to_owned()));
    }
    let options = ReportOptions {
        limit: args.limit,
        min_score: args.min_score,
    };
    let report = with_store(&args.db, async move |store: &dyn Store| {
        Ok(Report::build(store, options).await?)
    })
    .await?;
    let mut stdout = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut stdout, &report).map_err(std::io::Error::from)?;
        writeln!(stdout)?;
    } else {
        report.write_text(&mut stdout)?;
    }
    Ok(())
}
