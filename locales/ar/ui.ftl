# نصوص الواجهة (الصفحات).

## الإطار
skip-to-content = انتقل إلى المحتوى
nav-main = القائمة الرئيسية
nav-paste = الصق خطأً
nav-search = بحث
nav-articles = المقالات
nav-calculators = الحاسبات
nav-language = اللغة
footer-about = «علاج» (ilaj · इलाज): حلول لأخطاء تدريب الشبكات العصبية، بالعربية والهندية والفرنسية.
footer-api = الإجابات نفسها بصيغة JSON، لروبوتات المحادثة والسكربتات:
label-value = { $label }: { $value }
yes = نعم
no = لا

## الصفحة الرئيسية
home-title = ما الذي حدث؟
home-lead = الصق الخطأ الذي طبعه التدريب — التتبّع الكامل أو سطرًا واحدًا منه — أو صِف المشكلة بكلماتك.
home-paste-label = الخطأ أو وصف المشكلة
home-paste-placeholder = الصق الخطأ هنا أو صِفه بكلماتك
home-submit = ابحث عن الحل
home-privacy = لا يُحفَظ شيء مما تلصقه.
home-examples = أمثلة
home-example-oom = نفاد ذاكرة CUDA أثناء التدريب (nanoGPT)
home-example-assert = خطأ device-side assert في CUDA
home-example-dataloader = عامل DataLoader أُنهي بخطأ ناقل (Bus error)
home-example-device = موترات على جهازين مختلفين
home-example-words = سؤال بكلماتك
home-example-words-text = ذاكرة المعالج الرسومي تبقى مشغولة بعد انتهاء السكربت
home-search-title = ابحث في المقالات
home-more = المزيد
home-topics = كل المقالات حسب الموضوع

## البحث
search-label = كلمات أو رسالة خطأ
search-submit = ابحث

## المقالات
articles-title = المقالات حسب الموضوع
articles-all = كل المقالات
articles-glossary = مسرد المصطلحات
glossary-title = المسرد
glossary-intro = كلمة واحدة لكل مفهوم: المصطلحات التي تستعملها هذه المقالات، مع المصطلح الإنجليزي والكلمات التي يكتبها الناس أيضًا للبحث عنه.
glossary-also = ويُكتب أيضًا:
articles-tagged = المقالات الموسومة بـ«⁨{ $tag }⁩»
articles-none = لا توجد مقالات هنا بعد.
articles-count = { $count ->
    [zero] لا مقالات
    [one] مقالة واحدة
    [two] مقالتان
    [few] { $count } مقالات
   *[other] { $count } مقالة
}
topic-memory = نفاد الذاكرة وذاكرة المعالج الرسومي
topic-data = تحميل البيانات
topic-distributed = عدة معالجات رسومية والتدريب الموزَّع
topic-precision = الدقة وأنواع الأعداد
topic-cuda = أخطاء CUDA
topic-other = أخطاء أخرى
article-contents = المحتويات
article-other-languages = بلغات أخرى
article-calculators = حاسبات لهذه المشكلة
article-errors = رسائل الخطأ التي تعالجها هذه المقالة
article-tags = الوسوم
article-updated = آخر تحديث: { $date }
article-fallback = هذه المقالة غير متوفرة بعد باللغة { $lang }؛ إليك نسختها باللغة { $other }.
hit-fallback = معروضة باللغة { $other }: لا توجد ترجمة بعد.

