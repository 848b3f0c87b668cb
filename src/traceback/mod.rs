//! The traceback parser: what a person pasted, read back into its parts.
//!
//! A paste may be a whole Python traceback, one error line, a log with a traceback inside, a
//! markdown-quoted or JSON-escaped string, text hard-wrapped by a terminal mid-word, or cut off
//! anywhere. [`parse`] never fails: it returns what it could read.
//!
//! The model, stage by stage:
//! 1. `normalize` undoes what transport added (JSON escapes, quotes, fences, colours, entities,
//!    log prefixes) and yields clean lines, plus a whitespace-free copy of the whole paste in
//!    which terminal wraps vanish.
//! 2. `classify` names the family from keywords in that copy (MPS / CUDA / host OOM, other CUDA
//!    errors, NCCL), so wraps and missing prefixes do not matter.
//! 3. `exception` finds exception lines and picks the paste's error; its message is joined
//!    across hard wraps.
//! 4. `facts` reads the OOM figures from the whitespace-free copy: every message generation,
//!    exact bytes, only figures that were printed completely.
//! 5. `frames`, `hints`, `error_lines` and `template` fill the rest.
//!
//! Limits: input beyond [`MAX_INPUT_BYTES`] is ignored; all work is a fixed number of linear
//! regex passes (the `regex` crate never backtracks) plus bounded look-ahead, so a typical
//! paste parses in about 0.1 ms and 256 KiB of adversarial text in tens of milliseconds (release
//! build; the first call also compiles the patterns, ~30 ms). The heuristics (what is a wrap,
//! which exception is "the" error) can misjudge unusual layouts; the figures, read from the
//! whitespace-free text independently of them, are the reliable part.

mod classify;
mod error_lines;
mod exception;
mod facts;
mod frames;
mod framework;
mod hints;
mod normalize;
mod size;
mod template;

#[cfg(test)]
mod corpus_tests;

pub use size::{parse_size, size_to_bytes, unit_bytes};
pub use template::message_template;

use serde::Serialize;

/// Bytes of input read; the rest is ignored (the API accepts 256 KiB).
pub const MAX_INPUT_BYTES: usize = 1 << 20;
/// Characters kept of the message.
pub const MAX_MESSAGE_CHARS: usize = 2000;
/// Entries of `error_lines`, and characters kept of each.
pub const MAX_ERROR_LINES: usize = 12;
pub const MAX_ERROR_LINE_CHARS: usize = 300;
/// Frames kept: the outermost and innermost halves of a deeper stack.
pub const MAX_FRAMES: usize = 200;
pub const MAX_TEMPLATE_CHARS: usize = 500;
pub const MAX_OTHER_PROCESSES: usize = 32;

/// The family of error a paste shows.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// CUDA (also ROCm/HIP and XPU) allocator out of memory, "CUDA error: out of memory",
    /// THC's "cuda runtime error (2) : out of memory".
    CudaOom,
    /// Apple's MPS backend out of memory.
    MpsOom,
    /// Host RAM: DefaultCPUAllocator, posix_memalign, `MemoryError`, the OOM killer ("Killed").
    CpuOom,
    /// Other CUDA, cuBLAS, cuDNN and NCCL errors, device-side asserts, illegal memory access,
    /// no kernel image for the GPU.
    CudaError,
    /// Any other Python exception or traceback.
    PythonException,
    #[default]
    Unknown,
}

impl ErrorKind {
    /// The serialized name.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::CudaOom => "cuda_oom",
            ErrorKind::MpsOom => "mps_oom",
            ErrorKind::CpuOom => "cpu_oom",
            ErrorKind::CudaError => "cuda_error",
            ErrorKind::PythonException => "python_exception",
            ErrorKind::Unknown => "unknown",
        }
    }
}

/// One Python stack frame.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Frame {
    pub file: String,
    pub line: Option<u32>,
    /// Empty when the paste did not show it.
    pub function: String,
}

/// Another process holding GPU memory ("Process 1246069 has 577.00 MiB memory in use").
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct OtherProcess {
    pub pid: u32,
    pub bytes: u64,
}

/// Figures printed in an out-of-memory message, in bytes as printed (`round(value × unit)`).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Facts {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tried_to_allocate_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_capacity_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub free_bytes: Option<u64>,
    /// "Including non-PyTorch memory, this process has X memory in use".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub process_in_use_bytes: Option<u64>,
    /// "Of the allocated memory X is allocated by PyTorch".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allocated_by_pytorch_bytes: Option<u64>,
    /// "X is reserved by PyTorch but unallocated".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reserved_unallocated_bytes: Option<u64>,
    /// 1.x: "X already allocated".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub already_allocated_bytes: Option<u64>,
    /// 1.4–2.0: "X reserved in total by PyTorch".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reserved_total_bytes: Option<u64>,
    /// 1.0–1.3: "X cached".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cached_bytes: Option<u64>,
    /// "X allowed;" (a per-process memory fraction is set).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mps_allocated_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_allocations_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_allowed_bytes: Option<u64>,
    /// "GPU 0" → 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device: Option<u32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_processes: Vec<OtherProcess>,
    /// "with X allocated in private pools (e.g., CUDA Graphs)".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub private_pools_bytes: Option<u64>,
}

