# Command-line tests of nnt icl (seed 003). Each helper adds its own block below.

# construct: the Theorem-1 transformer against direct projected GD; bad input (one line, exit 2).
set(_icl_o ${CMAKE_BINARY_DIR}/icl-test)
nnt_cli_test(icl_help 0 "construct" icl --help)
nnt_cli_test(icl_construct_identity 0 "token width D=113, 10 layers per GD step.*invariants: w copies identical and scratch zero after every block: yes\nTheorem 1's bound [^\n]*holds on every step\nmax_err=[0-9.]+e-1[3-9] max_bound="
             icl construct --act identity --steps 10 --M 4 --tol 1e-12 --out ${_icl_o}/identity)
nnt_cli_test(icl_construct_sigmoid 0 "   5 +[0-9.]+e-0[345] .* ok\n.*max_err=[0-9.]+e-0[345]" icl construct --act sigmoid --M 32 --steps 5)
nnt_cli_test(icl_construct_tol_fail 1 "max_err=.*exceeds --tol" icl construct --act sigmoid --M 8 --steps 3 --tol 1e-9)
nnt_cli_test(icl_construct_sweep 0 "   3     6    24     32    113 .*\nfit: \\|w_TF-w_GD\\|_2 ~ M\\^-[12]\\.[0-9]+ at N=3 K=6 n=24" icl construct-sweep --M 8,16,32 --steps 5 --out ${_icl_o}/sweep)
nnt_cli_test(icl_construct_sweep_shapes 0 "   2     4    24     16     43 .*\nfit: .* at N=2 K=4 n=24.*\n   4     4    12      8 .*\n   4     4    12     16 .*\nfit: .* at N=4 K=4 n=12" icl construct-sweep --N 2,4 --K 4 --n 24,12 --M 8,16 --steps 3)
nnt_cli_test(icl_construct_bad_N 2 "--N: 1 is out of range" icl construct --N 1)
nnt_cli_test(icl_construct_bad_M 2 "--M: 1 is out of range" icl construct --M 1)
nnt_cli_test(icl_construct_bad_act 2 "--act" icl construct --act swish)
nnt_cli_test(icl_construct_bad_eta 2 "--eta must be > 0" icl construct --eta 0)
nnt_cli_test(icl_construct_bad_gate 1 "reaches the gate G" icl construct --act identity --gate 0.001 --steps 2)
nnt_cli_test(icl_construct_too_large 2 "construction too large: ~2.7e\\+10 flops per GD step" icl construct --dx 20 --K 200 --N 6)

# eval
# Acceptance 17 at the paper's task size: ~5 s per run in Release, far longer under the sanitizers.
foreach(t icl/test_eval_paper icl/test_eval_paper@generic icl/test_eval_paper@avx2 icl/test_eval_paper@avx512)
  if(TEST ${t})
    set_tests_properties(${t} PROPERTIES LABELS "unit;slow")
  endif()
