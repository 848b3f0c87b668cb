//! The transformer memory model, per GPU. The derivation of each term is in the comments
//! next to it; the module docs of `llm` summarise it and list the calibration.

use serde::Serialize;

use super::input::{
    KvCacheDtype, LlmInput, LlmOptimizer, LlmPhase, LlmRun, Method, Quantization, Sharding,
};
use super::model::ModuleInput;
use crate::estimator::{
    ALLOCATOR_SLACK_PERCENT, Attention, CUDA_CONTEXT_BYTES, Component, InvalidInput, Precision,
};

const MIB: u128 = 1 << 20;
/// The caching allocator carves large allocations from 2 MiB pages.
const SEGMENT_BYTES: u128 = 2 * MIB;
/// NCCL's communicators when more than one GPU works together: NCCL_BUFFSIZE (4 MiB) per
/// channel and peer plus its work queues come to a few hundred MiB outside PyTorch's
/// allocator (vLLM PR #2031 saw its TP=4 run exceed its budget by this kind of memory).
const NCCL_BYTES: u128 = 256 * MIB;
/// bitsandbytes NF4 (`quantize_4bit`, blocksize 64): one fp32 absmax per 64 weights.
const NF4_BLOCK: u128 = 64;
/// Double quantization: the absmax values quantized to 8 bits, with one fp32 constant
/// per 256 of them (QLoRA paper §3, `compress_statistics=True`).
const NF4_DQ_BLOCK: u128 = 256;
/// bitsandbytes 8-bit optimizers: states quantized blockwise, one fp32 absmax per 256
/// values (`Optimizer8bit.init_state`: `blocks = n // 256`).
const OPTIMIZER_8BIT_BLOCK: u128 = 256;
/// vLLM's default KV-cache block: 16 tokens.
pub const VLLM_BLOCK_TOKENS: u64 = 16;
/// vLLM profiles its activation peak with `max_num_batched_tokens` tokens, by default
/// at least 2048 (V0, chunked prefill off) and `max_num_seqs` = 256 sequences, each
/// sampled once.
const VLLM_MIN_BATCHED_TOKENS: u128 = 2048;
const VLLM_MAX_NUM_SEQS: u128 = 256;
/// Bytes per element of the sampler's work for one sequence's logits in vLLM: fp32
/// logits, their sorted copy and int64 indices (top-p/top-k), and the fp32 probabilities.
const VLLM_SAMPLER_BYTES_PER_LOGIT: u128 = 4 + 4 + 8 + 4;

/// A change of the input that frees memory, with how much.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Saving {
    /// `qlora`, `lora`, `gradient_checkpointing`, `paged_adamw_8bit`, `zero3`,
    /// `shorter_context`, `fp8_kv_cache`, `smaller_batch`.
    pub change: &'static str,
    /// The field to change and its new value (as a query or a body writes it).
    pub field: &'static str,
    pub value: String,
    pub bytes_saved: u64,
    /// `nvidia_smi_bytes` after the change.
    pub nvidia_smi_bytes: u64,
    pub fits: bool,
}

/// The transformer estimate, per GPU. `components` describe the peak and add up to
/// `nvidia_smi_bytes`; all but `allocator_slack`, `cuda_context` and `nccl` add up to
/// `peak_allocated_bytes`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LlmEstimate {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Every parameter (a tied head counted once).
    pub parameters: u64,
    pub trainable_parameters: u64,
    pub components: Vec<Component>,
    /// `backward`, `optimizer_step`, `forward` (eval) or `generate`.
    pub peak_phase: &'static str,
    pub peak_allocated_bytes: u64,
    pub reserved_bytes: u64,
    pub nvidia_smi_bytes: u64,
    pub largest_allocation_bytes: u64,
    pub largest_allocation: &'static str,
    pub gpu_memory_bytes: u64,
    pub gpus: u64,
    pub fits: bool,
    pub max_batch_size: u64,
    pub effective_batch_size: u64,
    pub suggested_batch_size: u64,
    pub suggested_gradient_accumulation_steps: u64,
    /// What lives in host RAM on the machine (all GPUs together): offloaded states and
    /// parameters, paged optimizer states.
    pub host_memory_bytes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_cache_bytes_per_token: Option<u64>,
    /// vLLM: tokens its KV-cache blocks hold after weights and the profiled peak.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_cache_tokens: Option<u64>,
    /// vLLM: sequences of `max_model_len` that fit in those blocks at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_concurrent_sequences: Option<u64>,
    /// Changes that free memory, the largest saving first.
    pub savings: Vec<Saving>,
}

/// Validates the input and estimates its memory.
pub fn estimate_llm(input: &LlmInput) -> Result<LlmEstimate, InvalidInput> {
    let run = input.validate()?;
    let mut estimate = estimate_llm_run(&run);
    estimate.savings = savings(input, &estimate);
    Ok(estimate)
}

