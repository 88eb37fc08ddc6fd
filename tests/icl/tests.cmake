# Command-line tests of nnt icl (seed 003). Each helper adds its own block below.

# construct
nnt_cli_test(icl_help 0 "construct" icl --help)

# train (GPT-2 in-context learner)
nnt_cli_test(icl_train_micro 0 "micro preset, relu attention.*final_loss=" icl train --preset micro --attn relu --steps 100 --force --threads 1 --out ${CMAKE_BINARY_DIR}/icl-train-micro)
nnt_cli_test(icl_train_no_out 2 "--out DIR is required" icl train --preset micro)
nnt_cli_test(icl_train_bad_attn 2 "--attn: 'linear' is not one of" icl train --attn linear --out ${CMAKE_BINARY_DIR}/icl-never)
nnt_cli_test(icl_train_bad_ckpt 2 "must be a positive multiple of the log interval" icl train --preset micro --ckpt-every 15 --out ${CMAKE_BINARY_DIR}/icl-never)
nnt_cli_test(icl_train_bad_depth 2 "--target-depth: 1 is out of range" icl train --target-depth 1 --out ${CMAKE_BINARY_DIR}/icl-never)
nnt_cli_test(icl_train_nan 2 "loss is (NaN|\\+?Inf|-Inf) at step [0-9]+ .the last checkpoint" icl train --preset micro --lr 1e9 --ckpt-every 10 --force --threads 1 --out ${CMAKE_BINARY_DIR}/icl-train-nan)
add_test(NAME icl/train_kill_resume COMMAND bash ${NNT_SRC_DIR}/tests/icl/train_kill_resume.sh ${NNT_EXE} ${CMAKE_BINARY_DIR}/icl-kill)
set_tests_properties(icl/train_kill_resume PROPERTIES LABELS "cli;slow" TIMEOUT 120)
add_test(NAME icl/train_micro COMMAND bash ${NNT_SRC_DIR}/tests/icl/train_micro.sh ${NNT_EXE} ${CMAKE_BINARY_DIR}/icl-micro)
set_tests_properties(icl/train_micro PROPERTIES LABELS "cli;slow" TIMEOUT 120)
