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
