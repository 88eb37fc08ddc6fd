# Command-line tests of nnt icl (seed 003). Each helper adds its own block below.

# construct
nnt_cli_test(icl_help 0 "construct" icl --help)

# eval
# Acceptance 17 at the paper's task size: ~5 s per run in Release, far longer under the sanitizers.
foreach(t icl/test_eval_paper icl/test_eval_paper@generic icl/test_eval_paper@avx2 icl/test_eval_paper@avx512)
  if(TEST ${t})
    set_tests_properties(${t} PROPERTIES LABELS "unit;slow")
  endif()
endforeach()
