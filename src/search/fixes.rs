//! The article whose fix a typed concept names: someone who types "accumulate the gradients"
//! or "checkpoint the activations" in their language wants the article that holds that
//! fix, even when other articles use the same words in passing.
//!
//! Concepts are recognised by their glossary English names (the glossaries' `en:` fields,
//! which each language words a little differently, hence a part of the name); the catalog
//! ids are part of the contract, so the table lives here rather than in the glossaries.

/// A part of a concept's English name, and the group whose article holds its fix.
const FIX_CONCEPTS: &[(&str, &str)] = &[
    ("gradient accumulation", "cuda-oom-training"),
    ("checkpointing", "activation-memory"),
    ("truncated bptt", "activation-memory"),
    ("expandable segments", "cuda-oom-fragmentation"),
    ("fragmentation", "cuda-oom-fragmentation"),
    ("no_grad", "cuda-oom-inference"),
    ("kv cache", "llm-inference-kv-cache"),
    ("inference server", "llm-inference-kv-cache"),
    ("sharding", "zero-fsdp-oom"),
    ("torch.compile", "torch-compile-memory"),
    ("cuda graphs", "torch-compile-memory"),
    ("memory leak", "memory-growth-leak"),
    ("memory estimate", "gpu-memory-estimate"),
    ("recovering from oom", "oom-recovery-handler"),
    ("freeing gpu memory", "gpu-memory-not-released"),
    // Typed, nvidia-smi comes up as "it still shows my memory as used".
    ("nvidia-smi", "gpu-memory-not-released"),
    ("gpu not detected", "cuda-not-available"),
    ("mps", "mps-oom"),
    ("host ram", "cpu-ram-oom"),
    ("seed", "dataloader-worker-seeds"),
    ("shared memory", "dataloader-worker-crash"),
    ("in-place", "autograd-inplace-modified"),
    ("state_dict", "state-dict-mismatch"),
    ("compute capability", "cuda-arch-mismatch"),
    ("device-side assert", "device-side-assert"),
    ("nccl", "nccl-timeout"),
    ("cudnn", "cublas-cudnn-errors"),
    ("cublas", "cublas-cudnn-errors"),
    ("different devices", "device-mismatch"),
    ("weights_only", "torch-load-weights-only"),
    ("matrix multiplication", "shape-mismatch"),
    ("dtype mismatch", "dtype-mismatch"),
    ("illegal memory access", "cuda-illegal-memory-access"),
    ("worker crashed", "dataloader-worker-crash"),
    ("backward twice", "autograd-backward-twice"),
];

/// Two concepts that together name a fix other than what either names alone ("some tensors
/// on the card, some on the processor": a device mismatch), unless a concept of the third part is there
/// too (the GPU is not found, memory ran out: then CPU and GPU are the setting, not the fault).
/// The third part is a whole name or the words a name begins with ("ram (host memory)").
/// What else, named beside labels and the card, makes the labels not the card's trouble.
const LABELS_TRIPPED_UNLESS: &[&str] = &[
    "shape",
    "dtype",
    "tensors on different devices",
    "gpu not detected",
];

const FIX_PAIRS: &[(&str, &str, &[&str], &str)] = &[
    (
        "cpu",
        "gpu",
        &[
            "gpu not detected",
            "out of memory",
            "ram",
            "host ram",
            "cuda",
        ],
        "device-mismatch",
    ),
    // The quantization library that cannot find the card is bitsandbytes' own setup, not
    // PyTorch's: PyTorch may see the GPU perfectly well.
    (
        "quantization",
        "gpu not detected",
        &["out of memory"],
        "bitsandbytes-setup",
    ),
    // A label the card trips over: an index out of range, reported by a device-side assert;
    // the error said to come from the card or from CUDA.
    ("labels", "gpu", LABELS_TRIPPED_UNLESS, "device-side-assert"),
    (
        "labels",
        "cuda",
        LABELS_TRIPPED_UNLESS,
        "device-side-assert",
    ),
    // Loading old weights that the newer default refuses: the weights_only change, not the
    // keys of the state_dict.
    (
        "state_dict",
        "weights_only loading",
        &[],
        "torch-load-weights-only",
    ),
    // Half precision whose numbers overflow: NaN and inf come from the float16 range, not a
    // lack of memory, however "overflow" is said.
    ("mixed precision", "nan", &[], "mixed-precision-dtype"),
    // Waiting that runs out while several GPUs train: a collective that one rank never joined.
    ("timeout", "distributed training", &[], "nccl-timeout"),
    // A recurrent network over long sequences keeps every step's activations for the backward
    // pass: truncated backpropagation through time is the activation article's fix.
    (
        "recurrent network (rnn)",
        "sequence length",
        &["distributed training", "shape", "memory leak"],
        "activation-memory",
    ),
    // A recurrent network that misbehaves only across GPUs: the replicas split its batch,
    // lengths and hidden state.
    (
        "recurrent network (rnn)",
        "distributed training",
        &["out of memory"],
        "rnn-dataparallel-lengths",
    ),
];