## الحاسبات
calc-index-title = حاسبات ذاكرة المعالج الرسومي
calc-title-training-memory = حاسبة ذاكرة التدريب
calc-title-allocation = حاسبة «Tried to allocate»
calc-lead-training-memory = كم من ذاكرة المعالج الرسومي سيستهلك تدريب على طريقة nanoGPT، وما حجم الدفعة الذي يتسع له معالجك؟
calc-lead-allocation = أيّ موتر هو التخصيص الذي يذكره الخطأ، وعند أيّ حجم دفعة أو طول سياق سيتسع؟
calc-presets-model = النماذج
calc-presets-card = معالجات رسومية شائعة
calc-legend-model = النموذج
calc-legend-training = التدريب
calc-legend-implementation = التنفيذ
calc-legend-gpu = المعالج الرسومي
calc-compute = احسب
calc-results = التقدير
calc-fits-yes = يتسع في ذاكرة هذا المعالج الرسومي
calc-fits-no = لا يتسع في ذاكرة هذا المعالج الرسومي
calc-parameters = عدد المعاملات (كما يطبعه nanoGPT)
calc-peak-allocated = ذروة ما يخصصه PyTorch
calc-reserved = ما يحجزه مُخصِّص الذاكرة في PyTorch
calc-nvidia-smi = ما يعرضه nvidia-smi
calc-gpu-memory = ذاكرة المعالج الرسومي
calc-gpu = GPU
calc-largest-allocation = أكبر تخصيص منفرد
calc-max-batch = أكبر batch_size يتسع
calc-suggestion = للحفاظ على حجم الدفعة الفعلي (عدد التسلسلات: { $effective }): ⁨batch_size { $batch } × gradient_accumulation_steps { $steps }⁩.
calc-components = الذاكرة عند الذروة، حسب المكوّن
calc-chart-breakdown = الذاكرة عند الذروة مقارنةً بسعة المعالج الرسومي
calc-chart-batch = الذاكرة التي يعرضها nvidia-smi بحسب batch_size (النقطة الكبيرة هي إعدادك)
calc-limits = تقدير لمعالج رسومي واحد، معايَر على قياسات حقيقية (بفارق لا يتجاوز 15٪ عليها). لا تُحتسب العمليات الأخرى على المعالج الرسومي ولا DDP ولا FSDP.
calc-api = التقدير نفسه عبر الواجهة البرمجية
calc-error-missing_field = هذا الحقل مطلوب.
calc-error-out_of_range = هذه القيمة خارج النطاق المسموح.
calc-error-not_divisible = يجب أن يكون n_embd من مضاعفات n_head.
calc-error-invalid_field = هذه القيمة غير صالحة هنا.
calc-error-unknown_field = حقل غير معروف.
field-n_layer = عدد الطبقات
field-n_head = رؤوس الانتباه
field-n_embd = عرض التضمين
field-vocab_size = حجم المفردات
field-block_size = طول السياق (رموز)
field-bias = انحيازات في Linear وLayerNorm
field-tied_embeddings = ربط تضمين الدخل والخرج
field-batch_size = حجم الدفعة
field-gradient_accumulation_steps = خطوات تراكم التدرجات
field-precision = الدقة
field-optimizer = المُحسِّن
field-phase = المرحلة
field-dropout = الإسقاط (dropout)
field-attention = الانتباه
field-layer_ops = LayerNorm وGELU
field-compile = torch.compile
field-activation_checkpointing = إعادة حساب التنشيطات (checkpointing)
field-gpu_memory_gib = ذاكرة المعالج الرسومي (GiB)
field-tried_to_allocate_bytes = الحجم المطلوب تخصيصه
field-total_capacity_bytes = السعة الكلية
field-free_bytes = الذاكرة الحرة
field-reserved_unallocated_bytes = محجوز لدى PyTorch وغير مخصَّص
field-process_in_use_bytes = مستخدم من هذه العملية
opt-fp32 = fp32 — كل شيء بـ32 بت
opt-amp_bf16 = amp_bf16 — autocast إلى bfloat16
opt-amp_fp16 = amp_fp16 — autocast إلى float16
opt-pure_bf16 = pure_bf16 — النموذج كله بـbfloat16
opt-adamw = AdamW
opt-adamw_fused = AdamW (مدمج)
opt-sgd_momentum = SGD مع الزخم
opt-sgd = SGD
opt-flash = flash / SDPA
opt-manual = مكتوب يدويًا (manual)
opt-native = أصلية (nn.LayerNorm وnn.GELU)
opt-scratch = مكتوبة من الصفر
opt-train = تدريب
opt-eval = تقييم
comp-weights = الأوزان
comp-gradients = التدرجات
comp-optimizer_state = حالة المُحسِّن
comp-autocast_weight_copies = نسخ 16 بت من الأوزان (autocast)
comp-attention_mask_buffers = مخازن قناع الانتباه
comp-activations = التنشيطات المحفوظة للتمرير العكسي
comp-attention_scores = درجات الانتباه
comp-logits_and_loss = اللوجيتات ومخازن دالة الخسارة
comp-backward_temporaries = مؤقتات التمرير العكسي
comp-optimizer_temporaries = مؤقتات المُحسِّن
comp-allocator_slack = هامش مُخصِّص الذاكرة (محجوز غير مخصَّص)
comp-cuda_context = سياق CUDA
phase-backward = في بداية التمرير العكسي
phase-optimizer_step = أثناء خطوة المُحسِّن
phase-forward = أثناء التمرير الأمامي
largest-cross_entropy_fp32 = نسخة fp32 من اللوجيتات لدالة الإنتروبيا المتقاطعة
largest-logits = اللوجيتات
largest-attention_scores = درجات الانتباه
largest-mlp_hidden = التنشيطات المخفية في MLP
largest-embedding_matrix = مصفوفة التضمين
largest-residual = موتر من المسار المتبقي
alloc-example = جرّب مثال nanoGPT (⁨6.14 GiB⁩ على معالج رسومي بذاكرة ⁨12 GB⁩)
alloc-legend-message = الأرقام الواردة في رسالة الخطأ
alloc-legend-shape = ما تعرفه عن التدريب (اختياري)
alloc-result-title = ما هو تخصيص ⁨{ $size }⁩
alloc-none = لا يفسّر أيُّ موتر من نموذج لغوي هذا الحجمَ بالأشكال المعتادة. أدخِل حجم المفردات وطول السياق وحجم الدفعة إن كنت تعرفها.
alloc-headline-logits = على الأرجح اللوجيتات (logits) بدقة 16 بت: ⁨{ $formula } = { $size }⁩.
alloc-headline-logits_fp32 = على الأرجح نسخة fp32 من اللوجيتات التي تصنعها الإنتروبيا المتقاطعة: ⁨{ $formula } = { $size }⁩.
alloc-headline-attention_scores = على الأرجح درجات الانتباه: ⁨{ $formula } = { $size }⁩.
alloc-fits = في الذاكرة الحرة سيتسع مع ⁨batch_size ≤ { $batch }⁩، أو مع ⁨block_size ≤ { $block }⁩.
alloc-fits-block-only = في الذاكرة الحرة لن يتسع إلا مع ⁨block_size ≤ { $block }⁩.
alloc-readings = ما يمكن أن يكونه هذا التخصيص
alloc-col-tensor = الموتر
alloc-col-shape = الحجم
alloc-col-size = البايتات
alloc-col-split = الدفعة × السياق
alloc-col-fits = يتسع عند
alloc-exceeds = أكبر من ذاكرة المعالج الرسومي
alloc-kind-logits = اللوجيتات
alloc-kind-logits_fp32 = اللوجيتات، نسخة fp32
alloc-kind-attention_scores = درجات الانتباه
alloc-open-training = قدّر التدريب كله بهذه الأحجام
fig-requested = المطلوب
fig-free = الذاكرة الحرة
fig-reserved-unallocated = محجوز لدى PyTorch وغير مخصَّص
fig-allocated = مخصَّص لموترات PyTorch
fig-process = مستخدم من هذه العملية
fig-process-other = بقية هذه العملية (سياق CUDA)
fig-others = مستخدم من عمليات أخرى
fig-used = مستخدم
fig-capacity = السعة
fig-picture = ذاكرة المعالج الرسومي لحظة فشل التخصيص، والطلب تحتها
fig-picture-caption = في الأعلى: ذاكرة المعالج الرسومي. في الأسفل: الطلب، بدءًا من أول الذاكرة الحرة — ما تجاوز الخط المتقطع لا يتسع.
fig-table = الأرقام

