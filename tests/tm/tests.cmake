# Command-line tests of nnt tm: the shipped examples (compiled and checked step by step), the
# softmax and float32 paths, and bad input (one line, exit 2).
set(TMEX ${NNT_SRC_DIR}/examples/tm)
nnt_cli_test(tm_run_bb4 0 "steps=107 halt_step=107 nonblank=13" tm run ${TMEX}/bb4.tm --steps 107)
# BB(5)'s champion runs to its halt (47,176,870 steps, 4098 ones: Marxen & Buntrock 1990,
# bbchallenge 2024), and long runs keep no trace unless asked
nnt_cli_test(tm_run_bb5 0 "halt_step=47176870 nonblank=4098" tm run 1RB1LC_1RC1RB_1RD0LE_1LA1LD_1RZ0LA)
nnt_cli_test(tm_trace_needs_out 2 "give --out DIR" tm run 1RB1LB_1LA1RZ --trace)
nnt_cli_test(tm_trace_too_long 2 "at most 10000000\\): trace every 11 steps or more" tm run 1RB0LA_1LA0RB --steps 100000000 --trace --out ${CMAKE_BINARY_DIR}/tm-never)
nnt_cli_test(tm_run_string 0 "halt_step=6 nonblank=4" tm run 1RB1LB_1LA1RZ --steps 10)
nnt_cli_test(tm_compile_bb2 0 "steps_checked=6 mismatches=0" tm compile ${TMEX}/bb2.tm)
nnt_cli_test(tm_compile_bb3 0 "steps_checked=21 mismatches=0" tm compile ${TMEX}/bb3.tm --precision f32)
nnt_cli_test(tm_compile_bb4 0 "exactly binary: yes.*steps_checked=107 mismatches=0" tm compile ${TMEX}/bb4.tm)
nnt_cli_test(tm_compile_bb4_beta 0 "beta_min f64=[0-9.]+ f32=[0-9.]+.*steps_checked=107 mismatches=0"
             tm compile ${TMEX}/bb4.tm --beta-search)
nnt_cli_test(tm_compile_bb4_softmax 0 "steps_checked=107 mismatches=0" tm compile ${TMEX}/bb4.tm --attention softmax --beta 20 --precision f32)
nnt_cli_test(tm_compile_bb4_softmax_low_beta 1 "mismatches=[1-9]" tm compile ${TMEX}/bb4.tm --attention softmax --beta 0.5)
nnt_cli_test(tm_compile_palindrome 0 "\\+1 \\(halted, accept\\).*steps_checked=60 mismatches=0" tm compile ${TMEX}/palindrome.tm --steps 60)
nnt_cli_test(tm_compile_palindrome_reject 0 "-1 \\(reject\\).*steps_checked=40 mismatches=0" tm compile ${TMEX}/palindrome.tm --steps 40 --input abbab)
nnt_cli_test(tm_compile_counter 0 "steps_checked=2000 mismatches=0" tm compile ${TMEX}/counter.tm --steps 2000 --precision f32)
nnt_cli_test(tm_compile_quick 0 "steps_checked=200 mismatches=0" tm compile ${TMEX}/counter.tm --steps 10000 --quick)
nnt_cli_test(tm_bad_state 2 "machine:col 13: undefined state 'C'" tm run 1RB1LB_1LA1RC --steps 5)
nnt_cli_test(tm_bad_symbol 2 "machine:col 1: undefined symbol '2'" tm compile 2RB1LB_1LA1RZ --steps 5)
nnt_cli_test(tm_bad_input 2 "--input:col 2: 'x' is not a symbol" tm run 1RB1LB_1LA1RZ --steps 5 --input 0x)
nnt_cli_test(tm_bad_steps 2 "--steps: 0 is out of range" tm compile 1RB1LB_1LA1RZ --steps 0)
nnt_cli_test(tm_bad_softmax 2 "needs --beta" tm compile 1RB1LB_1LA1RZ --attention softmax)
nnt_cli_test(tm_no_halt 2 "does not halt within 10\\^4 steps" tm compile 1RB0LA_1LA0RB)
nnt_cli_test(tm_bad_sub 2 "unknown subcommand 'frob'" tm frob)
nnt_cli_test(tm_compile_too_long 2 "--steps: 2000000 is out of range" tm compile 1RB1LB_1LA1RZ --steps 2000000)
nnt_cli_test(tm_missing_file 2 "cannot read nope.tm: No such file" tm run nope.tm --steps 5)
nnt_cli_test(tm_bad_text_file 2 "bad_undefined_symbol.tm:6:8: undefined symbol 'c'" tm run ${NNT_SRC_DIR}/tests/tm/bad_undefined_symbol.tm --steps 5)
# The compiled transformer exported (--export) and run in PyTorch (python/nnt/tm.py) against a
# simulator written in the test: BB(4), the palindrome checker, the counter, random machines
# (skipped, with the reason, where python3-torch is missing).
add_test(NAME tm/export_torch
         COMMAND /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider ${NNT_SRC_DIR}/tests/tm/test_export_torch.py)
