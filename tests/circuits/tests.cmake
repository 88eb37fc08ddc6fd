# Command-line tests of nnt circuit: every shipped example compiled and checked exhaustively,
# with and without correction layers; a compile/load round trip; bad input; margin presets.
set(EX ${NNT_SRC_DIR}/examples/circuits)
set(BAD ${NNT_SRC_DIR}/tests/circuits/bad)
foreach(f fulladder.bench fulladder.blif fulladder.aag mux4.blif majority5.blif parity8.bench compare4.aag)
  nnt_cli_test(circuit_verify_${f} 0 "inputs_checked=[0-9]+ mismatches=0 mode=exhaustive"
               circuit verify ${EX}/${f})
  nnt_cli_test(circuit_verify_correct_${f} 0 "inputs_checked=[0-9]+ mismatches=0 mode=exhaustive"
               circuit verify ${EX}/${f} --correct)
endforeach()
# the 20-input adder: all 2^20 inputs
nnt_cli_test(circuit_verify_adder10 0 "inputs=20 outputs=11.*inputs_checked=1048576 mismatches=0 mode=exhaustive"
             circuit verify ${EX}/adder10.bench)
nnt_cli_test(circuit_verify_correct_adder10 0 "correct=1.*inputs_checked=1048576 mismatches=0 mode=exhaustive"
             circuit verify ${EX}/adder10.bench --correct)
# Exhaustive 2^20 checks: minutes under the sanitizers, so the ASan pass skips them (label slow).
set_tests_properties(cli/circuit_verify_adder10 cli/circuit_verify_correct_adder10 PROPERTIES LABELS "cli;slow")
nnt_cli_test(circuit_verify_random_mode 0 "inputs_checked=5000 mismatches=0 mode=random"
             circuit verify ${EX}/adder10.bench --exhaustive-max 10 --samples 5000)
# c432 (ISCAS-85, 36 inputs) from the shared reference folder when present (not shipped: no licence text)
if(EXISTS ${NNT_SRC_DIR}/../shared/reference/circuits/c432.bench)
  nnt_cli_test(circuit_verify_c432 0 "inputs=36 outputs=7.*inputs_checked=100000 mismatches=0 mode=random"
               circuit verify ${NNT_SRC_DIR}/../shared/reference/circuits/c432.bench)
  nnt_cli_test(circuit_verify_c432_correct 0 "inputs_checked=100000 mismatches=0 mode=random"
               circuit verify ${NNT_SRC_DIR}/../shared/reference/circuits/c432.bench --correct)
endif()
# compile to a file, then verify the file's net (it must reload bit for bit)
add_test(NAME cli/circuit_compile_roundtrip
         COMMAND sh -c "rm -f $2 && $0 circuit compile $1 --correct --save $2 && $0 circuit verify $1 --net $2 | grep -q 'mismatches=0 mode=exhaustive'"
                 ${NNT_EXE} ${EX}/compare4.aag ${CMAKE_BINARY_DIR}/circuit-compare4.json)
set_tests_properties(cli/circuit_compile_roundtrip PROPERTIES LABELS cli)
# a wrong net must fail verification with exit 1: the full adder's net checked against the same
# adder with its outputs swapped.
add_test(NAME cli/circuit_verify_mismatch
         COMMAND sh -c "$0 circuit compile $1 --save $3 && $0 circuit verify $1 --net $3 >/dev/null && $0 circuit verify $2 --net $3; test $? -eq 1"
                 ${NNT_EXE} ${EX}/fulladder.bench ${NNT_SRC_DIR}/tests/circuits/swapped_outputs.bench ${CMAKE_BINARY_DIR}/circuit-fa.json)
