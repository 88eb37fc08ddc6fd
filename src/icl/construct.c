/* The builder of Theorem 1's 2N+4 layers per GD step (spec §4.3) and the run that checks them
 * against direct projected GD (net.c's s-recursion, an independent implementation). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nnt_error.h"
#include "nnt_icl_construct.h"

void nnt_icl_construct_cfg_default(nnt_icl_construct_cfg *c, nnt_preset p) {
  *c = (nnt_icl_construct_cfg){
      .net = {.N = 3, .K = 6, .dx = 4, .dy = 1, .act = NNT_ICL_ACT_SIGMOID, .out_act = 1, .bias = 0},
      .n = 24,
      .steps = p == NNT_PRESET_QUICK ? 5 : 20,
      .M = 64,
      .R = 8,
      .eta = 0.5,
      .B = 3,
      .w0_std = 0.5,
      .teacher_std = 1,
      .gate = 1e4,
      .readout = 1,
      .bound_scale = 1,
      .seed = 1,
  };
}

int nnt_icl_construct_check(const nnt_icl_construct_cfg *c) {
  int st = nnt_icl_net_check(&c->net);
  if (st) return st;
  if (c->net.bias) return nnt_fail(NNT_EINVAL, "the construction is for Definition 1's bias-free network (bias must be 0)");
  if (c->n < 1) return nnt_fail(NNT_EINVAL, "--n (in-context examples) must be >= 1 (got %d)", c->n);
  if (c->steps < 1) return nnt_fail(NNT_EINVAL, "--steps must be >= 1 (got %d)", c->steps);
  if (c->M < 2) return nnt_fail(NNT_EINVAL, "--M (ReLU pieces) must be >= 2 (got %d)", c->M);
  if (!(c->R > 0)) return nnt_fail(NNT_EINVAL, "--R (interpolation range) must be > 0 (got %g)", c->R);
  if (!(c->eta > 0)) return nnt_fail(NNT_EINVAL, "--eta must be > 0 (got %g)", c->eta);
  if (!(c->B > 0)) return nnt_fail(NNT_EINVAL, "--B (clip box) must be > 0 (got %g)", c->B);
  if (!(c->w0_std >= 0) || !(c->teacher_std >= 0)) return nnt_fail(NNT_EINVAL, "weight scales must be >= 0");
  if (!(c->gate > 0)) return nnt_fail(NNT_EINVAL, "--gate must be > 0 (got %g)", c->gate);
  size_t ne = c->export_path ? strlen(c->export_path) : 0;
  if (c->export_path && (ne < 12 || strcmp(c->export_path + ne - 12, ".safetensors")))
    return nnt_fail(NNT_EINVAL, "--export %s: the construction exports to .safetensors", c->export_path);
  if (!(c->bound_scale > 0 && c->bound_scale <= 1))
    return nnt_fail(NNT_EINVAL, "--bound-scale must be in (0, 1] (got %g)", c->bound_scale);
  nnt_icl_layout L;
  nnt_icl_layout_init(&L, &c->net);
  if ((double)L.D * (c->n + 1) > 5e7)
    return nnt_fail(NNT_EINVAL, "prompt too large: %d tokens of width %d", c->n + 1, L.D);
  /* The forward and r′ layers dominate: (M+2) heads per unit, each summing over T² token pairs. */
  const double DN = (double)nnt_icl_net_nparams(&c->net), T = c->n + 1.0;
  const double flops = 4 * (c->M + 2.0) * (DN + 2.0 * L.U) * T * T;
  if (flops > 1e10)
    return nnt_fail(NNT_EINVAL, "construction too large: ~%.1e flops per GD step (M=%d, D_N=%.0f, %d tokens; limit 1e10)", flops,
                    c->M, DN, c->n + 1);
  return NNT_OK;
}

