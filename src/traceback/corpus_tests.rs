//! Whole-parser tests: every message generation of `shared/reference/oom-messages.md` with its
//! exact figures, the seed example, transport variants (wrapped, quoted, JSON, logged, cut), the
//! real pastes of `shared/eval/pastes-dev.jsonl`, and fuzzing.

use super::*;
use proptest::prelude::*;
use std::time::{Duration, Instant};

const SEED: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/eval/seed-oom-example.txt"
));
const PASTES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/eval/pastes-dev.jsonl"
));

const MSG_2_1: &str = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 138.00 MiB. GPU 0 has a total capacty of 15.90 GiB of which 8.44 MiB is free. Process 1246069 has 577.00 MiB memory in use. Including non-PyTorch memory, this process has 15.32 GiB memory in use. Of the allocated memory 14.12 GiB is allocated by PyTorch, and 410.41 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF";
const MSG_2_2: &str = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 23.65 GiB of which 11.06 MiB is free. Including non-PyTorch memory, this process has 23.60 GiB memory in use. Of the allocated memory 22.94 GiB is allocated by PyTorch, and 208.01 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)";

fn seed_facts() -> Facts {
    Facts {
        tried_to_allocate_bytes: Some(6_592_774_799),
        total_capacity_bytes: Some(12_552_041_923),
        free_bytes: Some(2_877_628_088),
        process_in_use_bytes: Some(7_559_142_441),
        allocated_by_pytorch_bytes: Some(7_279_969_567),
        reserved_unallocated_bytes: Some(36_825_989),
        device: Some(0),
        ..Facts::default()
    }
}

fn msg_2_2_facts() -> Facts {
    Facts {
        tried_to_allocate_bytes: Some(20_971_520),
        total_capacity_bytes: Some(25_393_994_138),
        free_bytes: Some(11_597_251),
        process_in_use_bytes: Some(25_340_307_046),
        allocated_by_pytorch_bytes: Some(24_631_637_443),
        reserved_unallocated_bytes: Some(218_114_294),
        device: Some(0),
        ..Facts::default()
    }
}

// ---------------------------------------------------------------- message generations

#[test]
fn thc_cuda_runtime_error() {
    let p = parse(
        "RuntimeError: cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/generic/THCStorage.cu:58",
    );
    assert_eq!(p.kind, ErrorKind::CudaOom);
    assert_eq!(p.exception.as_deref(), Some("RuntimeError"));
    assert_eq!(p.facts, Facts::default());
    assert_eq!(
        p.message_template.as_deref(),
        Some("cuda runtime error (<n>) : out of memory at <path>:<n>")
    );
}

#[test]
fn torch_1_0_cached() {
    let p = parse(
        "RuntimeError: CUDA out of memory. Tried to allocate 16.00 GiB (GPU 0; 11.93 GiB total capacity; 4.00 GiB already allocated; 7.33 GiB free; 179.00 KiB cached)",
    );
    assert_eq!(p.kind, ErrorKind::CudaOom);
    assert_eq!(
        p.facts,
        Facts {
            tried_to_allocate_bytes: Some(17_179_869_184),
            total_capacity_bytes: Some(12_809_739_960),
            already_allocated_bytes: Some(4_294_967_296),
            free_bytes: Some(7_870_527_570),
            cached_bytes: Some(183_296),
            device: Some(0),
            ..Facts::default()
        }
    );
}

#[test]
fn torch_1_4_reserved_in_total_with_windows_malloc_and_cpp_frames() {
    let p = parse(
        "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 4.00 GiB total capacity; 2.53 GiB already allocated; 252.61 MiB free; 2.58 GiB reserved in total by PyTorch) (malloc at ..\\c10\\cuda\\CUDACachingAllocator.cpp:289)\nframe #0: c10::Error::Error(c10::SourceLocation, std::string const&) + 0x46 (0x7f698eb62536 in /usr/lib/libc10.so)\nframe #1: <unknown function> + 0x1cf1e (0x7f698edabf1e in /usr/lib/libc10_cuda.so)",
    );
    assert_eq!(p.kind, ErrorKind::CudaOom);
    assert_eq!(
        p.facts,
        Facts {
            tried_to_allocate_bytes: Some(20_971_520),
            total_capacity_bytes: Some(4_294_967_296),
            already_allocated_bytes: Some(2_716_566_815),
            free_bytes: Some(264_880_783),
            reserved_total_bytes: Some(2_770_253_906),
            device: Some(0),
            ..Facts::default()
        }
    );
    assert!(p.frames.is_empty());
    assert!(p.error_lines.iter().all(|l| !l.contains("frame #")));
}