set_tests_properties(cli/circuit_verify_mismatch PROPERTIES LABELS cli)
nnt_cli_test(circuit_net_shape 2 "the net maps 3 inputs to 2 outputs" circuit verify ${EX}/mux4.blif --net ${CMAKE_BINARY_DIR}/circuit-fa.json)
set_tests_properties(cli/circuit_net_shape PROPERTIES DEPENDS cli/circuit_verify_mismatch)
# bad input: one line with file:line, exit 2
nnt_cli_test(circuit_bad_cycle_bench 2 "cycle.bench:4: combinational cycle through signal .y." circuit verify ${BAD}/cycle.bench)
nnt_cli_test(circuit_bad_undefined_bench 2 "undefined.bench:3: signal 'b' is used but never defined" circuit verify ${BAD}/undefined.bench)
nnt_cli_test(circuit_bad_dff 2 "dff.bench:3: flip-flop DFF" circuit verify ${BAD}/dff.bench)
nnt_cli_test(circuit_bad_gate 2 "unknown_gate.bench:3: unknown gate type 'MAJ'" circuit verify ${BAD}/unknown_gate.bench)
nnt_cli_test(circuit_bad_malformed 2 "malformed.bench:3:" circuit verify ${BAD}/malformed.bench)
nnt_cli_test(circuit_bad_latch_blif 2 "latch.blif:4: .latch: sequential" circuit verify ${BAD}/latch.blif)
nnt_cli_test(circuit_bad_cube 2 "badcube.blif:5: cube character" circuit verify ${BAD}/badcube.blif)
nnt_cli_test(circuit_bad_undefined_blif 2 "undefined.blif:4: signal 'z'" circuit verify ${BAD}/undefined.blif)
nnt_cli_test(circuit_bad_latch_aag 2 "latch.aag:1: 1 latches" circuit verify ${BAD}/latch.aag)
nnt_cli_test(circuit_bad_cycle_aag 2 "cycle.aag:[0-9]+: combinational cycle" circuit verify ${BAD}/cycle.aag)
nnt_cli_test(circuit_bad_literal 2 "badlit.aag:4: literal 8 exceeds" circuit verify ${BAD}/badlit.aag)
nnt_cli_test(circuit_bad_truncated 2 "truncated.aag:4: unexpected end of file" circuit verify ${BAD}/truncated.aag)
nnt_cli_test(circuit_bad_ext 2 "unknown circuit format" circuit verify ${NNT_SRC_DIR}/README.md)
nnt_cli_test(circuit_missing 2 "cannot read /nonexistent.bench: No such file" circuit verify /nonexistent.bench)
nnt_cli_test(circuit_no_file 2 "missing argument" circuit verify)
nnt_cli_test(circuit_compile_no_out 2 "--save FILE or --export FILE is required" circuit compile ${EX}/mux4.blif)
nnt_cli_test(circuit_compile_out_dir 2 "writes no folder" circuit compile ${EX}/mux4.blif --out x.json)
nnt_cli_test(circuit_bad_sub 2 "unknown subcommand" circuit frobnicate)
nnt_cli_test(circuit_bad_samples 2 "--samples" circuit verify ${EX}/mux4.blif --samples 0)
# margin: file mode and the quick depth sweep; a bad option leaves no folder behind
nnt_cli_test(circuit_margin_file 0 "margin compiled\\+correction +min=" circuit margin ${EX}/fulladder.bench --quick
             --out ${CMAKE_BINARY_DIR}/circuit-margin-fa)
nnt_cli_test(circuit_margin_sweep 0 "median_rho_corrected" circuit margin --quick --depths 1,4 --force --out ${CMAKE_BINARY_DIR}/circuit-margin-sweep)
nnt_cli_test(circuit_margin_random 0 "random circuits: 1 x 2 inputs" circuit margin --family random --depths 2 --circuits 1 --inputs 2 --force
             --out ${CMAKE_BINARY_DIR}/circuit-margin-random)
nnt_cli_test(circuit_margin_bad_family 2 "--family: .x. is not one of chain.random" circuit margin --family x)
nnt_cli_test(circuit_margin_bad_output 2 "--output: the circuit has 2 outputs" circuit margin ${EX}/fulladder.bench --output 5
             --out ${CMAKE_BINARY_DIR}/circuit-margin-never)
# learnability: a tiny preset on a shipped circuit, then the all-layer margin of a trained net
add_test(NAME cli/circuit_learn_then_margin
         COMMAND sh -c "rm -rf $2 $3 && $0 circuit learn $1 --quick --widths 1,2 --samples 32,128 --steps 100 --test 256 --out $2 && test -f $2/learn.csv && test -f $2/learn_error.png && $0 circuit margin $1 --net $2/trained_w34.json --logit --inputs 3 --out $3 | grep -q 'margin net .*min='"
                 ${NNT_EXE} ${EX}/compare4.aag ${CMAKE_BINARY_DIR}/circuit-learn ${CMAKE_BINARY_DIR}/circuit-learn-margin)
