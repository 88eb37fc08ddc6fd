# The aarch64 arithmetic peak times fused multiply-adds: OBJDUMP disassembles nnt_cpu_fma_peak_generic
# in EXE, which must hold at least 24 FMLA on 4 floats (its 12 two-register chains, one round) and no
# vector multiply or add of 4 floats (the multiply-then-add form it had before).
execute_process(COMMAND ${OBJDUMP} -d --no-show-raw-insn --disassemble=nnt_cpu_fma_peak_generic ${EXE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "<nnt_cpu_fma_peak_generic>:")
  message(FATAL_ERROR "${OBJDUMP} found no nnt_cpu_fma_peak_generic in ${EXE} (exit ${rc}): ${err}")
endif()
string(REGEX MATCHALL "\tfmla\tv[0-9]+\\.4s, v[0-9]+\\.4s, v[0-9]+\\.4s" fmla "${out}")
string(REGEX MATCHALL "\tf(mul|add)\tv[0-9]+\\.4s" separate "${out}")
list(LENGTH fmla n_fmla)
list(LENGTH separate n_separate)
if(n_fmla LESS 24 OR n_separate GREATER 0)
  message(FATAL_ERROR "nnt_cpu_fma_peak_generic: ${n_fmla} FMLA (at least 24 wanted), ${n_separate} separate fmul/fadd .4s (none wanted)\n${out}")
endif()
message(STATUS "nnt_cpu_fma_peak_generic: ${n_fmla} FMLA .4s, no separate multiply or add")
