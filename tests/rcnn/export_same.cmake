# The shipped examples/rcnn/LEARNER.tm2d is what `nnt tm2d export --learner LEARNER` writes.
execute_process(COMMAND ${EXE} tm2d export --learner ${LEARNER} RESULT_VARIABLE rc OUTPUT_VARIABLE out)
file(READ ${FILE} shipped)
if(NOT rc EQUAL 0 OR NOT out STREQUAL shipped)
  message(FATAL_ERROR "exit ${rc}; export of ${LEARNER} differs from ${FILE}:\n${out}")
endif()
