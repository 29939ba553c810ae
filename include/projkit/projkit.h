/* projkit C ABI: create / run / destroy a projection from any language.
 *
 * Every call returns a pkStatus; on failure pk_last_error() gives a message that
 * names the violated constraint (thread-local, valid until the next call on the
 * same thread). Pointers are device pointers, 16-byte aligned.
 */
#ifndef PROJKIT_H_
#define PROJKIT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pkStatus {
  PK_OK = 0,
  PK_INVALID_ARGUMENT = 1,
  PK_UNSUPPORTED = 2,
  PK_PLAN_MISMATCH = 3,
  PK_PARSE_ERROR = 4,
  PK_CUDA_ERROR = 5,
  PK_INTERNAL = 6
} pkStatus;

typedef struct pkProjection pkProjection;

/* Human-readable name of a status code ("ok", "invalid_argument", ...). */
const char* pk_status_string(pkStatus s);
/* Message of the last failed call on this thread ("" if none). */
const char* pk_last_error(void);
const char* pk_version(void);

/* dtype codes of pkFamilyInfo */
#define PK_DTYPE_BF16 0
#define PK_DTYPE_F32 1

/* What a built-in family's tensors must be, known before any projection exists (a
 * binding checks W, x and y against it: the library sees only their pointers).
 * W is row-major [n, k] of weight_dtype; x is [m, k] bf16; y is [m, out_cols(m)] of
 * out_dtype, where out_cols(m) = slice_rows when m <= slice_max_m, else n
 * (slice_max_m = 0: no slice; the unpooler: 8 and 1024). No device is needed. */
typedef struct pkFamilyInfo {
  int64_t n, k;
  int32_t weight_dtype, out_dtype; /* PK_DTYPE_* */
  int32_t slice_max_m;
  int64_t slice_rows;
} pkFamilyInfo;
pkStatus pk_family_info(const char* family, pkFamilyInfo* out);

/* The built-in families, so that a binding need not list them: pk_family_count() is how many
 * there are, pk_family_name(i) the i-th name (a static string; "qkv", "o", "pooler", "unpooler",
 * "router" in that order), or NULL with pk_last_error() set when i is outside
 * [0, pk_family_count()). No device is needed. */
int pk_family_count(void);
const char* pk_family_name(int index);

/* The plan file a projection on a device named device_name (as the CUDA runtime names it, e.g.
 * "NVIDIA H200") loads for plan_path NULL (set NULL or "") or "serving" (set "serving"), found
 * where projections look: $PROJKIT_PLAN_DIR; next to the executable; next to this library
 * (<lib dir>/plans, <lib dir>/../plans, <lib dir>/../share/projkit/plans); the source tree it was
 * built from. Its path is copied into buf (NUL-terminated). PK_PLAN_MISMATCH when there is none (a
 * projection then runs the built-in safe plan, or for "serving" the default plan), with
 * pk_last_error() naming the file looked for; PK_INVALID_ARGUMENT for a null name, an unknown set
 * or a buffer too small. No device is needed. */
pkStatus pk_plan_file(const char* device_name, const char* set, char* buf, size_t buf_len);

/* Create a projection for a built-in family ("qkv", "o", "pooler", "unpooler",
 * "router") over device weights W row-major [N, K] (bf16, router fp32).
 * plan_path: NULL = the plan for the current device (plans/<device>.json or the
 * built-in safe plan); "safe" = baseline everywhere; "serving" = the device's
 * serving plan (plans/serving/<device>.json, tuned with a clean L2; without one,
 * the default plan, or PK_PLAN_MISMATCH with PK_STRICT_PLAN); otherwise a plan file.
 * method: NULL = follow the plan; otherwise one method config for every m.
 * max_m: largest m run() will accept (1..4096). flags: PK_STRICT_PLAN (plan
 * problems fail instead of falling back to the baseline; 1, as the former
 * `strict` argument), PK_NO_WEIGHT_COPIES (methods that keep a re-laid-out copy
 * of W run as their copy-free twins; see ProjectionOptions::weight_copies). */
#define PK_STRICT_PLAN 1
#define PK_NO_WEIGHT_COPIES 2
pkStatus pk_projection_create(pkProjection** out, const char* family, const void* d_weights,
                              const char* plan_path, const char* method, int max_m, int flags);

/* y[m, out_cols(m)] = x[m, K] * W^T on stream (a cudaStream_t, may be NULL). y must not overlap
 * x or the weights given at creation (PK_INVALID_ARGUMENT otherwise). */
pkStatus pk_projection_run(const pkProjection* p, const void* d_x, int m, void* d_y, void* stream);

/* Output columns for this m (the unpooler returns 1024 for m <= 8) and N, K. */
pkStatus pk_projection_shape(const pkProjection* p, int m, int64_t* out_cols, int64_t* n, int64_t* k);

/* Method config name that serves m, copied into buf (NUL-terminated). */
pkStatus pk_projection_method(const pkProjection* p, int m, char* buf, size_t buf_len);

/* What creation fell back on, one message each (no plan file for the device, so the built-in safe
 * plan; a plan range whose method is unknown or inapplicable, so the baseline there; ...): a
 * projection that reports none runs its plan as written. pk_projection_warning_count(p) is how many
 * there are (0 for a null p); pk_projection_warning(p, i) the i-th, valid as long as p, or NULL
 * with pk_last_error() set when p is null or i is outside [0, count). */
int pk_projection_warning_count(const pkProjection* p);
const char* pk_projection_warning(const pkProjection* p, int index);

pkStatus pk_projection_destroy(pkProjection* p);

#ifdef __cplusplus
}
#endif

#endif /* PROJKIT_H_ */
