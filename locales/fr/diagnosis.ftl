# Phrases du diagnostic qui explique les chiffres d’une erreur collée.
diag-request = PyTorch a tenté d’allouer { $request } pour un seul tenseur.
diag-capacity = Le GPU dispose de { $total } au total ; mémoire libre à ce moment-là : { $free }.
diag-process = Ce processus occupait déjà { $process }, dont { $allocated } pour des tenseurs vivants.
diag-exceeds-capacity = La demande dépasse la capacité totale du GPU ({ $total }) : aucun réglage de l’allocateur n’y changera rien. C’est le tenseur lui-même qu’il faut réduire : un lot plus petit, une séquence plus courte ou un vocabulaire plus petit.
diag-fragmentation = Mémoire réservée par PyTorch mais inutilisée : { $unallocated }. Avec la mémoire libre, cela aurait suffi, mais pas d’un seul tenant : la mémoire est fragmentée. Activer expandable_segments:True avant le lancement règle en général le problème, par PYTORCH_ALLOC_CONF à partir de PyTorch 2.8 ou PYTORCH_CUDA_ALLOC_CONF avant (en 2.9.x, définissez les deux).
diag-fragmentation-already-set = Votre texte montre que les segments extensibles sont déjà activés : le gaspillage restant vient de tenseurs de tailles très variées. Réduisez plutôt la taille de lot ou la longueur de séquence.
diag-not-fragmentation = Mémoire réservée sans être utilisée : seulement { $unallocated }. Ce n’est donc pas de la fragmentation : l’exécution demande plus de mémoire qu’il n’en restait sur le GPU.
diag-others = D’autres processus que celui-ci occupent environ { $others } du GPU. Vérifiez avec nvidia-smi et arrêtez ce dont vous n’avez pas besoin.
diag-logits = { $request } correspond exactement à la taille des logits : taille de lot { $batch } × longueur de séquence { $block } = { $rows } positions, × { $vocab } entrées de vocabulaire × { $bytes } octets ({ $dtype }).
diag-logits-fp32 = { $request } correspond exactement à la copie fp32 des logits que fait l’entropie croisée : taille de lot { $batch } × longueur de séquence { $block } = { $rows } positions, × { $vocab } entrées de vocabulaire × 4 octets.
diag-attention = { $request } correspond aux scores d’attention : taille de lot { $batch } × n_head { $heads } × longueur de séquence { $block } × { $block } × { $bytes } octets.
diag-fits-batch = Avec une taille de lot de { $batch }, ce tenseur seul tiendrait dans la mémoire libre.
diag-mps = Le backend MPS avait alloué { $allocated }, plus { $other } d’autres allocations, pour une limite de { $max } ; la nouvelle demande aurait dépassé cette limite.
diag-cpu = La mémoire vive de l’ordinateur (pas le GPU) n’a pas pu fournir { $request }.
diag-cpu-unknown = La mémoire vive de l’ordinateur (pas le GPU) est épuisée.
diag-cuda-error-oom = « CUDA error: out of memory » signifie que la mémoire a été demandée hors de l’allocateur à cache de PyTorch (création du contexte CUDA, NCCL, une extension) : le GPU était déjà plein à ce moment-là.
diag-cuda-async = CUDA signale les erreurs des noyaux de façon asynchrone : la ligne indiquée par la trace n’est peut-être pas celle qui a échoué. Relancez une fois avec CUDA_LAUNCH_BLOCKING=1 (ou sur le CPU) pour voir le vrai endroit.
diag-foreign-framework = Cette erreur vient de { $framework }, pas de PyTorch : les correctifs de ce site sont écrits pour PyTorch et peuvent ne pas s’appliquer.

diag-model = Le texte collé nomme { $model }, { $params } paramètres : ses poids seuls occupent { $weights } en 16 bits.
diag-model-kv = Avec { $tokens } jetons de contexte, le cache KV d’une séquence occupe { $kv } ({ $per_token } octets par jeton).
diag-model-vllm = Sur ce GPU de { $total } avec gpu_memory_utilization { $util }, vLLM a de la place pour environ { $tokens } jetons de cache KV : { $seqs } séquences de { $len } jetons à la fois.
diag-model-vllm-none = Sur ce GPU de { $total } avec gpu_memory_utilization { $util }, vLLM n’a de la place que pour environ { $tokens } jetons de cache KV, moins d’une séquence de { $len } : baissez max_model_len, augmentez gpu_memory_utilization, passez le cache KV en fp8 ou répartissez le modèle sur plus de GPU.

ask-situation = Le message seul ne dit pas à quel moment la mémoire a manqué, or chaque cas se corrige autrement. Que faisait votre programme à ce moment-là ?
ask-training = L’entraînement d’un modèle
ask-inference = Une évaluation ou des prédictions (boucle de validation, inférence)
ask-llm-finetuning = L’affinage d’un grand modèle de langage (LoRA, QLoRA, TRL, Trainer)
ask-llm-serving = La génération de texte ou le service d’un modèle de langage (generate, vLLM, TGI)
ask-image-generation = La génération d’images ou de vidéos (diffusers, une interface web)
ask-sharded-training = Un entraînement réparti sur plusieurs GPU avec DeepSpeed ZeRO ou FSDP
