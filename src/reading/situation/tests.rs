use super::figures::{GIB, MIB};
use super::stack::stack_of_class_name;
use super::*;
use crate::traceback::parse;

fn situation_of(text: &str) -> Situation {
    read_situation(&parse(text), text).0
}

#[test]
fn fragmentation_needs_a_large_unused_share_of_reserved_memory() {
    let fragmented = parse(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.70 GiB. GPU 0 has a total capacity of 6.00 GiB of which 0 bytes is free. Of the allocated memory 2.93 GiB is allocated by PyTorch, and 2.30 GiB is reserved by PyTorch but unallocated.",
    );
    assert!(read_memory(&fragmented.facts).fragmented);
    let tight = parse(
        "RuntimeError: CUDA out of memory. Tried to allocate 284.00 MiB (GPU 0; 31.75 GiB total capacity; 27.12 GiB already allocated; 99.50 MiB free; 30.44 GiB reserved in total by PyTorch)",
    );
    assert!(!read_memory(&tight.facts).fragmented);
}

#[test]
fn other_processes_show_as_capacity_not_accounted_for() {
    let parsed = parse(
        "RuntimeError: CUDA out of memory. Tried to allocate 314.00 MiB (GPU 0; 23.63 GiB total capacity; 2.74 GiB already allocated; 207.75 MiB free; 2.81 GiB reserved in total by PyTorch)",
    );
    let others = read_memory(&parsed.facts).others.unwrap();
    assert!(others > 20 * GIB, "{others}");
}

#[test]
fn a_listed_process_holding_what_pytorch_reserved_is_the_process_itself() {
    // In a container the process is listed under its host PID, not as "this process".
    let alone = parse(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 134.00 MiB. GPU 0 has a total capacity of 39.39 GiB of which 107.94 MiB is free. Process 3679748 has 39.28 GiB memory in use. Of the allocated memory 37.86 GiB is allocated by PyTorch, and 93.47 MiB is reserved by PyTorch but unallocated.",
    );
    assert_eq!(read_memory(&alone.facts).others, None);
    // Without the capacity figures (a cut paste), only the list tells who holds what.
    let shared = parse(
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 26.00 MiB. Process 3431486 has 18.91 GiB memory in use. Process 3081991 has 4.72 GiB memory in use. Of the allocated memory 4.09 GiB is allocated by PyTorch, and 171.75 MiB is reserved by PyTorch but unallocated.",
    );
    assert_eq!(
        read_memory(&shared.facts).others,
        crate::traceback::size_to_bytes("18.91", "GiB")
    );
    // With "this process" printed, every listed process is another one.
    let named = parse(
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 138.00 MiB. GPU 0 has a total capacty of 15.90 GiB of which 8.44 MiB is free. Process 1246069 has 577.00 MiB memory in use. Including non-PyTorch memory, this process has 15.32 GiB memory in use. Of the allocated memory 14.12 GiB is allocated by PyTorch, and 410.41 MiB is reserved by PyTorch but unallocated.",
    );
    assert_eq!(read_memory(&named.facts).others, Some(577 * MIB));
}

#[test]
fn a_process_reported_with_zero_bytes_is_not_taken_at_its_word() {
    let wddm = parse(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 32.00 MiB. GPU 0 has a total capacity of 23.43 GiB of which 4.06 MiB is free. Including non-PyTorch memory, this process has 0 bytes memory in use. Of the allocated memory 23.03 GiB is allocated by PyTorch, and 15.67 MiB is reserved by PyTorch but unallocated.",
    );
    assert_eq!(read_memory(&wddm.facts).others, None);
}

#[test]
fn script_names_and_words_tell_inference_from_training() {
    let demo = "File \"head_detection_demo.py\", line 3, in <module>\nRuntimeError: CUDA error: out of memory";
    assert!(phase_evidence(&parse(demo), &lowered_head(demo)).is_inference());
    let seed = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/eval/seed-oom-example.txt"
    ))
    .unwrap();
    assert!(
        !phase_evidence(&parse(&seed), &lowered_head(&seed)).is_inference(),
        "estimate_loss inside train.py is training"
    );
    let words = "on validation I've got OOM: RuntimeError: CUDA out of memory.";
    assert!(phase_evidence(&parse(words), &lowered_head(words)).is_inference());
    // Inferencing long files, embedding a corpus: the model is being run.
    let inferencing = "When inferencing files that have long prolonged sounds, it causes CUDA Out of Memory error";
    assert_eq!(situation_of(inferencing), Situation::InferenceOom);
    let embedding =
        "CUDA out of memory while the retriever tries to embed 6492 images in a single batch";
    assert_eq!(situation_of(embedding), Situation::InferenceOom);
}

#[test]
fn the_function_where_the_call_failed_outweighs_the_script_it_lives_in() {
    let validate = "Traceback (most recent call last):\n  File \"train.py\", line 349, in <module>\n    main()\n  File \"train.py\", line 127, in main\n    criterion=criterion)\n  File \"train.py\", line 282, in validate\n    scores_copy = scores.clone()\nRuntimeError: CUDA error: out of memory";
    assert!(phase_evidence(&parse(validate), &lowered_head(validate)).is_inference());
}

#[test]
fn a_package_reads_the_same_with_hyphens_or_underscores() {
    for text in [
        "ERROR text_generation_launcher: Method Prefill encountered an error.\nCUDA out of memory. Tried to allocate 16.00 MiB",
        "  File \"/opt/conda/bin/text-generation-server\", line 8\nCUDA out of memory. Tried to allocate 16.00 MiB",
        // TGI's router relays the shard's error under its own name.
        "ERROR batch{batch_size=1}:prefill: text_generation_client: router/client/src/lib.rs:33: Server error: CUDA out of memory. Tried to allocate 18.00 MiB.",
    ] {
        assert_eq!(
            read_situation(&parse(text), text).0,
            Situation::LlmServing,
            "{text}"
        );
    }
}

