//! GPU memory of a nanoGPT training run, estimated from its config; and which tensor a
//! "Tried to allocate X" names.
//!
//! Pure functions, no I/O. [`estimate`] answers `POST /api/v1/estimate`;
//! [`explain_allocation`] reads the size in an out-of-memory message.
//!
//! # Parameters
//!
//! [`parameter_count`] counts nanoGPT's `GPT` exactly as `model.py` builds it: `wte`
//! (tied to `lm_head`), per block `ln_1`, `c_attn` (C→3C), `c_proj` (C→C), `ln_2`,
//! `c_fc` (C→4C), `c_proj` (4C→C), then `ln_f`; LayerNorms and Linears carry biases only
//! with `bias`. Like `get_num_params()` it leaves out the position embeddings `wpe`, which
//! the memory estimate does count. Untied embeddings add a vocab × n_embd `lm_head`.
//!
//! # The memory model
//!
//! Notation: B batch, T block, C n_embd, H heads, L layers, V vocab; "per B·T·C" means
//! bytes per element of a B×T×C tensor (Korthikanti's s·b·h).
//!
//! A training step peaks at one of two moments, whichever is larger:
//!
//! * **the start of the backward pass**: weights; the optimizer state (present from the
//!   second step on); gradients only when accumulating (after `zero_grad(set_to_none=True)`
//!   the first micro-step's forward has none); autocast's 16-bit copies of the matmul
//!   weights (cached for the whole forward, kept by the graph for backward); every block's
//!   saved activations; and the cross-entropy buffers of the first backward node. If the
//!   last block's own backward needs more than those buffers (manual attention at long
//!   context), its gradients count instead.
//! * **the optimizer step**: weights, all gradients, the state, and for the foreach
//!   AdamW one parameter-sized temporary.
//!
//! An evaluation batch (`phase: eval`, `torch.no_grad()`) holds weights, autocast copies,
//! the previous batch's logits (nanoGPT's `logits, loss = model(X, Y)` keeps them until
//! the new forward returns — in the seeds' OOM paste this is why 6.78 GiB was allocated
//! before the 6.14 GiB request), and either the loss buffers or one block's working set.
//! It models an evaluation-only process: one inside a training run also keeps the
//! optimizer state, which the train phase already counts.
//!
//! ## Activations, derived
//!
//! Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large Transformer
//! Models") count, per layer at 16 bits with dropout, `s·b·h·(34 + 5·a·s/h)` bytes:
//! LayerNorm inputs 4, the LayerNorm outputs feeding matmuls 4, q, k, v 6, the attention
//! output feeding the projection 2, the 4h-wide MLP input and GELU output 16, two dropout
//! masks 2; and per score element softmax output 2, its dropout mask 1 and dropout output
//! 2. Checked against PyTorch's autograd, adjusted for what else a run does:
//!
//! * **element sizes**: fp32 doubles every tensor (masks stay 1 byte). Under autocast
//!   matmul outputs are 16-bit, but the residual stream is fp32 (embeddings and LayerNorm
//!   run in fp32, fp32 + bf16 is fp32), LayerNorm returns fp32 that the next matmul copies
//!   to 16 bits (the copy is what is saved), and softmax returns fp32 that `att @ v` copies
//!   to 16 bits (both saved): 36 bytes per B·T·C (+2 with dropout) and 6 per score element
//!   (+1 with dropout). `pure_bf16` is Korthikanti's case.
//! * **no dropout** (p = 0, or eval): no masks, and no separate dropout output: 32 + 2·a·s/h
//!   at 16 bits.
//! * **flash** (SDPA): no score tensor (the 5·a·s/h term goes), but SDPA keeps its output
//!   besides the contiguous copy `c_proj` saves: +1 element per B·T·C.
//! * **scratch layer ops**: a LayerNorm written out also keeps `x − mean` and the
//!   normalised x (+2 residual-sized tensors each); a tanh-GELU written out keeps three
//!   more 4C-wide tensors (+12 elements), and under autocast `pow` and the tanh chain run in
//!   fp32 (+48 bytes per B·T·C). Measured: native ops saved 2.22 GiB of 13.79, the model
//!   says 2.25.
//! * **torch.compile**: Inductor recomputes the LayerNorm outputs and the GELU in the
//!   backward instead of saving them (−6 elements per B·T·C) and fuses from-scratch ops.
//! * **activation checkpointing**: each block keeps its input; one block is recomputed.
//!
//! ## Logits and loss, their own term
//!
//! The logits are B·T·V elements, V/C times a B×T×C tensor (131 for GPT-2): for small
//! models they outweigh all the blocks. Eager cross-entropy is log-softmax then NLL; at the
//! start of backward three B·T·V tensors exist in its dtype — the saved log-softmax output,
//! the gradient NLL returns, the gradient log-softmax produces — and autocast runs it in
//! fp32 on an fp32 copy of the logits (nanoGPT issue 88's 6.14 GiB request: 32 × 1024 ×
//! 50304 × 4 bytes). Compiled, the loss is fused: the 16-bit logits, one fp32 buffer of the
//! fused backward and the 16-bit gradient (2·2 + 4 bytes per logit). The seed article's
//! "multiplier 160" (activations ≈ B·T·C·L·160·2 bytes, fitted to a whole GPU's 6.4 GiB,
//! other processes included) stood mostly for this term: 8 bytes per logit is 175 bytes
//! per B·T·C·L element at V = 50304, C = 384, L = 6.
//!
//! ## From allocated to reserved to nvidia-smi
//!
//! Two constants with a physical meaning, fitted on
//! `shared/reference/gpu-memory-measurements.tsv`:
//!
//! * allocator slack [`ALLOCATOR_SLACK_PERCENT`] = 2 %: reserved = peak × 1.02, rounded up
//!   to 2 MiB pages. The four eager A100 rows have reserved / estimated peak 1.018–1.025.
//! * CUDA context [`CUDA_CONTEXT_BYTES`] = 232 MiB: nvidia-smi = reserved + context. Taken
//!   from the seeds' OOM paste (process 7.04 GiB, PyTorch 6.78 GiB allocated + 35 MiB
//!   cached). No separate compile workspace was needed: compile's cost is the fp32 loss
//!   buffer above.
//!
//! How the table's cells are read: `?` is unknown and takes the input's default
//! (`grad_accum ?` → 1, which neither largest_allocation row depends on); a trailing `?`
//! marks an unconfirmed value, used as written (`0.0?` → dropout 0.0, nanoGPT's default);
//! `sdpa` is flash; `yes`/`no` are booleans; `gpu_memory_gib` and `bias` are absent (bias
//! defaults to false; Raschka's models have biases in `out_proj`, the MLP and LayerNorm,
//! under 0.1 % of their parameters). Metrics: `reserved` → `reserved_bytes`, `process_nvidia_smi` →
//! `nvidia_smi_bytes`, `largest_allocation` → `largest_allocation_bytes`.
//!
//! | row | metric | measured GiB | estimated GiB | error |
//! |---|---|---|---|---|
//! | seed-rtx4070 | process_nvidia_smi | 4.359 | 4.352 | −0.17 % |
//! | seed-rtx3060-oom | largest_allocation | 6.14 | 6.141 | +0.01 % |
//! | nanogpt-issue-88 | largest_allocation | 6.14 | 6.141 | +0.01 % |
//! | raschka-00-orig | reserved | 26.2617 | 26.352 | +0.34 % |
//! | raschka-05-bf16 | reserved | 13.7871 | 13.824 | +0.27 % |
//! | raschka-06-native-ops | reserved | 11.5645 | 11.506 | −0.51 % |
//! | raschka-07-flash | reserved | 5.9004 | 5.889 | −0.20 % |
//! | raschka-09-vocab | reserved | 5.8906 | 5.801 | −1.52 % |
//!
//! (`cargo test every_measurement -- --nocapture` prints this table.) The fit is closer
//! than the data deserve: the Raschka rows also shaped the slack, and the compile terms
//! were chosen with the two compile rows in view.
//!
//! # Known limits
//!
//! * Eight measurements calibrate it; the compile terms rest on two rows (which need both
//!   the recomputed LayerNorm/GELU and the fp32 loss buffer to fit), the manual-attention
//!   and scratch terms on three runs of one script. Expect ±15 % elsewhere, more on
//!   shapes far from GPT-2.
//! * In train, eager nanoGPT also keeps the logits it returned (`logits, loss =
//!   model(X, Y)`) through the backward: one more B·T·V 16-bit tensor that the calibration
//!   runs (Raschka's script drops them) do not have, so the estimate leaves it out.
//! * The CUDA context differs by GPU, driver and libraries (≈ 230–600 MiB); other
//!   processes on the GPU are not counted.
//! * The allocator can fragment far more than 2 % when shapes vary (variable-length
//!   batches, generation); `expandable_segments:True` brings it back down.
//! * Single GPU; no DDP buckets, FSDP or ZeRO sharding, no KV cache or generation, no
//!   CUDA graphs, no compile autotuning buffers, no cuBLAS workspaces; architecture is
//!   nanoGPT's (learned positions, LayerNorm, GELU MLP, multi-head attention).
//! * Manual attention under compile is assumed to stay manual (Inductor may rewrite it
//!   to SDPA).