/* ---------------------------------------------------------------- building heads */
static void push(nnt_icl_layer *ly, int r, int c, double v) {
  if (ly->nent == ly->cap_ent) ly->ent = nnt_xrealloc(ly->ent, sizeof *ly->ent * (ly->cap_ent = 2 * ly->cap_ent + 64));
  ly->ent[ly->nent++] = (nnt_icl_ent){r, c, v};
}
static nnt_icl_head *head_begin(nnt_icl_layer *ly, int dk) { /* then Q entries */
  if (ly->nheads == ly->cap_heads)
    ly->heads = nnt_xrealloc(ly->heads, sizeof *ly->heads * (ly->cap_heads = 2 * ly->cap_heads + 16));
  nnt_icl_head *h = &ly->heads[ly->nheads++];
  *h = (nnt_icl_head){.dk = dk, .q = ly->nent};
  return h;
}
static void head_k(nnt_icl_layer *ly) { /* then K entries */
  nnt_icl_head *h = &ly->heads[ly->nheads - 1];
  h->nq = ly->nent - h->q, h->k = ly->nent;
}
static void head_v(nnt_icl_layer *ly) { /* then V entries */
  nnt_icl_head *h = &ly->heads[ly->nheads - 1];
  h->nk = ly->nent - h->k, h->v = ly->nent;
}
static void head_end(nnt_icl_layer *ly) {
  nnt_icl_head *h = &ly->heads[ly->nheads - 1];
  h->nv = ly->nent - h->v;
}

/* Lemmas 2 and 3: for every unit k of net layer j and every piece c σ(a t + b) of f̂, one head
 *   Q h_i = [a p̂_i(j−1); b],  K h_s = [v_{j,k} (from token s's w); 1],  V h_s = c e_dst (from the 1)
 * so Σ_s (1/T) σ(⟨Q h_i, K h_s⟩) V h_s = f̂(v_{j,k}ᵀ p̂_i(j−1)) in slot dst(j, k). */
static void unit_heads(nnt_icl_layer *ly, const nnt_icl_tf *tf, int j, const nnt_icl_pwl *f, int dst0) {
  const nnt_icl_net *net = &tf->net;
  const int fi = nnt_icl_net_fan_in(net, j), in = nnt_icl_layout_p(&tf->L, net, j - 1);
  const int w0 = tf->L.w + (int)nnt_icl_net_layer_offset(net, j);
  for (int k = 0; k < nnt_icl_net_units(net, j); k++)
    for (int m = 0; m < f->np; m++) {
      head_begin(ly, fi + 1);
      for (int q = 0; q < fi; q++)
        if (f->a[m] != 0) push(ly, q, in + q, f->a[m]);
      push(ly, fi, tf->L.one, f->b[m]);
      head_k(ly);
      for (int q = 0; q < fi; q++) push(ly, q, w0 + k * fi + q, 1);
      push(ly, fi, tf->L.one, 1);
      head_v(ly);
      push(ly, dst0 + k, tf->L.one, f->c[m]);
      head_end(ly);
    }
}

/* MLP unit y[dst] += c σ(G (t_coef t + one_coef 1) + Σ terms): gate terms first, so that with the
 * gate open they cancel to exactly 0 before the data terms are added. */
static void mlp_unit(nnt_icl_layer *ly, const nnt_icl_layout *L, double gt, double g1, int c1, double v1, int c2,
                     double v2, int dst, double c) {
  head_begin(ly, 1);
  if (gt != 0) push(ly, 0, L->t, gt);
  if (g1 != 0) push(ly, 0, L->one, g1);
  push(ly, 0, c1, v1);
  if (v2 != 0) push(ly, 0, c2, v2);
  head_k(ly);
  head_v(ly);
  push(ly, dst, 0, c);
  head_end(ly);
}

static nnt_icl_layer *new_layer(nnt_icl_tf *tf, nnt_icl_ltype type, const char *what) {
  nnt_icl_layer *ly = &tf->layer[tf->nlayers++];
  *ly = (nnt_icl_layer){.type = type, .what = what};
  return ly;
}

