/* nnt circuit margin on the sparse nets (margin_run.c) against a second route built here from the
 * dense nets (nnt_circuit_compile, and the --net file expanded by the dense loader: the route the
 * command took before): over every layer the bounds must be the same bits; restricted to the last
 * blocks, the attack must be the dense search on exactly those layers, read at the dense forward
 * pass's values, and the certificate still every layer's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnt_circuits.h"
#include "nnt_error.h"
#include "nnt_test.h"

/* layers [from, L) of a dense net, copied */
static void dense_tail(const nnt_mlp *net, int from, nnt_mlp *out) {
  nnt_mlp_init(out);
  for (int l = from; l < net->nlayers; l++) {
    const nnt_mlp_layer *S = &net->layers[l];
    nnt_mlp_layer *D = nnt_mlp_add(out, S->in, S->out, S->act);
    memcpy(D->W, S->W, sizeof(double) * (size_t)S->in * S->out);
    memcpy(D->b, S->b, sizeof(double) * (size_t)S->out);
  }
}

typedef struct {
  const char *net; /* --net file (NULL: none) */
  int logit, output;
} net_opt;

/* blocks: the run's --attack-blocks; expect_from[k]: the first layer it must attack per kind */
static void check_run(const char *file, int inputs, int blocks, const int *expect_from, net_opt no) {
  nnt_circuit_margin_cfg cfg;
  nnt_circuit_margin_cfg_default(&cfg, NNT_PRESET_QUICK);
  cfg.file = file, cfg.inputs = inputs, cfg.attack_blocks = blocks;
  cfg.net = no.net, cfg.logit = no.logit, cfg.output = no.output;
  nnt_circuit_margin_result res;
  CHECK(nnt_circuit_margin_run(&cfg, &res) == NNT_OK);
  nnt_circuit c;
  nnt_circuit_layered L;
  CHECK(nnt_circuit_read(file, &c) == NNT_OK);
  nnt_circuit_layer(&c, &L);
  int nk = no.net ? 3 : 2, m = res.ninputs, same = 0, total = 0, wins[3] = {0, 0, 0};
  CHECK(res.nkinds == nk);
  for (int k = 0; k < nk; k++) {
    nnt_mlp net, tail;
    int j = no.logit && k == 2 ? no.output : 0;
    if (k < 2) nnt_circuit_compile(&L, k, &net);
    else CHECK(nnt_mlp_load(no.net, &net) == NNT_OK);
    if (k < 2 || !no.logit) { /* the readout 2 z_output - 1 */
      nnt_mlp_layer *H = nnt_mlp_add(&net, nnt_mlp_output_dim(&net), 1, NNT_ACT_IDENTITY);
      H->W[no.output] = 2, H->b[0] = -1;
    }
    int from = expect_from[k];
    CHECK_MSG(res.attack_from[k] == from, "%s kind %d: attack from layer %d, expected %d", file, k, res.attack_from[k], from);
    CHECK(res.nlayers[k] == net.nlayers && res.params[k] == nnt_mlp_stats_of(&net).params);
    dense_tail(&net, from, &tail);
    CHECK(res.attack_params[k] == nnt_mlp_stats_of(&tail).params);
    double **acts = malloc(sizeof(double *) * (size_t)net.nlayers), *x = malloc(sizeof(double) * (size_t)m);
    for (int l = 0; l < net.nlayers; l++) acts[l] = malloc(sizeof(double) * (size_t)net.layers[l].out);
    for (int v = 0; v < res.n; v++) {
      for (int i = 0; i < m; i++) x[i] = res.x[(size_t)v * m + i];
      nnt_mlp_forward_trace(&net, x, acts);
      nnt_circuit_margin_opts mo;
      nnt_circuit_margin_opts_default(&mo);
      mo.seed = cfg.seed * 1000003ULL + (uint64_t)v * 3 + (uint64_t)k;
      nnt_circuit_margin_est e = nnt_circuit_margin_upper(&tail, from ? acts[from - 1] : x, j, res.label[v], &mo);
      if (e.best_layer >= 0) e.best_layer += from; /* the net's layer */
      if (from) { /* restricted: the smaller of that and the search on every layer's stored entries (test_margin.c) */
        nnt_smlp sn;
        nnt_smlp_from_dense(&sn, &net);
        nnt_circuit_margin_est f = nnt_circuit_margin_upper_sparse(&sn, x, j, res.label[v], &mo);
        f.forward_passes += e.forward_passes;
        if (f.rho < e.rho) e = f, wins[k]++;
        else e.forward_passes = f.forward_passes;
        nnt_smlp_free(&sn);
      }
      const nnt_circuit_margin_est *g = &res.est[v * res.nkinds + k];
      double lower = nnt_circuit_margin_lower(&net, x, j, res.label[v]);
      int ok = e.rho == g->rho && e.forward_passes == g->forward_passes && e.output == g->output &&
               e.best_layer == g->best_layer && lower == res.lower[v * res.nkinds + k];
      CHECK_MSG(ok, "%s kind %d input %d (attack from %d): run rho %.17g lower %.17g passes %ld, dense route rho %.17g lower %.17g passes %ld",
                file, k, v, from, g->rho, res.lower[v * res.nkinds + k], g->forward_passes, e.rho, lower, e.forward_passes);
      same += ok, total++;
    }
    CHECK_MSG(wins[k] == res.stored_wins[k], "%s kind %d: the stored-entry search won %d times, the run says %d", file, k, wins[k], res.stored_wins[k]);
    for (int l = 0; l < net.nlayers; l++) free(acts[l]);
    free(acts), free(x);
    nnt_mlp_free(&tail), nnt_mlp_free(&net);
  }
  printf("%s%s%s --attack-blocks %d: %d of %d (input, net) pairs the same bits as the dense route; stored-entry search smaller %d + %d + %d times\n",
         file, no.net ? " --net " : "", no.net ? no.net : "", blocks, same, total, res.stored_wins[0], res.stored_wins[1], res.stored_wins[2]);
  nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  nnt_circuit_margin_result_free(&res);
}