#[test]
fn torch_1_10_with_max_split_hint() {
    let p = parse(
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 394.00 MiB (GPU 0; 15.78 GiB total capacity; 13.94 GiB already allocated; 154.75 MiB free; 14.47 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF",
    );
    assert_eq!(p.exception.as_deref(), Some("torch.cuda.OutOfMemoryError"));
    assert_eq!(
        p.facts,
        Facts {
            tried_to_allocate_bytes: Some(413_138_944),
            total_capacity_bytes: Some(16_943_645_983),
            already_allocated_bytes: Some(14_967_961_027),
            free_bytes: Some(162_267_136),
            reserved_total_bytes: Some(15_537_044_193),
            device: Some(0),
            ..Facts::default()
        }
    );
    assert_eq!(p.hints, EnvHints::default());
}

#[test]
fn torch_2_1_capacty_typo_and_other_process() {
    let p = parse(MSG_2_1);
    assert_eq!(p.kind, ErrorKind::CudaOom);
    assert_eq!(
        p.facts,
        Facts {
            tried_to_allocate_bytes: Some(144_703_488),
            total_capacity_bytes: Some(17_072_495_002),
            free_bytes: Some(8_849_981),
            process_in_use_bytes: Some(16_449_724_744),
            allocated_by_pytorch_bytes: Some(15_161_234_555),
            reserved_unallocated_bytes: Some(430_346_076),
            device: Some(0),
            other_processes: vec![OtherProcess {
                pid: 1_246_069,
                bytes: 605_028_352
            }],
            ..Facts::default()
        }
    );
    assert_eq!(p.hints, EnvHints::default());
}

#[test]
fn torch_2_2_total_capacity_of_which_free() {
    let p = parse(MSG_2_2);
    assert_eq!(p.kind, ErrorKind::CudaOom);
    assert_eq!(p.exception.as_deref(), Some("torch.OutOfMemoryError"));
    assert_eq!(p.facts, msg_2_2_facts());
    assert_eq!(p.hints, EnvHints::default());
    assert_eq!(
        p.message.as_deref(),
        MSG_2_2.strip_prefix("torch.OutOfMemoryError: ")
    );
}

#[test]
fn torch_2_5_allowed_and_private_pools() {
    let p = parse(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.95 GiB. GPU 0 has a total capacity of 79.14 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has 78.11 GiB memory in use. 79.10 GiB allowed; Of the allocated memory 75.21 GiB is allocated by PyTorch, with 46.00 MiB allocated in private pools (e.g., CUDA Graphs), and 1.38 GiB is reserved by PyTorch but unallocated. See documentation for Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)",
    );
    assert_eq!(
        p.facts,
        Facts {
            tried_to_allocate_bytes: Some(2_093_796_557),
            total_capacity_bytes: Some(84_975_927_951),
            free_bytes: Some(1_095_216_660),
            process_in_use_bytes: Some(83_869_973_873),
            allowed_bytes: Some(84_932_978_278),
            allocated_by_pytorch_bytes: Some(80_756_122_583),
            private_pools_bytes: Some(48_234_496),
            reserved_unallocated_bytes: Some(1_481_763_717),
            device: Some(0),
            ..Facts::default()
        }
    );
}

#[test]
fn cuda_error_out_of_memory_with_launch_blocking_advice() {
    let p = parse(
        "RuntimeError: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
    );
    assert_eq!(p.kind, ErrorKind::CudaOom);
    assert_eq!(p.message.as_deref(), Some("CUDA error: out of memory"));
    assert!(!p.hints.cuda_launch_blocking_set);
    assert_eq!(p.facts, Facts::default());
}

#[test]
fn cublas_and_cudnn_errors() {
    let p = parse(
        "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`",
    );
    assert_eq!(p.kind, ErrorKind::CudaError);
    assert_eq!(
        p.message.as_deref(),
        Some("CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`")
    );
    let q = parse(
        "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed in a non-contiguous input.",
    );
    assert_eq!(q.kind, ErrorKind::CudaError);
    assert_eq!(q.exception.as_deref(), Some("RuntimeError"));
}