endforeach()
nnt_cli_test(icl_baselines_help 0 "prompt mean.*--direct-k" icl baselines --help)
nnt_cli_test(icl_baselines_bad_mix 2 "--mix: 1.5 is out of range" icl baselines --mix 0,1.5 --out ${_icl_o}/never)
nnt_cli_test(icl_baselines_bad_prompts 2 "--prompts \\(100\\) must be a positive multiple of --batch \\(64\\)" icl baselines --prompts 100 --out ${_icl_o}/never)
nnt_cli_test(icl_baselines_bad_k 2 "--direct-k: 20 is not a position 0..19" icl baselines --n 20 --direct-k 5,20 --out ${_icl_o}/never)
nnt_cli_test(icl_baselines_bad_depth 2 "--depth: 1 is out of range" icl baselines --depth 1 --out ${_icl_o}/never)
nnt_cli_test(icl_eval_no_model 2 "--model DIR/model.ckpt is required" icl eval --out ${_icl_o}/never)
# --quick alone: a micro model trained in a scratch folder, evaluated, the folder removed
nnt_cli_test(icl_eval_quick_alone 0 "check_options|options ok" icl eval --quick --check-options)
nnt_cli_test(icl_eval_missing_model 2 "model.ckpt" icl eval --model ${_icl_o}/none/model.ckpt --out ${_icl_o}/never)
nnt_cli_test(icl_depth_no_models 2 "give --models .* or --layers" icl sweep-depth --out ${_icl_o}/never)
# (no ';' in a regex: CMake splits the argument there and the check would test only what precedes it)
nnt_cli_test(icl_depth_layers_slots 2 "--n 46 needs 92 position slots. the micro preset has 80" icl sweep-depth --layers 1,2 --preset micro --out ${_icl_o}/never)
nnt_cli_test(icl_depth_layers_prompts 2 "--prompts \\(100\\) must be a positive multiple" icl sweep-depth --layers 1,2 --preset micro --prompts 100 --examples 5 --out ${_icl_o}/never)
# A small run: every predictor on both mixtures, direct training only at k = 2 ("-" elsewhere).
nnt_cli_test(icl_baselines_quick 0 "0\\.5 N\\(\\+mu,I\\)[^\n]*\n +k +mean +ridge +knn3 +direct_best +direct_final\n[^\n]*\n   1 +-?[0-9.]+ \\(-?[0-9.]+\\) +-?[0-9.]+ \\(-?[0-9.]+\\) +-?[0-9.]+ \\(-?[0-9.]+\\) +- +-\n   2 +-?[0-9.]+ \\(-?[0-9.]+\\) +-?[0-9.]+ \\(-?[0-9.]+\\) +-?[0-9.]+ \\(-?[0-9.]+\\) +-?[0-9.]+ \\(-?[0-9.]+\\) +-?[0-9.]+ \\(-?[0-9.]+\\)\n.*0 points stored, 4 computed"
             icl baselines --quick --n 12 --prompts 64 --batch 32 --mix 0,0.5 --direct-k 2 --force --out ${_icl_o}/baselines)

# train (GPT-2 in-context learner)
nnt_cli_test(icl_train_micro 0 "micro preset, relu attention.*final_loss=" icl train --preset micro --attn relu --steps 100 --force --threads 1 --out ${CMAKE_BINARY_DIR}/icl-train-micro)
# no --out: trains in memory and writes nothing (tests/icl/no_out.sh); --export needs the checkpoint's folder
add_test(NAME icl/no_out COMMAND bash ${NNT_SRC_DIR}/tests/icl/no_out.sh ${NNT_EXE} ${CMAKE_BINARY_DIR}/icl-no-out)
set_tests_properties(icl/no_out PROPERTIES LABELS cli TIMEOUT 300)
nnt_cli_test(icl_train_export_no_out 2 "--export: give --out DIR" icl train --quick --steps 5 --export m.safetensors)
nnt_cli_test(icl_train_bad_attn 2 "--attn: 'linear' is not one of" icl train --attn linear --out ${CMAKE_BINARY_DIR}/icl-never)
nnt_cli_test(icl_train_bad_ckpt 2 "must be a positive multiple of the log interval" icl train --preset micro --ckpt-every 15 --out ${CMAKE_BINARY_DIR}/icl-never)
nnt_cli_test(icl_train_bad_depth 2 "--target-depth: 1 is out of range" icl train --target-depth 1 --out ${CMAKE_BINARY_DIR}/icl-never)
nnt_cli_test(icl_train_nan 1 "step [0-9]+, (loss: non-finite loss|tensor [a-z0-9_.]+: non-finite gradient) .*the last checkpoint" icl train --preset micro --lr 1e9 --ckpt-every 10 --force --threads 1 --out ${CMAKE_BINARY_DIR}/icl-train-nan)
add_test(NAME icl/train_kill_resume COMMAND bash ${NNT_SRC_DIR}/tests/icl/train_kill_resume.sh ${NNT_EXE} ${CMAKE_BINARY_DIR}/icl-kill)
set_tests_properties(icl/train_kill_resume PROPERTIES LABELS "cli;slow" TIMEOUT 120)
add_test(NAME icl/train_nan_resume COMMAND bash ${NNT_SRC_DIR}/tests/icl/train_nan.sh ${NNT_EXE} ${CMAKE_BINARY_DIR}/icl-nan-resume)
set_tests_properties(icl/train_nan_resume PROPERTIES LABELS cli TIMEOUT 60)
add_test(NAME icl/train_micro COMMAND bash ${NNT_SRC_DIR}/tests/icl/train_micro.sh ${NNT_EXE} ${CMAKE_BINARY_DIR}/icl-micro)
set_tests_properties(icl/train_micro PROPERTIES LABELS "cli;slow" TIMEOUT 120)
add_test(NAME icl/eval_model COMMAND bash ${NNT_SRC_DIR}/tests/icl/eval_model.sh ${NNT_EXE} ${CMAKE_BINARY_DIR}/icl-eval-model)
set_tests_properties(icl/eval_model PROPERTIES LABELS cli TIMEOUT 120)

