/* nnt export INPUT --to FILE — converts a network file nnt wrote (nnt-mlp, nnt-mlp-sparse, an icl
 * model.ckpt) to .safetensors or .onnx, by FILE's extension (docs/export.md). The input is read and
 * read and checked in validate (a bad, corrupt or truncated file: one line, exit 2, nothing
 * written); the writers are the export functions of core (nnt_smlp_export) and icl
 * (nnt_icl_gpt_export). */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "nnt_icl_gpt.h"
#include "nnt_io.h"
#include "nnt_mlp.h"

typedef struct {
  const char *to;
  int sparse;       /* nnt-mlp-sparse input: CSR tensors out */
  nnt_smlp net;     /* an nnt-mlp or nnt-mlp-sparse input */
  nnt_icl_gpt *gpt; /* a model.ckpt input */
} export_cfg;

static const cli_opt export_opts[] = {
    CLI_STR("to", export_cfg, to, "the file written: FILE.safetensors or FILE.onnx (required; written atomically)"), {0}};

static void export_default(void *cfg, nnt_preset p) {
  export_cfg *c = cfg;
  (void)p, memset(c, 0, sizeof *c);
  nnt_smlp_init(&c->net);
}

/* 1 for an nnt checkpoint (its magic), 0 otherwise (a network's JSON, checked by its loader) */
static int is_ckpt(const char *path) {
  FILE *f = fopen(path, "rb");
  char magic[8] = {0};
  int n = f ? (int)fread(magic, 1, 8, f) : 0;
  if (f) fclose(f);
  return n == 8 && !memcmp(magic, "NNTCKPT", 8);
}

/* Everything checked and the input read here, before any file is written. */
static int export_validate(void *cfg, const cli_run *r) {
  export_cfg *c = cfg;
  if (!c->to) return nnt_fail(NNT_EINVAL, "--to FILE is required (FILE.safetensors or FILE.onnx)");
  if (!nnt_export_format(c->to))
    return nnt_fail(NNT_EINVAL, "--to %s: unknown format (the file name must end in .safetensors or .onnx)", c->to);
  if (!strcmp(c->to, r->pos[0])) return nnt_fail(NNT_EINVAL, "--to %s: the same file as the input", c->to);
  if (is_ckpt(r->pos[0])) return nnt_icl_gpt_load(r->pos[0], &c->gpt);
  return nnt_smlp_load_fmt(r->pos[0], &c->net, &c->sparse);
}

static void export_cfg_free(void *cfg) {
  export_cfg *c = cfg;
  if (c->gpt) nnt_icl_gpt_free(c->gpt), c->gpt = NULL;
  nnt_smlp_free(&c->net);
}

static int export_run(void *cfg, const cli_run *r, void *res) { return (void)cfg, (void)r, (void)res, NNT_OK; }

/* The writers: core's and icl's export functions. */
static int export_report(const void *cfg, const void *res, const cli_run *r) {
  const export_cfg *c = cfg;
  (void)res;
  char command[1024];
  cli_command_line(command, sizeof command, "nnt", r->argc, r->argv);
  int st;
  if (c->gpt) {
    st = nnt_icl_gpt_export(c->gpt, nnt_version(), command, c->to);
  } else {
    const char *meta[] = {"source", c->sparse ? "nnt-mlp-sparse" : "nnt-mlp", "file", r->pos[0],
                          "nnt_version", nnt_version(), "command", command, NULL};
    st = nnt_smlp_export(&c->net, c->sparse, NULL, meta, c->to);
  }
  if (st) return st;
  printf("wrote %s (%s, %s)\n", c->to, nnt_export_format(c->to) == 2 ? "ONNX" : "safetensors",
         c->gpt ? "icl-gpt" : c->sparse ? "mlp-sparse" : "mlp");
  return NNT_OK;
}

static const cli_cmd export_cmd = {
    .name = "export", .args = "INPUT",
    .about = "Converts a network file nnt wrote (nnt-mlp, nnt-mlp-sparse, an icl model.ckpt) to .safetensors or\n"
             ".onnx, by the extension of --to (docs/export.md); python/nnt loads the former into PyTorch.",
    .opts = export_opts, .cfg_size = sizeof(export_cfg), .res_size = sizeof(int),
    .cfg_default = export_default, .validate = export_validate, .run = export_run, .report = export_report,
    .cfg_free = export_cfg_free, .npos_min = 1, .npos_max = 1, .threads_default = 1,
    .example = "nnt export examples/nets/half.json --to half.onnx"};

int cmd_export(int argc, char **argv) { return cli_drive(&export_cmd, argc, argv); }
