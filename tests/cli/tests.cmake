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
nnt_cli_test(bench_unknown 2 "unknown benchmark" bench nope)
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
  nnt_cli_test(list_range 0 "\n +5 +32 " approx triangle --L 3..5 --out ${CMAKE_BINARY_DIR}/list-range)
endif()

if(TARGET nnt_qstr)
  nnt_cli_test(list_empty_double 2 "'1,,2' has an empty item" qstr construct --alpha 1,,2)
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
