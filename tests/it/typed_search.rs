//! Typed searches meet people where they are: loanwords and colloquial words lead to the
//! articles' terms, a mistyped long word still finds its article (below an exact match), and
//! Arabic spelling variants are one word.

use std::sync::LazyLock;

use axum::Router;
use serde_json::Value;

use crate::helpers::{get, repo_path, router_for};

static CATALOG: LazyLock<Router> = LazyLock::new(|| router_for(&repo_path("content")));

async fn search(query: &str, lang: &str) -> Value {
    let uri = format!(
        "/api/v1/search?lang={lang}&limit=5&q={}",
        form_urlencoded::byte_serialize(query.as_bytes()).collect::<String>()
    );
    let reply = get(&CATALOG, &uri).await;
    assert_eq!(reply.status, 200, "{query}");
    reply.json()
}

fn ids(answer: &Value) -> Vec<String> {
    answer["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect()
}

/// `query` typed in `lang` finds `expected` first.
async fn assert_found_first(query: &str, lang: &str, expected: &str) {
    let answer = search(query, lang).await;
    assert_eq!(ids(&answer)[0], expected, "{query}: {answer}");
}

fn first_confidence(answer: &Value) -> f64 {
    answer["results"][0]["confidence"].as_f64().unwrap()
}

#[tokio::test]
async fn an_arabic_loanword_names_the_stack_the_error_came_from() {
    // «الكومبايل» is how people write torch.compile; the glossary knows it, the articles do not.
    let answer = search("الذاكرة تخلص مع الكومبايل", "ar").await;
    assert_eq!(ids(&answer)[0], "torch-compile-memory", "{answer}");
    assert_eq!(answer["results"][0]["lang"], "ar");
}

#[tokio::test]
async fn a_swapped_letter_in_a_long_word_finds_what_the_right_spelling_finds() {
    // Alone, so that nothing but the corrected word can find the article.
    let right = search("fragmentation", "en").await;
    let typo = search("framgentation", "en").await;
    assert_eq!(ids(&right)[0], "cuda-oom-fragmentation");
    assert_eq!(ids(&typo)[0], "cuda-oom-fragmentation", "{typo}");
    // The corrected word counts less than the word as typed: never surer than the right spelling.
    assert!(first_confidence(&typo) < first_confidence(&right));
}

#[tokio::test]
async fn arabic_spelling_variants_are_the_same_search() {
    let plain = search("نفاد الذاكرة أثناء التدريب", "ar").await;
    for variant in [
        "نفاد الذاكره اثناء التدريب",
        "نَفَاد الذّاكِرَة أَثناء التَّدريب",
        "نفاد الذاكـــرة إثناء التدريب",
    ] {
        let answer = search(variant, "ar").await;
        assert_eq!(answer["results"], plain["results"], "{variant}");
    }
    assert_eq!(ids(&plain)[0], "cuda-oom-training");
}

#[tokio::test]
async fn hinglish_reaches_the_hindi_articles_through_their_words() {
    // "memory khatam" is the glossary's Hinglish for मेमोरी ख़त्म; the Hindi grammar words in
    // Latin letters are stop words, not evidence.
    let answer = search("batch size kam karne ke baad bhi memory khatam", "hi").await;
    assert_eq!(ids(&answer)[0], "cuda-oom-training", "{answer}");
    assert_eq!(answer["results"][0]["lang"], "hi");
    let grammar_only = search("kaise karne ke baad bhi", "hi").await;
    assert_eq!(grammar_only["answer"], "none", "{grammar_only}");
}

#[tokio::test]
async fn words_that_name_a_fix_find_the_article_that_holds_it() {
    // Without the fix named, "out of memory" alone reads as training; naming the fix — catch
    // the error and retry, accumulate gradients, free the memory — leads to its article.
    for (query, lang, group) in [
        (
            "except OOM ثم اعادة المحاولة بباتش اصغر",
            "ar",
            "oom-recovery-handler",
        ),
        (
            "OOM pakad ke chote batch se retry",
            "hi",
            "oom-recovery-handler",
        ),
        (
            "batch kam karke gradient accumulation kaise kare",
            "hi",
            "cuda-oom-training",
        ),
        (
            "libérer la mémoire GPU sans redémarrer le notebook",
            "fr",
            "gpu-memory-not-released",
        ),
    ] {
        assert_found_first(query, lang, group).await;
    }
}

#[tokio::test]
async fn everyday_words_for_a_situation_lead_to_its_article_in_every_language() {
    // Written for this test (not from the evaluation sets): what people describe rather than
    // the error's own words.
    for (query, lang, expected) in [
        (
            "البوت يرد على الناس وكل ما طالت المحادثة يطيح من الذاكرة",
            "ar",
            "llm-inference-kv-cache",
        ),
        (
            "model card pe h aur data processor pe, alag jagah bol ke error deta h",
            "hi",
            "device-mismatch",
        ),
        (
            "depuis la mise a jour de torch mon vieux checkpoint refuse de charger pour raisons de securite",
            "fr",
            "torch-load-weights-only",
        ),
        (
            "les deux matrices peuvent pas etre multipliées apres le flatten",
            "fr",
            "shape-mismatch",
        ),
    ] {
        assert_found_first(query, lang, expected).await;
    }
}

#[tokio::test]
async fn no_room_on_the_card_is_out_of_memory_not_an_in_place_operation() {
    // «en place» once read as the bare word «place», so «plus de place» (no room left) found
    // the in-place article.
    assert_found_first(
        "ca plante direct quand je lance l'entrainement, plus de place sur la carte meme avec des petits lots",
        "fr",
        "cuda-oom-training",
    )
    .await;
}

#[tokio::test]
async fn the_phase_that_ran_out_is_the_one_set_against_the_phase_that_went_well() {
    // Written for this test: training named twice on the side that went well.
    for (query, lang, expected) in [
        (
            "training mast chal rahi hai, training loss bhi sahi hai, par jab model ko check karta hoon tab memory bhar jati hai",
            "hi",
            "cuda-oom-inference",
        ),
        (
            "la validation et les métriques de validation passent, mais l'entraînement manque de mémoire",
            "fr",
            "cuda-oom-training",
        ),
    ] {
        assert_found_first(query, lang, expected).await;
    }
}

#[tokio::test]
async fn zero_workers_is_the_data_loader_not_deepspeed_zero() {
    assert_found_first(
        "dans docker le chargement des données meurt d'un coup, il faut zero travailleurs pour que ça passe",
        "fr",
        "dataloader-worker-crash",
    )
    .await;
}

#[tokio::test]
async fn a_library_compiled_without_gpu_support_is_its_setup_not_torch_compile() {
    // Written for this test; the words "compiled" and "no GPU" each lead elsewhere alone.
    for (query, lang) in [
        ("bitsandbytes compilé sans support GPU, que faire", "fr"),
        (
            "la lib de quantification en 4 bits ne détecte pas ma carte",
            "fr",
        ),
    ] {
        assert_found_first(query, lang, "bitsandbytes-setup").await;
    }
}

#[tokio::test]
async fn a_library_name_spelled_in_devanagari_or_arabic_script_searches_its_latin_name() {
    // Written for this test. The articles write the library's name in Latin letters only, and
    // "install", "card" and "setup" alone lead to the CUDA articles.
    for (query, lang) in [
        ("बिट्सएंडबाइट्स इंस्टॉल नहीं हो रहा", "hi"),
        ("بيتس اند بايتس مش شغالة على الكرت", "ar"),
    ] {
        assert_found_first(query, lang, "bitsandbytes-setup").await;
    }
}

#[tokio::test]
async fn a_recurrent_network_that_breaks_only_on_two_gpus_is_the_data_parallel_split() {
    for (query, lang) in [
        (
            "mon LSTM marche sur un GPU mais sur deux cartes la taille des sorties change",
            "fr",
        ),
        // The number of cards in digits.
        (
            "2 gpu pe lstm train kiya to sequence ki length gadbad ho gayi",
            "hi",
        ),
    ] {
        assert_found_first(query, lang, "rnn-dataparallel-lengths").await;
    }
}

#[tokio::test]
async fn a_bare_killed_is_host_ram_unless_a_worker_is_named() {
    for (query, lang) in [
        ("السكربت يموت وما يطبع الا Killed", "ar"),
        (
            "training chalate hi bas Killed likh ke band ho jata hai",
            "hi",
        ),
    ] {
        assert_found_first(query, lang, "cpu-ram-oom").await;
    }
    assert_found_first(
        "worker killed pendant le chargement des images",
        "fr",
        "dataloader-worker-crash",
    )
    .await;
}

#[tokio::test]
async fn arabic_only_is_kept_as_a_word_so_weights_only_is_found() {
    // «فقط» ("only") carries the meaning of weights_only; dropped as a stop word, the
    // query read as loading weights in general.
    assert_found_first(
        "بعد التحديث ملفات الحفظ القديمه مبقتش تفتح وبيقول تحميل الاوزان فقط فشل",
        "ar",
        "torch-load-weights-only",
    )
    .await;
}

#[tokio::test]
async fn memory_said_used_up_in_mixed_script_reads_as_out_of_memory() {
    assert_found_first(
        "stable diffusion में बड़ी photo बनाते ही memory खत्म, 4GB वाला card है",
        "hi",
        "diffusion-pipeline-oom",
    )
    .await;
}

#[tokio::test]
async fn a_spoken_arabic_verb_reads_as_its_written_form() {
    // «بيتملي» is «يتملي» (fills up) with the spoken present-tense ب: read as the card
    // filling up, the query is about predicting, not training.
    assert_found_first(
        "الموديل بيتدرب عادي بس لما اجي اتوقع على صور كتير مرة واحده الكارت بيتملي ويقف",
        "ar",
        "cuda-oom-inference",
    )
    .await;
}

#[tokio::test]
async fn accumulating_before_the_update_names_gradient_accumulation_with_words_between() {
    assert_found_first(
        "comment entrainer par petits paquets et cumuler avant la mise a jour pour que ca rentre sans changer le resultat",
        "fr",
        "cuda-oom-training",
    )
    .await;
    assert_found_first(
        "التدريب بيقع من الفيديو رام حتى لما صغرت ال batch لحد ٢، فى طريقه اجمع كذا خطوه قبل ما احدث الاوزان؟",
        "ar",
        "cuda-oom-training",
    )
    .await;
}

#[tokio::test]
async fn more_memory_free_than_was_asked_for_names_fragmentation_in_any_language() {
    assert_found_first(
        "الكرت فيه 4 جيجا فاضيه ومش راضي ياخد 700 ميجا، ليه؟",
        "ar",
        "cuda-oom-fragmentation",
    )
    .await;
    assert_found_first(
        "nvidia pe 5GB free dikh raha hai par 1 GB allocate nahi hota",
        "hi",
        "cuda-oom-fragmentation",
    )
    .await;
}

#[tokio::test]
async fn waiting_that_runs_out_across_several_gpus_names_the_collective_timeout() {
    assert_found_first(
        "لما ادرب على اكثر من كرت يوقف شوي وبعدين يقول انتهى الوقت",
        "ar",
        "nccl-timeout",
    )
    .await;
}

#[tokio::test]
async fn a_card_said_not_to_be_up_to_it_ran_out_of_memory() {
    // Written for this test: Moroccan «ماكفاش» (it did not suffice) says nothing of memory.
    assert_found_first(
        "الكارت 8 جيجا وماكفاش باش ندرب الموديل",
        "ar",
        "cuda-oom-training",
    )
    .await;
}

#[tokio::test]
async fn two_number_types_set_against_each_other_name_the_dtype_mismatch() {
    // Written for this test; "float" and "half" alone are also the mixed-precision article's.
    assert_found_first(
        "الشبكة تقول متوقع فلوت ولقيت هاف في الطبقة الاولى",
        "ar",
        "dtype-mismatch",
    )
    .await;
}

#[tokio::test]
async fn algerian_but_sets_the_phase_that_crashed_against_the_one_that_went_well() {
    // Written for this test: «بصح» is Algerian "but", «يكراشي بالميموار» "crashes on memory".
    assert_found_first(
        "التدريب ماشي مليح بصح وقت test يكراشي بالميموار",
        "ar",
        "cuda-oom-inference",
    )
    .await;
}

#[tokio::test]
async fn french_loanwords_in_arabic_script_name_their_concepts() {
    // Written for this test: "the tensors are not in the same place, one on the card, one on
    // the CPU" with the Maghreb's «التونسورات» and «السيبيو».
    assert_found_first(
        "التونسورات ماشي في نفس البلاصة، وحدة في الكارطة و وحدة في السيبيو",
        "ar",
        "device-mismatch",
    )
    .await;
}

#[tokio::test]
async fn a_phase_said_to_be_over_or_to_go_well_is_not_where_memory_ran_out() {
    // Written for this test: "after training finishes and it tests on the test data, a memory
    // error comes up, although training itself is fine".
    assert_found_first(
        "بعد ما يخلص التدريب ويبدا يختبر على البيانات يطلع خطا الذاكره، مع ان التدريب نفسه ماشي",
        "ar",
        "cuda-oom-inference",
    )
    .await;
    // "After training, results on test data, memory runs out; why more than training?"
    assert_found_first(
        "training ke baad sirf test data par result nikal raha hu, memory khatam, training se zyada kyu",
        "hi",
        "cuda-oom-inference",
    )
    .await;
}

#[tokio::test]
async fn maghrebi_filling_up_and_a_phase_said_to_take_more_than_training() {
    // Written for this test: "fine in training, but when it predicts on new data the memory
    // fills up, more than in training", with the Maghreb's «كيعمر» and «كثر من».
    assert_found_first(
        "التدريب داز مزيان، ولكن ملي كيتوقع على داتا جديدة الميموار كيعمر كثر من التدريب",
        "ar",
        "cuda-oom-inference",
    )
    .await;
}

#[tokio::test]
async fn levantine_words_for_a_card_pytorch_cannot_see() {
    // Written for this test: "I installed torch and everything runs on the processor, it says
    // there is no card".
    assert_found_first(
        "نزلت تورش وكل شي عم يشتغل عالبروسيسور وبيقلي ما في كرت",
        "ar",
        "cuda-not-available",
    )
    .await;
}

#[tokio::test]
async fn hinglish_memory_that_will_not_let_go_is_memory_not_released() {
    // Written for this test: "the card's memory won't let go even after closing the script".
    assert_found_first(
        "script band karne ke baad bhi card ki memory nahi chhut rahi",
        "hi",
        "gpu-memory-not-released",
    )
    .await;
}

#[tokio::test]
async fn french_without_apostrophes_catching_the_memory_error_to_retry() {
    // Written for this test: "I catch the memory error to rerun with a smaller batch, and it
    // crashes again inside my handling", typed without apostrophes.
    assert_found_first(
        "jattrape l erreur de memoire et je relance en plus petit, ca replante direct",
        "fr",
        "oom-recovery-handler",
    )
    .await;
}

#[tokio::test]
async fn egyptian_no_memory_enough_spelled_mimri_reads_as_out_of_memory_in_training() {
    // Written for this test: "I'm training and the card says there isn't enough memory", with
    // «ميمري», a common spelling of "memory".
    assert_found_first(
        "بدرب الموديل والكارت بيقولي مفيش ميمري كفايه خالص",
        "ar",
        "cuda-oom-training",
    )
    .await;
}

#[tokio::test]
async fn buying_a_new_card_is_the_new_architecture_only_when_it_was_bought() {
    // Written for this test, in Moroccan: "training falls over, the memory isn't enough on
    // the card; how do I fit it without buying a new card".
    assert_found_first(
        "التدريب كيطيح والميموار ماكفاتش فالكارط، كيفاش ندخلو بلا ما نشري كارط جديدة",
        "ar",
        "cuda-oom-training",
    )
    .await;
    // "I bought a new card and PyTorch says it has no code that runs on it".
    assert_found_first(
        "شريت كارط جديدة والبايتورش كيقول ماعندوش كود كيخدم عليها",
        "ar",
        "cuda-arch-mismatch",
    )
    .await;
}
