/* nnt_mpi.h — the process group of a run: MPI when built with -DNNT_MPI=ON, one process otherwise.
 *
 * Without MPI every function is the single-rank version (rank 0 of 1; the messaging functions are
 * never reached), so callers need no #ifdef. Only the sweep engine (sweep.c), data-parallel
 * training and the CLI's main use it. Rank 0 alone writes files: nnt_afile, nnt_mkdirs and the
 * plots do nothing on the other ranks, and main sends their stdout to /dev/null.
 * Messages are raw bytes: the ranks run the same binary on the same kind of machine.
 */
#ifndef NNT_MPI_H
#define NNT_MPI_H
#include <stddef.h>

/* MPI_Init_thread (MPI calls come from one thread at a time, inside OpenMP critical sections). */
void nnt_mpi_init(int *argc, char ***argv);
/* Ends the run's MPI part: MPI_Finalize when status is NNT_OK; otherwise, with more than one
 * rank, MPI_Abort with exit_code, since the other ranks may be waiting for this one. */
void nnt_mpi_finalize(int status, int exit_code);
int nnt_mpi_rank(void);
int nnt_mpi_size(void);
/* 1 when built with MPI (whatever the number of ranks). */
int nnt_mpi_built(void);

/* Returns when every rank has called it (MPI_Barrier). */
void nnt_mpi_barrier(void);
/* Rank 0's n bytes to every rank. */
void nnt_mpi_bcast(void *buf, size_t n);
/* Point-to-point, blocking; tag >= 0. */
void nnt_mpi_send(const void *buf, size_t n, int dest, int tag);
void nnt_mpi_recv(void *buf, size_t n, int src, int tag);
/* A pending message from any rank with any tag: 1 and its source, tag and size; 0 when none. */
int nnt_mpi_poll(int *src, int *tag, size_t *n);
/* Sum of x[n] over the ranks, in place on every rank (MPI_Allreduce). */
void nnt_mpi_allreduce_sum_f32(float *x, size_t n);
void nnt_mpi_allreduce_sum_f64(double *x, size_t n);

#endif
