//! The transformer estimator's input: the body of `POST /api/v1/estimate` when it names a
//! `model` or gives a `config`, and its validation.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::model::{Architecture, HfConfig, Parameters};
use super::presets::preset;
use crate::estimator::input::{in_range, text_enum};
use crate::estimator::{Attention, InvalidInput, Precision, Problem, UnknownVariant};

pub const MAX_SEQUENCE_LENGTH: u64 = 10_000_000;
pub const MAX_BATCH_SIZE: u64 = 1_000_000;
pub const MAX_GRADIENT_ACCUMULATION_STEPS: u64 = 1_000_000;
pub const MAX_GPUS: u64 = 4096;
pub const MAX_LORA_RANK: u64 = 65_536;
pub const MAX_GPU_MEMORY_GIB: f64 = 4096.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LlmPhase {
    Train,
    /// A forward pass under `torch.no_grad()` with the loss.
    Eval,
    /// Inference: prefill then token-by-token decoding with a KV cache.
    Generate,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    Full,
    Lora,
    /// LoRA over a 4-bit NF4 base (implies `quantization: nf4`).
    Qlora,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LlmOptimizer {
    Adamw,
    AdamwFused,
    SgdMomentum,
    Sgd,
    /// bitsandbytes `AdamW8bit`: both states in 8 bits, blockwise.
    #[serde(rename = "adamw_8bit")]
    Adamw8bit,
    /// bitsandbytes `PagedAdamW8bit`: the same states in CUDA unified memory.
    #[serde(rename = "paged_adamw_8bit")]
    PagedAdamw8bit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sharding {
    /// Every GPU holds a whole replica and nothing is exchanged.
    None,
    Ddp,
    Zero1,
    Zero2,
    Zero3,
    Fsdp,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantization {
    None,
    /// bitsandbytes LLM.int8(): int8 weights, one fp32 scale per output row.
    Int8,
    /// bitsandbytes NF4: 4-bit weights, one fp32 absmax per 64 weights.
    Nf4,
    /// NF4 with double quantization: the absmax constants themselves in 8 bits.
    Nf4Dq,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KvCacheDtype {
    /// The compute dtype.
    Auto,
    Fp16,
    Bf16,
    #[serde(alias = "fp8_e4m3", alias = "fp8_e5m2")]
    Fp8,
}

text_enum!(LlmPhase { Train => "train", Eval => "eval", Generate => "generate" });
text_enum!(Method { Full => "full", Lora => "lora", Qlora => "qlora" });
text_enum!(LlmOptimizer { Adamw => "adamw", AdamwFused => "adamw_fused", SgdMomentum => "sgd_momentum", Sgd => "sgd", Adamw8bit => "adamw_8bit", PagedAdamw8bit => "paged_adamw_8bit" });
text_enum!(Sharding { None => "none", Ddp => "ddp", Zero1 => "zero1", Zero2 => "zero2", Zero3 => "zero3", Fsdp => "fsdp" });
text_enum!(Quantization { None => "none", Int8 => "int8", Nf4 => "nf4", Nf4Dq => "nf4_dq" });
text_enum!(KvCacheDtype { Auto => "auto", Fp16 => "fp16", Bf16 => "bf16", Fp8 => "fp8" } aliases { "fp8_e4m3" => Fp8, "fp8_e5m2" => Fp8 });

/// Which Linear layers carry LoRA adapters: Hugging Face module names, or every Linear
/// inside the layers (PEFT's `all-linear`, which leaves the output head out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoraTargets {
    AllLinear,
    Modules(Vec<String>),
}

impl Default for LoraTargets {
    /// PEFT's default for Llama-style models.
    fn default() -> Self {
        LoraTargets::Modules(vec!["q_proj".into(), "v_proj".into()])
    }
}

impl fmt::Display for LoraTargets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoraTargets::AllLinear => f.write_str("all_linear"),
            LoraTargets::Modules(names) => f.write_str(&names.join(",")),
        }
    }
}

impl FromStr for LoraTargets {
    type Err = std::convert::Infallible;

    /// `all_linear` (or `all-linear`), or module names separated by commas or spaces.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s == "all_linear" || s == "all-linear" {
            return Ok(LoraTargets::AllLinear);
        }
        Ok(LoraTargets::Modules(
            s.split([',', ' '])
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(str::to_owned)
                .collect(),
        ))
    }
}

