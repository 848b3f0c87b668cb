# Interface strings (pages). Ids are shared by every language; English is the fallback.

## Frame
skip-to-content = Skip to content
nav-main = Main menu
nav-paste = Paste an error
nav-search = Search
nav-articles = Articles
nav-calculators = Calculators
nav-language = Language
footer-about = ilaj (علاج · इलाज) means “remedy”: fixes for neural-network training errors in Arabic, Hindi and French.
footer-api = The same answers as JSON, for chatbots and scripts:
label-value = { $label }: { $value }
yes = yes
no = no

## Home
home-title = What went wrong?
home-lead = Paste the error your training printed — the whole traceback or just one line — or describe the problem in your own words.
home-paste-label = Your error, or a description
home-paste-placeholder = Paste your error or describe it
home-submit = Find the fix
home-privacy = Nothing you paste is stored.
home-examples = Examples
home-example-oom = CUDA out of memory while training (nanoGPT)
home-example-assert = CUDA device-side assert
home-example-dataloader = DataLoader worker killed by a bus error
home-example-device = Tensors on two devices
home-example-words = A question in your own words
home-example-words-text = GPU memory is still used after my script ends
home-search-title = Search the articles
home-more = More
home-topics = All articles, by topic

## Search
search-label = Words or an error message
search-submit = Search

## Articles
articles-title = Articles by topic
articles-all = All articles
articles-glossary = Glossary of terms
glossary-title = Glossary
glossary-intro = One word for each idea: the terms these articles use, with the English term and the words people also type for it.
glossary-also = Also typed:
articles-tagged = Articles tagged “{ $tag }”
articles-none = No article here yet.
articles-count = { $count ->
    [one] One article
   *[other] { $count } articles
}
topic-memory = Out of memory and GPU memory
topic-data = Loading data
topic-distributed = Several GPUs and distributed training
topic-precision = Precision and number types
topic-cuda = CUDA errors
topic-other = Other errors
article-contents = Contents
article-other-languages = In other languages
article-calculators = Calculators for this problem
article-errors = Error messages this article fixes
article-tags = Tags
article-updated = Updated { $date }
article-fallback = This article is not yet available in { $lang }; here it is in { $other }.
hit-fallback = Shown in { $other }: no translation yet.