#[test]
fn mps_in_gb_and_in_gib() {
    let expected = Facts {
        mps_allocated_bytes: Some(9_545_564_815),
        other_allocations_bytes: Some(181_382_676),
        max_allowed_bytes: Some(9_738_838_344),
        tried_to_allocate_bytes: Some(6_553_600),
        ..Facts::default()
    };
    let old = parse(
        "RuntimeError: MPS backend out of memory (MPS allocated: 8.89 GB, other allocations: 172.98 MB, max allowed: 9.07 GB). Tried to allocate 6.25 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause system failure).",
    );
    assert_eq!(old.kind, ErrorKind::MpsOom);
    assert_eq!(old.facts, expected);
    let new = parse(
        "torch.OutOfMemoryError: MPS backend out of memory (MPS allocated: 8.89 GiB, other allocations: 172.98 MiB, max allowed: 9.07 GiB). Tried to allocate 6.25 MiB on private pool.",
    );
    assert_eq!(new.kind, ErrorKind::MpsOom);
    assert_eq!(new.facts, expected);
}

#[test]
fn cpu_allocator_linux_windows_and_posix_memalign() {
    let linux = parse(
        "RuntimeError: [enforce fail at alloc_cpu.cpp:73] . DefaultCPUAllocator: can't allocate memory: you tried to allocate 116813856768 bytes. Error code 12 (Cannot allocate memory)",
    );
    assert_eq!(linux.kind, ErrorKind::CpuOom);
    assert_eq!(linux.facts.tried_to_allocate_bytes, Some(116_813_856_768));
    assert_eq!(linux.facts.count(), 1);
    let windows = parse(
        "RuntimeError: [enforce fail at ..\\c10\\core\\impl\\alloc_cpu.cpp:81] data. DefaultCPUAllocator: not enough memory: you tried to allocate 1073741824 bytes.",
    );
    assert_eq!(windows.kind, ErrorKind::CpuOom);
    assert_eq!(windows.facts.tried_to_allocate_bytes, Some(1_073_741_824));
    let posix = parse(
        "RuntimeError: [enforce fail at CPUAllocator.cpp:56] posix_memalign(&data, gAlignment, nbytes) == 0. 12 vs 0",
    );
    assert_eq!(posix.kind, ErrorKind::CpuOom);
    assert_eq!(posix.facts, Facts::default());
}

#[test]
fn dataloader_worker_deaths() {
    let bus = parse(
        "RuntimeError: DataLoader worker (pid 46794) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit.",
    );
    assert_eq!(bus.kind, ErrorKind::PythonException);
    assert_eq!(
        bus.message_template.as_deref(),
        Some(
            "DataLoader worker (pid <pid>) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit."
        )
    );
    let exited =
        parse("RuntimeError: DataLoader worker (pid(s) 1995171, 1996371) exited unexpectedly");
    assert_eq!(exited.kind, ErrorKind::PythonException);
    let killed = parse("RuntimeError: DataLoader worker (pid 19597) is killed by signal: Killed.");
    assert_eq!(killed.kind, ErrorKind::CpuOom);
    assert_eq!(killed.exception.as_deref(), Some("RuntimeError"));
}

#[test]
fn every_prefix_or_none() {
    for prefix in [
        "RuntimeError: ",
        "torch.cuda.OutOfMemoryError: ",
        "torch.OutOfMemoryError: ",
        "OutOfMemoryError: ",
        "",
    ] {
        let body = MSG_2_2
            .strip_prefix("torch.OutOfMemoryError: ")
            .unwrap_or(MSG_2_2);
        let p = parse(&format!("{prefix}{body}"));
        assert_eq!(p.kind, ErrorKind::CudaOom, "{prefix}");
        assert_eq!(p.facts, msg_2_2_facts(), "{prefix}");
        assert_eq!(p.message.as_deref(), Some(body), "{prefix}");
        let name = prefix.strip_suffix(": ");
        assert_eq!(p.exception.as_deref(), name, "{prefix}");
    }
}

#[test]
fn xpu_and_hip_messages_count_as_gpu_oom() {
    let p = parse(
        "torch.OutOfMemoryError: XPU out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.11 GiB total capacity; 12.00 GiB already allocated; 13.00 GiB reserved in total by PyTorch). Please use `empty_cache` to release all unoccupied cached memory.",
    );
    assert_eq!(p.kind, ErrorKind::CudaOom);
    assert_eq!(p.facts.tried_to_allocate_bytes, Some(2 << 30));
    assert_eq!(p.facts.already_allocated_bytes, Some(12 << 30));
    assert_eq!(
        parse("HIP out of memory. Tried to allocate 1.00 GiB").kind,
        ErrorKind::CudaOom
    );
}