set_tests_properties(cli/circuit_learn_then_margin PROPERTIES LABELS cli)
nnt_cli_test(circuit_learn_bad_widths 2 "--widths" circuit learn --widths 0 --out ${CMAKE_BINARY_DIR}/circuit-learn-never)
nnt_cli_test(circuit_learn_bad_optim 2 "--optim: .nope. is not one of adam.sgd" circuit learn --optim nope --out ${CMAKE_BINARY_DIR}/circuit-learn-never)
nnt_cli_test(circuit_learn_bad_bit 2 "--bit: the circuit has 1 outputs" circuit learn ${EX}/mux4.blif --bit 3
             --out ${CMAKE_BINARY_DIR}/circuit-learn-never)
nnt_cli_test(circuit_no_sub 2 "missing subcommand" circuit)
# Resume after kill -9: a learn run killed once its first checkpoints exist, rerun with --resume,
# ends with the CSV (timings dropped) of an uninterrupted run; without --resume or --force the
# folder of a run is refused.
add_test(NAME cli/circuit_learn_kill_resume
         COMMAND sh ${NNT_SRC_DIR}/tests/circuits/kill_resume.sh ${NNT_EXE} ${EX}/compare4.aag ${CMAKE_BINARY_DIR}/circuit-learn-kill)
set_tests_properties(cli/circuit_learn_kill_resume PROPERTIES LABELS cli TIMEOUT 300)
# A NaN injected at a training step: exit 1, one line naming the step and tensor, the checkpoint
# before it intact, --resume from it identical to an uninterrupted run.
add_test(NAME cli/circuit_learn_nan_resume
         COMMAND sh ${NNT_SRC_DIR}/tests/circuits/train_nan.sh ${NNT_EXE} ${EX}/compare4.aag ${CMAKE_BINARY_DIR}/circuit-learn-nan)
set_tests_properties(cli/circuit_learn_nan_resume PROPERTIES LABELS cli TIMEOUT 60)
# The array multipliers (scripts/gen_multiplier.py): direct evaluation and the compiled nets (sparse
# forward, with and without correction layers) against integer multiplication.
add_executable(circuits_check_multiplier ${NNT_SRC_DIR}/tests/circuits/check_multiplier.c)
target_link_libraries(circuits_check_multiplier PRIVATE nnt_circuits m)
target_include_directories(circuits_check_multiplier PRIVATE ${NNT_SRC_DIR}/tests)
add_test(NAME circuits/multiplier16 COMMAND circuits_check_multiplier ${EX}/mul16.bench 16 10000)
add_test(NAME circuits/multiplier32 COMMAND circuits_check_multiplier ${EX}/mul32.bench 32 20000)
set_tests_properties(circuits/multiplier16 PROPERTIES LABELS unit TIMEOUT ${NNT_UNIT_TIMEOUT})
# The larger ISCAS-85 circuits are not shipped (no licence text); point NNT_ISCAS_DIR at a folder
# holding c6288.bench (the 16 x 16 multiplier, whose file lists product bits 31 and 30 in that
# order) and c7552.bench to check them: c6288 against integer multiplication, both through the CLI.
set(NNT_ISCAS_DIR "${NNT_SRC_DIR}/../shared/reference/circuits" CACHE PATH "folder with ISCAS-85 .bench files for optional tests")
if(EXISTS ${NNT_ISCAS_DIR}/c6288.bench)
  set(order "")
  foreach(j RANGE 29)
    string(APPEND order "${j},")
  endforeach()
  add_test(NAME circuits/iscas_c6288 COMMAND circuits_check_multiplier ${NNT_ISCAS_DIR}/c6288.bench 16 100000 "${order}31,30")
  set_tests_properties(circuits/iscas_c6288 PROPERTIES LABELS unit)
  nnt_cli_test(circuit_verify_c6288 0 "inputs=32 outputs=32 gates=2416.*inputs_checked=100000 mismatches=0 mode=random"
               circuit verify ${NNT_ISCAS_DIR}/c6288.bench)
  nnt_cli_test(circuit_verify_c6288_correct 0 "net: correct=1.*inputs_checked=100000 mismatches=0 mode=random"
               circuit verify ${NNT_ISCAS_DIR}/c6288.bench --correct)
endif()
if(EXISTS ${NNT_ISCAS_DIR}/c7552.bench)
  nnt_cli_test(circuit_verify_c7552 0 "inputs=207 outputs=108 gates=3512.*inputs_checked=100000 mismatches=0 mode=random"
               circuit verify ${NNT_ISCAS_DIR}/c7552.bench)
  nnt_cli_test(circuit_verify_c7552_correct 0 "net: correct=1.*inputs_checked=100000 mismatches=0 mode=random"
               circuit verify ${NNT_ISCAS_DIR}/c7552.bench --correct)
