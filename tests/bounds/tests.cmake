# Command-line tests of nnt bounds sm: a compiled machine and a compiled circuit, bad input.
nnt_cli_test(bounds_tm_bb4 0 "steps_checked=107 mismatches=0.*score gap 1 .*Lemma 2.3 n=.*not specified by the paper.*sweep over T.*gamma_certified=0\\.001002 gamma_attack=0\\.01[0-9]+\n$"
             bounds sm --quick --tm ${NNT_SRC_DIR}/examples/tm/bb4.tm --steps 107)
# gamma is the certified all-layer margin (bound propagation), printed beside the attack's upper bound
# the attack's best flip moves the FF output that feeds an attention's query (the previous layer's W3
# along v u2^T, v = Q^T (k_other - k_selected)), far below theta_cls's 1/sqrt(4) = 0.5;
# the sweep certifies gamma at each T (--quick: up to 10^2; BB(3) has not halted at T = 10: gamma 0)
nnt_cli_test(bounds_tm_margin 0 "certified lower bound 0\\.00[0-9]+ .*upper bound 0\\.0[0-9]+ \\(layer [0-9]+'s W3 into layer [0-9]+ self scores.*upper/lower [0-9.]+..*gamma=0\\.00[0-9]+ \\(certified all-layer margin\\).*gamma = the certified margin at each T.*\n +1e\\+01 .* 0 +- .*\n +1e\\+02 .* 0\\.00[0-9]+ +[0-9.e+]+ .*\n +1e\\+03 .* - +- .*gamma_certified=0\\.001583 gamma_attack=0\\.01[0-9]+"
             bounds sm --quick --tm ${NNT_SRC_DIR}/examples/tm/bb3.tm --steps 21)
# above the cap (10^4 steps) nothing is certified; a machine that never halts (F = 0) keeps the attack
# to one run and the sweep's certificates to one propagation each
nnt_cli_test(bounds_tm_margin_cap 0 "not computed: T=10001 > 10000.*upper bound 0 .*T above the certification cap: illustrative.*gamma_certified=none gamma_attack=0\n"
             bounds sm --tm 1RB0LA_1LA0RB --steps 10001)
set_tests_properties(cli/bounds_tm_margin_cap PROPERTIES LABELS "cli;slow") # one run and the sweep's propagations at T = 10^4: ~30 s CPU
nnt_cli_test(bounds_tm_margin_running 0 "decision theta_cls\\^T o_T = 0..*certified lower bound 0 .*upper bound 0 .*no decision \\(F = 0, not halted\\)"
             bounds sm --tm 1RB0LA_1LA0RB --steps 20)
nnt_cli_test(bounds_tm_gamma 0 "gamma=0.5 \\(--gamma\\).*sweep over T \\(gamma fixed by --gamma" bounds sm --tm 1RB1LB_1LA1RZ --steps 6 --gamma 0.5 --eps 0.05)
nnt_cli_test(bounds_tm_out 0 "sweep over T" bounds sm --quick --tm 1RB1LB_1LA1RZ --steps 6 --out ${CMAKE_BINARY_DIR}/bounds-tm-test)
nnt_cli_test(bounds_no_T 2 "--tm needs --steps N" bounds sm --tm 1RB1LB_1LA1RZ)
nnt_cli_test(bounds_both 2 "exactly one of --tm and --circuit" bounds sm)
nnt_cli_test(bounds_bad_tm 2 "undefined state 'Q'" bounds sm --tm 1RB1LB_1LA1RQ --steps 5)
nnt_cli_test(bounds_bad_eps 2 "--eps: 2 is out of range" bounds sm --tm 1RB1LB_1LA1RZ --steps 5 --eps 2)
nnt_cli_test(bounds_bad_sub 2 "unknown subcommand 'xy'" bounds xy)
if(TARGET nnt_circuits)
  # gamma is the certified margin (min over all 8 inputs); the crossover with the VC-type bound lies beyond the table
  nnt_cli_test(bounds_circuit 0 "mismatches=0.*gamma=0\\.01271 \\(certified margin, min over every input\\).*certified margin lower bound.*gamma >= 0\\.01271.*not specified by the paper.*sweep over the network width.*stays above the VC-type one up to w = 384. it is the smaller one from w = 768 = 2\\^7 W"
               bounds sm --circuit ${NNT_SRC_DIR}/examples/circuits/fulladder.bench)
endif()
# run.json: the options as given (the driver's record) and the run's result, the margin's two bounds among it
add_test(NAME cli/bounds_run_json_result
         COMMAND sh -c "rm -rf $1 && $0 bounds sm --quick --tm 1RB1LB_1LA1RZ --steps 6 --out $1 >/dev/null && tr -d '\\n\\t' < $1/run.json | grep -q '\"result\":{\"gamma\":[^}]*\"margin_certified_lower\":[^}]*\"margin_upper\":' && grep -q '\"steps\":.6,' $1/run.json"
         ${NNT_EXE} ${CMAKE_BINARY_DIR}/bounds-run-json)
set_tests_properties(cli/bounds_run_json_result PROPERTIES LABELS "cli" TIMEOUT 300)