#[test]
fn other_families() {
    let cases = [
        (
            "RuntimeError: CUDA error: device-side assert triggered",
            ErrorKind::CudaError,
        ),
        (
            "RuntimeError: CUDA error: an illegal memory access was encountered",
            ErrorKind::CudaError,
        ),
        (
            "RuntimeError: CUDA error: no kernel image is available for execution on the device",
            ErrorKind::CudaError,
        ),
        (
            "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=49, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800056 milliseconds before timing out.",
            ErrorKind::CudaError,
        ),
        (
            "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, unhandled cuda error",
            ErrorKind::CudaError,
        ),
        (
            "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!",
            ErrorKind::PythonException,
        ),
        (
            "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nMemoryError",
            ErrorKind::CpuOom,
        ),
        ("Epoch 3\nKilled", ErrorKind::CpuOom),
        ("my gpu is slow, any idea?", ErrorKind::Unknown),
        ("", ErrorKind::Unknown),
    ];
    for (text, kind) in cases {
        assert_eq!(parse(text).kind, kind, "{text}");
    }
}

// ---------------------------------------------------------------- the seed example

#[test]
fn seed_example_is_read_completely() {
    let p = parse(SEED);
    assert_eq!(p.kind, ErrorKind::CudaOom);
    assert_eq!(p.exception.as_deref(), Some("torch.cuda.OutOfMemoryError"));
    assert_eq!(p.facts, seed_facts());
    let functions: Vec<&str> = p.frames.iter().map(|f| f.function.as_str()).collect();
    assert_eq!(
        functions,
        vec!["<module>", "decorate_context", "estimate_loss", "forward"]
    );
    assert_eq!(p.frames[2].file, "/home/me/nanoGPT/train.py");
    assert_eq!(p.frames[2].line, Some(224));
    assert_eq!(p.frames[3].file, "/home/me/nanoGPT/model.py");
    assert_eq!(p.frames[3].line, Some(187));
    assert!(p.message.as_deref().is_some_and(|m| m.starts_with(
        "CUDA out of memory. Tried to allocate 6.14 GiB. GPU 0 has a total capacty of 11.69 GiB"
    ) && m.ends_with("PYTORCH_CUDA_ALLOC_CONF")));
    assert_eq!(p.hints, EnvHints::default());
    assert!(
        p.error_lines
            .first()
            .is_some_and(|l| l.starts_with("torch.cuda.OutOfMemoryError: CUDA out of memory."))
    );
    assert!(p.message_template.as_deref().is_some_and(|f| f.starts_with("CUDA out of memory. Tried to allocate <size>. GPU <n> has a total capacty of <size> of which <size> is free.")));
}

#[test]
fn seed_serializes_to_the_contract_shape() {
    let json = serde_json::to_value(parse(SEED)).unwrap_or_default();
    assert_eq!(json["kind"], "cuda_oom");
    assert_eq!(json["facts"]["tried_to_allocate_bytes"], 6_592_774_799u64);
    assert_eq!(json["facts"]["device"], 0);
    assert!(json["facts"].get("cached_bytes").is_none());
    assert!(json["facts"].get("other_processes").is_none());
    assert_eq!(json["frames"][3]["function"], "forward");
    assert_eq!(json["hints"]["expandable_segments_set"], false);
}

// ---------------------------------------------------------------- transport variants

/// Hard-wraps every line at `width` characters, as a terminal does.
fn hard_wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let chars: Vec<char> = line.chars().collect();
        if chars.is_empty() {
            out.push('\n');
        }
        for chunk in chars.chunks(width) {
            out.extend(chunk);
            out.push('\n');
        }
    }
    out
}

#[test]
fn hard_wraps_at_any_width_change_no_figure_frame_or_message() {
    let seed = parse(SEED);
    for width in 40..=200 {
        let p = parse(&hard_wrap(SEED, width));
        assert_eq!(p.facts, seed_facts(), "width {width}");
        assert_eq!(p.kind, ErrorKind::CudaOom, "width {width}");
        assert_eq!(p.exception, seed.exception, "width {width}");
        assert_eq!(p.message, seed.message, "width {width}");
        let functions: Vec<&str> = p.frames.iter().map(|f| f.function.as_str()).collect();
        assert_eq!(
            functions,
            vec!["<module>", "decorate_context", "estimate_loss", "forward"],
            "width {width}"
        );
    }
    // Narrower than 40 columns the message may be cut short, but the figures still hold.
    for width in 10..40 {
        assert_eq!(
            parse(&hard_wrap(SEED, width)).facts,
            seed_facts(),
            "width {width}"
        );
    }
}

