/* nnt_file.h — files the compute modules write and read: folders, atomic writes, JSON files.
 *
 * Every file nnt writes goes through nnt_afile: written to "<path>.<pid>.tmp" and renamed into place on
 * commit, so an interrupted run never leaves a half-written result behind. Nothing a user points at
 * is destroyed (nnt_file_target): only a regular file or a new name is replaced that way; a symbolic
 * link is followed (its target is replaced, the link stays); a character device (/dev/null, a
 * terminal) or a FIFO is written in place, every write checked; anything else is refused.
 */
#ifndef NNT_FILE_H
#define NNT_FILE_H
#include <stdio.h>

/* rm -rf of a scratch folder nnt made itself (never a user's path); symbolic links inside are
 * removed, not followed. */
void nnt_remove_tree(const char *path);
/* mkdir -p; NNT_EIO with a message on failure. */
int nnt_mkdirs(const char *dir);
/* Joins dir and name into buf (returns buf). */
char *nnt_path(char *buf, size_t n, const char *dir, const char *name);
int nnt_file_exists(const char *path);
/* Opens a file for reading (binary mode); NNT_EIO "cannot read P: reason", or "P is a directory"
 * (fopen succeeds on a directory and the first read fails, which parsers would misreport). */
int nnt_file_open_read(const char *path, FILE **f);
/* Reads a whole file into a malloc'd, NUL-terminated buffer (*len excludes the NUL; len may be
 * NULL); NNT_EIO as nnt_file_open_read, or when the file exceeds max bytes. */
int nnt_file_read(const char *path, size_t max, char **buf, size_t *len);

/* Where a write to path goes: into real[n] the file to replace atomically (path itself, or the
 * regular file a symbolic link names) with *inplace = 0, or path with *inplace = 1 for a character
 * device or FIFO, written in place. NNT_EIO with one line for a directory, block device, socket or
 * dangling link. */
int nnt_file_target(const char *path, char *real, size_t n, int *inplace);

typedef struct {
  FILE *f;
  char path[1024]; /* the file written (a symbolic link's target) */
  char tmp[1040];  /* its temporary; "" when written in place or nowhere */
  int inplace;     /* a character device or FIFO: no temporary, no rename */
} nnt_afile;

int nnt_afile_open(nnt_afile *a, const char *path);
int nnt_afile_commit(nnt_afile *a); /* flush, close, rename; NNT_EIO on failure */
void nnt_afile_abort(nnt_afile *a); /* close and delete the temporary */
/* Deletes the temporaries of every nnt_afile still open (nnt_oom calls it before the process ends,
 * so that no "<path>.<pid>.tmp" is left behind). */
void nnt_afile_unlink_open(void);
/* Deletes and forgets the temporaries the calling thread is writing (an out-of-memory unwind: the
 * frames that held them are gone, and other threads' writes go on). */
void nnt_afile_drop_mine(void);

/* JSON files, for network files (nnt_mlp) as much as for results. Declared on cJSON's struct tag
 * so that cJSON stays a private dependency of the core: a caller includes <cjson/cJSON.h> itself. */
struct cJSON;
/* Writes JSON to a file atomically (pretty-printed). */
int nnt_json_write(const char *path, const struct cJSON *json);
/* Reads and parses a JSON file; NNT_EFORMAT with "file:line: ..." on a parse error, and with
 * "file: field F: ... is not a finite number" for a number that overflows a double (1e400). */
int nnt_json_read(const char *path, struct cJSON **out);
/* NNT_EFORMAT naming path and the field when json holds a non-finite number; NNT_OK otherwise. */
int nnt_json_check_finite(const char *path, const struct cJSON *json);

#endif