int nnt_icl_tf_build(const nnt_icl_construct_cfg *c, nnt_icl_tf *tf) {
  int st = nnt_icl_construct_check(c);
  if (st) return st;
  const nnt_icl_net *net = &c->net;
  const int N = net->N, K = net->K, dy = net->dy;
  *tf = (nnt_icl_tf){.net = *net, .nstep = 2 * N + 4};
  nnt_icl_layout_init(&tf->L, net);
  const nnt_icl_layout *L = &tf->L;
  tf->layer = nnt_xcalloc((size_t)(tf->nstep + N + 1), sizeof *tf->layer);
  nnt_icl_pwl r, rp, id, one;
  nnt_icl_pwl_build(&r, net->act, 0, c->M, c->R);
  nnt_icl_pwl_build(&rp, net->act, 1, c->M, c->R);
  nnt_icl_pwl_build(&id, NNT_ICL_ACT_IDENTITY, 0, c->M, c->R);  /* linear output layer: exact */
  nnt_icl_pwl_build(&one, NNT_ICL_ACT_IDENTITY, 1, c->M, c->R); /* its r′ = 1: exact */
  const nnt_icl_pwl *rN = net->out_act ? &r : &id, *rpN = net->out_act ? &rp : &one;

  for (int pass = 0; pass < 1 + c->readout; pass++) {
    /* Layers 1..N (and the readout's first N): p̂(j) = r̂(V_j p̂(j−1)) on every token. */
    for (int j = 1; j <= N; j++)
      unit_heads(new_layer(tf, NNT_ICL_ATTN, pass ? "readout: forward p̂(j)" : "forward p̂(j) (Lemma 2)"), tf, j,
                 j < N ? &r : rN, nnt_icl_layout_p(L, net, j));
    if (pass) { /* readout MLP: y_q += p̂_q(N), gated shut on the examples (t = 1) */
      nnt_icl_layer *ly = new_layer(tf, NNT_ICL_MLP, "readout: y_q <- p̂_q(N)");
      for (int k = 0; k < dy; k++) {
        const int pN = nnt_icl_layout_p(L, net, N) + k;
        mlp_unit(ly, L, -c->gate, 0, pN, 1, 0, 0, L->y + k, 1);
        mlp_unit(ly, L, -c->gate, 0, pN, -1, 0, 0, L->y + k, -1);
      }
      break;
    }
    /* Layer N+1 (Lemma 3): all r̂′(j−1)[k] in one attention layer. */
    nnt_icl_layer *ly = new_layer(tf, NNT_ICL_ATTN, "derivatives r̂′(j−1) (Lemma 3)");
    for (int j = 1; j <= N; j++) unit_heads(ly, tf, j, j < N ? &rp : rpN, nnt_icl_layout_rp(L, net, j));
    /* Layer N+2 (Lemma 4): g = u(p̂(N), y) = 2σ(p̂−y) − 2σ(y−p̂), exact; −G(1−t) shuts the query. */
    ly = new_layer(tf, NNT_ICL_MLP, "loss derivative g = u(p̂(N), y) (Lemma 4)");
    for (int k = 0; k < dy; k++) {
      const int pN = nnt_icl_layout_p(L, net, N) + k;
      mlp_unit(ly, L, c->gate, -c->gate, pN, 1, L->y + k, -1, L->g + k, 2);
      mlp_unit(ly, L, c->gate, -c->gate, pN, -1, L->y + k, 1, L->g + k, -2);
    }
    /* Layer N+3 (Lemma 5): ŝ(N) = r̂′(N−1) ⊙ g. */
    ly = new_layer(tf, NNT_ICL_EWML, "ŝ(N) = r̂′(N−1) ⊙ g (Lemma 5)");
    for (int k = 0; k < dy; k++) {
      head_begin(ly, 1);
      push(ly, 0, nnt_icl_layout_rp(L, net, N) + k, 1);
      head_k(ly);
      push(ly, 0, L->g + k, 1);
      head_v(ly);
      push(ly, nnt_icl_layout_s(L, net, N) + k, L->one, 1);
      head_end(ly);
    }
    /* Layers N+4..2N+2: ŝ(j) = r̂′(j−1) ⊙ (V_{j+1}ᵀ ŝ(j+1)), head k: ⟨column k of V_{j+1}, ŝ(j+1)⟩. */
    for (int j = N - 1; j >= 1; j--) {
      ly = new_layer(tf, NNT_ICL_EWML, "ŝ(j) = r̂′(j−1) ⊙ V_{j+1}ᵀ ŝ(j+1) (Lemma 5)");
      const int nu = nnt_icl_net_units(net, j + 1), wj = L->w + (int)nnt_icl_net_layer_offset(net, j + 1);
      for (int k = 0; k < K; k++) {
        head_begin(ly, nu);
        for (int m = 0; m < nu; m++) push(ly, m, wj + m * K + k, 1);
        head_k(ly);
        for (int m = 0; m < nu; m++) push(ly, m, nnt_icl_layout_s(L, net, j + 1) + m, 1);
        head_v(ly);
        push(ly, nnt_icl_layout_s(L, net, j) + k, nnt_icl_layout_rp(L, net, j) + k, 1);
        head_end(ly);
      }
    }
    /* Layer 2N+3 (D.16): two heads ± per unit: (1/T) Σ_t [σ(ŝ_t) − σ(−ŝ_t)] (−η(n+1)/(2n)) p̂_t(j−1)
     * = −(η/(2n)) Σ_t ŝ_t(j)[k] p̂_t(j−1), added to every token's copy of v_{j,k}. */
    ly = new_layer(tf, NNT_ICL_ATTN, "GD update w -= η ∇̂L_n (D.16)");
    const double coef = c->eta * (c->n + 1) / (2.0 * c->n);
    for (int j = 1; j <= N; j++) {
      const int fi = nnt_icl_net_fan_in(net, j), in = nnt_icl_layout_p(L, net, j - 1);
      const int w0 = L->w + (int)nnt_icl_net_layer_offset(net, j);
      for (int k = 0; k < nnt_icl_net_units(net, j); k++)
        for (int sg = 1; sg >= -1; sg -= 2) {
          head_begin(ly, 1);
          push(ly, 0, L->one, sg);
          head_k(ly);
          push(ly, 0, nnt_icl_layout_s(L, net, j) + k, 1);
          head_v(ly);
          for (int q = 0; q < fi; q++) push(ly, w0 + k * fi + q, in + q, -sg * coef);
          head_end(ly);
        }
    }
    /* Layer 2N+4: w ← w − σ(w − B) + σ(−w − B) (box clipping, exact); scratch z ← z − σ(z) + σ(−z). */
    ly = new_layer(tf, NNT_ICL_MLP, "projection onto [−B,B], scratch cleared");
    const int DN = (int)nnt_icl_net_nparams(net);
    for (int q = 0; q < DN; q++) {
      mlp_unit(ly, L, 0, -c->B, L->w + q, 1, 0, 0, L->w + q, -1);
      mlp_unit(ly, L, 0, -c->B, L->w + q, -1, 0, 0, L->w + q, 1);
    }
    for (int z = L->p; z < L->one; z++) {
      mlp_unit(ly, L, 0, 0, z, 1, 0, 0, z, -1);
      mlp_unit(ly, L, 0, 0, z, -1, 0, 0, z, 1);
    }
  }
  nnt_icl_pwl_free(&r), nnt_icl_pwl_free(&rp), nnt_icl_pwl_free(&id), nnt_icl_pwl_free(&one);
  return NNT_OK;
}

