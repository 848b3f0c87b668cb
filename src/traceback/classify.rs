//! Which family of error a paste shows, from keywords PyTorch, CUDA, NCCL and the kernel print.
//!
//! Patterns read the lower-cased, whitespace-free text, so a terminal wrap inside a keyword
//! ("CUDA out of mem\nory") does not hide it. Families are tried from the most specific out:
//! MPS, CUDA and host out-of-memory before other CUDA errors, since "CUDA error: out of memory"
//! is an OOM and an OOM message also carries generic CUDA advice. Suggestions printed inside a
//! message mention nothing these patterns look for.

use super::ErrorKind;
use super::normalize::Line;
use regex::Regex;
use std::sync::LazyLock;

static MPS_OOM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"mpsbackendoutofmemory").expect("valid regex"));

static CUDA_OOM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?:cuda|hip|xpu)outof(?:the)?memory|cudaerror:outofmemory|cudaruntimeerror.{0,40}outofmemory",
        r"|cuda_error_out_of_memory|cudaerrormemoryallocation|torch\.(?:cuda\.)?outofmemoryerror",
        r"|memoryallocationfailedwithoomondevice",
        // The figures alone, when the paste starts after "CUDA out of memory.".
        r"|triedtoallocate[0-9.]{1,30}[kmgt]?i?b\([gx]pu[0-9]{1,6};",
    ))
    .expect("valid regex")
});

static CPU_OOM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"defaultcpuallocator|posix_memalign|buynewram|notenoughmemory:youtriedtoallocate",
        r"|killedbysignal:killed|std::bad_alloc|outofmemory:kill(?:ed)?process|oom-kill|oom_kill",
        // The kernel's OOM killer named by whoever reports the kill (Ray: "killed by SIGKILL
        // by OOM killer due to high memory usage").
        r"|bysigkillbyoomkiller|bytheoomkiller|byoomkiller",
        // Chinese for "got killed" (被killed, 被kill掉, killed了; "kill了" is also "I killed"),
        // where the shell's own line is not pasted, and for "the RAM is full" (内存满了; 显存 is
        // the card's).
        r"|被kill|killed了|内存满",
        // Ray's memory monitor, which kills a worker before the kernel would.
        r"|killedduetothenoderunninglowonmemory",
    ))
    .expect("valid regex")
});

static CUDA_ERROR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"cudaerror|cudnnerror|cudnn_status_|cublas_status_|cublaserror|cusparse_status_|cusolver_status_",
        r"|curand_status_|cufft_|device-sideassert|illegalmemoryaccess|nokernelimageisavailable",
        r"|cudaruntimeerror|cuda_error_|cudakernelerrorsmightbeasynchronouslyreported",
        r"|watchdogcaughtcollectiveoperationtimeout|ncclerror|nccl_error|ncclunhandledcudaerror",
        r"|ncclsystemerror|ncclinternalerror|ncclinvalidusage|ncclremoteerror|distbackenderror",
        r"|isnotcompatiblewiththecurrentpytorchinstallation",
    ))
    .expect("valid regex")
});

/// A shell's report that the process was killed (bash, macOS; zsh's `[1]    4242 killed …`,
/// whose `[1]` the log-prefix stripping may already have removed), also glued to the end of a
/// progress bar, which leaves no line break before it (`3/8 [00:02<00:03,  1.28it/s]Killed`).
static KILLED_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(?:Killed(?:\s*:\s*9)?(?:\s.*)?|(?:\[[0-9]+\]\s+)?[0-9]+\s+killed\s.*)$|(?:it/s|s/it)\]\s*Killed\s*$",
    )
    .expect("valid regex")
});

/// The specific family named by keywords anywhere in `lower` (the squashed, lower-cased paste),
/// or by a `Killed` line or a `MemoryError` exception.
pub(super) fn specific_kind(
    lower: &str,
    lines: &[Line],
    exception_names: &[&str],
) -> Option<ErrorKind> {
    if MPS_OOM.is_match(lower) {
        return Some(ErrorKind::MpsOom);
    }
    // An IPython traceback names the exception in its header ("OutOfMemoryError   Traceback
    // (most recent call last)") even when the paste is cut before the message.
    if CUDA_OOM.is_match(lower)
        || exception_names.iter().any(|name| {
            // Java's is the JVM heap, Ray's the node's RAM.
            name.ends_with("OutOfMemoryError")
                && !name.starts_with("java.")
                && !name.starts_with("ray.")
        })
        || lines.iter().any(|l| opens_with_oom_name(&l.text))
    {
        return Some(ErrorKind::CudaOom);
    }
    if CPU_OOM.is_match(lower)
        || lines.iter().any(|l| is_killed_line(&l.text))
        || exception_names.contains(&"MemoryError")
    {
        return Some(ErrorKind::CpuOom);
    }
    if CUDA_ERROR.is_match(lower) || lines.iter().any(|l| is_kernel_assert_line(&l.text)) {
        return Some(ErrorKind::CudaError);
    }
    None
}

