# Command-line tests of the core: help, version, bad input, the tour.
# nnt_cli_test(NAME EXPECTED_EXIT REGEX args...) runs nnt with args, checks the exit status and
# that the combined output matches REGEX.
function(nnt_cli_test name code regex)
  add_test(NAME cli/${name}
           COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DCODE=${code} -DREGEX=${regex} "-DARGS=${ARGN}"
                   -P ${NNT_SRC_DIR}/tests/cli/expect.cmake)
  set_tests_properties(cli/${name} PROPERTIES LABELS cli TIMEOUT 600)
endfunction()
# nnt_cli_test_env(NAME "VAR=value" EXPECTED_EXIT REGEX args...): the same under an environment
# variable (NNT_MEM_AVAILABLE: the memory the size checks see, so refusals do not depend on the machine).
function(nnt_cli_test_env name env code regex)
  add_test(NAME cli/${name}
           COMMAND ${CMAKE_COMMAND} -E env ${env} ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DCODE=${code} -DREGEX=${regex}
                   "-DARGS=${ARGN}" -P ${NNT_SRC_DIR}/tests/cli/expect.cmake)
  set_tests_properties(cli/${name} PROPERTIES LABELS cli TIMEOUT 600)
endfunction()
# nnt_too_big_test(NAME MEM REGEX args...): under NNT_MEM_AVAILABLE=MEM the command refuses its
# size before any work: exit 2, one line matching REGEX, no --out folder (tests/cli/too_big.sh; the
# folder is ${CMAKE_BINARY_DIR}/too-big-NAME, passed as --out when the command takes one: OUT in args).
function(nnt_too_big_test name mem regex)
  set(dir ${CMAKE_BINARY_DIR}/too-big-${name})
  string(REPLACE "OUT" "${dir}" args "${ARGN}")
  add_test(NAME cli/too_big_${name}
           COMMAND ${CMAKE_COMMAND} -E env NNT_MEM_AVAILABLE=${mem} bash ${NNT_SRC_DIR}/tests/cli/too_big.sh ${NNT_EXE} ${dir} ${regex} ${args})
  set_tests_properties(cli/too_big_${name} PROPERTIES LABELS cli TIMEOUT 60)
endfunction()

nnt_cli_test(help 0 "commands:.*tour" --help)
nnt_cli_test(version 0 "^nnt [0-9]" --version)
nnt_cli_test(version_extra 2 "--version takes nothing after it" --version --nosuch)
# Off a terminal every command shows it is alive (the driver's heartbeat), also one that reports
# no progress of its own: rcnn restarts runs for seconds without a line.
nnt_cli_test_env(heartbeat "NNT_PROGRESS_HEARTBEAT_S=1" 0 "nnt rcnn restarts: still running after [0-9]+s" rcnn restarts --quick --trials 30)
nnt_cli_test(unknown_command 2 "unknown command" frobnicate)
nnt_cli_test(tour_unknown_option 2 "unknown option --bogus" tour --bogus)
nnt_cli_test(tour_bad_threads 2 "--threads: 0 is out of range" tour --threads 0 --out ${CMAKE_BINARY_DIR}/never)
nnt_cli_test(tour_only_unknown 2 "no section named 'nosuch' \\(sections: core," tour --only nosuch --out ${CMAKE_BINARY_DIR}/never)
nnt_cli_test(tour_help_sections 0 "Sections \\(in order\\): core," tour --help)
# Every command's help ends with an example that passes --check-options (tests/cli/examples.cmake);
# --check-options validates as the run does (required, exclusive and area-checked options too).
add_test(NAME cli/examples
         COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DSRC=${NNT_SRC_DIR} -DWD=${CMAKE_BINARY_DIR}/examples-test
                 -P ${NNT_SRC_DIR}/tests/cli/examples.cmake)
set_tests_properties(cli/examples PROPERTIES LABELS cli TIMEOUT 600)
# Every numeric option of every command (from --help) refuses nan, inf, -inf, x, 1e999, '', broken
# lists and a value just past its printed range: exit 2, one line naming it, no stdout, no --out
# folder, with --check-options and without, on each command's example (tests/cli/bad_values.sh).
add_test(NAME cli/bad_values
         COMMAND bash ${NNT_SRC_DIR}/tests/cli/bad_values.sh ${NNT_EXE} ${NNT_SRC_DIR} ${CMAKE_BINARY_DIR}/bad-values-test)