#[test]
fn a_vae_alone_is_no_image_generator() {
    // A text VAE's own module path: molecule and language models have VAEs too.
    let text = "  File \"/home/u/CDVAE/model/vae/vae.py\", line 63, in forward\nRuntimeError: cuda runtime error (2) : out of memory";
    assert_ne!(stack(&text.to_lowercase()), Some(Situation::Diffusion));
}

#[test]
fn deepspeeds_pipeline_engine_alone_is_not_zero_sharding() {
    let oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.68 GiB.";
    let pipe = format!(
        "  File \"/venv/lib/python3.10/site-packages/deepspeed/runtime/pipe/engine.py\", line 389, in train_batch\n{oom}"
    );
    assert_ne!(stack(&pipe.to_lowercase()), Some(Situation::Sharded));
    let zero = format!(
        "{pipe}\n  File \"/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/stage3.py\", line 12"
    );
    assert_eq!(stack(&zero.to_lowercase()), Some(Situation::Sharded));
}

#[test]
fn a_lora_trained_on_pictures_of_a_given_size_is_not_a_language_model() {
    let lora = "my second Lora, 20 pictures at 768x768, 10 epochs\nOutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB";
    assert_ne!(stack(&lora.to_lowercase()), Some(Situation::LlmFinetune));
    let text = "my second Lora, 20 pictures, 10 epochs\nOutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB";
    assert_eq!(stack(&text.to_lowercase()), Some(Situation::LlmFinetune));
}

#[test]
fn serving_weight_formats_and_forges_model_loader_name_their_stack() {
    let gptq = "Loading TheBloke_vicuna-13B-GPTQ...\n  File \"modules/GPTQ_loader.py\", line 172\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 50.00 MiB";
    assert_eq!(read_situation(&parse(gptq), gptq).0, Situation::LlmServing);
    let forge = "[Memory Management] Target: KModel, Free GPU: 1024.00 MB\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB";
    assert_eq!(read_situation(&parse(forge), forge).0, Situation::Diffusion);
}
#[test]
fn a_row_of_nvidia_smi_is_memory_still_held() {
    let row = "| 30%   28C    P8    22W / 250W |   8525MiB / 11019MiB |      0%      Default |\nhow do I empty the cache of this GPU?";
    assert_eq!(read_situation(&parse(row), row).0, Situation::NotReleased);
}

#[test]
fn memory_described_as_still_held_is_memory_not_released() {
    let text = "When I finish training LoRA, even though the process has ended, the GPU memory remains occupied.";
    assert_eq!(read_situation(&parse(text), text).0, Situation::NotReleased);
    let ghost = "nvidia-smi shows nothing in process but memory is used. nvtop shows a ghost process there using the memory.";
    assert_eq!(situation_of(ghost), Situation::NotReleased);
    let vram =
        "After finishing a prompt, the cache of the VRAM is not released, forcing me to restart";
    assert_eq!(situation_of(vram), Situation::NotReleased);
    // A launcher's flag is no word about memory.
    assert!(!mentions_memory(
        "startup arguments: -uv --reserve-vram 2 --fast-fp16"
    ));
}

#[test]
fn a_script_launched_on_the_command_line_names_the_phase() {
    let launched = "$ python train.py -mode train -bert_data_path ../data/test_data/test -visible_gpus 0\nRuntimeError: CUDA out of memory. Tried to allocate 12.00 MiB (GPU 0; 2.00 GiB total capacity; 1.19 GiB already allocated; 11.31 MiB free; 1.33 GiB reserved in total by PyTorch)";
    let phase = phase_evidence(&parse(launched), &lowered_head(launched));
    assert!(!phase.is_inference(), "{phase:?}");
    let infer = "torchrun --nproc_per_node 2 scripts/infer_video.py --fp16\nCUDA out of memory. Tried to allocate 2.00 GiB";
    assert!(phase_evidence(&parse(infer), &lowered_head(infer)).is_inference());
}

#[test]
fn a_worker_killed_with_signal_9_ran_out_of_host_ram() {
    let torchrun = "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 8180) of binary: /usr/bin/python3";
    assert_eq!(
        read_situation(&parse(torchrun), torchrun).0,
        Situation::HostRam
    );
}

#[test]
fn a_dataloader_worker_killed_alone_is_left_to_the_dataloader_article() {
    let worker = "RuntimeError: DataLoader worker (pid 13904) is killed by signal: Killed.";
    assert_eq!(situation_of(worker), Situation::Other);
    // The shell's own `Killed` line: the main process went too, host RAM ran out.
    let main_too = format!("{worker}\nKilled");
    assert_eq!(situation_of(&main_too), Situation::HostRam);
    // The author blames the RAM.
    let ram = format!("I have 24G RAM and it dies in epoch 1:\n{worker}");
    assert_eq!(situation_of(&ram), Situation::HostRam);
}

#[test]
fn an_oom_caught_by_the_programs_own_handler_is_about_recovery() {
    let handler = "    except RuntimeError as e:\n        print(e)\n>>> oom()\nCUDA out of memory. Tried to allocate 381.50 MiB (GPU 1; 7.92 GiB total capacity; 7.16 GiB already allocated; 231.00 MiB free; 452.50 KiB cached)";
    assert_eq!(
        read_situation(&parse(handler), handler).0,
        Situation::Recovery
    );
    let failed = "RuntimeError: CUDA out of memory. Tried to allocate 1024.00 MiB (GPU 0; 15.90 GiB total capacity; 14.25 GiB already allocated; 991.56 MiB free; 607.00 KiB cached)\n\nDuring handling of the above exception, another exception occurred:\n";
    assert_eq!(
        read_situation(&parse(failed), failed).0,
        Situation::Recovery
    );
}