/// An issue title or a note that starts by naming the exception ("OutOfMemoryError 3090 训练
/// sdxl LoRA 报错"), the traceback itself being a screenshot or cut off.
fn opens_with_oom_name(text: &str) -> bool {
    text.trim_start()
        .strip_prefix("OutOfMemoryError")
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '.'))
}

/// A CUDA kernel's failed assertion (`….cu:108: kernel: block: [0,0,0] … Assertion `…` failed.`),
/// printed before "device-side assert triggered".
fn is_kernel_assert_line(text: &str) -> bool {
    text.contains(".cu:") && text.contains("Assertion") && text.contains("failed")
}

/// Only short lines: a long one merely starting with "Killed" is prose.
pub(super) fn is_killed_line(text: &str) -> bool {
    text.len() < 400 && KILLED_LINE.is_match(text)
}

/// Whether one line shows the keywords of `kind` (a line an error of that family is printed on).
pub(super) fn line_shows(kind: ErrorKind, line: &Line) -> bool {
    line_shows_lowered(kind, &line.text, &line.squashed)
}

/// Whether one line shows the keywords of any of `kinds` (the line squashed once for all).
pub(super) fn line_shows_any(kinds: &[ErrorKind], line: &Line) -> bool {
    kinds
        .iter()
        .any(|&kind| line_shows_lowered(kind, &line.text, &line.squashed))
}

fn line_shows_lowered(kind: ErrorKind, text: &str, lower: &str) -> bool {
    match kind {
        ErrorKind::MpsOom => MPS_OOM.is_match(lower),
        ErrorKind::CudaOom => CUDA_OOM.is_match(lower),
        ErrorKind::CpuOom => CPU_OOM.is_match(lower) || is_killed_line(text),
        ErrorKind::CudaError => CUDA_ERROR.is_match(lower) || is_kernel_assert_line(text),
        ErrorKind::PythonException | ErrorKind::Unknown => false,
    }
}

/// Where, in a line that shows a known error, its message starts.
static MESSAGE_START: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)(?:CUDA|HIP|XPU)\s*out\s*of|MPS\s*backend|CUDA\s*error|cuDNN\s*error|CUBLAS_STATUS",
        r"|CUDNN_STATUS|\[enforce\s*fail|DefaultCPUAllocator|DataLoader\s*worker|Watchdog\s*caught",
        r"|cuda\s*runtime\s*error|NCCL\s*error|(?-u:\b)Killed(?-u:\b)|device-side\s*assert|an\s*illegal\s*memory",
        r"|no\s*kernel\s*image|\$\s*Torch:",
    ))
    .expect("valid regex")
});

pub(super) fn message_start(text: &str) -> usize {
    MESSAGE_START.find(text).map_or(0, |m| m.start())
}

#[cfg(test)]
mod tests {
    use super::super::normalize::{clean_lines, squash_lower};
    use super::*;

    fn kind(s: &str) -> Option<ErrorKind> {
        specific_kind(&squash_lower(s), &clean_lines(s), &[])
    }

    #[test]
    fn recognises_each_family() {
        assert_eq!(
            kind("MPS backend out of memory (MPS allocated: 1 GB"),
            Some(ErrorKind::MpsOom)
        );
        assert_eq!(
            kind("RuntimeError: CUDA error: out of memory"),
            Some(ErrorKind::CudaOom)
        );
        assert_eq!(
            kind("cuda runtime error (2) : out of memory at /x.cu:58"),
            Some(ErrorKind::CudaOom)
        );
        assert_eq!(
            kind("HIP out of memory. Tried to allocate 2.00 GiB"),
            Some(ErrorKind::CudaOom)
        );
        assert_eq!(
            kind("DefaultCPUAllocator: can't allocate memory"),
            Some(ErrorKind::CpuOom)
        );
        assert_eq!(
            kind("train.sh: line 3: 1234\nKilled"),
            Some(ErrorKind::CpuOom)
        );
        assert_eq!(
            kind("Loading checkpoint shards:  38%|██▊    | 3/8 [00:02<00:03,  1.28it/s]Killed"),
            Some(ErrorKind::CpuOom)
        );
        assert_eq!(
            kind("[1]    4242 killed     python train.py"),
            Some(ErrorKind::CpuOom)
        );
        assert_eq!(
            kind("CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling"),
            Some(ErrorKind::CudaError)
        );
        assert_eq!(
            kind("Watchdog caught collective operation timeout: WorkNCCL("),
            Some(ErrorKind::CudaError)
        );
        assert_eq!(
            kind("x.cu:108: kern: block: [0,0,0] Assertion `t >= 0` failed."),
            Some(ErrorKind::CudaError)
        );
        assert_eq!(kind("ValueError: nope"), None);
    }

