/* Declarative options: one table per subcommand drives parsing, range checks, --help and defaults. */
#include <assert.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "record.h"

enum { OPT_BASE = 0x200, OPT_SEED = 0x101, OPT_THREADS, OPT_OUT, OPT_QUICK, OPT_RESUME, OPT_FORCE, OPT_CONFIG, OPT_CHECK };

static int listing; /* cli_list_mode */
void cli_list_mode(int on) { listing = on; }

static void common_init(cli_common *co) {
  co->seed = 1;
  co->threads = 0;
  co->out = NULL;
  co->quick = 0;
  co->help = 0;
  co->resume = 0;
  co->force = 0;
  co->check = 0;
}

static void getopt_reset(void) {
  optind = 0; /* glibc: 0 also resets getopt's internal state */
  opterr = 0;
}

/* A common option, or getopt's ':' (missing value) and '?' (unknown short option). */
static int common_option(int c, char **argv, cli_common *co) {
  long v;
  switch (c) {
    case OPT_SEED:
      if (cli_parse_long("--seed", optarg, 0, LONG_MAX, &v)) return NNT_EINVAL;
      co->seed = (unsigned long long)v;
      return NNT_OK;
    case OPT_THREADS: return cli_parse_int("--threads", optarg, 1, 1024, &co->threads);
    case OPT_OUT:
      if (!*optarg) return nnt_fail(NNT_EINVAL, "--out: empty folder name");
      co->out = optarg;
      return NNT_OK;
    case OPT_QUICK: co->quick = 1; return NNT_OK;
    case OPT_CHECK: co->check = 1; return NNT_OK;
    case 'h': co->help = 1; return NNT_OK;
    case ':': return nnt_fail(NNT_EINVAL, "option %s needs a value", argv[optind - 1]);
    case '?':
      if (optopt) return nnt_fail(NNT_EINVAL, "unknown option -%c", optopt);
      return nnt_fail(NNT_EINVAL, "unknown option %s", argv[optind - 1]);
    default: return -1;
  }
}

int cli_nopts(const cli_cmd *cmd) {
  int n = 0;
  while (cmd->opts && cmd->opts[n].name) n++;
  assert(n <= CLI_MAXOPT);
  return n;
}

/* A table entry whose field size does not fit its kind is a programming error. */
static void check_field(const cli_opt *o) {
  size_t want = 0;
  switch (o->kind) {
    case CLI_K_INT: case CLI_K_FLAG: case CLI_K_CHOICE: want = sizeof(int); break;
    case CLI_K_LONG: want = sizeof(long); break;
    case CLI_K_U64: want = sizeof(uint64_t); break;
    case CLI_K_DOUBLE: want = sizeof(double); break;
    case CLI_K_STR: want = sizeof(const char *); break;
    case CLI_K_INTS: want = o->size - o->size % sizeof(int); break;
    case CLI_K_DOUBLES: want = o->size - o->size % sizeof(double); break;
  }
  if (want != o->size || !want) {
    fprintf(stderr, "nnt: option --%s: field of size %zu does not fit its kind\n", o->name, o->size);
    abort(); /* impossible once the option tables compile right: tests/cli runs every table */
  }
}

