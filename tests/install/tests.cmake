# The installed library and man page (README.md, "Install and link"), label "install".
# install/example stages `cmake --install` of this build, builds examples/c against the stage
# through pkg-config alone and checks what it prints against `nnt tm run` (example.sh). Not in an
# ASan build: a program linking an instrumented libnnt would need the ASan runtime preloaded.
# The example is built by the compiler that built the library, and again by the other of gcc and
# clang where both are installed (install/example_cross: nnt.pc must not depend on the compiler).
if(TARGET nnt_tm AND NOT NNT_SANITIZE AND NOT NNT_FUZZ)
  add_test(NAME install/example
           COMMAND bash ${NNT_SRC_DIR}/tests/install/example.sh ${CMAKE_BINARY_DIR} ${NNT_SRC_DIR} ${NNT_EXE} ${CMAKE_C_COMPILER})
  set_tests_properties(install/example PROPERTIES LABELS install TIMEOUT 300 RESOURCE_LOCK nnt_install)
  if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
    find_program(NNT_OTHER_CC NAMES clang)
  else()
    find_program(NNT_OTHER_CC NAMES gcc)
  endif()
  if(NNT_OTHER_CC)
    add_test(NAME install/example_cross
             COMMAND bash ${NNT_SRC_DIR}/tests/install/example.sh ${CMAKE_BINARY_DIR} ${NNT_SRC_DIR} ${NNT_EXE} ${NNT_OTHER_CC})
    set_tests_properties(install/example_cross PROPERTIES LABELS install TIMEOUT 300 RESOURCE_LOCK nnt_install)
  endif()
endif()
# install/manpage: nnt.1 renders without a warning and shows every command, subcommand and option.
add_test(NAME install/manpage
         COMMAND bash ${NNT_SRC_DIR}/tests/install/manpage.sh ${CMAKE_BINARY_DIR}/nnt.1 ${NNT_EXE})
set_tests_properties(install/manpage PROPERTIES LABELS install TIMEOUT 120)