# --quick alone is a complete setting for every command: sweep-depth's default examples fit the quick
# preset's model; a 0 that would mean "the preset's" is refused.
add_test(NAME cli/icl_sweep_depth_quick
         COMMAND sh -c "rm -rf $1 && $0 icl sweep-depth --quick --layers 2,4 --out $1 >/dev/null && test -s $1/depth.csv"
                 ${NNT_EXE} ${CMAKE_BINARY_DIR}/icl-sweep-depth-quick)
set_tests_properties(cli/icl_sweep_depth_quick PROPERTIES LABELS cli TIMEOUT 600)
# --curriculum reaches the models sweep-depth trains (the checkpoint's meta records what trained it)
add_test(NAME cli/icl_sweep_depth_curriculum
         COMMAND sh -c "rm -rf $1 && $0 icl sweep-depth --layers 1 --preset micro --steps 20 --curriculum garg --curriculum-steps 10 --examples 2,5 --quick --out $1 >/dev/null && grep -aq '\"curriculum\":\"garg\",\"curriculum_steps\":10,' $1/L1/model.ckpt"
                 ${NNT_EXE} ${CMAKE_BINARY_DIR}/icl-sweep-depth-curriculum)
set_tests_properties(cli/icl_sweep_depth_curriculum PROPERTIES LABELS cli TIMEOUT 600)
nnt_cli_test(icl_train_steps_zero 2 "--steps: 0 is out of range" icl train --steps 0 --out ${CMAKE_BINARY_DIR}/icl-never)
# the curriculum: a micro run's schedule row by row, and resume across it bit-exact
add_test(NAME icl/train_curriculum COMMAND bash ${NNT_SRC_DIR}/tests/icl/train_curriculum.sh ${NNT_EXE} ${CMAKE_BINARY_DIR}/icl-curriculum)
set_tests_properties(icl/train_curriculum PROPERTIES LABELS cli TIMEOUT 120)
nnt_cli_test(icl_train_bad_curriculum 2 "--curriculum: 'linear' is not one of" icl train --curriculum linear --out ${CMAKE_BINARY_DIR}/icl-never)
nnt_cli_test(icl_train_task_opts 0 "final_loss=" icl train --preset micro --steps 20 --d 3 --points 12 --target-width 8 --target-act tanh --mu 1 --mu2 3 --mix2 0.2 --per-prompt --noise 0.1 --force --threads 1 --out ${CMAKE_BINARY_DIR}/icl-train-opts)
# Theorem 1's bound beside the measured error: holds on every step for the four covered activations,
# and a bound made too small (--bound-scale) is a failed check (exit 1)
foreach(_act sigmoid tanh softplus identity)
  nnt_cli_test(icl_construct_bound_${_act} 0 "holds on every step\nmax_err=[0-9.e+-]+ max_bound=[0-9.]+e[+-][0-9]+" icl construct --act ${_act} --M 32 --steps 6)