static int parse_value(const cli_opt *o, const char *arg, void *cfg) {
  char opt[80];
  snprintf(opt, sizeof opt, "--%s", o->name);
  char *field = (char *)cfg + o->off;
  long lo = o->lo <= (double)LONG_MIN ? LONG_MIN : (long)o->lo, hi = o->hi >= (double)LONG_MAX ? LONG_MAX : (long)o->hi;
  switch (o->kind) {
    case CLI_K_INT: {
      long v;
      if (cli_parse_long(opt, arg, lo, hi, &v)) return NNT_EINVAL;
      *(int *)field = (int)v;
      return NNT_OK;
    }
    case CLI_K_LONG: return cli_parse_long(opt, arg, lo, hi, (long *)field);
    case CLI_K_U64: {
      long v;
      if (cli_parse_long(opt, arg, lo, hi, &v)) return NNT_EINVAL;
      *(uint64_t *)field = (uint64_t)v;
      return NNT_OK;
    }
    case CLI_K_DOUBLE: return cli_parse_double(opt, arg, o->lo, o->hi, (double *)field);
    case CLI_K_FLAG: *(int *)field = 1; return NNT_OK;
    case CLI_K_CHOICE: return cli_parse_choice(opt, arg, o->choices, (int *)field);
    case CLI_K_STR:
      if (!*arg) return nnt_fail(NNT_EINVAL, "%s: empty value", opt);
      *(const char **)field = arg;
      return NNT_OK;
    case CLI_K_INTS: {
      int max = (int)(o->size / sizeof(int)), n = 0;
      long *v = nnt_xmalloc((size_t)max * sizeof *v);
      int st = cli_parse_int_list(opt, arg, lo, hi, v, max, &n);
      if (!st) {
        for (int i = 0; i < n; i++) ((int *)field)[i] = (int)v[i];
        *(int *)((char *)cfg + o->count_off) = n;
      }
      free(v);
      return st;
    }
    case CLI_K_DOUBLES: {
      int n = 0;
      if (cli_parse_double_list(opt, arg, o->lo, o->hi, (double *)field, (int)(o->size / sizeof(double)), &n))
        return NNT_EINVAL;
      *(int *)((char *)cfg + o->count_off) = n;
      return NNT_OK;
    }
  }
  return NNT_EINVAL;
}

void cli_cfg_defaults(const cli_cmd *cmd, void *cfg, int quick) {
  if (!cfg) return;
  if (cmd->cfg_default) cmd->cfg_default(cfg, quick ? NNT_PRESET_QUICK : NNT_PRESET_FULL);
}


