# nnt tour --quick writes report.md; the bad-option run before it must not create its folder.
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${EXE} tour --quick --out ${OUT} --only nosuch RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 2 OR EXISTS ${OUT})
  message(FATAL_ERROR "bad --only: exit ${rc}, folder created: must be 2 and none")
endif()
execute_process(COMMAND ${EXE} tour --quick --threads 2 --out ${OUT} RESULT_VARIABLE rc)
if(NOT EXISTS ${OUT}/report.md)
  message(FATAL_ERROR "nnt tour --quick exited ${rc} and wrote no report.md")
endif()
file(READ ${OUT}/report.md rep)
# the summary names what failed, so show it
string(REGEX MATCH "## Summary\n[^#]*" summary "${rep}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nnt tour --quick exited ${rc}:\n${summary}")
endif()
if(NOT rep MATCHES "^# nnt tour" OR NOT summary MATCHES "^## Summary\n\nPASS: all [0-9]+ sections passed\\. .*Total wall time"
   OR summary MATCHES "\\*\\*(FAIL|ERROR)\\*\\* \\|")
  message(FATAL_ERROR "report.md incomplete or its summary is not all PASS:\n${summary}")
endif()
# the rcnn section shows the parity benchmark's figure (nnt parity bench's writer) next to its table
if(NOT EXISTS ${OUT}/rcnn/accuracy.png OR NOT rep MATCHES "!\\[parity: test accuracy vs m\\]\\(rcnn/accuracy\\.png\\)")
  message(FATAL_ERROR "the tour's rcnn section has no parity plot (rcnn/accuracy.png)")
endif()
# the icl section evaluates the trained model: R² against k with ridge and the prompt mean, and its figure
if(NOT EXISTS ${OUT}/icl/eval/r2_mix0.png OR NOT rep MATCHES "\\| k \\| model \\| ridge \\| prompt mean \\|"
   OR NOT rep MATCHES "!\\[icl: R² against in-context examples\\]\\(icl/eval/r2_mix0\\.png\\)")
  message(FATAL_ERROR "the tour's icl section has no R² table or figure (icl/eval/r2_mix0.png)")
endif()
file(GLOB_RECURSE pngs ${OUT}/*.png)
if(NOT pngs)
  message(FATAL_ERROR "the tour wrote no plot")
endif()
