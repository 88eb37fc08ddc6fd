/* Test-set evaluation of tr and ffn that uses the structure of qSTR inputs: a token is
 * z_i = [x_i, c E[i], c E[t_i1], ..., c E[t_iq]], so every linear map of z splits into a map of x
 * (one GEMM over the test set) plus lookups in small per-position and per-index tables built
 * once per evaluation. For tr the attention algebra is folded as well:
 *   softmax_j((W_q z_i + b_q).(W_k z_j + b_k)/sqrt(D)) = softmax_j((z_i^T M + b_q^T W_k) z_j / sqrt(D)),
 *   M = W_q^T W_k (terms constant in j cancel), and with no nonlinearity between the value
 *   projection, the out-projection and the first MLP layer,
 *   W_1 (W_o (sum_j A_ij (W_v z_j + b_v)) + b_o) + b_1 = sum_j A_ij (W_c z_j) + b_c,
 *   W_c = W_1 W_o W_v, b_c = W_1 (W_o b_v + b_o) + b_1   (rows of A sum to 1).
 * Same function as the generic forward pass (checked against it in tests/qstr/test_models.c),
 * about 3x fewer multiply-adds per test prompt for tr at the paper's sizes. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nnt_blas.h"
#include "nnt_error.h"
#include "nnt_nn.h"
#include "nnt_qstr.h"
#include "nnt_simd.h"
#include "qstr_lanes.h"
#include "qstr_sparse.h"

enum { CHUNK = 32 };      /* a sum in prompt order checks its bound every CHUNK prompts */
enum { FFN_CHUNK = 128 }; /* prompts per block of the FFN's layers */

/* A test set as a bounded evaluation visits it (nnt_qstr_fast_prepare): the prompts by decreasing
 * expected squared error (their last one; at first their labels' energy, a zero prediction's error),
 * in units gathered as they are visited, so that an evaluation that will exceed its bound (most of
 * them: every check before the threshold is reached) finds out after as few prompts as possible.
 * The order never shows in a result: squared errors are kept per prompt, and whenever every unit was
 * evaluated (or one gave a non-finite error) they are added in prompt order, chunk by chunk with the
 * bound checked before each chunk, exactly as a sum in prompt order would have stopped; an
 * evaluation stopped early (its sum above the bound, so the threshold is not reached) returns its
 * partial sum, which callers only compare. */
struct nnt_qstr_fast_set {
  int n, N, unit, nu;  /* prompts, queries per prompt, prompts per unit, units */
  int *perm, *cnt;     /* perm[r]: the prompt visited r-th; cnt: the order's buckets */
  float *xs;           /* the x parts, n x N x d: a prompt's in one run */
  double *pest, *err;  /* pest[b]: prompt b's expected squared error; err: n x N, prompt order */
  unsigned char *seen; /* units of this evaluation's order evaluated */
  float *scratch;      /* an evaluation's vectors, kept for the next (64-byte aligned) */
  size_t scratch_n;
};

#if NNT_ISA_LEVEL >= 1
/* fs's scratch, at least n floats (one allocation for the set's evaluations, not one each) */
static float *fast_scratch(nnt_qstr_fast_set *fs, size_t n) {
  if (fs->scratch_n < n) free(fs->scratch), fs->scratch = nnt_xmalloc64(sizeof(float) * n), fs->scratch_n = n;
  return fs->scratch;
}
#endif

typedef void unit_fn(void *ctx, const nnt_qstr_fast_set *fs, int u); /* fills fs->err for unit u's prompts */

enum { ORDER_BUCKETS = 4096 }; /* float exponent and 3 mantissa bits: an order to within 12.5% */

/* the sum of squared errors over fs's prompts, as described above; chunk: the prompt-order check's */
static double visit(nnt_qstr_fast_set *fs, unit_fn *f, void *ctx, double bound, int chunk, int *complete) {
  int n = fs->n, N = fs->N, U = fs->unit, nu = fs->nu, *cnt = fs->cnt;
  /* counting sort on the estimates' float bits (monotone for non-negative floats), largest first,
   * ties in prompt order */
  memset(cnt, 0, sizeof(int) * (ORDER_BUCKETS + 1));
  for (int b = 0; b < n; b++) {
    float e = (float)fs->pest[b];
    uint32_t key;
    memcpy(&key, &e, sizeof key);
    cnt[ORDER_BUCKETS - 1 - (int)(key >> 20 & (ORDER_BUCKETS - 1))]++;
  }
  for (int k = 0, at = 0; k <= ORDER_BUCKETS; k++) {
    int c = cnt[k];
    cnt[k] = at, at += c;
  }
  for (int b = 0; b < n; b++) {
    float e = (float)fs->pest[b];
    uint32_t key;
    memcpy(&key, &e, sizeof key);
    fs->perm[cnt[ORDER_BUCKETS - 1 - (int)(key >> 20 & (ORDER_BUCKETS - 1))]++] = b;
  }
  memset(fs->seen, 0, (size_t)nu);
  double s = 0;
  int done = 0, finite = 1;
  for (; done < nu && s <= bound; done++) {
    int r1 = (done + 1) * U < n ? (done + 1) * U : n;
    f(ctx, fs, done);
    fs->seen[done] = 1;
    double us = 0;
    for (int r = done * U; r < r1; r++) {
      double pe = 0;
      for (int i = 0; i < N; i++) pe += fs->err[(size_t)fs->perm[r] * N + i];
      fs->pest[fs->perm[r]] = pe, us += pe;
    }
    s += us;
    if (!isfinite(us)) {
      finite = 0;
      break;
    }
  }
  if (finite && done < nu) {
    *complete = 0;
    return s;
  }
  for (int u = 0; u < nu; u++)
    if (!fs->seen[u]) f(ctx, fs, u);
  double c = 0;
  *complete = 1;
  for (int p0 = 0; p0 < n; p0 += chunk) {
    if (c > bound) {
      *complete = 0;
      break;
    }
    for (size_t k = (size_t)p0 * N; k < (size_t)(p0 + chunk < n ? p0 + chunk : n) * N; k++) c += fs->err[k];
  }
  return c;
}

/* T[k][c] = s * sum_r E[k][r] W[c][off + r] (W: rows x ldw), for k < N; acc: rows doubles of scratch.
 * Here and in the folding below each element is one sequential sum over r, run with r outermost so
 * that a row's sums advance together instead of one latency-bound chain at a time. */
static void code_table(const double *E, int N, int de, double s, const double *W, int rows, int ldw, int off, float *T,
                       double *acc) {
  for (int k = 0; k < N; k++) {
    for (int c = 0; c < rows; c++) acc[c] = 0;
    for (int r = 0; r < de; r++) {
      double e = E[k * de + r];
      for (int c = 0; c < rows; c++) acc[c] += e * W[(size_t)c * ldw + off + r];
    }
    for (int c = 0; c < rows; c++) T[(size_t)k * rows + c] = (float)(s * acc[c]);
  }
}

/* out[b] = sum_r a[r] B[r][b] for a D x D float B, each one sequential sum over r */
static void vec_mat(const double *a, const float *B, int D, double *out) {
  for (int b = 0; b < D; b++) out[b] = 0;
  for (int r = 0; r < D; r++)
    for (int b = 0; b < D; b++) out[b] += a[r] * B[r * D + b];
}

/* out[c] += sum_a x[a] WT[a][c] for c < n, the accumulators kept in registers */
static void xmap(const float *x, int d, const float *WT, int n, float *out) {
  int c = 0;
  for (; c + 16 <= n; c += 16) {
    __m256 a0 = _mm256_loadu_ps(out + c), a1 = _mm256_loadu_ps(out + c + 8);
    for (int a = 0; a < d; a++) {
      __m256 xa = _mm256_set1_ps(x[a]);
      a0 = _mm256_fmadd_ps(xa, _mm256_loadu_ps(WT + (size_t)a * n + c), a0);
      a1 = _mm256_fmadd_ps(xa, _mm256_loadu_ps(WT + (size_t)a * n + c + 8), a1);
    }
    _mm256_storeu_ps(out + c, a0), _mm256_storeu_ps(out + c + 8, a1);
  }
  for (; c + 8 <= n; c += 8) {
    __m256 a0 = _mm256_loadu_ps(out + c);
    for (int a = 0; a < d; a++) a0 = _mm256_fmadd_ps(_mm256_set1_ps(x[a]), _mm256_loadu_ps(WT + (size_t)a * n + c), a0);
    _mm256_storeu_ps(out + c, a0);
  }
  for (; c < n; c++) {
    float v = out[c];
    for (int a = 0; a < d; a++) v += x[a] * WT[(size_t)a * n + c];
    out[c] = v;
  }
}

/* s[0..Np) = sum_c g[c] BT[c][0..Np), accumulated in registers: one row of a tiny product against a
 * transposed matrix (a key's z row against G^T: that key's scores for every query) */
