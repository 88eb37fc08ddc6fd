# A computing command run without --out writes its console report and no file (README, "Output
# folders"): run EXE ARGS in the empty folder WD (from SRC, for relative inputs given absolute),
# exit 0, and WD must still be empty.
file(REMOVE_RECURSE ${WD})
file(MAKE_DIRECTORY ${WD})
set(args ${ARGS})
execute_process(COMMAND ${EXE} ${args} WORKING_DIRECTORY ${WD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "exit ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
file(GLOB left RELATIVE ${WD} ${WD}/*)
if(left)
  message(FATAL_ERROR "nnt ${args} without --out wrote into the working folder: ${left}")
endif()