/* ---------------------------------------------------------------- prompt */
void nnt_icl_construct_data_draw(const nnt_icl_construct_cfg *c, nnt_icl_construct_data *d) {
  const nnt_icl_net *net = &c->net;
  const size_t DN = nnt_icl_net_nparams(net), T = (size_t)c->n + 1;
  d->n = c->n;
  d->X = nnt_xmalloc(sizeof(double) * T * net->dx);
  d->Y = nnt_xcalloc(T * net->dy, sizeof(double));
  d->w0 = nnt_xmalloc(sizeof(double) * DN);
  d->wstar = nnt_xmalloc(sizeof(double) * DN);
  nnt_rng r;
  nnt_rng_init(&r, c->seed, 0); /* teacher */
  nnt_icl_net_init(net, d->wstar, 0, c->teacher_std, &r);
  if (c->teacher_std == 0) memset(d->wstar, 0, sizeof(double) * DN);
  nnt_rng_init(&r, c->seed, 1); /* inputs, the query's last */
  nnt_rng_fill_normal_f64(&r, d->X, T * net->dx, 0, 1);
  nnt_rng_init(&r, c->seed, 2); /* ŵ⁰ */
  if (c->w0_std > 0) nnt_icl_net_init(net, d->w0, 0, c->w0_std, &r);
  else memset(d->w0, 0, sizeof(double) * DN);
  double *ws = nnt_xmalloc(sizeof(double) * nnt_icl_net_ws_size(net, c->n));
  nnt_icl_net_forward(net, d->wstar, d->X, c->n, d->Y, ws); /* the query's y stays 0 */
  free(ws);
}

