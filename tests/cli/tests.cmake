# Command-line tests of the core: help, version, bad input, the tour.
# nnt_cli_test(NAME EXPECTED_EXIT REGEX args...) runs nnt with args, checks the exit status and
# that the combined output matches REGEX.
function(nnt_cli_test name code regex)
  add_test(NAME cli/${name}
           COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DCODE=${code} -DREGEX=${regex} "-DARGS=${ARGN}"
                   -P ${NNT_SRC_DIR}/tests/cli/expect.cmake)
  set_tests_properties(cli/${name} PROPERTIES LABELS cli TIMEOUT 600)
endfunction()

nnt_cli_test(help 0 "commands:.*tour" --help)
nnt_cli_test(version 0 "^nnt [0-9]" --version)
nnt_cli_test(unknown_command 2 "unknown command" frobnicate)
nnt_cli_test(tour_unknown_option 2 "unknown option --bogus" tour --bogus)
nnt_cli_test(tour_bad_threads 2 "--threads: 0 is out of range" tour --threads 0 --out ${CMAKE_BINARY_DIR}/never)
nnt_cli_test(tour_only_unknown 2 "no section named 'nosuch' \\(sections: core," tour --only nosuch --out ${CMAKE_BINARY_DIR}/never)
nnt_cli_test(tour_help_sections 0 "sections \\(in order\\): core," tour --help)
# Every command's help ends with an example that passes --check-options (tests/cli/examples.cmake);
# --check-options validates as the run does (required, exclusive and area-checked options too).
add_test(NAME cli/examples
         COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DSRC=${NNT_SRC_DIR} -DWD=${CMAKE_BINARY_DIR}/examples-test
                 -P ${NNT_SRC_DIR}/tests/cli/examples.cmake)
set_tests_properties(cli/examples PROPERTIES LABELS cli TIMEOUT 600)
nnt_cli_test(check_options_range 2 "--threads: 0 is out of range" tour --threads 0 --check-options)
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
  nnt_cli_test(check_options_required 2 "--model tr\\|trp\\|ffn\\|rnn\\|relurnn is required" qstr sweep --quick --check-options)
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
nnt_cli_test(version_isa 0 "kernels: (generic|avx2|avx512) " --version)
if(TARGET nnt_qstr)
  add_test(NAME cli/isa_levels
           COMMAND ${CMAKE_COMMAND} -DEXE=${NNT_EXE} -DOUT=${CMAKE_BINARY_DIR}/isa-test "-DLEVELS=${NNT_ISA_HOST_LEVELS}"
                   -P ${NNT_SRC_DIR}/tests/cli/isa_levels.cmake)
  set_tests_properties(cli/isa_levels PROPERTIES LABELS "cli;isa" TIMEOUT 600)
endif()
