# Command-line tests of nnt qstr: bad input (exit 2, no output folder), the quick presets with
# assertions on their outcome (tests/qstr/quick.cmake), verification commands (exit 0 = verified).
nnt_cli_test(qstr_help 0 "sweep.*ffn-bound" qstr --help)
nnt_cli_test(qstr_no_sub 2 "missing subcommand" qstr)
nnt_cli_test(qstr_bad_sub 2 "unknown subcommand .frob." qstr frob)
nnt_cli_test(qstr_bad_model 2 "--model: 'cnn' is not one of" qstr sweep --model cnn --out ${CMAKE_BINARY_DIR}/qstr-never)
nnt_cli_test(qstr_no_model 2 "--model .* is required" qstr sweep --out ${CMAKE_BINARY_DIR}/qstr-never)
nnt_cli_test(qstr_zero_lr 2 "--lr: 0 is out of range" qstr sweep --model tr --lr 0 --out ${CMAKE_BINARY_DIR}/qstr-never)
nnt_cli_test(qstr_bad_N 2 "--N: 1 is out of range \\[2" qstr sweep --model tr --N 1,4 --out ${CMAKE_BINARY_DIR}/qstr-never)
nnt_cli_test(qstr_bad_q 2 "q must be in \\[1, N\\]" qstr sweep --model tr --N 4 --q 5 --out ${CMAKE_BINARY_DIR}/qstr-never)
nnt_cli_test(qstr_bad_de 2 "--de: 0 is out of range" qstr sweep --model tr --de 0 --out ${CMAKE_BINARY_DIR}/qstr-never)
nnt_cli_test(qstr_foreign_option 2 "unknown option --batch .nnt qstr construct --help" qstr construct --batch 3)
nnt_cli_test(qstr_resume_force 2 "--resume and --force exclude each other" qstr sweep --model tr --resume --force --out ${CMAKE_BINARY_DIR}/qstr-never)
nnt_cli_test(qstr_bad_threshold 2 "threshold must be > 0" qstr sweep --model tr --threshold 0 --out ${CMAKE_BINARY_DIR}/qstr-never)
nnt_cli_test(qstr_bad_testtask 2 "--test-task" qstr sweep --model tr --test-task other --out ${CMAKE_BINARY_DIR}/qstr-never)
# samples.csv rows found by fuzz/fuzz_report_qstrplot: a count beyond long is refused; two at LONG_MAX
# average without overflow (undefined behaviour before, caught by the sanitizer run)
nnt_cli_test(qstr_plot_bad_row 2 "plot_bad/samples.csv:3: malformed row" qstr plot ${NNT_SRC_DIR}/tests/qstr/plot_bad --out ${CMAKE_BINARY_DIR}/qstr-never)
nnt_cli_test(qstr_plot_huge 0 "plot: 1 curve" qstr plot ${NNT_SRC_DIR}/tests/qstr/plot_huge --out ${CMAKE_BINARY_DIR}/qstr-plot-huge)
nnt_cli_test(qstr_plot_missing 2 "cannot read .*samples.csv: No such file" qstr plot ${CMAKE_BINARY_DIR}/qstr-none --out ${CMAKE_BINARY_DIR}/qstr-never)
nnt_cli_test(qstr_ffn_bound_bad_n 2 "exceeds Nd" qstr ffn-bound --N 4 --d 5 --n 21 --out ${CMAKE_BINARY_DIR}/qstr-never)
nnt_cli_test(qstr_construct 0 "Monte Carlo within 5 standard errors: 7/7" qstr construct --quick)
nnt_cli_test(qstr_ffn_bound 0 "1 - n/\\(Nd\\)" qstr ffn-bound --quick)
# Theorem 7 / Prop. 28: the oracle RNN exact on simple-qSTR; Prop. 8: the shift register on the width bound
nnt_cli_test(qstr_rnn_oracle 0 "exact on simple-qSTR \\(MSE <= 1e-12\\): 3 of 3.*within 5 standard errors of the bound: 6 of 6" qstr rnn-oracle --quick)
# the check is two-sided and can fail: the bound inflated (a register below a lower bound) or deflated
nnt_cli_test(qstr_rnn_oracle_bound_up 1 "bound column is scaled by 1.5.*within 5 standard errors of the bound: 1 of 6.*off the linear-state bound at 5 point" qstr rnn-oracle --quick --bound-scale 1.5)
nnt_cli_test(qstr_rnn_oracle_bound_down 1 "within 5 standard errors of the bound: 1 of 6.*off the linear-state bound at 5 point" qstr rnn-oracle --quick --bound-scale 0.5)
nnt_cli_test(qstr_rnn_oracle_normsq 2 "link must be linear or relu" qstr rnn-oracle --quick --link normsq)
# Theorem 9: the prompts min-norm ERM of the RNN needs grow with N (exit 0); the retrieval control's do
# not (exit 1: the check can fail); fewer than three N values cannot give the exponent's standard error
nnt_cli_test(qstr_rnn_minnorm 0 "   16 +62 +24 .*n\\* ~ N\\^0\\.[5-9][0-9]* \\+- 0\\.0.*5 standard errors: yes" qstr rnn-minnorm --quick)
nnt_cli_test(qstr_rnn_minnorm_retrieve 1 "n\\* ~ N\\^0\\.000.*5 standard errors: no.*do not grow with N" qstr rnn-minnorm --quick --retrieve)
nnt_cli_test(qstr_rnn_minnorm_two_N 2 "3 to 32 values of N" qstr rnn-minnorm --N 4,8)
# Prop. 8 beside training: the smallest biGRU width reaching the threshold grows from N = 2 to 4 (exit 0);
# the --flat control trains every N on the first N's task, so H_min cannot grow (exit 1); bad options exit 2
nnt_cli_test(qstr_rnn_width 0 "    2      2 +[0-9]+ .*    4      8 +[0-9]+ .*not checked against.*H_min ~ N\\^2\\.000.*grows with N .*: yes" qstr rnn-width --quick --force --out ${CMAKE_BINARY_DIR}/qstr-rnn-width)
nnt_cli_test(qstr_rnn_width_flat 1 "control \\(--flat\\).*    2      2 .*    4      2 .*grows with N .*: no.*does not grow with N" qstr rnn-width --quick --flat)
nnt_cli_test(qstr_rnn_width_order 2 "--N must increase \\(4 after 8\\)" qstr rnn-width --quick --N 8,4 --out ${CMAKE_BINARY_DIR}/qstr-never)
nnt_cli_test(qstr_rnn_width_threshold 2 "--threshold must be in \\(0, 1\\)" qstr rnn-width --quick --threshold 1.5 --out ${CMAKE_BINARY_DIR}/qstr-never)
nnt_cli_test(qstr_rnn_width_budget 2 "below one batch" qstr rnn-width --quick --budget 10 --out ${CMAKE_BINARY_DIR}/qstr-never)
nnt_cli_test(qstr_rnn_width_one_N 2 "2 to 16 values of N" qstr rnn-width --quick --N 4)
nnt_cli_test(qstr_heads_law 2 "adversarial law needs q <= N/2" qstr heads --quick --q 4 --out ${CMAKE_BINARY_DIR}/qstr-never)
nnt_cli_test(qstr_heads_uniform 0 "uniform index law.*no bound is proven under the uniform law: nothing checked" qstr heads --quick --law uniform --q 2 --d 1 --H 1 --samples 3200)
# every sweep prints its log-log slope; --figure 1b sets the panel's protocol, options given override it
nnt_cli_test(qstr_figure_1b 0 "tr +simple +10 .*log-log fit tr \\(simple\\): median samples ~ N\\^" qstr sweep --model tr --figure 1b --quick --threads 2)
add_test(NAME cli/qstr_figures
         COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DOUT=${CMAKE_BINARY_DIR}/qstr-figures
                 -P ${NNT_SRC_DIR}/tests/qstr/figures.cmake)
