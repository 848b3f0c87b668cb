//! `ilaj estimate`: the estimator on the command line, a table or the API's JSON body.
//! nanoGPT's estimator by default; the transformer estimator when `--model` or `--config`
//! is given.

use std::io::Write;

use super::CmdError;
use crate::cli::EstimateArgs;
use crate::estimator::llm::{self, LlmEstimate, LlmInput};
use crate::estimator::{self, Estimate, EstimateInput, InvalidInput, Problem};
use crate::web::ApiError;

pub fn run(args: &EstimateArgs) -> Result<(), CmdError> {
    let mut stdout = std::io::stdout().lock();
    let transformer =
        estimator::names_a_transformer(args.transformer.pairs.iter().map(|(k, _)| k.as_str()));
    let outcome = if transformer {
        transformer_estimate(args).map(Answer::Transformer)
    } else {
        nanogpt_estimate(args).map(Answer::NanoGpt)
    };
    match outcome {
        Ok(answer) if args.json => {
            match &answer {
                Answer::NanoGpt(e) => serde_json::to_writer_pretty(&mut stdout, e),
                Answer::Transformer(e) => serde_json::to_writer_pretty(&mut stdout, e),
            }
            .map_err(std::io::Error::from)?;
            writeln!(stdout)?;
        }
        Ok(Answer::NanoGpt(e)) => print_table(&e, &mut stdout)?,
        Ok(Answer::Transformer(e)) => print_transformer(&e, &mut stdout)?,
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

enum Answer {
    NanoGpt(Estimate),
    Transformer(Box<LlmEstimate>),
}

fn nanogpt_estimate(args: &EstimateArgs) -> Result<Estimate, InvalidInput> {
    let nanogpt: Vec<&str> = args.fields.pairs.iter().map(|(k, _)| k.as_str()).collect();
    if let Some((name, _)) = args
        .transformer
        .pairs
        .iter()
        .find(|(k, _)| !nanogpt.contains(&k.as_str()))
    {
        return Err(InvalidInput::new(
            name,
            Problem::Unknown,
            format!(
                "--{} is a field of the transformer estimator; give --model ID or --config FILE",
                name.replace('_', "-")
            ),
        ));
    }
    estimator::from_pairs::<EstimateInput, _>(
        args.fields
            .pairs
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str())),
    )
    .and_then(|input| estimator::estimate(&input))
}

/// `--config` names a config.json file; every other flag is a field value.
fn transformer_estimate(args: &EstimateArgs) -> Result<Box<LlmEstimate>, InvalidInput> {
    let mut input: LlmInput = estimator::from_pairs(
        args.transformer
            .pairs
            .iter()
            .filter(|(k, _)| k != "config")
            .map(|(k, v)| (k.as_str(), v.as_str())),
    )?;
    if let Some((_, path)) = args.transformer.pairs.iter().find(|(k, _)| k == "config") {
        let text = std::fs::read_to_string(path).map_err(|e| {
            InvalidInput::new(
                "config",
                Problem::Invalid,
                format!("cannot read {path}: {e}"),
            )
        })?;
        input.config =
            Some(serde_json::from_str(&text).map_err(|e| {
                InvalidInput::new("config", Problem::Invalid, format!("{path}: {e}"))
            })?);
    }
    llm::estimate_llm(&input).map(Box::new)
}

fn gib(bytes: u64) -> String {
    format!("{:.2} GiB", bytes as f64 / f64::from(1u32 << 30))
}

/// Peak allocated, reserved, what nvidia-smi shows, and the GPU's memory, one line each.
fn print_totals(bytes: [u64; 4], out: &mut impl Write) -> std::io::Result<()> {
    let names = ["peak allocated", "reserved", "nvidia-smi", "GPU memory"];
    for (name, bytes) in names.into_iter().zip(bytes) {
        writeln!(out, "{name:<16}{:>11}", gib(bytes))?;
    }
    Ok(())
}

fn print_components(
    components: &[estimator::Component],
    out: &mut impl Write,
) -> std::io::Result<()> {
    let width = components.iter().map(|c| c.name.len()).max().unwrap_or(0);
    for component in components.iter().filter(|c| c.bytes > 0) {
        writeln!(
            out,
            "  {:<width$}  {:>11}",
            component.name.replace('_', " "),
            gib(component.bytes)
        )?;
    }
    Ok(())
}

fn print_transformer(e: &LlmEstimate, out: &mut impl Write) -> std::io::Result<()> {
    if let Some(model) = &e.model {
        writeln!(out, "model: {model}")?;
    }
    writeln!(
        out,
        "parameters: {:.2}B ({} trainable)",
        e.parameters as f64 / 1e9,
        e.trainable_parameters
    )?;
    writeln!(
        out,
        "peak during {} (per GPU, {} GPU{}):",
        e.peak_phase.replace('_', " "),
        e.gpus,
        if e.gpus == 1 { "" } else { "s" }
    )?;
    print_components(&e.components, out)?;
    print_totals(
        [
            e.peak_allocated_bytes,
            e.reserved_bytes,
            e.nvidia_smi_bytes,
            e.gpu_memory_bytes,
        ],
        out,
    )?;
    if e.host_memory_bytes > 0 {
        writeln!(out, "host RAM: {}", gib(e.host_memory_bytes))?;
    }
    writeln!(out, "fits: {}", if e.fits { "yes" } else { "no" })?;
    writeln!(out, "largest batch_size that fits: {}", e.max_batch_size)?;
    if let (Some(per_token), Some(tokens), Some(seqs)) = (
        e.kv_cache_bytes_per_token,
        e.kv_cache_tokens,
        e.max_concurrent_sequences,
    ) {
        writeln!(out, "KV cache per token: {per_token} bytes")?;
        writeln!(
            out,
            "vLLM: {tokens} tokens of KV cache, {seqs} sequences of max_model_len at once"
        )?;
    }
    if !e.savings.is_empty() {
        writeln!(out, "what frees the most memory:")?;
        for s in &e.savings {
            writeln!(
                out,
                "  {}={}  −{}{}",
                s.field,
                s.value,
                gib(s.bytes_saved),
                if s.fits { " (then fits)" } else { "" }
            )?;
        }
    }
    Ok(())
}

fn print_table(e: &Estimate, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "parameters: {:.2}M ({} with position embeddings)",
        e.parameters as f64 / 1e6,
        e.parameters_total
    )?;
    writeln!(out, "peak during {}:", e.peak_phase.replace('_', " "))?;
    print_components(&e.components, out)?;
    print_totals(
        [
            e.peak_allocated_bytes,
            e.reserved_bytes,
            e.nvidia_smi_bytes,
            e.gpu_memory_bytes,
        ],
        out,
    )?;
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