endif()
set_tests_properties(circuits/multiplier32 PROPERTIES LABELS "unit;slow" TIMEOUT ${NNT_UNIT_TIMEOUT})
# 32 x 32 (6,000 gates, a 155 M-parameter dense net) on 10^5 random inputs through the CLI
nnt_cli_test(circuit_verify_mul32 0 "inputs=64 outputs=64 gates=5888.*params=155399504 nonzero=218812.*inputs_checked=100000 mismatches=0 mode=random"
             circuit verify ${EX}/mul32.bench)
set_tests_properties(cli/circuit_verify_mul32 PROPERTIES LABELS "cli;slow")
# sparse files: compile, reload and verify (with corrections); auto picks sparse above 10^6 parameters
add_test(NAME cli/circuit_compile_sparse_roundtrip
         COMMAND sh -c "rm -f $2 && $0 circuit compile $1 --correct --format sparse --save $2 | grep -q 'nnt-mlp-sparse' && grep -q '\"format\": \"nnt-mlp-sparse\"' $2 && $0 circuit verify $1 --net $2 | grep -q 'mismatches=0 mode=exhaustive'"
                 ${NNT_EXE} ${EX}/adder10.bench ${CMAKE_BINARY_DIR}/circuit-adder10-sparse.json)
set_tests_properties(cli/circuit_compile_sparse_roundtrip PROPERTIES LABELS "cli;slow")
add_test(NAME cli/circuit_compile_auto_sparse
         COMMAND sh -c "rm -f $2 && $0 circuit compile $1 --save $2 | grep -q 'wrote .* (nnt-mlp-sparse)' && $0 circuit verify $1 --net $2 --samples 2000 | grep -q 'mismatches=0 mode=random'"
                 ${NNT_EXE} ${EX}/mul16.bench ${CMAKE_BINARY_DIR}/circuit-mul16.json)
set_tests_properties(cli/circuit_compile_auto_sparse PROPERTIES LABELS cli)
nnt_cli_test(circuit_compile_bad_format 2 "--format" circuit compile ${EX}/mux4.blif --format csr --save x.json)
# a malformed sparse net: one line naming the array, exit 2
nnt_cli_test(circuit_bad_sparse_net 2 "bad_sparse.json: layers\\[0\\].col\\[1\\]: columns must increase within row 0"
             circuit verify ${EX}/fulladder.bench --net ${BAD}/bad_sparse.json)
# Verilog through yosys (an optional dependency): the shipped designs compiled, checked by nnt's
# own exhaustive verification, and their nets checked by check_verilog against the designs'
# integer arithmetic written out in C (mult8: all 2^16 inputs, alu8: all 2^18, cmp16: 4.6e5 pairs).
add_executable(circuits_check_verilog ${NNT_SRC_DIR}/tests/circuits/check_verilog.c)
target_link_libraries(circuits_check_verilog PRIVATE nnt_core)
set(CHECK_VERILOG $<TARGET_FILE:circuits_check_verilog>)
# A missing yosys is one line and exit 2 (PATH emptied), checked with or without yosys installed.
nnt_cli_test(circuit_verilog_no_yosys 2 "reading .v needs yosys \\(Debian package yosys\\). not found on PATH"
             circuit verify ${EX}/mult8.v)
