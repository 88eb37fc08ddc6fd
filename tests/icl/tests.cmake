# Command-line tests of nnt icl (seed 003). Each helper adds its own block below.

# construct: the Theorem-1 transformer against direct projected GD; bad input (one line, exit 2).
set(_icl_o ${CMAKE_BINARY_DIR}/icl-test)
nnt_cli_test(icl_help 0 "construct" icl --help)
nnt_cli_test(icl_construct_identity 0 "token width D=113, 10 layers per GD step.*invariants: w copies identical and scratch zero after every block: yes\nmax_err=[0-9.]+e-1[3-9]"
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
