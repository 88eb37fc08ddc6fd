# The installed library and man page (README.md, "Install and link"), label "install".
# install/example stages `cmake --install` of this build, builds examples/c against the stage
# through pkg-config alone and checks what it prints against `nnt tm run` (example.sh). Not in an
# ASan build: a program linking an instrumented libnnt would need the ASan runtime preloaded.
if(TARGET nnt_tm AND NOT NNT_SANITIZE)
  add_test(NAME install/example
           COMMAND bash ${NNT_SRC_DIR}/tests/install/example.sh ${CMAKE_BINARY_DIR} ${NNT_SRC_DIR} ${NNT_EXE})
  set_tests_properties(install/example PROPERTIES LABELS install TIMEOUT 300)
endif()
# install/manpage: nnt.1 renders without a warning and shows every command, subcommand and option.
add_test(NAME install/manpage
         COMMAND bash ${NNT_SRC_DIR}/tests/install/manpage.sh ${CMAKE_BINARY_DIR}/nnt.1 ${NNT_EXE})
set_tests_properties(install/manpage PROPERTIES LABELS install TIMEOUT 120)
