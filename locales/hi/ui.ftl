# इंटरफ़ेस के वाक्य (पेज)।

## ढाँचा
skip-to-content = सामग्री पर जाएँ
nav-main = मुख्य मेनू
nav-paste = त्रुटि पेस्ट करें
nav-search = खोजें
nav-articles = लेख
nav-calculators = कैलकुलेटर
nav-language = भाषा
footer-about = ilaj (इलाज · علاج) यानी “इलाज”: न्यूरल नेटवर्क की ट्रेनिंग में आने वाली त्रुटियों के हल, अरबी, हिंदी और फ़्रेंच में।
footer-api = यही जवाब JSON में, चैटबॉट और स्क्रिप्ट के लिए:
label-value = { $label }: { $value }
yes = हाँ
no = नहीं

## होम
home-title = क्या गड़बड़ हुई?
home-lead = ट्रेनिंग ने जो त्रुटि छापी है उसे पेस्ट करें — पूरा ट्रेसबैक या सिर्फ़ एक लाइन — या समस्या अपने शब्दों में बताएँ।
home-paste-label = आपकी त्रुटि, या समस्या का विवरण
home-paste-placeholder = अपनी त्रुटि पेस्ट करें या उसके बारे में लिखें
home-submit = हल खोजें
home-privacy = आप जो पेस्ट करते हैं, वह सहेजा नहीं जाता।
home-examples = उदाहरण
home-example-oom = ट्रेनिंग के दौरान CUDA की मेमोरी ख़त्म (nanoGPT)
home-example-assert = CUDA device-side assert
home-example-dataloader = DataLoader वर्कर Bus error से बंद
home-example-device = टेंसर दो अलग डिवाइस पर
home-example-words = अपने शब्दों में सवाल
home-example-words-text = स्क्रिप्ट ख़त्म होने के बाद भी GPU मेमोरी भरी रहती है
home-search-title = लेखों में खोजें
home-more = और भी
home-topics = सभी लेख, विषय के अनुसार

## खोज
search-label = शब्द या त्रुटि संदेश
search-submit = खोजें

## लेख
articles-title = विषय के अनुसार लेख
articles-all = सभी लेख
articles-glossary = शब्दावली देखें
glossary-title = शब्दावली
glossary-intro = हर अवधारणा के लिए एक शब्द: इन लेखों में इस्तेमाल होने वाले शब्द, उनके अंग्रेज़ी शब्द के साथ, और वे शब्द जो लोग खोजते समय लिखते हैं।
glossary-also = लोग यह भी लिखते हैं:
articles-tagged = “{ $tag }” टैग वाले लेख
articles-none = यहाँ अभी कोई लेख नहीं है।
articles-count = { $count ->
    [0] कोई लेख नहीं
    [one] एक लेख
   *[other] { $count } लेख
}
topic-memory = मेमोरी ख़त्म होना और GPU मेमोरी
topic-data = डेटा लोड करना
topic-distributed = कई GPU और डिस्ट्रिब्यूटेड ट्रेनिंग
topic-precision = प्रिसिज़न और संख्याओं के टाइप
topic-cuda = CUDA त्रुटियाँ
topic-other = अन्य त्रुटियाँ
article-contents = विषय-सूची
article-other-languages = दूसरी भाषाओं में
article-calculators = इस समस्या के कैलकुलेटर
article-errors = वे त्रुटि संदेश जिनका हल इस लेख में है
article-tags = टैग
article-updated = अपडेट: { $date }
article-fallback = यह लेख अभी { $lang } में उपलब्ध नहीं है; यहाँ यह { $other } में है।
hit-fallback = { $other } में दिखाया गया: अभी अनुवाद नहीं है।