#[test]
fn the_briefs_mid_word_wrap() {
    let p = parse(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allo\ncate 6.14 GiB. GPU 0 has a total capacity of 11.69 GiB of which 2.68 GiB is free.",
    );
    assert_eq!(p.facts.tried_to_allocate_bytes, Some(6_592_774_799));
    assert_eq!(p.facts.free_bytes, Some(2_877_628_088));
    assert!(
        p.message
            .as_deref()
            .is_some_and(|m| m.contains("Tried to allocate 6.14 GiB."))
    );
}

#[test]
fn markdown_quotes_and_backticks() {
    let quoted: String = SEED.lines().map(|l| format!("> {l}\n")).collect();
    let p = parse(&quoted);
    assert_eq!(p.facts, seed_facts());
    assert_eq!(p.frames.len(), 4);
    assert_eq!(p.exception.as_deref(), Some("torch.cuda.OutOfMemoryError"));
    let fenced = parse(&format!("I get this:\n```\n{SEED}\n```\nany idea?"));
    assert_eq!(fenced.facts, seed_facts());
    assert_eq!(fenced.frames.len(), 4);
    // GitHub pastes often glue the error to the fences: the line is the error, not a fence.
    let glued = parse(&format!("Log:\n```{MSG_2_2}```\nany idea?"));
    assert_eq!(glued.facts, msg_2_2_facts());
    assert_eq!(glued.kind, ErrorKind::CudaOom);
    let inline = parse(&format!("I get `{MSG_2_2}` when training"));
    assert_eq!(inline.facts, msg_2_2_facts());
    assert_eq!(inline.exception.as_deref(), Some("torch.OutOfMemoryError"));
}

#[test]
fn json_escaped_pastes() {
    let as_string = serde_json::to_string(SEED).unwrap_or_default();
    let in_object = format!("{{\"level\":\"error\",\"msg\":{as_string}}}");
    for text in [as_string.as_str(), in_object.as_str()] {
        let p = parse(text);
        assert_eq!(p.facts, seed_facts());
        assert_eq!(p.frames.len(), 4);
        assert_eq!(p.frames[3].file, "/home/me/nanoGPT/model.py");
        assert_eq!(p.exception.as_deref(), Some("torch.cuda.OutOfMemoryError"));
    }
    let windows = serde_json::to_string("Traceback (most recent call last):\n  File \"C:\\Users\\me\\new\\train.py\", line 3, in <module>\nRuntimeError: CUDA error: out of memory").unwrap_or_default();
    let p = parse(&windows);
    assert_eq!(p.frames[0].file, "C:\\Users\\me\\new\\train.py");
    assert_eq!(p.kind, ErrorKind::CudaOom);
}

#[test]
fn log_lines_with_timestamps() {
    let logged: String = SEED
        .lines()
        .map(|l| format!("2024-05-01 12:00:00,123 ERROR {l}\n"))
        .collect();
    let p = parse(&logged);
    assert_eq!(p.facts, seed_facts());
    assert_eq!(p.frames.len(), 4);
    assert_eq!(p.exception.as_deref(), Some("torch.cuda.OutOfMemoryError"));
    let ranked: String = SEED.lines().map(|l| format!("[rank0]: {l}\n")).collect();
    assert_eq!(parse(&ranked).facts, seed_facts());
}

#[test]
fn a_wrapped_log_record_is_rejoined_and_the_next_record_is_not() {
    let s = "2024-05-01 12:00:00,123 ERROR torch.OutOfMemoryError: CUDA out of memory. Tried to allo\ncate 6.14 GiB. GPU 0 has a total capacity of 11.69 GiB of which 2.68 GiB is free.\n2024-05-01 12:00:00,124 INFO shutting down";
    let p = parse(s);
    assert_eq!(
        p.message.as_deref(),
        Some(
            "CUDA out of memory. Tried to allocate 6.14 GiB. GPU 0 has a total capacity of 11.69 GiB of which 2.68 GiB is free."
        )
    );
    assert_eq!(p.facts.total_capacity_bytes, Some(12_552_041_923));
}

#[test]
fn one_json_record_inside_a_plain_log() {
    let record = serde_json::json!({"level": "error", "exc": SEED}).to_string();
    let p = parse(&format!("starting\n{record}\nbye"));
    assert_eq!(p.facts, seed_facts());
    assert_eq!(p.frames.len(), 4);
}

