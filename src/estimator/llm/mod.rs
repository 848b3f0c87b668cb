//! GPU memory of any decoder-only transformer: training (full, LoRA, QLoRA; one GPU or
//! sharded), evaluation, and generation (with the vLLM view of the KV cache).

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
