/* nnt_safetensors.h — writing .safetensors files (the layout of huggingface/safetensors: an 8-byte
 * little-endian header length N, N bytes of JSON — per tensor {"dtype", "shape", "data_offsets"}
 * and an optional "__metadata__" object of strings — padded with spaces to a multiple of 8, then
 * the tensors' raw little-endian bytes, back to back in the order added).
 * Tensors and metadata are copied when added; nnt_st_write writes the file atomically (nnt_afile). */
#ifndef NNT_SAFETENSORS_H
#define NNT_SAFETENSORS_H

typedef enum { NNT_ST_F64, NNT_ST_F32, NNT_ST_I64, NNT_ST_I32, NNT_ST_U8 } nnt_st_dtype;
typedef struct nnt_st_writer nnt_st_writer;

int nnt_st_writer_alloc(nnt_st_writer **w);
/* NNT_EINVAL for a repeated or empty name, "__metadata__", ndim outside 0..8 or a negative size. */
int nnt_st_add(nnt_st_writer *w, const char *name, nnt_st_dtype dt, int ndim, const long long *shape, const void *data);
int nnt_st_meta(nnt_st_writer *w, const char *key, const char *value); /* a __metadata__ string entry */
int nnt_st_write(nnt_st_writer *w, const char *path);
void nnt_st_writer_free(nnt_st_writer *w);

#endif
