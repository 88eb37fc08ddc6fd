/* nnt_ckpt.h — checkpoints: a parameter registry, its optimizer state, the training step and
 * user metadata in one binary file, written atomically and verified on load.
 *
 * Byte layout (version 1; integers little-endian, floats IEEE 754 little-endian; "str" is a u32
 * byte count followed by that many bytes, no terminating NUL). Documented in docs/core.md.
 *
 *   magic      8 bytes  "NNTCKPT\0"
 *   version    u32      1
 *   file_size  u64      total bytes of the file, checksum included
 *   kind       str      model kind, e.g. "qstr-transformer" (load requires the same string)
 *   step       i64      training step
 *   meta       str      user metadata, a JSON text ("" when none)
 *   ntensors   u32
 *   ntensors times:  name str, dtype u32 (0 float32, 1 float64), ndim u32 (1..4),
 *                    shape u32[ndim], data (numel * 4 or 8 bytes, row-major)
 *   has_optim  u32      0 or 1; when 1:
 *     kind u32 (0 sgd, 1 adam, 2 adamw), lr f64, weight_decay f64, momentum f64, dampening f64,
 *     beta1 f64, beta2 f64, eps f64, nesterov u32, step i64, has_m u32, has_v u32,
 *     then for every tensor in order: m data if has_m, v data if has_v (the tensor's dtype/shape)
 *   checksum   u64      FNV-1a 64 of every byte before it
 *
 * Loading checks, in order: magic, version, size (truncated / trailing bytes), checksum, metadata
 * (a JSON text, as saving requires), kind,
 * tensor count, then each tensor's name, dtype and shape against the registry, then the optimizer.
 * Any mismatch is NNT_EFORMAT with one line "path: what is wrong", and nothing is modified: the
 * registry and optimizer are written only after the whole file has been verified.
 */
#ifndef NNT_CKPT_H
#define NNT_CKPT_H
#include "nnt_optim.h"
#include "nnt_params.h"

#define NNT_CKPT_VERSION 1

/* Writes P (values only, not grads), opt's state when opt is non-NULL, step and meta_json
 * (NULL: none; otherwise it must parse as JSON: NNT_EINVAL) to path via a temporary file. */
int nnt_ckpt_save(const char *path, const char *kind, const nnt_params *P, const nnt_optim *opt, long long step,
                  const char *meta_json);

/* Restores P's values from a checkpoint of the same kind and layout. When opt is non-NULL (it
 * must step P), the file must hold optimizer state of the same optimizer kind: its
 * hyper-parameters (lr, betas, ...), step count and m/v buffers are all restored, so training
 * continues exactly as if it had not stopped. A file's optimizer state is ignored when opt is
 * NULL. step (may be NULL) receives the training step; meta_json (may be NULL) a malloc'd copy of
 * the metadata text, which the caller frees. */
int nnt_ckpt_load(const char *path, const char *kind, nnt_params *P, nnt_optim *opt, long long *step,
                  char **meta_json);

/* The header of a verified checkpoint, without a registry (to rebuild the model first). */
typedef struct {
  char *kind;
  long long step;
  char *meta_json;
  int ntensors;
  size_t nscalars; /* total scalars over all tensors */
  int has_optim;
  nnt_optim_kind optim_kind;
} nnt_ckpt_info;

int nnt_ckpt_info_read(const char *path, nnt_ckpt_info *info);
void nnt_ckpt_info_free(nnt_ckpt_info *info);

/* FNV-1a 64 of n bytes, continuing from h (start with NNT_FNV64_INIT). */
#define NNT_FNV64_INIT 0xcbf29ce484222325ull
unsigned long long nnt_fnv1a64(unsigned long long h, const void *data, size_t n);

#endif
