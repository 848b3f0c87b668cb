//! The memory model: what is allocated at the peak of a training step or an evaluation
//! batch, then what the caching allocator reserves and what nvidia-smi shows.
//! The derivation is in the module docs of `estimator`.

use serde::Serialize;

use super::input::{
    Attention, EstimateInput, InvalidInput, LayerOps, MAX_BATCH_SIZE, Optimizer, Phase, Precision,
    Run,
};
use super::params::{ParameterCount, parameter_breakdown};

const MIB: u128 = 1 << 20;

/// Memory the CUDA driver, the runtime and the kernel images take in the process, outside
/// PyTorch's allocator. Read off the seeds' OOM paste (RTX 3060, PyTorch 2.1, after
/// torch.compile had loaded its kernels): 7.04 GiB in use by the process, of which 6.78 GiB
/// allocated and 35.12 MiB reserved-unallocated by PyTorch, leaving ≈ 231 MiB.
pub const CUDA_CONTEXT_BYTES: u64 = 232 << 20;

/// The caching allocator keeps freed blocks of other sizes and rounds segments up, so its
/// reserve exceeds the peak of live tensors. Fitted on the four eager A100 runs of the
/// calibration table, whose reserved/estimated-peak ratios are 1.018–1.025.
pub const ALLOCATOR_SLACK_PERCENT: u64 = 2;

/// Large allocations are carved from segments of whole 2 MiB pages.
const SEGMENT_BYTES: u128 = 2 * MIB;
/// Every request is rounded up to a multiple of 512 bytes (what "Tried to allocate" prints).
const REQUEST_ROUNDING: u128 = 512;
/// Input ids and targets: one int64 each per token.
const BATCH_BYTES_PER_TOKEN: u128 = 16;

/// One line of the breakdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Component {
    pub name: &'static str,
    pub bytes: u64,
}

/// What the estimator answers. `components` describe the moment of the peak and add up
/// to `nvidia_smi_bytes`; the allocated ones (all but `allocator_slack` and
/// `cuda_context`) add up to `peak_allocated_bytes`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Estimate {
    /// nanoGPT's `get_num_params()` (position embeddings excluded).
    pub parameters: u64,
    /// Every parameter, position embeddings included.
    pub parameters_total: u64,
    pub components: Vec<Component>,
    /// Saved for backward by one block (train), or alive inside one block (eval).
    pub activations_per_layer_bytes: u64,
    /// `backward` (start of the backward pass), `optimizer_step`, or `forward` (eval).
    pub peak_phase: &'static str,
    pub peak_allocated_bytes: u64,
    /// `torch.cuda.memory_reserved()` at the peak.
    pub reserved_bytes: u64,
    /// The process's line in nvidia-smi.
    pub nvidia_smi_bytes: u64,
    /// The biggest single tensor, rounded as the allocator rounds it.
    pub largest_allocation_bytes: u64,
    /// Which tensor that is: `cross_entropy_fp32`, `logits`, `attention_scores`,
    /// `mlp_hidden`, `embedding_matrix` or `residual`.
    pub largest_allocation: &'static str,
    pub gpu_memory_bytes: u64,
    /// `nvidia_smi_bytes` ≤ `gpu_memory_bytes`.
    pub fits: bool,
    /// The largest batch_size that fits, all else equal (0 if not even 1 fits).
    pub max_batch_size: u64,
    pub effective_batch_size: u64,
    /// A batch size that fits and divides the effective batch (0 if none fits).
    pub suggested_batch_size: u64,
    /// The steps that keep the effective batch at `suggested_batch_size`.
    pub suggested_gradient_accumulation_steps: u64,
}

/// Validates the input and estimates its memory.
pub fn estimate(input: &EstimateInput) -> Result<Estimate, InvalidInput> {
    let run = input.validate()?;
    Ok(estimate_run(&run))
}

