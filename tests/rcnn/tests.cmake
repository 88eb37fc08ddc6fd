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
nnt_cli_test(tm2d_missing_file 2 "cannot read nope.tm2d: No such file" tm2d check nope.tm2d)
nnt_cli_test(tm2d_bad_data 2 "bad_data.txt:2: 2 values, earlier lines have 3" tm2d run ${RCEX}/dictator.tm2d --data ${RCT}/bad_data.txt --x ++)
string(REPEAT "1 " 33000 RC_LONG_LINE) # 66000 characters: longer than the reader's line buffer
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/tm2d_long_line.txt "${RC_LONG_LINE}\n")
nnt_cli_test(tm2d_long_line 2 "tm2d_long_line.txt:1: line longer than 65534 characters"
             tm2d run ${RCEX}/dictator.tm2d --data ${CMAKE_CURRENT_BINARY_DIR}/tm2d_long_line.txt --x ++)
nnt_cli_test(tm2d_bad_x 2 "--x: '\\+\\+' has 2 characters, the data has d = 3" tm2d run ${RCEX}/dictator.tm2d --data ${RCT}/data_small.txt --x ++)
nnt_cli_test(tm2d_two_sources 2 "give exactly one of --tape, --data, --parity" tm2d run ${RCEX}/dictator.tm2d --tape + --parity 2,3,1)
nnt_cli_test(tm2d_bad_parity 2 "--parity: need 1 <= d <= 64" tm2d run ${RCEX}/dictator.tm2d --parity 65,3,1)
nnt_cli_test(tm2d_bad_tape 2 "--tape: row 2 has 1 cells, row 1 has 2" tm2d run ${RCEX}/dictator.tm2d --tape +-/+)
nnt_cli_test(tm2d_bad_learner 2 "--learner" tm2d export --learner gauss)

# Command-line tests of nnt parity bench and nnt bounds rcnn: bad input (exit 2, nothing created),
# the quick preset with its files, resume, and the calculators' printed values.
nnt_cli_test(parity_help 0 "bench" parity --help)
nnt_cli_test(parity_bad_learner 2 "--learners: 'svm' is not one of" parity bench --learners gauss,svm --out ${CMAKE_BINARY_DIR}/parity-never)
nnt_cli_test(parity_twice_learner 2 "--learners: 'mlp' twice" parity bench --learners mlp,mlp --out ${CMAKE_BINARY_DIR}/parity-never)
nnt_cli_test(parity_bad_k 2 "--k: 9 exceeds d = 8" parity bench --d 8,16 --k 9 --out ${CMAKE_BINARY_DIR}/parity-never)
nnt_cli_test(parity_bad_noise 2 "--noise: 0.5 is out of range" parity bench --noise 0.5 --out ${CMAKE_BINARY_DIR}/parity-never)
nnt_cli_test(parity_bad_d 2 "--d: 0 is out of range" parity bench --d 0 --out ${CMAKE_BINARY_DIR}/parity-never)
nnt_cli_test(parity_twice_m 2 "--m: 8 twice" parity bench --m 8,8 --out ${CMAKE_BINARY_DIR}/parity-never)
# the driver's sweep contract: --resume names a folder (before the driver, it ran and resumed nothing)
nnt_cli_test(parity_resume_no_out 2 "--resume/--force: give the sweep's folder, --out DIR" parity bench --quick --resume)
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

# Command-line tests of nnt rcnn learn: gauss-parity inside the rule-level RCNN agrees with the direct
# TM on every point (d = 16, m = 32 is the spec's number to reach, in seconds); every bundled learner
# agrees; one layer short of L = t+1 disagrees (exit 1); bad input (one line, exit 2).
nnt_cli_test(rcnn_learn_gauss 0 "depth L=[0-9]+.*W == \\(1/3\\)\\[y x, y\\] exactly: yes. f == 0 at 19/19 SGD steps\nvalues held: [0-9]+, all within the 270 of 10 \\+ 4\\|Q\\|.*agree_tm=100/100 correct=100/100"
             rcnn learn --learner gauss-parity --d 8 --m 18 --tests 100 --seed 1 --level rule)
nnt_cli_test(rcnn_learn_d16 0 "f == 0 at 33/33 SGD steps.*agree_tm=100/100 correct=100/100" rcnn learn --d 16 --m 32 --tests 100 --seed 2)
nnt_cli_test(rcnn_learn_wide 0 "grid 19 x 2009 \\(work 2000\\).*agree_tm=20/20 correct=20/20" rcnn learn --d 8 --m 18 --tests 20 --work 2000)
foreach(l first-label dictator majority)
  nnt_cli_test(rcnn_learn_${l} 0 "exactly: yes. f == 0 at 10/10 SGD steps.*agree_tm=40/40" rcnn learn --learner ${l} --d 4 --m 9 --tests 40 --seed 5)
