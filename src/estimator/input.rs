//! The estimator's input (the body of `POST /api/v1/estimate`) and its validation.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::params::ModelShape;

/// Upper bounds: far above any real single-GPU run, low enough that nothing overflows
/// and the batch-size search stays short.
pub const MAX_N_LAYER: u64 = 1000;
pub const MAX_N_EMBD: u64 = 65_536;
pub const MAX_VOCAB_SIZE: u64 = 10_000_000;
pub const MAX_BLOCK_SIZE: u64 = 1_000_000;
pub const MAX_BATCH_SIZE: u64 = 1_000_000;
pub const MAX_GRADIENT_ACCUMULATION_STEPS: u64 = 1_000_000;
pub const MAX_GPU_MEMORY_GIB: f64 = 4096.0;

/// How weights are stored and how the forward pass computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    /// Everything in float32.
    Fp32,
    /// `torch.autocast(dtype=torch.bfloat16)` over float32 weights (nanoGPT's default).
    AmpBf16,
    /// `torch.autocast(dtype=torch.float16)` over float32 weights, with a GradScaler.
    AmpFp16,
    /// `model.to(torch.bfloat16)`: weights, gradients and optimizer state all bf16.
    PureBf16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Optimizer {
    /// `torch.optim.AdamW` with its default foreach implementation.
    Adamw,
    /// `torch.optim.AdamW(fused=True)`.
    AdamwFused,
    SgdMomentum,
    Sgd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Attention {
    /// `F.scaled_dot_product_attention` (flash / memory-efficient kernels).
    #[serde(alias = "sdpa")]
    Flash,
    /// `softmax(q @ k.T) @ v` written out, materialising the B×H×T×T scores.
    Manual,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LayerOps {
    /// `nn.LayerNorm`, `nn.GELU`.
    Native,
    /// LayerNorm and GELU written with elementary tensor ops, which keep more intermediates.
    Scratch,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Train,
    Eval,
}

macro_rules! text_enum {
    ($ty:ident { $($variant:ident => $text:literal),+ $(,)? } $(aliases { $($alias:literal => $avariant:ident),+ })?) => {
        impl $ty {
            /// All values, in the order a form would list them.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            /// The value as written in JSON and on the command line.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $text),+
                }
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $ty {
            type Err = UnknownVariant;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s.trim() {
                    $($text => Ok($ty::$variant),)+
                    $($($alias => Ok($ty::$avariant),)+)?
                    _ => Err(UnknownVariant {
                        expected: &[$($text),+],
                    }),
                }
            }
        }
    };
}

text_enum!(Precision { Fp32 => "fp32", AmpBf16 => "amp_bf16", AmpFp16 => "amp_fp16", PureBf16 => "pure_bf16" });
text_enum!(Optimizer { Adamw => "adamw", AdamwFused => "adamw_fused", SgdMomentum => "sgd_momentum", Sgd => "sgd" });
text_enum!(Attention { Flash => "flash", Manual => "manual" } aliases { "sdpa" => Flash });
text_enum!(LayerOps { Native => "native", Scratch => "scratch" });
text_enum!(Phase { Train => "train", Eval => "eval" });

pub(crate) use text_enum;

/// A string that names none of an enum's values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected one of: {}", expected.join(", "))]
pub struct UnknownVariant {
    pub expected: &'static [&'static str],
}

/// The body of `POST /api/v1/estimate`. The model shape is required (checked by
/// [`EstimateInput::validate`], so that a missing one is reported like any other field
/// error); every other field defaults to the contract example's value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct EstimateInput {
    /// Transformer blocks (required).
    pub n_layer: Option<u64>,
    /// Attention heads (required; divides `n_embd`).
    pub n_head: Option<u64>,
    /// Embedding width (required).
    pub n_embd: Option<u64>,
    pub vocab_size: u64,
    pub block_size: u64,
    pub batch_size: u64,
    pub gradient_accumulation_steps: u64,
    pub precision: Precision,
    pub optimizer: Optimizer,
    pub attention: Attention,
    pub layer_ops: LayerOps,
    pub dropout: f64,
    pub compile: bool,
    pub activation_checkpointing: bool,
    pub tied_embeddings: bool,
    pub bias: bool,
    pub phase: Phase,
    pub gpu_memory_gib: f64,
}

impl Default for EstimateInput {
    /// The contract example without a model shape (which has no default).
    fn default() -> Self {
        Self {
            n_layer: None,
            n_head: None,
            n_embd: None,
            vocab_size: 50_304,
            block_size: 1024,
            batch_size: 8,
            gradient_accumulation_steps: 1,
            precision: Precision::AmpBf16,
            optimizer: Optimizer::AdamwFused,
            attention: Attention::Flash,
            layer_ops: LayerOps::Native,
            dropout: 0.0,
            compile: false,
            activation_checkpointing: false,
            tied_embeddings: true,
            bias: false,
            phase: Phase::Train,
            gpu_memory_gib: 12.0,
        }
    }
}