#[test]
fn a_loop_that_logs_skipping_the_batch_after_an_oom_is_about_recovery() {
    let message = "CUDA out of memory. Tried to allocate 40.00 MiB (GPU 0; 10.76 GiB total capacity; 9.80 GiB already allocated; 12.19 MiB free; 210.00 MiB cached)";
    let skipped =
        format!("| WARNING: ran out of memory with exception: {message};\n Skipping batch\n");
    assert_eq!(situation_of(&skipped), Situation::Recovery);
    let crashed = format!("RuntimeError: {message}\n");
    assert_ne!(situation_of(&crashed), Situation::Recovery);
}

#[test]
fn a_finetuning_toolkit_run_with_only_evaluation_switches_evaluates() {
    let oom = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.";
    let predict = format!(
        "llamafactory-cli train --stage sft --model_name_or_path Qwen2-7B --finetuning_type lora --do_predict --predict_with_generate --per_device_eval_batch_size 16\n{oom}"
    );
    assert_eq!(situation_of(&predict), Situation::InferenceOom);
    let train = predict.replace("--do_predict", "--do_train --do_eval");
    assert_eq!(situation_of(&train), Situation::LlmFinetune);
}

#[test]
fn a_bare_message_reads_as_training_only_by_default() {
    let bare = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 768.00 MiB (GPU 0; 4.00 GiB total capacity; 2.71 GiB already allocated; 0 bytes free; 2.81 GiB reserved in total by PyTorch)";
    assert_eq!(
        read_situation(&parse(bare), bare),
        (Situation::TrainingOom, true)
    );
    let trainer = format!("  File \"main.py\", line 80, in train_step\n{bare}");
    assert_eq!(
        read_situation(&parse(&trainer), &trainer),
        (Situation::TrainingOom, false)
    );
}

#[test]
fn a_web_uis_bare_exception_name_points_to_diffusion_without_vouching_for_it() {
    let bare = "OutOfMemoryError: CUDA out of memory. Tried to allocate 1.25 GiB (GPU 1; 79.10 GiB total capacity; 76.13 GiB already allocated; 290.12 MiB free; 77.47 GiB reserved in total by PyTorch)";
    assert_eq!(
        read_situation(&parse(bare), bare),
        (Situation::Diffusion, true)
    );
    let pipeline = format!(
        "  File \"/venv/site-packages/diffusers/pipelines/pipeline_utils.py\", line 80, in __call__\n{bare}"
    );
    assert_eq!(
        read_situation(&parse(&pipeline), &pipeline),
        (Situation::Diffusion, false)
    );
    // Jupyter prints the same bare name under its own traceback header.
    let notebook = format!(
        "{bare}\n---------------------------------------------------------------------------\nOutOfMemoryError                          Traceback (most recent call last)\nCell In[9], line 15\n---> 15 generated = model.generate(batch[\"input_ids\"].to(\"cuda\"), max_length=64)"
    );
    assert_ne!(situation_of(&notebook), Situation::Diffusion);
}

#[test]
fn a_phase_named_after_without_is_not_the_phase() {
    let negated = "CUDA out of memory on new images, without training, batch of 2";
    assert_eq!(
        read_situation(&parse(negated), negated),
        (Situation::TrainingOom, true)
    );
    let said = "CUDA out of memory on new images during training, batch of 2";
    assert_eq!(
        read_situation(&parse(said), said),
        (Situation::TrainingOom, false)
    );
}

#[test]
fn a_lora_beside_an_image_or_video_generator_is_the_generators() {
    assert_eq!(
        stack("when i use lora to fine tune the wan2.1-t2v-14b model with 720p data"),
        Some(Situation::Diffusion)
    );
    assert_eq!(
        stack("lora fine-tune of my chat model"),
        Some(Situation::LlmFinetune)
    );
    // A DreamBooth LoRA trains an image model; Qwen-Image is an image generator, not Qwen.
    assert_ne!(
        stack("dreambooth lora error: cuda out of memory on validation"),
        Some(Situation::LlmFinetune)
    );
    assert_eq!(
        stack("h20 96g显存 qwen-image-edit lora微调为什么还是报错"),
        Some(Situation::Diffusion)
    );
    // Jupyter prints the bare exception name too: no sign of a generator.
    assert_eq!(
        stack("from peft import loraconfig\noutofmemoryerror: cuda out of memory."),
        Some(Situation::LlmFinetune)
    );
}

#[test]
fn training_a_language_model_named_by_its_module_or_id_is_a_fine_tune() {
    let oom = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 112.00 MiB (GPU 0; 79.15 GiB total capacity; 76.61 GiB already allocated; 112.38 MiB free; 77.55 GiB reserved in total by PyTorch)";
    let module = format!(
        "  File \"/opt/site-packages/transformers/models/qwen2/modeling_qwen2.py\", line 80, in forward\n  File \"train.py\", line 12, in train\n{oom}"
    );
    assert_eq!(
        read_situation(&parse(&module), &module),
        (Situation::LlmFinetune, false)
    );
    let id = format!("lora微调qwen2.5-7b逐渐爆显存\n{oom}");
    assert_eq!(read_situation(&parse(&id), &id).0, Situation::LlmFinetune);
    // A model named without a sign of training is most likely fine-tuned, but only a guess
    // (the answer asks where it struck); a size alone ("7b") or a word that only begins like
    // a family is no model.
    assert_eq!(
        read_situation(
            &parse(&format!("Llama-2-13b\n{oom}")),
            &format!("Llama-2-13b\n{oom}")
        ),
        (Situation::LlmFinetune, true)
    );
    assert_eq!(
        read_situation(
            &parse(&format!("options_7b\n{oom}")),
            &format!("options_7b\n{oom}")
        ),
        (Situation::TrainingOom, true)
    );
    assert!(!names_a_language_model("options_7b train"));
    for id in [
        "vicuna13b",
        "deepseek-coder-6.7b",
        "qwen2-vl-7b",
        "llama-2-13b-chat",
        "un llama 8b",
    ] {
        assert!(names_a_language_model(id), "{id}");
    }
}

