# Sentences of the diagnosis that explains the numbers of a pasted error.
diag-request = PyTorch tried to allocate { $request } for a single tensor.
diag-capacity = The GPU has { $total } in total, and { $free } of it was free at that moment.
diag-process = This process was already using { $process }, of which { $allocated } held live tensors.
diag-exceeds-capacity = The request is larger than the whole GPU ({ $total }): no allocator setting can help. The tensor itself has to shrink: a smaller batch, a shorter sequence or a smaller vocabulary.
diag-fragmentation = PyTorch was holding { $unallocated } reserved but unused. With the free memory that would have been enough, just not in one piece: the memory is fragmented. Setting expandable_segments:True before the run usually fixes it, through PYTORCH_ALLOC_CONF from PyTorch 2.8 or PYTORCH_CUDA_ALLOC_CONF before (on 2.9.x, set both).
diag-fragmentation-already-set = Your paste shows expandable segments are already on, so the remaining waste comes from tensors of many different sizes: reduce the batch or the sequence length instead.
diag-not-fragmentation = Only { $unallocated } was reserved but unused, so this is not fragmentation: the run needs more memory than the GPU had left.
diag-others = About { $others } of the GPU is held by other processes, not by this one. Check with nvidia-smi and stop what you do not need.
diag-logits = { $request } is exactly the size of the logits: batch size { $batch } × sequence length { $block } = { $rows } positions, × { $vocab } vocabulary entries × { $bytes } bytes ({ $dtype }).
diag-logits-fp32 = { $request } is exactly the fp32 copy of the logits that the cross-entropy makes: batch size { $batch } × sequence length { $block } = { $rows } positions, × { $vocab } vocabulary entries × 4 bytes.
diag-attention = { $request } matches the attention scores: batch size { $batch } × n_head { $heads } × sequence length { $block } × { $block } × { $bytes } bytes.
diag-fits-batch = With a batch size of { $batch }, this tensor alone would fit in the free memory.
diag-mps = The MPS backend had { $allocated } allocated and { $other } in other allocations, against a limit of { $max }; the new request would have gone past that limit.
diag-cpu = The computer's RAM (not the GPU) could not provide { $request }.
diag-cpu-unknown = The computer's RAM (not the GPU) ran out.
diag-cuda-error-oom = "CUDA error: out of memory" means memory was requested outside PyTorch's caching allocator (creating the CUDA context, NCCL, an extension): the GPU was already full when that happened.
diag-cuda-async = CUDA reports kernel errors asynchronously, so the line in the traceback may not be the one that failed: run once with CUDA_LAUNCH_BLOCKING=1 (or on the CPU) to see the real place.
diag-foreign-framework = This error comes from { $framework }, not from PyTorch: the fixes here are written for PyTorch and may not apply.

diag-model = The paste names { $model }, { $params } parameters: its weights alone take { $weights } in 16 bits.
diag-model-kv = At { $tokens } tokens of context, one sequence’s KV cache takes { $kv } ({ $per_token } bytes per token).
diag-model-vllm = On this { $total } GPU with gpu_memory_utilization { $util }, vLLM has room for about { $tokens } tokens of KV cache: { $seqs } sequences of { $len } tokens at once.
diag-model-vllm-none = On this { $total } GPU with gpu_memory_utilization { $util }, vLLM has room for only about { $tokens } tokens of KV cache, less than one sequence of { $len }: lower max_model_len, raise gpu_memory_utilization, use an fp8 KV cache or split the model over more GPUs.

ask-situation = The message alone does not say where memory ran out, and each case has its own fix. What was your program doing when it happened?
ask-training = Training a model
ask-inference = Evaluating or predicting (a validation loop, inference)
ask-llm-finetuning = Fine-tuning a large language model (LoRA, QLoRA, TRL, Trainer)
ask-llm-serving = Generating text or serving a language model (generate, vLLM, TGI)
ask-image-generation = Generating images or video (diffusers, a web UI)
ask-sharded-training = Training sharded across GPUs with DeepSpeed ZeRO or FSDP