## البحث والنتائج
search-title = بحث
search-results-for = نتائج «⁨{ $query }⁩»
search-none = لم يُعثر على شيء. جرّب كلمات أخرى، أو الصق الخطأ كاملًا:
search-in = مقالات باللغة
search-hint = اكتب بضع كلمات بأي لغة، أو جزءًا من رسالة خطأ.
search-too-long = الاستعلام طويل جدًا؛ ابحث ببضع كلمات، أو الصق الخطأ كاملًا في الصفحة الرئيسية.
match-title = التشخيص والحلول
match-diagnosis = التشخيص: { $kind }
match-where = أين وقع الخطأ
match-fixes = الحلول
match-none = لا توجد مقالة تطابق هذا النص بعد. جرّب البحث ببضع كلمات من الخطأ.
match-open-calculator = افتح الحاسبة بهذه الأرقام
match-your-paste = النص الذي لصقته
match-again = ابحث من جديد
match-empty = الصق خطأً أو اكتب بضع كلمات أولًا.
match-too-long = النص طويل جدًا: ⁨256 KiB⁩ على الأكثر. احتفظ بنهاية التتبّع، حيث يقع الخطأ.
hit-section = الحل في قسم:
hit-also-in = متوفرة أيضًا بـ:
kind-cuda_oom = نفاد ذاكرة CUDA
kind-mps_oom = نفاد ذاكرة MPS (معالج Apple الرسومي)
kind-cpu_oom = نفاد ذاكرة الحاسوب (RAM)
kind-cuda_error = خطأ CUDA
kind-python_exception = خطأ Python
kind-unknown = لم يُتعرَّف على خطأ معروف