## कैलकुलेटर
calc-index-title = GPU मेमोरी कैलकुलेटर
calc-title-training-memory = ट्रेनिंग मेमोरी कैलकुलेटर
calc-title-allocation = “Tried to allocate” कैलकुलेटर
calc-lead-training-memory = nanoGPT जैसी ट्रेनिंग कितनी GPU मेमोरी लेगी, और आपके कार्ड में कौन-सा बैच साइज़ समाएगा?
calc-lead-allocation = आपकी त्रुटि में बताया गया आवंटन किस टेंसर का है, और किस बैच साइज़ या कॉन्टेक्स्ट लंबाई पर वह समाएगा?
calc-presets-model = मॉडल
calc-presets-card = GPU
calc-legend-model = मॉडल
calc-legend-training = ट्रेनिंग
calc-legend-implementation = इम्प्लीमेंटेशन
calc-legend-gpu = GPU
calc-compute = हिसाब लगाएँ
calc-results = अनुमान
calc-fits-yes = इस GPU में समा जाएगा
calc-fits-no = इस GPU में नहीं समाएगा
calc-parameters = पैरामीटर (जैसे nanoGPT छापता है)
calc-peak-allocated = PyTorch का अधिकतम आवंटन
calc-reserved = PyTorch के एलोकेटर द्वारा आरक्षित
calc-nvidia-smi = nvidia-smi में दिखने वाली मेमोरी
calc-gpu-memory = GPU मेमोरी
calc-gpu = GPU
calc-largest-allocation = सबसे बड़ा एकल आवंटन
calc-max-batch = सबसे बड़ा batch_size जो समाए
calc-suggestion = { $effective } सीक्वेंस का प्रभावी बैच बनाए रखने के लिए: batch_size { $batch } × gradient_accumulation_steps { $steps }।
calc-components = चरम पर मेमोरी, हिस्सों के अनुसार
calc-chart-breakdown = चरम पर मेमोरी, GPU की क्षमता के मुक़ाबले
calc-chart-batch = nvidia-smi में दिखने वाली मेमोरी, batch_size के अनुसार (बड़ा बिंदु आपकी सेटिंग है)
calc-limits = एक GPU के लिए अनुमान, असली मापों पर कैलिब्रेट किया हुआ (उन पर 15% के भीतर)। GPU पर दूसरे प्रोसेस, DDP और FSDP नहीं गिने जाते।
calc-api = यही अनुमान API से
calc-error-missing_field = यह फ़ील्ड ज़रूरी है।
calc-error-out_of_range = यह मान सीमा से बाहर है।
calc-error-not_divisible = n_embd को n_head का गुणज होना चाहिए।
calc-error-invalid_field = यह मान यहाँ मान्य नहीं है।
calc-error-unknown_field = अज्ञात फ़ील्ड।
field-n_layer = लेयर
field-n_head = अटेंशन हेड
field-n_embd = एम्बेडिंग की चौड़ाई
field-vocab_size = शब्दावली का आकार
field-block_size = कॉन्टेक्स्ट लंबाई (टोकन)
field-bias = Linear और LayerNorm में बायस
field-tied_embeddings = इनपुट और आउटपुट एम्बेडिंग जुड़े हुए
field-batch_size = बैच साइज़
field-gradient_accumulation_steps = ग्रेडिएंट एक्युमुलेशन स्टेप
field-precision = प्रिसिज़न
field-optimizer = ऑप्टिमाइज़र
field-phase = चरण
field-dropout = ड्रॉपआउट
field-attention = अटेंशन
field-layer_ops = LayerNorm और GELU
field-compile = torch.compile
field-activation_checkpointing = एक्टिवेशन चेकपॉइंटिंग
field-gpu_memory_gib = GPU मेमोरी (GiB)
field-tried_to_allocate_bytes = आवंटन की माँग (Tried to allocate)
field-total_capacity_bytes = कुल क्षमता
field-free_bytes = ख़ाली
field-reserved_unallocated_bytes = PyTorch द्वारा आरक्षित पर अनावंटित
field-process_in_use_bytes = इस प्रोसेस द्वारा उपयोग में
opt-fp32 = fp32 — सब कुछ 32 बिट में
opt-amp_bf16 = amp_bf16 — bfloat16 में autocast
opt-amp_fp16 = amp_fp16 — float16 में autocast
opt-pure_bf16 = pure_bf16 — पूरा मॉडल bfloat16 में
opt-adamw = AdamW
opt-adamw_fused = AdamW (fused)
opt-sgd_momentum = मोमेंटम के साथ SGD
opt-sgd = SGD
opt-flash = flash / SDPA
opt-manual = हाथ से लिखा (manual)
opt-native = नेटिव (nn.LayerNorm, nn.GELU)
opt-scratch = शुरू से लिखे हुए
opt-train = ट्रेनिंग
opt-eval = इवैल्युएशन
comp-weights = वेट
comp-gradients = ग्रेडिएंट
comp-optimizer_state = ऑप्टिमाइज़र की स्थिति
comp-autocast_weight_copies = वेट की 16-बिट कॉपियाँ (autocast)
comp-attention_mask_buffers = अटेंशन मास्क बफ़र
comp-activations = बैकवर्ड के लिए रखे गए एक्टिवेशन
comp-attention_scores = अटेंशन स्कोर
comp-logits_and_loss = लॉजिट और लॉस के बफ़र
comp-backward_temporaries = बैकवर्ड के अस्थायी टेंसर
comp-optimizer_temporaries = ऑप्टिमाइज़र के अस्थायी टेंसर
comp-allocator_slack = एलोकेटर का अतिरिक्त हिस्सा (आरक्षित, अनावंटित)
comp-cuda_context = CUDA कॉन्टेक्स्ट
phase-backward = बैकवर्ड पास की शुरुआत में
phase-optimizer_step = ऑप्टिमाइज़र स्टेप के दौरान
phase-forward = फ़ॉरवर्ड पास के दौरान
largest-cross_entropy_fp32 = क्रॉस-एन्ट्रॉपी के लिए लॉजिट की fp32 कॉपी
largest-logits = लॉजिट
largest-attention_scores = अटेंशन स्कोर
largest-mlp_hidden = MLP के हिडन एक्टिवेशन
largest-embedding_matrix = एम्बेडिंग मैट्रिक्स
largest-residual = रेज़िडुअल स्ट्रीम का एक टेंसर
alloc-example = nanoGPT का उदाहरण आज़माएँ (12 GB कार्ड पर 6.14 GiB)
alloc-legend-message = त्रुटि संदेश के आँकड़े
alloc-legend-shape = ट्रेनिंग के बारे में आप क्या जानते हैं (वैकल्पिक)
alloc-result-title = { $size } का आवंटन क्या है
alloc-none = सामान्य आकारों वाले किसी लैंग्वेज मॉडल का कोई टेंसर इस आकार को नहीं समझाता। अगर आपको पता हो तो शब्दावली, कॉन्टेक्स्ट लंबाई और बैच साइज़ भरें।
alloc-headline-logits = सबसे संभावित: 16 बिट में लॉजिट — { $formula } = { $size }।
alloc-headline-logits_fp32 = सबसे संभावित: क्रॉस-एन्ट्रॉपी द्वारा बनाई गई लॉजिट की fp32 कॉपी — { $formula } = { $size }।
alloc-headline-attention_scores = सबसे संभावित: अटेंशन स्कोर — { $formula } = { $size }।
alloc-fits = ख़ाली मेमोरी में यह batch_size ≤ { $batch } पर, या block_size ≤ { $block } पर समा जाएगा।
alloc-fits-block-only = ख़ाली मेमोरी में यह केवल block_size ≤ { $block } पर समाएगा।
alloc-readings = यह आवंटन क्या हो सकता है
alloc-col-tensor = टेंसर
alloc-col-shape = आकार
alloc-col-size = बाइट
alloc-col-split = बैच × कॉन्टेक्स्ट
alloc-col-fits = कब समाएगा
alloc-exceeds = GPU से बड़ा
alloc-kind-logits = लॉजिट
alloc-kind-logits_fp32 = लॉजिट, fp32 कॉपी
alloc-kind-attention_scores = अटेंशन स्कोर
alloc-open-training = इन आकारों से पूरी ट्रेनिंग का अनुमान लगाएँ
fig-requested = माँगा गया
fig-free = ख़ाली
fig-reserved-unallocated = PyTorch द्वारा आरक्षित पर अनावंटित
fig-allocated = PyTorch द्वारा आवंटित
fig-process = इस प्रोसेस द्वारा उपयोग में
fig-process-other = इस प्रोसेस का बाक़ी हिस्सा (CUDA कॉन्टेक्स्ट)
fig-others = दूसरे प्रोसेस द्वारा उपयोग में
fig-used = उपयोग में
fig-capacity = क्षमता
fig-picture = आवंटन विफल होते समय GPU, और उसके नीचे माँग
fig-picture-caption = ऊपर: GPU की मेमोरी। नीचे: माँग, ख़ाली मेमोरी की शुरुआत से — डैश वाली रेखा के आगे का हिस्सा नहीं समाता।
fig-table = आँकड़े

