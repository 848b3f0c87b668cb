//! A decoder-only transformer read from the fields of its Hugging Face `config.json`, and
//! its exact parameter count.
//!
//! The fields name the shape; `model_type` names the family, which decides what the
//! fields do not say: RMSNorm or LayerNorm with bias, two or four norms per layer, norms on
//! q and k, biases, gated or plain MLP, learned positions, and the default of
//! `tie_word_embeddings` (each family's `PretrainedConfig` subclass has its own).

use serde::{Deserialize, Serialize};

use crate::estimator::{InvalidInput, Problem};

/// Upper bounds: far above any published model, low enough that nothing overflows u128.
const MAX_LAYERS: u64 = 1000;
const MAX_WIDTH: u64 = 1 << 20;
const MAX_HEADS: u64 = 1 << 10;
const MAX_VOCAB: u64 = 10_000_000;
const MAX_EXPERTS: u64 = 512;

/// The fields of a Hugging Face `config.json` the estimator reads. Other fields
/// (`rope_theta`, `architectures`, `torch_dtype`, …) are accepted and ignored, so a whole
/// `config.json` can be pasted. GPT-2-style names (`n_embd`, `n_layer`, …) are read too.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HfConfig {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_type: Option<String>,
    #[serde(alias = "n_embd", skip_serializing_if = "Option::is_none")]
    pub hidden_size: Option<u64>,
    #[serde(alias = "n_inner", skip_serializing_if = "Option::is_none")]
    pub intermediate_size: Option<u64>,
    #[serde(alias = "n_layer", skip_serializing_if = "Option::is_none")]
    pub num_hidden_layers: Option<u64>,
    #[serde(alias = "n_head", skip_serializing_if = "Option::is_none")]
    pub num_attention_heads: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub num_key_value_heads: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_dim: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vocab_size: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tie_word_embeddings: Option<bool>,
    #[serde(
        alias = "hidden_activation",
        alias = "activation_function",
        skip_serializing_if = "Option::is_none"
    )]
    pub hidden_act: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attention_bias: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mlp_bias: Option<bool>,
    #[serde(alias = "n_positions", skip_serializing_if = "Option::is_none")]
    pub max_position_embeddings: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub num_local_experts: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub num_experts_per_tok: Option<u64>,
    /// gpt_bigcode (StarCoder): one key/value head.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub multi_query: Option<bool>,
}

/// The families whose layer layout the estimator knows, by `model_type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// llama, mistral, mixtral, phi3 (its fused `qkv_proj`/`gate_up_proj` hold the same
    /// parameters), and a config without `model_type`.
    Llama,
    /// q, k and v projections with biases.
    Qwen2,
    /// RMSNorm on q and k (per head_dim).
    Qwen3,
    Gemma,
    /// Four norms per layer (around attention and around the MLP).
    Gemma2,
    /// Gemma 2's four norms plus q/k norms.
    Gemma3,
    /// LayerNorm with bias, biases everywhere, plain GELU MLP, learned positions.
    Gpt2,
    /// GPT-2 with one key/value head (StarCoder, OctoCoder).
    GptBigcode,
    /// LayerNorm with bias, biases everywhere, plain GELU MLP, rotary positions, untied head.
    GptNeox,
}

pub const MODEL_TYPES: &[&str] = &[
    "llama",
    "mistral",
    "mixtral",
    "phi3",
    "qwen2",
    "qwen3",
    "gemma",
    "gemma2",
    "gemma3_text",
    "gpt2",
    "gpt_bigcode",
    "gpt_neox",
];