impl Serialize for LoraTargets {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            LoraTargets::AllLinear => serializer.serialize_str("all_linear"),
            LoraTargets::Modules(names) => names.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for LoraTargets {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Given {
            List(Vec<String>),
            Text(String),
        }
        Ok(match Given::deserialize(deserializer)? {
            Given::List(names) if names.len() == 1 => names[0].parse().unwrap_or_default(),
            Given::List(names) => LoraTargets::Modules(names),
            Given::Text(text) => text.parse().unwrap_or_default(),
        })
    }
}

/// The body of `POST /api/v1/estimate` for a transformer. `model` or `config` is required
/// (one of them); every other field has a default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LlmInput {
    pub model: Option<String>,
    pub config: Option<HfConfig>,
    pub phase: LlmPhase,
    pub method: Method,
    pub lora_rank: u64,
    pub lora_targets: LoraTargets,
    /// PEFT's `lora_dropout` (0 by default; lit-gpt uses 0.05).
    pub lora_dropout: f64,
    pub sequence_length: u64,
    pub batch_size: u64,
    pub gradient_accumulation_steps: u64,
    pub precision: Precision,
    pub attention: Attention,
    pub gradient_checkpointing: bool,
    pub optimizer: LlmOptimizer,
    pub gpus: u64,
    pub sharding: Sharding,
    pub cpu_offload: bool,
    pub quantization: Quantization,
    pub kv_cache_dtype: KvCacheDtype,
    pub gpu_memory_utilization: f64,
    pub max_model_len: Option<u64>,
    pub gpu_memory_gib: f64,
}

impl Default for LlmInput {
    fn default() -> Self {
        Self {
            model: None,
            config: None,
            phase: LlmPhase::Train,
            method: Method::Full,
            lora_rank: 8,
            lora_targets: LoraTargets::default(),
            lora_dropout: 0.0,
            sequence_length: 2048,
            batch_size: 1,
            gradient_accumulation_steps: 1,
            // bf16 weights throughout: how LLMs are loaded for fine-tuning and serving.
            precision: Precision::PureBf16,
            attention: Attention::Flash,
            gradient_checkpointing: false,
            optimizer: LlmOptimizer::Adamw,
            gpus: 1,
            sharding: Sharding::None,
            cpu_offload: false,
            quantization: Quantization::None,
            kv_cache_dtype: KvCacheDtype::Auto,
            // vLLM's default.
            gpu_memory_utilization: 0.9,
            max_model_len: None,
            gpu_memory_gib: 24.0,
        }
    }
}

impl LlmInput {
    /// A preset by id, every other field at its default.
    pub fn preset(id: &str) -> Self {
        Self {
            model: Some(id.to_owned()),
            ..Self::default()
        }
    }