endforeach()
nnt_cli_test(rcnn_learn_depth_ok 0 "depth L=1192 \\(largest TM step count t=1191\\).*agree_tm=1/1" rcnn learn --d 4 --m 10 --tests 1 --seed 1)
nnt_cli_test(rcnn_learn_depth_short 1 "    1  none  -1    -1     1191.*DISAGREE.*agree_tm=0/1.*disagrees with the direct TM on 1 of 1 points"
             rcnn learn --d 4 --m 10 --tests 1 --seed 1 --depth 1191)
nnt_cli_test(rcnn_learn_bad_level 2 "--level: 'gpu' is not one of rule\\|nn" rcnn learn --level gpu)
nnt_cli_test(rcnn_learn_bad_cache 2 "--no-cache: only with --level nn" rcnn learn --no-cache)
nnt_cli_test(rcnn_learn_bad_d 2 "--d: 0 is out of range" rcnn learn --d 0)
nnt_cli_test(rcnn_learn_bad_learner 2 "learner 'gauss' is neither bundled .* nor a readable .tm2d file" rcnn learn --learner gauss)
# Any learner from a file: query-bit.tm2d (written for the tests, not bundled) predicts x_1; the RCNN
# agrees with the direct TM at rule level and as the compiled network; a valid machine that never
# parks is refused before any work (exit 2).
nnt_cli_test(rcnn_learn_file 0 "rcnn learn: .*query-bit.tm2d \\(11 states\\).*exactly: yes. f == 0 at 10/10 SGD steps.*agree_tm=40/40"
             rcnn learn --learner ${RCT}/query-bit.tm2d --d 5 --m 9 --tests 40 --seed 3)
nnt_cli_test(rcnn_learn_file_nn 0 "level nn.*max gradient error 0, off the value grid 0.*agree_tm=6/6"
             rcnn learn --learner ${RCT}/query-bit.tm2d --d 3 --m 4 --tests 6 --level nn)
nnt_cli_test(rcnn_compile_file 0 "query-bit.tm2d \\(11 states\\).*max gradient error 0 " rcnn compile --learner ${RCT}/query-bit.tm2d --d 3 --m 5)
nnt_cli_test(rcnn_learn_never_parks 2 "never_parks.tm2d: cannot run in an RCNN: no halting state is reachable from the start state 'start'"
             rcnn learn --learner ${RCT}/never_parks.tm2d)
# Corollary 2's wrapper run: every measured rate within its bound; too few restarts (M = 4: (3/4)^4 = 0.32
# > delta/2) and too small a validation set (N = 2) each break one and exit 1.
nnt_cli_test(rcnn_restarts 0 "M = ceil\\(ln\\(2/delta\\) / p\\) = 15, N = ceil\\(2 ln\\(2M/delta\\) / eps\\^2\\) = 320.*RCNN vs direct TM: 0 disagreements.*success rate +0\\.[0-9]+ .*ok\nno successful restart +0\\.0[0-2][0-9]+ .*ok\nselection .*ok\noutput .*ok"
             rcnn restarts --quick --trials 6)
nnt_cli_test(rcnn_restarts_too_few 1 "used M=4 \\(--restarts\\).*no successful restart +0\\.[23][0-9]+ .*VIOLATED.*outside its Corollary 2 bound"
             rcnn restarts --quick --trials 6 --restarts 4)
nnt_cli_test(rcnn_restarts_small_validation 1 "selection > best \\+ eps +0\\.[1-3][0-9]+ .*VIOLATED" rcnn restarts --quick --trials 6 --validation 2)
nnt_cli_test(rcnn_restarts_bad 2 "--delta: 1 is out of range" rcnn restarts --delta 1)
nnt_cli_test(rcnn_compile_never_parks 2 "cannot run in an RCNN: no halting state is reachable" rcnn compile --learner ${RCT}/never_parks.tm2d)
nnt_cli_test(tm2d_check_never_parks 0 "never_parks.tm2d: ok: 3 states" tm2d check ${RCT}/never_parks.tm2d)
nnt_cli_test(rcnn_learn_bad_file 2 "bad_move.tm2d:5: bad move 'X'" rcnn learn --learner ${RCT}/bad_move.tm2d)
nnt_cli_test(rcnn_learn_bad_work 2 "--work: 0 is out of range" rcnn learn --work 0)