## खोज और नतीजे
search-title = खोजें
search-results-for = “{ $query }” के नतीजे
search-none = कुछ नहीं मिला। दूसरे शब्द आज़माएँ, या पूरी त्रुटि पेस्ट करें:
search-in = लेखों की भाषा
search-hint = किसी भी भाषा में कुछ शब्द लिखें, या त्रुटि संदेश का कोई हिस्सा।
search-too-long = खोज बहुत लंबी है; कुछ शब्दों से खोजें, या पूरी त्रुटि होम पेज पर पेस्ट करें।
match-title = निदान और हल
match-diagnosis = निदान: { $kind }
match-where = त्रुटि कहाँ हुई
match-fixes = हल
match-none = इस टेक्स्ट से अभी कोई लेख मेल नहीं खाता। त्रुटि के कुछ शब्दों से खोज आज़माएँ।
match-open-calculator = इन आँकड़ों के साथ कैलकुलेटर खोलें
match-your-paste = आपका पेस्ट
match-again = फिर से खोजें
match-empty = पहले कोई त्रुटि पेस्ट करें या कुछ शब्द लिखें।
match-too-long = टेक्स्ट बहुत लंबा है: अधिकतम 256 KiB। ट्रेसबैक का आख़िरी हिस्सा रखें, जहाँ त्रुटि है।
hit-section = हल इस हिस्से में है:
hit-also-in = इन भाषाओं में भी:
kind-cuda_oom = CUDA की मेमोरी ख़त्म
kind-mps_oom = MPS (Apple GPU) की मेमोरी ख़त्म
kind-cpu_oom = कंप्यूटर की मेमोरी (RAM) ख़त्म
kind-cuda_error = CUDA त्रुटि
kind-python_exception = Python त्रुटि
kind-unknown = कोई जानी-पहचानी त्रुटि नहीं मिली