set_tests_properties(cli/bad_values PROPERTIES LABELS cli TIMEOUT 600)
nnt_cli_test(check_options_range 2 "--threads: 0 is out of range" tour --threads 0 --check-options)
# A number too small for a double (an underflow) is still a number, judged by the option's range;
# one too large for a long is out of range, not "not an integer".
nnt_cli_test(option_underflow 0 "options ok" qstr sweep --model tr --noise 1e-310 --check-options)
nnt_cli_test(option_int_overflow 2 "--reps: 99999999999999999999 is out of range \\[1..1000\\]" qstr sweep --model tr --reps 99999999999999999999 --check-options)
nnt_cli_test(bare_nnt 2 "^usage: nnt <command>" "")
nnt_cli_test(bench_unknown 2 "unknown subcommand 'nope'" bench nope)
add_test(NAME cli/tour_quick
         COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DOUT=${CMAKE_BINARY_DIR}/tour-test
                 -P ${NNT_SRC_DIR}/tests/cli/tour.cmake)
set_tests_properties(cli/tour_quick PROPERTIES LABELS cli TIMEOUT 900 RUN_SERIAL ON)
# A failing section is reported in report.md and the later ones still run (tour_failure.cmake).
string(REPLACE ";" "," tour_areas "${NNT_AREAS}")
add_test(NAME cli/tour_failure
         COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DOUT=${CMAKE_BINARY_DIR}/tour-failure-test "-DAREAS=${tour_areas}"
                 -P ${NNT_SRC_DIR}/tests/cli/tour_failure.cmake)
set_tests_properties(cli/tour_failure PROPERTIES LABELS cli TIMEOUT 900 RUN_SERIAL ON)

# Integer lists with progressions (nnt_parse_int_list), seen through a cheap command.
if(TARGET nnt_approx)
  nnt_cli_test(list_arithmetic 0 "\n +6 +64 +64 " approx triangle --L 2,4,...,8 --out ${CMAKE_BINARY_DIR}/list-arith)
  nnt_cli_test(list_geometric 0 "\n +16 +65536 " approx triangle --L 1,2,4,...,16 --out ${CMAKE_BINARY_DIR}/list-geo)
  nnt_cli_test(list_decades 0 "\n +1000000 " approx ntk --widths 10,100,...,1000000 --pairs 2 --out ${CMAKE_BINARY_DIR}/list-ntk)
  nnt_cli_test(list_dots_first 2 "needs two values before it" approx triangle --L 2,...,8)
  nnt_cli_test(list_dots_miss 2 "does not reach 10" approx triangle --L 1,2,4,...,10)
  nnt_cli_test(list_empty_item 2 "'2,4,' has an empty item" approx triangle --L 2,4,)
  nnt_cli_test(file_is_directory 2 "is a directory, not a file" approx separation --n 3 --net ${NNT_SRC_DIR}/tests)
  nnt_cli_test(check_options_area 2 "give exactly one of --net" approx separation --n 6 --check-options)
  nnt_cli_test(list_range 0 "\n +5 +32 " approx triangle --L 3..5 --out ${CMAKE_BINARY_DIR}/list-range)
endif()

if(TARGET nnt_qstr)
  nnt_cli_test(list_empty_double 2 "'1,,2' has an empty item" qstr construct --alpha 1,,2)
  nnt_cli_test(help_range 0 "\n  --reps N +repetitions per N \\(default 5. --quick 1\\) \\[1\\.\\.1000\\]\n" qstr sweep --help)
  nnt_cli_test(check_options_required 2 "--model tr\\|trp\\|ffn\\|rnn\\|relurnn is required" qstr sweep --check-options)
  # --quick alone runs the transformer (README: --quick works with no other option)
  nnt_cli_test(quick_alone_sweep_model 0 "options ok" qstr sweep --quick --check-options)