impl Facts {
    /// How many figures are known.
    pub fn count(&self) -> usize {
        [
            self.tried_to_allocate_bytes,
            self.total_capacity_bytes,
            self.free_bytes,
            self.process_in_use_bytes,
            self.allocated_by_pytorch_bytes,
            self.reserved_unallocated_bytes,
            self.already_allocated_bytes,
            self.reserved_total_bytes,
            self.cached_bytes,
            self.allowed_bytes,
            self.mps_allocated_bytes,
            self.other_allocations_bytes,
            self.max_allowed_bytes,
            self.private_pools_bytes,
        ]
        .iter()
        .filter(|v| v.is_some())
        .count()
            + usize::from(self.device.is_some())
            + usize::from(!self.other_processes.is_empty())
    }

    pub fn is_empty(&self) -> bool {
        self.count() == 0
    }
}

/// Settings the paste shows already in force (suggestions inside PyTorch's messages excluded).
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct EnvHints {
    pub expandable_segments_set: bool,
    pub max_split_size_set: bool,
    pub cuda_launch_blocking_set: bool,
}

/// Everything read from a paste.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Parsed {
    pub kind: ErrorKind,
    /// The exception class as printed ("torch.cuda.OutOfMemoryError", "RuntimeError").
    pub exception: Option<String>,
    /// The error message, hard wraps undone, trimmed, at most [`MAX_MESSAGE_CHARS`].
    pub message: Option<String>,
    /// Python frames of the error's traceback, outermost first.
    pub frames: Vec<Frame>,
    pub facts: Facts,
    pub hints: EnvHints,
    /// Distinctive lines worth searching for, the final error line first.
    pub error_lines: Vec<String>,
    /// `message` with numbers, sizes, hex, paths, pids and device ids replaced by placeholders.
    pub message_template: Option<String>,
    /// Another framework the error comes from (TensorFlow, JAX, …), when the paste names one
    /// and nothing of PyTorch.
    pub framework: Option<&'static str>,
}

/// Reads `text` (any paste) into its parts.
pub fn parse(text: &str) -> Parsed {
    let text = prefix_within(text, MAX_INPUT_BYTES);
    let lines = normalize::clean_lines(text);
    let squashed = normalize::squash(&lines);
    let lower = normalize::squash_lower_lines(&lines);
    let cands = exception::candidates(&lines);

    let names: Vec<&str> = cands
        .iter()
        .filter(|c| !c.warning)
        .map(|c| c.name.as_str())
        .collect();
    let family = classify::specific_kind(&lower, &lines, &names);
    let chosen = exception::choose(&lines, &cands, family);

    let exception_lines: Vec<usize> = cands
        .iter()
        .filter(|c| !c.warning)
        .map(|c| c.line)
        .collect();
    let all_frames = frames::all_frames(&lines);
    // Python prints the source line, indented, under each frame.
    let code_lines: Vec<usize> = all_frames
        .iter()
        .map(|(i, _)| i + 1)
        .filter(|&i| {
            lines
                .get(i)
                .is_some_and(|l| l.text.starts_with(char::is_whitespace))
        })
        .collect();
    let frames = frames::select(
        &lines,
        all_frames,
        &exception_lines,
        chosen.as_ref().map(|c| c.line),
    );

    let kind = family.unwrap_or_else(|| {
        if !names.is_empty()
            || !frames.is_empty()
            || lower.contains("traceback(mostrecentcalllast)")
        {
            ErrorKind::PythonException
        } else {
            ErrorKind::Unknown
        }
    });

    let (exception, message) = match &chosen {
        Some(c) => (
            c.exception.clone(),
            Some(c.message.clone()).filter(|m| !m.is_empty()),
        ),
        None => (None, None),
    };
    let final_line = match (&exception, &message) {
        (Some(e), Some(m)) => Some(format!("{e}: {m}")),
        (Some(e), None) => Some(e.clone()),
        (None, m) => m.clone(),
    };
    let error_lines =
        error_lines::collect(&lines, &cands, chosen.as_ref(), final_line, &code_lines);
    let message_template = message
        .as_deref()
        .or(error_lines.first().map(String::as_str))
        .map(message_template);

    Parsed {
        kind,
        exception,
        message,
        frames,
        facts: facts::extract(&squashed),
        hints: hints::detect(&lower),
        error_lines,
        message_template,
        framework: framework::foreign_framework(text),
    }
}

/// The longest prefix of `s` of at most `max` bytes that ends on a character boundary.
fn prefix_within(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.get(..end).unwrap_or("")
}
