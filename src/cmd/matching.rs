//! `ilaj match`: a paste on standard input, the diagnosis and the fixes on standard output.

use std::io::{Read, Write};

use super::{CmdError, load_state};
use crate::cli::MatchArgs;
use crate::search::MatchOutcome;
use crate::web;

pub async fn run(args: &MatchArgs) -> Result<(), CmdError> {
    let mut bytes = Vec::new();
    std::io::stdin().lock().read_to_end(&mut bytes)?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    if text.len() > web::MAX_TEXT_BYTES {
        return Err(CmdError::Usage(format!(
            "the paste is {} bytes; the limit is {}",
            text.len(),
            web::MAX_TEXT_BYTES
        )));
    }
    let state = load_state(&args.content)?;
    let (lang, limit, stated) = (args.lang, args.limit.clamp(1, 20), args.situation);
    let engine = state.engine();
    let outcome =
        tokio::task::spawn_blocking(move || engine.match_stated(&text, lang, limit, stated))
            .await
            .map_err(|e| CmdError::Usage(format!("the match failed: {e}")))?;
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &outcome).map_err(std::io::Error::from)?;
        writeln!(out)?;
    } else {
        print_outcome(&outcome, &mut out)?;
    }
    Ok(())
}

fn print_outcome(outcome: &MatchOutcome, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "answer: {}", outcome.answer.as_str())?;
    writeln!(out, "kind: {}", outcome.diagnosis.kind.as_str())?;
    for sentence in &outcome.diagnosis.explanation {
        writeln!(out, "- {sentence}")?;
    }
    if let Some(url) = &outcome.diagnosis.calculator_url {
        writeln!(out, "calculator: {url}")?;
    }
    for (rank, hit) in outcome.results.iter().enumerate() {
        let section = hit
            .section
            .as_ref()
            .map(|s| s.url.as_str())
            .unwrap_or(&hit.url);
        writeln!(
            out,
            "{}. [{}] {} (score {:.2}, confidence {:.2})\n   {section}",
            rank + 1,
            hit.lang,
            hit.title,
            hit.score,
            hit.confidence
        )?;
    }
    if let Some(question) = &outcome.ask {
        writeln!(out, "{}", question.question)?;
        for choice in &question.choices {
            writeln!(out, "  --situation {}: {}", choice.situation, choice.label)?;
        }
    }
    Ok(())
}
