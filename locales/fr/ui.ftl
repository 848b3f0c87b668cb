# Chaînes de l’interface (pages).

## Cadre
skip-to-content = Aller au contenu
nav-main = Menu principal
nav-paste = Coller une erreur
nav-search = Rechercher
nav-articles = Articles
nav-calculators = Calculateurs
nav-language = Langue
footer-about = ilaj (علاج · इलाज) veut dire « remède » : des solutions aux erreurs d’entraînement des réseaux de neurones, en arabe, en hindi et en français.
footer-api = Les mêmes réponses en JSON, pour les chatbots et les scripts :
label-value = { $label } : { $value }
yes = oui
no = non

## Accueil
home-title = Qu’est-ce qui ne va pas ?
home-lead = Collez l’erreur affichée par votre entraînement — la trace complète ou une seule ligne — ou décrivez le problème avec vos mots.
home-paste-label = Votre erreur, ou une description
home-paste-placeholder = Collez votre erreur ou décrivez-la
home-submit = Trouver la solution
home-privacy = Rien de ce que vous collez n’est conservé.
home-examples = Exemples
home-example-oom = Mémoire CUDA insuffisante pendant l’entraînement (nanoGPT)
home-example-assert = Assertion côté appareil (device-side assert)
home-example-dataloader = Worker du DataLoader tué par une erreur de bus
home-example-device = Tenseurs sur deux appareils
home-example-words = Une question avec vos mots
home-example-words-text = la mémoire GPU reste occupée après la fin du script
home-search-title = Rechercher dans les articles
home-more = Aller plus loin
home-topics = Tous les articles, par thème

## Recherche
search-label = Des mots ou un message d’erreur
search-submit = Rechercher

## Articles
articles-title = Articles par thème
articles-all = Tous les articles
articles-glossary = Glossaire des termes
glossary-title = Glossaire
glossary-intro = Un mot par notion : les termes qu’emploient ces articles, avec le terme anglais et les mots que l’on tape aussi pour les chercher.
glossary-also = On tape aussi :
articles-tagged = Articles avec l’étiquette « { $tag } »
articles-none = Pas encore d’article ici.
articles-count = { $count ->
    [0] Aucun article
    [one] Un article
   *[other] { $count } articles
}
topic-memory = Mémoire insuffisante et mémoire GPU
topic-data = Chargement des données
topic-distributed = Plusieurs GPU et entraînement distribué
topic-precision = Précision et types numériques
topic-cuda = Erreurs CUDA
topic-other = Autres erreurs
article-contents = Sommaire
article-other-languages = Dans d’autres langues
article-calculators = Calculateurs pour ce problème
article-errors = Messages d’erreur traités par cet article
article-tags = Étiquettes
article-updated = Mis à jour le { $date }
article-fallback = Cet article n’existe pas encore dans cette langue ({ $lang }) ; le voici dans une autre langue : { $other }.
hit-fallback = Pas encore de traduction : affiché dans une autre langue ({ $other }).