set_tests_properties(cli/qstr_figures PROPERTIES LABELS cli TIMEOUT 900)
add_test(NAME cli/qstr_quick
         COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DOUT=${CMAKE_BINARY_DIR}/qstr-test
                 -P ${NNT_SRC_DIR}/tests/qstr/quick.cmake)
set_tests_properties(cli/qstr_quick PROPERTIES LABELS cli TIMEOUT 900)
add_test(NAME cli/qstr_presets
         COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DOUT=${CMAKE_BINARY_DIR}/qstr-presets
                 -P ${NNT_SRC_DIR}/tests/qstr/presets.cmake)
set_tests_properties(cli/qstr_presets PROPERTIES LABELS cli TIMEOUT 900)
# the recurrent model's quick preset (biGRU, hidden 64): reaches the threshold at N = 4
nnt_cli_test(qstr_rnn_quick 0 "rnn +1str +4 +[0-9]+ +[0-9]+ +[0-9]+ +0" qstr sweep --quick --model rnn --N 2,4 --test-task simple --threads 2)
# nnt bench qstr --peer: bad peers are refused before any work; the plumbing (running the peer,
# reading its results, the side-by-side tables) through a stand-in interpreter (fake_peer/python)
set(FAKE ${NNT_SRC_DIR}/tests/qstr/fake_peer)
nnt_cli_test(qstr_bench_peer_missing 2 "no sample_complexity.py there" bench qstr --peer ${CMAKE_BINARY_DIR}/no-peer)
nnt_cli_test(qstr_bench_peer_reps 2 "drop --reps" bench qstr --peer ${FAKE} --python ${FAKE}/python --reps 2)
nnt_cli_test(qstr_bench_peer_python 2 "--python /nonexistent/python3: not an executable" bench qstr --peer ${FAKE} --python /nonexistent/python3)
nnt_cli_test(qstr_bench_peer_rnn 0 "eval +N = 12 +[0-9.]+ +[0-9.]+ +[0-9.]+% +1000.00 +[0-9.]+ +[0-9.]+x"
             bench qstr --model rnn --quick --peer ${FAKE} --python ${FAKE}/python)
nnt_cli_test(qstr_bench_peer_tr 0 "tr +[0-9.]+ s +[0-9.]+ s +[0-9.]+x.*\n +12 +[0-9]+ +18000 "
             bench qstr --model tr --peer ${FAKE} --python ${FAKE}/python)