/// The estimate of a validated run.
pub fn estimate_run(run: &Run) -> Estimate {
    let params = parameter_breakdown(&run.shape);
    let peak = peak_breakdown(run, &params);
    let totals = Totals::of(&peak);
    let (largest, largest_name) = largest_allocation(run, &params);

    let mut components: Vec<Component> = peak
        .parts()
        .into_iter()
        .map(|(name, bytes)| Component {
            name,
            bytes: to_u64(bytes),
        })
        .collect();
    components.push(Component {
        name: "allocator_slack",
        bytes: to_u64(totals.reserved - totals.allocated),
    });
    components.push(Component {
        name: "cuda_context",
        bytes: CUDA_CONTEXT_BYTES,
    });

    let max_batch_size = max_batch_size(run);
    let fits = totals.nvidia_smi <= u128::from(run.gpu_memory_bytes);
    let effective = run
        .batch_size
        .saturating_mul(run.gradient_accumulation_steps);
    let (suggested_batch_size, suggested_steps) = suggestion(run, fits, effective);

    Estimate {
        parameters: params.non_embedding,
        parameters_total: params.total,
        components,
        activations_per_layer_bytes: to_u64(per_layer_bytes(run)),
        peak_phase: peak.phase,
        peak_allocated_bytes: to_u64(totals.allocated),
        reserved_bytes: to_u64(totals.reserved),
        nvidia_smi_bytes: to_u64(totals.nvidia_smi),
        largest_allocation_bytes: to_u64(largest),
        largest_allocation: largest_name,
        gpu_memory_bytes: run.gpu_memory_bytes,
        fits,
        max_batch_size,
        effective_batch_size: effective,
        suggested_batch_size,
        suggested_gradient_accumulation_steps: suggested_steps,
    }
}

/// Bytes per element of each kind of tensor under a precision.
#[derive(Debug, Clone, Copy)]
struct Sizes {
    /// Parameters, their gradients and the optimizer state.
    weight: u128,
    /// Outputs of matmuls (and of GELU): 16 bits under autocast.
    act: u128,
    /// The residual stream: fp32 under autocast, because the embeddings and LayerNorm run
    /// in fp32 and fp32 + bf16 gives fp32.
    residual: u128,
    /// Softmax and log-softmax outputs: autocast runs both in fp32.
    softmax: u128,
    autocast: bool,
}

impl Sizes {
    fn of(precision: Precision) -> Self {
        match precision {
            Precision::Fp32 => Self {
                weight: 4,
                act: 4,
                residual: 4,
                softmax: 4,
                autocast: false,
            },
            Precision::AmpBf16 | Precision::AmpFp16 => Self {
                weight: 4,
                act: 2,
                residual: 4,
                softmax: 4,
                autocast: true,
            },
            Precision::PureBf16 => Self {
                weight: 2,
                act: 2,
                residual: 2,
                softmax: 2,
                autocast: false,
            },
        }
    }
}

/// Tensor sizes in elements, as u128 so no validated input can overflow.
#[derive(Debug, Clone, Copy)]
struct Dims {
    layers: u128,
    /// batch × block: one row per token.
    tokens: u128,
    /// tokens × n_embd (Korthikanti's s·b·h).
    sbh: u128,
    /// batch × n_head × block² (one layer's attention scores).
    scores: u128,
    /// tokens × vocab: the logits.
    logits: u128,
}

impl Dims {
    fn of(run: &Run) -> Self {
        let s = &run.shape;
        let t = u128::from(s.block_size);
        let tokens = u128::from(run.batch_size) * t;
        Self {
            layers: u128::from(s.n_layer),
            tokens,
            sbh: tokens * u128::from(s.n_embd),
            scores: u128::from(run.batch_size) * u128::from(s.n_head) * t * t,
            logits: tokens * u128::from(s.vocab_size),
        }
    }
}

/// The allocated memory at the moment of the peak, by component.
#[derive(Debug, Clone, Copy, Default)]
struct Breakdown {
    phase: &'static str,
    weights: u128,
    gradients: u128,
    optimizer_state: u128,
    autocast_weight_copies: u128,
    attention_mask_buffers: u128,
    activations: u128,
    attention_scores: u128,
    logits_and_loss: u128,
    backward_temporaries: u128,
    optimizer_temporaries: u128,
}