#[test]
fn words_about_running_out_over_code_that_catches_it_are_about_recovery() {
    let catching = "catch the out of memory errors and continue:\nfor x in loader:\n    try:\n        step(x)\n    except RuntimeError as e:\n        torch.cuda.empty_cache()";
    assert_eq!(
        read_situation(&parse(catching), catching).0,
        Situation::Recovery
    );
}

#[test]
fn asking_how_to_go_on_after_an_oom_is_about_recovery_but_a_program_skipping_on_its_own_is_not() {
    for asked in [
        "Skip batch when cuda out of memory. Reducing batch_size will hurt performance.",
        "How can I recover from OOM during hyperparameter search and start the next trial?",
        "catching the CUDA out of memory error leaves the memory in use",
    ] {
        assert_eq!(situation_of(asked), Situation::Recovery, "{asked}");
    }
    let logged =
        "boltz predict big.fasta --diffusion_samples 3\nWARNING: ran out of memory, skipping batch";
    assert_ne!(situation_of(logged), Situation::Recovery);
}

#[test]
fn a_gpu_said_to_have_gigabytes_of_ram_ran_out_on_the_card() {
    let asked =
        "I run out of memory fine-tuning whisper large on a GPU with 24gb of ram, batch size 1";
    assert_ne!(situation_of(asked), Situation::HostRam);
    let host = "the validation step will consume all of my RAM and swap memory and crash";
    assert_eq!(situation_of(host), Situation::HostRam);
    let crashed = "My RAM crashes when I embed 10,000 proteins. I have 12GB RAM.";
    assert_eq!(situation_of(crashed), Situation::HostRam);
    let system = "it happens during saving a checkpoint: we run out of system RAM and the OS kills the process";
    assert_eq!(situation_of(system), Situation::HostRam);
}

#[test]
fn shared_memory_that_crashes_or_runs_out_is_no_card_running_out() {
    assert!(mentions_running_out("the gpu memory crashed again"));
    assert!(!mentions_running_out(
        "[bug] shared memory crash running kimi k2 with sglang on 4x rtx 6000"
    ));
    assert!(!mentions_running_out(
        "triton.runtime.errors.outofresources: out of resource: shared memory, required: 106496"
    ));
}

#[test]
fn video_generators_and_the_vae_s_fallback_are_the_diffusion_stack() {
    for text in [
        "Warning: Ran out of memory when regular decoding, retrying with tiled VAE decoding.",
        "The model is based on Stable Video Diffusion (SVD).\ntorch.OutOfMemoryError: CUDA out of memory.",
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 56.50 GiB. GPU\nimage to video, 512x288",
        "File \"n:\\FramePack-Eichi\\system\\python\\lib\\site-packages\\torch\\nn\\parameter.py\", line 68",
        "loading HunyuanVideo transformer\ntorch.OutOfMemoryError: CUDA out of memory.",
        "i had a problem with OOM while the pipeline goes to decoding the latents.",
    ] {
        assert_eq!(
            stack(&text.to_lowercase()),
            Some(Situation::Diffusion),
            "{text}"
        );
    }
}

#[test]
fn reinforcement_learning_of_a_language_model_is_fine_tuning_though_vllm_generates() {
    let text = "verl/trainer/main_ppo.py\nactor_rollout_ref.rollout.name=vllm \
                actor_rollout_ref.rollout.gpu_memory_utilization=0.6 algorithm.adv_estimator=grpo\n\
                torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.";
    assert_eq!(stack(&text.to_lowercase()), Some(Situation::LlmFinetune));
}

#[test]
fn speech_synthesis_is_inference() {
    let tts = "When I tried to synthesize a second sentence, I ran out of CUDA memory.\nRuntimeError: CUDA out of memory. Tried to allocate 6.41 GiB (GPU 0; 10.92 GiB total capacity; 7.46 GiB already allocated; 2.83 GiB free; 7.47 GiB reserved in total by PyTorch)";
    assert_eq!(
        read_situation(&parse(tts), tts),
        (Situation::InferenceOom, false)
    );
}

#[test]
fn typed_words_name_the_situation_in_every_language() {
    let of = |text: &str| read_situation(&parse(text), text).0;
    assert_eq!(
        of("خطأ نفاد ذاكرة وحدة معالجة الرسومات"),
        Situation::TrainingOom
    );
    assert_eq!(of("نفاد ذاكرة MPS على ماك"), Situation::MpsOom);
    assert_eq!(
        of("mémoire insuffisante pendant la validation"),
        Situation::InferenceOom
    );
    assert_eq!(of("मेमोरी खत्म RAM"), Situation::HostRam);
    assert_eq!(of("the room is empty"), Situation::Other);
}

#[test]
fn an_arabic_phrase_is_found_behind_a_glued_conjunction_but_not_inside_a_word() {
    assert!(contains_word("الكرت 8 جيجا ومش مكفي", "مش مكفي"));
    assert!(!contains_word("الكرت 8 جيجا ومامش مكفي", "مش مكفي"));
    assert!(!contains_word("a broom", "oom"));
}

