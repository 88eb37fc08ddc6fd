# Command-line tests of nnt bounds sm: a compiled machine and a compiled circuit, bad input.
nnt_cli_test(bounds_tm_bb4 0 "steps_checked=107 mismatches=0.*score gap 1 .*Lemma 2.3 n=.*not specified by the paper.*sweep over T"
             bounds sm --tm ${NNT_SRC_DIR}/examples/tm/bb4.tm --steps 107)
nnt_cli_test(bounds_tm_gamma 0 "gamma=0.5 \\(--gamma\\)" bounds sm --tm 1RB1LB_1LA1RZ --steps 6 --gamma 0.5 --eps 0.05)
nnt_cli_test(bounds_tm_out 0 "sweep over T" bounds sm --tm 1RB1LB_1LA1RZ --steps 6 --out ${CMAKE_BINARY_DIR}/bounds-tm-test)
nnt_cli_test(bounds_no_T 2 "--tm needs --steps N" bounds sm --tm 1RB1LB_1LA1RZ)
nnt_cli_test(bounds_both 2 "exactly one of --tm and --circuit" bounds sm)
nnt_cli_test(bounds_bad_tm 2 "undefined state 'Q'" bounds sm --tm 1RB1LB_1LA1RQ --steps 5)
nnt_cli_test(bounds_bad_eps 2 "--eps: 2 is out of range" bounds sm --tm 1RB1LB_1LA1RZ --steps 5 --eps 2)
nnt_cli_test(bounds_bad_sub 2 "unknown subcommand 'xy'" bounds xy)
if(TARGET nnt_circuits)
  nnt_cli_test(bounds_circuit 0 "mismatches=0.*alpha=.*certified margin lower bound.*gamma >= 0\\.0[0-9]*[1-9].*not specified by the paper.*sweep over the network width"
               bounds sm --circuit ${NNT_SRC_DIR}/examples/circuits/fulladder.bench)
endif()
