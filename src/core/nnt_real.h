/* nnt_real.h — the one mechanism for code written once for float32 and float64.
 *
 * A template is an .inc file written with `real` for the element type, NNT_T(name) for the names
 * an instance defines (name_f32 / name_f64) and the helpers below. An instance defines
 * NNT_REAL_BITS as 32 or 64, includes this header, then the template; a file may hold both
 * instances (include this header again after redefining NNT_REAL_BITS). Included with
 * NNT_REAL_BITS undefined it removes every macro it defines (nnt_nn.h does, so that includers
 * never see `real`). No include guard on purpose. An instance may redefine a helper after
 * including this header (qstr's float32 models route NNT_GEMM through their BLAS threshold).
 */
#undef real
#undef NNT_T
#undef NNT_FN
#undef NNT_GEMM
#undef NNT_GEMM_LOOPS
#undef NNT_GEMM_PACK
#undef NNT_GEMM_PACK_SIZE
#undef NNT_GEMM_PACKED
#undef NNT_EXP
#undef NNT_LOG_MIN
#undef NNT_SQRT

#ifdef NNT_REAL_BITS
#if NNT_REAL_BITS == 32
#define real float
#define NNT_T(name) name##_f32
#define NNT_FN(name) name /* the core layers' names: float32 plain, float64 with _f64 */
#define NNT_GEMM nnt_sgemm
#define NNT_GEMM_LOOPS nnt_sgemm_loops
#define NNT_GEMM_PACK nnt_sgemm_pack
#define NNT_GEMM_PACK_SIZE nnt_sgemm_pack_size
#define NNT_GEMM_PACKED nnt_sgemm_packed
#define NNT_EXP expf
#define NNT_SQRT sqrtf
#define NNT_LOG_MIN (-87.33f) /* ln FLT_MIN */
#elif NNT_REAL_BITS == 64
#define real double
#define NNT_T(name) name##_f64
#define NNT_FN(name) name##_f64
#define NNT_GEMM nnt_dgemm
#define NNT_GEMM_LOOPS nnt_dgemm_loops
#define NNT_GEMM_PACK nnt_dgemm_pack
#define NNT_GEMM_PACK_SIZE nnt_dgemm_pack_size
#define NNT_GEMM_PACKED nnt_dgemm_packed
#define NNT_EXP exp
#define NNT_SQRT sqrt
#define NNT_LOG_MIN (-708.3) /* ln DBL_MIN */
#else
#error "NNT_REAL_BITS must be 32 or 64"
#endif
#endif