int cli_parse(const cli_cmd *cmd, int argc, char **argv, void *cfg, cli_args *a) {
  int n = cli_nopts(cmd);
  memset(a, 0, sizeof *a);
  common_init(&a->co);
  if (listing) {
    printf("%s\n", cmd->name);
    /* a status, not a->co.help: the command returns at once, whatever it prints after --help */
    return nnt_fail(NNT_EINVAL, "listing");
  }
  a->co.threads = cmd->threads_default;
  struct option *lo = nnt_xcalloc((size_t)n + 10, sizeof *lo);
  int k = 0;
  for (int i = 0; i < n; i++) {
    check_field(&cmd->opts[i]);
    lo[k++] = (struct option){cmd->opts[i].name, cmd->opts[i].kind == CLI_K_FLAG ? no_argument : required_argument, 0, OPT_BASE + i};
  }
  lo[k++] = (struct option){"seed", required_argument, 0, OPT_SEED};
  lo[k++] = (struct option){"threads", required_argument, 0, OPT_THREADS};
  lo[k++] = (struct option){"quick", no_argument, 0, OPT_QUICK};
  lo[k++] = (struct option){"help", no_argument, 0, 'h'};
  lo[k++] = (struct option){"check-options", no_argument, 0, OPT_CHECK};
  if (cmd->common & CLI_OUT) {
    lo[k++] = (struct option){"out", required_argument, 0, OPT_OUT};
    lo[k++] = (struct option){"config", required_argument, 0, OPT_CONFIG};
  }
  if (cmd->common & CLI_SWEEP) {
    lo[k++] = (struct option){"resume", no_argument, 0, OPT_RESUME};
    lo[k++] = (struct option){"force", no_argument, 0, OPT_FORCE};
  }
  /* The preset decides the defaults, so it is known before any option is applied. */
  for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
    if (!strcmp(argv[i], "--quick")) a->co.quick = 1;
  int c, st = cli_config_begin(cmd, argc, argv, &a->co.quick);
  if (cfg) memset(cfg, 0, cmd->cfg_size);
  cli_cfg_defaults(cmd, cfg, a->co.quick);
  if (!st) st = cli_config_apply(cmd, cfg, a); /* the command line's options come after, and win */
  getopt_reset();
  while (!st && (c = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
    if (c >= OPT_BASE && c < OPT_BASE + n) {
      st = parse_value(&cmd->opts[c - OPT_BASE], optarg, cfg);
      a->given[c - OPT_BASE] = 1;
    } else if (c == OPT_RESUME) a->co.resume = 1;
    else if (c == OPT_FORCE) a->co.force = 1;
    else if (c == OPT_CONFIG) st = cli_config_seen(optarg);
    else if (c == '?' && !optopt && !(cmd->common & CLI_OUT) && !strncmp(argv[optind - 1], "--out", 5))
      st = nnt_fail(NNT_EINVAL, "unknown option %s: nnt %s writes no folder (nnt %s --help says what it writes)",
                    argv[optind - 1], cmd->name, cmd->name);
    else if (c == '?' && !optopt)
      st = nnt_fail(NNT_EINVAL, "unknown option %s (nnt %s --help lists the options)", argv[optind - 1], cmd->name);
    else {
      int r = common_option(c, argv, &a->co);
      st = r < 0 ? nnt_fail(NNT_EINVAL, "unknown option") : r;
    }
  }
  free(lo);
  if (st) return st;
  if (a->co.help) {
    cli_help(cmd, stdout);
    return NNT_OK;
  }
  if (a->co.resume && a->co.force) return nnt_fail(NNT_EINVAL, "--resume and --force exclude each other");
  /* --check-options writes and deletes nothing: a folder --force would clear is accepted as --resume
   * accepts it (nnt_sweep_prepare_dir), and left as it is */
  if (a->co.check && a->co.force) a->co.force = 0, a->co.resume = 1;
  const char *args = cmd->args ? cmd->args : "";
  a->npos = argc - optind;
  a->pos = argv + optind;
  cli_config_args(a);
  if (a->npos < cmd->npos_min)
    return nnt_fail(NNT_EINVAL, "missing argument (usage: nnt %s %s [options])", cmd->name, args);
  if (a->npos > cmd->npos_max)
    return nnt_fail(NNT_EINVAL, "unexpected argument '%s' (usage: nnt %s%s%s [options])", a->pos[cmd->npos_max], cmd->name,
                    *args ? " " : "", args);
  cli_record(cmd, argc, argv, cfg, a);
  return NNT_OK;
}

int cli_opt_set(const cli_opt *o, const char *arg, void *cfg) { return parse_value(o, arg, cfg); }

int cli_given(const cli_cmd *cmd, const cli_args *a, const char *name) {
  for (int i = 0; i < cli_nopts(cmd); i++)
    if (!strcmp(cmd->opts[i].name, name)) return a->given[i];
  fprintf(stderr, "nnt %s: no option --%s in its table\n", cmd->name, name);
  abort(); /* a command asking for an option it does not declare: a defect of nnt, never user input */
}

int cli_dispatch(const char *family, const cli_sub *subs, int n, int argc, char **argv) {
  if (listing) {
    for (int i = 0; i < n; i++) subs[i].run(1, (char *[]){(char *)subs[i].name, NULL});
    return NNT_OK;
  }
  if (argc >= 2)
    for (int i = 0; i < n; i++)
      if (!strcmp(argv[1], subs[i].name)) return subs[i].run(argc - 1, argv + 1);
  if (argc >= 2 && strcmp(argv[1], "--help") && strcmp(argv[1], "-h"))
    return nnt_fail(NNT_EINVAL, "unknown subcommand '%s' (see nnt %s --help)", argv[1], family);
  FILE *f = argc >= 2 ? stdout : stderr;
  fprintf(f, "usage: nnt %s <subcommand> [options]\n       nnt %s <subcommand> --help\n\nsubcommands:\n", family, family);
  int w = 11;
  for (int i = 0; i < n; i++) w = (int)strlen(subs[i].name) > w ? (int)strlen(subs[i].name) : w;
  for (int i = 0; i < n; i++) fprintf(f, "  %-*s %s\n", w, subs[i].name, subs[i].summary);
  return argc >= 2 ? NNT_OK : nnt_fail(NNT_EINVAL, "missing subcommand (see nnt %s --help)", family);
}
