/* The run's record in run.json, --config reruns from it, results.json at the end (record.h). */
#include "record.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnt_io.h"

/* The command of this process, as recorded for run.json; the --config file being applied. */
static struct {
  const char *command;
  cJSON *fields; /* argv, args, options, given */
  char *dir;     /* the command's --out folder */
  int created;   /* this process made it (cli_prepare_out) */
} rec;
static struct {
  const char *path;
  cJSON *doc;
  char **args;
} config;

/* JSON numbers are doubles: integers beyond 2^53 are recorded as strings (accepted back as such). */
#define EXACT_INT 9007199254740992.0

/* The shortest %g text that reads back as x. */
static void shortest(double x, char *buf, size_t n) {
  for (int p = 1; p <= 17; p++) {
    snprintf(buf, n, "%.*g", p, x);
    if (strtod(buf, NULL) == x) return;
  }
}

static cJSON *number_item(double x) {
  char buf[40];
  if (!isfinite(x)) return snprintf(buf, sizeof buf, "%g", x), cJSON_CreateString(buf);
  shortest(x, buf, sizeof buf);
  return cJSON_CreateRaw(buf); /* raw: cJSON's own printing may be 1 ulp off */
}

static cJSON *integer_item(long long v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%lld", v);
  return fabs((double)v) <= EXACT_INT ? cJSON_CreateRaw(buf) : cJSON_CreateString(buf);
}

/* An option's value in cfg as JSON. */
static cJSON *value_json(const cli_opt *o, const void *cfg) {
  const char *field = (const char *)cfg + o->off;
  int n = o->kind == CLI_K_INTS || o->kind == CLI_K_DOUBLES ? *(const int *)((const char *)cfg + o->count_off) : 0;
  cJSON *arr;
  switch (o->kind) {
    case CLI_K_INT: return integer_item(*(const int *)field);
    case CLI_K_LONG: return integer_item(*(const long *)field);
    case CLI_K_U64: {
      uint64_t v = *(const uint64_t *)field;
      if (v > (uint64_t)LLONG_MAX) {
        char buf[32];
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
        return cJSON_CreateString(buf);
      }
      return integer_item((long long)v);
    }
    case CLI_K_DOUBLE: return number_item(*(const double *)field);
    case CLI_K_FLAG: return cJSON_CreateBool(*(const int *)field);
    case CLI_K_CHOICE: return cJSON_CreateString(o->choices[*(const int *)field]);
    case CLI_K_STR: {
      const char *s = *(const char *const *)field;
      return s ? cJSON_CreateString(s) : cJSON_CreateNull();
    }
    case CLI_K_INTS:
      arr = cJSON_CreateArray();
      for (int i = 0; i < n; i++) cJSON_AddItemToArray(arr, integer_item(((const int *)field)[i]));
      return arr;
    case CLI_K_DOUBLES:
      arr = cJSON_CreateArray();
      for (int i = 0; i < n; i++) cJSON_AddItemToArray(arr, number_item(((const double *)field)[i]));
      return arr;
  }
  return cJSON_CreateNull();
}

/* A JSON number (parsed, or raw as value_json makes it) as exact text for its kind; NULL if it is none. */
static const char *number_text(const cli_opt *o, const cJSON *it, char *buf, size_t n) {
  double x;
  if (cJSON_IsRaw(it)) x = strtod(it->valuestring, NULL);
  else if (cJSON_IsNumber(it)) x = it->valuedouble;
  else return NULL;
  if (o->kind == CLI_K_DOUBLE || o->kind == CLI_K_DOUBLES) shortest(x, buf, n);
  else if (x != floor(x) || fabs(x) > EXACT_INT) return NULL;
  else snprintf(buf, n, "%.0f", x);
  return buf;
}

/* An item of "options" as the option's command-line text ("" for null or []); NULL with *want set
 * when its type does not fit the option. A string is taken as the text itself, for any kind but a flag. */
static const char *item_text(const cli_opt *o, const cJSON *it, char *buf, size_t n, const char **want) {
  if (cJSON_IsString(it) && o->kind != CLI_K_FLAG) return it->valuestring;
  buf[0] = 0;
  switch (o->kind) {
    case CLI_K_FLAG:
      *want = "true or false";
      return cJSON_IsBool(it) ? (cJSON_IsTrue(it) ? "1" : "0") : NULL;
    case CLI_K_CHOICE: *want = "a string"; return NULL;
    case CLI_K_STR: *want = "a string or null"; return cJSON_IsNull(it) ? "" : NULL;
    case CLI_K_INTS:
    case CLI_K_DOUBLES: {
      *want = "a list of numbers";
      if (!cJSON_IsArray(it)) return NULL;
      size_t len = 0;
      for (const cJSON *e = it->child; e; e = e->next) {
        char one[40];
        if (!number_text(o, e, one, sizeof one) || len + strlen(one) + 2 > n) return NULL;
        len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? "," : "", one);
      }
      return buf;
    }
    default:
      *want = o->kind == CLI_K_DOUBLE ? "a number" : "an integer";
      return number_text(o, it, buf, n);
  }
}

