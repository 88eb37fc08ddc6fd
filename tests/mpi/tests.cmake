# The MPI build's own tests (-DNNT_MPI=ON, label mpi; docs/distributed.md). Both ranks run on this
# machine: mpirun --oversubscribe, as root where the tests run as root.
add_test(NAME mpi/sweep_same COMMAND bash ${NNT_SRC_DIR}/tests/mpi/sweep_same.sh ${NNT_EXE} ${CMAKE_BINARY_DIR}/mpi-sweep
         qstr sweep --model tr --N 4,6,8 --reps 2 --quick --threads 1 --seed 3)
add_test(NAME mpi/kill_resume COMMAND bash ${NNT_SRC_DIR}/tests/mpi/kill_resume.sh ${NNT_EXE} ${CMAKE_BINARY_DIR}/mpi-kill)
set_tests_properties(mpi/sweep_same PROPERTIES LABELS mpi TIMEOUT 300 RUN_SERIAL ON)
set_tests_properties(mpi/kill_resume PROPERTIES LABELS "mpi;slow" TIMEOUT 300 RUN_SERIAL ON)
# an in-memory sweep (no results.sqlite): rank 0 gathers the records themselves
add_test(NAME mpi/sweep_same_memory COMMAND bash ${NNT_SRC_DIR}/tests/mpi/sweep_same.sh ${NNT_EXE} ${CMAKE_BINARY_DIR}/mpi-memory
         qstr ffn-bound --quick --threads 1)
set_tests_properties(mpi/sweep_same_memory PROPERTIES LABELS mpi TIMEOUT 300 RUN_SERIAL ON)
add_test(NAME mpi/train_same COMMAND bash ${NNT_SRC_DIR}/tests/mpi/train_same.sh ${NNT_EXE} ${CMAKE_BINARY_DIR}/mpi-train)
set_tests_properties(mpi/train_same PROPERTIES LABELS mpi TIMEOUT 300 RUN_SERIAL ON)
# an error every rank meets ends the whole job with nnt's exit code and rank 0's line (no hang)
add_test(NAME mpi/error_ends_job COMMAND bash -c
         "mpirun --oversubscribe -np 2 \"$0\" icl train --quick --batch 1 --out \"$1\" 2>&1; rc=$?; [ $rc -eq 2 ] || { echo \"exit $rc, expected 2\"; exit 1; }"
         ${NNT_EXE} ${CMAKE_BINARY_DIR}/mpi-bad)
set_tests_properties(mpi/error_ends_job PROPERTIES LABELS mpi TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "nnt icl: --batch 1 is smaller than the 2 MPI ranks"
                     FAIL_REGULAR_EXPRESSION "expected 2"
                     ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
