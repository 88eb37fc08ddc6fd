/* nnt_onnx.h — writes networks as ONNX models (onnx.ai), the second export format besides
 * safetensors (docs/export.md). The protobuf encoding is Debian's protobuf-c with the ONNX schema
 * (libonnx-dev's onnx.proto, compiled by protoc-c at build time): nnt writes no wire format itself.
 *
 * A graph is built node by node: inputs and outputs with their shapes, initializers (the weights,
 * stored as little-endian raw_data), and operators from the default domain at opset
 * NNT_ONNX_OPSET, each with one output; then one atomic write. Names are the caller's: an
 * initializer or node output named twice is the caller's bug (onnx.checker and every runtime
 * refuse the model). */
#ifndef NNT_ONNX_H
#define NNT_ONNX_H

#define NNT_ONNX_OPSET 17 /* LayerNormalization is opset 17; ScatterND's reduction 16 */
#define NNT_ONNX_IR 8     /* the IR version of opset 17 (ONNX 1.12) */

typedef enum { NNT_ONNX_F32 = 1, NNT_ONNX_I32 = 6, NNT_ONNX_I64 = 7, NNT_ONNX_F64 = 11 } nnt_onnx_dtype;
typedef struct nnt_onnx nnt_onnx;

void nnt_onnx_alloc(nnt_onnx **g, const char *graph_name);
void nnt_onnx_free(nnt_onnx *g);

/* A graph input or output; dims is a comma-separated list of sizes or symbolic names
 * ("batch,16", "batch,n,3"); "" for a scalar. */
void nnt_onnx_input(nnt_onnx *g, const char *name, nnt_onnx_dtype dt, const char *dims);
void nnt_onnx_output(nnt_onnx *g, const char *name, nnt_onnx_dtype dt, const char *dims);

/* An initializer (the data copied, host order, written little-endian); returns name. */
const char *nnt_onnx_init(nnt_onnx *g, const char *name, nnt_onnx_dtype dt, int ndim, const long long *shape,
                          const void *data);
/* A 1-D int64 initializer with a generated name. */
const char *nnt_onnx_ints(nnt_onnx *g, int n, const long long *v);
/* A scalar (0-D) initializer of type dt holding v, generated name. */
const char *nnt_onnx_scalar(nnt_onnx *g, nnt_onnx_dtype dt, double v);

/* Adds node op_type with the NULL-terminated inputs ("" for an omitted optional input) and one
 * output, named out, or "<op>_<k>" when out is NULL; returns the output's name (owned by g). */
const char *nnt_onnx_op(nnt_onnx *g, const char *op_type, const char *out, ...);
/* Attributes of the last node added. */
void nnt_onnx_attr_int(nnt_onnx *g, const char *name, long long v);
void nnt_onnx_attr_float(nnt_onnx *g, const char *name, float v);
void nnt_onnx_attr_str(nnt_onnx *g, const char *name, const char *v);
void nnt_onnx_attr_ints(nnt_onnx *g, const char *name, int n, const long long *v);

/* A metadata_props entry (the model's key/value strings); a key given twice keeps both. */
void nnt_onnx_meta(nnt_onnx *g, const char *key, const char *value);

/* Serializes the model (producer "nnt" version) and writes it atomically (nnt_afile): a failed
 * write leaves no file and replaces none; NNT_EIO for a path that is not a regular file. */
int nnt_onnx_write(nnt_onnx *g, const char *version, const char *path);

#endif
