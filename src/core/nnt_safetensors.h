/* nnt_safetensors.h — writes tensors in the safetensors format (huggingface/safetensors), the file
 * every network nnt builds leaves it in (docs/export.md).
 *
 * Layout: an 8-byte little-endian header length N, N bytes of JSON ({"__metadata__": {string:
 * string}, "name": {"dtype": "F64", "shape": [..], "data_offsets": [begin, end]}, ...}, padded with
 * spaces to a multiple of 8), then the raw little-endian data with no holes. Tensors are stored by
 * element size, largest first, in insertion order within a size, so every tensor starts at a multiple
 * of its element size (the format forbids padding between tensors). The header lists them in that order.
 */
#ifndef NNT_SAFETENSORS_H
#define NNT_SAFETENSORS_H

typedef enum { NNT_ST_F64, NNT_ST_F32, NNT_ST_I64, NNT_ST_I32, NNT_ST_U8 } nnt_st_dtype;
typedef struct nnt_st_writer nnt_st_writer;

int nnt_st_writer_alloc(nnt_st_writer **w);
/* Copies the data (host order; written little-endian). NNT_EINVAL for a name already added, an
 * empty name, a name "__metadata__", ndim outside 0..8 or a negative dimension. */
int nnt_st_add(nnt_st_writer *w, const char *name, nnt_st_dtype dt, int ndim, const long long *shape, const void *data);
/* A __metadata__ entry (string value); a key given twice keeps the last value. */
int nnt_st_meta(nnt_st_writer *w, const char *key, const char *value);
/* Writes the whole file atomically (nnt_afile): replaces a regular file or creates a new name;
 * NNT_EIO for a path that exists and is not a regular file, or a failed write. */
int nnt_st_write(nnt_st_writer *w, const char *path);
void nnt_st_writer_free(nnt_st_writer *w);

/* Size in bytes of one element, and the format's name ("F64", ...). */
int nnt_st_dtype_size(nnt_st_dtype dt);
const char *nnt_st_dtype_name(nnt_st_dtype dt);

#endif