    /// Checks every field and resolves the model.
    pub fn validate(&self) -> Result<LlmRun, InvalidInput> {
        let (model_id, config) = match (&self.model, &self.config) {
            (Some(_), Some(_)) => {
                return Err(InvalidInput::new(
                    "model",
                    Problem::Invalid,
                    "give `model` or `config`, not both".into(),
                ));
            }
            (Some(id), None) => match preset(id) {
                Some(p) => (Some(p.id.clone()), &p.config),
                None => {
                    let shown: String = id.chars().take(100).collect();
                    return Err(InvalidInput::new(
                        "model",
                        Problem::UnknownModel,
                        format!(
                            "no preset model `{shown}`; GET /api/v1/models lists them, or send its config.json fields as `config`"
                        ),
                    ));
                }
            },
            (None, Some(config)) => (None, config),
            (None, None) => {
                return Err(InvalidInput::new(
                    "model",
                    Problem::Missing,
                    "`model` (a preset id) or `config` is required".into(),
                ));
            }
        };
        let arch = config.architecture()?;
        in_range("sequence_length", self.sequence_length, MAX_SEQUENCE_LENGTH)?;
        in_range("batch_size", self.batch_size, MAX_BATCH_SIZE)?;
        in_range(
            "gradient_accumulation_steps",
            self.gradient_accumulation_steps,
            MAX_GRADIENT_ACCUMULATION_STEPS,
        )?;
        in_range("gpus", self.gpus, MAX_GPUS)?;
        in_range("lora_rank", self.lora_rank, MAX_LORA_RANK)?;
        if let Some(len) = self.max_model_len {
            in_range("max_model_len", len, MAX_SEQUENCE_LENGTH)?;
        }
        if !(self.lora_dropout.is_finite() && (0.0..1.0).contains(&self.lora_dropout)) {
            return Err(InvalidInput::new(
                "lora_dropout",
                Problem::OutOfRange,
                format!("lora_dropout must be in [0, 1), got {}", self.lora_dropout),
            ));
        }
        let util = self.gpu_memory_utilization;
        if !(util.is_finite() && util > 0.0 && util <= 1.0) {
            return Err(InvalidInput::new(
                "gpu_memory_utilization",
                Problem::OutOfRange,
                format!("gpu_memory_utilization must be in (0, 1], got {util}"),
            ));
        }
        let gib = self.gpu_memory_gib;
        if !(gib.is_finite() && gib > 0.0 && gib <= MAX_GPU_MEMORY_GIB) {
            return Err(InvalidInput::new(
                "gpu_memory_gib",
                Problem::OutOfRange,
                format!("gpu_memory_gib must be in (0, {MAX_GPU_MEMORY_GIB}], got {gib}"),
            ));
        }
        let quantization = match (self.method, self.quantization) {
            (Method::Qlora, Quantization::None) => Quantization::Nf4,
            (Method::Qlora, Quantization::Int8) => {
                return Err(InvalidInput::new(
                    "quantization",
                    Problem::Invalid,
                    "qlora quantizes the base to nf4 or nf4_dq, not int8".into(),
                ));
            }
            (Method::Full, q) if q != Quantization::None && self.phase == LlmPhase::Train => {
                return Err(InvalidInput::new(
                    "quantization",
                    Problem::Invalid,
                    "quantized weights cannot be trained in full; use method lora or qlora".into(),
                ));
            }
            (_, q) => q,
        };
        if self.cpu_offload
            && !matches!(
                self.sharding,
                Sharding::Zero1 | Sharding::Zero2 | Sharding::Zero3 | Sharding::Fsdp
            )
            && self.phase == LlmPhase::Train
        {
            return Err(InvalidInput::new(
                "cpu_offload",
                Problem::Invalid,
                "cpu_offload needs sharding zero1, zero2, zero3 or fsdp".into(),
            ));
        }
        let lora = match self.method {
            Method::Full => None,
            Method::Lora | Method::Qlora => Some(self.lora_modules(&arch)?),
        };
        let params = arch.parameters();
        // In range (0, 4096], so the product is exact enough and far below u64::MAX.
        let gpu_memory_bytes = (gib * f64::from(1u32 << 30)) as u64;
        Ok(LlmRun {
            model_id,
            arch,
            params,
            phase: self.phase,
            method: self.method,
            lora_rank: self.lora_rank,
            lora_dropout: self.lora_dropout > 0.0,
            lora,
            sequence_length: self.sequence_length,
            batch_size: self.batch_size,
            gradient_accumulation_steps: self.gradient_accumulation_steps,
            precision: self.precision,
            attention: self.attention,
            gradient_checkpointing: self.gradient_checkpointing,
            optimizer: self.optimizer,
            gpus: self.gpus,
            sharding: self.sharding,
            cpu_offload: self.cpu_offload,
            quantization,
            kv_cache_dtype: self.kv_cache_dtype,
            gpu_memory_utilization: util,
            max_model_len: self.max_model_len.unwrap_or(self.sequence_length),
            gpu_memory_bytes,
        })
    }