## Calculators
calc-index-title = GPU memory calculators
calc-title-training-memory = Training memory calculator
calc-title-allocation = “Tried to allocate” calculator
calc-lead-training-memory = How much GPU memory will a nanoGPT-style training run take, and which batch size fits your card?
calc-lead-allocation = Which tensor is the allocation your error names, and at which batch or block size would it fit?
calc-presets-model = Models
calc-presets-card = GPUs
calc-legend-model = Model
calc-legend-training = Training
calc-legend-implementation = Implementation
calc-legend-gpu = GPU
calc-compute = Compute
calc-results = Estimate
calc-fits-yes = Fits on this GPU
calc-fits-no = Does not fit on this GPU
calc-parameters = Parameters (as nanoGPT prints them)
calc-peak-allocated = Peak allocated by PyTorch
calc-reserved = Reserved by PyTorch’s allocator
calc-nvidia-smi = Shown by nvidia-smi
calc-gpu-memory = GPU memory
calc-gpu = GPU
calc-largest-allocation = Largest single allocation
calc-max-batch = Largest batch_size that fits
calc-suggestion = To keep an effective batch size of { $effective }: batch_size { $batch } × gradient_accumulation_steps { $steps }.
calc-components = Memory at the peak, by component
calc-chart-breakdown = Memory at the peak, against the GPU’s capacity
calc-chart-batch = Memory shown by nvidia-smi, against batch_size (the large dot is yours)
calc-limits = An estimate for one GPU, calibrated on measured runs (within 15 % on them). Other processes on the GPU, DDP and FSDP are not counted.
calc-api = The same estimate from the API
calc-error-missing_field = This field is required.
calc-error-out_of_range = This value is out of range.
calc-error-not_divisible = n_embd must be a multiple of n_head.
calc-error-invalid_field = This value is not valid here.
calc-error-unknown_field = Unknown field.
field-n_layer = Layers
field-n_head = Attention heads
field-n_embd = Embedding width
field-vocab_size = Vocabulary size
field-block_size = Context length (tokens)
field-bias = Biases in Linear and LayerNorm
field-tied_embeddings = Tied input and output embeddings
field-batch_size = Batch size
field-gradient_accumulation_steps = Gradient accumulation steps
field-precision = Precision
field-optimizer = Optimizer
field-phase = Phase
field-dropout = Dropout
field-attention = Attention
field-layer_ops = LayerNorm and GELU
field-compile = torch.compile
field-activation_checkpointing = Activation checkpointing
field-gpu_memory_gib = GPU memory (GiB)
field-tried_to_allocate_bytes = Tried to allocate
field-total_capacity_bytes = Total capacity
field-free_bytes = Free
field-reserved_unallocated_bytes = Reserved by PyTorch but unallocated
field-process_in_use_bytes = In use by this process
opt-fp32 = fp32 — everything in 32 bits
opt-amp_bf16 = amp_bf16 — autocast to bfloat16
opt-amp_fp16 = amp_fp16 — autocast to float16
opt-pure_bf16 = pure_bf16 — model in bfloat16
opt-adamw = AdamW
opt-adamw_fused = AdamW (fused)
opt-sgd_momentum = SGD with momentum
opt-sgd = SGD
opt-flash = flash / SDPA
opt-manual = written out (manual)
opt-native = native (nn.LayerNorm, nn.GELU)
opt-scratch = written from scratch
opt-train = training
opt-eval = evaluation
comp-weights = Weights
comp-gradients = Gradients
comp-optimizer_state = Optimizer state
comp-autocast_weight_copies = 16-bit copies of the weights (autocast)
comp-attention_mask_buffers = Attention mask buffers
comp-activations = Activations saved for backward
comp-attention_scores = Attention scores
comp-logits_and_loss = Logits and loss buffers
comp-backward_temporaries = Backward temporaries
comp-optimizer_temporaries = Optimizer temporaries
comp-allocator_slack = Allocator slack (reserved, unused)
comp-cuda_context = CUDA context
phase-backward = at the start of the backward pass
phase-optimizer_step = during the optimizer step
phase-forward = during the forward pass
largest-cross_entropy_fp32 = the fp32 copy of the logits for cross-entropy
largest-logits = the logits
largest-attention_scores = the attention scores
largest-mlp_hidden = the MLP’s hidden activations
largest-embedding_matrix = the embedding matrix
largest-residual = a residual-stream tensor
alloc-example = Try the example from nanoGPT (6.14 GiB on a 12 GB card)
alloc-legend-message = Figures from the error message
alloc-legend-shape = What you know about the run (optional)
alloc-result-title = What the { $size } allocation is
alloc-none = No tensor of a language model explains this size with usual shapes. Give the vocabulary, block and batch size if you know them.
alloc-headline-logits = Most likely the logits in 16 bits: { $formula } = { $size }.
alloc-headline-logits_fp32 = Most likely the fp32 copy of the logits that cross-entropy makes: { $formula } = { $size }.
alloc-headline-attention_scores = Most likely the attention scores: { $formula } = { $size }.
alloc-fits = In the free memory it would fit with batch_size ≤ { $batch }, or with block_size ≤ { $block }.
alloc-fits-block-only = In the free memory it would fit only with block_size ≤ { $block }.
alloc-readings = What this allocation can be
alloc-col-tensor = Tensor
alloc-col-shape = Size
alloc-col-size = Bytes
alloc-col-split = batch × block
alloc-col-fits = Would fit at
alloc-exceeds = larger than the GPU
alloc-kind-logits = Logits
alloc-kind-logits_fp32 = Logits, fp32 copy
alloc-kind-attention_scores = Attention scores
alloc-open-training = Estimate the whole run with these sizes
fig-requested = Requested
fig-free = Free
fig-reserved-unallocated = Reserved by PyTorch but unallocated
fig-allocated = Allocated by PyTorch
fig-process = In use by this process
fig-process-other = Rest of this process (CUDA context)
fig-others = Used by other processes
fig-used = In use
fig-capacity = Capacity
fig-picture = The GPU when the allocation failed, and the request below it
fig-picture-caption = Top: the GPU’s memory. Below: the request, starting where the free memory starts — past the dashed line it does not fit.
fig-table = The figures

## Search and results
search-title = Search
search-results-for = Results for “{ $query }”
search-none = Nothing found. Try other words, or paste the whole error:
search-in = Articles in
search-hint = Type a few words in any language, or part of an error message.
search-too-long = The query is too long; search with a few words, or paste the whole error on the home page.
match-title = Diagnosis and fixes
match-diagnosis = Diagnosis: { $kind }
match-where = Where it happened
match-fixes = Fixes
match-none = No article matches this text yet. Try the search with a few words from the error.
match-open-calculator = Open the calculator with these figures
match-your-paste = Your paste
match-again = Search again
match-empty = Paste an error or type a few words first.
match-too-long = The text is too long: at most 256 KiB. Keep the end of the traceback, where the error is.
hit-section = The fix is in:
hit-also-in = Also in:
kind-cuda_oom = CUDA out of memory
kind-mps_oom = MPS (Apple GPU) out of memory
kind-cpu_oom = Computer memory (RAM) exhausted
kind-cuda_error = CUDA error
kind-python_exception = Python error
kind-unknown = No known error recognised

## Errors
error-404-title = Page not found
error-404-text = There is no page at this address. The article may have moved; search for it, or paste your error.
error-500-title = Something went wrong
error-500-text = The server could not show this page. The problem has been logged; please try again in a moment.
error-back-home = Back to the paste box