## त्रुटियाँ
error-404-title = पेज नहीं मिला
error-404-text = इस पते पर कोई पेज नहीं है। शायद लेख की जगह बदल गई है; उसे खोजें, या अपनी त्रुटि पेस्ट करें।
error-500-title = कुछ गड़बड़ हो गई
error-500-text = सर्वर यह पेज नहीं दिखा सका। समस्या दर्ज कर ली गई है; थोड़ी देर बाद फिर कोशिश करें।
error-back-home = पेस्ट बॉक्स पर वापस जाएँ

## “क्या इससे समस्या हल हुई?” (लेख और नतीजे)
feedback-question = क्या इससे समस्या हल हुई?
feedback-yes = हाँ
feedback-no = नहीं
feedback-thanks-yes = धन्यवाद! ख़ुशी है कि समस्या हल हो गई — आपका वोट दूसरों को यह हल ढूँढने में मदद करता है।
feedback-thanks-no = बताने के लिए धन्यवाद: आपका वोट हमें यह लेख सुधारने में मदद करता है। पूरी त्रुटि पेस्ट करें, या दूसरे शब्दों से खोजें:
feedback-no-votes = अभी तक कोई वोट नहीं।
feedback-count-yes = { $count ->
    [0] अभी तक किसी ने “हाँ” नहीं कहा
    [one] { $n } व्यक्ति ने “हाँ” कहा
   *[other] { $n } लोगों ने “हाँ” कहा
}
feedback-count-no = { $count ->
    [0] अभी तक किसी ने “नहीं” नहीं कहा
    [one] { $n } व्यक्ति ने “नहीं” कहा
   *[other] { $n } लोगों ने “नहीं” कहा
}
feedback-tally = { $yes }, { $no }।
error-vote-title = आपका वोट दर्ज नहीं हो सका
error-vote-text = फ़ॉर्म अधूरा था, या उसमें लेख का ऐसा हिस्सा था जो मौजूद नहीं है। लेख पर वापस जाएँ और फिर से “हाँ” या “नहीं” चुनें।
error-vote-unavailable-title = अभी वोट दर्ज नहीं किए जा सकते
error-vote-unavailable-text = डेटाबेस उपलब्ध नहीं है। कुछ मिनट बाद फिर कोशिश करें।
error-vote-limit-title = बहुत ज़्यादा अनुरोध
error-vote-limit-text = इस कनेक्शन से पिछले एक मिनट में बहुत सारे अनुरोध आए हैं। एक मिनट रुककर फिर कोशिश करें।