mod allocation;
mod allocation_input;
#[cfg(test)]
mod calibration;
mod fields;
mod input;
pub mod llm;
mod memory;
mod params;

pub use allocation::{
    AllocationMatch, AllocationQuery, KNOWN_VOCAB_SIZES, TensorKind, explain_allocation,
};
pub use allocation_input::{AllocationAnswer, AllocationInput, Size};
pub use fields::{BodyError, field_names, from_json, from_pairs, given_as_json};
pub use input::{
    Attention, EstimateInput, InvalidInput, LayerOps, MAX_BATCH_SIZE, MAX_BLOCK_SIZE,
    MAX_GPU_MEMORY_GIB, MAX_GRADIENT_ACCUMULATION_STEPS, MAX_N_EMBD, MAX_N_LAYER, MAX_VOCAB_SIZE,
    Optimizer, Phase, Precision, Problem, Run, UnknownVariant,
};
pub use memory::{
    ALLOCATOR_SLACK_PERCENT, CUDA_CONTEXT_BYTES, Component, Estimate, estimate, estimate_run,
};
pub use params::{ModelShape, ParameterCount, parameter_breakdown, parameter_count};

/// What `POST /api/v1/estimate` answers: nanoGPT's estimate, or a transformer's when the
/// body names a `model` or gives a `config`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(untagged)]
pub enum EstimateAnswer {
    NanoGpt(Estimate),
    Transformer(Box<llm::LlmEstimate>),
}