set_tests_properties(cli/circuit_verilog_no_yosys PROPERTIES ENVIRONMENT "PATH=")
nnt_cli_test(circuit_verilog_top_not_verilog 2 "--top: only for a Verilog FILE" circuit verify ${EX}/mux4.blif --top mux)
find_program(NNT_YOSYS yosys)
if(NNT_YOSYS)
  foreach(d mult8 alu8 cmp16)
    if(d STREQUAL mult8)
      set(bits "net bits: x0..x15 = a[0..7] b[0..7], y0..y15 = p[0..15]")
    elseif(d STREQUAL alu8)
      set(bits "net bits: x0..x17 = a[0..7] b[0..7] op[0..1], y0..y9 = y[0..7] c z")
    else()
      set(bits "net bits: x0..x31 = a[0..15] b[0..15], y0..y2 = lt eq gt")
    endif()
    # compile, the port layout check_verilog assumes, then the net against the arithmetic
    add_test(NAME cli/circuit_verilog_${d}
             COMMAND sh -c "rm -f $2 && $0 circuit compile $1 --save $2 > $2.txt && grep -qF \"$3\" $2.txt && $4 $2 $5"
                     ${NNT_EXE} ${EX}/${d}.v ${CMAKE_BINARY_DIR}/circuit-verilog-${d}.json "${bits}" ${CHECK_VERILOG} ${d})
    set_tests_properties(cli/circuit_verilog_${d} PROPERTIES LABELS cli PASS_REGULAR_EXPRESSION "checked=[0-9]+ mismatches=0")
    nnt_cli_test(circuit_verilog_verify_${d} 0 "circuit: .*${d}.v inputs=.*mismatches=0" circuit verify ${EX}/${d}.v)
  endforeach()
  # with correction layers (Lemma 3.3) the multiplier's net is exact too
  add_test(NAME cli/circuit_verilog_mult8_correct
           COMMAND sh -c "rm -f $2 && $0 circuit compile $1 --correct --save $2 >/dev/null && $3 $2 mult8"
                   ${NNT_EXE} ${EX}/mult8.v ${CMAKE_BINARY_DIR}/circuit-verilog-mult8c.json ${CHECK_VERILOG})
  set_tests_properties(cli/circuit_verilog_mult8_correct PROPERTIES LABELS cli PASS_REGULAR_EXPRESSION "checked=65536 mismatches=0")
  # seconds in a Release build, about half a minute each under the sanitizers: not in the ASan pass
  set_tests_properties(cli/circuit_verilog_alu8 cli/circuit_verilog_verify_alu8 cli/circuit_verilog_mult8_correct
                       PROPERTIES LABELS "cli;slow")
  # the checker fails on a wrong net: a multiplier with one product bit flipped (exit 1)
  add_test(NAME cli/circuit_verilog_wrong_net
           COMMAND sh -c "rm -f $2 && $0 circuit compile $1 --save $2 >/dev/null && $3 $2 mult8; test $? -eq 1"
                   ${NNT_EXE} ${BAD}/mult8_wrong.v ${CMAKE_BINARY_DIR}/circuit-verilog-wrong.json ${CHECK_VERILOG})
  set_tests_properties(cli/circuit_verilog_wrong_net PROPERTIES LABELS cli)
  nnt_cli_test(circuit_verilog_syntax 2 "yosys: .*syntax.v:2: ERROR: syntax error" circuit verify ${BAD}/syntax.v)
  nnt_cli_test(circuit_verilog_top 0 "top=pass2 .*mismatches=0" circuit verify ${NNT_SRC_DIR}/tests/circuits/two_tops.v --top pass2)
  nnt_cli_test(circuit_verilog_sequential 2 "counter.v: the design keeps flip-flops or latches after synthesis"
               circuit verify ${BAD}/counter.v)
  nnt_cli_test(circuit_verilog_bad_top 2 "yosys: ERROR: Module .nope. not found" circuit verify ${EX}/alu8.v --top nope)
  nnt_cli_test(circuit_verilog_top_name 2 "--top: .a.b. is not a Verilog module name" circuit verify ${EX}/alu8.v --top a.b)
  nnt_cli_test(circuit_verilog_margin 0 "verilog: top=cmp16.*margin compiled" circuit margin ${EX}/cmp16.v --quick --inputs 2
               --out ${CMAKE_BINARY_DIR}/circuit-verilog-margin)
  # (D.5) on the 8 x 8 multiplier: 64 sampled inputs (said so), the attack on 2 of them over the
  # last two blocks (the net has over 10^6 parameters); --scale 1000 puts gamma_D5 above the flip
  nnt_cli_test(circuit_verilog_d5_mult8 0 "SAMPLED: 64 random of the 2\\^16.*attack +2 of the 64 inputs, perturbing layers 184\\.\\.190 of 191.*proven gamma_D5 <= found flip gamma_attack: holds"
               circuit d5 ${EX}/mult8.v --inputs 64 --attack-inputs 2 --output 8)
  nnt_cli_test(circuit_verilog_d5_mult8_fault 1 "fault injection: gamma_D5 = 1000 x.*VIOLATED"
               circuit d5 ${EX}/mult8.v --inputs 64 --attack-inputs 2 --output 8 --scale 1000)
  nnt_cli_test(circuit_verilog_bounds 0 "verilog: top=cmp16" bounds sm --circuit ${EX}/cmp16.v --quick
               --out ${CMAKE_BINARY_DIR}/circuit-verilog-bounds)
else()
  message(STATUS "yosys not found: the Verilog tests (cli/circuit_verilog_*) are not registered; "
                 "`bash scripts/deps.sh test` installs it")
endif()

