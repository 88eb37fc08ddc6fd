# Command-line tests of nnt tm2d: the shipped learners checked, run on a dataset file, on a drawn
# parity and on a literal tape; export in sync with the shipped files; bad input (one line, exit 2)
# and a readout violation (exit 1).
set(RCEX ${NNT_SRC_DIR}/examples/rcnn)
set(RCT ${NNT_SRC_DIR}/tests/rcnn)
foreach(l first-label dictator majority gauss-parity)
  add_test(NAME cli/tm2d_export_${l} COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DLEARNER=${l}
           -DFILE=${RCEX}/${l}.tm2d -P ${RCT}/export_same.cmake)
  set_tests_properties(cli/tm2d_export_${l} PROPERTIES LABELS cli)
endforeach()
nnt_cli_test(tm2d_check_first_label 0 "ok: 16 states \\(1 halting\\), 45 transitions, start state 'start'" tm2d check ${RCEX}/first-label.tm2d)
nnt_cli_test(tm2d_check_majority 0 "ok: 25 states \\(1 halting\\)" tm2d check ${RCEX}/majority.tm2d)
nnt_cli_test(tm2d_run_first_label 0 "tape m=5 d=3 work=1.*output=-1 steps=[0-9]+ halted=yes collisions=[1-9][0-9]* readout=ok"
             tm2d run ${RCEX}/first-label.tm2d --data ${RCT}/data_small.txt --x +-+)
nnt_cli_test(tm2d_run_majority 0 "output=\\+1 .*readout=ok" tm2d run ${RCEX}/majority.tm2d --data ${RCT}/data_small.txt --x +-+)
nnt_cli_test(tm2d_run_dictator_minus 0 "output=-1 .*readout=ok" tm2d run ${RCEX}/dictator.tm2d --data ${RCT}/data_small.txt --x +-+)
nnt_cli_test(tm2d_run_dictator_plus 0 "output=\\+1 .*readout=ok" tm2d run ${RCEX}/dictator.tm2d --data ${RCT}/data_small.txt --x -++)
nnt_cli_test(tm2d_run_parity 0 "tape m=6 d=4 work=1\noutput=\\+1 steps=98 halted=yes collisions=8 readout=ok parity_label=\\+1"
             tm2d run ${RCEX}/first-label.tm2d --parity 4,6,1)
nnt_cli_test(tm2d_check_gauss 0 "ok: 65 states \\(1 halting\\), 192 transitions" tm2d check ${RCEX}/gauss-parity.tm2d)
nnt_cli_test(tm2d_run_gauss 0 "tape m=16 d=8 work=1\noutput=-1 steps=4823 halted=yes collisions=101 readout=ok parity_label=-1"
             tm2d run ${RCEX}/gauss-parity.tm2d --parity 8,16,2)
nnt_cli_test(tm2d_run_tape 0 "tape after \\(head on \\(0,0\\), state halt\\):\n-00 \\| 000\n000 \\| 000\noutput=-1"
             tm2d run ${RCEX}/dictator.tm2d --tape -++/+-+ --work 3 --show-tape)
nnt_cli_test(tm2d_run_no_halt 1 "output=none steps=5 halted=no .*readout=did not halt.*no halt after 5 steps"
             tm2d run ${RCEX}/majority.tm2d --parity 3,4,2 --max-steps 5)
nnt_cli_test(tm2d_bad_move 2 "bad_move.tm2d:5: bad move 'X' \\(U, D, L, R or N\\)" tm2d check ${RCT}/bad_move.tm2d)
nnt_cli_test(tm2d_bad_halt 2 "bad_halt.tm2d:6: halting state 'halt' must be absorbing" tm2d run ${RCT}/bad_halt.tm2d --tape +)
nnt_cli_test(tm2d_missing_file 2 "nope.tm2d: cannot open" tm2d check nope.tm2d)
nnt_cli_test(tm2d_bad_data 2 "bad_data.txt:2: 2 values, earlier lines have 3" tm2d run ${RCEX}/dictator.tm2d --data ${RCT}/bad_data.txt --x ++)
nnt_cli_test(tm2d_bad_x 2 "--x: '\\+\\+' has 2 characters, the data has d = 3" tm2d run ${RCEX}/dictator.tm2d --data ${RCT}/data_small.txt --x ++)
nnt_cli_test(tm2d_two_sources 2 "give exactly one of --tape, --data, --parity" tm2d run ${RCEX}/dictator.tm2d --tape + --parity 2,3,1)
nnt_cli_test(tm2d_bad_parity 2 "--parity: need 1 <= d <= 64" tm2d run ${RCEX}/dictator.tm2d --parity 65,3,1)
nnt_cli_test(tm2d_bad_tape 2 "--tape: row 2 has 1 cells, row 1 has 2" tm2d run ${RCEX}/dictator.tm2d --tape +-/+)
nnt_cli_test(tm2d_bad_learner 2 "--learner" tm2d export --learner gauss)
