# Seeded results must not depend on which variant of libm's functions the CPU gets: glibc picks FMA
# or non-FMA code for log, exp, sin, cos, pow, tanh ... by CPU, and the two differ in the last bit
# (nnt_dmath.h). Each command runs twice, the second time with glibc told the CPU has no FMA or
# AVX2 (as on an older CPU or a plain virtual machine); every CSV must be identical byte for byte.
set(NOFMA "GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-AVX512F")
file(REMOVE_RECURSE ${OUT})
set(cmds
    "qstr|qstr sweep --quick --model tr --N 2,4 --test-task simple --threads 1"
    "qstr_rnn|qstr sweep --quick --model rnn --N 2 --reps 1 --max-samples 2000 --threads 1"
    "icl|icl construct --N 3 --K 6 --dx 4 --act sigmoid --M 64 --steps 20 --n 24"
    "approx|approx planting --quick")
foreach(c ${cmds})
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 name)
  list(GET parts 1 line)
  separate_arguments(args UNIX_COMMAND "${line}")
  foreach(variant default nofma)
    set(env)
    if(variant STREQUAL nofma)
      set(env ${NOFMA})
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} ${EXE} ${args} --out ${OUT}/${name}-${variant}
                    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE e)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${name} (${variant}): exit ${rc}: ${e}")
    endif()
  endforeach()
  file(GLOB csvs RELATIVE ${OUT}/${name}-default ${OUT}/${name}-default/*.csv)
  if(NOT csvs)
    message(FATAL_ERROR "${name}: no CSV written")
  endif()
  foreach(f ${csvs})
    file(READ ${OUT}/${name}-default/${f} a)
    file(READ ${OUT}/${name}-nofma/${f} b)
    if(NOT a STREQUAL b)
      message(FATAL_ERROR "${name}: ${f} differs when libm runs its non-FMA variants")
    endif()
  endforeach()
  message(STATUS "${name}: ${csvs} identical with and without libm's FMA variants")
endforeach()