/// The groups whose fixes the concepts (by English name, lowercased) name, each once.
pub fn groups_fixing<'a>(english_names: impl IntoIterator<Item = &'a String>) -> Vec<&'static str> {
    let names: Vec<&String> = english_names.into_iter().collect();
    let mut groups = Vec::new();
    for name in &names {
        for (part, group) in FIX_CONCEPTS {
            if name.contains(part) && !groups.contains(group) {
                groups.push(*group);
            }
        }
    }
    // A whole name, or the words a name begins with: the glossaries word some names a little
    // differently ("sequence length / context length").
    let is_named = |name: &str, wanted: &str| {
        name == wanted
            || name
                .strip_prefix(wanted)
                .is_some_and(|rest| rest.starts_with(' '))
    };
    let named = |wanted: &str| names.iter().any(|name| is_named(name, wanted));
    for (first, second, unless, group) in FIX_PAIRS {
        let excluded = names
            .iter()
            .any(|name| unless.iter().any(|part| is_named(name, part)));
        if named(first) && named(second) && !excluded {
            // The pair is the more precise reading: what either concept names alone gives way.
            let alone: Vec<&str> = FIX_CONCEPTS
                .iter()
                .filter(|(part, _)| first.contains(part) || second.contains(part))
                .map(|(_, group)| *group)
                .collect();
            groups.retain(|g| !alone.contains(g) && g != group);
            groups.push(*group);
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    /// English concept names, as the glossaries give them.
    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|name| name.to_string()).collect()
    }

    #[test]
    fn a_fix_named_in_any_glossary_wording_leads_to_its_article() {
        let typed = names(&[
            "activation (gradient) checkpointing",
            "gradient accumulation",
            "gradient",
        ]);
        assert_eq!(
            groups_fixing(&typed),
            ["activation-memory", "cuda-oom-training"]
        );
    }

    #[test]
    fn tensors_on_the_cpu_and_the_gpu_together_name_a_device_mismatch() {
        assert_eq!(
            groups_fixing(&names(&["cpu", "gpu", "tensor"])),
            ["device-mismatch"]
        );
        // The GPU not found, or memory that ran out: CPU and GPU are the setting there.
        assert_eq!(
            groups_fixing(&names(&["cpu", "gpu", "gpu not detected"])),
            ["cuda-not-available"]
        );
        assert!(
            !groups_fixing(&names(&["cpu", "gpu", "out of memory (oom)"]))
                .contains(&"device-mismatch")
        );
        assert!(groups_fixing(&names(&["gpu"])).is_empty());
        // "parameters" holds the letters of "ram" but names nothing of the host's memory.
        assert_eq!(
            groups_fixing(&names(&["cpu", "gpu", "parameters"])),
            ["device-mismatch"]
        );
        assert!(groups_fixing(&names(&["cpu", "gpu", "ram (host memory)"])).is_empty());
    }

    #[test]
    fn labels_with_an_error_from_cuda_name_a_device_side_assert() {
        assert_eq!(
            groups_fixing(&names(&["labels / targets", "cuda"])),
            ["device-side-assert"]
        );
        // CUDA that cannot find the card is the setting there, not the labels' fault.
        assert!(
            !groups_fixing(&names(&["labels / targets", "cuda", "gpu not detected"]))
                .contains(&"device-side-assert")
        );
    }

    #[test]
    fn a_recurrent_network_that_fails_across_gpus_is_the_data_parallel_split() {
        assert_eq!(
            groups_fixing(&names(&["recurrent network (rnn)", "distributed training"])),
            ["rnn-dataparallel-lengths"]
        );
        assert!(groups_fixing(&names(&["recurrent network (rnn)"])).is_empty());
    }

    #[test]
    fn a_quantization_library_that_finds_no_gpu_is_the_bitsandbytes_setup() {
        assert_eq!(
            groups_fixing(&names(&["quantization", "gpu not detected"])),
            ["bitsandbytes-setup"]
        );
        assert_eq!(groups_fixing(&names(&["quantization"])), Vec::<&str>::new());
        assert!(
            !groups_fixing(&names(&[
                "quantization",
                "gpu not detected",
                "out of memory (oom)"
            ]))
            .contains(&"bitsandbytes-setup")
        );
    }

    #[test]
    fn the_machines_ram_named_in_words_leads_to_the_host_ram_article() {
        // "الرام تمتلي", "सिस्टम की रैम भर जाती है": the glossaries name host RAM, which is
        // what the CPU-RAM article is about, however the sentence says it ran out.
        assert_eq!(groups_fixing(&["host RAM".to_lowercase()]), ["cpu-ram-oom"]);
        assert!(groups_fixing(&["gpu".to_owned()]).is_empty());
    }

    #[test]
    fn two_concepts_together_name_the_article_neither_names_alone() {
        let rnn_over_long_sequences = [
            "recurrent network (rnn)",
            "sequence length / context length",
        ];
        assert_eq!(
            groups_fixing(&names(&rnn_over_long_sequences)),
            ["activation-memory"]
        );
        assert_eq!(
            groups_fixing(&names(&["labels / targets", "gpu"])),
            ["device-side-assert"]
        );
        // Rerunning on the CPU is how people find the label out of range: the assert is
        // still the subject, not tensors on two devices.
        assert!(
            groups_fixing(&names(&["labels / targets", "gpu", "cpu"]))
                .contains(&"device-side-assert")
        );
        assert_eq!(
            groups_fixing(&names(&["timeout", "distributed training"])),
            ["nccl-timeout"]
        );
        assert_eq!(
            groups_fixing(&names(&["mixed precision", "nan"])),
            ["mixed-precision-dtype"]
        );
        // A pair wins over what its concepts name alone, even when one of them names its group.
        assert_eq!(
            groups_fixing(&names(&["state_dict", "weights_only loading"])),
            ["torch-load-weights-only"]
        );
        // Spread over GPUs, the recurrent network is the data-parallel split instead.
        assert!(
            !groups_fixing(&names(&[
                "recurrent network (rnn)",
                "sequence length",
                "distributed training"
            ]))
            .contains(&"activation-memory")
        );
    }
}