## इकाइयाँ (संख्या और नॉन-ब्रेकिंग स्पेस के बाद)
number-unit = { $number } { $unit }
unit-b = B
unit-kib = KiB
unit-mib = MiB
unit-gib = GiB
unit-tib = TiB
unit-million = मिलियन

# How sure an answer is.
answer-confident = ये लेख इस त्रुटि को ठीक करते हैं।
answer-uncertain = ऐसा कोई लेख नहीं मिला जो पक्के तौर पर यही त्रुटि ठीक करे। नीचे सबसे मिलते-जुलते लेख हैं: कोई उपाय आज़माने से पहले जाँच लें कि वे आपके मामले से मेल खाते हैं।
answer-none = इस त्रुटि पर अभी तक कोई लेख नहीं है। नीचे सबसे मिलता-जुलता लेख है, जो कोई जाना-माना हल नहीं है; ऊपर दिया गया निदान फिर भी सही है।
answer-none-search = इन शब्दों पर अभी तक कोई लेख नहीं है। नीचे सबसे मिलते-जुलते लेख हैं, जो जाने-माने हल नहीं हैं।
answer-closest = सबसे मिलते-जुलते लेख (जाना-माना हल नहीं)
hit-confidence = भरोसा: { $percent }
calc-title-llm-memory = LLM मेमोरी कैलकुलेटर
calc-lead-llm-memory = Llama, Mistral, Qwen या Gemma जैसे मॉडल को फ़ाइन-ट्यून करने या सर्व करने में कितनी GPU मेमोरी लगती है: पूरा, LoRA या QLoRA, एक GPU पर या कई में बाँटकर, और कितना KV कैश समाता है?
calc-legend-gpus = GPU
calc-legend-serving = सर्विंग (vLLM)
calc-llm-parameters = पैरामीटर
calc-trainable = ट्रेन होने वाले पैरामीटर
calc-host-memory = होस्ट RAM (ऑफ़लोड या पेज की हुई)
calc-kv-per-token = हर टोकन का KV कैश (बाइट, हर GPU पर)
calc-kv-tokens = vLLM के KV कैश में समाने वाले टोकन
calc-concurrent = एक साथ max_model_len लंबाई के सीक्वेंस (vLLM)
calc-chart-per-gpu = हर GPU पर पीक मेमोरी, उसकी क्षमता के सामने
calc-savings = सबसे ज़्यादा मेमोरी क्या बचाता है
calc-savings-change = बदलाव
calc-savings-saved = बचत
calc-savings-after = उसके बाद
calc-savings-fits = समा जाता है
calc-limits-llm = मॉडल के कॉन्फ़िग से हर GPU का अनुमान, जिन प्रकाशित मापों से इसे जाँचा गया उनसे 10 % के भीतर। torch.compile, टुकड़ों में cross-entropy और एक्टिवेशन ऑफ़लोडिंग इसमें शामिल नहीं हैं; GPU पर चल रहे दूसरे प्रोसेस नहीं गिने जाते।
calc-kv-sentence = { $tokens } टोकन के कॉन्टेक्स्ट पर एक सीक्वेंस का KV कैश { $bytes } लेता है (हर टोकन { $per_token } बाइट)।
calc-placeholder-max-model-len = सीक्वेंस की लंबाई
calc-error-unknown_model = इस id का कोई प्रीसेट नहीं है।
field-model = मॉडल
field-method = तरीका
field-quantization = बेस वेट
field-lora_rank = LoRA रैंक
field-lora_targets = LoRA वाले मॉड्यूल
field-sequence_length = सीक्वेंस की लंबाई (टोकन)
field-gradient_checkpointing = ग्रेडिएंट चेकपॉइंटिंग
field-gpus = GPU की संख्या
field-sharding = बँटवारा (sharding)
field-cpu_offload = CPU पर ऑफ़लोड
field-kv_cache_dtype = KV कैश का dtype
field-max_model_len = max_model_len
field-gpu_memory_utilization = gpu_memory_utilization
opt-generate = जनरेशन
opt-full = पूरा फ़ाइन-ट्यून
opt-lora = LoRA
opt-qlora = QLoRA (4-बिट बेस)
opt-adamw_8bit = AdamW 8-बिट (bitsandbytes)
opt-paged_adamw_8bit = पेज्ड AdamW 8-बिट (bitsandbytes)
opt-q-none = 16/32-बिट, बिना क्वांटाइज़ेशन
opt-q-int8 = int8 (LLM.int8)
opt-q-nf4 = 4-बिट NF4
opt-q-nf4_dq = 4-बिट NF4, डबल क्वांटाइज़ेशन
opt-shard-none = कोई नहीं (हर GPU पर पूरी कॉपी)
opt-shard-ddp = DDP
opt-shard-zero1 = ZeRO-1 (ऑप्टिमाइज़र स्टेट)
opt-shard-zero2 = ZeRO-2 (+ ग्रेडिएंट)
opt-shard-zero3 = ZeRO-3 (+ पैरामीटर)
opt-shard-fsdp = FSDP (full shard)
opt-kv-auto = मॉडल जैसा
opt-kv-fp16 = fp16
opt-kv-bf16 = bf16
opt-kv-fp8 = fp8
comp-gathered_parameters = दूसरे GPU से जुटाए गए पैरामीटर
comp-communication_buffers = कम्युनिकेशन बफ़र
comp-dequantization_buffer = डी-क्वांटाइज़ किया वेट (एक लेयर)
comp-kv_cache = KV कैश
comp-nccl = NCCL बफ़र
phase-generate = जनरेशन के दौरान
saving-lora = पूरे फ़ाइन-ट्यून की जगह LoRA
saving-qlora = LoRA की जगह QLoRA
saving-gradient_checkpointing = ग्रेडिएंट चेकपॉइंटिंग चालू करें
saving-paged_adamw_8bit = पेज्ड 8-बिट AdamW
saving-zero3 = सब कुछ बाँटें (ZeRO-3)
saving-shorter_context = छोटा कॉन्टेक्स्ट: { $value } टोकन
saving-smaller_batch = छोटा बैच: { $value }
saving-fp8_kv_cache = fp8 में KV कैश
comp-working_activations = एक लेयर के एक्टिवेशन (फ़ॉरवर्ड पास)
