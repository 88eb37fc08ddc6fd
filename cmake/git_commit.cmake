# Run at every build (the nnt_git_commit target): writes OUT with the source tree's commit, so that
# --version and run.json name the commit actually built even when the build folder was configured
# at an older one. OUT is rewritten only when the commit changes, so nothing recompiles otherwise.
execute_process(COMMAND git rev-parse --short HEAD WORKING_DIRECTORY ${SRC}
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT commit)
  set(commit unknown)
endif()
set(text "#define NNT_GIT_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