set_tests_properties(tm/export_torch PROPERTIES LABELS "python" TIMEOUT 600
                     ENVIRONMENT "NNT=${NNT_EXE};NNT_SRC=${NNT_SRC_DIR}" SKIP_REGULAR_EXPRESSION "[0-9]+ skipped in")
nnt_cli_test(tm_export_bad_ext 2 "--export net.onnx: a Turing-machine transformer exports to .safetensors" tm compile 1RB1LB_1LA1RZ --export net.onnx)
nnt_cli_test(tm_dump_too_long 2 "--dump keeps every attention weight .*at most 2000 steps, T is 3000" tm compile ${TMEX}/counter.tm --steps 3000 --dump ${CMAKE_BINARY_DIR}/tm-never)
nnt_cli_test(tm_dump_bad_step 2 "--dump-step 9: the run has steps 0..6" tm compile 1RB1LB_1LA1RZ --dump ${CMAKE_BINARY_DIR}/tm-never --dump-step 9)
nnt_cli_test(bench_tm_torch_bad_python 2 "--python /nonexistent/python3: not an executable" bench tm_torch --python /nonexistent/python3)
# nnt bench tm: its nnt side in the quick mode (every step of BB(2), BB(3) and a parentheses run
# checked against the simulation, in float64 and float32); without --peer-turing, or with a Python
# that cannot import torch, the peer is skipped with one line; a folder that is not a clone of
# jonrbates/turing is refused before any work.
nnt_cli_test(bench_tm_quick 0 "peer skipped: no --peer-turing DIR given.*bb3 +21 +21 +nnt f64 hard [^\n]* 0\n +21 +21 +nnt f32 hard [^\n]* 0\n"
             bench tm --quick --threads 1)
nnt_cli_test(bench_tm_peer_missing 2 "--peer-turing .*/no-turing: no src/turing/wcm/simulator.py there" bench tm --quick --peer-turing ${CMAKE_BINARY_DIR}/no-turing)
file(WRITE ${CMAKE_BINARY_DIR}/fake-turing/src/turing/wcm/simulator.py "# stands in for a clone of jonrbates/turing\n")
nnt_cli_test(bench_tm_no_torch 0 "peer skipped: /bin/false cannot import torch.*parens B\\(\\(\\) +10 +10 +nnt f64 hard"
             bench tm --quick --peer-turing ${CMAKE_BINARY_DIR}/fake-turing --python /bin/false)
# The comparison of the peer's rows, without torch: a stand-in whose runs stop after step 0.
nnt_cli_test(bench_tm_fake_peer 0 "bb2 +6 +6 +nnt f64 hard [^\n]*\n[^\n]*\n +6 +7 +turing f32 [^\n]* 6\n[^\n]*: 6 mismatch.*their decoding, first mismatch at step 1: the run stopped before this step"
             bench tm --quick --peer-turing ${CMAKE_BINARY_DIR}/fake-turing --python ${NNT_SRC_DIR}/tests/tm/fake_turing_python)
# compile refuses a key/value cache that cannot fit before compiling the run (tests/cli/too_big.sh)
nnt_too_big_test(tm_compile 1e9 "tm compile at T = 1000000 needs about [0-9.e+]+ GB, more than the 1 GB .*: lower --steps"
                 tm compile ${NNT_SRC_DIR}/examples/tm/bb4.tm --steps 1000000 --out OUT)
