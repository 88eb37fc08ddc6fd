# Runs EXE ARGS; fails unless the exit status is CODE and stdout+stderr match REGEX.
set(args ${ARGS})
execute_process(COMMAND ${EXE} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL CODE)
  message(FATAL_ERROR "exit ${rc}, expected ${CODE}\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}'\nstdout: ${out}\nstderr: ${err}")
endif()
