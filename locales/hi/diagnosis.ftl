# चिपकाई गई त्रुटि के आँकड़े समझाने वाले निदान के वाक्य।
diag-request = PyTorch ने एक ही टेंसर के लिए { $request } आवंटित करने की कोशिश की।
diag-capacity = GPU की कुल क्षमता { $total } है, और उस समय उसमें से केवल { $free } ख़ाली था।
diag-process = यह प्रोसेस पहले से { $process } इस्तेमाल कर रहा था, जिसमें से { $allocated } ज़िंदा टेंसरों के लिए आवंटित था।
diag-exceeds-capacity = यह माँग पूरे GPU ({ $total }) से भी बड़ी है, इसलिए एलोकेटर की कोई सेटिंग मदद नहीं करेगी। टेंसर को ही छोटा करना होगा: छोटा बैच, छोटा सीक्वेंस या छोटी शब्दावली।
diag-fragmentation = PyTorch के पास { $unallocated } आरक्षित पर अनावंटित मेमोरी थी। ख़ाली मेमोरी के साथ मिलकर यह काफ़ी होती, पर एक लगातार टुकड़े में नहीं: यह मेमोरी का फ़्रैगमेंटेशन है। रन से पहले expandable_segments:True सेट करने से आम तौर पर यह ठीक हो जाता है: PyTorch 2.8 से PYTORCH_ALLOC_CONF में, पुराने वर्ज़न में PYTORCH_CUDA_ALLOC_CONF में, और 2.9.x पर दोनों में।
diag-fragmentation-already-set = आपके टेक्स्ट से दिखता है कि expandable segments पहले से चालू हैं; बची हुई बर्बादी अलग-अलग आकार के टेंसरों से है, इसलिए बैच साइज़ या सीक्वेंस लंबाई घटाएँ।
diag-not-fragmentation = आरक्षित पर अनावंटित मेमोरी केवल { $unallocated } थी, इसलिए यह फ़्रैगमेंटेशन नहीं है: रन को GPU में बची मेमोरी से ज़्यादा चाहिए।
diag-others = GPU की लगभग { $others } मेमोरी इस प्रोसेस के बजाय दूसरे प्रोसेस घेरे हुए हैं। nvidia-smi से जाँचें और जो ज़रूरी नहीं है उसे बंद करें।
diag-logits = { $request } ठीक logits का आकार है: { $rows } पंक्तियाँ ({ $batch } सीक्वेंस × { $block } टोकन) × शब्दावली की { $vocab } प्रविष्टियाँ × { $bytes } बाइट ({ $dtype })।
diag-logits-fp32 = { $request } ठीक logits की वह fp32 प्रति है जो cross-entropy बनाती है: { $rows } पंक्तियाँ ({ $batch } सीक्वेंस × { $block } टोकन) × शब्दावली की { $vocab } प्रविष्टियाँ × 4 बाइट।
diag-attention = { $request } अटेंशन स्कोर से मेल खाता है: { $batch } सीक्वेंस × { $heads } हेड × { $block } × { $block } टोकन × { $bytes } बाइट।
diag-fits-batch = बैच साइज़ { $batch } पर यह टेंसर अकेले ख़ाली मेमोरी में समा जाएगा।
diag-mps = MPS बैकएंड में { $allocated } आवंटित और { $other } अन्य आवंटन थे, जबकि सीमा { $max } है; नई माँग इस सीमा को पार कर जाती।
diag-cpu = कंप्यूटर की RAM (GPU नहीं) { $request } नहीं दे सकी।
diag-cpu-unknown = कंप्यूटर की RAM (GPU नहीं) ख़त्म हो गई।
diag-cuda-error-oom = “CUDA error: out of memory” का मतलब है कि मेमोरी PyTorch के कैशिंग एलोकेटर के बाहर माँगी गई (CUDA कॉन्टेक्स्ट, cuBLAS, NCCL): उस समय GPU पहले से भरा था।
diag-cuda-async = CUDA कर्नेल की त्रुटियाँ असिंक्रोनस रूप से बताता है, इसलिए ट्रेसबैक में दिखी लाइन शायद वह नहीं है जो असल में विफल हुई: असली जगह देखने के लिए एक बार CUDA_LAUNCH_BLOCKING=1 के साथ (या CPU पर) चलाएँ।
diag-foreign-framework = यह त्रुटि PyTorch से नहीं, { $framework } से आई है: यहाँ के समाधान PyTorch के लिए लिखे गए हैं और शायद इस पर लागू न हों।

diag-model = पेस्ट में { $model } का नाम है, { $params } पैरामीटर: सिर्फ़ इसके वेट 16 बिट में { $weights } लेते हैं।
diag-model-kv = { $tokens } टोकन के कॉन्टेक्स्ट पर एक सीक्वेंस का KV कैश { $kv } लेता है (हर टोकन { $per_token } बाइट)।
diag-model-vllm = { $total } वाले इस GPU पर gpu_memory_utilization { $util } के साथ vLLM के KV कैश में लगभग { $tokens } टोकन की जगह है: एक साथ { $len } टोकन के { $seqs } सीक्वेंस।
diag-model-vllm-none = { $total } वाले इस GPU पर gpu_memory_utilization { $util } के साथ vLLM के KV कैश में सिर्फ़ लगभग { $tokens } टोकन की जगह है, जो { $len } टोकन के एक सीक्वेंस से भी कम है: max_model_len घटाएँ, gpu_memory_utilization बढ़ाएँ, fp8 KV कैश इस्तेमाल करें या मॉडल को ज़्यादा GPU पर बाँटें।

ask-situation = सिर्फ़ एरर मैसेज से यह पता नहीं चलता कि मेमोरी किस काम के दौरान खत्म हुई, और हर हालत का इलाज अलग है। जब यह एरर आया, तब क्या चल रहा था?
ask-training = किसी मॉडल की ट्रेनिंग
ask-inference = वैलिडेशन या इन्फ़रेंस (मॉडल की जाँच या उससे प्रेडिक्शन)
ask-llm-finetuning = किसी बड़े लैंग्वेज मॉडल की फ़ाइन-ट्यूनिंग (LoRA, QLoRA, TRL, Trainer)
ask-llm-serving = टेक्स्ट जनरेशन या लैंग्वेज मॉडल की सर्विंग (generate, vLLM, TGI)
ask-image-generation = इमेज या वीडियो बनाना (diffusers, कोई वेब UI)
ask-sharded-training = DeepSpeed ZeRO या FSDP के साथ कई GPU पर ट्रेनिंग