/// The estimate of a validated run, without the savings.
pub fn estimate_llm_run(run: &LlmRun) -> LlmEstimate {
    let peak = peak(run);
    let allocated: u128 = peak.parts.iter().map(|(_, b)| b).sum();
    let reserved = (allocated * u128::from(100 + ALLOCATOR_SLACK_PERCENT) / 100)
        .div_ceil(SEGMENT_BYTES)
        * SEGMENT_BYTES;
    let nccl = if run.gpus > 1 { NCCL_BYTES } else { 0 };
    let nvidia_smi = reserved + u128::from(CUDA_CONTEXT_BYTES) + nccl;
    let mut components: Vec<Component> = peak
        .parts
        .iter()
        .map(|&(name, bytes)| Component {
            name,
            bytes: to_u64(bytes),
        })
        .collect();
    components.push(Component {
        name: "allocator_slack",
        bytes: to_u64(reserved - allocated),
    });
    components.push(Component {
        name: "cuda_context",
        bytes: CUDA_CONTEXT_BYTES,
    });
    if nccl > 0 {
        components.push(Component {
            name: "nccl",
            bytes: to_u64(nccl),
        });
    }
    let fits = nvidia_smi <= u128::from(run.gpu_memory_bytes);
    let max_batch_size = max_batch_size(run);
    let effective = run
        .batch_size
        .saturating_mul(run.gradient_accumulation_steps);
    let (suggested_batch_size, suggested_steps) = if fits {
        (run.batch_size, run.gradient_accumulation_steps)
    } else {
        let limit = max_batch_size.min(run.batch_size);
        match (1..=limit).rev().find(|b| effective.is_multiple_of(*b)) {
            Some(b) => (b, effective / b),
            None => (0, run.gradient_accumulation_steps),
        }
    };
    let generate = run.phase == LlmPhase::Generate;
    let vllm = generate.then(|| vllm_view(run));
    LlmEstimate {
        model: run.model_id.clone(),
        parameters: run.params.total,
        trainable_parameters: to_u64(trainable(run)),
        components,
        peak_phase: peak.phase,
        peak_allocated_bytes: to_u64(allocated),
        reserved_bytes: to_u64(reserved),
        nvidia_smi_bytes: to_u64(nvidia_smi),
        largest_allocation_bytes: to_u64(peak.largest.0),
        largest_allocation: peak.largest.1,
        gpu_memory_bytes: run.gpu_memory_bytes,
        gpus: run.gpus,
        fits,
        max_batch_size,
        effective_batch_size: effective,
        suggested_batch_size,
        suggested_gradient_accumulation_steps: suggested_steps,
        host_memory_bytes: to_u64(peak.host),
        kv_cache_bytes_per_token: generate.then(|| to_u64(kv_bytes_per_token_per_gpu(run))),
        kv_cache_tokens: vllm.map(|v| to_u64(v.0)),
        max_concurrent_sequences: vllm.map(|v| to_u64(v.1)),
        savings: Vec::new(),
    }
}

