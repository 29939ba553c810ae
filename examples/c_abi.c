/* The C ABI end to end (include/projkit/projkit.h), in C99: the built-in families and the plan file
 * this device loads (neither needs a GPU), then a qkv projection over random bf16 weights, one call
 * at m = 8 on a stream, checked against a host fp64 reference (relative L2 over the whole output
 * <= 1e-2, the contract's dense bound), and what creation fell back on, if anything.
 *
 * Build: CMake target projkit_example_c (or: cc -std=c99 c_abi.c -Iinclude -I$CUDA/include
 * -Lbuild -lprojkit -L$CUDA/lib64 -lcudart -lm). Run: build/projkit_example_c.
 * Exit 0: passed; 77: no CUDA device (ctest counts it skipped); 1: a failure, printed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "projkit/projkit.h"

/* bf16 from float by round-to-nearest-even on the upper 16 bits (finite inputs only). */
static uint16_t bf16_from_float(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}
static float float_from_bf16(uint16_t h) {
  const uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
/* A fixed pseudo-random sequence in [-scale, scale) (a 32-bit LCG: reproducible on every libc). */
static float next_uniform(uint32_t* state, float scale) {
  *state = *state * 1664525u + 1013904223u;
  return scale * ((float)(*state >> 8) / 8388608.0f - 1.0f);
}

#define CHECK_PK(call)                                                                          \
  do {                                                                                          \
    const pkStatus s_ = (call);                                                                 \
    if (s_ != PK_OK) {                                                                          \
      fprintf(stderr, "%s failed: %s: %s\n", #call, pk_status_string(s_), pk_last_error());    \
      return 1;                                                                                 \
    }                                                                                           \
  } while (0)
#define CHECK_CUDA(call)                                                                        \
  do {                                                                                          \
    const cudaError_t e_ = (call);                                                              \
    if (e_ != cudaSuccess) {                                                                    \
      fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e_));                        \
      return 1;                                                                                 \
    }                                                                                           \
  } while (0)

int main(void) {
  int i, devices = 0;
  printf("projkit %s; families:", pk_version());
  for (i = 0; i < pk_family_count(); ++i) printf(" %s", pk_family_name(i));
  printf("\n");

  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    printf("SKIP: no CUDA device\n");
    return 77;
  }
  struct cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  char plan[4096];
  if (pk_plan_file(prop.name, NULL, plan, sizeof plan) == PK_OK)
    printf("%s: plan %s\n", prop.name, plan);
  else
    printf("%s: %s\n", prop.name, pk_last_error()); /* the projection will run the baseline */

  pkFamilyInfo info;
  CHECK_PK(pk_family_info("qkv", &info));
  const int m = 8;
  const size_t nw = (size_t)info.n * (size_t)info.k, nx = (size_t)m * (size_t)info.k;
  uint16_t* w = malloc(nw * sizeof *w);
  uint16_t* x = malloc(nx * sizeof *x);
  uint16_t* y = malloc((size_t)m * (size_t)info.n * sizeof *y);
  if (!w || !x || !y) return 1;
  uint32_t state = 61u;
  for (size_t j = 0; j < nw; ++j) w[j] = bf16_from_float(next_uniform(&state, 0.05f));
  for (size_t j = 0; j < nx; ++j) x[j] = bf16_from_float(next_uniform(&state, 1.0f));

  void *dw = NULL, *dx = NULL, *dy = NULL;
  CHECK_CUDA(cudaMalloc(&dw, nw * 2));
  CHECK_CUDA(cudaMalloc(&dx, nx * 2));
  CHECK_CUDA(cudaMalloc(&dy, (size_t)m * (size_t)info.n * 2));
  CHECK_CUDA(cudaMemcpy(dw, w, nw * 2, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dx, x, nx * 2, cudaMemcpyHostToDevice));

  pkProjection* p = NULL;
  CHECK_PK(pk_projection_create(&p, "qkv", dw, NULL, NULL, 256, 0)); /* the device's plan */
  for (i = 0; i < pk_projection_warning_count(p); ++i) printf("warning: %s\n", pk_projection_warning(p, i));
  char method[256];
  CHECK_PK(pk_projection_method(p, m, method, sizeof method));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_PK(pk_projection_run(p, dx, m, dy, stream)); /* no allocation, no sync inside */
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUDA(cudaMemcpy(y, dy, (size_t)m * (size_t)info.n * 2, cudaMemcpyDeviceToHost));

  double num = 0.0, den = 0.0;
  for (int t = 0; t < m; ++t)
    for (int64_t n = 0; n < info.n; ++n) {
      double ref = 0.0;
      for (int64_t k = 0; k < info.k; ++k)
        ref += (double)float_from_bf16(x[(size_t)t * (size_t)info.k + (size_t)k]) *
               (double)float_from_bf16(w[(size_t)n * (size_t)info.k + (size_t)k]);
      const double d = (double)float_from_bf16(y[(size_t)t * (size_t)info.n + (size_t)n]) - ref;
      num += d * d;
      den += ref * ref;
    }
  const double err = sqrt(num / den);
  printf("qkv m=%d via %s: relative L2 error %.2e against fp64\n", m, method, err);

  CHECK_PK(pk_projection_destroy(p));
  cudaStreamDestroy(stream);
  cudaFree(dw);
  cudaFree(dx);
  cudaFree(dy);
  free(w);
  free(x);
  free(y);
  if (!(err <= 1e-2)) {
    fprintf(stderr, "FAIL: relative L2 error %.2e > 1e-2\n", err);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