impl Breakdown {
    fn parts(&self) -> [(&'static str, u128); 10] {
        [
            ("weights", self.weights),
            ("gradients", self.gradients),
            ("optimizer_state", self.optimizer_state),
            ("autocast_weight_copies", self.autocast_weight_copies),
            ("attention_mask_buffers", self.attention_mask_buffers),
            ("activations", self.activations),
            ("attention_scores", self.attention_scores),
            ("logits_and_loss", self.logits_and_loss),
            ("backward_temporaries", self.backward_temporaries),
            ("optimizer_temporaries", self.optimizer_temporaries),
        ]
    }

    fn total(&self) -> u128 {
        self.parts().iter().map(|(_, b)| b).sum()
    }
}

struct Totals {
    allocated: u128,
    reserved: u128,
    nvidia_smi: u128,
}

impl Totals {
    fn of(peak: &Breakdown) -> Self {
        let allocated = peak.total();
        let with_slack = allocated * u128::from(100 + ALLOCATOR_SLACK_PERCENT) / 100;
        let reserved = with_slack.div_ceil(SEGMENT_BYTES) * SEGMENT_BYTES;
        Self {
            allocated,
            reserved,
            nvidia_smi: reserved + u128::from(CUDA_CONTEXT_BYTES),
        }
    }
}

fn peak_breakdown(run: &Run, params: &ParameterCount) -> Breakdown {
    let s = Sizes::of(run.precision);
    let persistent = Breakdown {
        weights: u128::from(params.total) * s.weight,
        autocast_weight_copies: if s.autocast {
            u128::from(params.matmul_weights) * 2
        } else {
            0
        },
        attention_mask_buffers: match run.attention {
            // nanoGPT registers a block × block causal mask per layer when it has no flash.
            Attention::Manual => {
                let t = u128::from(run.shape.block_size);
                u128::from(run.shape.n_layer) * t * t * s.weight
            }
            Attention::Flash => 0,
        },
        ..Breakdown::default()
    };
    match run.phase {
        Phase::Train => {
            let backward = backward_start(run, params, persistent);
            let step = optimizer_step(run, params, persistent);
            if step.total() > backward.total() {
                step
            } else {
                backward
            }
        }
        Phase::Eval => eval_forward(run, persistent),
    }
}

/// Optimizer state: AdamW keeps two tensors per parameter, SGD with momentum one, each
/// in the parameter's dtype.
fn optimizer_state(run: &Run, params: &ParameterCount, s: Sizes) -> u128 {
    let states = match run.optimizer {
        Optimizer::Adamw | Optimizer::AdamwFused => 2,
        Optimizer::SgdMomentum => 1,
        Optimizer::Sgd => 0,
    };
    states * u128::from(params.total) * s.weight
}

/// The end of the forward pass and start of the backward: every block's saved tensors,
/// plus the cross-entropy buffers of the first backward node.
fn backward_start(run: &Run, params: &ParameterCount, persistent: Breakdown) -> Breakdown {
    let s = Sizes::of(run.precision);
    let d = Dims::of(run);
    // After `zero_grad(set_to_none=True)` gradients do not exist during the first
    // micro-step's forward; later micro-steps accumulate into them.
    let accumulating = run.gradient_accumulation_steps > 1;
    let gradients = if accumulating {
        u128::from(params.total) * s.weight
    } else {
        0
    };

    let per_block = layer_saved_per_sbh(run, s);
    let stored_blocks_sbh = if run.activation_checkpointing {
        // Each block keeps only its input; one block is recomputed at a time.
        d.layers * s.residual + per_block
    } else {
        d.layers * per_block
    };
    let scored_blocks = if run.activation_checkpointing {
        1
    } else {
        d.layers
    };
    let activations = d.sbh * (stored_blocks_sbh + outside_blocks_saved_per_sbh(run, s));
    let attention_scores = scored_blocks * d.scores * scores_saved_per_element(run, s);

    let head = d.logits * loss_buffers_per_logit(run, s) + d.tokens * BATCH_BYTES_PER_TOKEN;
    // The last block's backward, if it needs more than the loss did: its largest
    // gradients, the residual gradients, and the output matrix's gradient when gradients
    // are not yet allocated.
    let hidden_grads = d.sbh * 8 * s.act;
    let score_grads = match run.attention {
        Attention::Manual => d.scores * 2 * s.softmax,
        Attention::Flash => 0,
    };
    let head_weight_grad = if accumulating {
        0
    } else {
        u128::from(params.largest_tensor) * s.weight
    };
    let block_backward = hidden_grads.max(score_grads) + d.sbh * 2 * s.residual + head_weight_grad;
    let (logits_and_loss, backward_temporaries) = if head >= block_backward {
        (head, 0)
    } else {
        (d.tokens * BATCH_BYTES_PER_TOKEN, block_backward)
    };

    Breakdown {
        phase: "backward",
        gradients,
        optimizer_state: optimizer_state(run, params, s),
        activations,
        attention_scores,
        logits_and_loss,
        backward_temporaries,
        ..persistent
    }
}

/// `optimizer.step()`: all gradients exist, activations are gone. The foreach AdamW
/// builds one temporary the size of the parameters (the square root of `exp_avg_sq`);
/// the fused kernel and SGD work in place.
fn optimizer_step(run: &Run, params: &ParameterCount, persistent: Breakdown) -> Breakdown {
    let s = Sizes::of(run.precision);
    let total = u128::from(params.total) * s.weight;
    Breakdown {
        phase: "optimizer_step",
        gradients: total,
        optimizer_state: optimizer_state(run, params, s),
        optimizer_temporaries: if run.optimizer == Optimizer::Adamw {
            total
        } else {
            0
        },
        // Autocast's weight copies are released with the graph at the end of backward.
        autocast_weight_copies: 0,
        ..persistent
    }
}

/// One evaluation batch under `torch.no_grad()`, as nanoGPT's `estimate_loss()` runs it:
/// `logits, loss = model(X, Y)` keeps the previous batch's logits referenced until the
/// new forward returns, so two logits tensors are alive at the end.
fn eval_forward(run: &Run, persistent: Breakdown) -> Breakdown {
    let s = Sizes::of(run.precision);
    let d = Dims::of(run);
    let previous_logits = d.logits * s.act;
    let current_loss =
        d.logits * eval_loss_buffers_per_logit(run, s) + d.sbh * (s.residual + ln_output(s));
    let block = eval_block_bytes(run, s);
    let batch = d.tokens * BATCH_BYTES_PER_TOKEN;
    let (activations, logits_and_loss) = if current_loss >= block {
        (0, previous_logits + current_loss + batch)
    } else {
        (block, previous_logits + batch)
    };
    Breakdown {
        phase: "forward",
        activations,
        logits_and_loss,
        ..persistent
    }
}

/// LayerNorm's output as the next matmul reads it: under autocast LayerNorm returns fp32
/// and the matmul takes a 16-bit copy; both are alive for a moment.
fn ln_output(s: Sizes) -> u128 {
    if s.autocast { 4 + s.act } else { s.act }
}

/// Bytes one transformer block saves for backward, per element of a B×T×C tensor.
///
/// Korthikanti et al. (2022) count 34 bytes at 16 bits with dropout (their s·b·h·34):
/// the two LayerNorm inputs, the two LayerNorm outputs that feed matmuls, q, k, v, the
/// attention output that feeds c_proj, the 4C-wide c_fc output and GELU output, and two
/// one-byte dropout masks.
fn layer_saved_per_sbh(run: &Run, s: Sizes) -> u128 {
    let p = s.act;
    let r = s.residual;
    let mask = u128::from(run.dropout);
    let mut bytes = 2 * r + 2 * p + 3 * p + p + 4 * p + 4 * p + 2 * mask;
    if run.attention == Attention::Flash {
        // SDPA keeps its own output besides the contiguous copy c_proj saves.
        bytes += p;
    }
    if run.compile {
        // Inductor recomputes LayerNorm outputs and the GELU in the backward instead of
        // saving them (and fuses from-scratch layers the same way).
        bytes -= 2 * p + 4 * p;
    } else if run.layer_ops == LayerOps::Scratch {
        bytes += 2 * scratch_layer_norm_extra(s) + scratch_gelu_extra(s);
    }
    bytes
}

/// A LayerNorm written as mean/var/sub/div/mul/add also keeps `x - mean` and the
/// normalised `x`, in the residual's dtype.
fn scratch_layer_norm_extra(s: Sizes) -> u128 {
    2 * s.residual
}

/// A tanh-GELU written out keeps `tanh(...)`, `0.5 * x` and `1 + tanh(...)` (three more
/// 4C-wide tensors). Under autocast `pow` runs in fp32, so it also keeps an fp32 copy of
/// its input and the tanh chain is fp32: 12 extra bytes per 4C element.
fn scratch_gelu_extra(s: Sizes) -> u128 {
    if s.autocast { 4 * 12 } else { 4 * 3 * s.act }
}

/// Saved outside the blocks, per B×T×C element: the final LayerNorm's input and output
/// and the embedding dropout's mask.
fn outside_blocks_saved_per_sbh(run: &Run, s: Sizes) -> u128 {
    let mask = u128::from(run.dropout);
    if run.compile {
        s.residual + mask
    } else {
        let scratch = if run.layer_ops == LayerOps::Scratch {
            scratch_layer_norm_extra(s)
        } else {
            0
        };
        s.residual + s.act + mask + scratch
    }
}

/// Manual attention saves, per score element, the softmax output (5·a·s/h of Korthikanti
/// counts 2 bytes of it), and with dropout its one-byte mask and its output. Under
/// autocast softmax returns fp32 and `att @ v` keeps a 16-bit copy.
fn scores_saved_per_element(run: &Run, s: Sizes) -> u128 {
    if run.attention == Attention::Flash {
        return 0;
    }
    let mask = u128::from(run.dropout);
    if s.autocast {
        s.softmax + s.act + mask
    } else {
        s.softmax + mask * (1 + s.act)
    }
}

/// Bytes per logit at the start of the backward. Eager: the log-softmax output, the
/// gradient nll_loss hands back and the gradient log-softmax produces, all in the
/// cross-entropy's dtype (fp32 under autocast: it upcasts the 16-bit logits). Compiled:
/// the 16-bit logits kept for backward, one fp32 buffer of the fused cross-entropy
/// backward and the 16-bit logits gradient.
fn loss_buffers_per_logit(run: &Run, s: Sizes) -> u128 {
    if run.compile {
        2 * s.act + 4
    } else {
        3 * s.softmax
    }
}

/// Bytes per logit while one evaluation batch computes its loss: the logits, under
/// autocast their fp32 copy, and the log-softmax output. Compiled, the cross-entropy is
/// fused and only the logits are written.
fn eval_loss_buffers_per_logit(run: &Run, s: Sizes) -> u128 {
    if run.compile {
        s.act
    } else {
        s.act + if s.autocast { 4 } else { 0 } + s.softmax
    }
}

/// The busiest moment inside one block under no_grad: the residual, the LayerNorm output,
/// then the MLP's 4C-wide input and output (or q, k, v and their copies), and with manual
/// attention two score-sized tensors (scores and softmax).
fn eval_block_bytes(run: &Run, s: Sizes) -> u128 {
    let d = Dims::of(run);
    let p = s.act;
    let tokens_part = d.sbh * (s.residual + ln_output(s) + (8 * p).max(5 * p));
    let scores_part = match run.attention {
        Attention::Manual => d.scores * (p + s.softmax),
        Attention::Flash => 0,
    };
    tokens_part + scores_part
}

fn per_layer_bytes(run: &Run) -> u128 {
    let s = Sizes::of(run.precision);
    let d = Dims::of(run);
    match run.phase {
        Phase::Train => {
            d.sbh * layer_saved_per_sbh(run, s) + d.scores * scores_saved_per_element(run, s)
        }
        Phase::Eval => eval_block_bytes(run, s),
    }
}

/// The biggest single tensor and its name: the one an OOM's "Tried to allocate" most
/// likely names when a run does not fit.
fn largest_allocation(run: &Run, params: &ParameterCount) -> (u128, &'static str) {
    let s = Sizes::of(run.precision);
    let d = Dims::of(run);
    let train = run.phase == Phase::Train;
    // fp32 N×V buffers: autocast's upcast for cross-entropy (eager), or the compiled
    // backward's fp32 buffer. With fp32 logits the logits themselves are that size.
    let fp32_loss = s.act < 4 && ((s.autocast && !run.compile) || (train && run.compile));
    let hidden_bytes = if s.autocast && run.layer_ops == LayerOps::Scratch && !run.compile {
        4
    } else {
        s.act
    };
    let candidates = [
        (
            "cross_entropy_fp32",
            if fp32_loss { d.logits * 4 } else { 0 },
        ),
        ("logits", d.logits * s.act),
        (
            "attention_scores",
            if run.attention == Attention::Manual {
                d.scores * s.softmax
            } else {
                0
            },
        ),
        ("mlp_hidden", d.sbh * 4 * hidden_bytes),
        (
            "embedding_matrix",
            u128::from(params.largest_tensor) * s.weight,
        ),
        ("residual", d.sbh * s.residual),
    ];
    let mut best = ("residual", 0u128);
    for (name, bytes) in candidates {
        if bytes > best.1 {
            best = (name, bytes);
        }
    }
    (best.1.div_ceil(REQUEST_ROUNDING) * REQUEST_ROUNDING, best.0)
}

fn nvidia_smi_at_batch(run: &Run, batch_size: u64) -> u128 {
    let at = Run { batch_size, ..*run };
    let params = parameter_breakdown(&at.shape);
    Totals::of(&peak_breakdown(&at, &params)).nvidia_smi
}

/// The largest batch size whose estimate fits. Memory grows with the batch in every term,
/// so a binary search over 1..=MAX_BATCH_SIZE finds it in ~20 evaluations.
fn max_batch_size(run: &Run) -> u64 {
    let budget = u128::from(run.gpu_memory_bytes);
    if nvidia_smi_at_batch(run, 1) > budget {
        return 0;
    }
    let (mut fits, mut too_big) = (1u64, MAX_BATCH_SIZE + 1);
    while too_big - fits > 1 {
        let mid = fits + (too_big - fits) / 2;
        if nvidia_smi_at_batch(run, mid) <= budget {
            fits = mid;
        } else {
            too_big = mid;
        }
    }
    fits
}

/// When the run does not fit: the largest batch size that fits with gradients
/// accumulating (they stay allocated between micro-steps) and divides the effective
/// batch, and the steps that keep that effective batch.
fn suggestion(run: &Run, fits: bool, effective: u64) -> (u64, u64) {
    if fits || run.phase == Phase::Eval {
        return (run.batch_size, run.gradient_accumulation_steps);
    }
    let accumulating = Run {
        gradient_accumulation_steps: run.gradient_accumulation_steps.max(2),
        ..*run
    };
    let limit = max_batch_size(&accumulating).min(run.batch_size);
    match (1..=limit).rev().find(|b| effective.is_multiple_of(*b)) {
        Some(batch) => (batch, effective / batch),
        None => (0, run.gradient_accumulation_steps),
    }
}

fn to_u64(bytes: u128) -> u64 {
    u64::try_from(bytes).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gib(bytes: u64) -> f64 {
        bytes as f64 / f64::from(1u32 << 30)
    }

    #[test]
    fn components_add_up_to_the_reported_totals() {
        for phase in [Phase::Train, Phase::Eval] {
            let input = EstimateInput {
                phase,
                ..EstimateInput::gpt2_124m()
            };
            let e = estimate(&input).unwrap();
            let sum: u64 = e.components.iter().map(|c| c.bytes).sum();
            assert_eq!(sum, e.nvidia_smi_bytes);
            let allocated: u64 = e
                .components
                .iter()
                .filter(|c| c.name != "allocator_slack" && c.name != "cuda_context")
                .map(|c| c.bytes)
                .sum();
            assert_eq!(allocated, e.peak_allocated_bytes);
            assert!(e.reserved_bytes >= e.peak_allocated_bytes);
            assert_eq!(e.nvidia_smi_bytes - e.reserved_bytes, CUDA_CONTEXT_BYTES);
        }
    }

    #[test]
    fn contract_example_reports_gpt2_parameters() {
        let e = estimate(&EstimateInput::gpt2_124m()).unwrap();
        assert_eq!(e.parameters, 123_587_328);
        assert_eq!(e.parameters_total, 123_587_328 + 1024 * 768);
    }

    #[test]
    fn max_batch_size_is_monotonic_in_gpu_memory() {
        let mut previous = 0;
        for gib in [
            1.0, 2.0, 4.0, 6.0, 8.0, 11.69, 12.0, 16.0, 24.0, 40.0, 80.0, 141.0, 4096.0,
        ] {
            let input = EstimateInput {
                gpu_memory_gib: gib,
                ..EstimateInput::gpt2_124m()
            };
            let e = estimate(&input).unwrap();
            assert!(
                e.max_batch_size >= previous,
                "{gib} GiB: {} < {previous}",
                e.max_batch_size
            );
            previous = e.max_batch_size;
        }
        assert!(previous > 0);
    }

    #[test]
    fn max_batch_size_is_the_boundary_of_fits() {
        let input = EstimateInput {
            gpu_memory_gib: 24.0,
            ..EstimateInput::gpt2_124m()
        };
        let e = estimate(&input).unwrap();
        let at = |batch_size| {
            estimate(&EstimateInput {
                batch_size,
                ..input.clone()
            })
            .unwrap()
            .fits
        };
        assert!(at(e.max_batch_size));
        assert!(!at(e.max_batch_size + 1));
    }

    #[test]
    fn memory_grows_with_batch_and_shrinks_with_checkpointing_and_flash() {
        let base = EstimateInput::gpt2_124m();
        let peak = |input: EstimateInput| estimate(&input).unwrap().peak_allocated_bytes;
        let p8 = peak(base.clone());
        assert!(
            peak(EstimateInput {
                batch_size: 16,
                ..base.clone()
            }) > p8
        );
        assert!(
            peak(EstimateInput {
                activation_checkpointing: true,
                ..base.clone()
            }) < p8
        );
        assert!(
            peak(EstimateInput {
                attention: Attention::Manual,
                ..base.clone()
            }) > p8
        );
        assert!(
            peak(EstimateInput {
                precision: Precision::Fp32,
                ..base.clone()
            }) > p8
        );
        assert!(
            peak(EstimateInput {
                layer_ops: LayerOps::Scratch,
                ..base.clone()
            }) > p8
        );
        assert!(
            peak(EstimateInput {
                phase: Phase::Eval,
                ..base.clone()
            }) < p8
        );
        assert!(
            peak(EstimateInput {
                optimizer: Optimizer::Sgd,
                ..base
            }) < p8
        );
    }

    #[test]
    fn accumulating_keeps_gradients_alive_during_the_forward() {
        let one = estimate(&EstimateInput::gpt2_124m()).unwrap();
        let four = estimate(&EstimateInput {
            gradient_accumulation_steps: 4,
            ..EstimateInput::gpt2_124m()
        })
        .unwrap();
        let grads = |e: &Estimate| {
            e.components
                .iter()
                .find(|c| c.name == "gradients")
                .map(|c| c.bytes)
        };
        assert_eq!(grads(&one), Some(0));
        // fp32 gradients of every parameter, position embeddings included.
        assert_eq!(grads(&four), Some(4 * one.parameters_total));
    }

    #[test]
    fn the_seed_oom_config_does_not_fit_and_a_divisor_batch_is_suggested() {
        // nanoGPT's train_openwebtext with batch 64 on a 12 GB card (11.69 GiB usable).
        let input = EstimateInput {
            batch_size: 64,
            compile: true,
            gpu_memory_gib: 11.69,
            ..EstimateInput::gpt2_124m()
        };
        let e = estimate(&input).unwrap();
        assert!(!e.fits);
        assert!(
            e.max_batch_size >= 1 && e.max_batch_size < 64,
            "{}",
            e.max_batch_size
        );
        assert_eq!(e.effective_batch_size, 64);
        assert_eq!(
            e.suggested_batch_size * e.suggested_gradient_accumulation_steps,
            64
        );
        assert!(e.suggested_batch_size <= e.max_batch_size);
        // The suggestion itself fits.
        let suggested = EstimateInput {
            batch_size: e.suggested_batch_size,
            gradient_accumulation_steps: e.suggested_gradient_accumulation_steps,
            ..input.clone()
        };
        assert!(estimate(&suggested).unwrap().fits);
        // Its evaluation does not fit either: two bf16 logits of 6.14 GiB each.
        let eval = estimate(&EstimateInput {
            phase: Phase::Eval,
            ..input
        })
        .unwrap();
        assert!(!eval.fits);
        assert!(gib(eval.peak_allocated_bytes) > 12.28);
    }

    #[test]
    fn a_fitting_run_keeps_its_batch() {
        let input = EstimateInput {
            batch_size: 4,
            gradient_accumulation_steps: 3,
            gpu_memory_gib: 80.0,
            ..EstimateInput::gpt2_124m()
        };
        let e = estimate(&input).unwrap();
        assert!(e.fits);
        assert_eq!(
            (
                e.suggested_batch_size,
                e.suggested_gradient_accumulation_steps
            ),
            (4, 3)
        );
    }

    #[test]
    fn nothing_fits_on_a_tiny_gpu() {
        let input = EstimateInput {
            gpu_memory_gib: 0.1,
            ..EstimateInput::gpt2_124m()
        };
        let e = estimate(&input).unwrap();
        assert!(!e.fits);
        assert_eq!(e.max_batch_size, 0);
        assert_eq!(e.suggested_batch_size, 0);
    }

    #[test]
    fn extreme_inputs_saturate_without_panicking() {
        let input = EstimateInput {
            n_layer: Some(1000),
            n_head: Some(65_536),
            n_embd: Some(65_536),
            vocab_size: 10_000_000,
            block_size: 1_000_000,
            batch_size: 1_000_000,
            gradient_accumulation_steps: 1_000_000,
            attention: Attention::Manual,
            layer_ops: LayerOps::Scratch,
            dropout: 0.5,
            gpu_memory_gib: 4096.0,
            ..EstimateInput::default()
        };
        let e = estimate(&input).unwrap();
        assert_eq!(e.nvidia_smi_bytes, u64::MAX);
        assert!(!e.fits);
        assert_eq!(e.max_batch_size, 0);
    }

    #[test]
    fn largest_allocation_under_autocast_is_the_fp32_cross_entropy_copy() {
        let input = EstimateInput {
            batch_size: 12,
            ..EstimateInput::gpt2_124m()
        };
        let e = estimate(&input).unwrap();
        assert_eq!(e.largest_allocation, "cross_entropy_fp32");
        assert_eq!(e.largest_allocation_bytes, 12 * 1024 * 50_304 * 4);
    }

    #[test]
    fn manual_attention_at_long_context_allocates_scores_first() {
        let input = EstimateInput {
            block_size: 8192,
            batch_size: 1,
            attention: Attention::Manual,
            ..EstimateInput::gpt2_124m()
        };
        let e = estimate(&input).unwrap();
        assert_eq!(e.largest_allocation, "attention_scores");
        // fp32 softmax of 12 heads × 8192².
        assert_eq!(e.largest_allocation_bytes, 12 * 8192 * 8192 * 4);
    }

    #[test]
    fn estimate_serializes_with_the_contract_keys() {
        let e = estimate(&EstimateInput::gpt2_124m()).unwrap();
        let json = serde_json::to_value(&e).unwrap();
        for key in [
            "parameters",
            "components",
            "peak_allocated_bytes",
            "reserved_bytes",
            "nvidia_smi_bytes",
            "largest_allocation_bytes",
            "fits",
            "max_batch_size",
            "suggested_gradient_accumulation_steps",
        ] {
            assert!(json.get(key).is_some(), "missing {key}");
        }
        assert_eq!(json["components"][0]["name"], "weights");
    }
}
