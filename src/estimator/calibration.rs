//! The estimate against every measurement in `gpu-memory-measurements.tsv`.
//! How each cell is read is documented in the module docs of `estimator`.

use super::{Estimate, EstimateInput, estimate};

const TABLE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/reference/gpu-memory-measurements.tsv"
));

const GIB: f64 = (1u64 << 30) as f64;

struct Row {
    id: String,
    metric: String,
    measured_gib: f64,
    input: EstimateInput,
}

/// A cell as the estimator reads it: `?` is unknown (None), a trailing `?` marks an
/// unconfirmed value that is used as written.
fn cell(value: &str) -> Option<&str> {
    let v = value.trim();
    if v == "?" || v.is_empty() {
        None
    } else {
        Some(v.trim_end_matches('?'))
    }
}

fn number<T: std::str::FromStr>(field: &str, value: Option<&str>) -> Option<T> {
    value.map(|v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{field}: {v:?} is not a number"))
    })
}

fn boolean(field: &str, value: Option<&str>) -> Option<bool> {
    value.map(|v| match v {
        "yes" | "true" => true,
        "no" | "false" => false,
        other => panic!("{field}: {other:?} is not yes/no"),
    })
}

fn parse(table: &str) -> Vec<Row> {
    let mut lines = table.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<&str> = lines.next().expect("a header line").split('\t').collect();
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            let get = |name: &str| {
                let i = header
                    .iter()
                    .position(|h| *h == name)
                    .unwrap_or_else(|| panic!("no column {name}"));
                cells.get(i).copied().and_then(cell)
            };
            let mut input = EstimateInput::new(
                number("n_layer", get("n_layer")).expect("n_layer"),
                number("n_head", get("n_head")).expect("n_head"),
                number("n_embd", get("n_embd")).expect("n_embd"),
            );
            let d = input.clone();
            input.vocab_size = number("vocab_size", get("vocab_size")).unwrap_or(d.vocab_size);
            input.block_size = number("block_size", get("block_size")).unwrap_or(d.block_size);
            input.batch_size = number("batch_size", get("batch_size")).unwrap_or(d.batch_size);
            input.gradient_accumulation_steps =
                number("grad_accum", get("grad_accum")).unwrap_or(d.gradient_accumulation_steps);
            input.tied_embeddings =
                boolean("tied_embeddings", get("tied_embeddings")).unwrap_or(d.tied_embeddings);
            input.compile = boolean("compile", get("compile")).unwrap_or(d.compile);
            input.dropout = number("dropout", get("dropout")).unwrap_or(d.dropout);
            input.precision = number("precision", get("precision")).unwrap_or(d.precision);
            input.attention = number("attention", get("attention")).unwrap_or(d.attention);
            input.layer_ops = number("layer_ops", get("layer_ops")).unwrap_or(d.layer_ops);
            input.optimizer = number("optimizer", get("optimizer")).unwrap_or(d.optimizer);
            input.phase = number("phase", get("phase")).unwrap_or(d.phase);
            Row {
                id: get("id").expect("id").to_string(),
                metric: get("metric").expect("metric").to_string(),
                measured_gib: number("measured_gib", get("measured_gib")).expect("measured_gib"),
                input,
            }
        })
        .collect()
}

fn estimated_bytes(metric: &str, e: &Estimate) -> u64 {
    match metric {
        "reserved" => e.reserved_bytes,
        "process_nvidia_smi" => e.nvidia_smi_bytes,
        "largest_allocation" => e.largest_allocation_bytes,
        other => panic!("unknown metric {other}"),
    }
}

#[test]
fn every_measurement_is_within_bounds() {
    let rows = parse(TABLE);
    assert_eq!(rows.len(), 8, "the table has eight measurements");
    let mut failures = Vec::new();
    println!("| row | metric | measured GiB | estimated GiB | error |");
    for row in &rows {
        let e = estimate(&row.input).unwrap_or_else(|err| panic!("{}: {err}", row.id));
        let measured = row.measured_gib * GIB;
        let estimated = estimated_bytes(&row.metric, &e) as f64;
        let error = (estimated - measured) / measured * 100.0;
        let bound = if row.metric == "largest_allocation" {
            1.0
        } else {
            15.0
        };
        println!(
            "| {} | {} | {} | {:.3} | {:+.2} % |",
            row.id,
            row.metric,
            row.measured_gib,
            estimated / GIB,
            error
        );
        if error.abs() > bound {
            failures.push(format!("{}: {error:+.2} % (bound {bound} %)", row.id));
        }
    }
    assert!(failures.is_empty(), "off: {failures:?}");
}

#[test]
fn cells_with_question_marks_are_read_as_documented() {
    assert_eq!(cell("?"), None);
    assert_eq!(cell("0.0?"), Some("0.0"));
    assert_eq!(cell("sdpa"), Some("sdpa"));
    let rows = parse(TABLE);
    let seed = rows
        .iter()
        .find(|r| r.id == "seed-rtx4070")
        .expect("seed row");
    assert_eq!(seed.input.dropout, 0.0);
    let issue = rows
        .iter()
        .find(|r| r.id == "nanogpt-issue-88")
        .expect("issue row");
    assert_eq!(issue.input.attention, super::Attention::Flash);
    assert_eq!(issue.input.gradient_accumulation_steps, 1);
}
