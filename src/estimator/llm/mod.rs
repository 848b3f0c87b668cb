//! GPU memory of any decoder-only transformer: training (full, LoRA, QLoRA; one GPU or
//! sharded), evaluation, and generation (with the vLLM view of the KV cache). Kept apart
//! from nanoGPT's estimator, whose behaviour it does not touch.
//!
//! # The model
//!
//! [`HfConfig`] reads a Hugging Face `config.json`; its `model_type` decides the layer
//! layout ([`Architecture`]), and the parameter count is exact for every preset of
//! `src/estimator/llm/models.yaml` (a test compares each with its published count). The KV cache holds
//! 2 × layers × kv_heads × head_dim values per token.
//!
//! # Memory per GPU
//!
//! * **Model state** (ZeRO paper's accounting): weights (bf16, fp32, or bitsandbytes
//!   int8 / NF4 / NF4 + double quantization for the Linears inside the layers), gradients
//!   and optimizer state of the trainable parameters (all, or the LoRA adapters), split
//!   by ZeRO stage or FSDP, moved to host RAM by `cpu_offload`; paged 8-bit AdamW states
//!   live in unified memory and are reported with host memory.
//! * **Activations**: what autograd saves per layer in the Hugging Face implementation
//!   (see `layer_bytes_per_token`), all layers or — with gradient checkpointing — each
//!   layer's input plus one recomputed layer; manual attention adds the scores.
//! * **Loss**: logits in the compute dtype plus fp32 log-softmax and its gradients.
//! * The peak is the larger of the start of backward and the optimizer step; reserved is
//!   the nanoGPT estimator's 2 % allocator slack, nvidia-smi adds the CUDA context (and
//!   NCCL's buffers on several GPUs).
//! * **Generate**: weights, the KV cache of `batch_size` sequences of `sequence_length`,
//!   one layer's prefill working set and last-position logits. The vLLM view: blocks of
//!   16 tokens in total × `gpu_memory_utilization` − weights − non-torch memory − the
//!   profiling run's peak (`max(max_model_len, 2048)` tokens through one layer and the
//!   sampler of 256 sequences).
//!
//! # Calibration
//!
//! `tests/fixtures/reference/llm-memory-calibration.tsv` says how each row of
//! `llm-memory-measurements.tsv` is read; `cargo test llm::calibration -- --nocapture`
//! prints the table. Every fully stated row is within ±10 % (the largest gaps: lit-gpt's
//! QLoRA runs −5.6 to −5.8 %, bitsandbytes NF4 generation −6.0 to −6.3 %); parameter
//! counts and KV bytes per token are exact. Rows the model cannot describe (torch.compile,
//! chunked cross-entropy, activation offloading, `optimizer_in_bwd`, selective activation
//! checkpointing, data-dependent sequence lengths, vLLM profilers' version-specific
//! peaks) carry their reason in that file.

#[cfg(test)]
mod calibration;
mod input;
mod memory;
mod model;
mod presets;

pub use input::{
    KvCacheDtype, LlmInput, LlmOptimizer, LlmPhase, LlmRun, LoraModules, LoraTargets, Method,
    Quantization, Sharding,
};
pub use memory::{LlmEstimate, Saving, VLLM_BLOCK_TOKENS, estimate_llm, estimate_llm_run, savings};
pub use model::{Architecture, HfConfig, LinearModule, MODEL_TYPES, ModuleInput, Parameters};
pub use presets::{Preset, preset, presets};