endforeach()
nnt_cli_test(icl_construct_bound_fail 1 "FAILS at step 1.*\nmax_err=.*exceeds Theorem 1's bound" icl construct --act sigmoid --M 32 --steps 3 --bound-scale 1e-4)
nnt_cli_test(icl_construct_bound_gelu 0 "not evaluated \\(gelu.*\nmax_err=[0-9.e+-]+ max_bound=nan" icl construct --act gelu --M 16 --steps 2)

# export: the trained GPT (micro, 60 steps) and the construction as .safetensors, loaded in PyTorch
# (python/nnt/icl.py): predictions equal nnt's within 1e-5 (nnt's from gpt_predict), the
# construction's GD against projected GD by torch autograd (skipped, with the reason, without
# python3-torch).
add_executable(icl_gpt_predict ${NNT_SRC_DIR}/tests/icl/gpt_predict.c)
target_link_libraries(icl_gpt_predict PRIVATE nnt_icl)
add_test(NAME icl/export_torch
         COMMAND /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider ${NNT_SRC_DIR}/tests/icl/test_export_torch.py)
set_tests_properties(icl/export_torch PROPERTIES LABELS "python" TIMEOUT 600 SKIP_REGULAR_EXPRESSION "[0-9]+ skipped in"
                     ENVIRONMENT "NNT=${NNT_EXE};NNT_SRC=${NNT_SRC_DIR};NNT_GPT_PREDICT=$<TARGET_FILE:icl_gpt_predict>")
# the GPT as ONNX in onnxruntime-node (tests/onnx/ort.py; not nnt): predictions equal nnt's within
# 1e-5; skipped, with the reason, only where node or npm is missing
add_test(NAME icl/export_onnx
         COMMAND /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider ${NNT_SRC_DIR}/tests/icl/test_export_onnx.py)
set_tests_properties(icl/export_onnx PROPERTIES LABELS "python" TIMEOUT 600 SKIP_REGULAR_EXPRESSION "[0-9]+ skipped in"
                     ENVIRONMENT "NNT=${NNT_EXE};NNT_SRC=${NNT_SRC_DIR};NNT_GPT_PREDICT=$<TARGET_FILE:icl_gpt_predict>;NNT_NODE_DIR=${NNT_NODE_DIR}")
# nnt export INPUT --to FILE (nnt-mlp, nnt-mlp-sparse, model.ckpt) in onnxruntime-node; bad inputs
add_test(NAME export/convert
         COMMAND /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider ${NNT_SRC_DIR}/tests/onnx/test_export_cmd.py)
set_tests_properties(export/convert PROPERTIES LABELS "python" TIMEOUT 600 SKIP_REGULAR_EXPRESSION "[0-9]+ skipped in"
                     ENVIRONMENT "NNT=${NNT_EXE};NNT_SRC=${NNT_SRC_DIR};NNT_GPT_PREDICT=$<TARGET_FILE:icl_gpt_predict>;NNT_NODE_DIR=${NNT_NODE_DIR}")
nnt_cli_test(icl_train_export_bad_ext 2 "--export m.pt: the model exports to .safetensors or .onnx" icl train --preset micro --export m.pt --out ${CMAKE_BINARY_DIR}/icl-never)
nnt_cli_test(icl_construct_export_bad_ext 2 "--export c.json: the construction exports to .safetensors" icl construct --quick --export c.json)
nnt_cli_test(icl_construct_export_too_large 2 "--export: the dense export would take [0-9.]+ GB" icl construct --K 200 --n 4 --M 8 --steps 1 --export ${CMAKE_BINARY_DIR}/icl-never.safetensors)
# icl figures: Figures 1–3 from real runs' CSVs (values checked against r2.csv and depth.csv), --quick, bad input
add_test(NAME icl/figures COMMAND bash ${NNT_SRC_DIR}/tests/icl/figures.sh ${NNT_EXE} ${CMAKE_BINARY_DIR}/icl-figures)
set_tests_properties(icl/figures PROPERTIES LABELS cli TIMEOUT 600)
# --quick without --out: the micro models train in a scratch folder under /tmp, removed at the end;
# the figures' numbers reach the console and nothing is written where the command runs
add_test(NAME icl/figures_no_out
         COMMAND sh -c "rm -rf $1 && mkdir -p $1 && cd $1 && before=$(ls -d /tmp/nnt-icl-figures-* 2>/dev/null | wc -l) && $0 icl figures --quick --steps 5 > ../figures-no-out.log 2>&1 && grep -q '^Figure 3: R' ../figures-no-out.log && grep -q '^fig2_softmax_td3: softmax attention' ../figures-no-out.log && [ -z \"$(ls -A)\" ] && [ $(ls -d /tmp/nnt-icl-figures-* 2>/dev/null | wc -l) -eq $before ]"
         ${NNT_EXE} ${CMAKE_BINARY_DIR}/icl-figures-no-out)