/// The figures both estimators answer with, for a short summary of either.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EstimateSummary {
    pub fits: bool,
    pub gpu_memory_bytes: u64,
    pub peak_allocated_bytes: u64,
    pub reserved_bytes: u64,
    pub nvidia_smi_bytes: u64,
    pub max_batch_size: u64,
}

impl EstimateAnswer {
    pub fn summary(&self) -> EstimateSummary {
        match self {
            EstimateAnswer::NanoGpt(e) => EstimateSummary {
                fits: e.fits,
                gpu_memory_bytes: e.gpu_memory_bytes,
                peak_allocated_bytes: e.peak_allocated_bytes,
                reserved_bytes: e.reserved_bytes,
                nvidia_smi_bytes: e.nvidia_smi_bytes,
                max_batch_size: e.max_batch_size,
            },
            EstimateAnswer::Transformer(e) => EstimateSummary {
                fits: e.fits,
                gpu_memory_bytes: e.gpu_memory_bytes,
                peak_allocated_bytes: e.peak_allocated_bytes,
                reserved_bytes: e.reserved_bytes,
                nvidia_smi_bytes: e.nvidia_smi_bytes,
                max_batch_size: e.max_batch_size,
            },
        }
    }
}

/// Whether a body (or a set of field names) is for the transformer estimator.
pub fn names_a_transformer<'a>(mut fields: impl Iterator<Item = &'a str>) -> bool {
    fields.any(|f| f == "model" || f == "config")
}

/// The estimate for a JSON body, by whichever estimator its fields are for.
pub fn estimate_json(body: &[u8]) -> Result<EstimateAnswer, BodyError> {
    let transformer = serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|v| {
            v.as_object()
                .map(|o| names_a_transformer(o.keys().map(String::as_str)))
        })
        .unwrap_or(false);
    if transformer {
        let input: llm::LlmInput = from_json(body)?;
        Ok(EstimateAnswer::Transformer(Box::new(llm::estimate_llm(
            &input,
        )?)))
    } else {
        let input: EstimateInput = from_json(body)?;
        Ok(EstimateAnswer::NanoGpt(estimate(&input)?))
    }
}