#[test]
fn chinese_characters_do_not_glue_to_the_latin_words_between_them() {
    let oom = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 136.00 MiB. GPU 0 has a total capacity of 31.73 GiB of which 24.69 MiB is free.";
    let lora = format!("在使用LoRA微调大模型的时候出现了显存爆炸的问题\n{oom}");
    assert_eq!(situation_of(&lora), Situation::LlmFinetune);
    assert!(contains_word("一直报显存不足。", "显存不足"));
    assert!(contains_word(
        "报错out of memory,两个数据集",
        "out of memory"
    ));
    // Latin letters still glue to Latin letters.
    assert!(!contains_word("floral", "lora"));
}

#[test]
fn chinese_prose_says_memory_ran_out_grew_or_where() {
    assert_eq!(
        situation_of("训练时验证显存溢出，batch_size设置的很小也会出现"),
        Situation::InferenceOom
    );
    assert_eq!(
        situation_of("我发现每一轮训练内存占用在一直增加，最后程序崩溃"),
        Situation::MemoryGrowth
    );
}

#[test]
fn memory_said_used_up_in_mixed_script_is_running_out() {
    let runs_out = |text: &str| mentions_running_out(&lowered_head(text));
    assert!(runs_out("बड़ी photo बनाते ही memory खत्म"));
    assert!(runs_out("الرام خلصت وهو بيحمل الموديل"));
    assert!(runs_out("la VRAM est pleine des le debut"));
    assert!(runs_out("GPU memory not enough in the evaluation steps"));
    assert!(!runs_out("memory usage is fine, the loss is nan"));
    assert_eq!(
        situation_of("stable diffusion में बड़ी photo बनाते ही memory खत्म"),
        Situation::Diffusion
    );
    // "GPU RAM" is the card's memory, not the host's.
    assert_ne!(
        situation_of("colab me model delete kiya phir bhi gpu ram full dikha rha"),
        Situation::HostRam
    );
}

#[test]
fn a_class_name_glued_from_a_stacks_name_names_the_stack() {
    let oom = "CUDA out of memory. Tried to allocate 524.00 MiB. GPU 0 has a total capacity of 15.77 GiB of which 137.12 MiB is free.";
    let worker = format!(
        "(VllmWorkerProcess pid=90) INFO model_runner_base.py:120] Writing input of failed execution\n{oom}"
    );
    assert_eq!(situation_of(&worker), Situation::LlmServing);
    let vae = format!("{oom}\nUnloaded AutoencoderKLHunyuanVideo as complete.");
    assert_eq!(situation_of(&vae), Situation::Diffusion);
    // An English word that ends like a marker names nothing.
    assert_eq!(stack_of_class_name("attentionunet"), None);
}

#[test]
fn the_trainers_evaluation_hooks_place_the_error_in_evaluation() {
    let oom = "RuntimeError: CUDA out of memory. Tried to allocate 1.53 GiB (GPU 0; 39.59 GiB total capacity; 35.21 GiB already allocated; 1.02 GiB free; 37.11 GiB reserved in total by PyTorch)";
    let hooked = format!(
        "trainer = Seq2SeqTrainer(model=model, args=args, compute_metrics=compute_metrics)\n{oom}"
    );
    assert_eq!(situation_of(&hooked), Situation::InferenceOom);
    let plain = format!("trainer = Seq2SeqTrainer(model=model, args=args)\n{oom}");
    assert_ne!(situation_of(&plain), Situation::InferenceOom);
}

#[test]
fn growth_is_read_from_prose() {
    let grows = |text: &str| growth(&lowered_head(text)).is_some();
    assert!(grows("my GPU keeps using more memory with each iteration"));
    assert!(grows("after 15K training steps, out of memory"));
    assert!(grows("Continuous rising of GPU memory"));
    assert!(grows("显存从最开始的30G一致上涨"));
    assert!(!grows("CUDA out of memory. Tried to allocate 2.00 GiB"));
    // "Rising" inside another word.
    assert!(!grows(
        "it is surprising that it fails with this GPU memory issue"
    ));
}

#[test]
fn a_model_name_with_its_size_glued_on_names_its_stack() {
    assert_eq!(
        stack_of_class_name("hunyuanvideo24g"),
        Some(Situation::Diffusion)
    );
    // Letters that are no size unit are a different word.
    assert_eq!(stack_of_class_name("hunyuanvideoxyz"), None);
}

#[test]
fn generating_a_video_of_any_size_is_diffusion() {
    let text = "my H800 got OOM when generate 768px video\nCUDA out of memory.";
    assert_eq!(situation_of(text), Situation::Diffusion);
    let plain = "my H800 got OOM when generating text\nCUDA out of memory.";
    assert_ne!(situation_of(plain), Situation::Diffusion);
}

#[test]
fn dreambooth_training_is_training_not_generation() {
    let text = "OOM Detected, reducing batch/grad size to 0/2.\nFile \"G:\\AI\\stable-diffusion-webui\\extensions\\sd_dreambooth_extension\\dreambooth\\memory.py\", line 126, in decorator\ntorch.cuda.OutOfMemoryError: CUDA out of memory.";
    assert_eq!(situation_of(text), Situation::TrainingOom);
}

#[test]
fn reaching_validation_places_the_error_there() {
    let text = "when training proceeds to the second validation (8000iters), it occurs: RuntimeError: CUDA out of memory.";
    assert_eq!(situation_of(text), Situation::InferenceOom);
    let during = "it occurs when training: RuntimeError: CUDA out of memory.";
    assert_ne!(situation_of(during), Situation::InferenceOom);
}