# The one driver: --check-options validates the circuit FILE (and --top) before it stops; a Verilog
# design with two top-level modules and no --top is refused naming them; --correct with --net is
# refused (the file's net is verified as it is).
nnt_cli_test(circuit_check_options_file 2 "cannot read /nonexistent.bench" circuit margin /nonexistent.bench --check-options)
nnt_cli_test(circuit_learn_check_options_file 2 "cannot read /nonexistent.bench" circuit learn /nonexistent.bench --check-options)
nnt_cli_test(circuit_check_options_top 2 "--top: only for a Verilog FILE" circuit margin ${EX}/fulladder.bench --top foo --check-options)
nnt_cli_test(circuit_correct_net 2 "--correct and --net" circuit verify ${EX}/fulladder.bench --net ${EX}/fulladder.bench --correct)
if(NNT_YOSYS)
  file(WRITE ${CMAKE_BINARY_DIR}/two_tops.v "module a(input x, output y); assign y = ~x; endmodule\nmodule b(input x, output y); assign y = x; endmodule\n")
  nnt_cli_test(circuit_verilog_two_tops 2 "has 2 top-level modules \\(b, a\\): choose one with --top" circuit verify ${CMAKE_BINARY_DIR}/two_tops.v)
  nnt_cli_test(circuit_verilog_two_tops_top 0 "mismatches=0" circuit verify ${CMAKE_BINARY_DIR}/two_tops.v --top a)
endif()
# Claim 3.5's toy as the paper states it: the claim's perturbation flips the uncorrected product at
# norm 1/sqrt(d), the exact margin sqrt(d)(1 - 2^(-1/d)) (0.0862 at d = 64) is found by running it,
# and with round between the layers nothing flips below 1/3 (the smallest flip found: 1/2).
nnt_cli_test(circuit_claim35 0 "\n +1 +1\\.000000 +yes +0\\.500000 +0\\.500000 \\| +0 of [0-9]+ +0\\.500000 +holds.*\n +64 +0\\.125000 +yes +0\\.086176 +0\\.086176 \\| +0 of [0-9]+ +0\\.5[0-9]+ +holds"
             circuit claim35 --quick)
nnt_cli_test(circuit_claim35_bad 2 "--depths: 0 is out of range" circuit claim35 --depths 0)
# Compiled circuits exported (--export) and run in PyTorch (python/nnt/mlp.py) against Python
# integer arithmetic (adders, multipliers, a comparator on all 2^16 inputs; mul32 on 10^4 random
# inputs), corrupted files refused; skipped, with the reason, where python3-torch is missing.
add_test(NAME circuits/export_torch
         COMMAND /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider ${NNT_SRC_DIR}/tests/circuits/test_export_torch.py)
set_tests_properties(circuits/export_torch PROPERTIES LABELS "python" TIMEOUT 600
                     ENVIRONMENT "NNT=${NNT_EXE};NNT_SRC=${NNT_SRC_DIR}" SKIP_REGULAR_EXPRESSION "[0-9]+ skipped in")
nnt_cli_test(circuit_export_bad_ext 2 "--export net.txt: unknown format" circuit compile ${EX}/fulladder.bench --export net.txt)
nnt_cli_test(circuit_export_bad_ext2 2 "--export net.safetensors.tmp: unknown format" circuit compile ${EX}/fulladder.bench --export net.safetensors.tmp)
# The same nets exported as ONNX and run in onnxruntime-node (tests/onnx/ort.py; not nnt) against
# Python integers; skipped, with the reason, only where node or npm is missing.
add_test(NAME circuits/export_onnx
         COMMAND /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider ${NNT_SRC_DIR}/tests/circuits/test_export_onnx.py)
set_tests_properties(circuits/export_onnx PROPERTIES LABELS "python" TIMEOUT 600
                     ENVIRONMENT "NNT=${NNT_EXE};NNT_SRC=${NNT_SRC_DIR};NNT_NODE_DIR=${NNT_NODE_DIR}"
                     SKIP_REGULAR_EXPRESSION "[0-9]+ skipped in")
# learn refuses nets that cannot fit before any training (tests/cli/too_big.sh)
nnt_too_big_test(circuit_learn 8e9 "circuit learn needs about [0-9.e+]+ GB, more than the 8 GB .*: lower --widths"
                 circuit learn ${EX}/mul32.bench --quick --widths 256 --out OUT)
