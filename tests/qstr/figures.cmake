# --figure 1a|1b: each panel's protocol (spec §5.4) as the defaults, options given on top of it;
# (run.json's "config" is the option table's: keys are the option names)
# every sweep's summary.csv carries the log-log slope of its medians. Quick sizes: the transformer on
# 1a (1STR trained, simple tested, threshold 0.7, a test every 10 steps) with --n-test overridden,
# the FFN on 1b (simple-1STR, threshold 0.02, a test every 100 steps: counts in multiples of 6400).
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${EXE} qstr sweep --model tr --figure 1a --quick --n-test 500 --threads 2 --out ${OUT}/a
                RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
if(NOT rc EQUAL 0 OR NOT o MATCHES "log-log fit tr \\(1str\\): median samples ~ N\\^[0-9.]+")
  message(FATAL_ERROR "figure 1a exited ${rc}: ${o} ${e}")
endif()
file(READ ${OUT}/a/run.json j)
foreach(want "\"figure\":[ \t]*\"1a\"" "\"task\":[ \t]*\"1str\"" "\"test-task\":[ \t]*\"simple\"" "\"threshold\":[ \t]*0.7,"
        "\"check-every\":[ \t]*10," "\"n-test\":[ \t]*500," "\"N\":[ \t]*\\[2, 4, 6\\]")
  if(NOT j MATCHES "${want}")
    message(FATAL_ERROR "figure 1a: run.json lacks ${want}")
  endif()
endforeach()
file(STRINGS ${OUT}/a/summary.csv head LIMIT_COUNT 1)
if(NOT head STREQUAL "model,task,N,median,min,max,censored,loglog_slope")
  message(FATAL_ERROR "summary.csv header: ${head}")
endif()
execute_process(COMMAND ${EXE} qstr sweep --model ffn --figure 1b --quick --threads 2 --out ${OUT}/b
                RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "figure 1b exited ${rc}: ${o} ${e}")
endif()
file(READ ${OUT}/b/run.json j)
foreach(want "\"figure\":[ \t]*\"1b\"" "\"task\":[ \t]*\"simple\"" "\"threshold\":[ \t]*0.02," "\"check-every\":[ \t]*100,"
        "\"N\":[ \t]*\\[8, 10\\]")
  if(NOT j MATCHES "${want}")
    message(FATAL_ERROR "figure 1b: run.json lacks ${want}")
  endif()
endforeach()
file(STRINGS ${OUT}/b/samples.csv rows REGEX "^ffn,simple,")
foreach(r ${rows})
  string(REPLACE "," ";" r "${r}")
  list(GET r 4 n)
  math(EXPR m "${n} % 6400")
  if(NOT m EQUAL 0)
    message(FATAL_ERROR "figure 1b: ${n} samples is not a multiple of 64 x 100")
  endif()
endforeach()