#[test]
fn memory_an_oom_left_behind_is_the_recovery_case() {
    let after = "After the OOM in the backward() call, the intermediate tensors are not freed, which will lead to OOM in the following steps. Current memory: 6413632512";
    assert_eq!(situation_of(after), Situation::Recovery);
    let held = "After the script ends the GPU memory is not freed until I restart";
    assert_eq!(situation_of(held), Situation::NotReleased);
    let unloaded = "When unloading models, the server does not fully unload them. Memory is left used on the GPUs.";
    assert_eq!(situation_of(unloaded), Situation::NotReleased);
}

#[test]
fn chinese_not_released_is_the_gpus_memory_only() {
    assert_eq!(
        situation_of("训练进程意外中止时有僵尸进程，无法释放占用显存"),
        Situation::NotReleased
    );
    // 内存 is the host's memory: growing until the process is killed is host RAM.
    assert_eq!(
        situation_of(
            "num_workers 为20时候，内存一直慢慢涨上来，最后被killed了，还是内存没有释放呢？"
        ),
        Situation::HostRam
    );
}

#[test]
fn a_size_in_billions_names_a_language_model() {
    assert!(names_a_language_model("fine-tuning a 7b model on 24gb"));
    assert!(names_a_language_model("qwen2.5-7b"));
    assert!(!names_a_language_model("tried to allocate 24gb"));
}

#[test]
fn typed_sizes_with_more_free_than_asked_read_as_fragmentation() {
    for typed in [
        "il reste 3 Go de libre mais il arrive pas a allouer 500 Mo",
        "card pe 6 gb khali h phir bhi 2 gb nahi mil rahe",
        "الكرت فيه 4 جيجا فاضيه ومش راضي ياخد 700 ميجا",
    ] {
        assert!(free_exceeds_request(&typed.to_lowercase()), "{typed}");
        assert_eq!(situation_of(typed), Situation::Fragmentation, "{typed}");
    }
    // Less free than asked is plainly too little memory; "300M" counts parameters.
    assert!(!free_exceeds_request("only 2 gb free and it wants 6 gb"));
    assert!(!free_exceeds_request("a 300m model with 2 gb free"));
    // A log's figures stand one a line: the line under a limit is not its free memory.
    assert!(!free_exceeds_request(
        "device limit : 14.75 gib\nfree (according to cuda): 27.06 mib\nrequested : 640.00 mib"
    ));
}

#[test]
fn a_phase_the_text_has_left_behind_is_not_where_it_failed() {
    let mut evidence = PhaseEvidence::default();
    count_phase_words(
        "after training, predicting on the test set runs out",
        &mut evidence,
    );
    assert_eq!(evidence.training, 0);
    let mut evidence = PhaseEvidence::default();
    count_phase_words("ट्रेनिंग के बाद test पर memory खत्म", &mut evidence);
    assert_eq!(evidence.training, 0);
    let mut evidence = PhaseEvidence::default();
    count_phase_words("fine tune runs out of memory", &mut evidence);
    assert!(evidence.training > 0);
}

#[test]
fn not_enough_memory_is_read_with_its_dialect_negation() {
    assert!(mentions_running_out("الذاكره ما كافياش"));
    assert!(mentions_running_out("والذاكرة ما تكفي"));
    assert!(mentions_running_out("memory kaafi nahi hai"));
    assert!(!mentions_running_out("الذاكرة كافية"));
}

#[test]
fn memory_that_rises_with_the_steps_is_growth_but_a_rise_at_evaluation_is_the_evaluations_need() {
    assert_eq!(
        situation_of("GPU memory keeps increasing during training until the run dies"),
        Situation::MemoryGrowth
    );
    assert_eq!(
        situation_of(
            "Training needs about 9 GB of GPU memory, but in the evaluation phase the memory usage increases to 27 GB."
        ),
        Situation::InferenceOom
    );
    // Host memory (内存, not 显存) that rises while validating is host RAM running out.
    assert_eq!(
        situation_of("训练阶段内存很稳定，但是验证阶段内存会异常增大，最后 out of memory"),
        Situation::HostRam
    );
}

#[test]
fn raising_a_setting_is_not_memory_that_grows() {
    assert_eq!(
        growth(&lowered_head(
            "Increasing my batch size to 8 gives an OOM in the first epoch"
        )),
        None
    );
    assert_eq!(
        growth(&lowered_head(
            "increasing the input size to 1500 fails in the first epoch"
        )),
        None
    );
    assert_eq!(
        growth(&lowered_head("memory increases after every epoch")),
        Some(Growth::OverSteps)
    );
}

#[test]
fn fragmentation_named_outright_outranks_the_stack_it_happened_in() {
    assert_eq!(
        situation_of("OOM from memory fragmentation in our vLLM colocated GRPO run"),
        Situation::Fragmentation
    );
    assert_eq!(
        situation_of("OOM in our vLLM colocated GRPO run"),
        Situation::LlmFinetune
    );
}

#[test]
fn a_request_larger_than_unused_and_free_memory_together_is_no_fragmentation() {
    // 26.90 − 13.21 = 13.69 GiB reserved unused, half of what PyTorch reserved: by share
    // alone fragmented, yet 13.69 + 8.81 GiB free would not hold 77.40 GiB in one piece.
    let beyond = "RuntimeError: CUDA out of memory. Tried to allocate 77.40 GiB (GPU 0; 38.61 GiB total capacity; 13.21 GiB already allocated; 8.81 GiB free; 26.90 GiB reserved in total by PyTorch)";
    let memory = read_memory(&parse(beyond).facts);
    assert!(memory.request_exceeds_capacity);
    assert!(!memory.fragmented);
    assert_ne!(situation_of(beyond), Situation::Fragmentation);
    let within = beyond.replace("77.40 GiB (", "7.40 GiB (");
    assert!(read_memory(&parse(&within).facts).fragmented);
}