endif()

if(TARGET nnt_bounds)
  nnt_cli_test(help_range_positive 0 "\n  --eps X +Corollary 2: target excess error \\(default 0\\.1\\) \\(0\\.\\.1\\]\n" bounds rcnn --help)
endif()

# Error lines quote input: control bytes in it are printed as '?', never raw (nnt_fail).
if(TARGET nnt_circuits)
  nnt_cli_test(error_printable 2 "unknown gate type 'FOO\\?\\[31m\\?'" circuit verify ${NNT_SRC_DIR}/tests/cli/escape_bytes.bench)
endif()

# Instruction-set levels: a bad NNT_ISA is refused before any work; the quick qSTR sweeps write
# the same samples.csv, byte for byte, at every level this machine runs (tests/cli/isa_levels.cmake).
nnt_cli_test(isa_unknown 2 "NNT_ISA=sse9: unknown level" tour --quick --out ${CMAKE_BINARY_DIR}/isa-never)
set_tests_properties(cli/isa_unknown PROPERTIES ENVIRONMENT NNT_ISA=sse9)
# The --version line offers the levels of the architecture it runs on, and a level of the other
# architecture is refused in one line. Label "emulated": make test-aarch64 runs them under qemu too.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(version_re "\nkernels: neon \\(best here: neon; NNT_ISA=generic\\|neon chooses\\)\ncpu: [a-z0-9,]+\n$")
  set(foreign avx2)
  set(foreign_re "^nnt: NNT_ISA=avx2: an x86-64 level, not in this build \\(this build: generic\\|neon\\)\n$")
else()
  set(version_re "\nkernels: (generic|avx2|avx512) \\(best here: (generic|avx2|avx512); NNT_ISA=generic\\|avx2\\|avx512 chooses\\)\ncpu: [a-z0-9.,]+\n$")
  set(foreign neon)
  set(foreign_re "^nnt: NNT_ISA=neon: an aarch64 level, not in this build \\(this build: generic\\|avx2\\|avx512\\)\n$")
endif()
foreach(t version_isa isa_foreign)
  if(t STREQUAL version_isa)
    set(code 0)
    set(re "${version_re}")
    set(env NNT_ISA=)
  else()
    set(code 2)
    set(re "${foreign_re}")
    set(env NNT_ISA=${foreign})
  endif()
  add_test(NAME cli/${t}
           COMMAND ${CMAKE_COMMAND} -E env ${env} ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DCODE=${code} "-DREGEX=${re}"
                   "-DEMULATOR=${CMAKE_CROSSCOMPILING_EMULATOR}" -DARGS=--version -P ${NNT_SRC_DIR}/tests/cli/expect.cmake)
  set_tests_properties(cli/${t} PROPERTIES LABELS "cli;emulated" TIMEOUT 600)
endforeach()
# On aarch64 the arithmetic peak (src/core/peak_isa.c), the benchmarks' roofline denominator, must
# time the fused multiply-add the kernels use, FMLA, not a multiply then an add: its loop in the
# built nnt, disassembled (tests/cli/peak_fmla.cmake; qemu cannot time it, this sees the instruction).
# Label "emulated": make test-aarch64 runs it.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$" AND CMAKE_OBJDUMP)
  add_test(NAME cli/peak_fmla COMMAND ${CMAKE_COMMAND} -DOBJDUMP=${CMAKE_OBJDUMP} -DEXE=${NNT_EXE}
                                      -P ${NNT_SRC_DIR}/tests/cli/peak_fmla.cmake)
  set_tests_properties(cli/peak_fmla PROPERTIES LABELS "cli;emulated" TIMEOUT 60)
endif()
if(TARGET nnt_qstr)
  add_test(NAME cli/isa_levels
           COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DOUT=${CMAKE_BINARY_DIR}/isa-test "-DLEVELS=${NNT_ISA_HOST_LEVELS}"
                   -P ${NNT_SRC_DIR}/tests/cli/isa_levels.cmake)
  set_tests_properties(cli/isa_levels PROPERTIES LABELS "cli;isa" TIMEOUT 600)
  if(NNT_SANITIZE)
    # nine sweeps at -O0 with ASan ran past 600 s on a loaded 2-core machine; the sanitizers see the
    # kernels at every level through the unit tests (NAME@LEVEL), the bit identity is the release build's
    set_tests_properties(cli/isa_levels PROPERTIES LABELS "cli;isa;slow")
  endif()