# Theorem D.6's (D.5) evaluated for a compiled circuit, beside the certified and attacked margins;
# --scale 100 inflates gamma_D5 above the attack's flip: the check must fail (exit 1)
nnt_cli_test(circuit_d5 0 "constants +kappa_theta=[0-9.]+ kappa_xi=4\\.79[0-9]* mu=[0-9.]+ mu0=[0-9.]+ lambda=1\\.414.*gamma_D5=0\\.00[0-9]+ gamma_certified=0\\.01[0-9]+ gamma_attack=0\\.1[0-9]+ .*proven gamma_D5 <= found flip gamma_attack: holds"
             circuit d5 ${EX}/fulladder.bench --inputs 8 --out ${CMAKE_BINARY_DIR}/circuit-d5)
# (D.5) from the weights alone, valid at every input: on the full adder below the enumerated one, every
# layer value at the 8 inputs inside its range; ranges narrowed by 10% are caught (exit 1)
nnt_cli_test(circuit_d5_all_inputs 0 "gamma_D5=0\\.00353[0-9]* .*weights +every input of the 2\\^3 at once.*lambda=1\\.732.*gamma_D5_all_inputs=0\\.0028[0-9]+ .*enumerated/all=1\\.22.*inside the weights-alone ranges: holds \\(296 values\\).*gamma_D5_all_inputs <= gamma_D5 over the 8 inputs: holds"
             circuit d5 ${EX}/fulladder.bench --inputs 8)
nnt_cli_test(circuit_d5_range_fault 1 "fault injection: the weights-alone ranges x 0\\.9.*inside the weights-alone ranges: VIOLATED \\(296 values, [0-9]+ outside.*a layer value lies outside its weights-alone range"
             circuit d5 ${EX}/fulladder.bench --inputs 8 --range-scale 0.9)
nnt_cli_test(circuit_d5_bad_range_scale 2 "--range-scale" circuit d5 ${EX}/fulladder.bench --range-scale -1)
# --inputs up to 2^20: per-input memory estimated and refused before any of it is allocated
nnt_too_big_test(circuit_d5 1e6 "\\(D\\.5\\) over the inputs needs about [0-9.e+]+ GB, more than the 0.001 GB .*: lower --inputs"
                 circuit d5 ${EX}/mul16.bench --inputs 1048576 --out OUT)
nnt_cli_test(circuit_d5_blif 0 "2 corrections.*gamma_D5=.*holds" circuit d5 ${EX}/majority5.blif --quick)
nnt_cli_test(circuit_d5_fault 1 "fault injection: gamma_D5 = 100 x.*VIOLATED.*the proven lower bound [0-9.]+ lies above the attack's flip"
             circuit d5 ${EX}/fulladder.bench --inputs 8 --scale 100)
nnt_cli_test(circuit_d5_bad_output 2 "--output: the circuit has 2 outputs" circuit d5 ${EX}/fulladder.bench --output 5)
nnt_cli_test(circuit_d5_bad_scale 2 "--scale" circuit d5 ${EX}/fulladder.bench --scale 0)
nnt_cli_test(circuit_d5_no_file 2 "FILE|argument" circuit d5)
nnt_cli_test(circuit_d5_bad_attack_inputs 2 "--attack-inputs" circuit d5 ${EX}/fulladder.bench --attack-inputs 0)
nnt_cli_test(circuit_d5_bad_attack_blocks 2 "--attack-blocks" circuit d5 ${EX}/fulladder.bench --attack-blocks -2)
# the 16 x 16 multiplier (15 million parameters dense, built sparse): 2 sampled inputs, said so
nnt_cli_test(circuit_d5_mul16 0 "SAMPLED: 2 random of the 2\\^32.*attack +1 of the 2 inputs, perturbing layers 344\\.\\.350 of 351.*holds.*every input of the 2\\^32 at once.*gamma_D5_all_inputs=0\\.000[0-9]+ .*ranges: holds"
             circuit d5 ${EX}/mul16.bench --inputs 2 --attack-inputs 1)
# parity8 is one XOR_8 gate: no correction, (D.5) keeps only lambda/mu0 and sigma_theta
nnt_cli_test(circuit_d5_no_correction 0 "0 corrections.*kappa_theta, kappa_xi, mu: none.*gamma_D5=0\\.0[0-9]+ .*binding: lambda/mu0.*holds"
             circuit d5 ${EX}/parity8.bench --quick)