impl Family {
    fn of(model_type: Option<&str>) -> Result<Self, InvalidInput> {
        Ok(match model_type.map(str::trim) {
            None | Some("") | Some("llama" | "mistral" | "mixtral" | "phi3") => Family::Llama,
            Some("qwen2") => Family::Qwen2,
            Some("qwen3") => Family::Qwen3,
            Some("gemma") => Family::Gemma,
            Some("gemma2") => Family::Gemma2,
            Some("gemma3_text") => Family::Gemma3,
            Some("gpt2") => Family::Gpt2,
            Some("gpt_bigcode") => Family::GptBigcode,
            Some("gpt_neox") => Family::GptNeox,
            Some(other) => {
                let shown: String = other.chars().take(40).collect();
                return Err(InvalidInput::new(
                    "config.model_type",
                    Problem::Invalid,
                    format!(
                        "model_type `{shown}` is not one the estimator knows the layout of; known: {}",
                        MODEL_TYPES.join(", ")
                    ),
                ));
            }
        })
    }

    fn layer_norm(self) -> bool {
        matches!(self, Family::Gpt2 | Family::GptBigcode | Family::GptNeox)
    }
}

/// One kind of Linear layer, by the name PEFT's `target_modules` matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LinearModule {
    pub name: &'static str,
    pub in_features: u64,
    pub out_features: u64,
    /// Instances per layer (experts of a mixture count each).
    pub per_layer: u64,
    /// Whether it belongs to the MLP (for the activation model) rather than attention.
    pub mlp: bool,
    /// What it reads: the attention norm's output (q, k, v), the attention output (o),
    /// the MLP norm's output (gate, up, router) or the MLP's hidden state (down).
    pub input: ModuleInput,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ModuleInput {
    AttentionNorm,
    AttentionOutput,
    MlpNorm,
    MlpHidden,
}

/// A validated architecture: every dimension known and in range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Architecture {
    pub family_name: &'static str,
    /// Phi-3 fuses q, k, v into `qkv_proj` and gate, up into `gate_up_proj`.
    pub fused: bool,
    pub layers: u64,
    pub hidden: u64,
    pub intermediate: u64,
    pub heads: u64,
    pub kv_heads: u64,
    pub head_dim: u64,
    pub vocab: u64,
    pub tied: bool,
    pub layer_norm: bool,
    pub norms_per_layer: u64,
    pub qk_norm: bool,
    pub qkv_bias: bool,
    pub o_bias: bool,
    pub mlp_bias: bool,
    pub gated: bool,
    /// Rows of a learned position-embedding table (0 for rotary).
    pub positions: u64,
    /// Experts per layer (1: a dense MLP).
    pub experts: u64,
    pub experts_per_token: u64,
}