#[test]
fn empty_cache_said_not_to_work_is_memory_not_released() {
    for text in [
        "torch.cuda.empty_cache() is not working",
        "torch.cuda.empty_cache() ne fonctionne pas, la carte reste pleine",
        "empty_cache doesn't free anything after each model",
    ] {
        assert_eq!(situation_of(text), Situation::NotReleased, "{text}");
    }
}

#[test]
fn the_ram_a_text_names_ran_out_whatever_the_stack_save_sharding() {
    let colab = "SDXL RAM Crashed can't run on google colab free OOM memorry\nteacher_checkpoint = torch.load(teacher_checkpoint, map_location='cpu')";
    assert_eq!(situation_of(colab), Situation::HostRam);
    let offload = "deepspeed stage 3 offload on karu to computer ki ram bhar jati h, out of memory";
    assert_eq!(situation_of(offload), Situation::Sharded);
    let card = "SDXL out of memory on my GPU with 8 GB of RAM";
    assert_eq!(situation_of(card), Situation::Diffusion);
}

#[test]
fn the_phase_another_is_compared_against_counts_for_neither() {
    for words in [
        "evaluation uses more memory than training, why?",
        "la prédiction prend plus de mémoire que l'entraînement",
        "التقييم ياكل ذاكره اكثر من التدريب نفسه",
        "التقييم بياكل ميموري اكتر من التدريب",
        "التقييم كيعمر الميموار كثر من التدريب",
        "eval me training se zyada memory lagti h",
    ] {
        let mut evidence = PhaseEvidence::default();
        count_phase_words(&words.to_lowercase(), &mut evidence);
        assert_eq!(evidence.training, 0, "{words}");
        assert!(evidence.is_inference(), "{words}");
    }
}

#[test]
fn asking_how_to_make_a_job_fit_is_about_running_out() {
    for text in [
        "how do I make it fit on my 8 GB card while training",
        "ابا ادرب الموديل وكرتي 8 جيجا، كيف اخليه يكفي",
        "training ke liye 8gb card pe model fit kaise karu",
        "comment faire tenir l'entraînement sur une carte de 8 Go",
        "في طريقه اقلل الذاكره وقت التدريب؟",
        "how can I reduce the memory of this training run",
        "आधी precision पे ट्रेनिंग करूं तो मेमोरी बचेगी क्या",
        "موديل 7 مليار على كارطة 12 جيغا، كيفاش ندخلو",
    ] {
        assert!(mentions_running_out(&text.to_lowercase()), "{text}");
    }
    // A trainer's method is not a question of fit.
    assert!(!mentions_running_out("trainer.fit(model, datamodule=dm)"));
}

#[test]
fn the_graphics_cards_ram_is_no_host_ram() {
    let text = "رام كارت الشاشه بيخلص اول ما ابدا اتدرب الموديل";
    assert_ne!(situation_of(text), Situation::HostRam);
}

#[test]
fn a_card_said_not_up_to_it_ran_out_but_one_missing_or_crashed_did_not() {
    assert!(mentions_running_out("الكرت مش شايل الموديل"));
    assert!(mentions_running_out("la carte ماكافياش"));
    assert!(mentions_running_out("كرت 16 جيجا ومش راضي يكفي"));
    assert!(mentions_running_out("يكراشي بالميموار"));
    // The Maghreb's "fills up", after the card or before it.
    assert!(mentions_running_out("الكارطة تعمر كي نخليه يتنبا"));
    assert!(mentions_running_out("بلا ما تعمر الكارطه"));
    assert!(!mentions_running_out("مافي كرت في الجهاز"));
    assert!(!mentions_running_out("my gpu crashed and the driver reset"));
    assert!(mentions_running_out(
        "my ram crashed while loading the data"
    ));
}

fn phase_only_left_behind(lower: &str, english_name: &str) -> bool {
    PhasesLeftBehind::of(lower).names(english_name)
}

#[test]
fn a_phase_said_only_as_left_behind_or_compared_against_is_not_the_glossed_phase() {
    let after_and_than =
        "ट्रेनिंग के बाद बस टेस्ट डेटा पर नतीजे निकाल रहा हूं फिर भी मेमरी खत्म, ट्रेनिंग से ज्यादा कैसे लग रही";
    assert!(phase_only_left_behind(after_and_than, "training"));
    assert!(!phase_only_left_behind(after_and_than, "evaluation"));
    assert!(phase_only_left_behind(
        "after training, predicting on the test set runs out of memory",
        "training"
    ));
    // Said once as the phase the text is in: the name stands.
    assert!(!phase_only_left_behind(
        "after the first epoch of training the memory runs out",
        "training"
    ));
    // Not a phase's name.
    assert!(!phase_only_left_behind("after training", "memory"));
    // Said to have finished, a few words after "after".
    assert!(phase_only_left_behind(
        "after the training is done, predicting runs out of memory",
        "training"
    ));
    assert!(phase_only_left_behind(
        "بعد ما يخلص التدريب يطلع خطا الذاكره",
        "training"
    ));
    // Denied with a word between: "not during training".
    assert!(phase_only_left_behind(
        "لماذا تنفد الذاكرة عند اختبار النموذج فقط وليس اثناء التدريب",
        "training"
    ));
}