impl EstimateInput {
    /// The defaults with a model shape.
    pub fn new(n_layer: u64, n_head: u64, n_embd: u64) -> Self {
        Self {
            n_layer: Some(n_layer),
            n_head: Some(n_head),
            n_embd: Some(n_embd),
            ..Self::default()
        }
    }

    /// The contract example: GPT-2 124M as nanoGPT trains it.
    pub fn gpt2_124m() -> Self {
        Self::new(12, 12, 768)
    }

    /// Checks every field and returns the run in plain numbers.
    pub fn validate(&self) -> Result<Run, InvalidInput> {
        let n_layer = required("n_layer", self.n_layer)?;
        let n_head = required("n_head", self.n_head)?;
        let n_embd = required("n_embd", self.n_embd)?;
        in_range("n_layer", n_layer, MAX_N_LAYER)?;
        in_range("n_embd", n_embd, MAX_N_EMBD)?;
        in_range("n_head", n_head, n_embd)?;
        if n_embd % n_head != 0 {
            return Err(InvalidInput::new(
                "n_head",
                Problem::NotDivisible,
                format!("n_embd ({n_embd}) must be a multiple of n_head ({n_head})"),
            ));
        }
        in_range("vocab_size", self.vocab_size, MAX_VOCAB_SIZE)?;
        in_range("block_size", self.block_size, MAX_BLOCK_SIZE)?;
        in_range("batch_size", self.batch_size, MAX_BATCH_SIZE)?;
        in_range(
            "gradient_accumulation_steps",
            self.gradient_accumulation_steps,
            MAX_GRADIENT_ACCUMULATION_STEPS,
        )?;
        if !(self.dropout.is_finite() && (0.0..1.0).contains(&self.dropout)) {
            return Err(InvalidInput::new(
                "dropout",
                Problem::OutOfRange,
                format!("dropout must be in [0, 1), got {}", self.dropout),
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
        // In range (0, 4096], so the product is exact enough and far below u64::MAX.
        let gpu_memory_bytes = (gib * f64::from(1u32 << 30)) as u64;
        Ok(Run {
            shape: ModelShape {
                n_layer,
                n_head,
                n_embd,
                vocab_size: self.vocab_size,
                block_size: self.block_size,
                tied_embeddings: self.tied_embeddings,
                bias: self.bias,
            },
            batch_size: self.batch_size,
            gradient_accumulation_steps: self.gradient_accumulation_steps,
            precision: self.precision,
            optimizer: self.optimizer,
            attention: self.attention,
            layer_ops: self.layer_ops,
            dropout: self.dropout > 0.0,
            compile: self.compile,
            activation_checkpointing: self.activation_checkpointing,
            phase: self.phase,
            gpu_memory_bytes,
        })
    }
}

/// A validated input: every number in range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Run {
    pub shape: ModelShape,
    pub batch_size: u64,
    pub gradient_accumulation_steps: u64,
    pub precision: Precision,
    pub optimizer: Optimizer,
    pub attention: Attention,
    pub layer_ops: LayerOps,
    /// Whether dropout layers are active (p > 0).
    pub dropout: bool,
    pub compile: bool,
    pub activation_checkpointing: bool,
    pub phase: Phase,
    pub gpu_memory_bytes: u64,
}

/// A field the estimator cannot work with, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{field}: {message}")]
pub struct InvalidInput {
    pub field: String,
    pub problem: Problem,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Problem {
    /// A required field is absent.
    Missing,
    /// A number outside its bounds.
    OutOfRange,
    /// `n_embd` is not a multiple of `n_head`.
    NotDivisible,
    /// A value of the wrong type, or not one of the listed ones.
    Invalid,
    /// A field the input does not have.
    Unknown,
    /// `model` names no preset.
    UnknownModel,
}

impl InvalidInput {
    pub fn new(field: &str, problem: Problem, message: String) -> Self {
        InvalidInput {
            field: field.to_owned(),
            problem,
            message,
        }
    }
}

fn required(field: &'static str, value: Option<u64>) -> Result<u64, InvalidInput> {
    value.ok_or_else(|| InvalidInput::new(field, Problem::Missing, format!("{field} is required")))
}

pub(crate) fn in_range(field: &'static str, value: u64, max: u64) -> Result<(), InvalidInput> {
    if (1..=max).contains(&value) {
        Ok(())
    } else {
        Err(InvalidInput::new(
            field,
            Problem::OutOfRange,
            format!("{field} must be between 1 and {max}, got {value}"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(json: &str) -> InvalidInput {
        let input: EstimateInput = serde_json::from_str(json).expect("valid JSON");
        input.validate().expect_err("should be rejected")
    }

    #[test]
    fn contract_example_parses_to_the_documented_values() {
        let json = r#"{"n_layer": 12, "n_head": 12, "n_embd": 768, "vocab_size": 50304, "block_size": 1024,
            "batch_size": 8, "gradient_accumulation_steps": 1, "precision": "amp_bf16", "optimizer": "adamw_fused",
            "attention": "flash", "layer_ops": "native", "dropout": 0.0, "compile": false,
            "activation_checkpointing": false, "tied_embeddings": true, "bias": false, "phase": "train",
            "gpu_memory_gib": 12.0}"#;
        let input: EstimateInput = serde_json::from_str(json).unwrap();
        assert_eq!(input, EstimateInput::gpt2_124m());
    }

    #[test]
    fn only_the_shape_is_needed_and_the_rest_defaults() {
        let input: EstimateInput =
            serde_json::from_str(r#"{"n_layer": 6, "n_head": 6, "n_embd": 384}"#).unwrap();
        assert_eq!(input, EstimateInput::new(6, 6, 384));
        assert!(input.validate().is_ok());
    }

    #[test]
    fn missing_shape_fields_are_named() {
        let e = error_of(r#"{"n_head": 12, "n_embd": 768}"#);
        assert_eq!((e.field.as_str(), e.problem), ("n_layer", Problem::Missing));
        let e = error_of(r#"{"n_layer": 12, "n_embd": 768}"#);
        assert_eq!((e.field.as_str(), e.problem), ("n_head", Problem::Missing));
        let e = error_of(r#"{"n_layer": 12, "n_head": 12}"#);
        assert_eq!((e.field.as_str(), e.problem), ("n_embd", Problem::Missing));
    }

    #[test]
    fn absurd_values_name_their_field() {
        type Edit = fn(&mut EstimateInput);
        let cases: [(Edit, &str, Problem); 16] = [
            (|i| i.n_layer = Some(0), "n_layer", Problem::OutOfRange),
            (|i| i.n_layer = Some(1001), "n_layer", Problem::OutOfRange),
            (
                |i| (i.n_embd, i.n_head) = (Some(65_537), Some(1)),
                "n_embd",
                Problem::OutOfRange,
            ),
            (|i| i.n_embd = Some(770), "n_head", Problem::NotDivisible),
            (|i| i.n_head = Some(0), "n_head", Problem::OutOfRange),
            (|i| i.vocab_size = 0, "vocab_size", Problem::OutOfRange),
            (
                |i| i.vocab_size = 10_000_001,
                "vocab_size",
                Problem::OutOfRange,
            ),
            (
                |i| i.block_size = 1_000_001,
                "block_size",
                Problem::OutOfRange,
            ),
            (|i| i.batch_size = 0, "batch_size", Problem::OutOfRange),
            (
                |i| i.batch_size = 1_000_001,
                "batch_size",
                Problem::OutOfRange,
            ),
            (
                |i| i.gradient_accumulation_steps = 0,
                "gradient_accumulation_steps",
                Problem::OutOfRange,
            ),
            (|i| i.dropout = 1.0, "dropout", Problem::OutOfRange),
            (|i| i.dropout = f64::NAN, "dropout", Problem::OutOfRange),
            (
                |i| i.gpu_memory_gib = 0.0,
                "gpu_memory_gib",
                Problem::OutOfRange,
            ),
            (
                |i| i.gpu_memory_gib = -3.0,
                "gpu_memory_gib",
                Problem::OutOfRange,
            ),
            (
                |i| i.gpu_memory_gib = 4097.0,
                "gpu_memory_gib",
                Problem::OutOfRange,
            ),
        ];
        for (n, (edit, field, code)) in cases.into_iter().enumerate() {
            let mut input = EstimateInput::gpt2_124m();
            edit(&mut input);
            let e = input.validate().expect_err(field);
            assert_eq!((e.field.as_str(), e.problem), (field, code), "case {n}");
        }
    }

    #[test]
    fn unknown_fields_and_values_are_rejected_by_serde() {
        assert!(serde_json::from_str::<EstimateInput>(r#"{"n_layers": 12}"#).is_err());
        assert!(serde_json::from_str::<EstimateInput>(r#"{"precision": "fp8"}"#).is_err());
    }

    #[test]
    fn sdpa_is_read_as_flash() {
        let input: EstimateInput = serde_json::from_str(r#"{"attention": "sdpa"}"#).unwrap();
        assert_eq!(input.attention, Attention::Flash);
        assert_eq!("sdpa".parse::<Attention>(), Ok(Attention::Flash));
    }

    #[test]
    fn enum_text_round_trips() {
        for p in Precision::ALL {
            assert_eq!(p.as_str().parse::<Precision>(), Ok(*p));
            assert_eq!(serde_json::to_string(p).unwrap(), format!("\"{p}\""));
        }
        for o in Optimizer::ALL {
            assert_eq!(o.as_str().parse::<Optimizer>(), Ok(*o));
            assert_eq!(serde_json::to_string(o).unwrap(), format!("\"{o}\""));
        }
        assert!("adam".parse::<Optimizer>().is_err());
    }
}