impl HfConfig {
    /// The architecture, or the first field that is missing or out of range (named as
    /// `config.<field>`).
    pub fn architecture(&self) -> Result<Architecture, InvalidInput> {
        let family = Family::of(self.model_type.as_deref())?;
        let hidden = need("hidden_size", self.hidden_size, MAX_WIDTH)?;
        let layers = need("num_hidden_layers", self.num_hidden_layers, MAX_LAYERS)?;
        let heads = need("num_attention_heads", self.num_attention_heads, MAX_HEADS)?;
        let vocab = need("vocab_size", self.vocab_size, MAX_VOCAB)?;
        let kv_heads = if self.multi_query == Some(true) {
            1
        } else {
            optional("num_key_value_heads", self.num_key_value_heads, MAX_HEADS)?.unwrap_or(heads)
        };
        if heads % kv_heads != 0 {
            return Err(InvalidInput::new(
                "config.num_key_value_heads",
                Problem::NotDivisible,
                format!(
                    "num_attention_heads ({heads}) must be a multiple of num_key_value_heads ({kv_heads})"
                ),
            ));
        }
        let head_dim = match optional("head_dim", self.head_dim, MAX_WIDTH)? {
            Some(d) => d,
            None if hidden % heads == 0 => hidden / heads,
            None => {
                return Err(InvalidInput::new(
                    "config.num_attention_heads",
                    Problem::NotDivisible,
                    format!(
                        "hidden_size ({hidden}) is not a multiple of num_attention_heads ({heads}); give head_dim"
                    ),
                ));
            }
        };
        let plain_mlp = family.layer_norm();
        let intermediate = match optional("intermediate_size", self.intermediate_size, MAX_WIDTH)? {
            Some(i) => i,
            // GPT-2's `n_inner: null` means 4 × n_embd.
            None if plain_mlp => 4 * hidden,
            None => {
                return Err(InvalidInput::new(
                    "config.intermediate_size",
                    Problem::Missing,
                    "config.intermediate_size is required".into(),
                ));
            }
        };
        let experts = optional("num_local_experts", self.num_local_experts, MAX_EXPERTS)?;
        let experts_per_token = match experts {
            Some(e) => {
                let k = optional("num_experts_per_tok", self.num_experts_per_tok, e)?.unwrap_or(2);
                (e, k)
            }
            None => (1, 1),
        };
        let tied = self.tie_word_embeddings.unwrap_or(matches!(
            family,
            Family::Gemma | Family::Gemma2 | Family::Gemma3 | Family::Gpt2 | Family::GptBigcode
        ));
        let attention_bias = self.attention_bias.unwrap_or(false);
        Ok(Architecture {
            family_name: match family {
                Family::Llama => "llama",
                Family::Qwen2 => "qwen2",
                Family::Qwen3 => "qwen3",
                Family::Gemma => "gemma",
                Family::Gemma2 => "gemma2",
                Family::Gemma3 => "gemma3_text",
                Family::Gpt2 => "gpt2",
                Family::GptBigcode => "gpt_bigcode",
                Family::GptNeox => "gpt_neox",
            },
            fused: self.model_type.as_deref().map(str::trim) == Some("phi3"),
            layers,
            hidden,
            intermediate,
            heads,
            kv_heads,
            head_dim,
            vocab,
            tied,
            layer_norm: family.layer_norm(),
            norms_per_layer: if matches!(family, Family::Gemma2 | Family::Gemma3) {
                4
            } else {
                2
            },
            qk_norm: matches!(family, Family::Qwen3 | Family::Gemma3),
            qkv_bias: plain_mlp || family == Family::Qwen2 || attention_bias,
            o_bias: plain_mlp || attention_bias,
            mlp_bias: plain_mlp || self.mlp_bias.unwrap_or(false),
            gated: !plain_mlp,
            positions: if matches!(family, Family::Gpt2 | Family::GptBigcode) {
                need(
                    "max_position_embeddings",
                    self.max_position_embeddings,
                    MAX_VOCAB,
                )?
            } else {
                0
            },
            experts: experts_per_token.0,
            experts_per_token: experts_per_token.1,
        })
    }
}

fn need(field: &str, value: Option<u64>, max: u64) -> Result<u64, InvalidInput> {
    match optional(field, value, max)? {
        Some(v) => Ok(v),
        None => Err(InvalidInput::new(
            &format!("config.{field}"),
            Problem::Missing,
            format!("config.{field} is required"),
        )),
    }
}

fn optional(field: &str, value: Option<u64>, max: u64) -> Result<Option<u64>, InvalidInput> {
    match value {
        Some(v) if !(1..=max).contains(&v) => Err(InvalidInput::new(
            &format!("config.{field}"),
            Problem::OutOfRange,
            format!("config.{field} must be between 1 and {max}, got {v}"),
        )),
        other => Ok(other),
    }
}

/// Parameter counts of an architecture, split the ways the memory model needs them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Parameters {
    pub total: u64,
    /// The token embedding (and the tied head).
    pub embedding: u64,
    /// A separate output head (0 when tied).
    pub lm_head: u64,
    pub positions: u64,
    /// Weights of every Linear inside the layers (what bitsandbytes quantizes).
    pub layer_linear_weights: u64,
    /// Biases and norm weights: everything else inside the layers, plus the final norm.
    pub vectors: u64,
    /// One layer's parameters (what ZeRO-3 / FSDP gathers at a time).
    pub per_layer: u64,
    /// The largest Linear weight of a layer (what a 4-bit matmul dequantizes at once).
    pub largest_linear: u64,
    /// Parameters a token goes through: the mixture's inactive experts left out.
    pub active: u64,
}

