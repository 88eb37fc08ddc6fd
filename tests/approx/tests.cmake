# Command-line tests of nnt approx: the quick statement table, the demos' outputs, bad input.
set(_ex ${NNT_SRC_DIR}/examples/nets)
set(_o ${CMAKE_BINARY_DIR}/approx-test)
nnt_cli_test(approx_check_quick 0 "50 statements, 50 PASS, 0 FAIL" approx check --quick)
nnt_cli_test(approx_square 0 "fig4_1_square" approx square --i 0..6 --out ${_o}/square)
nnt_cli_test(approx_triangle 0 " 12 +4096 +4096 +4098 +4098" approx triangle --L 1..12 --out ${_o}/triangle)
nnt_cli_test(approx_separation_budget 0 "int_0\\^1 \\|Delta\\^n - g\\| = 0.333333.*-> holds.*1/32 = 0.03125 -> holds.*not evidence"
             approx separation --n 6 --net ${_ex}/zigzag4.json --out ${_o}/sep)
nnt_cli_test(approx_separation_exact 0 "P = 64 affine pieces.*= 0.000000" approx separation --n 6 --net ${_ex}/delta6.json --out ${_o}/sep2)
nnt_cli_test(approx_ntk 0 "fitted log-log slope -0\\.[45].*4 of 12 eigenvalues vanish without padding, 0 with" approx ntk --widths 10,100,1000,10000 --out ${_o}/ntk)
nnt_cli_test(approx_maurey 0 "exact 7.5/k" approx maurey --quick --trials 50 --out ${_o}/maurey)
nnt_cli_test(approx_planting 0 "m = 58947, \\|U_i\\| = 368" approx planting --quick --out ${_o}/planting)
nnt_cli_test(approx_bad_depth 2 "--L: -3 is out of range" approx triangle --L -3 --out ${_o}/never)
nnt_cli_test(approx_bad_width 2 "--widths: 0 is out of range" approx ntk --widths 0,10 --out ${_o}/never)
nnt_cli_test(approx_bad_i 2 "--i: 25 is out of range" approx square --i 25 --out ${_o}/never)
nnt_cli_test(approx_bad_net_missing 2 "cannot read" approx separation --n 6 --net ${_ex}/nope.json --out ${_o}/never)
nnt_cli_test(approx_bad_net_json 2 "malformed|format" approx separation --n 6 --net ${NNT_SRC_DIR}/tests/approx/bad_net.json --out ${_o}/never)
nnt_cli_test(approx_inf_net 2 "inf_net.json: field layers\\[0\\].W\\[0\\]\\[0\\] is not a finite number \\(it reads as \\+Inf\\)"
             approx separation --n 6 --net ${NNT_SRC_DIR}/tests/approx/inf_net.json --out ${_o}/never)
nnt_cli_test(approx_bad_net_2d 2 "1-D input" approx separation --n 6 --net ${NNT_SRC_DIR}/tests/approx/net_2d.json --out ${_o}/never)
nnt_cli_test(approx_bad_n 2 "--n: 0 is out of range" approx separation --n 0 --net ${_ex}/half.json)
nnt_cli_test(approx_unknown_demo 2 "unknown subcommand" approx frobnicate)
nnt_cli_test(approx_sobolev 0 " 3 +4 +25 " approx sobolev --quick --out ${_o}/sobolev)
nnt_cli_test(approx_bad_sobolev_d 2 "--d: 3 is out of range" approx sobolev --d 3 --out ${_o}/never)
nnt_cli_test(approx_separation_train 0 "trained: Adam.*-> holds.*not evidence" approx separation --n 6 --train 4 --steps 300 --out ${_o}/sept)
nnt_cli_test(approx_separation_both 2 "exactly one of --net" approx separation --n 6 --train 4 --net ${_ex}/half.json)
nnt_cli_test(approx_lazy 0 "beyond the book.* 1000 " approx lazy --quick --out ${_o}/lazy)
nnt_cli_test(approx_ntk_pad 0 "padded inputs.*fitted log-log slope -0\\.[45]" approx ntk --pad --widths 10,100,1000,10000 --out ${_o}/ntkpad)
nnt_cli_test(approx_separation_fits 0 " 128 +[0-9.e+-]+ +0.250000 .* 256 +5.00e-01 +0.000000" approx separation --n 8 --net ${_ex}/half.json --out ${_o}/sepfit)
# --export: the demos' nets in PyTorch (nnt.load) and onnxruntime-node against the closed forms,
# x^2, nnt's exact sup error and nnt's own forward pass (tests/approx/test_export.py); bad names
# refused before any work.
if(NOT NNT_SANITIZE)
  add_test(NAME approx/export
           COMMAND /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider ${NNT_SRC_DIR}/tests/approx/test_export.py)
  set_tests_properties(approx/export PROPERTIES LABELS "python" TIMEOUT 600
                       ENVIRONMENT "NNT=${NNT_EXE};NNT_SRC=${NNT_SRC_DIR};NNT_LIB_DIR=${CMAKE_BINARY_DIR};NNT_NODE_DIR=${NNT_NODE_DIR};PYTHONPATH=${NNT_SRC_DIR}/python"
                       SKIP_REGULAR_EXPRESSION "[0-9]+ skipped in")
endif()
nnt_cli_test(approx_export_bad_ext 2 "--export .*/h.txt: unknown format" approx square --i 3 --export ${_o}/h.txt)
nnt_cli_test(approx_export_bad_ext_sep 2 "--export .*/g.json: unknown format" approx separation --n 6 --net ${_ex}/half.json --export ${_o}/g.json)
# separation's full-batch training and ntk's pairs refuse what cannot fit before any work (tests/cli/too_big.sh)
nnt_too_big_test(approx_separation 8e9 "separation's training needs about [0-9.e+]+ GB, more than the 8 GB .*: lower --samples"
                 approx separation --n 4 --train 4096,4096 --samples 1000000 --out OUT)
nnt_too_big_test(approx_ntk 1e6 "ntk needs about [0-9.e+]+ GB, more than the 0.001 GB .*: lower --pairs or --d"
                 approx ntk --quick --pairs 10000 --d 1000 --out OUT)
