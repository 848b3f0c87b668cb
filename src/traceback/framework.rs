//! The framework an error comes from when it is not PyTorch: TensorFlow's `OOM when allocating
//! tensor`, XLA's `RESOURCE_EXHAUSTED` or CTranslate2's `CUDA failed with error out of memory`
//! read like PyTorch's errors, but no article here fixes them.

/// Names in paths, modules and exception classes, compared as whole tokens, and the
/// framework each belongs to.
const FOREIGN: &[(&str, &str)] = &[
    ("tensorflow", "TensorFlow"),
    ("tf_keras", "TensorFlow"),
    ("resourceexhaustederror", "TensorFlow"),
    ("jax", "JAX"),
    ("jaxlib", "JAX"),
    ("xla_extension", "JAX"),
    ("xlaruntimeerror", "JAX"),
    ("flax", "JAX"),
    ("ctranslate2", "CTranslate2"),
    ("faster_whisper", "CTranslate2"),
    ("onnxruntime", "ONNX Runtime"),
    ("paddle", "PaddlePaddle"),
    ("paddlepaddle", "PaddlePaddle"),
    ("mxnet", "MXNet"),
    ("mlx", "MLX"),
    // PyCUDA's driver bindings (Nervana neon, hand-written kernels): not PyTorch's allocator.
    ("pycuda", "PyCUDA"),
    ("nervanagpu", "neon"),
    ("llama_cpp", "llama.cpp"),
    ("ggml", "llama.cpp"),
    ("llama_model_load", "llama.cpp"),
    ("llama_load_model_from_file", "llama.cpp"),
    // Ollama's server is written in Go and prints Go's stack dumps.
    ("goroutine", "Ollama"),
    ("ollama", "Ollama"),
    // XLA's status code: JAX and TensorFlow print it; PyTorch/XLA's pastes carry torch tokens.
    ("resource_exhausted", "XLA (JAX, TensorFlow)"),
];

/// Prefixes of a library's C functions, which it prints in its logs
/// (`ggml_backend_cuda_buffer_type_alloc_buffer: allocating …`).
const FOREIGN_PREFIXES: &[(&str, &str)] = &[
    ("ggml_", "llama.cpp"),
    ("llm_load_", "llama.cpp"),
    // MLX's packages: mlx_lm, mlx_vlm, mlx_whisper.
    ("mlx_", "MLX"),
];

/// Tokens only a PyTorch run prints: any of them and the error is PyTorch's, whatever else
/// the paste mentions (Keras 3 and JAX code can run on PyTorch too).
fn is_pytorch_token(token: &str) -> bool {
    let starts = |prefix: &str| {
        token
            .get(..prefix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
    };
    let ends = |suffix: &str| {
        token
            .len()
            .checked_sub(suffix.len())
            .and_then(|start| token.get(start..))
            .is_some_and(|tail| tail.eq_ignore_ascii_case(suffix))
    };
    starts("torch") || starts("pytorch") || ends("_torch")
}

/// The framework the paste's error comes from, when the paste names another framework and
/// nothing of PyTorch's. Tokens are compared in place, without lowercased copies: a paste
/// holds thousands of them.
pub fn foreign_framework(text: &str) -> Option<&'static str> {
    let mut found: Option<&'static str> = None;
    for token in text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|t| t.len() >= 3)
    {
        if is_pytorch_token(token) {
            return None;
        }
        if found.is_none() {
            found = FOREIGN
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(token))
                .or_else(|| {
                    FOREIGN_PREFIXES.iter().find(|(prefix, _)| {
                        token
                            .get(..prefix.len())
                            .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
                    })
                })
                .map(|(_, framework)| *framework);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_frameworks_are_named_by_their_modules_and_errors() {
        for (text, framework) in [
            (
                "ResourceExhaustedError: OOM when allocating tensor with shape[16,112,112,147]",
                "TensorFlow",
            ),
            (
                "  File \"/usr/lib/python3/site-packages/tensorflow/python/client/session.py\", line 1429",
                "TensorFlow",
            ),
            (
                "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 4770354232 bytes.",
                "JAX",
            ),
            (
                "  File \"site-packages/faster_whisper/transcribe.py\", line 584\nRuntimeError: CUDA failed with error out of memory",
                "CTranslate2",
            ),
            (
                "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 35533.34 MiB on device 0: cudaMalloc failed: out of memory",
                "llama.cpp",
            ),
            (
                "RESOURCE_EXHAUSTED: Out of memory while trying to allocate 285212672 bytes.",
                "XLA (JAX, TensorFlow)",
            ),
            (
                "panic: unable to load model\n\ngoroutine 7 [running]:",
                "Ollama",
            ),
            (
                "When using `mlx_lm.generate()`: [METAL] Command buffer execution failed: Insufficient Memory",
                "MLX",
            ),
        ] {
            assert_eq!(foreign_framework(text), Some(framework), "{text}");
        }
    }

    #[test]
    fn a_pytorch_error_is_pytorch_even_when_another_framework_is_mentioned() {
        for text in [
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB",
            "import tensorflow as tf\n  File \"site-packages/torch/nn/modules/module.py\", line 1501",
            "  File \"site-packages/torch_xla/core/xla_model.py\"\nXlaRuntimeError: RESOURCE_EXHAUSTED",
            "CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 8.00 GiB total capacity)",
        ] {
            assert_eq!(foreign_framework(text), None, "{text}");
        }
    }
}