## الأخطاء
error-404-title = الصفحة غير موجودة
error-404-text = لا توجد صفحة بهذا العنوان. ربما نُقلت المقالة؛ ابحث عنها أو الصق الخطأ.
error-500-title = حدث خطأ ما
error-500-text = تعذّر على الخادم عرض هذه الصفحة. سُجّلت المشكلة؛ حاول مرة أخرى بعد قليل.
error-back-home = العودة إلى مربع اللصق

## «هل حلّ هذا مشكلتك؟» (المقالات والنتائج)
feedback-question = هل حلّ هذا مشكلتك؟
feedback-yes = نعم
feedback-no = لا
feedback-thanks-yes = شكرًا لك! يسعدنا أن المشكلة حُلّت، وصوتك يساعد غيرك على إيجاد هذا الحل.
feedback-thanks-no = شكرًا لإخبارنا: صوتك يساعدنا على تحسين هذه المقالة. الصق الخطأ كاملًا، أو ابحث بكلمات أخرى:
feedback-no-votes = لا أصوات بعد.
feedback-count-yes = { $count ->
    [zero] لم يقل أحد «نعم»
    [one] قال شخص واحد «نعم»
    [two] قال شخصان «نعم»
    [few] قال { $n } أشخاص «نعم»
    [many] قال { $n } شخصًا «نعم»
   *[other] قال { $n } شخص «نعم»
}
feedback-count-no = { $count ->
    [zero] لم يقل أحد «لا»
    [one] قال شخص واحد «لا»
    [two] قال شخصان «لا»
    [few] قال { $n } أشخاص «لا»
    [many] قال { $n } شخصًا «لا»
   *[other] قال { $n } شخص «لا»
}
feedback-tally = { $yes }، و{ $no }.
error-vote-title = تعذّر تسجيل صوتك
error-vote-text = كان النموذج ناقصًا أو أشار إلى جزء غير موجود في المقالة. ارجع إلى المقالة واختر «نعم» أو «لا» من جديد.
error-vote-unavailable-title = لا يمكن تسجيل الأصوات الآن
error-vote-unavailable-text = قاعدة البيانات غير متاحة. حاول مرة أخرى بعد بضع دقائق.
error-vote-limit-title = طلبات كثيرة جدًا
error-vote-limit-text = أُرسلت من هذا الاتصال طلبات كثيرة في الدقيقة الأخيرة. انتظر دقيقة ثم حاول مرة أخرى.

## الوحدات (بعد العدد ومسافة غير فاصلة)
number-unit = { $number } { $unit }
unit-b = B
unit-kib = KiB
unit-mib = MiB
unit-gib = GiB
unit-tib = TiB
unit-million = مليون