/* The error just recorded, behind a prefix (nnt_fail formats into the buffer nnt_errmsg reads). */
static int prefixed(int code, const char *prefix) {
  char msg[1024];
  snprintf(msg, sizeof msg, "%s", nnt_errmsg());
  return nnt_fail(code, "%s: %s", prefix, msg);
}

static int in_list(const cJSON *list, const char *name) {
  for (const cJSON *e = list ? list->child : NULL; e; e = e->next)
    if (cJSON_IsString(e) && !strcmp(e->valuestring, name)) return 1;
  return 0;
}

int cli_config_begin(const cli_cmd *cmd, int argc, char **argv, int *quick) {
  if (!(cmd->common & CLI_OUT)) return NNT_OK;
  for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
    if (!strncmp(argv[i], "--config=", 9)) config.path = argv[i] + 9;
    else if (!strcmp(argv[i], "--config") && i + 1 < argc) config.path = argv[++i];
  }
  if (!config.path) return NNT_OK;
  const char *f = config.path;
  if (!*f) return nnt_fail(NNT_EINVAL, "--config: empty file name");
  int st = nnt_json_read(f, &config.doc);
  if (st) return prefixed(st, "--config");
  const cJSON *c = cJSON_GetObjectItemCaseSensitive(config.doc, "command");
  const cJSON *opts = cJSON_GetObjectItemCaseSensitive(config.doc, "options");
  if (!cJSON_IsString(c)) return nnt_fail(NNT_EINVAL, "%s: no \"command\" (not a run.json of nnt)", f);
  if (strcmp(c->valuestring, cmd->name))
    return nnt_fail(NNT_EINVAL, "%s records a run of nnt %s, not of nnt %s", f, c->valuestring, cmd->name);
  if (!cJSON_IsObject(opts))
    return nnt_fail(NNT_EINVAL, "%s: no \"options\" object (a run.json of an nnt older than --config)", f);
  const cJSON *q = cJSON_GetObjectItemCaseSensitive(opts, "quick");
  if (q && !cJSON_IsBool(q)) return nnt_fail(NNT_EINVAL, "%s: option \"quick\": expected true or false", f);
  if (cJSON_IsTrue(q)) *quick = 1;
  return NNT_OK;
}

int cli_config_seen(const char *path) {
  if (config.path && !strcmp(path, config.path)) return NNT_OK;
  return nnt_fail(NNT_EINVAL, "--config: give it once, written out in full (--config FILE)");
}

int cli_config_apply(const cli_cmd *cmd, void *cfg, cli_args *a) {
  if (!config.doc) return NNT_OK;
  const char *f = config.path;
  const cJSON *opts = cJSON_GetObjectItemCaseSensitive(config.doc, "options");
  const cJSON *given = cJSON_GetObjectItemCaseSensitive(config.doc, "given");
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(config.doc, "args");
  if (given && !cJSON_IsArray(given)) return nnt_fail(NNT_EINVAL, "%s: \"given\" is not a list of option names", f);
  if (args && !cJSON_IsArray(args)) return nnt_fail(NNT_EINVAL, "%s: \"args\" is not a list of strings", f);
  int n = 0;
  while (cmd->opts && cmd->opts[n].name) n++;
  for (const cJSON *e = given ? given->child : NULL; e; e = e->next) {
    int found = 0;
    for (int i = 0; i < n && cJSON_IsString(e); i++) found |= !strcmp(cmd->opts[i].name, e->valuestring);
    if (!found)
      return nnt_fail(NNT_EINVAL, "%s: \"given\": %s is no option of nnt %s", f, cJSON_IsString(e) ? e->valuestring : "an item",
                      cmd->name);
  }
  int nargs = cJSON_GetArraySize(args);
  config.args = nnt_xcalloc((size_t)nargs + 1, sizeof *config.args);
  for (int i = 0; i < nargs; i++) {
    const cJSON *e = cJSON_GetArrayItem(args, i);
    if (!cJSON_IsString(e)) return nnt_fail(NNT_EINVAL, "%s: \"args\" is not a list of strings", f);
    config.args[i] = e->valuestring;
  }
  /* the preset's defaults, to tell a value that was merely defaulted */
  void *def = nnt_xmalloc(cmd->cfg_size + 1);
  if (cfg) memcpy(def, cfg, cmd->cfg_size);
  int st = NNT_OK;
  for (const cJSON *it = opts->child; it && !st; it = it->next) {
    const char *key = it->string, *want = NULL;
    char text[8192], dtext[8192];
    if (!strcmp(key, "quick")) continue; /* cli_config_begin */
    if (!strcmp(key, "seed")) {
      const cli_opt seed = {"seed", CLI_K_U64, 0, 0, 0, 0, "", NULL, 0};
      const char *s = item_text(&seed, it, text, sizeof text, &want);
      long v;
      if (!s) st = nnt_fail(NNT_EINVAL, "%s: option \"seed\": expected an integer", f);
      else if (cli_parse_long("--seed", s, 0, LONG_MAX, &v)) st = prefixed(NNT_EINVAL, f);
      else a->co.seed = (unsigned long long)v;
      continue;
    }
    int i = 0;
    while (i < n && strcmp(cmd->opts[i].name, key)) i++;
    if (i == n || !cfg) {
      st = nnt_fail(NNT_EINVAL, "%s: \"%s\" is no option of nnt %s", f, key, cmd->name);
      break;
    }
    const cli_opt *o = &cmd->opts[i];
    const char *s = item_text(o, it, text, sizeof text, &want);
    if (!s) {
      st = nnt_fail(NNT_EINVAL, "%s: option \"%s\": expected %s", f, key, want);
      break;
    }
    cJSON *dj = value_json(o, def);
    const char *d = item_text(o, dj, dtext, sizeof dtext, &want);
    int same = d && !strcmp(s, d);
    cJSON_Delete(dj);
    if (same && !in_list(given, key)) continue; /* a default: the command sees it as not given */
    char *field = (char *)cfg + o->off;
    if (o->kind == CLI_K_FLAG) *(int *)field = s[0] == '1';
    else if (!*s && o->kind == CLI_K_STR) *(const char **)field = NULL;
    else if (!*s && (o->kind == CLI_K_INTS || o->kind == CLI_K_DOUBLES)) *(int *)((char *)cfg + o->count_off) = 0;
    else if (cli_opt_set(o, s, cfg)) st = prefixed(NNT_EINVAL, f);
    a->given[i] = 1;
  }
  free(def);
  return st;
}

