//! `ilaj estimate`: the estimator on the command line, a table or the API's JSON body.

use std::io::Write;

use super::CmdError;
use crate::cli::EstimateArgs;
use crate::estimator::{self, Estimate, EstimateInput};
use crate::web::ApiError;

pub fn run(args: &EstimateArgs) -> Result<(), CmdError> {
    let mut stdout = std::io::stdout().lock();
    let estimate = estimator::from_pairs::<EstimateInput, _>(
        args.fields
            .pairs
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str())),
    )
    .and_then(|input| estimator::estimate(&input));
    match estimate {
        Ok(estimate) if args.json => {
            serde_json::to_writer_pretty(&mut stdout, &estimate).map_err(std::io::Error::from)?;
            writeln!(stdout)?;
        }
        Ok(estimate) => print_table(&estimate, &mut stdout)?,
        Err(invalid) => {
            if args.json {
                // The API's error body, so a script reads one shape from both.
                let code = ApiError::from(invalid.clone()).code();
                let body = serde_json::json!({"error": {
                    "code": code.name(), "message": invalid.message, "field": invalid.field}});
                writeln!(stdout, "{body}")?;
            }
            return Err(invalid.into());
        }
    }
    Ok(())
}

fn gib(bytes: u64) -> String {
    format!("{:.2} GiB", bytes as f64 / f64::from(1u32 << 30))
}

fn print_table(e: &Estimate, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "parameters: {:.2}M ({} with position embeddings)",
        e.parameters as f64 / 1e6,
        e.parameters_total
    )?;
    writeln!(out, "peak during {}:", e.peak_phase.replace('_', " "))?;
    let width = e.components.iter().map(|c| c.name.len()).max().unwrap_or(0);
    for component in e.components.iter().filter(|c| c.bytes > 0) {
        writeln!(
            out,
            "  {:<width$}  {:>11}",
            component.name.replace('_', " "),
            gib(component.bytes)
        )?;
    }
    let rows = [
        ("peak allocated", e.peak_allocated_bytes),
        ("reserved", e.reserved_bytes),
        ("nvidia-smi", e.nvidia_smi_bytes),
        ("GPU memory", e.gpu_memory_bytes),
    ];
    for (name, bytes) in rows {
        writeln!(out, "{name:<16}{:>11}", gib(bytes))?;
    }
    writeln!(
        out,
        "largest allocation: {} ({})",
        gib(e.largest_allocation_bytes),
        e.largest_allocation.replace('_', " ")
    )?;
    writeln!(out, "fits: {}", if e.fits { "yes" } else { "no" })?;
    writeln!(out, "largest batch_size that fits: {}", e.max_batch_size)?;
    if e.suggested_batch_size > 0 {
        writeln!(
            out,
            "to keep the effective batch of {}: batch_size {} × gradient_accumulation_steps {}",
            e.effective_batch_size, e.suggested_batch_size, e.suggested_gradient_accumulation_steps
        )?;
    }
    Ok(())
}