endif()
# ... and whichever variants of libm's functions glibc picks for this CPU (tests/cli/libm_variants.cmake)
if(TARGET nnt_qstr AND TARGET nnt_icl AND TARGET nnt_approx)
  add_test(NAME cli/libm_variants
           COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DOUT=${CMAKE_BINARY_DIR}/libm-test -P ${NNT_SRC_DIR}/tests/cli/libm_variants.cmake)
  set_tests_properties(cli/libm_variants PROPERTIES LABELS "cli;isa" TIMEOUT 600)
endif()

# --config reruns a recorded run.json exactly (tests/cli/config_rerun.cmake: the CSVs byte for byte, a
# changed option in the file changes them, the command line overrides the file, results.json = CSV),
# for one cheap command per area; bad files are refused in one line naming file and key, exit 2.
function(nnt_config_test name cmd csv key value)
  add_test(NAME cli/config_${name}
           COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DOUT=${CMAKE_BINARY_DIR}/config-${name} "-DNAME=${cmd}" -DCSV=${csv}
                   -DKEY=${key} "-DVALUE=${value}" "-DARGS=${ARGN}" -P ${NNT_SRC_DIR}/tests/cli/config_rerun.cmake)
  set_tests_properties(cli/config_${name} PROPERTIES LABELS cli TIMEOUT 120)
endfunction()
if(TARGET nnt_qstr)
  nnt_config_test(qstr "qstr construct" construct.csv n 600 --quick --N 6 --alpha 0,0.3,1 --n 500 --seed 7 --enc code)
  set(cfg ${NNT_SRC_DIR}/tests/cli/config)
  set(never --out ${CMAKE_BINARY_DIR}/config-never)
  nnt_cli_test(config_missing 2 "--config: cannot read .*nosuch.json" qstr construct --config ${cfg}/nosuch.json ${never})
  nnt_cli_test(config_malformed 2 "--config: .*malformed.json:2: malformed JSON" qstr construct --config ${cfg}/malformed.json ${never})
  nnt_cli_test(config_command 2 "other_command.json records a run of nnt tm run, not of nnt qstr construct"
               qstr construct --config ${cfg}/other_command.json ${never})
  nnt_cli_test(config_no_options 2 "no_options.json: no \"options\" object" qstr construct --config ${cfg}/no_options.json ${never})
  nnt_cli_test(config_unknown 2 "unknown_option.json: \"bogus\" is no option of nnt qstr construct"
               qstr construct --config ${cfg}/unknown_option.json ${never})
  nnt_cli_test(config_type 2 "wrong_type.json: option \"N\": expected an integer" qstr construct --config ${cfg}/wrong_type.json ${never})
  nnt_cli_test(config_list 2 "wrong_list.json: option \"alpha\": expected a list of numbers"
               qstr construct --config ${cfg}/wrong_list.json ${never})
  nnt_cli_test(config_range 2 "out_of_range.json: --N: 1 is out of range \\[2..100000\\]" qstr construct --config ${cfg}/out_of_range.json ${never})
  nnt_cli_test(config_nonfinite 2 "nonfinite.json: field options.N is not a finite number \\(it reads as -Inf\\)"
               qstr construct --config ${cfg}/nonfinite.json ${never})
  nnt_cli_test(config_choice 2 "bad_choice.json: --enc: 'morse' is not one of" qstr construct --config ${cfg}/bad_choice.json ${never})
  nnt_cli_test(config_given 2 "bad_given.json: \"given\": nope is no option" qstr construct --config ${cfg}/bad_given.json ${never})
  nnt_cli_test(config_abbrev 2 "give it once, written out in full" qstr construct --conf ${cfg}/malformed.json ${never})
  nnt_cli_test(config_help 0 "--config FILE +rerun the run recorded in FILE" qstr construct --help)