set_tests_properties(icl/figures_no_out PROPERTIES LABELS cli TIMEOUT 600)
# sweep-depth --quick alone trains in a scratch folder that is removed: its table names the models by depth,
# never by a path that no longer exists, and no scratch folder is left
add_test(NAME icl/sweep_depth_no_out
         COMMAND sh -c "rm -rf $1 && mkdir -p $1 && cd $1 && before=$(ls -d /tmp/nnt-icl-quick-* 2>/dev/null | wc -l) && $0 icl sweep-depth --quick > ../depth-no-out.log 2>/dev/null && grep -q '^micro L1 (not kept) ' ../depth-no-out.log && grep -q '^micro L2 (not kept) ' ../depth-no-out.log && ! grep -q /tmp/ ../depth-no-out.log && [ -z \"$(ls -A)\" ] && [ $(ls -d /tmp/nnt-icl-quick-* 2>/dev/null | wc -l) -eq $before ]"
                 ${NNT_EXE} ${CMAKE_BINARY_DIR}/icl-depth-no-out)
set_tests_properties(icl/sweep_depth_no_out PROPERTIES LABELS cli TIMEOUT 600)
# the task options in run.json and the checkpoint; icl eval on the model's own task unless overridden
add_test(NAME icl/task_opts COMMAND bash ${NNT_SRC_DIR}/tests/icl/task_opts.sh ${NNT_EXE} ${CMAKE_BINARY_DIR}/icl-task-opts)
set_tests_properties(icl/task_opts PROPERTIES LABELS cli TIMEOUT 120)
# run.json of icl construct carries its result (max_err and the checks), not only the options
add_test(NAME cli/icl_construct_run_json
         COMMAND sh -c "rm -rf $1 && $0 icl construct --quick --out $1 >/dev/null && tr -d '\\n\\t' < $1/run.json | grep -q '\"result\":{\"D\":113,[^}]*\"max_err\":[0-9.e-]*,[^}]*\"bound_ok\":true'"
         ${NNT_EXE} ${CMAKE_BINARY_DIR}/icl-construct-run-json)
set_tests_properties(cli/icl_construct_run_json PROPERTIES LABELS "cli" TIMEOUT 300)
# train, sweep-depth and the evaluations refuse a size that cannot fit before any work (tests/cli/too_big.sh)
nnt_too_big_test(icl_train 8e9 "icl train \\(2 layers, width 32, batch 100000 x 100000 points\\) needs about [0-9.e+]+ GB, more than the 8 GB .*: lower --batch"
                 icl train --quick --batch 100000 --points 100000 --out OUT)
nnt_too_big_test(icl_sweep_depth 8e9 "the evaluation \\(batch 100000 x 21 points, d = 5\\) needs about [0-9.e+]+ GB, more than the 8 GB .*: lower --batch or --n"
                 icl sweep-depth --quick --layers 2 --batch 100000 --prompts 100000 --out OUT)
nnt_too_big_test(icl_baselines 8e9 "the evaluation \\(batch 100000 x 200 points, d = 4096\\) needs about [0-9.e+]+ GB.*: lower --batch or --n"
                 icl baselines --quick --d 4096 --n 200 --batch 100000 --prompts 100000 --out OUT)