static void scores_row(const float *g, int D, const float *BT, int Np, float *s) {
  int j = 0;
  for (; j + 16 <= Np; j += 16) {
    __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
    for (int c = 0; c < D; c++) {
      __m256 gc = _mm256_set1_ps(g[c]);
      a0 = _mm256_fmadd_ps(gc, _mm256_loadu_ps(BT + (size_t)c * Np + j), a0);
      a1 = _mm256_fmadd_ps(gc, _mm256_loadu_ps(BT + (size_t)c * Np + j + 8), a1);
    }
    _mm256_storeu_ps(s + j, a0), _mm256_storeu_ps(s + j + 8, a1);
  }
  for (; j + 8 <= Np; j += 8) {
    __m256 a0 = _mm256_setzero_ps();
    for (int c = 0; c < D; c++) a0 = _mm256_fmadd_ps(_mm256_set1_ps(g[c]), _mm256_loadu_ps(BT + (size_t)c * Np + j), a0);
    _mm256_storeu_ps(s + j, a0);
  }
  for (; j < Np; j++) {
    float v = 0;
    for (int c = 0; c < D; c++) v += g[c] * BT[(size_t)c * Np + j];
    s[j] = v;
  }
}

/* xmap for four rows at once: the same per-element sequence of FMAs as xmap (so bit-identical
 * results), with eight independent accumulators instead of two, so the FMA latency is hidden
 * and every WT vector loaded serves four rows */
/* Start value of out[c]: out[c] itself, or ib[c] + it[c] (own-position and index tables), the
 * operation of the table pass, fused so the rows are written once. */
typedef struct {
  const float *ib[4], *it[4];
} xinit;
static inline __m256 init8(const xinit *in, int r, const float *o, int c) {
  if (!in) return _mm256_loadu_ps(o + c);
  return _mm256_add_ps(_mm256_loadu_ps(in->ib[r] + c), _mm256_loadu_ps(in->it[r] + c));
}
static inline __m128 init4(const xinit *in, int r, const float *o, int c) {
  if (!in) return _mm_loadu_ps(o + c);
  return _mm_add_ps(_mm_loadu_ps(in->ib[r] + c), _mm_loadu_ps(in->it[r] + c));
}
static inline float init1(const xinit *in, int r, const float *o, int c) {
  if (!in) return o[c];
  return in->ib[r][c] + in->it[r][c];
}

#if NNT_ISA_LEVEL >= 2
static inline __m512 init16(const xinit *in, int r, const float *o, int c) {
  if (!in) return _mm512_loadu_ps(o + c);
  return _mm512_add_ps(_mm512_loadu_ps(in->ib[r] + c), _mm512_loadu_ps(in->it[r] + c));
}
#endif

static void xmap4(const float *x0, const float *x1, const float *x2, const float *x3, int d, const float *WT, int n,
                  float *o0, float *o1, float *o2, float *o3, const xinit *in) {
  int c = 0;
#if NNT_ISA_LEVEL >= 2 /* 32 columns in two 512-bit vectors: the same FMA sequence per element */
  for (; c + 32 <= n; c += 32) {
    __m512 a0 = init16(in, 0, o0, c), a1 = init16(in, 0, o0, c + 16), b0 = init16(in, 1, o1, c),
           b1 = init16(in, 1, o1, c + 16), c0 = init16(in, 2, o2, c), c1 = init16(in, 2, o2, c + 16),
           d0 = init16(in, 3, o3, c), d1 = init16(in, 3, o3, c + 16);
    for (int a = 0; a < d; a++) {
      __m512 w0 = _mm512_loadu_ps(WT + (size_t)a * n + c), w1 = _mm512_loadu_ps(WT + (size_t)a * n + c + 16);
      __m512 xa = _mm512_set1_ps(x0[a]), xb = _mm512_set1_ps(x1[a]), xc = _mm512_set1_ps(x2[a]), xd = _mm512_set1_ps(x3[a]);
      a0 = _mm512_fmadd_ps(xa, w0, a0), a1 = _mm512_fmadd_ps(xa, w1, a1);
      b0 = _mm512_fmadd_ps(xb, w0, b0), b1 = _mm512_fmadd_ps(xb, w1, b1);
      c0 = _mm512_fmadd_ps(xc, w0, c0), c1 = _mm512_fmadd_ps(xc, w1, c1);
      d0 = _mm512_fmadd_ps(xd, w0, d0), d1 = _mm512_fmadd_ps(xd, w1, d1);
    }
    _mm512_storeu_ps(o0 + c, a0), _mm512_storeu_ps(o0 + c + 16, a1), _mm512_storeu_ps(o1 + c, b0);
    _mm512_storeu_ps(o1 + c + 16, b1), _mm512_storeu_ps(o2 + c, c0), _mm512_storeu_ps(o2 + c + 16, c1);
    _mm512_storeu_ps(o3 + c, d0), _mm512_storeu_ps(o3 + c + 16, d1);
  }
#endif
  for (; c + 16 <= n; c += 16) {
    __m256 a0 = init8(in, 0, o0, c), a1 = init8(in, 0, o0, c + 8), b0 = init8(in, 1, o1, c), b1 = init8(in, 1, o1, c + 8),
           c0 = init8(in, 2, o2, c), c1 = init8(in, 2, o2, c + 8), d0 = init8(in, 3, o3, c), d1 = init8(in, 3, o3, c + 8);
    for (int a = 0; a < d; a++) {
      __m256 w0 = _mm256_loadu_ps(WT + (size_t)a * n + c), w1 = _mm256_loadu_ps(WT + (size_t)a * n + c + 8);
      __m256 xa = _mm256_set1_ps(x0[a]), xb = _mm256_set1_ps(x1[a]), xc = _mm256_set1_ps(x2[a]), xd = _mm256_set1_ps(x3[a]);
      a0 = _mm256_fmadd_ps(xa, w0, a0), a1 = _mm256_fmadd_ps(xa, w1, a1);
      b0 = _mm256_fmadd_ps(xb, w0, b0), b1 = _mm256_fmadd_ps(xb, w1, b1);
      c0 = _mm256_fmadd_ps(xc, w0, c0), c1 = _mm256_fmadd_ps(xc, w1, c1);
      d0 = _mm256_fmadd_ps(xd, w0, d0), d1 = _mm256_fmadd_ps(xd, w1, d1);
    }
    _mm256_storeu_ps(o0 + c, a0), _mm256_storeu_ps(o0 + c + 8, a1), _mm256_storeu_ps(o1 + c, b0);
    _mm256_storeu_ps(o1 + c + 8, b1), _mm256_storeu_ps(o2 + c, c0), _mm256_storeu_ps(o2 + c + 8, c1);
    _mm256_storeu_ps(o3 + c, d0), _mm256_storeu_ps(o3 + c + 8, d1);
  }
  for (; c + 8 <= n; c += 8) {
    __m256 a0 = init8(in, 0, o0, c), b0 = init8(in, 1, o1, c), c0 = init8(in, 2, o2, c), d0 = init8(in, 3, o3, c);
    for (int a = 0; a < d; a++) {
      __m256 w0 = _mm256_loadu_ps(WT + (size_t)a * n + c);
      a0 = _mm256_fmadd_ps(_mm256_set1_ps(x0[a]), w0, a0), b0 = _mm256_fmadd_ps(_mm256_set1_ps(x1[a]), w0, b0);
      c0 = _mm256_fmadd_ps(_mm256_set1_ps(x2[a]), w0, c0), d0 = _mm256_fmadd_ps(_mm256_set1_ps(x3[a]), w0, d0);
    }
    _mm256_storeu_ps(o0 + c, a0), _mm256_storeu_ps(o1 + c, b0), _mm256_storeu_ps(o2 + c, c0), _mm256_storeu_ps(o3 + c, d0);
  }
  /* the last n mod 8 columns with separate multiplies and adds (the scalar tail's rounding), the
   * four rows' chains interleaved so their latencies overlap */
  if (c + 4 <= n) {
    __m128 v0 = init4(in, 0, o0, c), v1 = init4(in, 1, o1, c), v2 = init4(in, 2, o2, c), v3 = init4(in, 3, o3, c);
    for (int a = 0; a < d; a++) {
      __m128 w = _mm_loadu_ps(WT + (size_t)a * n + c);
      v0 = _mm_add_ps(v0, _mm_mul_ps(_mm_set1_ps(x0[a]), w)), v1 = _mm_add_ps(v1, _mm_mul_ps(_mm_set1_ps(x1[a]), w));
      v2 = _mm_add_ps(v2, _mm_mul_ps(_mm_set1_ps(x2[a]), w)), v3 = _mm_add_ps(v3, _mm_mul_ps(_mm_set1_ps(x3[a]), w));
    }
    _mm_storeu_ps(o0 + c, v0), _mm_storeu_ps(o1 + c, v1), _mm_storeu_ps(o2 + c, v2), _mm_storeu_ps(o3 + c, v3);
    c += 4;
  }
  for (; c < n; c++) {
    float v0 = init1(in, 0, o0, c), v1 = init1(in, 1, o1, c), v2 = init1(in, 2, o2, c), v3 = init1(in, 3, o3, c);
    for (int a = 0; a < d; a++) {
      float w = WT[(size_t)a * n + c];
      v0 += x0[a] * w, v1 += x1[a] * w, v2 += x2[a] * w, v3 += x3[a] * w;
    }
    o0[c] = v0, o1[c] = v1, o2[c] = v2, o3[c] = v3;
  }
}

