/* export.c — --export FILE for the approx demos: the network a demo built as .safetensors or .onnx
 * (nnt_smlp_export), with the construction and the function it approximates in __metadata__. */
#include <stdio.h>

#include "nnt_approx.h"
#include "nnt_error.h"

int nnt_approx_export_check(const char *path) {
  if (path && !nnt_export_format(path))
    return nnt_fail(NNT_EINVAL, "--export %s: unknown format (the file name must end in .safetensors or .onnx)", path);
  return NNT_OK;
}

/* f dense, kind "mlp", with meta (key, value, ..., NULL) after source, construction and params. */
static int write_net(const nnt_mlp *f, const char *path, const char *construction, const char *params, const char *target,
                     const char *domain, const char *version, const char *command) {
  nnt_smlp s;
  nnt_smlp_from_dense(&s, f);
  const char *meta[] = {"source", "approx", "construction", construction, "params", params, "target", target,
                        "domain", domain, "nnt_version", version ? version : "", "command", command ? command : "", NULL};
  int st = nnt_smlp_export(&s, 0, NULL, meta, path);
  nnt_smlp_free(&s);
  return st;
}

int nnt_approx_square_export(const nnt_approx_square_cfg *cfg) {
  if (!cfg->export_path) return NNT_OK;
  int i = cfg->i[cfg->ni - 1];
  nnt_mlp h;
  nnt_approx_build_square(&h, i);
  char params[32];
  snprintf(params, sizeof params, "{\"i\": %d}", i);
  int st = write_net(&h, cfg->export_path, "yarotsky-square", params, "x^2 (h_i = x - sum_{j=1..i} Delta^j(x)/4^j)",
                     "[0, 1]", cfg->version, cfg->command);
  nnt_mlp_free(&h);
  return st;
}

int nnt_approx_triangle_export(const nnt_approx_triangle_cfg *cfg) {
  if (!cfg->export_path) return NNT_OK;
  int L = cfg->L[cfg->nL - 1];
  nnt_mlp d;
  nnt_approx_build_delta(&d, L);
  char params[32];
  snprintf(params, sizeof params, "{\"L\": %d}", L);
  int st = write_net(&d, cfg->export_path, "triangle-power", params, "Delta^L(x) = Delta(frac(2^(L-1) x)), Delta the tent",
                     "[0, 1]", cfg->version, cfg->command);
  nnt_mlp_free(&d);
  return st;
}

int nnt_approx_separation_export(const nnt_approx_separation_cfg *cfg, const nnt_approx_separation_result *res) {
  if (!cfg->export_path) return NNT_OK;
  char params[96];
  snprintf(params, sizeof params, "{\"n\": %d, \"trained\": %s}", cfg->n, cfg->ntrain ? "true" : "false");
  return write_net(&res->g, cfg->export_path, cfg->ntrain ? "separation-trained" : "separation-loaded", params,
                   "Delta^n(x)", "[0, 1]", cfg->version, cfg->command);
}
