# Runs EXE ARGS (under EMULATOR where given: a cross build's qemu); fails unless the exit status is
# CODE and stdout+stderr match REGEX.
set(args ${ARGS})
execute_process(COMMAND ${EMULATOR} ${EXE} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL CODE)
  message(FATAL_ERROR "exit ${rc}, expected ${CODE}\nstdout: ${out}\nstderr: ${err}")
endif()
# Progress lines ("...: still running after Ns") come when a loaded machine makes a run slow: they
# are not the command's output, so a pattern anchored at the end must not depend on them.
if(NOT REGEX MATCHES "still running")
  string(REGEX REPLACE "[^\n]*: still running after [0-9]+s[^\n]*\n" "" err "${err}")
endif()
if(NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}'\nstdout: ${out}\nstderr: ${err}")
endif()