/* scores_row for four rows at once (the same per-element FMA sequence) */
static void scores4(const float *g0, const float *g1, const float *g2, const float *g3, int D, const float *BT, int Np,
                    float *s0, float *s1, float *s2, float *s3) {
  int j = 0;
  for (; j + 16 <= Np; j += 16) {
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, b0 = a0, b1 = a0, c0 = a0, c1 = a0, d0 = a0, d1 = a0;
    for (int c = 0; c < D; c++) {
      __m256 z0 = _mm256_loadu_ps(BT + (size_t)c * Np + j), z1 = _mm256_loadu_ps(BT + (size_t)c * Np + j + 8);
      __m256 ga = _mm256_set1_ps(g0[c]), gb = _mm256_set1_ps(g1[c]), gc = _mm256_set1_ps(g2[c]), gd = _mm256_set1_ps(g3[c]);
      a0 = _mm256_fmadd_ps(ga, z0, a0), a1 = _mm256_fmadd_ps(ga, z1, a1);
      b0 = _mm256_fmadd_ps(gb, z0, b0), b1 = _mm256_fmadd_ps(gb, z1, b1);
      c0 = _mm256_fmadd_ps(gc, z0, c0), c1 = _mm256_fmadd_ps(gc, z1, c1);
      d0 = _mm256_fmadd_ps(gd, z0, d0), d1 = _mm256_fmadd_ps(gd, z1, d1);
    }
    _mm256_storeu_ps(s0 + j, a0), _mm256_storeu_ps(s0 + j + 8, a1), _mm256_storeu_ps(s1 + j, b0);
    _mm256_storeu_ps(s1 + j + 8, b1), _mm256_storeu_ps(s2 + j, c0), _mm256_storeu_ps(s2 + j + 8, c1);
    _mm256_storeu_ps(s3 + j, d0), _mm256_storeu_ps(s3 + j + 8, d1);
  }
  for (; j + 8 <= Np; j += 8) {
    __m256 a0 = _mm256_setzero_ps(), b0 = a0, c0 = a0, d0 = a0;
    for (int c = 0; c < D; c++) {
      __m256 z0 = _mm256_loadu_ps(BT + (size_t)c * Np + j);
      a0 = _mm256_fmadd_ps(_mm256_set1_ps(g0[c]), z0, a0), b0 = _mm256_fmadd_ps(_mm256_set1_ps(g1[c]), z0, b0);
      c0 = _mm256_fmadd_ps(_mm256_set1_ps(g2[c]), z0, c0), d0 = _mm256_fmadd_ps(_mm256_set1_ps(g3[c]), z0, d0);
    }
    _mm256_storeu_ps(s0 + j, a0), _mm256_storeu_ps(s1 + j, b0), _mm256_storeu_ps(s2 + j, c0), _mm256_storeu_ps(s3 + j, d0);
  }
  const float *gs[4] = {g0, g1, g2, g3};
  float *ss[4] = {s0, s1, s2, s3};
  for (int r = 0; r < 4; r++)
    for (int jj = j; jj < Np; jj++) {
      float v = 0;
      for (int c = 0; c < D; c++) v += gs[r][c] * BT[(size_t)c * Np + jj];
      ss[r][jj] = v;
    }
}

/* The read-out of one query, o = w2 . relu(sum_j a_j U_j + bc), its attention weights a_j at
 * a[j * as]. Every form below performs, per query, the same operations in the same order: the
 * columns in blocks of 32, each h element an FMA chain over j from bc, its relu times w2 added into
 * one 8-lane partial sum (the four 8-column quarters in order); then blocks of 8 into the same
 * partial sum; its lanes summed in a fixed order; then 4 columns with separate multiplies and adds
 * (the scalar tail's rounding, vectorised across columns); then the scalar tail. readout_finish does
 * everything after the 32-column blocks; the forms differ in how many queries share each U load. */
/* the partial sum's lanes in readout order */
static inline float readout_hsum(__m256 part) {
  float pv[8];
  _mm256_storeu_ps(pv, part);
  return ((pv[0] + pv[1]) + (pv[2] + pv[3])) + ((pv[4] + pv[5]) + (pv[6] + pv[7]));
}

/* columns c..m-1 one by one, added to o */
static inline float readout_scalar(const float *a, int as, int N, const float *U, int m, const float *bc,
                                   const float *w2, int c, float o) {
  for (; c < m; c++) {
    float h = bc[c];
    for (int j = 0; j < N; j++) h += a[j * as] * U[(size_t)j * m + c];
    o += (h > 0 ? h : 0) * w2[c];
  }
  return o;
}

static float readout_finish(const float *a, int as, int N, const float *U, int m, const float *bc, const float *w2, int c,
                            __m256 part) {
  const __m256 zero = _mm256_setzero_ps();
  for (; c + 8 <= m; c += 8) {
    __m256 h0 = _mm256_loadu_ps(bc + c);
    for (int j = 0; j < N; j++) h0 = _mm256_fmadd_ps(_mm256_set1_ps(a[j * as]), _mm256_loadu_ps(U + (size_t)j * m + c), h0);
    part = _mm256_fmadd_ps(_mm256_max_ps(h0, zero), _mm256_loadu_ps(w2 + c), part);
  }
  float o = readout_hsum(part);
  if (c + 4 <= m) {
    __m128 h = _mm_loadu_ps(bc + c);
    for (int j = 0; j < N; j++) h = _mm_add_ps(h, _mm_mul_ps(_mm_set1_ps(a[j * as]), _mm_loadu_ps(U + (size_t)j * m + c)));
    float hv[4];
    _mm_storeu_ps(hv, _mm_mul_ps(_mm_max_ps(h, _mm_setzero_ps()), _mm_loadu_ps(w2 + c)));
    o += hv[0], o += hv[1], o += hv[2], o += hv[3];
    c += 4;
  }
  return readout_scalar(a, as, N, U, m, bc, w2, c, o);
}

/* a 32-column block's relu(h) times w2 into the partial sum, quarter by quarter */
static inline __m256 readout_part4(__m256 part, __m256 h0, __m256 h1, __m256 h2, __m256 h3, const float *w) {
  const __m256 zero = _mm256_setzero_ps();
  part = _mm256_fmadd_ps(_mm256_max_ps(h0, zero), _mm256_loadu_ps(w), part);
  part = _mm256_fmadd_ps(_mm256_max_ps(h1, zero), _mm256_loadu_ps(w + 8), part);
  part = _mm256_fmadd_ps(_mm256_max_ps(h2, zero), _mm256_loadu_ps(w + 16), part);
  return _mm256_fmadd_ps(_mm256_max_ps(h3, zero), _mm256_loadu_ps(w + 24), part);
}

static float readout_row(const float *a, int as, int N, const float *U, int m, const float *bc, const float *w2) {
  int c = 0;
  __m256 part = _mm256_setzero_ps();
  for (; c + 32 <= m; c += 32) {
    __m256 h0 = _mm256_loadu_ps(bc + c), h1 = _mm256_loadu_ps(bc + c + 8), h2 = _mm256_loadu_ps(bc + c + 16),
           h3 = _mm256_loadu_ps(bc + c + 24);
    for (int j = 0; j < N; j++) {
      const float *u = U + (size_t)j * m + c;
      __m256 aj = _mm256_set1_ps(a[j * as]);
      h0 = _mm256_fmadd_ps(aj, _mm256_loadu_ps(u), h0), h1 = _mm256_fmadd_ps(aj, _mm256_loadu_ps(u + 8), h1);
      h2 = _mm256_fmadd_ps(aj, _mm256_loadu_ps(u + 16), h2), h3 = _mm256_fmadd_ps(aj, _mm256_loadu_ps(u + 24), h3);
    }
    part = readout_part4(part, h0, h1, h2, h3, w2 + c);
  }
  return readout_finish(a, as, N, U, m, bc, w2, c, part);
}

/* two queries of a prompt at once: the U rows loaded serve both, eight accumulators */
static void readout2(const float *a, const float *b, int as, int N, const float *U, int m, const float *bc, const float *w2,
                     float *oa, float *ob) {
  int c = 0;
  __m256 pa = _mm256_setzero_ps(), pb = _mm256_setzero_ps();
  for (; c + 32 <= m; c += 32) {
    __m256 h0 = _mm256_loadu_ps(bc + c), h1 = _mm256_loadu_ps(bc + c + 8), h2 = _mm256_loadu_ps(bc + c + 16),
           h3 = _mm256_loadu_ps(bc + c + 24);
    __m256 k0 = h0, k1 = h1, k2 = h2, k3 = h3;
    for (int j = 0; j < N; j++) {
      const float *u = U + (size_t)j * m + c;
      __m256 u0 = _mm256_loadu_ps(u), u1 = _mm256_loadu_ps(u + 8), u2 = _mm256_loadu_ps(u + 16), u3 = _mm256_loadu_ps(u + 24);
      __m256 aj = _mm256_set1_ps(a[j * as]), bj = _mm256_set1_ps(b[j * as]);
      h0 = _mm256_fmadd_ps(aj, u0, h0), h1 = _mm256_fmadd_ps(aj, u1, h1);
      h2 = _mm256_fmadd_ps(aj, u2, h2), h3 = _mm256_fmadd_ps(aj, u3, h3);
      k0 = _mm256_fmadd_ps(bj, u0, k0), k1 = _mm256_fmadd_ps(bj, u1, k1);
      k2 = _mm256_fmadd_ps(bj, u2, k2), k3 = _mm256_fmadd_ps(bj, u3, k3);
    }
    pa = readout_part4(pa, h0, h1, h2, h3, w2 + c);
    pb = readout_part4(pb, k0, k1, k2, k3, w2 + c);
  }
  *oa = readout_finish(a, as, N, U, m, bc, w2, c, pa);
  *ob = readout_finish(b, as, N, U, m, bc, w2, c, pb);
}

