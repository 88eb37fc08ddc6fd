/* libFuzzer target: --config FILE, the run.json reader every command with --out takes
 * (cli_config_begin / cli_config_apply through cli_parse), on a command declaring one option of
 * every kind. Every rejection carries a message; an accepted file, recorded again as run.json
 * records a run (cli_record), reads back to the same config. record.c is included so that its
 * per-process state (the record, the file being applied) can be reset between inputs. */
#include "../src/cli/record.c"

#include <math.h>

#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

typedef struct {
  int i, flag, choice, ints[6], nints, seen_q;
  long l;
  uint64_t u;
  double d, dbls[5];
  int ndbls;
  const char *s;
} fcfg;

static const char *const colours[] = {"red", "green", "blue", NULL};
static const cli_opt opts[] = {
    CLI_INT("int", fcfg, i, -5, 1000, "an int"),
    CLI_LONG("long", fcfg, l, 0, 1e12, "a long"),
    CLI_U64("u64", fcfg, u, 1, 1.8e19, "a u64"),
    CLI_DOUBLE("double", fcfg, d, -1, 1e6, "a double"),
    CLI_FLAG("flag", fcfg, flag, "a flag"),
    CLI_CHOICE("colour", fcfg, choice, colours, "a choice"),
    CLI_STR("name", fcfg, s, "a string"),
    CLI_INTS("ints", fcfg, ints, nints, 1, 1e6, "a list of ints"),
    CLI_DOUBLES("doubles", fcfg, dbls, ndbls, 0, 10, "a list of doubles"),
    {0}};

static void defaults(void *cfg, int quick) {
  fcfg *c = cfg;
  c->i = quick ? 3 : 7, c->l = 100, c->u = 42, c->d = 0.5, c->choice = 1, c->s = "default";
  c->ints[0] = 2, c->ints[1] = 4, c->nints = 2;
  c->dbls[0] = 0.25, c->ndbls = 1;
}

static const cli_cmd cmd = {"fuzz config", "[ARG...]", "fuzzing --config", opts, sizeof(fcfg), defaults, 0, 3, CLI_OUT | CLI_SWEEP, 0, NULL};

/* Forgets the file applied and the run recorded (each input is a fresh process's). */
static void reset(void) {
  cJSON_Delete(config.doc);
  free(config.args);
  memset(&config, 0, sizeof config);
  cJSON_Delete(rec.fields);
  free(rec.dir);
  memset(&rec, 0, sizeof rec);
}

static int parse(const char *path, fcfg *c, cli_args *a) {
  char *argv[] = {"config", "--config", (char *)path, NULL};
  return cli_parse(&cmd, 3, argv, c, a);
}

static int same(const fcfg *x, const cli_args *ax, const fcfg *y, const cli_args *ay) {
  if (x->i != y->i || x->l != y->l || x->u != y->u || memcmp(&x->d, &y->d, sizeof x->d) || x->flag != y->flag ||
      x->choice != y->choice || (!x->s != !y->s) || (x->s && strcmp(x->s, y->s)) || x->nints != y->nints ||
      x->ndbls != y->ndbls || memcmp(x->ints, y->ints, sizeof(int) * (size_t)x->nints) ||
      memcmp(x->dbls, y->dbls, sizeof(double) * (size_t)x->ndbls))
    return 0;
  if (ax->co.seed != ay->co.seed || ax->co.quick != ay->co.quick || ax->npos != ay->npos ||
      memcmp(ax->given, ay->given, sizeof ax->given))
    return 0;
  for (int k = 0; k < ax->npos; k++)
    if (strcmp(ax->pos[k], ay->pos[k])) return 0;
  return 1;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  const char *in = fuzz_file(0, "config", data, size), *out = fuzz_out_path(1, "config");
  fcfg c1, c2;
  cli_args a1, a2;
  reset();
  if (parse(in, &c1, &a1) != NNT_OK) {
    if (!*nnt_errmsg()) abort();
    reset();
    return 0;
  }
  /* run.json as nnt writes it: the command and the recorded fields */
  cJSON *run = cJSON_CreateObject();
  cJSON_AddStringToObject(run, "command", cmd.name);
  for (const cJSON *it = rec.fields->child; it; it = it->next) cJSON_AddItemToObject(run, it->string, cJSON_Duplicate(it, 1));
  if (nnt_json_write(out, run)) abort();
  cJSON_Delete(run);
  /* keep the first file's strings alive while the second is read */
  cJSON *doc1 = config.doc;
  char **args1 = config.args;
  config.doc = NULL, config.args = NULL;
  reset();
  if (parse(out, &c2, &a2) != NNT_OK) abort();
  if (!same(&c1, &a1, &c2, &a2)) abort();
  reset();
  cJSON_Delete(doc1);
  free(args1);
  return 0;
}