void nnt_icl_construct_data_free(nnt_icl_construct_data *d) {
  free(d->X), free(d->Y), free(d->w0), free(d->wstar);
  memset(d, 0, sizeof *d);
}

void nnt_icl_construct_embed(const nnt_icl_tf *tf, const nnt_icl_construct_data *d, double *H) {
  const nnt_icl_net *net = &tf->net;
  const nnt_icl_layout *L = &tf->L;
  const int T = d->n + 1, DN = (int)nnt_icl_net_nparams(net);
  memset(H, 0, sizeof(double) * T * L->D);
  for (int i = 0; i < T; i++) {
    double *h = H + (size_t)i * L->D;
    memcpy(h + L->x, d->X + (size_t)i * net->dx, sizeof(double) * net->dx);
    memcpy(h + L->y, d->Y + (size_t)i * net->dy, sizeof(double) * net->dy);
    memcpy(h + L->w, d->w0, sizeof(double) * DN);
    h[L->one] = 1;
    h[L->t] = i < d->n;
  }
}

int nnt_icl_construct_copies_identical(const nnt_icl_tf *tf, const double *H, int T) {
  const size_t DN = nnt_icl_net_nparams(&tf->net);
  for (int i = 1; i < T; i++)
    if (memcmp(H + (size_t)i * tf->L.D + tf->L.w, H + tf->L.w, sizeof(double) * DN)) return 0;
  return 1;
}

int nnt_icl_construct_scratch_zero(const nnt_icl_tf *tf, const double *H, int T) {
  for (int i = 0; i < T; i++)
    for (int z = tf->L.p; z < tf->L.one; z++)
      if (H[(size_t)i * tf->L.D + z] != 0) return 0;
  return 1;
}

/* ---------------------------------------------------------------- run */
static double norm2(const double *a, const double *b, size_t n, double *inf) {
  double s = 0, m = 0;
  for (size_t q = 0; q < n; q++) {
    const double e = fabs(a[q] - (b ? b[q] : 0));
    s += e * e, m = e > m ? e : m;
  }
  if (inf) *inf = m;
  return sqrt(s);
}

/* Largest |v_{j,k}ᵀ p̂(j−1)| on any token after the forward layers: what the interpolants saw. */
static double preact_range(const nnt_icl_tf *tf, const double *H, int T) {
  const nnt_icl_net *net = &tf->net;
  double m = 0;
  for (int i = 0; i < T; i++) {
    const double *h = H + (size_t)i * tf->L.D;
    for (int j = 1; j <= net->N; j++) {
      const int fi = nnt_icl_net_fan_in(net, j), in = nnt_icl_layout_p(&tf->L, net, j - 1);
      const double *v = h + tf->L.w + nnt_icl_net_layer_offset(net, j);
      for (int k = 0; k < nnt_icl_net_units(net, j); k++) {
        double a = 0;
        for (int q = 0; q < fi; q++) a += v[k * fi + q] * h[in + q];
        m = fabs(a) > m ? fabs(a) : m;
      }
    }
  }
  return m;
}