#if NNT_ISA_LEVEL >= 2
/* four queries of a prompt at once in 512-bit vectors: each U load serves four queries, eight
 * independent FMA chains; each half of an h vector then goes into the 8-lane partial sums */
static void readout4(const float *a, int as, int N, const float *U, int m, const float *bc, const float *w2, float *o) {
  int c = 0;
  __m256 part[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
  for (; c + 32 <= m; c += 32) {
    __m512 h[4][2];
    for (int q = 0; q < 4; q++) h[q][0] = _mm512_loadu_ps(bc + c), h[q][1] = _mm512_loadu_ps(bc + c + 16);
    for (int j = 0; j < N; j++) {
      const float *u = U + (size_t)j * m + c;
      __m512 u0 = _mm512_loadu_ps(u), u1 = _mm512_loadu_ps(u + 16);
      for (int q = 0; q < 4; q++) {
        __m512 aj = _mm512_set1_ps(a[j * as + q]);
        h[q][0] = _mm512_fmadd_ps(aj, u0, h[q][0]), h[q][1] = _mm512_fmadd_ps(aj, u1, h[q][1]);
      }
    }
    for (int q = 0; q < 4; q++)
      part[q] = readout_part4(part[q], _mm512_castps512_ps256(h[q][0]), _mm512_extractf32x8_ps(h[q][0], 1),
                              _mm512_castps512_ps256(h[q][1]), _mm512_extractf32x8_ps(h[q][1], 1), w2 + c);
  }
  if (m - c < 4 || m - c >= 8) {
    for (int q = 0; q < 4; q++) o[q] = readout_finish(a + q, as, N, U, m, bc, w2, c, part[q]);
    return;
  }
  /* 4 to 7 columns left (m = 100): readout_finish's steps, its 4-column part for the four queries
   * in one vector (lanes 4q..4q+3: query q), one chain instead of four */
  const __m512i rep = _mm512_set_epi32(3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0);
  __m512 h = _mm512_broadcast_f32x4(_mm_loadu_ps(bc + c));
  for (int j = 0; j < N; j++) {
    __m512 aj = _mm512_permutexvar_ps(rep, _mm512_castps128_ps512(_mm_loadu_ps(a + (size_t)j * as)));
    h = _mm512_add_ps(h, _mm512_mul_ps(aj, _mm512_broadcast_f32x4(_mm_loadu_ps(U + (size_t)j * m + c))));
  }
  float hv[16];
  _mm512_storeu_ps(hv, _mm512_mul_ps(_mm512_max_ps(h, _mm512_setzero_ps()), _mm512_broadcast_f32x4(_mm_loadu_ps(w2 + c))));
  for (int q = 0; q < 4; q++) {
    float oq = readout_hsum(part[q]);
    oq += hv[4 * q], oq += hv[4 * q + 1], oq += hv[4 * q + 2], oq += hv[4 * q + 3];
    o[q] = readout_scalar(a + q, as, N, U, m, bc, w2, c + 4, oq);
  }
}
#endif

static int padded(int N) { return (N + 7) / 8 * 8; }

#if NNT_ISA_LEVEL >= 1
/* A block of prompts at once, one per lane of a vector (q = 1; qstr_lanes.h: 16 at AVX-512, 8 at
 * AVX2). Each element gets the operations the row forms above give it, in their order (FMA chains where they chain FMAs, multiplies and adds
 * in their n mod 8 tails, the read-out's eight partial sums and their fixed reduction), so the sum
 * of squared errors keeps its bits; but every operation is a whole vector of useful work: no
 * transposes, no padded score columns, no horizontal sums. */
enum { LANES = NNT_LANES };

typedef struct {
  int N, d, de, D, m, W; /* W = D + m + 8: G's and U's columns side by side in the tables, and 8 zero
                          * columns, so that a tail tile of 8 columns reads inside a row */
  const float *own, *ind; /* N x W tables (own position, with kv; retrieved index) */
  const float *wx;        /* d x W: the x maps' weights */
  const float *code;      /* N x de: the code vectors as the tokens hold them */
  const float *bc, *w2;
  float b2;
  /* scratch in vectors of LANES, sized to stay in L1 at the paper's sizes: g (D + 8) x N and u
   * 8 x N (a column's rows adjacent), s N x N (key-major: a column per query and lane), part N x 8,
   * h N, o N; gi and zt: the retrieved rows of the tables and codes, N x W and N x de, one per row
   * where the index changes; girow[i], ztrow[i]: row i's */
  float *g, *u, *s, *part, *h, *o, *gi, *zt;
  const float **girow, **ztrow;
} lanes_k;

static inline lv ldl(const float *v, size_t k) { return LV_LOADU(v + k * LANES); }
static inline void stl(float *v, size_t k, lv a) { LV_STOREU(v + k * LANES, a); }

/* x maps of rows i0..i0+NR-1, table columns c..c+NC-1, into out[u * N + i]: the tables' sum, then FMA
 * chains over x, or (FMA = 0, a map's n mod 8 tail columns) separate multiplies and adds */
static inline __attribute__((always_inline)) void xmap_tile(const lanes_k *k, const float *xl, int i0, int NR, int c,
                                                            float *out, int FMA, int NC) {
  int N = k->N, d = k->d, W = k->W;
  lv acc[2][8];
  for (int r = 0; r < NR; r++) {
    const float *own = k->own + (size_t)(i0 + r) * W + c, *gi = k->girow[i0 + r] + (size_t)c * LANES;
    for (int u = 0; u < NC; u++) acc[r][u] = LV_ADD(LV_SET1(own[u]), ldl(gi, u));
  }
  for (int a = 0; a < d; a++) {
    lv w[8], x[2];
    for (int u = 0; u < NC; u++) w[u] = nnt_lanes_reg(LV_SET1(k->wx[(size_t)a * W + c + u]));
    for (int r = 0; r < NR; r++) x[r] = nnt_lanes_reg(ldl(xl, (size_t)(i0 + r) * d + a));
    for (int r = 0; r < NR; r++)
      for (int u = 0; u < NC; u++)
        acc[r][u] = FMA ? LV_FMA(x[r], w[u], acc[r][u]) : LV_ADD(acc[r][u], LV_MUL(x[r], w[u]));
  }
  for (int r = 0; r < NR; r++)
    for (int u = 0; u < NC; u++) stl(out, (size_t)u * N + i0 + r, acc[r][u]);
}

static inline __attribute__((always_inline)) void xmap_cols(const lanes_k *k, const float *xl, int c, float *out,
                                                            int FMA, int NC) {
  int i = 0;
  for (; i + 2 <= k->N; i += 2) xmap_tile(k, xl, i, 2, c, out, FMA, NC);
  if (i < k->N) xmap_tile(k, xl, i, 1, c, out, FMA, NC);
}

/* a map's tail columns c..c+nc-1 (nc < 8), rounded up to 2, 4 or 8 (the tables' zero padding) */
static void xmap_tail(const lanes_k *k, const float *xl, int c, int nc, float *out) {
  if (nc <= 2) xmap_cols(k, xl, c, out, 0, 2);
  else if (nc <= 4) xmap_cols(k, xl, c, out, 0, 4);
  else xmap_cols(k, xl, c, out, 0, 8);
}

/* scores s_ij = z_j . G_i of queries i0..i0+NI-1 and keys j0..j0+NJ-1, each one FMA chain over z's
 * parts in order (x, own code, retrieved code) */
static inline __attribute__((always_inline)) void scores_tile(const lanes_k *k, const float *xl, int i0, int NI, int j0,
                                                              int NJ) {
  int d = k->d, de = k->de, N = k->N;
  lv acc[4][4];
  for (int ii = 0; ii < NI; ii++)
    for (int jj = 0; jj < NJ; jj++) acc[ii][jj] = LV_ZERO();
#define SCORES_STEP(ZLOAD, c)                                                                                \
  do {                                                                                                       \
    lv z[4], g[4];                                                                                       \
    for (int jj = 0; jj < NJ; jj++) z[jj] = nnt_lanes_reg(ZLOAD);                                                   \
    for (int ii = 0; ii < NI; ii++) g[ii] = nnt_lanes_reg(ldl(k->g, (size_t)(c) * N + i0 + ii));                  \
    for (int ii = 0; ii < NI; ii++)                                                                          \
      for (int jj = 0; jj < NJ; jj++) acc[ii][jj] = LV_FMA(z[jj], g[ii], acc[ii][jj]);              \
  } while (0)
  for (int c = 0; c < d; c++) SCORES_STEP(ldl(xl, (size_t)(j0 + jj) * d + c), c);
  for (int c = 0; c < de; c++) SCORES_STEP(LV_SET1(k->code[(j0 + jj) * de + c]), d + c);
  for (int c = 0; c < de; c++) SCORES_STEP(ldl(k->ztrow[j0 + jj], c), d + de + c);
#undef SCORES_STEP
  for (int ii = 0; ii < NI; ii++)
    for (int jj = 0; jj < NJ; jj++) stl(k->s, (size_t)(j0 + jj) * N + i0 + ii, acc[ii][jj]);
}

static inline __attribute__((always_inline)) void scores_rows(const lanes_k *k, const float *xl, int i0, int NI) {
  int j = 0, N = k->N;
  for (; j + 4 <= N; j += 4) scores_tile(k, xl, i0, NI, j, 4);
  if (j + 2 <= N) scores_tile(k, xl, i0, NI, j, 2), j += 2;
  if (j < N) scores_tile(k, xl, i0, NI, j, 1);
}

/* read-out columns c..c+3 (below m rounded down to 8; u: their U rows, from column c) of queries
 * i0..i0+NI-1: h = bc + sum_j a_ij U_j as FMA chains over j, relu(h) w2 into the partial sum of its
 * column mod 8 */
static inline __attribute__((always_inline)) void readout_tile(const lanes_k *k, const float *u, int i0, int NI, int c) {
  int N = k->N;
  lv h[4][4];
  for (int ii = 0; ii < NI; ii++)
    for (int cc = 0; cc < 4; cc++) h[ii][cc] = LV_SET1(k->bc[c + cc]);
  for (int j = 0; j < N; j++) {
    lv uj[4], a[4];
    for (int cc = 0; cc < 4; cc++) uj[cc] = nnt_lanes_reg(ldl(u, (size_t)cc * N + j));
    for (int ii = 0; ii < NI; ii++) a[ii] = nnt_lanes_reg(ldl(k->s, (size_t)j * N + i0 + ii));
    for (int ii = 0; ii < NI; ii++)
      for (int cc = 0; cc < 4; cc++) h[ii][cc] = LV_FMA(a[ii], uj[cc], h[ii][cc]);
  }
  const lv zero = LV_ZERO();
  for (int ii = 0; ii < NI; ii++)
    for (int cc = 0; cc < 4; cc++) {
      size_t pk = (size_t)(i0 + ii) * 8 + (c + cc) % 8;
      stl(k->part, pk, LV_FMA(LV_MAX(h[ii][cc], zero), LV_SET1(k->w2[c + cc]), ldl(k->part, pk)));
    }
}

/* read-out columns c..c+nc-1 (nc <= 4, the n mod 8 tail) of queries i0..i0+NI-1 as the row forms'
 * tails: h = bc + sum_j a_ij U_j with separate multiplies and adds, then o += relu(h) w2 column by
 * column */
static inline __attribute__((always_inline)) void readout_tail(const lanes_k *k, const float *u, int i0, int NI, int c,
                                                               int nc) {
  int N = k->N;
  lv h[4][4];
  for (int ii = 0; ii < NI; ii++)
    for (int cc = 0; cc < 4; cc++) h[ii][cc] = LV_SET1(cc < nc ? k->bc[c + cc] : 0);
  for (int j = 0; j < N; j++) {
    lv uj[4], a[4];
    for (int cc = 0; cc < 4; cc++) uj[cc] = nnt_lanes_reg(ldl(u, (size_t)cc * N + j));
    for (int ii = 0; ii < NI; ii++) a[ii] = nnt_lanes_reg(ldl(k->s, (size_t)j * N + i0 + ii));
    for (int ii = 0; ii < NI; ii++)
      for (int cc = 0; cc < 4; cc++) h[ii][cc] = LV_ADD(h[ii][cc], LV_MUL(a[ii], uj[cc]));
  }
  const lv zero = LV_ZERO();
  for (int ii = 0; ii < NI; ii++) {
    lv o = ldl(k->o, i0 + ii);
    for (int cc = 0; cc < 4; cc++)
      if (cc < nc) o = LV_ADD(o, LV_MUL(LV_MAX(h[ii][cc], zero), LV_SET1(k->w2[c + cc])));
    stl(k->o, i0 + ii, o);
  }
}

/* The squared errors of one block of NNT_LANES prompts into e[l * N + i] (xl: the block's x parts, N x d
 * vectors; pr: their numbers in idx and y, the test set's indices and labels). G first,
 * then the scores and the softmax; then U eight columns at a time, each group read out as soon as
 * it is made, so nothing leaves L1. */
static void tr_lanes(const lanes_k *k, const float *xl, const int *pr, const int *idx, const float *y, double *e) {
  int N = k->N, de = k->de, D = k->D, m = k->m, W = k->W, D8 = D / 8 * 8, m8 = m / 8 * 8;
  const lvi lane_rows = LVI_MULLO(LVI_LOADU(pr), LVI_SET1(N));
  lvi tprev = LVI_SET1(-1);
  for (int i = 0; i < N; i++) { /* the retrieved rows, gathered where the index changes */
    lvi t = LVI_GATHER(idx + i, lane_rows);
    if (LVI_NE(t, tprev)) {
      int tl[LANES];
      const float *rg[LANES], *rz[LANES];
      LVI_STOREU(tl, t);
      for (int l = 0; l < LANES; l++) rg[l] = k->ind + (size_t)tl[l] * W, rz[l] = k->code + (size_t)tl[l] * de;
      float *gi = k->gi + (size_t)i * W * LANES, *zt = k->zt + (size_t)i * de * LANES;
      nnt_lanes_from_rows(rg, W, gi);
      nnt_lanes_from_rows(rz, de, zt);
      k->girow[i] = gi, k->ztrow[i] = zt;
      tprev = t;
    } else
      k->girow[i] = k->girow[i - 1], k->ztrow[i] = k->ztrow[i - 1];
  }
  for (int c = 0; c < D8; c += 8) xmap_cols(k, xl, c, k->g + (size_t)c * N * LANES, 1, 8);
  if (D8 < D) xmap_tail(k, xl, D8, D - D8, k->g + (size_t)D8 * N * LANES);
  int i = 0;
  for (; i + 4 <= N; i += 4) scores_rows(k, xl, i, 4);
  if (i + 2 <= N) scores_rows(k, xl, i, 2), i += 2;
  if (i < N) scores_rows(k, xl, i, 1);
  NNT_ISA_FN(nnt_softmax_cols_fast)(k->s, N, N * LANES, N * LANES); /* every query's softmax down its keys */
  memset(k->part, 0, sizeof(float) * (size_t)N * 8 * LANES);
  for (int c = 0; c < m8; c += 8) {
    xmap_cols(k, xl, D + c, k->u, 1, 8);
    for (int c4 = 0; c4 < 8; c4 += 4) {
      const float *u = k->u + (size_t)c4 * N * LANES;
      for (i = 0; i + 4 <= N; i += 4) readout_tile(k, u, i, 4, c + c4);
      if (i + 2 <= N) readout_tile(k, u, i, 2, c + c4), i += 2;
      if (i < N) readout_tile(k, u, i, 1, c + c4);
    }
  }
  for (i = 0; i < N; i++) { /* the partial sums' reduction, in the row forms' order */
    const float *p = k->part + (size_t)i * 8 * LANES;
    stl(k->o, i, LV_ADD(LV_ADD(LV_ADD(ldl(p, 0), ldl(p, 1)), LV_ADD(ldl(p, 2), ldl(p, 3))),
                                LV_ADD(LV_ADD(ldl(p, 4), ldl(p, 5)), LV_ADD(ldl(p, 6), ldl(p, 7)))));
  }
  if (m8 < m) { /* the tail columns */
    xmap_tail(k, xl, D + m8, m - m8, k->u);
    for (int c = m8; c < m; c += 4) {
      const float *u = k->u + (size_t)(c - m8) * N * LANES;
      int nc = m - c < 4 ? m - c : 4;
      for (i = 0; i + 4 <= N; i += 4) readout_tail(k, u, i, 4, c, nc);
      if (i + 2 <= N) readout_tail(k, u, i, 2, c, nc), i += 2;
      if (i < N) readout_tail(k, u, i, 1, c, nc);
    }
  }
  for (i = 0; i < N; i++) stl(k->o, i, LV_ADD(LV_SET1(k->b2), ldl(k->o, i)));
  for (int p = 0; p < LANES; p++)
    for (i = 0; i < N; i++) {
      double ei = (double)k->o[(size_t)i * LANES + p] - y[(size_t)pr[p] * N + i];
      e[(size_t)p * N + i] = ei * ei;
    }
}
#endif



typedef struct {
  int N, D, m, d, q, Np;
  const float *X, *y, *Gtab, *Utab, *MTxT, *WcxT, *bcf, *w2;
  const int *idx;
  float b2, *G, *U, *S, *GT;
  double *el;
#if NNT_ISA_LEVEL >= 1
  const lanes_k *k;
  float *xl;      /* a unit's x parts in lanes */
#endif
} tr_ctx;

/* the row forms: the squared errors of prompt b0 into e[i] (the scratch holds one prompt) */
static void tr_rows(const tr_ctx *cx, int b0, double *e) {
  const int B = 1;
  int N = cx->N, D = cx->D, m = cx->m, d = cx->d, q = cx->q, Np = cx->Np;
  const float *X = cx->X, *y = cx->y, *Gtab = cx->Gtab, *Utab = cx->Utab, *MTxT = cx->MTxT, *WcxT = cx->WcxT;
  const float *bcf = cx->bcf, *w2 = cx->w2;
  const int *idx = cx->idx;
  float b2 = cx->b2, *G = cx->G, *U = cx->U, *S = cx->S, *GT = cx->GT;
  int R = B * N;
  const float *Xc = X + (size_t)b0 * N * D;
  /* G_r = x_r MT_x^T + tables + kv, U_r = x_r W_cx^T + tables: K = d is small, so one fused
   * pass per row (tables first, then d axpy sweeps in L1) beats a GEMM call */
  int r = 0;
  if (q == 1) /* table lookups fused into the x maps, four rows at a time */
    for (; r + 4 <= R; r += 4) {
      const float *x = Xc + (size_t)r * D;
      const int *ti = idx + (size_t)b0 * N + r;
      float *g = G + (size_t)r * D, *u = U + (size_t)r * m;
      xinit ig = {{0}, {0}}, iu = {{0}, {0}};
      for (int k = 0; k < 4; k++) {
        int i = (r + k) % N;
        ig.ib[k] = Gtab + (size_t)i * D, ig.it[k] = Gtab + ((size_t)N + ti[k]) * D;
        iu.ib[k] = Utab + (size_t)i * m, iu.it[k] = Utab + ((size_t)N + ti[k]) * m;
      }
      xmap4(x, x + D, x + 2 * D, x + 3 * D, d, MTxT, D, g, g + D, g + 2 * D, g + 3 * D, &ig);
      xmap4(x, x + D, x + 2 * D, x + 3 * D, d, WcxT, m, u, u + m, u + 2 * m, u + 3 * m, &iu);
    }
  int r0 = r;
  for (r = r0; r < R; r++) {
    int i = r % N;
    const int *ti = idx + ((size_t)b0 * N + r) * q;
    float *g = G + (size_t)r * D, *u = U + (size_t)r * m;
    const float *gp = Gtab + (size_t)i * D, *up = Utab + (size_t)i * m;
    for (int c = 0; c < D; c++) g[c] = gp[c];
    for (int c = 0; c < m; c++) u[c] = up[c];
    for (int h = 0; h < q; h++) {
      const float *gt = Gtab + ((size_t)(h + 1) * N + ti[h]) * D, *ut = Utab + ((size_t)(h + 1) * N + ti[h]) * m;
      for (int c = 0; c < D; c++) g[c] += gt[c];
      for (int c = 0; c < m; c++) u[c] += ut[c];
    }
  }
  r = r0;
  for (; r + 4 <= R; r += 4) {
    const float *x = Xc + (size_t)r * D;
    float *g = G + (size_t)r * D, *u = U + (size_t)r * m;
    xmap4(x, x + D, x + 2 * D, x + 3 * D, d, MTxT, D, g, g + D, g + 2 * D, g + 3 * D, NULL);
    xmap4(x, x + D, x + 2 * D, x + 3 * D, d, WcxT, m, u, u + m, u + 2 * m, u + 3 * m, NULL);
  }
  for (; r < R; r++) {
    const float *x = Xc + (size_t)r * D;
    xmap(x, d, MTxT, D, G + (size_t)r * D);
    xmap(x, d, WcxT, m, U + (size_t)r * m);
  }
  for (int b = 0; b < B; b++) {
    const float *Z = Xc + (size_t)b * N * D, *Gb = G + (size_t)b * N * D, *Ub = U + (size_t)b * N * m;
    /* tiny products as axpy loops over a contiguous dimension (they vectorise without
     * reassociating a reduction): S^T = Z G^T through G^T, one query per lane, so the softmax
     * runs down the columns, all queries at once; then H = A U */
    int i8 = N / 8 * 8, c8 = D / 8 * 8;
    for (int i = 0; i < i8; i += 8)
      for (int c = 0; c < c8; c += 8) nnt_simd_transpose8(Gb + (size_t)i * D + c, D, GT + (size_t)c * Np + i, Np);
    for (int c = 0; c < D; c++)
      for (int i = c < c8 ? i8 : 0; i < N; i++) GT[c * Np + i] = Gb[i * D + c];
    int j = 0;
    for (; j + 4 <= N; j += 4) {
      const float *z = Z + (size_t)j * D;
      float *s = S + j * Np;
      scores4(z, z + D, z + 2 * D, z + 3 * D, D, GT, Np, s, s + Np, s + 2 * Np, s + 3 * Np);
    }
    for (; j < N; j++) scores_row(Z + (size_t)j * D, D, GT, Np, S + j * Np);
    NNT_ISA_FN(nnt_softmax_cols_fast)(S, N, Np, N); /* the training forward's softmax, per query */
    int i = 0;
    const float *yb = y + ((size_t)b0 + b) * N;
#if NNT_ISA_LEVEL >= 2
    for (; i + 4 <= N; i += 4) {
      float o[4];
      readout4(S + i, Np, N, Ub, m, bcf, w2, o);
      for (int k = 0; k < 4; k++) {
        double ei = (double)(b2 + o[k]) - yb[i + k];
        e[(size_t)b * N + i + k] = ei * ei;
      }
    }
#endif
    for (; i + 2 <= N; i += 2) {
      float oa, ob;
      readout2(S + i, S + i + 1, Np, N, Ub, m, bcf, w2, &oa, &ob);
      double ea = (double)(b2 + oa) - yb[i], eb = (double)(b2 + ob) - yb[i + 1];
      e[(size_t)b * N + i] = ea * ea, e[(size_t)b * N + i + 1] = eb * eb;
    }
    for (; i < N; i++) {
      float o = b2 + readout_row(S + i, Np, N, Ub, m, bcf, w2);
      double ei = (double)o - yb[i];
      e[(size_t)b * N + i] = ei * ei;
    }
  }
}

/* unit u of the visiting order: its whole blocks of NNT_LANES prompts in lanes, else one prompt at a
 * time */
static void tr_unit(void *ctx, const nnt_qstr_fast_set *fs, int u) {
  const tr_ctx *cx = ctx;
  int N = cx->N, r0 = u * fs->unit, r1 = r0 + fs->unit < fs->n ? r0 + fs->unit : fs->n;
#if NNT_ISA_LEVEL >= 1
  if (cx->k) /* the block's x parts into lanes: NNT_LANES x NNT_LANES transposes */
    for (; r0 + LANES <= r1; r0 += LANES) {
      const int *pr = fs->perm + r0, nd = N * cx->d;
      const float *rows[LANES];
      for (int l = 0; l < LANES; l++) rows[l] = fs->xs + (size_t)pr[l] * nd;
      nnt_lanes_from_rows(rows, nd, cx->xl);
      tr_lanes(cx->k, cx->xl, pr, cx->idx, cx->y, cx->el);
      for (int l = 0; l < LANES; l++)
        for (int i = 0; i < N; i++) fs->err[(size_t)pr[l] * N + i] = cx->el[(size_t)l * N + i];
    }
#endif
  for (int r = r0; r < r1; r++) tr_rows(cx, fs->perm[r], fs->err + (size_t)fs->perm[r] * N);
}

static double tr_sse(const nnt_qstr_model *mo, const nnt_qstr_task *t, const float *p, const float *X,
                     nnt_qstr_fast_set *fs, const int *idx, const float *y, int n, double bound, int *complete) {
  int N = mo->N, D = mo->D, m = mo->m, d = t->c.d, q = t->c.q, de = t->c.de;
  double cs = t->c.enc == NNT_QSTR_ENC_PAPER ? sqrt((double)d / q) : 1.0, isd = 1 / sqrt((double)D);
  const float *Wq = p + mo->win, *Wk = Wq + (size_t)D * D, *Wv = Wk + (size_t)D * D;
  const float *bq = p + mo->bin, *bv = bq + 2 * D, *Wo = p + mo->wo, *bo = p + mo->bo, *W1 = p + mo->w1, *b1 = p + mo->b1;
  /* folded matrices in double: MT[b][a] = M[a][b] / sqrt(D) (so G_i = MT z_i), kv, Wc, bc */
  double *MT = nnt_xmalloc(sizeof(double) * D * D), *kv = nnt_xmalloc(sizeof(double) * D);
  double *W1o = nnt_xmalloc(sizeof(double) * m * D), *Wc = nnt_xmalloc(sizeof(double) * m * D);
  double *bc = nnt_xmalloc(sizeof(double) * m), *ob = nnt_xmalloc(sizeof(double) * D);
  double *acc = nnt_xmalloc(sizeof(double) * (m > D ? m : D)), *row = nnt_xmalloc(sizeof(double) * D);
  for (int c = 0; c < D; c++) {
    for (int r = 0; r < D; r++) row[r] = Wq[r * D + c];
    vec_mat(row, Wk, D, acc);
    for (int b = 0; b < D; b++) MT[b * D + c] = acc[b] * isd;
  }
  for (int r = 0; r < D; r++) row[r] = bq[r];
  vec_mat(row, Wk, D, kv);
  for (int b = 0; b < D; b++) kv[b] *= isd;
  for (int r = 0; r < D; r++) { /* ob = W_o b_v + b_o */
    ob[r] = bo[r];
    for (int k = 0; k < D; k++) ob[r] += (double)Wo[r * D + k] * bv[k];
  }
  for (int c = 0; c < m; c++) {
    for (int r = 0; r < D; r++) row[r] = W1[c * D + r];
    vec_mat(row, Wo, D, W1o + (size_t)c * D);
    double s0 = b1[c];
    for (int r = 0; r < D; r++) s0 += row[r] * ob[r];
    bc[c] = s0;
  }
  for (int c = 0; c < m; c++) vec_mat(W1o + (size_t)c * D, Wv, D, Wc + (size_t)c * D);
  /* x parts as float matrices, code parts as tables: block 0 = own position, block h+1 = t_ih */
  float *MTxT = nnt_xmalloc(sizeof(float) * D * d), *WcxT = nnt_xmalloc(sizeof(float) * m * d);
  for (int b = 0; b < D; b++)
    for (int a = 0; a < d; a++) MTxT[a * D + b] = (float)MT[b * D + a];
  for (int c = 0; c < m; c++)
    for (int a = 0; a < d; a++) WcxT[a * m + c] = (float)Wc[c * D + a];
  float *Gtab = nnt_xmalloc(sizeof(float) * (q + 1) * N * D), *Utab = nnt_xmalloc(sizeof(float) * (q + 1) * N * m);
  for (int h = 0; h <= q; h++) {
    code_table(t->E, N, de, cs, MT, D, D, d + h * de, Gtab + (size_t)h * N * D, acc);
    code_table(t->E, N, de, cs, Wc, m, D, d + h * de, Utab + (size_t)h * N * m, acc);
  }
  /* multiply-adds of the folding above: MT, kv, W1o, bc, Wc, the code tables */
  nnt_gemm_macs_add((double)D * D * D + (double)D * D + 2.0 * m * D * D + (double)m * (D * D + D) +
                    (double)(q + 1) * N * de * (D + m));
  float *G = nnt_xmalloc(sizeof(float) * N * D), *U = nnt_xmalloc(sizeof(float) * N * m); /* one prompt's */
  int Np = padded(N); /* G^T rows padded to whole vectors (zeros) */
  float *S = nnt_xcalloc((size_t)N * Np, sizeof(float)), *GT = nnt_xcalloc((size_t)D * Np, sizeof(float));
  float bcf[4096];
  for (int i = 0; i < N; i++) /* the own-position table with kv added: the start value of a G row */
    for (int b = 0; b < D; b++) Gtab[(size_t)i * D + b] += (float)kv[b];
  for (int c = 0; c < m; c++) bcf[c] = (float)bc[c];
  const float *w2 = p + mo->w2;
  float b2 = p[mo->b2];
  nnt_qstr_fast_set *own_fs = fs ? NULL : nnt_qstr_fast_prepare(mo, t, X, y, n);
  if (own_fs) fs = own_fs;
#if NNT_ISA_LEVEL >= 1
  /* whole blocks of NNT_LANES prompts in lanes: G and U side by side in the tables and the x maps' weights */
  lanes_k k = {N, d, de, D, m, D + m + 8, NULL, NULL, NULL, NULL, bcf, p + mo->w2, p[mo->b2], NULL, NULL, NULL, NULL, NULL,
               NULL, NULL, NULL, NULL, NULL};
  float *ktab = NULL;
  if (q == 1 && n >= LANES) {
    int W = k.W;
    ktab = nnt_xcalloc((size_t)(2 * N + d) * W + (size_t)N * de, sizeof(float));
    float *own = ktab, *ind = own + (size_t)N * W, *wx = ind + (size_t)N * W, *code = wx + (size_t)d * W;
    for (int v = 0; v < N; v++) {
      memcpy(own + (size_t)v * W, Gtab + (size_t)v * D, sizeof(float) * D);
      memcpy(own + (size_t)v * W + D, Utab + (size_t)v * m, sizeof(float) * m);
      memcpy(ind + (size_t)v * W, Gtab + ((size_t)N + v) * D, sizeof(float) * D);
      memcpy(ind + (size_t)v * W + D, Utab + ((size_t)N + v) * m, sizeof(float) * m);
      for (int r = 0; r < de; r++) code[v * de + r] = (float)(cs * t->E[v * de + r]);
    }
    for (int a = 0; a < d; a++) {
      memcpy(wx + (size_t)a * W, MTxT + (size_t)a * D, sizeof(float) * D);
      memcpy(wx + (size_t)a * W + D, WcxT + (size_t)a * m, sizeof(float) * m);
    }
    k.own = own, k.ind = ind, k.wx = wx, k.code = code;
    size_t nv = (size_t)(D + 8) * N + 8 * (size_t)N + (size_t)N * N + (size_t)N * 8 + 2 * (size_t)N + (size_t)N * W + (size_t)N * de;
    /* whole vectors on cache lines (no split loads); then a unit's x parts, then its errors */
    k.g = fast_scratch(fs, LANES * (nv + (size_t)N * d + 2 * (size_t)N));
    k.u = k.g + (size_t)(D + 8) * N * LANES, k.s = k.u + (size_t)8 * N * LANES, k.part = k.s + (size_t)N * N * LANES;
    k.h = k.part + (size_t)N * 8 * LANES, k.o = k.h + (size_t)N * LANES, k.gi = k.o + (size_t)N * LANES;
    k.zt = k.gi + (size_t)N * W * LANES;
    k.girow = nnt_xmalloc(sizeof(float *) * 2 * N), k.ztrow = k.girow + N;
  }
#endif
  tr_ctx cx = {N, D, m, d, q, Np, X, y, Gtab, Utab, MTxT, WcxT, bcf, w2, idx, b2, G, U, S, GT, NULL
#if NNT_ISA_LEVEL >= 1
               , NULL, NULL
#endif
  };
#if NNT_ISA_LEVEL >= 1
  if (k.g && (double)n * N < 2147483647.0) /* the indices' gather offsets in 32 bits */
    cx.k = &k, cx.xl = k.zt + (size_t)N * de * LANES, cx.el = (double *)(cx.xl + (size_t)N * d * LANES);
#endif
  double sse = visit(fs, tr_unit, &cx, bound, CHUNK, complete);
  /* the multiply-adds of the x maps, scores and read-outs evaluated */
  int seen = 0;
  for (int u = 0; u < fs->nu; u++) seen += fs->seen[u] ? (u + 1) * fs->unit < n ? fs->unit : n - u * fs->unit : 0;
  nnt_gemm_macs_add((double)seen * N * (d * (D + m) + N * (D + m) + m));
  nnt_qstr_fast_free(own_fs);
  free(MT), free(kv), free(W1o), free(Wc), free(bc), free(ob), free(acc), free(row), free(MTxT), free(WcxT), free(Gtab), free(Utab);
  free(G), free(U), free(S), free(GT);
#if NNT_ISA_LEVEL >= 1
  free(ktab), free(k.girow);
#endif
  return sse;
}

/* ffn: the first layer sees a prompt as N tokens [x_i, c E[i], c E[t_i1..q]], so
 *   W_1 z + b_1 = W_1x x + (b_1 + sum_i W_1,i,pos c E[i]) + sum_{i,h} T[h][i][t_ih],
 *   T[h][i][v] = W_1,i,h c E[v]   (N x N tables per code slot, built once per evaluation),
 * and only the x part (N d of the N D inputs) is a product; the later layers are the generic
 * ones, on blocks of prompts that keep the activations in cache. */
typedef struct {
  const nnt_qstr_model *mo;
  const float *p, *c0, *T, *const *Wp, *const *Wd, *y;
  const int *outp, *idx;
  int N, q, h1, Nd, L;
  float *A, *Bf, *nzv, *xs, *yu; /* xs, yu, iu: a unit's x parts, labels and indices */
  int *nzi, *nzc, *iu;
} ffn_ctx;

/* unit u of the visiting order: its prompts' squared errors, the layers on the whole unit */
static void ffn_unit(void *ctx, const nnt_qstr_fast_set *fs, int u) {
  const ffn_ctx *cx = ctx;
  const nnt_qstr_model *mo = cx->mo;
  const float *p = cx->p, *c0 = cx->c0, *T = cx->T, *const *Wp = cx->Wp, *const *Wd = cx->Wd;
  const int *outp = cx->outp;
  int N = cx->N, q = cx->q, h1 = cx->h1, Nd = cx->Nd, L = cx->L, b0 = u * fs->unit;
  int B = b0 + fs->unit < fs->n ? fs->unit : fs->n - b0;
  float *A = cx->A, *Bf = cx->Bf, *nzv = cx->nzv, *xs = cx->xs, *yu = cx->yu;
  int *nzi = cx->nzi, *nzc = cx->nzc, *iu = cx->iu;
  for (int b = 0; b < B; b++) { /* the unit's x parts, indices and labels gathered */
    int pb = fs->perm[b0 + b];
    for (int k = 0; k < Nd; k++) xs[(size_t)b * Nd + k] = fs->xs[(size_t)pb * Nd + k]; /* loops: memcpy is a call here */
    for (int k = 0; k < N * q; k++) iu[(size_t)b * N * q + k] = cx->idx[(size_t)pb * N * q + k];
    for (int i = 0; i < N; i++) yu[(size_t)b * N + i] = cx->y[(size_t)pb * N + i];
  }
  nnt_sgemm_packed(0, B, h1, Nd, 1, xs, Nd, Wp[0], Nd, 0, 0, A, h1);
  for (int b = 0; b < B; b++) {
    float *a = A + (size_t)b * h1;
    const int *ti = iu + (size_t)b * N * q;
    for (int c = 0; c < h1; c++) a[c] += c0[c];
    for (int i = 0; i < N; i++)
      for (int h = 0; h < q; h++) {
        const float *tv = T + (((size_t)h * N + i) * N + ti[i * q + h]) * h1;
        for (int c = 0; c < h1; c++) a[c] += tv[c];
      }
    for (int c = 0; c < h1; c++) a[c] = a[c] > 0 ? a[c] : 0;
  }
  float *cur = A, *nxt = Bf;
  int ld = h1; /* cur's row stride: padded after a sparse layer */
  for (int l = 1; l < L; l++) {
    int in = mo->width[l], out = mo->width[l + 1], last = l == L - 1;
    if (!Wd[l]) { /* never the last layer: its output is read unpadded */
      NNT_ISA_FN(nnt_qstr_sparse_layer)(B, in, ld, out, outp[l], cur, Wp[l], p + mo->fb[l], !last, nxt, outp[l], nzi,
                                        nzv, nzc);
      ld = outp[l];
    } else { /* too narrow for the sparse form's FMA chains: the dense product */
      nnt_sgemm_packed(0, B, out, in, 1, cur, ld, Wd[l], in, 0, 0, nxt, out);
      ld = out;
      const float *bl = p + mo->fb[l];
      for (int b = 0; b < B; b++)
        for (int c = 0; c < out; c++) {
          float v = nxt[(size_t)b * out + c] + bl[c];
          nxt[(size_t)b * out + c] = last || v > 0 ? v : 0;
        }
    }
    float *sw = cur;
    cur = nxt, nxt = sw;
  }
  const float *yb = yu;
  for (int b = 0; b < B; b++) {
    double *e = fs->err + (size_t)fs->perm[b0 + b] * N;
    for (int i = 0; i < N; i++) {
      int k = b * N + i;
      e[i] = (double)(cur[k] - yb[k]) * (cur[k] - yb[k]);
    }
  }
}

static double ffn_sse(const nnt_qstr_model *mo, const nnt_qstr_task *t, const float *p, const float *X,
                      nnt_qstr_fast_set *fs, const int *idx, const float *y, int n, double bound, int *complete) {
  int N = mo->N, D = mo->D, d = t->c.d, q = t->c.q, de = t->c.de, h1 = mo->width[1], Nd = N * d, L = mo->nl;
  double cs = t->c.enc == NNT_QSTR_ENC_PAPER ? sqrt((double)d / q) : 1.0;
  const float *W1 = p + mo->fw[0], *b1 = p + mo->fb[0];
  float *W1x = nnt_xmalloc(sizeof(float) * h1 * Nd), *c0 = nnt_xmalloc(sizeof(float) * h1);
  float *T = nnt_xmalloc(sizeof(float) * (size_t)q * N * N * h1);
  for (int c = 0; c < h1; c++) {
    const float *w = W1 + (size_t)c * N * D;
    double s = b1[c];
    for (int i = 0; i < N; i++) {
      memcpy(W1x + (size_t)c * Nd + i * d, w + i * D, sizeof(float) * d);
      for (int k = 0; k < de; k++) s += cs * t->E[i * de + k] * w[i * D + d + k];
      for (int h = 0; h < q; h++)
        for (int v = 0; v < N; v++) {
          double e = 0;
          for (int k = 0; k < de; k++) e += cs * t->E[v * de + k] * w[i * D + d + (h + 1) * de + k];
          T[(((size_t)h * N + i) * N + v) * h1 + c] = (float)e;
        }
    }
    c0[c] = (float)s;
  }
  nnt_gemm_macs_add((double)h1 * N * de * (1 + q * N));
  int wmax = 0;
  for (int l = 1; l <= L; l++) wmax = mo->width[l] > wmax ? mo->width[l] : wmax;
  wmax = nnt_qstr_sparse_width(wmax); /* rows padded to whole blocks */
  float *A = nnt_xmalloc(sizeof(float) * FFN_CHUNK * wmax);
  float *Bf = nnt_xmalloc(sizeof(float) * FFN_CHUNK * wmax);
  /* once for all the chunks: the first layer's x part packed for the GEMM, the later layers' W^T
   * for the sparse form (qstr_sparse.h) */
  float *Wp[NNT_QSTR_MAXL];
  Wp[0] = nnt_xmalloc(sizeof(float) * nnt_sgemm_pack_size(h1, Nd));
  nnt_sgemm_pack(1, h1, Nd, W1x, Nd, Wp[0]);
  int outp[NNT_QSTR_MAXL] = {0};
  float *Wd[NNT_QSTR_MAXL] = {0};
  for (int l = 1; l < L; l++) {
    int in = mo->width[l], out = mo->width[l + 1];
    if (out < NNT_QSTR_SPARSE_MIN || l == L - 1) {
      Wd[l] = nnt_xmalloc(sizeof(float) * nnt_sgemm_pack_size(out, in));
      nnt_sgemm_pack(1, out, in, p + mo->fw[l], in, Wd[l]);
      Wp[l] = NULL;
      continue;
    }
    outp[l] = nnt_qstr_sparse_width(out);
    Wp[l] = nnt_xmalloc64(sizeof(float) * (size_t)in * outp[l]); /* rows start on cache lines */
    NNT_ISA_FN(nnt_qstr_pack_wt)(p + mo->fw[l], out, in, outp[l], Wp[l]);
  }
  int *nzi = nnt_xmalloc(sizeof(int) * FFN_CHUNK * wmax), *nzc = nnt_xmalloc(sizeof(int) * FFN_CHUNK);
  float *nzv = nnt_xmalloc(sizeof(float) * FFN_CHUNK * wmax);
  ffn_ctx cx = {mo, p, c0, T, (const float *const *)Wp, (const float *const *)Wd, y, outp, idx, N, q, h1, Nd, L,
                A, Bf, nzv, NULL, NULL, nzi, nzc, NULL};
  cx.xs = nnt_xmalloc(sizeof(float) * FFN_CHUNK * N * (d + 1)), cx.yu = cx.xs + (size_t)FFN_CHUNK * N * d;
  cx.iu = nnt_xmalloc(sizeof(int) * FFN_CHUNK * N * q);
  nnt_qstr_fast_set *own_fs = fs ? NULL : nnt_qstr_fast_prepare(mo, t, X, y, n);
  if (own_fs) fs = own_fs;
  double sse = visit(fs, ffn_unit, &cx, bound, FFN_CHUNK, complete);
  nnt_qstr_fast_free(own_fs);
  free(cx.xs), free(cx.iu);
  for (int l = 0; l < L; l++) free(Wp[l]), free(Wd[l]);
  free(W1x), free(c0), free(T), free(A), free(Bf), free(nzi), free(nzc), free(nzv);
  return sse;
}

double NNT_ISA_FN(nnt_qstr_fast_sse)(const nnt_qstr_model *mo, const nnt_qstr_task *t, const float *p, const float *X,
                                      nnt_qstr_fast_set *fs, const int *idx, const float *y, int n, double bound,
                                      int *complete) {
  return mo->arch == NNT_QSTR_FFN ? ffn_sse(mo, t, p, X, fs, idx, y, n, bound, complete)
                                  : tr_sse(mo, t, p, X, fs, idx, y, n, bound, complete);
}

#if NNT_ISA_BASE_TU
int nnt_qstr_fast_eval_ok(const nnt_qstr_model *mo, const nnt_qstr_task *t) {
  if (mo->arch == NNT_QSTR_FFN) return mo->D == t->D && mo->nl >= 2 && mo->width[0] == mo->N * mo->D;
  return mo->arch == NNT_QSTR_TR && mo->D == t->D && mo->D <= 1024 && mo->m <= 4096;
}

nnt_qstr_fast_set *nnt_qstr_fast_prepare(const nnt_qstr_model *mo, const nnt_qstr_task *t, const float *X, const float *y,
                                         int n) {
  int N = t->c.N, d = t->c.d, D = t->D;
  nnt_qstr_fast_set *fs = nnt_xcalloc(1, sizeof *fs);
  fs->n = n, fs->N = N, fs->unit = mo->arch == NNT_QSTR_FFN ? FFN_CHUNK : 16, fs->nu = (n + fs->unit - 1) / fs->unit;
  fs->perm = nnt_xmalloc(sizeof(int) * (n + 1));
  fs->cnt = nnt_xmalloc(sizeof(int) * (ORDER_BUCKETS + 1));
  fs->pest = nnt_xmalloc(sizeof(double) * (n + 1));
  fs->err = nnt_xmalloc(sizeof(double) * ((size_t)n * N + 1));
  fs->seen = nnt_xmalloc((size_t)fs->nu + 1);
  fs->xs = nnt_xmalloc(sizeof(float) * ((size_t)n * N * d + 16)); /* + a vector: the last prompt's masked tail */
  for (size_t r = 0; r < (size_t)n * N; r++)
    for (int a = 0; a < d; a++) fs->xs[r * d + a] = X[r * D + a];
  for (int b = 0; b < n; b++) {
    fs->pest[b] = 0;
    for (int i = 0; i < N; i++) fs->pest[b] += (double)y[(size_t)b * N + i] * y[(size_t)b * N + i];
  }
  return fs;
}

void nnt_qstr_fast_free(nnt_qstr_fast_set *fs) {
  if (!fs) return;
  free(fs->perm), free(fs->cnt), free(fs->xs), free(fs->pest), free(fs->err), free(fs->seen), free(fs->scratch);
  free(fs);
}

NNT_ISA_DECLARE(double, nnt_qstr_fast_sse, (const nnt_qstr_model *, const nnt_qstr_task *, const float *, const float *,
                                            nnt_qstr_fast_set *, const int *, const float *, int, double, int *));
double nnt_qstr_fast_sse(const nnt_qstr_model *mo, const nnt_qstr_task *t, const float *p, const float *X,
                         nnt_qstr_fast_set *fs, const int *idx, const float *y, int n, double bound, int *complete) {
  return NNT_ISA_PICK(nnt_qstr_fast_sse)(mo, t, p, X, fs, idx, y, n, bound, complete);
}
#endif