/// The allocated memory at the peak, by component, the largest single tensor, and what
/// sits in host RAM.
struct Peak {
    phase: &'static str,
    parts: Vec<(&'static str, u128)>,
    largest: (u128, &'static str),
    host: u128,
}

/// Bytes per element: parameters as stored, the compute dtype, and the residual stream.
#[derive(Clone, Copy)]
struct Sizes {
    weight: u128,
    compute: u128,
    residual: u128,
    amp: bool,
}

impl Sizes {
    fn of(precision: Precision) -> Self {
        match precision {
            Precision::Fp32 => Sizes {
                weight: 4,
                compute: 4,
                residual: 4,
                amp: false,
            },
            // fp32 weights under autocast: matmuls in 16 bits, the residual stream fp32.
            Precision::AmpBf16 | Precision::AmpFp16 => Sizes {
                weight: 4,
                compute: 2,
                residual: 4,
                amp: true,
            },
            Precision::PureBf16 => Sizes {
                weight: 2,
                compute: 2,
                residual: 2,
                amp: false,
            },
        }
    }
}

fn u(x: u64) -> u128 {
    u128::from(x)
}

/// Parameters with gradients: every one (full), or the LoRA adapters: r × (in + out)
/// per adapted Linear, plus the head's if it is adapted.
fn trainable(run: &LlmRun) -> u128 {
    let Some(lora) = &run.lora else {
        return u(run.params.total);
    };
    let r = u(run.lora_rank);
    let a = &run.arch;
    let layers: u128 = a
        .linear_modules()
        .iter()
        .filter(|m| lora.names.contains(&m.name))
        .map(|m| r * (u(m.in_features) + u(m.out_features)) * u(m.per_layer))
        .sum();
    let head = if lora.head {
        r * (u(a.hidden) + u(a.vocab))
    } else {
        0
    };
    u(a.layers) * layers + head
}

/// Whether a Linear has trainable weights (and so its input is saved for backward).
fn trains(run: &LlmRun, name: &str) -> bool {
    match &run.lora {
        None => run.phase == LlmPhase::Train,
        Some(lora) => lora.names.contains(&name),
    }
}

/// Bytes of the base model's weights on one GPU before sharding: 16/32-bit, or
/// quantized Linears inside the layers with everything else in the compute dtype
/// (bitsandbytes leaves embeddings, norms and the head unquantized).
fn base_weight_bytes(run: &LlmRun, s: Sizes) -> u128 {
    let p = &run.params;
    let linear = u(p.layer_linear_weights);
    let rest = u(p.total) - linear;
    match run.quantization {
        Quantization::None => u(p.total) * s.weight,
        // LLM.int8(): int8 weights and one fp32 scale per output row (`SCB`).
        Quantization::Int8 => {
            let rows: u128 = run
                .arch
                .linear_modules()
                .iter()
                .map(|m| u(m.out_features) * u(m.per_layer))
                .sum();
            linear + u(run.arch.layers) * rows * 4 + rest * s.compute
        }
        // Two 4-bit weights per byte plus one fp32 absmax per 64.
        Quantization::Nf4 => linear / 2 + linear.div_ceil(NF4_BLOCK) * 4 + rest * s.compute,
        // The absmax in 8 bits, and one fp32 per 256 absmax values.
        Quantization::Nf4Dq => {
            let blocks = linear.div_ceil(NF4_BLOCK);
            linear / 2 + blocks + blocks.div_ceil(NF4_DQ_BLOCK) * 4 + rest * s.compute
        }
    }
}

/// Optimizer state per trainable parameter set, in bytes: AdamW's two moments and SGD's
/// momentum in the parameter's dtype; bitsandbytes' 8-bit states at one byte each plus
/// their fp32 block absmax.
fn optimizer_state_bytes(optimizer: LlmOptimizer, n: u128, state_bytes: u128) -> u128 {
    match optimizer {
        LlmOptimizer::Adamw | LlmOptimizer::AdamwFused => 2 * n * state_bytes,
        LlmOptimizer::SgdMomentum => n * state_bytes,
        LlmOptimizer::Sgd => 0,
        LlmOptimizer::Adamw8bit | LlmOptimizer::PagedAdamw8bit => {
            2 * n + 2 * n.div_ceil(OPTIMIZER_8BIT_BLOCK) * 4
        }
    }
}

/// Activations one decoder layer keeps for backward, per token (bytes). Following what
/// PyTorch's autograd saves in the Hugging Face implementation:
///
/// * RMSNorm upcasts its input to fp32 (`pow` and the normalising product save it: 4 B);
///   with a trainable weight the normalised tensor is saved too. LayerNorm (native)
///   saves its input. A norm's output is saved by the next Linear only if that Linear
///   has trainable weights (autograd saves an input only for a weight gradient).
/// * Attention (flash/SDPA): q, k, v after rotary and the output are saved by the
///   kernel; the output's contiguous copy is saved by `o_proj` if it trains. Manual
///   attention adds the B×H×T×T scores (below) and `repeat_kv`'s full-width k, v.
/// * Gated MLP: the gate and up outputs, the activation's output (saved by the product),
///   and the product if `down_proj` trains: 4 × intermediate. Plain MLP: the fc output
///   (saved by GELU) and GELU's output. A mixture does this for each of its top-k
///   experts, with each expert's gathered input.
/// * LoRA: each adapted Linear keeps x·A (rank wide) for B's gradient, and with
///   `lora_dropout` its dropped-out input and mask.
/// * bitsandbytes' 4-bit and 8-bit matmuls keep their input for backward even when the
///   weight is frozen.
fn layer_bytes_per_token(run: &LlmRun, s: Sizes) -> u128 {
    let a = &run.arch;
    let (h, q, kv, i) = (u(a.hidden), u(a.q_dim()), u(a.kv_dim()), u(a.intermediate));
    let c = s.compute;
    let full = run.lora.is_none();
    let modules = a.linear_modules();
    // bitsandbytes' MatMul4Bit / MatMul8bitLt keep the input of every quantized Linear
    // for backward (`ctx.tensors = (A, B)`) whenever that input needs a gradient, frozen
    // weight or not.
    let quantized = run.quantization != Quantization::None && run.phase == LlmPhase::Train;
    let reads_trained = |input: ModuleInput| {
        modules
            .iter()
            .any(|m| m.input == input && (quantized || trains(run, m.name)))
    };
    let norm = |width: u128| {
        if a.layer_norm {
            s.residual * width
        } else {
            4 * width + if full { s.residual * width } else { 0 }
        }
    };
    let mut bytes = 0;
    // Pre-attention and pre-MLP norms, and Gemma 2/3's post-norms.
    bytes += u(a.norms_per_layer) * norm(h);
    if reads_trained(ModuleInput::AttentionNorm) {
        bytes += c * h;
    }
    if reads_trained(ModuleInput::MlpNorm) {
        bytes += c * h * u(a.experts_per_token);
    }
    if a.qk_norm {
        bytes += norm(q) + norm(kv);
    }
    let full_width_kv = match run.attention {
        Attention::Flash => kv,
        Attention::Manual => q,
    };
    bytes += c * (q + 2 * full_width_kv) + c * q + 4 * u(a.heads);
    if reads_trained(ModuleInput::AttentionOutput) {
        bytes += c * q;
    }
    let per_expert = if a.gated { 3 * c * i } else { 2 * c * i };
    let down_input = if reads_trained(ModuleInput::MlpHidden) {
        c * i
    } else {
        0
    };
    bytes += u(a.experts_per_token) * (per_expert + down_input);
    if let Some(lora) = &run.lora {
        let adapted: u128 = modules
            .iter()
            .filter(|m| lora.names.contains(&m.name))
            // An expert's adapter sees only the tokens routed to it.
            .map(|m| {
                if m.per_layer > 1 {
                    u(a.experts_per_token)
                } else {
                    1
                }
            })
            .sum();
        bytes += adapted * u(run.lora_rank) * c;
        if run.lora_dropout && run.phase == LlmPhase::Train {
            // Each adapter drops out its own copy of the input: the copy and its 1-byte
            // mask are saved for backward.
            let inputs: u128 = modules
                .iter()
                .filter(|m| lora.names.contains(&m.name))
                .map(|m| {
                    u(m.in_features)
                        * if m.per_layer > 1 {
                            u(a.experts_per_token)
                        } else {
                            1
                        }
                })
                .sum();
            bytes += inputs * (c + 1);
        }
    }
    bytes
}

/// Manual attention's saved scores per layer: the fp32 softmax output and its 16-bit
/// copy for `attn @ v` (HF eager: `softmax(…, dtype=float32).to(dtype)`).
fn scores_bytes(run: &LlmRun, s: Sizes, batch: u128) -> u128 {
    match run.attention {
        Attention::Flash => 0,
        Attention::Manual => {
            let t = u(run.sequence_length);
            let per = if s.compute < 4 { 4 + s.compute } else { 4 };
            batch * u(run.arch.heads) * t * t * per
        }
    }
}

fn kv_dtype_bytes(run: &LlmRun, s: Sizes) -> u128 {
    match run.kv_cache_dtype {
        KvCacheDtype::Auto => s.compute,
        KvCacheDtype::Fp16 | KvCacheDtype::Bf16 => 2,
        KvCacheDtype::Fp8 => 1,
    }
}

/// Tensor parallelism splits KV heads across GPUs; with fewer KV heads than GPUs each
/// GPU keeps one (vLLM replicates them).
fn kv_heads_per_gpu(run: &LlmRun) -> u128 {
    let g = if run.phase == LlmPhase::Generate {
        u(run.gpus)
    } else {
        1
    };
    u(run.arch.kv_heads).div_ceil(g).max(1)
}

fn kv_bytes_per_token_per_gpu(run: &LlmRun) -> u128 {
    let s = Sizes::of(run.precision);
    2 * u(run.arch.layers) * kv_heads_per_gpu(run) * u(run.arch.head_dim) * kv_dtype_bytes(run, s)
}

fn peak(run: &LlmRun) -> Peak {
    match run.phase {
        LlmPhase::Train => train_peak(run, u(run.batch_size)),
        LlmPhase::Eval => eval_peak(run, u(run.batch_size)),
        LlmPhase::Generate => generate_peak(run, u(run.batch_size)),
    }
}

/// How the model state splits across GPUs (ZeRO paper, Rajbhandari et al. 2020, §5):
/// stage 1 shards optimizer states, stage 2 also gradients, stage 3 / FSDP also the
/// parameters.
fn shards(run: &LlmRun) -> (u128, u128, u128) {
    let g = u(run.gpus);
    match run.sharding {
        Sharding::None | Sharding::Ddp => (1, 1, 1),
        Sharding::Zero1 => (1, 1, g),
        Sharding::Zero2 => (1, g, g),
        Sharding::Zero3 | Sharding::Fsdp => (g, g, g),
    }
}

fn train_peak(run: &LlmRun, batch: u128) -> Peak {
    let s = Sizes::of(run.precision);
    let a = &run.arch;
    let p = &run.params;
    let n_trainable = trainable(run);
    let tokens = batch * u(run.sequence_length);
    let (w_shard, g_shard, o_shard) = shards(run);
    let sharded = run.sharding != Sharding::None && run.sharding != Sharding::Ddp;

    // Base weights. Under autocast with ZeRO/FSDP the module holds 16-bit weights and
    // the fp32 master copy lives with the optimizer (ZeRO's 2 + 2 + 12 bytes per
    // parameter); alone, autocast keeps fp32 weights and caches 16-bit copies of the
    // trainable matrices for the whole forward.
    let lora_param_bytes = s.weight;
    let full = run.lora.is_none();
    let (module_weight_bytes, master_bytes) = if full && s.amp && sharded {
        (2, 4)
    } else {
        (s.weight, 0)
    };
    let base = if full {
        u(p.total) * module_weight_bytes
    } else {
        base_weight_bytes(run, s) + n_trainable * lora_param_bytes
    };
    let grad_bytes = if full && s.amp && sharded {
        2
    } else {
        s.weight
    };
    let mut weights = base / w_shard;
    let mut gradients = n_trainable * grad_bytes / g_shard;
    let state_bytes = if s.amp { 4 } else { s.weight };
    let state =
        optimizer_state_bytes(run.optimizer, n_trainable, state_bytes) + n_trainable * master_bytes;
    let paged = run.optimizer == LlmOptimizer::PagedAdamw8bit;
    let mut optimizer_state = if paged { 0 } else { state / o_shard };
    // Paged states live in CUDA unified memory: evicted to host RAM under pressure and
    // not counted by PyTorch's allocator, so they are reported with host memory.
    let mut host = if paged {
        state / o_shard * u(run.gpus)
    } else {
        0
    };
    if run.cpu_offload {
        // ZeRO-Offload / FSDP CPUOffload: optimizer states, fp32 master weights and
        // gradient partitions go to host RAM; ZeRO-3 and FSDP offload the parameters too.
        host += (optimizer_state + gradients) * u(run.gpus);
        optimizer_state = 0;
        gradients = 0;
        if matches!(run.sharding, Sharding::Zero3 | Sharding::Fsdp) {
            host += weights * u(run.gpus);
            weights = 0;
        }
    }
    let autocast_copies = if s.amp && full && !sharded {
        u(p.layer_linear_weights + p.lm_head + p.embedding) * 2
    } else {
        0
    };
    // ZeRO-3 / FSDP gather one layer's parameters in the compute dtype, prefetch the
    // next, and keep the root module (embedding, head) gathered through backward.
    let gathered = if matches!(run.sharding, Sharding::Zero3 | Sharding::Fsdp) && run.gpus > 1 {
        (2 * u(p.per_layer) + u(p.embedding) + u(p.lm_head)) * s.compute
    } else {
        0
    };
    // DDP's reducer keeps its own bucket copy of the gradients (unless
    // gradient_as_bucket_view=True); ZeRO-1/2 reduce through buckets of one layer.
    let communication = match run.sharding {
        Sharding::Ddp if run.gpus > 1 => n_trainable * s.weight,
        Sharding::Zero1 | Sharding::Zero2 if run.gpus > 1 => 2 * u(p.per_layer) * s.compute,
        _ => 0,
    };
    // A 4-bit or int8 Linear is dequantized to the compute dtype one at a time.
    let dequant = if run.quantization != Quantization::None {
        u(p.largest_linear) * s.compute
    } else {
        0
    };

    let per_layer = tokens * layer_bytes_per_token(run, s);
    let scores = scores_bytes(run, s, batch);
    let layers = u(a.layers);
    let (activations, attention_scores) = if run.gradient_checkpointing {
        // Each layer keeps its input; one layer is recomputed at a time.
        (
            layers * tokens * s.residual * u(a.hidden) + per_layer,
            scores,
        )
    } else {
        (layers * per_layer, layers * scores)
    };
    // The final norm and the head's input (if the head trains).
    let head_trains = full || run.lora.as_ref().is_some_and(|l| l.head);
    let outside = tokens
        * (if a.layer_norm {
            s.residual
        } else {
            4 + if full { s.residual } else { 0 }
        } * u(a.hidden)
            + if head_trains {
                s.compute * u(a.hidden)
            } else {
                0
            });
    // The loss: the logits in the compute dtype, cross-entropy's fp32 log-softmax output
    // (HF upcasts logits with `.float()`), and at the start of backward its incoming and
    // outgoing fp32 gradients.
    let vocab = u(a.vocab);
    let logits = tokens * vocab * (s.compute + 4 + 4 + 4);
    let accumulating = run.gradient_accumulation_steps > 1;
    let grads_during_forward = if accumulating { gradients } else { 0 };
    let optimizer_temp = if run.optimizer == LlmOptimizer::Adamw && optimizer_state > 0 {
        // The foreach AdamW builds one parameter-sized temporary (sqrt of exp_avg_sq).
        n_trainable * state_bytes / o_shard
    } else {
        0
    };

    let backward: u128 = grads_during_forward + activations + attention_scores + outside + logits;
    let step: u128 = gradients + optimizer_temp;
    let at_backward = backward >= step;
    let parts = vec![
        ("weights", weights),
        (
            "gradients",
            if at_backward {
                grads_during_forward
            } else {
                gradients
            },
        ),
        ("optimizer_state", optimizer_state),
        (
            "autocast_weight_copies",
            if at_backward { autocast_copies } else { 0 },
        ),
        ("gathered_parameters", gathered),
        ("communication_buffers", communication),
        ("dequantization_buffer", dequant),
        (
            "activations",
            if at_backward {
                activations + outside
            } else {
                0
            },
        ),
        (
            "attention_scores",
            if at_backward { attention_scores } else { 0 },
        ),
        ("logits_and_loss", if at_backward { logits } else { 0 }),
        (
            "optimizer_temporaries",
            if at_backward { 0 } else { optimizer_temp },
        ),
    ];
    let largest = largest_allocation(run, s, batch, true);
    Peak {
        phase: if at_backward {
            "backward"
        } else {
            "optimizer_step"
        },
        parts,
        largest,
        host,
    }
}

/// One evaluation batch under `torch.no_grad()`: weights, one layer's working set, and
/// the logits with the loss's fp32 upcast and log-softmax.
fn eval_peak(run: &LlmRun, batch: u128) -> Peak {
    let s = Sizes::of(run.precision);
    let tokens = batch * u(run.sequence_length);
    let weights = eval_weights(run, s);
    let dequant = dequant_bytes(run, s);
    let working = tokens * working_set_per_token(run, s) + scores_bytes(run, s, batch);
    let logits = tokens * u(run.arch.vocab) * (s.compute + 4 + 4);
    Peak {
        phase: "forward",
        parts: vec![
            ("weights", weights),
            ("dequantization_buffer", dequant),
            ("activations", working),
            ("logits_and_loss", logits),
        ],
        largest: largest_allocation(run, s, batch, true),
        host: 0,
    }
}

/// Weights for inference, split across tensor-parallel GPUs (vLLM shards the embedding
/// and head too).
fn eval_weights(run: &LlmRun, s: Sizes) -> u128 {
    let tp = if run.phase == LlmPhase::Generate {
        u(run.gpus)
    } else {
        1
    };
    let base = base_weight_bytes(run, s);
    let lora = if run.lora.is_some() {
        trainable(run) * s.weight
    } else {
        0
    };
    (base + lora).div_ceil(tp)
}

fn dequant_bytes(run: &LlmRun, s: Sizes) -> u128 {
    if run.quantization != Quantization::None {
        u(run.params.largest_linear) * s.compute
    } else {
        0
    }
}

/// What one layer's forward holds at once without autograd: its input and the residual,
/// q, k, v and the attention output, and the MLP's hidden tensors.
fn working_set_per_token(run: &LlmRun, s: Sizes) -> u128 {
    let a = &run.arch;
    let tp = if run.phase == LlmPhase::Generate {
        u(run.gpus)
    } else {
        1
    };
    let (h, q, kv, i) = (u(a.hidden), u(a.q_dim()), u(a.kv_dim()), u(a.intermediate));
    let mlp = if a.gated { 3 * i } else { 2 * i };
    2 * s.residual * h + s.compute * (h + (2 * q + 2 * kv) / tp + u(a.experts_per_token) * mlp / tp)
}

/// Generation as `model.generate` runs it: weights, the KV cache of every sequence at
/// full length, and the prefill's working set; logits only for the last position
/// (transformers ≥ 4.45 `logits_to_keep`), upcast to fp32.
fn generate_peak(run: &LlmRun, batch: u128) -> Peak {
    let s = Sizes::of(run.precision);
    let tokens = batch * u(run.sequence_length);
    let weights = eval_weights(run, s);
    let kv = tokens * kv_bytes_per_token_per_gpu(run);
    let prefill = tokens * working_set_per_token(run, s) + scores_bytes(run, s, batch);
    let logits = batch * u(run.arch.vocab) * (s.compute + 4);
    Peak {
        phase: "generate",
        parts: vec![
            ("weights", weights),
            ("dequantization_buffer", dequant_bytes(run, s)),
            ("kv_cache", kv),
            ("activations", prefill),
            ("logits_and_loss", logits),
        ],
        largest: largest_allocation(run, s, batch, false),
        host: 0,
    }
}

/// The biggest single tensor: the fp32 logits of the loss, the embedding matrix, the
/// MLP's hidden state or (manual attention) one layer's scores.
fn largest_allocation(
    run: &LlmRun,
    s: Sizes,
    batch: u128,
    all_logits: bool,
) -> (u128, &'static str) {
    let a = &run.arch;
    let t = u(run.sequence_length);
    let logit_rows = if all_logits { batch * t } else { batch };
    let candidates = [
        (logit_rows * u(a.vocab) * 4, "cross_entropy_fp32"),
        (u(a.vocab) * u(a.hidden) * s.weight, "embedding_matrix"),
        (batch * t * u(a.intermediate) * s.compute, "mlp_hidden"),
        (
            if run.attention == Attention::Manual {
                batch * u(a.heads) * t * t * 4
            } else {
                0
            },
            "attention_scores",
        ),
    ];
    let (bytes, name) = candidates
        .into_iter()
        .max_by_key(|(b, _)| *b)
        .unwrap_or((0, "residual"));
    (bytes.div_ceil(512) * 512, name)
}

/// vLLM's KV-cache budget on one GPU: total × gpu_memory_utilization − weights −
/// non-torch memory (CUDA context, NCCL) − the activation peak of its profiling run,
/// in blocks of 16 tokens. Returns (tokens, sequences of max_model_len).
fn vllm_view(run: &LlmRun) -> (u128, u128) {
    let s = Sizes::of(run.precision);
    let total = run.gpu_memory_bytes as f64 * run.gpu_memory_utilization;
    let weights = eval_weights(run, s);
    let non_torch = u(CUDA_CONTEXT_BYTES) + if run.gpus > 1 { NCCL_BYTES } else { 0 };
    let profile_tokens = u(run.max_model_len).max(VLLM_MIN_BATCHED_TOKENS);
    let seqs = VLLM_MAX_NUM_SEQS.min(profile_tokens);
    let tp = u(run.gpus);
    let activation = profile_tokens * working_set_per_token(run, s)
        + seqs * u(run.arch.vocab).div_ceil(tp) * VLLM_SAMPLER_BYTES_PER_LOGIT;
    let used = (weights + non_torch + activation) as f64;
    let budget = (total - used).max(0.0) as u128;
    let block = u(VLLM_BLOCK_TOKENS) * kv_bytes_per_token_per_gpu(run);
    let tokens = budget / block * u(VLLM_BLOCK_TOKENS);
    (tokens, tokens / u(run.max_model_len))
}

/// The largest batch_size that fits, all else equal (0 if not even 1 fits).
fn max_batch_size(run: &LlmRun) -> u64 {
    let fits = |batch: u64| {
        let p = match run.phase {
            LlmPhase::Train => train_peak(run, u(batch)),
            LlmPhase::Eval => eval_peak(run, u(batch)),
            LlmPhase::Generate => generate_peak(run, u(batch)),
        };
        let allocated: u128 = p.parts.iter().map(|(_, b)| b).sum();
        let reserved = allocated * u128::from(100 + ALLOCATOR_SLACK_PERCENT) / 100;
        let nccl = if run.gpus > 1 { NCCL_BYTES } else { 0 };
        reserved + u(CUDA_CONTEXT_BYTES) + nccl <= u(run.gpu_memory_bytes)
    };
    if !fits(1) {
        return 0;
    }
    let (mut lo, mut hi) = (1u64, 2u64);
    while hi <= super::input::MAX_BATCH_SIZE && fits(hi) {
        lo = hi;
        hi *= 2;
    }
    let mut hi = hi.min(super::input::MAX_BATCH_SIZE + 1);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The changes the calculator proposes, each estimated, the largest saving first; only
/// those that apply to this run and free memory.
pub fn savings(input: &LlmInput, current: &LlmEstimate) -> Vec<Saving> {
    let train = input.phase == LlmPhase::Train;
    let mut candidates: Vec<(&'static str, &'static str, String, LlmInput)> = Vec::new();
    let mut push = |change, field, value: &str, edit: &dyn Fn(&mut LlmInput)| {
        let mut changed = input.clone();
        edit(&mut changed);
        candidates.push((change, field, value.to_owned(), changed));
    };
    if train && input.method == Method::Full {
        push("lora", "method", "lora", &|i| i.method = Method::Lora);
    }
    if train && input.method == Method::Lora {
        push("qlora", "method", "qlora", &|i| i.method = Method::Qlora);
    }
    if train && !input.gradient_checkpointing {
        push(
            "gradient_checkpointing",
            "gradient_checkpointing",
            "true",
            &|i| i.gradient_checkpointing = true,
        );
    }
    if train && input.optimizer != LlmOptimizer::PagedAdamw8bit {
        push("paged_adamw_8bit", "optimizer", "paged_adamw_8bit", &|i| {
            i.optimizer = LlmOptimizer::PagedAdamw8bit
        });
    }
    if train && input.gpus > 1 && !matches!(input.sharding, Sharding::Zero3 | Sharding::Fsdp) {
        push("zero3", "sharding", "zero3", &|i| {
            i.sharding = Sharding::Zero3
        });
    }
    if input.sequence_length >= 256 {
        let half = input.sequence_length / 2;
        push(
            "shorter_context",
            "sequence_length",
            &half.to_string(),
            &|i| i.sequence_length = half,
        );
    }
    if input.batch_size > 1 {
        let half = input.batch_size / 2;
        push("smaller_batch", "batch_size", &half.to_string(), &|i| {
            i.batch_size = half
        });
    }
    if input.phase == LlmPhase::Generate && input.kv_cache_dtype != KvCacheDtype::Fp8 {
        push("fp8_kv_cache", "kv_cache_dtype", "fp8", &|i| {
            i.kv_cache_dtype = KvCacheDtype::Fp8
        });
    }
    let mut out: Vec<Saving> = candidates
        .into_iter()
        .filter_map(|(change, field, value, changed)| {
            let run = changed.validate().ok()?;
            let e = estimate_llm_run(&run);
            let saved = current.nvidia_smi_bytes.checked_sub(e.nvidia_smi_bytes)?;
            (saved > 0).then_some(Saving {
                change,
                field,
                value,
                bytes_saved: saved,
                nvidia_smi_bytes: e.nvidia_smi_bytes,
                fits: e.fits,
            })
        })
        .collect();
    out.sort_by_key(|s| std::cmp::Reverse(s.bytes_saved));
    out
}

fn to_u64(bytes: u128) -> u64 {
    u64::try_from(bytes).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimator::llm::input::LoraTargets;

    fn llama31() -> LlmInput {
        LlmInput::preset("meta-llama/Llama-3.1-8B")
    }

    #[test]
    fn components_add_up_to_the_totals() {
        for phase in [LlmPhase::Train, LlmPhase::Eval, LlmPhase::Generate] {
            for gpus in [1, 4] {
                let e = estimate_llm(&LlmInput {
                    phase,
                    gpus,
                    sharding: Sharding::Zero3,
                    ..llama31()
                })
                .unwrap();
                let sum: u64 = e.components.iter().map(|c| c.bytes).sum();
                assert_eq!(sum, e.nvidia_smi_bytes, "{phase:?} {gpus}");
                let allocated: u64 = e
                    .components
                    .iter()
                    .filter(|c| !matches!(c.name, "allocator_slack" | "cuda_context" | "nccl"))
                    .map(|c| c.bytes)
                    .sum();
                assert_eq!(allocated, e.peak_allocated_bytes);
            }
        }
    }

    #[test]
    fn kv_cache_per_token_is_exact_and_split_by_tensor_parallelism() {
        let e = estimate_llm(&LlmInput {
            phase: LlmPhase::Generate,
            ..llama31()
        })
        .unwrap();
        assert_eq!(e.kv_cache_bytes_per_token, Some(131_072));
        let fp8 = estimate_llm(&LlmInput {
            phase: LlmPhase::Generate,
            kv_cache_dtype: KvCacheDtype::Fp8,
            ..llama31()
        })
        .unwrap();
        assert_eq!(fp8.kv_cache_bytes_per_token, Some(65_536));
        let tp4 = estimate_llm(&LlmInput {
            phase: LlmPhase::Generate,
            gpus: 4,
            ..LlmInput::preset("meta-llama/Llama-2-70b-hf")
        })
        .unwrap();
        // 2 of the 8 KV heads per GPU: 2 × 80 × 2 × 128 × 2 bytes.
        assert_eq!(tp4.kv_cache_bytes_per_token, Some(81_920));
    }

    #[test]
    fn lora_trains_only_the_adapters() {
        let e = estimate_llm(&LlmInput {
            method: Method::Lora,
            ..LlmInput::preset("meta-llama/Llama-2-7b-hf")
        })
        .unwrap();
        // r = 8 on q and v: 32 layers × 2 × 8 × (4096 + 4096).
        assert_eq!(e.trainable_parameters, 4_194_304);
        let all = estimate_llm(&LlmInput {
            method: Method::Lora,
            lora_targets: LoraTargets::AllLinear,
            ..LlmInput::preset("meta-llama/Llama-2-7b-hf")
        })
        .unwrap();
        // 8 × (4 × 8192 + 3 × (4096 + 11008)) per layer.
        assert_eq!(all.trainable_parameters, 32 * 8 * (4 * 8192 + 3 * 15_104));
    }

    #[test]
    fn each_technique_lowers_the_peak() {
        let base = LlmInput {
            method: Method::Lora,
            gpu_memory_gib: 80.0,
            ..llama31()
        };
        let peak = |i: LlmInput| estimate_llm(&i).unwrap().nvidia_smi_bytes;
        let p = peak(base.clone());
        assert!(
            peak(LlmInput {
                method: Method::Qlora,
                ..base.clone()
            }) < p
        );
        assert!(
            peak(LlmInput {
                gradient_checkpointing: true,
                ..base.clone()
            }) < p
        );
        assert!(
            peak(LlmInput {
                method: Method::Full,
                ..base.clone()
            }) > p
        );
        let full = LlmInput {
            method: Method::Full,
            gpus: 8,
            sharding: Sharding::Ddp,
            ..base.clone()
        };
        let z3 = LlmInput {
            sharding: Sharding::Zero3,
            ..full.clone()
        };
        assert!(peak(z3.clone()) < peak(full));
        let off = LlmInput {
            cpu_offload: true,
            ..z3.clone()
        };
        let e = estimate_llm(&off).unwrap();
        assert!(e.nvidia_smi_bytes < peak(z3));
        // bf16 weights, gradients and AdamW states: 8 bytes a parameter, all in host RAM.
        assert!(e.host_memory_bytes >= 8 * 8_030_261_248);
    }

    #[test]
    fn savings_are_ranked_and_each_is_real() {
        let input = LlmInput {
            method: Method::Lora,
            sequence_length: 1024,
            batch_size: 2,
            ..llama31()
        };
        let e = estimate_llm(&input).unwrap();
        assert!(!e.savings.is_empty());
        assert!(
            e.savings
                .windows(2)
                .all(|w| w[0].bytes_saved >= w[1].bytes_saved)
        );
        for s in &e.savings {
            assert_eq!(s.bytes_saved, e.nvidia_smi_bytes - s.nvidia_smi_bytes);
        }
        let names: Vec<&str> = e.savings.iter().map(|s| s.change).collect();
        for expected in ["qlora", "gradient_checkpointing", "shorter_context"] {
            assert!(names.contains(&expected), "{names:?}");
        }
    }

    #[test]
    fn vllm_blocks_shrink_with_utilization_and_grow_with_fp8() {
        let base = LlmInput {
            phase: LlmPhase::Generate,
            gpu_memory_gib: 79.15,
            max_model_len: Some(8192),
            ..llama31()
        };
        let tokens = |i: LlmInput| estimate_llm(&i).unwrap().kv_cache_tokens.unwrap();
        let t = tokens(base.clone());
        assert!(t > 0 && t.is_multiple_of(16));
        assert!(
            tokens(LlmInput {
                gpu_memory_utilization: 0.5,
                ..base.clone()
            }) < t
        );
        assert!(
            tokens(LlmInput {
                kv_cache_dtype: KvCacheDtype::Fp8,
                ..base.clone()
            }) > t
        );
        let e = estimate_llm(&base).unwrap();
        assert_eq!(e.max_concurrent_sequences, Some(t / 8192));
    }

    #[test]
    fn max_batch_size_is_the_boundary_of_fits() {
        let input = LlmInput {
            method: Method::Qlora,
            ..llama31()
        };
        let e = estimate_llm(&input).unwrap();
        assert!(e.max_batch_size >= 1);
        let at = |batch_size| {
            estimate_llm(&LlmInput {
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
    fn extreme_inputs_saturate_without_panicking() {
        let e = estimate_llm(&LlmInput {
            sequence_length: super::super::input::MAX_SEQUENCE_LENGTH,
            batch_size: super::super::input::MAX_BATCH_SIZE,
            attention: Attention::Manual,
            ..LlmInput::preset("meta-llama/Llama-3.1-405B")
        })
        .unwrap();
        assert!(!e.fits);
        assert_eq!(e.max_batch_size, 0);
    }
}
