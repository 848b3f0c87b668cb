//! `ilaj check`: validates the content folder.

use std::io::Write;

use super::{CmdError, fail_on_problems};
use crate::cli::CheckArgs;
use crate::content::{self, LoadReport};
use crate::i18n;

/// Checks the articles, and the interface strings against the same glossaries.
pub fn run(args: &CheckArgs) -> Result<(), CmdError> {
    let mut report = content::load_dir(&args.content)?;
    for (lang, file, source) in i18n::sources() {
        let name = format!("locales/{lang}/{file}");
        let glossary = report.library.glossary(*lang);
        let found = content::style::check_messages(&name, *lang, source, glossary);
        report.problems.extend(found);
    }
    print_report(&report, &mut std::io::stdout().lock())?;
    fail_on_problems(&report.problems)
}

fn print_report(report: &LoadReport, out: &mut impl Write) -> std::io::Result<()> {
    for article in report.library.articles() {
        writeln!(
            out,
            "{}\t{}\t{} sections\t{}",
            article.lang,
            article.id,
            article.sections.len(),
            article.source.display()
        )?;
    }
    writeln!(
        out,
        "{} articles in {} groups from {} files; {} problems",
        report.library.len(),
        report.library.group_ids().count(),
        report.files_read,
        report.problems.len()
    )
}