# The compiled ReLU network (--level nn): Algorithm 1 with real gradients memorises exactly, every
# patch evaluation matches f̄, every point agrees with the direct TM; with the patch cache, the
# default (d = 4, and the contract's d = 8, m = 18, 100 points: seconds, label slow) and without it
# (--no-cache, a small learner).
nnt_cli_test(rcnn_learn_nn_quick 0 "level nn.*nn memorisation: max \\|W - \\(1/3\\)\\[y x, y\\]\\| = 0. max \\|f\\| over the SGD steps = 0\nnn vs rule level: [0-9]+ patch evaluations checked \\(distinct patches per thread\\), max value error [0-9.e-]+, max gradient error 0, off the value grid 0.*agree_tm=5/5 correct=5/5"
             rcnn learn --d 4 --m 10 --tests 5 --seed 1 --level nn)
nnt_cli_test(rcnn_learn_nn_nocache 0 "patch cache off.*max \\|W - \\(1/3\\)\\[y x, y\\]\\| = 0.*max gradient error 0, off the value grid 0.*agree_tm=6/6"
             rcnn learn --learner first-label --d 3 --m 5 --tests 6 --seed 2 --level nn --no-cache)
nnt_cli_test(rcnn_learn_nn_d8 0 "max gradient error 0, off the value grid 0.*agree_tm=100/100 correct=100/100"
             rcnn learn --learner gauss-parity --d 8 --m 18 --tests 100 --level nn)
set_tests_properties(cli/rcnn_learn_nn_d8 PROPERTIES LABELS "cli;slow")
nnt_cli_test(rcnn_learn_nn_depth_short 1 "DISAGREE.*agree_tm=0/1" rcnn learn --d 3 --m 7 --tests 1 --seed 11 --depth 500 --level nn)
nnt_cli_test(rcnn_compile_quick 0 "layer 1  V1 5400 x 9, 5400 nonzeros.*distinct values: [0-9]+ .*visited: [0-9]+ distinct patches.*max value error [0-9.e-]+, max gradient error 0 "
             rcnn compile --quick)
nnt_cli_test(rcnn_compile_first_label 0 "first-label \\(16 states\\).*value universe 74.*max gradient error 0 " rcnn compile --learner first-label --d 3 --m 5)
nnt_cli_test(rcnn_compile_bad_d 2 "--d: 17 is out of range" rcnn compile --d 17)
# The RCNN learners in the parity benchmark: rule level and compiled network agree with the direct TM
# on every query (agree_tm = 1) and learn the parity once m >> d; rcnn-nn refuses large d (exit 2).
nnt_cli_test(parity_rcnn 0 "agree_tm\n.* 4 +16 +rcnn +1\\.0000 +0\\.0000 +[0-9.e-]+ +1\\.0000\n +4 +16 +rcnn-nn +1\\.0000 +0\\.0000 +[0-9.e-]+ +1\\.0000"
             parity bench --quick --d 4 --m 8,16 --learners gauss,rcnn,rcnn-nn --reps 1 --rcnn-tests 5 --force --out ${CMAKE_BINARY_DIR}/parity-rcnn)
nnt_cli_test(parity_rcnn_nn_big_d 2 "rcnn-nn needs d <= 8 and m <= 64 \\(got d=16 m=8\\)"
             parity bench --d 16 --m 8 --learners rcnn-nn --out ${CMAKE_BINARY_DIR}/parity-never)
# Grid snapshots (the paper's Figure 3) as images: at SGD step 5, layer 3 the -1/9 band of the
# memorisation phase covers rows 3..7 between memorised rows and unreached zeros; after L layers
# only the output cell (1,1) is non-blank; four PNG + SVG pairs; --out is required.
set(snap ${CMAKE_BINARY_DIR}/rcnn-snapshot)
add_test(NAME cli/rcnn_snapshot
         COMMAND sh -c "rm -rf '${snap}' && '${NNT_EXE}' rcnn snapshot --out '${snap}' > '${snap}.txt' && \
grep -q 'memorise: memorisation phase: SGD step 5, layer 3' '${snap}.txt' && \
grep -A4 'memorise:' '${snap}.txt' | tail -2 | grep -q '^ *-0.1111-0.1111-0.1111-0.1111-0.1111 | 1.0000' && \
grep -A1 '^final:' '${snap}.txt' | tail -1 | grep -q '^ *-0.1856 0.1111 0.1111 0.1111 0.1111 | 0.1111' && \
for f in memorise memory compute final; do test -s '${snap}/'$f.png && test -s '${snap}/'$f.svg || exit 1; done")
set_tests_properties(cli/rcnn_snapshot PROPERTIES LABELS cli)
# without --out the grids are printed, no image drawn, nothing written
nnt_cli_test(rcnn_snapshot_no_out 0 "final: after L=[0-9]+ layers.*\n  " rcnn snapshot --quick)
nnt_no_out_test(rcnn_snapshot rcnn snapshot --quick)
nnt_cli_test(rcnn_compile_lemma 0 "Lemma 5/6 compiler on the visited patches\ndomain X: 356 distinct patches.*W1 +[0-9]+ nonzeros, \\|U\\| = [0-9]+ \\(Lemma 6 bound [0-9]+\\), all in U: yes.*W2\\+ +[0-9]+ nonzeros, \\|U\\| = 1 \\(Lemma 6 bound 1\\), all in U: yes.*max gradient error 0 on X"
             rcnn compile --compiler lemma --learner dictator --d 2 --m 2 --tests 2)