## Calculateurs
calc-index-title = Calculateurs de mémoire GPU
calc-title-training-memory = Calculateur de mémoire d’entraînement
calc-title-allocation = Calculateur « Tried to allocate »
calc-lead-training-memory = Combien de mémoire GPU prendra un entraînement de type nanoGPT, et quelle taille de lot tient sur votre carte ?
calc-lead-allocation = Quel tenseur est l’allocation citée par votre erreur, et à quelle taille de lot ou de contexte tiendrait-elle ?
calc-presets-model = Modèles
calc-presets-card = GPU
calc-legend-model = Modèle
calc-legend-training = Entraînement
calc-legend-implementation = Implémentation
calc-legend-gpu = GPU
calc-compute = Calculer
calc-results = Estimation
calc-fits-yes = Tient sur ce GPU
calc-fits-no = Ne tient pas sur ce GPU
calc-parameters = Paramètres (comme nanoGPT les affiche)
calc-peak-allocated = Pic alloué par PyTorch
calc-reserved = Réservé par l’allocateur de PyTorch
calc-nvidia-smi = Affiché par nvidia-smi
calc-gpu-memory = Mémoire du GPU
calc-gpu = GPU
calc-largest-allocation = Plus grosse allocation
calc-max-batch = Plus grand batch_size qui tient
calc-suggestion = Pour garder une taille de lot effective de { $effective } : batch_size { $batch } × gradient_accumulation_steps { $steps }.
calc-components = Mémoire au pic, par composant
calc-chart-breakdown = Mémoire au pic, face à la capacité du GPU
calc-chart-batch = Mémoire affichée par nvidia-smi selon batch_size (le gros point est le vôtre)
calc-limits = Estimation pour un seul GPU, calibrée sur des mesures réelles (à 15 % près sur celles-ci). Les autres processus du GPU, DDP et FSDP ne sont pas comptés.
calc-api = La même estimation par l’API
calc-error-missing_field = Ce champ est obligatoire.
calc-error-out_of_range = Cette valeur est hors limites.
calc-error-not_divisible = n_embd doit être un multiple de n_head.
calc-error-invalid_field = Cette valeur n’est pas valable ici.
calc-error-unknown_field = Champ inconnu.
field-n_layer = Couches
field-n_head = Têtes d’attention
field-n_embd = Largeur des embeddings (n_embd)
field-vocab_size = Taille du vocabulaire
field-block_size = Longueur de contexte (jetons)
field-bias = Biais dans Linear et LayerNorm
field-tied_embeddings = Embeddings d’entrée et de sortie liés
field-batch_size = Taille de lot
field-gradient_accumulation_steps = Nombre de pas d’accumulation des gradients
field-precision = Précision
field-optimizer = Optimiseur
field-phase = Phase
field-dropout = Dropout
field-attention = Attention
field-layer_ops = LayerNorm et GELU
field-compile = torch.compile
field-activation_checkpointing = Recalcul des activations (checkpointing)
field-gpu_memory_gib = Mémoire du GPU (Gio)
field-tried_to_allocate_bytes = Tentative d’allocation
field-total_capacity_bytes = Capacité totale
field-free_bytes = Libre
field-reserved_unallocated_bytes = Réservé par PyTorch mais non alloué
field-process_in_use_bytes = Utilisé par ce processus
opt-fp32 = fp32 — tout en 32 bits
opt-amp_bf16 = amp_bf16 — autocast en bfloat16
opt-amp_fp16 = amp_fp16 — autocast en float16
opt-pure_bf16 = pure_bf16 — modèle en bfloat16
opt-adamw = AdamW
opt-adamw_fused = AdamW (fusionné)
opt-sgd_momentum = SGD avec momentum
opt-sgd = SGD
opt-flash = flash / SDPA
opt-manual = écrite à la main (manual)
opt-native = natives (nn.LayerNorm, nn.GELU)
opt-scratch = écrites à la main
opt-train = entraînement
opt-eval = évaluation
comp-weights = Poids
comp-gradients = Gradients
comp-optimizer_state = État de l’optimiseur
comp-autocast_weight_copies = Copies 16 bits des poids (autocast)
comp-attention_mask_buffers = Tampons du masque d’attention
comp-activations = Activations gardées pour la rétropropagation
comp-attention_scores = Scores d’attention
comp-logits_and_loss = Logits et tampons de la perte
comp-backward_temporaries = Temporaires de la rétropropagation
comp-optimizer_temporaries = Temporaires de l’optimiseur
comp-allocator_slack = Marge de l’allocateur (réservée, inutilisée)
comp-cuda_context = Contexte CUDA
phase-backward = au début de la rétropropagation
phase-optimizer_step = pendant le pas de l’optimiseur
phase-forward = pendant la passe avant
largest-cross_entropy_fp32 = la copie fp32 des logits pour l’entropie croisée
largest-logits = les logits
largest-attention_scores = les scores d’attention
largest-mlp_hidden = les activations cachées du MLP
largest-embedding_matrix = la matrice d’embedding
largest-residual = un tenseur du flux résiduel
alloc-example = Essayer l’exemple de nanoGPT (6,14 Gio sur une carte de 12 Gio)
alloc-legend-message = Chiffres du message d’erreur
alloc-legend-shape = Ce que vous savez de l’entraînement (facultatif)
alloc-result-title = Ce qu’est l’allocation de { $size }
alloc-none = Aucun tenseur d’un modèle de langage n’explique cette taille avec des formes courantes. Indiquez le vocabulaire, la longueur de contexte et la taille de lot si vous les connaissez.
alloc-headline-logits = Très probablement les logits en 16 bits : { $formula } = { $size }.
alloc-headline-logits_fp32 = Très probablement la copie fp32 des logits faite par l’entropie croisée : { $formula } = { $size }.
alloc-headline-attention_scores = Très probablement les scores d’attention : { $formula } = { $size }.
alloc-fits = Dans la mémoire libre, il tiendrait avec batch_size ≤ { $batch }, ou avec block_size ≤ { $block }.
alloc-fits-block-only = Dans la mémoire libre, il ne tiendrait qu’avec block_size ≤ { $block }.
alloc-readings = Ce que peut être cette allocation
alloc-col-tensor = Tenseur
alloc-col-shape = Taille
alloc-col-size = Octets
alloc-col-split = lot × contexte
alloc-col-fits = Tiendrait avec
alloc-exceeds = plus grand que le GPU
alloc-kind-logits = Logits
alloc-kind-logits_fp32 = Logits, copie fp32
alloc-kind-attention_scores = Scores d’attention
alloc-open-training = Estimer tout l’entraînement avec ces tailles
fig-requested = Demandé
fig-free = Libre
fig-reserved-unallocated = Réservé par PyTorch mais non alloué
fig-allocated = Alloué par PyTorch
fig-process = Utilisé par ce processus
fig-process-other = Reste de ce processus (contexte CUDA)
fig-others = Utilisé par d’autres processus
fig-used = Utilisé
fig-capacity = Capacité
fig-picture = Le GPU au moment de l’échec, et la demande en dessous
fig-picture-caption = En haut : la mémoire du GPU. En dessous : la demande, à partir du début de la mémoire libre — au-delà du trait pointillé, elle ne tient pas.
fig-table = Les chiffres

