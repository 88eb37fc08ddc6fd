# python/nnt's nnt.run (tests/python/test_run.py): the package loads libnnt_cli.so from this build.
# Not in a sanitizer build: the instrumented library cannot be loaded into an uninstrumented python.
if(NOT NNT_SANITIZE)
  add_test(NAME python/run
           COMMAND /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider ${NNT_SRC_DIR}/tests/python/test_run.py)
  set_tests_properties(python/run PROPERTIES LABELS "python" TIMEOUT 900
                       ENVIRONMENT "NNT=${NNT_EXE};NNT_SRC=${NNT_SRC_DIR};NNT_LIB_DIR=${CMAKE_BINARY_DIR}")
endif()
# nnt.Machine, nnt.Circuit, nnt.Net (tests/python/test_native.py): the typed entry points.
if(NOT NNT_SANITIZE)
  add_test(NAME python/native
           COMMAND /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider ${NNT_SRC_DIR}/tests/python/test_native.py)
  set_tests_properties(python/native PROPERTIES LABELS "python" TIMEOUT 600
                       ENVIRONMENT "NNT=${NNT_EXE};NNT_SRC=${NNT_SRC_DIR};NNT_LIB_DIR=${CMAKE_BINARY_DIR};PYTHONPATH=${NNT_SRC_DIR}/python")
endif()