#[test]
fn cut_off_anywhere_keeps_only_complete_figures() {
    let full = figures(&seed_facts());
    for (cut, _) in SEED.char_indices() {
        let p = parse(&SEED[..cut]);
        for (got, want) in figures(&p.facts).iter().zip(&full) {
            assert!(got.is_none() || got == want, "cut at {cut}: {:?}", p.facts);
        }
        assert!(p.facts.other_processes.is_empty());
    }
    let at = |s: &str| SEED.find(s).map_or(0, |i| i + s.len());
    assert_eq!(
        parse(&SEED[..at("of which 2.68 GiB")]).facts.free_bytes,
        Some(2_877_628_088)
    );
    assert_eq!(parse(&SEED[..at("of which 2.6")]).facts.free_bytes, None);
    assert_eq!(
        parse(&SEED[..at("and 35.12 MiB is reserved")])
            .facts
            .reserved_unallocated_bytes,
        None
    );
    assert_eq!(
        parse(&SEED[..at("and 35.12 MiB is reserved by PyTorch")])
            .facts
            .reserved_unallocated_bytes,
        Some(36_825_989)
    );
    let cut = parse(&SEED[..at("Tried to allocate 6.14 GiB. GPU")]);
    assert_eq!(cut.kind, ErrorKind::CudaOom);
    assert_eq!(cut.facts.count(), 1);
    assert_eq!(cut.frames.len(), 4);
}

#[test]
fn warnings_alone_are_searchable_but_not_exceptions() {
    let p = parse(
        "/usr/lib/python3/site-packages/torch/amp/grad_scaler.py:132: FutureWarning: `torch.cuda.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cuda', args...)` instead.\nW0521 12:00:00.123000 1234 torch/_inductor/utils.py:1137] [0/0] Not enough SMs to use max_autotune_gemm mode\n[W socket.cpp:663] [c10d] The client socket has failed to connect to [localhost]:29500",
    );
    assert_eq!(p.kind, ErrorKind::Unknown);
    assert_eq!(p.exception, None);
    assert_eq!(
        p.error_lines,
        vec![
            "FutureWarning: `torch.cuda.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cuda', args...)` instead.",
            "Not enough SMs to use max_autotune_gemm mode",
            "The client socket has failed to connect to [localhost]:29500",
        ]
    );
    assert!(
        p.message_template
            .is_some_and(|f| f.starts_with("FutureWarning: `torch.cuda.amp.GradScaler"))
    );
}

#[test]
fn settings_already_in_force_are_seen() {
    let p = parse(&format!(
        "$ export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\n$ python train.py\n{MSG_2_2}"
    ));
    assert!(p.hints.expandable_segments_set);
    assert!(!p.hints.max_split_size_set);
    let q = parse(
        "$ CUDA_LAUNCH_BLOCKING=1 python train.py\nRuntimeError: CUDA error: device-side assert triggered\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.",
    );
    assert!(q.hints.cuda_launch_blocking_set);
}

// ---------------------------------------------------------------- the real pastes

struct Paste {
    id: String,
    category: String,
    paste: String,
}

fn pastes() -> Vec<Paste> {
    PASTES
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| Paste {
            id: v["id"].as_str().unwrap_or_default().to_string(),
            category: v["category"].as_str().unwrap_or_default().to_string(),
            paste: v["paste"].as_str().unwrap_or_default().to_string(),
        })
        .collect()
}

/// X UNIT → bytes, computed apart from `size_to_bytes`: hundredths of a unit, rounded.
fn hundredths_to_bytes(number: &str, unit: &str) -> u64 {
    let unit: u128 = match unit {
        "B" | "bytes" => 1,
        "KiB" | "KB" => 1 << 10,
        "MiB" | "MB" => 1 << 20,
        "GiB" | "GB" => 1 << 30,
        _ => 1 << 40,
    };
    let (int, frac) = number.split_once('.').unwrap_or((number, ""));
    let frac = format!("{frac:0<2}");
    assert_eq!(frac.len(), 2, "test only handles two decimals: {number}");
    let hundredths: u128 = format!("{int}{frac}").parse().unwrap_or_default();
    u64::try_from((hundredths * unit + 50) / 100).unwrap_or_default()
}

