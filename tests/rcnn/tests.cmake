# Command-line tests of nnt parity bench and nnt bounds rcnn: bad input (exit 2, nothing created),
# the quick preset with its files, resume, and the calculators' printed values.
nnt_cli_test(parity_help 0 "bench" parity --help)
nnt_cli_test(parity_bad_learner 2 "--learners: 'svm' is not one of" parity bench --learners gauss,svm --out ${CMAKE_BINARY_DIR}/parity-never)
nnt_cli_test(parity_twice_learner 2 "--learners: 'mlp' twice" parity bench --learners mlp,mlp --out ${CMAKE_BINARY_DIR}/parity-never)
nnt_cli_test(parity_bad_k 2 "--k: 9 exceeds d = 8" parity bench --d 8,16 --k 9 --out ${CMAKE_BINARY_DIR}/parity-never)
nnt_cli_test(parity_bad_noise 2 "--noise: 0.5 is out of range" parity bench --noise 0.5 --out ${CMAKE_BINARY_DIR}/parity-never)
nnt_cli_test(parity_bad_d 2 "--d: 0 is out of range" parity bench --d 0 --out ${CMAKE_BINARY_DIR}/parity-never)
nnt_cli_test(parity_twice_m 2 "--m: 8 twice" parity bench --m 8,8 --out ${CMAKE_BINARY_DIR}/parity-never)
# d = 8, m = 40 >= d + 32: elimination is exact (fails with probability < 2^-32); the MLP is at chance.
nnt_cli_test(parity_quick 0 "8 +40 +gauss +1\\.0000 .*points: 18 computed, 0 read"
             parity bench --quick --d 8 --m 4,40 --reps 3 --force --out ${CMAKE_BINARY_DIR}/parity-quick)
nnt_cli_test(parity_sparse_noise 0 "k = 3.*16 +64 +gauss"
             parity bench --quick --d 16 --m 64 --k 3 --noise 0.1 --learners gauss,majority --force --out ${CMAKE_BINARY_DIR}/parity-sparse)
# resume adds the new m's points only; a non-empty folder without --resume or --force is refused (exit 2)
set(pr ${CMAKE_BINARY_DIR}/parity-resume)
add_test(NAME cli/parity_resume
         COMMAND sh -c "rm -rf '${pr}' && '${NNT_EXE}' parity bench --quick --d 4 --m 8 --out '${pr}' >/dev/null 2>&1 && \
'${NNT_EXE}' parity bench --quick --d 4 --m 8,16 --resume --out '${pr}' 2>/dev/null | grep -q 'points: 6 computed, 6 read' && \
test -s '${pr}/points.csv' && test -s '${pr}/summary.csv' && test -s '${pr}/run.json' && ls '${pr}' | grep -q '^accuracy[.]' && \
{ '${NNT_EXE}' parity bench --quick --d 4 --m 8 --out '${pr}' >/dev/null 2>&1; test $? = 2; }")
set_tests_properties(cli/parity_resume PROPERTIES LABELS cli)
nnt_cli_test(bounds_rcnn 0 "P = 9 d_rc .* = 122200 .*\\|U_s\\| = 24\\*16\\*s \\+ 5 = 773.*log10 P\\(success\\) >= log10 \\|U_s\\|\\^\\(-P\\) = -352935\\.5.*log10 M = .* = 352936\\.1.*L = max\\(m\\+1, m\\+d\\+1, t\\+1\\) = 257"
             bounds rcnn --s 2 --eps 0.1 --delta 0.05)
nnt_cli_test(bounds_rcnn_s4 0 "= 484200 .*= 1541" bounds rcnn --s 4)
nnt_cli_test(bounds_rcnn_bad_s 2 "--s: 1 is out of range" bounds rcnn --s 1)
nnt_cli_test(bounds_rcnn_bad_delta 2 "--delta must be in \\(0, 1\\)" bounds rcnn --delta 1)