# test_d5 reads the shipped circuits (check (a) of the weights-alone bound on every input); mult8.v's
# 65 536 inputs run as their own test (skipped inside when yosys is missing), slow under the sanitizers
target_compile_definitions(circuits_test_d5 PRIVATE NNT_EXAMPLES_DIR="${EX}")
add_test(NAME circuits/test_d5_mult8 COMMAND circuits_test_d5 mult8)
set_tests_properties(circuits/test_d5_mult8 PROPERTIES LABELS "unit;slow" TIMEOUT ${NNT_UNIT_TIMEOUT})

# test_margin_run compares nnt circuit margin on the sparse nets with the dense route, on shipped circuits
target_compile_definitions(circuits_test_margin_run PRIVATE NNT_EXAMPLES_DIR="${EX}")
# margin: the attack over every layer of mul32 (4.6e8 parameters dense) is refused before any of it exists;
# the default on mul16 (the last 2 blocks dense and every layer's stored entries; the certificate
# sparse) runs in seconds and says the attack is restricted
nnt_too_big_test(circuit_margin 8e9 "circuit margin's attack \\(dense over the layers it perturbs\\) needs about [0-9.e+]+ GB, more than the 8 GB .*: lower --attack-blocks or --inputs"
                 circuit margin ${EX}/mul32.bench --attack-blocks 0 --inputs 1 --out OUT)
nnt_cli_test(circuit_margin_mul16 0 "margin compiled\\+correction .*certified lower bound min=0\\.00245; RESTRICTED attack: the smaller of layers 344\\.\\.350 of 351 only \\(the last 2 of 88 blocks.*every layer.s stored weights and biases only"
             circuit margin ${EX}/mul16.bench --inputs 1 --out ${CMAKE_BINARY_DIR}/circuit-margin-mul16)
# --net is held sparse as the compiled nets: mul16's corrected net compiled to an nnt-mlp-sparse file
# (1.5e7 parameters dense; expanded on load and attacked dense over every layer before: minutes, most
# of a GB) has the compiled net's layer count, so its blocks: the same restricted attack, the same
# certificate, in seconds
add_test(NAME cli/circuit_margin_mul16_net
         COMMAND sh -c "rm -rf $2 && $0 circuit compile $1 --correct --format sparse --save $2.json >/dev/null && $0 circuit margin $1 --inputs 1 --net $2.json --out $2 | grep -Eq 'margin net .*certified lower bound min=0\\.00245; RESTRICTED attack: the smaller of layers 344\\.\\.350 of 351 only \\(the last 2 of 88 blocks, 8943 of 14813831 parameters\\)'"
                 ${NNT_EXE} ${EX}/mul16.bench ${CMAKE_BINARY_DIR}/circuit-margin-mul16-net)
set_tests_properties(cli/circuit_margin_mul16_net PROPERTIES LABELS cli TIMEOUT 300)
# the size check covers --net: every layer of mul16 dense (--attack-blocks 0) fits in 0.95 GB with
# the two compiled nets alone (0.87 GB) and is refused before any work with that net as --net too
add_test(NAME cli/too_big_circuit_margin_net
         COMMAND sh -c "$0 circuit compile $1 --correct --format sparse --save $2.json >/dev/null && NNT_MEM_AVAILABLE=0.95e9 $0 circuit margin $1 --attack-blocks 0 --inputs 1 --check-options >/dev/null && NNT_MEM_AVAILABLE=0.95e9 bash $3 $0 $2 'circuit margin.s attack \\(dense over the layers it perturbs\\) needs about 0\\.988 GB, more than the 0\\.95 GB' circuit margin $1 --attack-blocks 0 --inputs 1 --net $2.json --out $2"
                 ${NNT_EXE} ${EX}/mul16.bench ${CMAKE_BINARY_DIR}/too-big-circuit_margin_net ${NNT_SRC_DIR}/tests/cli/too_big.sh)
set_tests_properties(cli/too_big_circuit_margin_net PROPERTIES LABELS cli TIMEOUT 60)
# a net that does not fit the circuit is refused with the options, before any work or folder
add_test(NAME cli/circuit_margin_net_shape
         COMMAND sh -c "rm -rf $3 && $0 circuit compile $1 --save $3.json >/dev/null; e=$($0 circuit margin $2 --net $3.json --out $3 2>&1 >/dev/null); test $? -eq 2 && echo \"$e\" | grep -q 'the net has 3 inputs and 2 outputs; the circuit has 6 inputs' && test ! -e $3"
                 ${NNT_EXE} ${EX}/fulladder.bench ${EX}/mux4.blif ${CMAKE_BINARY_DIR}/circuit-margin-net-shape)
set_tests_properties(cli/circuit_margin_net_shape PROPERTIES LABELS cli)