#[test]
fn arabic_although_in_two_words_sets_one_phase_against_the_other() {
    let text = "يبدا يختبر يطلع خطا الذاكره، مع ان التدريب نفسه عادي";
    let splits: Vec<_> = contrast_splits(text).collect();
    assert_eq!(splits.len(), 1);
    assert!(splits[0].1.contains("التدريب نفسه"));
    // «مع» alone is "with".
    assert_eq!(contrast_splits("تدريب مع دفعة كبيرة").count(), 0);
}

#[test]
fn arabic_runs_out_in_any_tense_and_either_spelling() {
    assert!(mentions_running_out("لماذا تنفد الذاكرة عند الاختبار"));
    assert!(mentions_running_out("نفذت الذاكره"));
}

#[test]
fn a_language_model_generating_over_a_long_prompt_or_a_chat_holds_a_kv_cache() {
    for text in [
        "OOM when doing text generation with Yarn-Llama-2-7b-128k, I am using a prompt with 126k tokens on 1 GPU",
        "Gemma 2 9b: generating in the chat script runs out of memory while the generate script fits",
        "qwen 7b 推理时多轮对话后 CUDA out of memory",
    ] {
        assert_eq!(situation_of(text), Situation::LlmServing, "{text}");
    }
    // Evaluating a language model on a benchmark is the evaluation loop's memory.
    let eval = "CUDA out of memory while evaluating llama3 8b on the benchmark, batch size 8";
    assert_eq!(situation_of(eval), Situation::InferenceOom);
}

#[test]
fn unused_memory_barely_the_size_of_the_request_is_a_full_card_not_fragmentation() {
    // 0.61 GiB reserved and unused against a 608 MiB request: a quarter of what PyTorch holds,
    // and no room to spare around the request.
    let barely = parse(
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 608.00 MiB (GPU 0; 8.00 GiB total capacity; 1.64 GiB already allocated; 0 bytes free; 2.25 GiB reserved in total by PyTorch)",
    );
    assert!(!read_memory(&barely.facts).fragmented);
    // Twice the request unused, in the same share of the reserve: no block was big enough.
    let roomy = parse(
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 300.00 MiB (GPU 0; 8.00 GiB total capacity; 1.64 GiB already allocated; 0 bytes free; 2.25 GiB reserved in total by PyTorch)",
    );
    assert!(read_memory(&roomy.facts).fragmented);
}

#[test]
fn fragmented_figures_are_contested_where_the_frames_place_the_error_in_evaluation() {
    let figures = "RuntimeError: CUDA out of memory. Tried to allocate 294.00 MiB (GPU 0; 4.00 GiB total capacity; 2.61 GiB already allocated; 0 bytes free; 3.42 GiB reserved in total by PyTorch)";
    let evaluating = format!(
        "Traceback (most recent call last):\n  File \"tools/test.py\", line 40, in main\n    outputs = single_gpu_test(model, loader)\n  File \"mmdet/apis/test.py\", line 12, in single_gpu_test\n    result = model(return_loss=False, **data)\n{figures}"
    );
    let training = format!(
        "Traceback (most recent call last):\n  File \"train.py\", line 88, in train_one_epoch\n    loss.backward()\n{figures}"
    );
    for (text, contested) in [(evaluating, true), (training, false)] {
        let parsed = parse(&text);
        let situation = read_situation(&parsed, &text).0;
        assert_eq!(situation, Situation::Fragmentation, "{text}");
        let memory = read_memory(&parsed.facts);
        assert_eq!(
            fragmentation_contested(situation, &memory, &parsed, &text),
            contested,
            "{text}"
        );
    }
}

#[test]
fn a_killed_process_that_left_the_cards_memory_held_is_memory_not_released() {
    let held = "后台训练的进程被kill后，仍然占用GPU内存且无法清除";
    assert_eq!(situation_of(held), Situation::NotReleased);
    // Killed, and nothing said of memory held: the host's RAM ran out.
    assert_eq!(
        situation_of("训练到一半进程被kill了，内存满了"),
        Situation::HostRam
    );
}

#[test]
fn a_tuned_model_run_by_an_evaluation_script_through_peft_is_being_run() {
    let oom = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.20 GiB (GPU 0; 23.69 GiB total capacity; 21.02 GiB already allocated; 902.56 MiB free; 21.90 GiB reserved in total by PyTorch)";
    let evaluating = format!(
        "Traceback (most recent call last):\n  File \"evaluate.py\", line 187, in main\n    output = evaluate(instructions)\n  File \"/opt/site-packages/peft/peft_model.py\", line 912, in generate\n    outputs = self.base_model.generate(**kwargs)\n{oom}"
    );
    assert_eq!(situation_of(&evaluating), Situation::InferenceOom);
    // flash-attn's unpadding helper runs in training as well: it says nothing of the phase.
    let packing = format!(
        "Traceback (most recent call last):\n  File \"/workspace/axolotl/src/axolotl/monkeypatch/mistral_attn_hijack_flash.py\", line 228, in flashattn_forward\n    qkv_unpad = generate_qkv(q, k, v)\n  File \"/workspace/axolotl/src/axolotl/monkeypatch/mistral_attn_hijack_flash.py\", line 340, in generate_qkv\n    q_unpad = unpad_input(q, mask)\n{oom}"
    );
    assert_eq!(situation_of(&packing), Situation::LlmFinetune);
}

#[test]
fn memory_rising_on_a_mac_is_the_mps_articles() {
    assert_eq!(
        situation_of("on my macbook the memory keeps increasing every epoch until it crashes"),
        Situation::MpsOom
    );
    assert_eq!(
        situation_of("gpu memory keeps increasing every epoch until it crashes"),
        Situation::MemoryGrowth
    );
}