# How sure an answer is.
answer-confident = هذه المقالات تعالج هذا الخطأ.
answer-uncertain = لا نعرف مقالة تعالج هذا الخطأ بعينه. في الأسفل أقرب القراءات، فتأكّد أنها تطابق حالتك قبل أن تطبّق أي حل.
answer-none = لا تتناول أي مقالة هذا الخطأ حتى الآن. في الأسفل أقرب قراءة، وهي ليست حلًّا معروفًا، أما التشخيص في الأعلى فما زال صحيحًا.
answer-none-search = لا تتناول أي مقالة هذه الكلمات حتى الآن. في الأسفل أقرب القراءات، وهي ليست حلولًا معروفة.
answer-closest = أقرب القراءات (ليست حلًّا معروفًا)
hit-confidence = درجة الثقة: { $percent }
calc-title-llm-memory = حاسبة ذاكرة النماذج اللغوية الكبيرة
calc-lead-llm-memory = كم تحتاج من ذاكرة GPU لضبط نموذج من نوع Llama أو Mistral أو Qwen أو Gemma أو لتشغيله للاستدلال: ضبطًا كاملًا أو بـ LoRA أو QLoRA، على GPU واحد أو موزَّعًا على عدة وحدات، وكم يتسع من ذاكرة KV المؤقتة؟
calc-legend-gpus = وحدات GPU
calc-legend-serving = التشغيل للاستدلال (vLLM)
calc-llm-parameters = المعاملات
calc-trainable = المعاملات التي تُدرَّب
calc-host-memory = ذاكرة الجهاز المضيف (المنقولة أو المُقسَّمة إلى صفحات)
calc-kv-per-token = ذاكرة KV لكل رمز (بايت، لكل GPU)
calc-kv-tokens = عدد الرموز التي تتسع لها ذاكرة KV في vLLM
calc-concurrent = عدد التسلسلات بطول max_model_len في آن واحد (vLLM)
calc-chart-per-gpu = الذاكرة عند الذروة على كل GPU مقارنةً بسعته
calc-savings = ما يحرّر أكبر قدر من الذاكرة
calc-savings-change = التغيير
calc-savings-saved = الموفَّر
calc-savings-after = بعده
calc-savings-fits = يتسع
calc-limits-llm = تقدير لكل GPU انطلاقًا من إعدادات النموذج، لا يبتعد أكثر من 10 ٪ عن القياسات المنشورة التي قورن بها. لا يشمل النموذج torch.compile ولا حساب الانتروبيا المتقاطعة على أجزاء ولا نقل التنشيطات إلى المعالج المركزي، ولا تُحسب العمليات الأخرى على الـ GPU.
calc-kv-sentence = عند سياق من { $tokens } رمزًا تشغل ذاكرة KV لتسلسل واحد { $bytes } ({ $per_token } بايت لكل رمز).
calc-placeholder-max-model-len = طول التسلسل
calc-error-unknown_model = لا يوجد نموذج جاهز بهذا المعرّف.
field-model = النموذج
field-method = الطريقة
field-quantization = الأوزان الأساسية
field-lora_rank = رتبة LoRA
field-lora_targets = الوحدات التي تستهدفها LoRA
field-sequence_length = طول التسلسل (بالرموز)
field-gradient_checkpointing = إعادة حساب التنشيطات (gradient checkpointing)
field-gpus = عدد وحدات GPU
field-sharding = التوزيع
field-cpu_offload = النقل إلى المعالج المركزي
field-kv_cache_dtype = نوع بيانات ذاكرة KV
field-max_model_len = max_model_len
field-gpu_memory_utilization = gpu_memory_utilization
opt-generate = التوليد
opt-full = ضبط كامل
opt-lora = LoRA
opt-qlora = QLoRA (نموذج أساسي بـ 4 بتات)
opt-adamw_8bit = AdamW بـ 8 بتات (bitsandbytes)
opt-paged_adamw_8bit = AdamW بـ 8 بتات مع ترقيم الصفحات (bitsandbytes)
opt-q-none = 16 أو 32 بت، دون تكميم
opt-q-int8 = int8 (LLM.int8)
opt-q-nf4 = NF4 بـ 4 بتات
opt-q-nf4_dq = NF4 بـ 4 بتات مع تكميم مزدوج
opt-shard-none = دون توزيع (نسخة كاملة على كل GPU)
opt-shard-ddp = DDP
opt-shard-zero1 = ZeRO-1 (حالات المُحسِّن)
opt-shard-zero2 = ZeRO-2 (+ التدرجات)
opt-shard-zero3 = ZeRO-3 (+ المعاملات)
opt-shard-fsdp = FSDP (توزيع كامل)
opt-kv-auto = مثل النموذج
opt-kv-fp16 = fp16
opt-kv-bf16 = bf16
opt-kv-fp8 = fp8
comp-gathered_parameters = معاملات مجمَّعة من وحدات GPU الأخرى
comp-communication_buffers = مخازن الاتصال
comp-dequantization_buffer = وزن مفكوك التكميم (طبقة واحدة)
comp-kv_cache = ذاكرة KV المؤقتة
comp-nccl = مخازن NCCL
phase-generate = أثناء التوليد
saving-lora = LoRA بدل الضبط الكامل
saving-qlora = QLoRA بدل LoRA
saving-gradient_checkpointing = تفعيل إعادة حساب التنشيطات
saving-paged_adamw_8bit = AdamW بـ 8 بتات مع ترقيم الصفحات
saving-zero3 = توزيع كل شيء (ZeRO-3)
saving-shorter_context = سياق أقصر: { $value } رمزًا
saving-smaller_batch = دفعة أصغر: { $value }
saving-fp8_kv_cache = ذاكرة KV بصيغة fp8
comp-working_activations = تنشيطات طبقة واحدة (التمرير الأمامي)
