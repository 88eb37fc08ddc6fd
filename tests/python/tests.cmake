# python/nnt under pytest, one ctest per file: test_run.py (nnt.run, through libnnt_cli.so's driver)
# and test_native.py (nnt.Machine, nnt.Circuit, nnt.Net, nnt.icgd: the typed entry points). The
# package loads libnnt_cli.so from this build. Not in a sanitizer build: the instrumented library
# cannot be loaded into an uninstrumented python.
if(NOT NNT_SANITIZE)
  foreach(name run native)
    add_test(NAME python/${name}
             COMMAND /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider ${NNT_SRC_DIR}/tests/python/test_${name}.py)
    set_tests_properties(python/${name} PROPERTIES LABELS "python" TIMEOUT 900
                         ENVIRONMENT "NNT=${NNT_EXE};NNT_SRC=${NNT_SRC_DIR};NNT_LIB_DIR=${CMAKE_BINARY_DIR};PYTHONPATH=${NNT_SRC_DIR}/python")
  endforeach()
endif()