endif()
if(TARGET nnt_tm) # the machine comes from the file's "args"
  nnt_config_test(tm "tm run" trace.csv steps 9 ${NNT_SRC_DIR}/examples/tm/bb3.tm --trace --steps 11)
endif()
if(TARGET nnt_icl)
  nnt_config_test(icl "icl construct" steps.csv eta 0.25 --quick --K 4 --act tanh --eta 0.3 --steps 4 --seed 5)
endif()
# report.html in a real browser: headless Chromium loads it through a test-only harness page
# (report_check.html) that reports broken images and dead links; `scripts/deps.sh test` installs it.
find_program(NNT_CHROMIUM NAMES chromium chromium-browser google-chrome)
if(NNT_CHROMIUM)
  foreach(mode full fault)
    add_test(NAME cli/report_html_${mode}
             COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DOUT=${CMAKE_BINARY_DIR}/report-html-${mode} -DMODE=${mode}
                     -DCHROMIUM=${NNT_CHROMIUM} -DHARNESS=${NNT_SRC_DIR}/tests/cli/report_check.html
                     -P ${NNT_SRC_DIR}/tests/cli/report_html.cmake)
  endforeach()
  # the full one runs the whole quick tour (about 20 s on 2 cores)
  set_tests_properties(cli/report_html_full PROPERTIES LABELS "cli;slow" TIMEOUT 300 RUN_SERIAL ON)
  set_tests_properties(cli/report_html_fault PROPERTIES LABELS cli TIMEOUT 120)
else()
  message(STATUS "chromium not found: the report.html browser tests (cli/report_html_*) are not registered; "
                 "`bash scripts/deps.sh test` installs it")
endif()

if(TARGET nnt_qstr) # --check-options with --force leaves the folder's sweep as it is
  add_test(NAME cli/check_options_force
           COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DOUT=${CMAKE_BINARY_DIR}/check-force -P ${NNT_SRC_DIR}/tests/cli/check_force.cmake)
  set_tests_properties(cli/check_options_force PROPERTIES LABELS cli TIMEOUT 120)
endif()
# input the run itself refuses (exit 2): the --out folder it made is removed again, one that
# existed before stays
add_test(NAME cli/refused_input_leaves_no_folder
         COMMAND sh -c "rm -rf $1 $2 && mkdir $2 && $0 qstr ffn-bound --n 100 --out $1; test $? = 2 && test ! -e $1 && $0 qstr ffn-bound --n 100 --out $2; test $? = 2 && test -d $2"
                 ${NNT_EXE} ${CMAKE_BINARY_DIR}/refused-new ${CMAKE_BINARY_DIR}/refused-old)
set_tests_properties(cli/refused_input_leaves_no_folder PROPERTIES LABELS cli)
# the default thread count: OMP_NUM_THREADS when set, else the process's affinity mask (taskset,
# mpirun's binding, Slurm), as recorded in run.json
find_program(TASKSET taskset)
if(TASKSET)
  add_test(NAME cli/threads_default
           COMMAND sh -c "rm -rf $2 $3 && env -u OMP_NUM_THREADS $1 -c 0 $0 qstr ffn-bound --quick --out $2 >/dev/null && grep -q '\"threads\":.1,' $2/run.json && OMP_NUM_THREADS=3 $0 qstr ffn-bound --quick --out $3 >/dev/null && grep -q '\"threads\":.3,' $3/run.json"
                   ${NNT_EXE} ${TASKSET} ${CMAKE_BINARY_DIR}/threads-mask ${CMAKE_BINARY_DIR}/threads-env)
  set_tests_properties(cli/threads_default PROPERTIES LABELS cli)
endif()

# Out of memory and full disks (docs/reliability.md): an allocation failing under ulimit -v, and
# writes failing under ulimit -f, end the run with one line; the files written before stay intact.
if(TARGET nnt_circuits)
  add_test(NAME cli/out_of_memory
           COMMAND bash ${NNT_SRC_DIR}/tests/cli/out_of_memory.sh ${NNT_EXE} ${NNT_SRC_DIR}/examples/circuits/compare4.aag
                   ${CMAKE_BINARY_DIR}/out-of-memory)
  set_tests_properties(cli/out_of_memory PROPERTIES LABELS cli TIMEOUT 60 SKIP_RETURN_CODE 77)