void cli_config_args(cli_args *a) {
  if (config.args && config.args[0] && a->npos == 0) {
    a->pos = config.args;
    while (a->pos[a->npos]) a->npos++;
  }
}

static void runinfo_add(const char *dir, cJSON *run) {
  if (!rec.dir || strcmp(dir, rec.dir)) return; /* a tour section's own folder, say */
  cJSON_ReplaceItemInObject(run, "command", cJSON_CreateString(rec.command));
  for (const cJSON *it = rec.fields->child; it; it = it->next)
    cJSON_AddItemToObject(run, it->string, cJSON_Duplicate(it, 1));
}

void cli_record(const cli_cmd *cmd, int argc, char **argv, const void *cfg, const cli_args *a) {
  if (rec.command) return;
  rec.command = cmd->name;
  rec.fields = cJSON_CreateObject();
  cJSON *av = cJSON_AddArrayToObject(rec.fields, "argv"), *args = cJSON_AddArrayToObject(rec.fields, "args");
  cJSON_AddItemToArray(av, cJSON_CreateString("nnt"));
  char words[256];
  snprintf(words, sizeof words, "%s", cmd->name);
  for (char *save = NULL, *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
    cJSON_AddItemToArray(av, cJSON_CreateString(w)); /* "qstr construct": argv[0] is "construct" */
  for (int i = 1; i < argc; i++) cJSON_AddItemToArray(av, cJSON_CreateString(argv[i]));
  for (int i = 0; i < a->npos; i++) cJSON_AddItemToArray(args, cJSON_CreateString(a->pos[i]));
  cJSON *opts = cJSON_AddObjectToObject(rec.fields, "options"), *given = cJSON_AddArrayToObject(rec.fields, "given");
  for (int i = 0; cfg && cmd->opts && cmd->opts[i].name; i++) {
    cJSON_AddItemToObject(opts, cmd->opts[i].name, value_json(&cmd->opts[i], cfg));
    if (a->given[i]) cJSON_AddItemToArray(given, cJSON_CreateString(cmd->opts[i].name));
  }
  cJSON_AddItemToObject(opts, "seed", integer_item((long long)a->co.seed));
  cJSON_AddBoolToObject(opts, "quick", a->co.quick);
  nnt_runinfo_hook(runinfo_add);
}

cJSON *cli_record_config(const cli_cmd *cmd, const void *cfg, int quick) {
  cJSON *j = cJSON_CreateObject();
  for (int i = 0; cmd->opts && cmd->opts[i].name; i++) cJSON_AddItemToObject(j, cmd->opts[i].name, value_json(&cmd->opts[i], cfg));
  cJSON_AddBoolToObject(j, "quick", quick);
  return j;
}

void cli_record_reset(void) {
  cJSON_Delete(rec.fields), cJSON_Delete(config.doc), free(rec.dir), free(config.args);
  memset(&rec, 0, sizeof rec), memset(&config, 0, sizeof config);
  nnt_runinfo_hook(NULL), nnt_results_forget();
}

void cli_record_dir(const char *out, int created) {
  if (!rec.dir && out) rec.dir = nnt_xstrdup(out), rec.created = created;
}

int cli_record_finish(int status) {
  /* refused input (exit 2) found by the run's own checks: the folder it made goes again when
   * nothing was written into it (rmdir removes only an empty folder) */
  if (nnt_exit_code(status) == 2 && rec.dir && rec.created) rmdir(rec.dir);
  if (status != NNT_OK && status != NNT_ECHECK) return status;
  int st = nnt_results_write(rec.command ? rec.command : "nnt", NNT_RESULTS_MAX_CSV);
  return status ? status : st;
}