    #[test]
    fn a_title_that_opens_with_the_exception_name_is_an_out_of_memory_error() {
        assert_eq!(
            kind("OutOfMemoryError 云端3090训练sdxlLora报错\nepoch 1/25"),
            Some(ErrorKind::CudaOom)
        );
        // A longer name, or one that only starts the same way, is not PyTorch's.
        assert_eq!(kind("OutOfMemoryErrorHandler registered"), None);
        assert_eq!(kind("OutOfMemoryError.java:12"), None);
    }

    #[test]
    fn a_process_said_killed_in_chinese_or_by_rays_monitor_ran_out_of_host_ram() {
        assert_eq!(
            kind("magic-pdf 在处理大pdf时会被killed\n没有其它的额外报错"),
            Some(ErrorKind::CpuOom)
        );
        // Ray's exception is named like PyTorch's, but it is the node's RAM that ran out.
        let ray = "Traceback (most recent call last):\n  File \"run.py\", line 3, in <module>\n\
                   ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.";
        assert_eq!(crate::traceback::parse(ray).kind, ErrorKind::CpuOom);
        assert_eq!(
            kind("推理时模型加载Killed了，看了下，是内存满了"),
            Some(ErrorKind::CpuOom)
        );
        // Ray names the kernel's OOM killer when one of its workers dies.
        assert_eq!(
            kind(
                "Worker unexpectedly exits. (1) The process is killed by SIGKILL by OOM killer due to high memory usage."
            ),
            Some(ErrorKind::CpuOom)
        );
        // "I killed all the processes, then the card's memory was freed".
        assert_ne!(
            kind("kill了所有进程之后显存会释放"),
            Some(ErrorKind::CpuOom)
        );
    }

    #[test]
    fn sees_keywords_through_hard_wraps() {
        assert_eq!(
            kind("CUDA out of mem\nory. Tried"),
            Some(ErrorKind::CudaOom)
        );
        assert_eq!(
            kind("CUDA error: device-side as\nsert triggered"),
            Some(ErrorKind::CudaError)
        );
    }

    #[test]
    fn oom_beats_generic_cuda_advice() {
        assert_eq!(
            kind(
                "[W1104 CUDACachingAllocator.cpp:3933] memory allocation failed with OOM on device 0 while trying to allocate 671088640 bytes (free: 513736704, total: 85095874560)."
            ),
            Some(ErrorKind::CudaOom)
        );
        assert_eq!(
            kind(
                "Tried to allocate 20.00 MiB (GPU 0; 1.96 GiB total capacity; 1.24 GiB already allocated; 2.88 MiB free)"
            ),
            Some(ErrorKind::CudaOom)
        );
        let s = "RuntimeError: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported";
        assert_eq!(kind(s), Some(ErrorKind::CudaOom));
    }

    #[test]
    fn memory_error_is_host_oom() {
        assert_eq!(
            specific_kind("", &[], &["MemoryError"]),
            Some(ErrorKind::CpuOom)
        );
        // The name alone (a cut paste): CUDA's, the common case; MPS's message says otherwise.
        assert_eq!(
            specific_kind("", &[], &["torch.OutOfMemoryError"]),
            Some(ErrorKind::CudaOom)
        );
        assert_eq!(
            specific_kind("", &[], &["java.lang.OutOfMemoryError"]),
            None
        );
        let mps = squash_lower("MPS backend out of memory (MPS allocated: 1 GB)");
        assert_eq!(
            specific_kind(&mps, &[], &["torch.OutOfMemoryError"]),
            Some(ErrorKind::MpsOom)
        );
    }

    #[test]
    fn finds_where_a_bare_message_starts() {
        let s = "at the end I keep getting CUDA out of memory.";
        assert_eq!(&s[message_start(s)..], "CUDA out of memory.");
        assert_eq!(message_start("nothing here"), 0);
    }
}