endif()
# What a user points at is never destroyed: symlinks followed, devices and FIFOs written in place or
# refused, a failed write to standard output is exit 2 (tests/cli/write_targets.sh).
if(TARGET nnt_rcnn AND TARGET nnt_tm AND TARGET nnt_qstr)
  add_test(NAME cli/write_targets COMMAND bash ${NNT_SRC_DIR}/tests/cli/write_targets.sh ${NNT_EXE} ${NNT_SRC_DIR} ${CMAKE_BINARY_DIR}/write-targets)
  set_tests_properties(cli/write_targets PROPERTIES LABELS cli TIMEOUT 120)
endif()
if(TARGET nnt_icl AND TARGET nnt_tm)
  add_test(NAME cli/full_disk COMMAND bash ${NNT_SRC_DIR}/tests/cli/full_disk.sh ${NNT_EXE} ${NNT_SRC_DIR} ${CMAKE_BINARY_DIR}/full-disk)
  set_tests_properties(cli/full_disk PROPERTIES LABELS cli TIMEOUT 60)
endif()

# The one driver (src/cli/driver.c): without --out a command writes no file; --check-options
# validates the input files before it stops; run.json records the real thread count.
function(nnt_no_out_test name)
  add_test(NAME cli/no_out_${name}
           COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DWD=${CMAKE_BINARY_DIR}/no-out-${name} "-DARGS=${ARGN}"
                   -P ${NNT_SRC_DIR}/tests/cli/no_out.cmake)
  set_tests_properties(cli/no_out_${name} PROPERTIES LABELS cli TIMEOUT 600)
endfunction()
if(TARGET nnt_approx)
  nnt_no_out_test(approx_square approx square --quick)
  nnt_no_out_test(approx_ntk approx ntk --quick)
endif()
if(TARGET nnt_tm)
  nnt_no_out_test(tm_compile tm compile 1RB1LB_1LA1RZ)
  nnt_cli_test(check_options_file 2 "cannot read /nonexistent.tm" tm compile /nonexistent.tm --check-options)
  add_test(NAME cli/run_json_threads
           COMMAND sh -c "rm -rf $1 && env -u OMP_NUM_THREADS $0 tm run 1RB1LB_1LA1RZ --out $1 >/dev/null && grep -q '\"threads\":.[1-9]' $1/run.json"
                   ${NNT_EXE} ${CMAKE_BINARY_DIR}/run-json-threads)
  set_tests_properties(cli/run_json_threads PROPERTIES LABELS cli TIMEOUT 60)
endif()
# --quick alone, for every command in nnt help --list: runs (exit 0), only a command whose input is a
# file the user names refusing in one line (exit 2); never a crash, a hang or exit 1
# (tests/cli/quick_alone.sh). The benchmarks, approx check and the icl trainings take minutes:
# cli/quick_alone_all (slow) runs every command, cli/quick_alone the rest; icl figures (ten micro
# models, a minute) has its own case outside ASan.
add_test(NAME cli/quick_alone COMMAND bash ${NNT_SRC_DIR}/tests/cli/quick_alone.sh ${NNT_EXE} ${CMAKE_BINARY_DIR}/quick-alone
                                      "^(export|qstr (plot|construct|ffn-bound|rnn-oracle|rnn-minnorm|rnn-width|sweep)|approx (square|separation|planting|sobolev|lazy)|circuit|tm|bounds|rcnn (learn|snapshot)|tm2d|parity|icl (construct|eval|sweep-depth))")
set_tests_properties(cli/quick_alone PROPERTIES LABELS cli TIMEOUT 600)
add_test(NAME cli/quick_alone_all COMMAND bash ${NNT_SRC_DIR}/tests/cli/quick_alone.sh ${NNT_EXE} ${CMAKE_BINARY_DIR}/quick-alone-all)
set_tests_properties(cli/quick_alone_all PROPERTIES LABELS "cli;slow" TIMEOUT 3600)