impl Architecture {
    pub fn q_dim(&self) -> u64 {
        self.heads * self.head_dim
    }

    pub fn kv_dim(&self) -> u64 {
        self.kv_heads * self.head_dim
    }

    /// The Linear layers of one decoder layer, named as the family's Hugging Face module
    /// names them (PEFT's `target_modules`).
    pub fn linear_modules(&self) -> Vec<LinearModule> {
        let (h, q, kv, i, e) = (
            self.hidden,
            self.q_dim(),
            self.kv_dim(),
            self.intermediate,
            self.experts,
        );
        use ModuleInput::{AttentionNorm, AttentionOutput, MlpHidden, MlpNorm};
        let m = |name, in_features, out_features, per_layer, input| LinearModule {
            name,
            in_features,
            out_features,
            per_layer,
            mlp: matches!(input, MlpNorm | MlpHidden),
            input,
        };
        match self.family_name {
            "gpt2" | "gpt_bigcode" => vec![
                m("c_attn", h, q + 2 * kv, 1, AttentionNorm),
                m("c_proj", q, h, 1, AttentionOutput),
                m("c_fc", h, i, 1, MlpNorm),
                m("c_proj", i, h, 1, MlpHidden),
            ],
            "gpt_neox" => vec![
                m("query_key_value", h, q + 2 * kv, 1, AttentionNorm),
                m("dense", q, h, 1, AttentionOutput),
                m("dense_h_to_4h", h, i, 1, MlpNorm),
                m("dense_4h_to_h", i, h, 1, MlpHidden),
            ],
            _ if e > 1 => vec![
                m("q_proj", h, q, 1, AttentionNorm),
                m("k_proj", h, kv, 1, AttentionNorm),
                m("v_proj", h, kv, 1, AttentionNorm),
                m("o_proj", q, h, 1, AttentionOutput),
                // Mixtral's router and experts (`block_sparse_moe.gate`, `experts.N.w1/w3/w2`).
                m("gate", h, e, 1, MlpNorm),
                m("w1", h, i, e, MlpNorm),
                m("w3", h, i, e, MlpNorm),
                m("w2", i, h, e, MlpHidden),
            ],
            _ if self.fused => vec![
                m("qkv_proj", h, q + 2 * kv, 1, AttentionNorm),
                m("o_proj", q, h, 1, AttentionOutput),
                m("gate_up_proj", h, 2 * i, 1, MlpNorm),
                m("down_proj", i, h, 1, MlpHidden),
            ],
            _ => vec![
                m("q_proj", h, q, 1, AttentionNorm),
                m("k_proj", h, kv, 1, AttentionNorm),
                m("v_proj", h, kv, 1, AttentionNorm),
                m("o_proj", q, h, 1, AttentionOutput),
                m("gate_proj", h, i, 1, MlpNorm),
                m("up_proj", h, i, 1, MlpNorm),
                m("down_proj", i, h, 1, MlpHidden),
            ],
        }
    }