## "Did this fix it?" (article pages and results)
feedback-question = Did this fix it?
feedback-yes = Yes
feedback-no = No
feedback-thanks-yes = Thank you! Glad it is fixed — your vote helps others find this fix.
feedback-thanks-no = Thank you for telling us: your vote helps us improve this article. Paste the whole error, or search with other words:
feedback-no-votes = No votes yet.
feedback-count-yes = { $count ->
    [one] { $n } person said yes
   *[other] { $n } people said yes
}
feedback-count-no = { $count ->
    [one] { $n } said no
   *[other] { $n } said no
}
feedback-tally = { $yes }, { $no }.
error-vote-title = Your vote could not be recorded
error-vote-text = The form was incomplete or named a part of the article that does not exist. Go back to the article and choose Yes or No again.
error-vote-unavailable-title = Votes cannot be recorded right now
error-vote-unavailable-text = The database is unavailable. Please try again in a few minutes.
error-vote-limit-title = Too many requests
error-vote-limit-text = This connection sent many requests in the last minute. Please wait a minute and try again.

## Units (after a number and a no-break space)
number-unit = { $number } { $unit }
unit-b = B
unit-kib = KiB
unit-mib = MiB
unit-gib = GiB
unit-tib = TiB
unit-million = M

# How sure an answer is.
answer-confident = These articles fix this error.
answer-uncertain = No article is known to fix this exact error. Below are the closest readings: check that they match your case before applying a fix.
answer-none = No article covers this error yet. Below is the closest reading, which is not a known fix; the diagnosis above still holds.
answer-none-search = No article is about these words yet. Below are the closest readings, which are not known fixes.
answer-closest = Closest readings (not a known fix)
hit-confidence = Confidence: { $percent }
calc-title-llm-memory = LLM memory calculator
calc-lead-llm-memory = How much GPU memory does fine-tuning or serving a Llama-, Mistral-, Qwen- or Gemma-style model take: full, LoRA or QLoRA, on one GPU or sharded, and how much KV cache fits?
calc-legend-gpus = GPUs
calc-legend-serving = Serving (vLLM)
calc-llm-parameters = Parameters
calc-trainable = Trainable parameters
calc-host-memory = Host RAM (offloaded or paged)
calc-kv-per-token = KV cache per token (bytes, per GPU)
calc-kv-tokens = Tokens vLLM’s KV cache holds
calc-concurrent = Sequences of max_model_len at once (vLLM)
calc-chart-per-gpu = Memory at the peak on each GPU, against its capacity
calc-savings = What frees the most memory
calc-savings-change = Change
calc-savings-saved = Saved
calc-savings-after = Then
calc-savings-fits = fits
calc-limits-llm = An estimate per GPU from the model’s config, within 10 % of the published measurements it was checked against. torch.compile, chunked cross-entropy and activation offloading are not modelled; other processes on the GPU are not counted.
calc-kv-sentence = At { $tokens } tokens of context the KV cache of one sequence takes { $bytes } ({ $per_token } bytes per token).
calc-placeholder-max-model-len = sequence length
calc-error-unknown_model = No preset has this id.
field-model = Model
field-method = Method
field-quantization = Base weights
field-lora_rank = LoRA rank
field-lora_targets = LoRA target modules
field-sequence_length = Sequence length (tokens)
field-gradient_checkpointing = Gradient checkpointing
field-gpus = Number of GPUs
field-sharding = Sharding
field-cpu_offload = Offload to CPU
field-kv_cache_dtype = KV cache dtype
field-max_model_len = max_model_len
field-gpu_memory_utilization = gpu_memory_utilization
opt-generate = generation
opt-full = full fine-tuning
opt-lora = LoRA
opt-qlora = QLoRA (4-bit base)
opt-adamw_8bit = AdamW 8-bit (bitsandbytes)
opt-paged_adamw_8bit = paged AdamW 8-bit (bitsandbytes)
opt-q-none = 16/32-bit, not quantized
opt-q-int8 = int8 (LLM.int8)
opt-q-nf4 = 4-bit NF4
opt-q-nf4_dq = 4-bit NF4, double quantization
opt-shard-none = none (one copy per GPU)
opt-shard-ddp = DDP
opt-shard-zero1 = ZeRO-1 (optimizer states)
opt-shard-zero2 = ZeRO-2 (+ gradients)
opt-shard-zero3 = ZeRO-3 (+ parameters)
opt-shard-fsdp = FSDP (full shard)
opt-kv-auto = as the model
opt-kv-fp16 = fp16
opt-kv-bf16 = bf16
opt-kv-fp8 = fp8
comp-gathered_parameters = Parameters gathered from other GPUs
comp-communication_buffers = Communication buffers
comp-dequantization_buffer = Dequantized weight (one layer)
comp-kv_cache = KV cache
comp-nccl = NCCL buffers
phase-generate = during generation
saving-lora = LoRA instead of full fine-tuning
saving-qlora = QLoRA instead of LoRA
saving-gradient_checkpointing = Turn on gradient checkpointing
saving-paged_adamw_8bit = Paged 8-bit AdamW
saving-zero3 = Shard everything (ZeRO-3)
saving-shorter_context = A shorter context: { $value } tokens
saving-smaller_batch = A smaller batch: { $value }
saving-fp8_kv_cache = KV cache in fp8
comp-working_activations = Activations of one layer (forward)