/* A dense nnt-mlp file of a random relu net in -> 7 -> 5 -> out (a third of the weights exactly 0:
 * the dense route keeps them, the sparse load drops them) at path. */
static void random_net_file(int in, int out, const char *path) {
  nnt_rng r;
  nnt_rng_init(&r, 5, 0);
  nnt_mlp net;
  nnt_mlp_init(&net);
  int sizes[4] = {in, 7, 5, out};
  for (int l = 0; l < 3; l++) {
    nnt_mlp_layer *Ly = nnt_mlp_add(&net, sizes[l], sizes[l + 1], l < 2 ? NNT_ACT_RELU : NNT_ACT_IDENTITY);
    nnt_rng_fill_normal_f64(&r, Ly->W, (size_t)sizes[l] * sizes[l + 1], 0, 1);
    nnt_rng_fill_normal_f64(&r, Ly->b, (size_t)sizes[l + 1], 0, 0.5);
    for (int i = 0; i < sizes[l] * sizes[l + 1]; i += 3) Ly->W[i] = 0;
  }
  CHECK(nnt_mlp_save(&net, path) == NNT_OK);
  nnt_mlp_free(&net);
}

int main(void) {
  char path[1024];
  /* adder10: 21 circuit layers, 12k and 34k dense parameters (auto: every layer) */
  snprintf(path, sizeof path, "%s/adder10.bench", NNT_EXAMPLES_DIR);
  const int all[3] = {0, 0, 0}, last2[3] = {2 * (21 - 2), 4 * (21 - 2), 4 * (21 - 2)};
  const net_opt none = {NULL, 0, 0};
  check_run(path, 2, -1, all, none);
  check_run(path, 2, 2, last2, none);
  /* --net: adder10's corrected net compiled sparse to a file (an nnt-mlp-sparse file: the old route
   * expanded it dense), read out at output 3; it has the compiled net's blocks */
  char netpath[] = "/tmp/nnt_test_margin_run_XXXXXX";
  int fd = mkstemp(netpath);
  CHECK(fd >= 0);
  nnt_circuit c;
  nnt_circuit_layered L;
  CHECK(nnt_circuit_read(path, &c) == NNT_OK);
  nnt_circuit_layer(&c, &L);
  nnt_smlp sn;
  nnt_circuit_compile_sparse(&L, 1, &sn);
  CHECK(nnt_smlp_save(&sn, netpath) == NNT_OK);
  nnt_smlp_free(&sn), nnt_circuit_layered_free(&L), nnt_circuit_free(&c);
  const net_opt adder_net = {netpath, 0, 3};
  check_run(path, 2, -1, all, adder_net);
  check_run(path, 2, 2, last2, adder_net);
  snprintf(path, sizeof path, "%s/fulladder.bench", NNT_EXAMPLES_DIR);
  const int fa1[3] = {2 * (3 - 1), 4 * (3 - 1), 0};
  check_run(path, 8, 1, fa1, none);
  /* --net: a dense file of a random 3-layer net, its score 1 read at 0 (--logit); 3 layers are no
   * compiled net's count for q = 3, so a block is a layer: --attack-blocks 1 attacks layer 2 */
  random_net_file(3, 2, netpath);
  const net_opt logit_net = {netpath, 1, 1};
  const int fa_all[3] = {0, 0, 0}, fa1_logit[3] = {2 * (3 - 1), 4 * (3 - 1), 2};
  check_run(path, 8, -1, fa_all, logit_net);
  check_run(path, 8, 1, fa1_logit, logit_net);
  close(fd), remove(netpath);
  /* refused before allocating: the attack over every layer of mul32 (4.6e8 parameters dense, about
   * 27 GB with the search's copies) on a machine with 8 GB; the default attack fits */
  setenv("NNT_MEM_AVAILABLE", "8e9", 1);
  snprintf(path, sizeof path, "%s/mul32.bench", NNT_EXAMPLES_DIR);
  nnt_circuit_margin_cfg cfg;
  nnt_circuit_margin_cfg_default(&cfg, NNT_PRESET_QUICK);
  cfg.file = path, cfg.attack_blocks = 0;
  CHECK(nnt_circuit_margin_check(&cfg) == NNT_EINVAL);
  cfg.attack_blocks = -1;
  CHECK(nnt_circuit_margin_check(&cfg) == NNT_OK);
  TEST_MAIN_END();
}
