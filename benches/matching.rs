//! How long matching takes on the real catalog: a 60-line traceback and a one-line query
//! (target: under 1 ms each), plus a typed search. `cargo bench --bench matching`.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use ilaj::content::load_dir;
use ilaj::i18n::Lang;
use ilaj::search::Engine;

fn engine() -> Engine {
    let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
    let report = load_dir(&content).expect("content loads");
    Engine::build(Arc::new(report.library)).expect("index builds")
}

/// A realistic 60-line paste: a training log, a deep traceback, the 2.1 OOM message.
fn sixty_line_traceback() -> String {
    let seed = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("eval/seed-oom-example.txt"),
    )
    .expect("seed example");
    let mut lines: Vec<String> = (0..20)
        .map(|i| format!("iter {i}: loss 3.{i:02}, time 812.33ms, mfu 21.4%"))
        .collect();
    for depth in 0..10 {
        lines.push(format!(
            "  File \"/usr/lib/python3.10/site-packages/torch/nn/modules/module.py\", line {}, in _call_impl",
            1500 + depth
        ));
        lines.push("    return forward_call(*args, **kwargs)".to_owned());
    }
    lines.extend(seed.lines().map(str::to_owned));
    lines.truncate(60);
    lines.join("\n")
}

fn matching(c: &mut Criterion) {
    let engine = engine();
    let traceback = sixty_line_traceback();
    assert_eq!(traceback.lines().count(), 60);
    let one_line = "RuntimeError: CUDA error: device-side assert triggered";
    c.bench_function("match 60-line traceback", |b| {
        b.iter(|| engine.match_paste(black_box(&traceback), Lang::Fr, 5))
    });
    c.bench_function("match one-line error", |b| {
        b.iter(|| engine.match_paste(black_box(one_line), Lang::Ar, 5))
    });
    c.bench_function("search typed words (hi)", |b| {
        b.iter(|| engine.search(black_box("डेटालोडर वर्कर अप्रत्याशित रूप से बंद"), Lang::Hi, 10))
    });
}

criterion_group!(benches, matching);
criterion_main!(benches);
