//! Parameter counts, exactly as nanoGPT's `model.py` builds its GPT.

use serde::Serialize;

/// The shape of a nanoGPT `GPT` (its `GPTConfig`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ModelShape {
    pub n_layer: u64,
    pub n_head: u64,
    pub n_embd: u64,
    pub vocab_size: u64,
    pub block_size: u64,
    /// `wte` and `lm_head` share one matrix (nanoGPT's weight tying); `false` adds a
    /// separate vocab × n_embd output matrix.
    pub tied_embeddings: bool,
    /// Biases in Linear and LayerNorm layers (nanoGPT's `bias`).
    pub bias: bool,
}

/// Parameter counts of one model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ParameterCount {
    /// What `get_num_params()` prints: everything but the position embeddings.
    pub non_embedding: u64,
    /// Every parameter tensor, position embeddings included.
    pub total: u64,
    /// Tensors with two dimensions (weight decay in `configure_optimizers`).
    pub decayed: u64,
    /// Biases and LayerNorm weights (no weight decay).
    pub non_decayed: u64,
    /// The largest single parameter tensor (the token embedding, or a Linear weight).
    pub largest_tensor: u64,
    /// Parameters of the matrices that go through a matmul (Linear weights and the
    /// output head): the ones autocast copies to 16 bits.
    pub matmul_weights: u64,
}

/// nanoGPT's `get_num_params()`: all parameters but the position embeddings, the tied
/// `wte`/`lm_head` matrix counted once.
pub fn parameter_count(shape: &ModelShape) -> u64 {
    parameter_breakdown(shape).non_embedding
}

/// Parameter counts split the ways nanoGPT logs them. Shapes are validated before they
/// get here, but the arithmetic saturates anyway so no input can overflow.
pub fn parameter_breakdown(shape: &ModelShape) -> ParameterCount {
    let c = shape.n_embd;
    let b = u64::from(shape.bias);
    let mul = u64::saturating_mul;

    // Matrices of one block: c_attn (C×3C), attn c_proj (C×C), c_fc (C×4C), mlp c_proj (4C×C).
    let block_matrices = mul(12, mul(c, c));
    // Two LayerNorms (weight, and bias if any) and the Linear biases (3C + C + 4C + C).
    let block_vectors = mul(2, c)
        .saturating_add(mul(2, mul(c, b)))
        .saturating_add(mul(9, mul(c, b)));
    let ln_f = c.saturating_add(mul(c, b));

    let token_embedding = mul(shape.vocab_size, c);
    let position_embedding = mul(shape.block_size, c);
    let output_head = if shape.tied_embeddings {
        0
    } else {
        token_embedding
    };

    let decayed = token_embedding
        .saturating_add(output_head)
        .saturating_add(position_embedding)
        .saturating_add(mul(shape.n_layer, block_matrices));
    let non_decayed = mul(shape.n_layer, block_vectors).saturating_add(ln_f);
    let total = decayed.saturating_add(non_decayed);
    let largest_tensor = token_embedding
        .max(mul(4, mul(c, c)))
        .max(position_embedding);
    let matmul_weights = mul(shape.n_layer, block_matrices).saturating_add(token_embedding);

    ParameterCount {
        non_embedding: total.saturating_sub(position_embedding),
        total,
        decayed,
        non_decayed,
        largest_tensor,
        matmul_weights,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(
        n_layer: u64,
        n_embd: u64,
        vocab_size: u64,
        block_size: u64,
        bias: bool,
    ) -> ModelShape {
        ModelShape {
            n_layer,
            n_head: 12,
            n_embd,
            vocab_size,
            block_size,
            tied_embeddings: true,
            bias,
        }
    }

    /// nanoGPT prints `number of parameters: %.2fM`.
    fn millions(n: u64) -> String {
        format!("{:.2}M", n as f64 / 1e6)
    }

    #[test]
    fn small_shakespeare_style_model_matches_nanogpt_log() {
        let s = shape(6, 384, 50_304, 512, false);
        let count = parameter_breakdown(&s);
        assert_eq!(millions(parameter_count(&s)), "29.94M");
        assert_eq!(count.non_embedding, 29_938_560);
        // "num decayed parameter tensors: 26, with 30,130,176 parameters"
        // "num non-decayed parameter tensors: 13, with 4,992 parameters"
        assert_eq!(count.decayed, 30_130_176);
        assert_eq!(count.non_decayed, 4_992);
        assert_eq!(count.total, count.decayed + count.non_decayed);
    }

    #[test]
    fn gpt2_shape_with_padded_vocab_and_no_bias_is_123_59m() {
        let s = shape(12, 768, 50_304, 1024, false);
        assert_eq!(parameter_count(&s), 123_587_328);
        assert_eq!(millions(parameter_count(&s)), "123.59M");
    }

    #[test]
    fn gpt2_with_bias_and_original_vocab_is_123_65m() {
        let s = shape(12, 768, 50_257, 1024, true);
        assert_eq!(millions(parameter_count(&s)), "123.65M");
        // GPT-2 small's well-known total, position embeddings included.
        assert_eq!(parameter_breakdown(&s).total, 124_439_808);
    }

    #[test]
    fn untied_embeddings_add_one_vocab_by_embd_matrix() {
        let tied = shape(12, 768, 50_257, 1024, false);
        let untied = ModelShape {
            tied_embeddings: false,
            ..tied
        };
        assert_eq!(
            parameter_count(&untied) - parameter_count(&tied),
            50_257 * 768
        );
    }

    #[test]
    fn huge_shapes_saturate_instead_of_overflowing() {
        let s = shape(u64::MAX, u64::MAX, u64::MAX, u64::MAX, true);
        let count = parameter_breakdown(&s);
        assert_eq!(count.total, u64::MAX);
        assert!(count.non_embedding <= count.total);
    }
}