    /// The LoRA-adapted modules: which of the layer's Linears, and whether the head.
    fn lora_modules(&self, arch: &Architecture) -> Result<LoraModules, InvalidInput> {
        let modules = arch.linear_modules();
        match &self.lora_targets {
            LoraTargets::AllLinear => Ok(LoraModules {
                names: modules.iter().map(|m| m.name).collect(),
                head: false,
            }),
            LoraTargets::Modules(names) if names.is_empty() => Err(InvalidInput::new(
                "lora_targets",
                Problem::Invalid,
                "lora_targets is empty".into(),
            )),
            LoraTargets::Modules(names) => {
                let mut chosen = LoraModules::default();
                for name in names {
                    if name == "lm_head" {
                        chosen.head = true;
                    } else if let Some(m) = modules.iter().find(|m| m.name == name) {
                        if !chosen.names.contains(&m.name) {
                            chosen.names.push(m.name);
                        }
                    } else {
                        let shown: String = name.chars().take(40).collect();
                        let mut known: Vec<&str> = modules.iter().map(|m| m.name).collect();
                        known.dedup();
                        return Err(InvalidInput::new(
                            "lora_targets",
                            Problem::Invalid,
                            format!(
                                "`{shown}` is not a Linear of this model; its Linears are: {}, lm_head (or all_linear)",
                                known.join(", ")
                            ),
                        ));
                    }
                }
                Ok(chosen)
            }
        }
    }
}

/// Linear modules with LoRA adapters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoraModules {
    pub names: Vec<&'static str>,
    pub head: bool,
}

/// A validated input.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmRun {
    pub model_id: Option<String>,
    pub arch: Architecture,
    pub params: Parameters,
    pub phase: LlmPhase,
    pub method: Method,
    pub lora_rank: u64,
    pub lora_dropout: bool,
    /// `None` for full training.
    pub lora: Option<LoraModules>,
    pub sequence_length: u64,
    pub batch_size: u64,
    pub gradient_accumulation_steps: u64,
    pub precision: Precision,
    pub attention: Attention,
    pub gradient_checkpointing: bool,
    pub optimizer: LlmOptimizer,
    pub gpus: u64,
    pub sharding: Sharding,
    pub cpu_offload: bool,
    pub quantization: Quantization,
    pub kv_cache_dtype: KvCacheDtype,
    pub gpu_memory_utilization: f64,
    pub max_model_len: u64,
    pub gpu_memory_bytes: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preset_and_the_defaults_validate() {
        let run = LlmInput::preset("meta-llama/Llama-3.1-8B")
            .validate()
            .unwrap();
        assert_eq!(run.params.total, 8_030_261_248);
        assert_eq!(run.max_model_len, 2048);
    }

    #[test]
    fn lora_targets_read_from_a_list_a_name_or_text() {
        let parse = |json: &str| serde_json::from_str::<LoraTargets>(json).unwrap();
        assert_eq!(parse(r#""all_linear""#), LoraTargets::AllLinear);
        assert_eq!(parse(r#"["all-linear"]"#), LoraTargets::AllLinear);
        assert_eq!(
            parse(r#""q_proj, v_proj""#),
            LoraTargets::Modules(vec!["q_proj".into(), "v_proj".into()])
        );
        assert_eq!(parse(r#"["q_proj", "v_proj"]"#), LoraTargets::default());
    }

    #[test]
    fn wrong_inputs_name_their_field() {
        let cases: [(LlmInput, &str, Problem); 6] = [
            (LlmInput::default(), "model", Problem::Missing),
            (
                LlmInput::preset("acme/nothing"),
                "model",
                Problem::UnknownModel,
            ),
            (
                LlmInput {
                    method: Method::Lora,
                    lora_targets: LoraTargets::Modules(vec!["c_attn".into()]),
                    ..LlmInput::preset("meta-llama/Llama-3.1-8B")
                },
                "lora_targets",
                Problem::Invalid,
            ),
            (
                LlmInput {
                    cpu_offload: true,
                    ..LlmInput::preset("meta-llama/Llama-3.1-8B")
                },
                "cpu_offload",
                Problem::Invalid,
            ),
            (
                LlmInput {
                    gpu_memory_utilization: 1.5,
                    ..LlmInput::preset("meta-llama/Llama-3.1-8B")
                },
                "gpu_memory_utilization",
                Problem::OutOfRange,
            ),
            (
                LlmInput {
                    quantization: Quantization::Nf4,
                    ..LlmInput::preset("meta-llama/Llama-3.1-8B")
                },
                "quantization",
                Problem::Invalid,
            ),
        ];
        for (input, field, problem) in cases {
            let e = input.validate().unwrap_err();
            assert_eq!((e.field.as_str(), e.problem), (field, problem), "{e}");
        }
    }
}