set_tests_properties(cli/qstr_bench_peer_rnn cli/qstr_bench_peer_tr PROPERTIES LABELS "cli;slow")

# The sweep engine's contract, on a real sweep: kill -9 mid-way, --resume, identical CSVs, no finished point recomputed.
add_test(NAME qstr/kill_resume COMMAND bash ${NNT_SRC_DIR}/tests/qstr/kill_resume.sh ${NNT_EXE} ${CMAKE_BINARY_DIR}/qstr-kill)
set_tests_properties(qstr/kill_resume PROPERTIES LABELS cli TIMEOUT 600)
# Sizes that cannot fit are refused before any allocation (one line, exit 2), not by an abort.
nnt_cli_test(qstr_too_big 2 "the rnn model at N = 2 needs about [0-9.]+ GB, more than the [0-9.]+ GB of memory available: lower" qstr sweep --model rnn --hidden-size 30000 --out ${CMAKE_BINARY_DIR}/qstr-never-big)
# construct --N 4096 holds q x 256 x N x N attention weights (38 GB): refused by validate, before
# --check-options stops (it used to fail after allocating); a size that fits still runs.
nnt_cli_test_env(qstr_construct_too_big "NNT_MEM_AVAILABLE=8e9" 2
  "^nnt qstr: construct at N = 4096, q = 1, d = 10 needs about [0-9.]+ GB, more than the 8 GB of memory available: lower --N"
  qstr construct --N 4096 --check-options)
nnt_cli_test_env(qstr_construct_fits "NNT_MEM_AVAILABLE=8e9" 0 "Monte Carlo within 5 standard errors: 3/3" qstr construct --N 8 --alpha 0,0.5,1)
# the sweep's workspaces count: tr at N = 2000 holds 64 x N x N attention a thread (about 2 GB)
nnt_cli_test_env(qstr_sweep_workspace_too_big "NNT_MEM_AVAILABLE=1e9" 2 "the tr model at N = 2000 needs about [0-9.]+ GB, more than the 1 GB"
  qstr sweep --model tr --N 2000 --threads 1 --check-options)
# attention holds its training set whole: 50000 prompts at N = 2000 are about 2 x 10^10 floats
nnt_cli_test_env(qstr_attention_too_big "NNT_MEM_AVAILABLE=8e9" 2
  "qstr attention at N = 2000 with 50000 training prompts needs about [0-9.]+ GB, more than the 8 GB of memory available: lower --n-train"
  qstr attention --N 2000 --check-options)
# a sweep that may run for days says so before it starts (its first line), then stops early here
# (every run reaches the loose threshold at its first check)
add_test(NAME qstr/sweep_time_notice
         COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DCODE=0 "-DREGEX=qstr sweep: expect up to [0-9.]+ (hours|days) \\(should no run"
                 "-DARGS=qstr;sweep;--model;tr;--N;4;--reps;1;--d;200;--threshold;100;--max-samples;100000000;--n-test;10;--threads;1;--force;--out;${CMAKE_BINARY_DIR}/qstr-notice"
                 -P ${NNT_SRC_DIR}/tests/cli/expect.cmake)
set_tests_properties(qstr/sweep_time_notice PROPERTIES LABELS cli TIMEOUT 600)
# ffn-bound's least squares at n up to Nd: an n x Nd matrix; refused before any allocation (issue 29, sizes)
nnt_cli_test_env(qstr_ffn_bound_too_big "NNT_MEM_AVAILABLE=1e9" 2
                 "ffn-bound at N = 1000, d = 100 needs about 161 GB, more than the 1 GB of memory available: lower --N or --d"
                 qstr ffn-bound --N 1000 --d 100)
nnt_cli_test_env(qstr_ffn_bound_too_big_check "NNT_MEM_AVAILABLE=1e9" 2 "needs about 161 GB" qstr ffn-bound --N 1000 --d 100 --check-options)
nnt_cli_test_env(qstr_ffn_bound_fits "NNT_MEM_AVAILABLE=1e9" 0 "   20 +0\\.0000 +0\\.0000 +0\\.0000" qstr ffn-bound --quick)
# heads and rnn-oracle refuse a size that cannot fit before any work (tests/cli/too_big.sh)
nnt_too_big_test(qstr_heads 8e9 "qstr heads at N = 100000, d = 12, H up to 4 needs about [0-9.e+]+ GB, more than the 8 GB of memory available: lower --N"
                 qstr heads --quick --N 100000 --out OUT)
nnt_too_big_test(qstr_rnn_minnorm 1e9 "rnn-minnorm at d = 64 needs about [0-9.e+]+ GB, more than the 1 GB .*: lower --N, --d or --budget"
                 qstr rnn-minnorm --d 64 --N 1024,2048,4096 --out OUT)
nnt_too_big_test(qstr_rnn_oracle 8e9 "rnn-oracle at d = 4096, q = 64 needs about [0-9.e+]+ GB, more than the 8 GB .*: lower --d or --q"
                 qstr rnn-oracle --d 4096 --q 64 --N 4096 --out OUT)