## Recherche et résultats
search-title = Rechercher
search-results-for = Résultats pour « { $query } »
search-none = Rien trouvé. Essayez d’autres mots, ou collez l’erreur complète :
search-in = Articles en
search-hint = Tapez quelques mots dans n’importe quelle langue, ou une partie d’un message d’erreur.
search-too-long = La requête est trop longue ; cherchez avec quelques mots, ou collez l’erreur complète sur la page d’accueil.
match-title = Diagnostic et solutions
match-diagnosis = Diagnostic : { $kind }
match-where = Où l’erreur s’est produite
match-fixes = Solutions
match-none = Aucun article ne correspond encore à ce texte. Essayez la recherche avec quelques mots de l’erreur.
match-open-calculator = Ouvrir le calculateur avec ces chiffres
match-your-paste = Votre texte
match-again = Relancer la recherche
match-empty = Collez d’abord une erreur ou tapez quelques mots.
match-too-long = Le texte est trop long : 256 Kio au plus. Gardez la fin de la trace, là où se trouve l’erreur.
hit-section = La solution est dans :
hit-also-in = Aussi en :
kind-cuda_oom = Mémoire CUDA insuffisante
kind-mps_oom = Mémoire MPS (GPU Apple) insuffisante
kind-cpu_oom = Mémoire de l’ordinateur (RAM) épuisée
kind-cuda_error = Erreur CUDA
kind-python_exception = Erreur Python
kind-unknown = Aucune erreur connue reconnue

## Erreurs
error-404-title = Page introuvable
error-404-text = Il n’y a pas de page à cette adresse. L’article a peut-être changé de place : cherchez-le, ou collez votre erreur.
error-500-title = Un problème est survenu
error-500-text = Le serveur n’a pas pu afficher cette page. Le problème est enregistré ; réessayez dans un instant.
error-back-home = Retour à la zone de collage

## « Cela a-t-il résolu le problème ? » (articles et résultats)
feedback-question = Cela a-t-il résolu le problème ?
feedback-yes = Oui
feedback-no = Non
feedback-thanks-yes = Merci ! Content que ce soit réglé : votre vote aide les autres à trouver ce correctif.
feedback-thanks-no = Merci de nous l’avoir dit : votre vote nous aide à améliorer cet article. Collez l’erreur complète, ou cherchez avec d’autres mots :
feedback-no-votes = Pas encore de vote.
feedback-count-yes = { $count ->
    [0] Personne n’a répondu oui
    [one] { $n } personne a répondu oui
   *[other] { $n } personnes ont répondu oui
}
feedback-count-no = { $count ->
    [0] personne n’a répondu non
    [one] { $n } a répondu non
   *[other] { $n } ont répondu non
}
feedback-tally = { $yes }, { $no }.
error-vote-title = Votre vote n’a pas pu être enregistré
error-vote-text = Le formulaire était incomplet ou désignait une partie de l’article qui n’existe pas. Revenez à l’article et choisissez de nouveau Oui ou Non.
error-vote-unavailable-title = Les votes ne peuvent pas être enregistrés pour l’instant
error-vote-unavailable-text = La base de données est indisponible. Réessayez dans quelques minutes.
error-vote-limit-title = Trop de requêtes
error-vote-limit-text = Cette connexion a envoyé beaucoup de requêtes dans la dernière minute. Patientez une minute, puis réessayez.

## Unités (après un nombre et une espace insécable)
number-unit = { $number } { $unit }
unit-b = o
unit-kib = Kio
unit-mib = Mio
unit-gib = Gio
unit-tib = Tio
unit-million = M