int nnt_icl_construct_run(const nnt_icl_construct_cfg *c, nnt_icl_construct_result *r) {
  memset(r, 0, sizeof *r);
  nnt_icl_tf tf;
  int st = nnt_icl_tf_build(c, &tf);
  if (st) return st;
  if (c->export_path) { /* the export stores every head dense: refuse a file beyond 2 GB before any work */
    double bytes = 0;
    for (int l = 0; l < tf.nlayers; l++) {
      int dk = 1;
      for (int h = 0; h < tf.layer[l].nheads; h++) dk = tf.layer[l].heads[h].dk > dk ? tf.layer[l].heads[h].dk : dk;
      bytes += 8.0 * tf.layer[l].nheads * tf.L.D * (tf.layer[l].type == NNT_ICL_MLP ? 2 : 2.0 * dk + tf.L.D);
    }
    if (bytes > 2e9) {
      nnt_icl_tf_free(&tf);
      return nnt_fail(NNT_EINVAL, "--export: the dense export would take %.1f GB (at most 2): use a smaller --K, --N or --M",
                      bytes / 1e9);
    }
  }
  const nnt_icl_net *net = &c->net;
  const nnt_icl_layout *L = &tf.L;
  const int T = c->n + 1, N = net->N, D = L->D;
  const size_t DN = nnt_icl_net_nparams(net);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  nnt_icl_construct_data d;
  nnt_icl_construct_data_draw(c, &d);
  double *H = nnt_xmalloc(sizeof(double) * T * D), *H2 = nnt_xmalloc(sizeof(double) * T * D);
  double *ws = nnt_xmalloc(sizeof(double) * nnt_icl_tf_ws_size(&tf, T));
  double *nws = nnt_xmalloc(sizeof(double) * nnt_icl_net_ws_size(net, c->n));
  double *wb = nnt_xmalloc(sizeof(double) * DN), *g = nnt_xmalloc(sizeof(double) * DN),
         *wg0 = nnt_xmalloc(sizeof(double) * DN), *gg = nnt_xmalloc(sizeof(double) * DN),
         *gh = nnt_xmalloc(sizeof(double) * DN), *fq = nnt_xmalloc(sizeof(double) * net->dy);
  r->w_gd = nnt_xmalloc(sizeof(double) * DN), r->w_tf = nnt_xmalloc(sizeof(double) * DN);
  r->step = nnt_xcalloc((size_t)c->steps, sizeof *r->step);
  r->steps = c->steps, r->D = D, r->layers_per_step = tf.nstep, r->readout_layers = c->readout ? N + 1 : 0;
  r->layers = tf.nstep * c->steps + r->readout_layers;
  r->heads_per_step = nnt_icl_tf_heads(&tf, 0, tf.nstep);
  for (int l = 0; l < tf.nlayers; l++)
    if (tf.layer[l].nheads > r->max_heads_layer) r->max_heads_layer = tf.layer[l].nheads;
  r->invariants_ok = 1, r->bound_ok = 1;
  const int covered = nnt_icl_bound_covered(net);
  r->max_bound = covered ? 0 : NAN;
  double bound = 0; /* Corollary 1.1's B^l */
  nnt_icl_construct_embed(&tf, &d, H);
  memcpy(r->w_gd, d.w0, sizeof(double) * DN);
  const double *xq = d.X + (size_t)c->n * net->dx;
  for (int l = 0; l < c->steps && !st; l++) {
    nnt_icl_construct_step *s = &r->step[l];
    memcpy(wb, H + L->w, sizeof(double) * DN);
    for (int k = 0; k < tf.nstep; k++) {
      nnt_icl_tf_apply(&tf, k, H, T, ws);
      if (k == N - 1) {
        const double m = preact_range(&tf, H, T);
        r->max_range = m > r->max_range ? m : r->max_range;
      }
      if (k == N) /* the loss MLP's gate must exceed |p̂(N) − y| on every token */
        for (int i = 0; i < T && !st; i++)
          for (int q = 0; q < net->dy; q++) {
            const double e = H[(size_t)i * D + nnt_icl_layout_p(L, net, N) + q] - H[(size_t)i * D + L->y + q];
            if (!(fabs(e) < c->gate))
              st = nnt_fail(NNT_ECHECK, "step %d: |p̂(N) − y| = %g reaches the gate G = %g (raise --gate)", l + 1, fabs(e), c->gate);
          }
      if (k == tf.nstep - 2) /* after the GD layer, before the projection: ∇̂ = (w − w')/η */
        for (size_t q = 0; q < DN; q++) gh[q] = (wb[q] - H[L->w + q]) / c->eta;
    }
    nnt_icl_net_loss_grad(net, wb, d.X, d.Y, c->n, g, nws);
    s->grad_err = norm2(gh, g, DN, NULL);
    s->copies_ok = nnt_icl_construct_copies_identical(&tf, H, T);
    s->scratch_ok = nnt_icl_construct_scratch_zero(&tf, H, T);
    r->invariants_ok &= s->copies_ok && s->scratch_ok;
    memcpy(wg0, r->w_gd, sizeof(double) * DN);
    nnt_icl_net_gd_step(net, r->w_gd, d.X, d.Y, c->n, c->eta, c->B, gg, nws);
    s->err2 = norm2(H + L->w, r->w_gd, DN, &s->errinf);
    /* Theorem 1's bound: the gradient (Lemmas 2–6) at ŵ, the trajectory (Corollary 1.1) */
    const double dw = norm2(wb, wg0, DN, NULL);
    s->lip = dw > 0 ? norm2(g, gg, DN, NULL) / dw : 0;
    s->grad_bound = s->err_bound = NAN;
    if (covered) {
      s->grad_bound = nnt_icl_bound_grad(c, wb, d.X, d.Y) + 1e-9 * (1 + norm2(g, NULL, DN, NULL));
      bound = c->eta * s->grad_bound + (1 + c->eta * s->lip) * bound + 1e-9 * (1 + norm2(r->w_gd, NULL, DN, NULL));
      s->err_bound = bound;
      r->max_bound = bound > r->max_bound ? bound : r->max_bound;
      if (r->bound_ok && !(s->grad_err <= s->grad_bound && s->err2 <= s->err_bound)) r->bound_ok = 0, r->bound_step = l + 1;
    }
    s->loss_tf = nnt_icl_net_loss_grad(net, H + L->w, d.X, d.Y, c->n, NULL, nws);
    s->loss_gd = nnt_icl_net_loss_grad(net, r->w_gd, d.X, d.Y, c->n, NULL, nws);
    nnt_icl_net_forward(net, r->w_gd, xq, 1, fq, nws);
    s->pred_gd = fq[0];
    s->pred_tf = NAN;
    if (c->readout) {
      memcpy(H2, H, sizeof(double) * T * D);
      for (int k = tf.nstep; k < tf.nlayers; k++) nnt_icl_tf_apply(&tf, k, H2, T, ws);
      s->pred_tf = H2[(size_t)c->n * D + L->y];
    }
    r->max_err = s->errinf > r->max_err ? s->errinf : r->max_err;
    r->max_err2 = s->err2 > r->max_err2 ? s->err2 : r->max_err2;
  }
  memcpy(r->w_tf, H + L->w, sizeof(double) * DN);
  r->wgd_norm = norm2(r->w_gd, NULL, DN, NULL);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  r->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  if (!st && c->export_path) st = nnt_icl_construct_export(c, &tf, &d, r, c->export_path);
  free(H), free(H2), free(ws), free(nws), free(wb), free(g), free(gh), free(fq), free(wg0), free(gg);
  nnt_icl_construct_data_free(&d);
  nnt_icl_tf_free(&tf);
  if (st) nnt_icl_construct_result_free(r);
  return st;
}

void nnt_icl_construct_result_free(nnt_icl_construct_result *r) {
  free(r->step), free(r->w_tf), free(r->w_gd);
  memset(r, 0, sizeof *r);
}