#[test]
fn eval_pastes_tried_to_allocate_matches_the_printed_figure() {
    let re = regex::Regex::new(
        r"(?i)tried to allocate (\d+(?:\.\d+)?) ?(KiB|MiB|GiB|TiB|KB|MB|GB|bytes|B)\b",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut checked = 0;
    for p in pastes() {
        let Some(c) = re.captures(&p.paste) else {
            continue;
        };
        let want = hundredths_to_bytes(&c[1], &c[2]);
        assert_eq!(
            parse(&p.paste).facts.tried_to_allocate_bytes,
            Some(want),
            "{}",
            p.id
        );
        checked += 1;
    }
    assert!(checked >= 25, "only {checked} pastes checked");
    // "512.— MiB": a mangled decimal the regex above does not take.
    let mangled = pastes().into_iter().find(|p| p.paste.contains("512.— MiB"));
    assert_eq!(
        mangled.map(|p| parse(&p.paste).facts.tried_to_allocate_bytes),
        Some(Some(512 << 20))
    );
}

/// Pastes that are prose around no error message, where the category's usual kind cannot hold.
const PROSE: [(&str, ErrorKind); 3] = [
    ("db-320-val-batch", ErrorKind::Unknown),
    ("semseg-60-val-nograd", ErrorKind::Unknown),
    ("pytorch-31246-same-random-workers", ErrorKind::Unknown),
];

fn kind_for_category(category: &str) -> Option<ErrorKind> {
    Some(match category {
        "cuda_oom_training" | "cuda_oom_eval_inference" | "oom_fragmentation" => ErrorKind::CudaOom,
        "mps_oom" => ErrorKind::MpsOom,
        "cpu_ram_oom" => ErrorKind::CpuOom,
        "device_side_assert" | "cublas_cudnn" | "nccl_distributed_timeout" => ErrorKind::CudaError,
        "device_mismatch" | "rnn_dataparallel" | "dataloader_workers" => ErrorKind::PythonException,
        _ => return None,
    })
}

#[test]
fn eval_pastes_have_the_kind_of_their_category() {
    let mut checked = 0;
    for p in pastes() {
        let expected = PROSE
            .iter()
            .find(|(id, _)| *id == p.id)
            .map(|(_, k)| *k)
            .or_else(|| kind_for_category(&p.category));
        if let Some(kind) = expected {
            assert_eq!(parse(&p.paste).kind, kind, "{} ({})", p.id, p.category);
            checked += 1;
        }
    }
    assert!(checked >= 50, "only {checked} pastes checked");
}

#[test]
fn eval_pastes_details() {
    let all = pastes();
    let get = |id: &str| {
        all.iter()
            .find(|p| p.id == id)
            .map(|p| parse(&p.paste))
            .unwrap_or_default()
    };

    let a = get("aitextgen-10-oom-backward");
    assert_eq!(a.frames.len(), 5);
    assert_eq!(a.frames[4].function, "backward");
    assert!(
        a.message
            .as_deref()
            .is_some_and(|m| m.ends_with("CUDACachingAllocator.cpp:289)"))
    );

    let d = get("dataset-distill-58-dsa-eval");
    assert_eq!(
        d.frames
            .iter()
            .map(|f| f.function.as_str())
            .collect::<Vec<_>>(),
        vec!["train_steps_inplace", "test_callback", "evaluate_models"]
    );
    assert_eq!(
        d.message.as_deref(),
        Some("CUDA error: device-side assert triggered")
    );

    let r = get("reid-372-classnll-assert");
    assert_eq!(
        r.error_lines
            .iter()
            .filter(|l| l.contains("Assertion"))
            .count(),
        1
    );

    let l = get("llama-adapter-152-cpualloc");
    assert!(
        l.message
            .as_deref()
            .is_some_and(|m| m.ends_with("(Cannot allocate memory)")),
        "{:?}",
        l.message
    );

    let v = get("rfb-esrgan-5-cublas-alloc");
    assert_eq!(v.exception.as_deref(), Some("RuntimeError"));

    let n = get("nanogpt-391-llama2c-a100");
    assert_eq!(
        n.facts.other_processes,
        vec![OtherProcess {
            pid: 263_789,
            bytes: 42_423_539_466
        }]
    );
    assert_eq!(n.facts.free_bytes, Some(55_113_155));

    let s = get("sadtalker-229-frag-maxsplit");
    assert_eq!(s.exception, None);
    assert!(
        s.message
            .as_deref()
            .is_some_and(|m| m.starts_with("CUDA out of memory. Tried to allocate 5.27 GiB"))
    );

    let b = get("bbavectors-48-oom-cached");
    assert!(
        b.message
            .as_deref()
            .is_some_and(|m| m.ends_with("69.56 MiB cached)")),
        "{:?}",
        b.message
    );
    assert_eq!(b.facts.cached_bytes, Some(72_938_947));
}

// ---------------------------------------------------------------- robustness

fn assert_bounded(p: &Parsed) {
    assert!(
        p.message
            .as_ref()
            .is_none_or(|m| m.chars().count() <= MAX_MESSAGE_CHARS)
    );
    assert!(p.error_lines.len() <= MAX_ERROR_LINES);
    assert!(
        p.error_lines
            .iter()
            .all(|l| l.chars().count() <= MAX_ERROR_LINE_CHARS)
    );
    assert!(p.frames.len() <= MAX_FRAMES);
    assert!(
        p.message_template
            .as_ref()
            .is_none_or(|m| m.chars().count() <= MAX_TEMPLATE_CHARS)
    );
    assert!(p.facts.other_processes.len() <= MAX_OTHER_PROCESSES);
}

/// The figures a parse reports, comparable field by field.
fn figures(f: &Facts) -> Vec<Option<u64>> {
    vec![
        f.tried_to_allocate_bytes,
        f.total_capacity_bytes,
        f.free_bytes,
        f.process_in_use_bytes,
        f.allocated_by_pytorch_bytes,
        f.reserved_unallocated_bytes,
        f.already_allocated_bytes,
        f.reserved_total_bytes,
        f.cached_bytes,
        f.allowed_bytes,
        f.mps_allocated_bytes,
        f.other_allocations_bytes,
        f.max_allowed_bytes,
        f.private_pools_bytes,
        f.device.map(u64::from),
    ]
}

#[test]
fn every_truncation_of_every_real_paste_parses_and_invents_no_figure() {
    for p in pastes() {
        let full = figures(&parse(&p.paste).facts);
        for (cut, _) in p.paste.char_indices() {
            let part = parse(&p.paste[..cut]);
            assert_bounded(&part);
            for (got, want) in figures(&part.facts).iter().zip(&full) {
                assert!(
                    got.is_none() || got == want,
                    "{} cut at {cut}: {:?}",
                    p.id,
                    part.facts
                );
            }
        }
    }
}

fn pathological_inputs() -> Vec<(&'static str, String)> {
    let size = 256 * 1024;
    let fill = |unit: &str| unit.repeat(size / unit.len().max(1) + 1);
    vec![
        (
            "many OOM lines",
            fill(
                "RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB (GPU 0; 2.00 GiB total capacity;\n",
            ),
        ),
        ("one long line", fill("Tried to allocate 1 ")),
        ("unclosed frames", fill("  File \"abc\n")),
        ("frames", fill("  File \"a.py\", line 1, in f\n")),
        ("exception lines", fill("E1Error: x\n")),
        ("escapes", fill("\\n\\\"\\u12")),
        ("quotes", fill("> > > [x] ")),
        ("digits", fill("1234567890.")),
        (
            "wrapped seed",
            hard_wrap(SEED, 41).repeat(size / SEED.len() + 1),
        ),
    ]
}

#[test]
fn large_inputs_parse_in_bounded_time() {
    for (name, text) in pathological_inputs() {
        let start = Instant::now();
        let p = parse(&text);
        let took = start.elapsed();
        eprintln!("{name}: {} KiB in {took:?}", text.len() / 1024);
        assert_bounded(&p);
        assert!(took < Duration::from_secs(5), "{name} took {took:?}");
    }
}

proptest! {
    // Failures are not persisted: the module must not write files outside its directory.
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(s in ".{0,2000}") {
        assert_bounded(&parse(&s));
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        assert_bounded(&parse(&String::from_utf8_lossy(&bytes)));
    }

    #[test]
    fn real_pastes_with_random_line_breaks_never_panic(
        which in 0usize..64,
        breaks in proptest::collection::vec(any::<prop::sample::Index>(), 0..12),
    ) {
        let all = pastes();
        let Some(p) = all.get(which % all.len().max(1)) else { return Ok(()) };
        let mut text: Vec<char> = p.paste.chars().collect();
        for b in breaks {
            let at = b.index(text.len() + 1);
            text.insert(at, '\n');
        }
        let text: String = text.into_iter().collect();
        assert_bounded(&parse(&text));
    }

    #[test]
    fn seed_with_random_line_breaks_keeps_the_request(
        breaks in proptest::collection::vec(any::<prop::sample::Index>(), 0..8),
    ) {
        // A break anywhere (a wrap) must not change the figures.
        let mut text: Vec<char> = SEED.chars().collect();
        for b in breaks {
            let at = b.index(text.len() + 1);
            text.insert(at, '\n');
        }
        let text: String = text.into_iter().collect();
        prop_assert_eq!(parse(&text).facts, seed_facts());
    }
}