# How sure an answer is.
answer-confident = Ces articles corrigent cette erreur.
answer-uncertain = Aucun article ne corrige cette erreur à coup sûr. Voici les lectures les plus proches : vérifiez qu’elles correspondent à votre cas avant d’appliquer un correctif.
answer-none = Aucun article ne traite encore cette erreur. Voici la lecture la plus proche, qui n’est pas un correctif connu ; le diagnostic ci-dessus reste valable.
answer-none-search = Aucun article ne porte encore sur ces mots. Voici les lectures les plus proches, qui ne sont pas des correctifs connus.
answer-closest = Lectures les plus proches (pas un correctif connu)
hit-confidence = Confiance : { $percent }
calc-title-llm-memory = Calculateur de mémoire pour LLM
calc-lead-llm-memory = Combien de mémoire GPU faut-il pour affiner ou servir un modèle de type Llama, Mistral, Qwen ou Gemma : en entier, en LoRA ou en QLoRA, sur un GPU ou réparti sur plusieurs, et combien de cache KV tient ?
calc-legend-gpus = GPU
calc-legend-serving = Service (vLLM)
calc-llm-parameters = Paramètres
calc-trainable = Paramètres entraînés
calc-host-memory = RAM de l’hôte (déchargée ou paginée)
calc-kv-per-token = Cache KV par jeton (octets, par GPU)
calc-kv-tokens = Jetons que tient le cache KV de vLLM
calc-concurrent = Séquences de max_model_len à la fois (vLLM)
calc-chart-per-gpu = Mémoire au pic sur chaque GPU, face à sa capacité
calc-savings = Ce qui libère le plus de mémoire
calc-savings-change = Changement
calc-savings-saved = Gagné
calc-savings-after = Ensuite
calc-savings-fits = tient
calc-limits-llm = Une estimation par GPU à partir de la configuration du modèle, à 10 % près des mesures publiées sur lesquelles elle a été vérifiée. torch.compile, l’entropie croisée par morceaux et le déchargement des activations ne sont pas modélisés ; les autres processus du GPU ne sont pas comptés.
calc-kv-sentence = Avec { $tokens } jetons de contexte, le cache KV d’une séquence occupe { $bytes } ({ $per_token } octets par jeton).
calc-placeholder-max-model-len = longueur de séquence
calc-error-unknown_model = Aucun préréglage n’a cet identifiant.
field-model = Modèle
field-method = Méthode
field-quantization = Poids de base
field-lora_rank = Rang LoRA
field-lora_targets = Modules ciblés par LoRA
field-sequence_length = Longueur de séquence (jetons)
field-gradient_checkpointing = Recalcul des activations (gradient checkpointing)
field-gpus = Nombre de GPU
field-sharding = Répartition
field-cpu_offload = Déchargement vers le CPU
field-kv_cache_dtype = Type du cache KV
field-max_model_len = max_model_len
field-gpu_memory_utilization = gpu_memory_utilization
opt-generate = génération
opt-full = affinage complet
opt-lora = LoRA
opt-qlora = QLoRA (base en 4 bits)
opt-adamw_8bit = AdamW 8 bits (bitsandbytes)
opt-paged_adamw_8bit = AdamW 8 bits paginé (bitsandbytes)
opt-q-none = 16/32 bits, non quantifiés
opt-q-int8 = int8 (LLM.int8)
opt-q-nf4 = NF4 sur 4 bits
opt-q-nf4_dq = NF4 sur 4 bits, double quantification
opt-shard-none = aucune (une copie par GPU)
opt-shard-ddp = DDP
opt-shard-zero1 = ZeRO-1 (états de l’optimiseur)
opt-shard-zero2 = ZeRO-2 (+ gradients)
opt-shard-zero3 = ZeRO-3 (+ paramètres)
opt-shard-fsdp = FSDP (full shard)
opt-kv-auto = comme le modèle
opt-kv-fp16 = fp16
opt-kv-bf16 = bf16
opt-kv-fp8 = fp8
comp-gathered_parameters = Paramètres rassemblés depuis les autres GPU
comp-communication_buffers = Tampons de communication
comp-dequantization_buffer = Poids déquantifié (une couche)
comp-kv_cache = Cache KV
comp-nccl = Tampons NCCL
phase-generate = pendant la génération
saving-lora = LoRA au lieu de l’affinage complet
saving-qlora = QLoRA au lieu de LoRA
saving-gradient_checkpointing = Activer le recalcul des activations
saving-paged_adamw_8bit = AdamW 8 bits paginé
saving-zero3 = Tout répartir (ZeRO-3)
saving-shorter_context = Un contexte plus court : { $value } jetons
saving-smaller_batch = Un lot plus petit : { $value }
saving-fp8_kv_cache = Cache KV en fp8
comp-working_activations = Activations d’une couche (passe avant)