    /// Every parameter, as the family's Hugging Face module builds it.
    pub fn parameters(&self) -> Parameters {
        let (h, q, kv, i) = (self.hidden, self.q_dim(), self.kv_dim(), self.intermediate);
        let linear: u64 = self
            .linear_modules()
            .iter()
            .map(|m| m.in_features * m.out_features * m.per_layer)
            .sum();
        let norm = if self.layer_norm { 2 } else { 1 };
        let mut vectors_per_layer = self.norms_per_layer * norm * h;
        if self.qk_norm {
            // One RMSNorm over head_dim for q, one for k (shared across heads).
            vectors_per_layer += 2 * self.head_dim;
        }
        if self.qkv_bias {
            vectors_per_layer += q + 2 * kv;
        }
        if self.o_bias {
            vectors_per_layer += h;
        }
        if self.mlp_bias {
            let up = if self.gated { 2 * i } else { i };
            vectors_per_layer += (up + h) * self.experts;
        }
        let per_layer = linear + vectors_per_layer;
        let embedding = self.vocab * h;
        let lm_head = if self.tied { 0 } else { embedding };
        let positions = self.positions * h;
        let final_norm = norm * h;
        let total = self.layers * per_layer + embedding + lm_head + positions + final_norm;
        let expert_weights = if self.experts > 1 {
            let per_expert = if self.gated { 3 * h * i } else { 2 * h * i };
            (self.experts - self.experts_per_token) * per_expert * self.layers
        } else {
            0
        };
        Parameters {
            total,
            embedding,
            lm_head,
            positions,
            layer_linear_weights: self.layers * linear,
            vectors: self.layers * vectors_per_layer + final_norm,
            per_layer,
            largest_linear: self
                .linear_modules()
                .iter()
                .map(|m| m.in_features * m.out_features)
                .max()
                .unwrap_or(0),
            active: total - expert_weights,
        }
    }

    /// Bytes of keys and values one token adds to the cache: a key and a value vector per
    /// KV head per layer (vLLM's `cache_engine`: 2 × layers × kv_heads × head_dim × dtype).
    pub fn kv_bytes_per_token(&self, dtype_bytes: u64) -> u64 {
        2 * self.layers * self.kv_heads * self.head_dim * dtype_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn llama2_7b() -> HfConfig {
        serde_json::from_str(
            r#"{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
            "intermediate_size": 11008, "num_hidden_layers": 32, "num_attention_heads": 32,
            "num_key_value_heads": 32, "vocab_size": 32000, "tie_word_embeddings": false,
            "rope_scaling": null, "torch_dtype": "float16", "hidden_act": "silu"}"#,
        )
        .unwrap()
    }

    #[test]
    fn a_whole_config_json_is_read_and_counted_exactly() {
        let arch = llama2_7b().architecture().unwrap();
        assert_eq!(arch.parameters().total, 6_738_415_616);
        assert_eq!(arch.kv_bytes_per_token(2), 524_288);
    }

    #[test]
    fn gpt2_field_names_are_read() {
        let config: HfConfig = serde_json::from_str(
            r#"{"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "n_inner": null,
            "n_positions": 1024, "n_ctx": 1024, "vocab_size": 50257, "activation_function": "gelu_new"}"#,
        )
        .unwrap();
        assert_eq!(
            config.architecture().unwrap().parameters().total,
            124_439_808
        );
    }

    #[test]
    fn missing_and_inconsistent_fields_are_named() {
        let mut c = llama2_7b();
        c.hidden_size = None;
        let e = c.architecture().unwrap_err();
        assert_eq!(
            (e.field.as_str(), e.problem),
            ("config.hidden_size", Problem::Missing)
        );
        let mut c = llama2_7b();
        c.num_key_value_heads = Some(5);
        assert_eq!(
            c.architecture().unwrap_err().field,
            "config.num_key_value_heads"
        );
        let mut c = llama2_7b();
        c.model_type = Some("mamba".into());
        assert_eq!(c.architecture().unwrap_err().field, "config.model_type");
        let mut c = llama2_7b();
        c.num_hidden_layers = Some(0);
        assert_eq!(c.architecture().unwrap_err().problem, Problem::OutOfRange);
    }

    #[test]
    fn extreme_shapes_do_not_overflow() {
        let c = HfConfig {
            hidden_size: Some(MAX_WIDTH),
            intermediate_size: Some(MAX_WIDTH),
            num_hidden_layers: Some(MAX_LAYERS),
            num_attention_heads: Some(1),
            head_dim: Some(MAX_WIDTH),
            vocab_size: Some(MAX_VOCAB),
            num_local_experts: Some(MAX_EXPERTS),
            ..HfConfig::default()
        };
        let p = c.architecture().unwrap().parameters();
        assert!(p.total > 0);
    }
}