nnt_cli_test(rcnn_compile_lemma_big 2 "the limit is 2000" rcnn compile --compiler lemma --d 4 --m 10)
# The MLP's online regime (one pass, each sample once) beside the sample-limited one.
nnt_cli_test(parity_mlp_online 0 "\n +4 +64 +mlp +[0-9.]+ .*\n +4 +64 +mlp-online +[0-9.]+"
             parity bench --quick --d 4 --m 64 --learners mlp,mlp-online --reps 1 --force --out ${CMAKE_BINARY_DIR}/parity-online)

# The one driver: a --depth below the construction's m+d+1 layers is a bad option (exit 2 saying what
# to give), not a failed check; learn and compile write their tables into --out.
nnt_cli_test(rcnn_learn_depth_invariant 2 "--depth 3: the construction needs at least m\\+d\\+1 = 13 layers.*give --depth 13 or more"
             rcnn learn --d 4 --m 8 --tests 2 --depth 3)
add_test(NAME cli/rcnn_learn_compile_out
         COMMAND sh -c "rm -rf $1 $2 && $0 rcnn learn --quick --out $1 >/dev/null && test -s $1/points.csv && test -s $1/learn.csv && \
$0 rcnn compile --d 2 --m 2 --tests 1 --out $2 >/dev/null && test -s $2/compile.csv"
                 ${NNT_EXE} ${CMAKE_BINARY_DIR}/rcnn-learn-out ${CMAKE_BINARY_DIR}/rcnn-compile-out)
set_tests_properties(cli/rcnn_learn_compile_out PROPERTIES LABELS cli TIMEOUT 300)
# Sizes: the compiled network stores L+1 layers of the grid a thread. Refused by validate at the
# least depth m+d+1 (before --check-options stops), and by the run at the real depth once the direct
# TM's step counts are known (before the network is built); a long run announces its time.
nnt_cli_test_env(rcnn_learn_nn_too_big "NNT_MEM_AVAILABLE=16e9" 2
  "^nnt rcnn: rcnn learn at d = 64, m = 10000, depth >= 10065 \\(--level nn\\) needs about [0-9.]+ GB, more than the 16 GB of memory available: lower --m or --d, or use --level rule"
  rcnn learn --level nn --d 64 --m 10000 --check-options)
nnt_cli_test_env(rcnn_learn_nn_depth_too_big "NNT_MEM_AVAILABLE=5e6" 2
  "depth 53974 \\(--level nn\\) needs about 1.0[0-9]* GB, more than the 0.005 GB of memory available"
  rcnn learn --level nn --d 16 --m 64 --threads 2)
# rcnn compile --export: the compiled network in PyTorch (nnt.load's RCNNCell) and onnxruntime-node
# against the rule-level simulation's patches stored with it (tests/rcnn/test_export.py).
if(NOT NNT_SANITIZE)
  add_test(NAME rcnn/export
           COMMAND /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider ${NNT_SRC_DIR}/tests/rcnn/test_export.py)
  set_tests_properties(rcnn/export PROPERTIES LABELS "python" TIMEOUT 600
                       ENVIRONMENT "NNT=${NNT_EXE};NNT_SRC=${NNT_SRC_DIR};NNT_NODE_DIR=${NNT_NODE_DIR}"
                       SKIP_REGULAR_EXPRESSION "[0-9]+ skipped in")
endif()
nnt_cli_test(rcnn_export_bad_ext 2 "--export cell.txt: unknown format" rcnn compile --quick --export cell.txt)
nnt_cli_test(rcnn_export_lemma 2 "leave out --compiler lemma" rcnn compile --quick --compiler lemma --export cell.onnx)
