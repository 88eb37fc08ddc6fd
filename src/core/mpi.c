/* nnt_mpi.h: MPI when NNT_MPI is defined (cmake -DNNT_MPI=ON), the single-rank versions otherwise. */
#include "nnt_mpi.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef NNT_MPI
#include <mpi.h>

static int inited, rank_, size_ = 1;

void nnt_mpi_init(int *argc, char ***argv) {
  int provided;
  MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
  if (provided < MPI_THREAD_SERIALIZED) {
    fprintf(stderr, "nnt: this MPI library does not support MPI_THREAD_SERIALIZED\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  inited = 1;
}

void nnt_mpi_finalize(int status, int exit_code) {
  if (!inited) return;
  inited = 0;
  if (status && size_ > 1) MPI_Abort(MPI_COMM_WORLD, exit_code);
  MPI_Finalize();
}

int nnt_mpi_rank(void) { return rank_; }
int nnt_mpi_size(void) { return size_; }
int nnt_mpi_built(void) { return 1; }

void nnt_mpi_barrier(void) { MPI_Barrier(MPI_COMM_WORLD); }

/* MPI counts are int: long buffers go in pieces */
#define CHUNK ((size_t)1 << 30)

void nnt_mpi_bcast(void *buf, size_t n) {
  for (size_t o = 0; o < n; o += CHUNK)
    MPI_Bcast((char *)buf + o, (int)(n - o < CHUNK ? n - o : CHUNK), MPI_BYTE, 0, MPI_COMM_WORLD);
}

static void check_size(size_t n) {
  if (n > INT_MAX) {
    fprintf(stderr, "nnt: MPI message of %zu bytes is too long\n", n);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

void nnt_mpi_send(const void *buf, size_t n, int dest, int tag) {
  check_size(n);
  MPI_Send(buf, (int)n, MPI_BYTE, dest, tag, MPI_COMM_WORLD);
}

void nnt_mpi_recv(void *buf, size_t n, int src, int tag) {
  check_size(n);
  MPI_Recv(buf, (int)n, MPI_BYTE, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int nnt_mpi_poll(int *src, int *tag, size_t *n) {
  int flag, count;
  MPI_Status s;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &s);
  if (!flag) return 0;
  MPI_Get_count(&s, MPI_BYTE, &count);
  *src = s.MPI_SOURCE, *tag = s.MPI_TAG, *n = (size_t)count;
  return 1;
}

void nnt_mpi_allreduce_sum_f32(float *x, size_t n) {
  for (size_t o = 0; o < n; o += CHUNK / 4)
    MPI_Allreduce(MPI_IN_PLACE, x + o, (int)(n - o < CHUNK / 4 ? n - o : CHUNK / 4), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

void nnt_mpi_allreduce_sum_f64(double *x, size_t n) {
  for (size_t o = 0; o < n; o += CHUNK / 8)
    MPI_Allreduce(MPI_IN_PLACE, x + o, (int)(n - o < CHUNK / 8 ? n - o : CHUNK / 8), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

#else /* one process */

void nnt_mpi_init(int *argc, char ***argv) { (void)argc, (void)argv; }
void nnt_mpi_finalize(int status, int exit_code) { (void)status, (void)exit_code; }
int nnt_mpi_rank(void) { return 0; }
int nnt_mpi_size(void) { return 1; }
int nnt_mpi_built(void) { return 0; }
void nnt_mpi_barrier(void) {}
void nnt_mpi_bcast(void *buf, size_t n) { (void)buf, (void)n; }

/* With one rank there is nobody to talk to: reaching these is a bug in the caller. */
static void no_peer(const char *f) {
  fprintf(stderr, "%s: no other rank in a build without MPI\n", f);
  abort(); /* unreachable with one rank: callers send only when nnt_mpi_size() > 1 */
}
void nnt_mpi_send(const void *buf, size_t n, int dest, int tag) {
  (void)buf, (void)n, (void)dest, (void)tag;
  no_peer("nnt_mpi_send");
}
void nnt_mpi_recv(void *buf, size_t n, int src, int tag) {
  (void)buf, (void)n, (void)src, (void)tag;
  no_peer("nnt_mpi_recv");
}
int nnt_mpi_poll(int *src, int *tag, size_t *n) {
  (void)src, (void)tag, (void)n;
  return 0;
}
void nnt_mpi_allreduce_sum_f32(float *x, size_t n) { (void)x, (void)n; }
void nnt_mpi_allreduce_sum_f64(double *x, size_t n) { (void)x, (void)n; }

#endif
