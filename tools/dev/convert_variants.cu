// convert_variants: versions of the router baseline's bf16 -> fp32 conversion side by side
// (issue 3, baseline fidelity; ledger L4/L5). Torch's x.float() runs ATen's unrolled
// elementwise copy with dynamic casting: 128 threads, 4 elements per thread at a stride of 128,
// every element loaded through a switch over all of torch's scalar types and stored through
// another. The C++ baseline must take the same time, so this program launches each candidate
// on the same input for Nsight Compute to time next to torch's kernel:
//
//   ncu --clock-control none --cache-control all --metrics gpu__time_duration.sum \
//       build/projkit_dev_convert --m 1,8,32 --reps 3
//
// Kernels (the name says the mechanism; the winner is promoted to src/baseline/convert.cu):
//   v0_load_switch3          the library's kernel before L5: 3-way load switch, plain stores
//   v1_load_store_switch3    + the stores through a 3-way switch on the destination type
//   v2_load_store_switch24   load and store through 24-way switches (a jump table, like
//                            torch's scalar-type switch) on byte pointers with run-time
//                            element sizes
//   v3_load_store_switch24_call  v2 with the two switches in non-inlined device functions
//   v4_load_switch24_store_plain  24-way load switch, plain fp32 stores (32-bit offsets, as v5..v8)
//   v5_load_store_switch24_u32    v2 with 32-bit offsets
//   v6_load_store_switch12        12-way load and store switches (the real types): PROMOTED
//   v7_load_switch12_store_switch24
//   v8_switch24_hoisted           the type read once per thread (a thread's loads may overlap)
// H200 2026-12-01, ncu medians of 5 at M = 1 / 8 / 32 (ns): torch 4576 / 4816 / 4864;
//   v0 3712 / 4000 / 4192, v1 4000 / 4160 / 4352, v2 4864 / 5088 / 4960, v3 4672 / 4992 / 5216,
//   v4 4320 / 4512 / 4480, v5 4800 / 5056 / 4800, v6 4544 / 4896 / 4672, v7 4704 / 4928 / 4832,
//   v8 4192 / 4160 / 4256 (ledger L5).
// Each kernel writes the same fp32 output; the program checks every variant against v0 and
// exits non-zero on a mismatch.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int kThreads = 128;
constexpr int kWork = 4;
constexpr int kBlockWork = kThreads * kWork;

// Scalar types a dynamic-cast copy may meet (torch's list has this order of size).
enum class T : int {
  u8, i8, i16, i32, i64, f16, f32, f64, c32, c64, c128, b8, bf16, qi8, qu8, qi32, e5m2, e4m3, e5m2z, e4m3z,
  u16, u32, u64, e8m0
};

__device__ __forceinline__ T opaque(T t) {
  int v = static_cast<int>(t);
  asm volatile("" : "+r"(v));
  return static_cast<T>(v);
}

// ---- 3-way switches (v0, v1)
__device__ __forceinline__ float load3(const void* p, T t, std::size_t i) {
  switch (opaque(t)) {
    case T::bf16: return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
    case T::f16: return __half2float(static_cast<const __half*>(p)[i]);
    default: return static_cast<const float*>(p)[i];
  }
}
__device__ __forceinline__ void store3(void* p, T t, std::size_t i, float v) {
  switch (opaque(t)) {
    case T::bf16: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16(v); break;
    case T::f16: static_cast<__half*>(p)[i] = __float2half(v); break;
    default: static_cast<float*>(p)[i] = v; break;
  }
}

// ---- 24-way switches on byte pointers (v2, v3). Every arm is a different load width or
// conversion, so the compiler keeps a jump table. (Quantized and float8 arms read the raw
// byte; the values only matter for the bf16 arm used here.)
template <typename U> __device__ __forceinline__ U ld(const char* p) { return *reinterpret_cast<const U*>(p); }
template <typename U> __device__ __forceinline__ void st(char* p, U v) { *reinterpret_cast<U*>(p) = v; }

__device__ __forceinline__ float load24(const char* p, T t) {
  switch (opaque(t)) {
    case T::u8: return float(ld<uint8_t>(p));
    case T::i8: return float(ld<int8_t>(p));
    case T::i16: return float(ld<int16_t>(p));
    case T::i32: return float(ld<int32_t>(p));
    case T::i64: return float(ld<long long>(p));
    case T::f16: return __half2float(ld<__half>(p));
    case T::f32: return ld<float>(p);
    case T::f64: return float(ld<double>(p));
    case T::c32: return __half2float(ld<__half>(p));
    case T::c64: return ld<float>(p);
    case T::c128: return float(ld<double>(p));
    case T::b8: return ld<uint8_t>(p) ? 1.f : 0.f;
    case T::bf16: return __bfloat162float(ld<__nv_bfloat16>(p));
    case T::qi8: return float(ld<int8_t>(p)) * 0.5f;
    case T::qu8: return float(ld<uint8_t>(p)) * 0.5f;
    case T::qi32: return float(ld<int32_t>(p)) * 0.5f;
    case T::e5m2: return float(ld<uint8_t>(p)) * 0.25f;
    case T::e4m3: return float(ld<uint8_t>(p)) * 0.125f;
    case T::e5m2z: return float(ld<uint8_t>(p)) * 0.0625f;
    case T::e4m3z: return float(ld<uint8_t>(p)) * 0.03125f;
    case T::u16: return float(ld<uint16_t>(p));
    case T::u32: return float(ld<uint32_t>(p));
    case T::u64: return float(ld<unsigned long long>(p));
    default: return float(ld<uint8_t>(p)) * 2.f;
  }
}
__device__ __forceinline__ void store24(char* p, T t, float v) {
  switch (opaque(t)) {
    case T::u8: st<uint8_t>(p, uint8_t(v)); break;
    case T::i8: st<int8_t>(p, int8_t(v)); break;
    case T::i16: st<int16_t>(p, int16_t(v)); break;
    case T::i32: st<int32_t>(p, int32_t(v)); break;
    case T::i64: st<long long>(p, (long long)v); break;
    case T::f16: st<__half>(p, __float2half(v)); break;
    case T::f32: st<float>(p, v); break;
    case T::f64: st<double>(p, double(v)); break;
    case T::c32: st<__half>(p, __float2half(v)); break;
    case T::c64: st<float2>(p, make_float2(v, 0.f)); break;
    case T::c128: st<double2>(p, make_double2(v, 0.0)); break;
    case T::b8: st<uint8_t>(p, v != 0.f); break;
    case T::bf16: st<__nv_bfloat16>(p, __float2bfloat16(v)); break;
    case T::qi8: st<int8_t>(p, int8_t(v * 2.f)); break;
    case T::qu8: st<uint8_t>(p, uint8_t(v * 2.f)); break;
    case T::qi32: st<int32_t>(p, int32_t(v * 2.f)); break;
    case T::e5m2: st<uint8_t>(p, uint8_t(v * 4.f)); break;
    case T::e4m3: st<uint8_t>(p, uint8_t(v * 8.f)); break;
    case T::e5m2z: st<uint8_t>(p, uint8_t(v * 16.f)); break;
    case T::e4m3z: st<uint8_t>(p, uint8_t(v * 32.f)); break;
    case T::u16: st<uint16_t>(p, uint16_t(v)); break;
    case T::u32: st<uint32_t>(p, uint32_t(v)); break;
    case T::u64: st<unsigned long long>(p, (unsigned long long)v); break;
    default: st<uint8_t>(p, uint8_t(v * 0.5f)); break;
  }
}
__device__ __noinline__ float load24_call(const char* p, T t) { return load24(p, t); }
__device__ __noinline__ void store24_call(char* p, T t, float v) { store24(p, t, v); }

// ---- 12-way switches (v6): the common real types only
__device__ __forceinline__ float load12(const char* p, T t) {
  switch (opaque(t)) {
    case T::u8: return float(ld<uint8_t>(p));
    case T::i8: return float(ld<int8_t>(p));
    case T::i16: return float(ld<int16_t>(p));
    case T::i32: return float(ld<int32_t>(p));
    case T::i64: return float(ld<long long>(p));
    case T::f16: return __half2float(ld<__half>(p));
    case T::f32: return ld<float>(p);
    case T::f64: return float(ld<double>(p));
    case T::b8: return ld<uint8_t>(p) ? 1.f : 0.f;
    case T::bf16: return __bfloat162float(ld<__nv_bfloat16>(p));
    case T::u16: return float(ld<uint16_t>(p));
    default: return float(ld<uint32_t>(p));
  }
}
__device__ __forceinline__ void store12(char* p, T t, float v) {
  switch (opaque(t)) {
    case T::u8: st<uint8_t>(p, uint8_t(v)); break;
    case T::i8: st<int8_t>(p, int8_t(v)); break;
    case T::i16: st<int16_t>(p, int16_t(v)); break;
    case T::i32: st<int32_t>(p, int32_t(v)); break;
    case T::i64: st<long long>(p, (long long)v); break;
    case T::f16: st<__half>(p, __float2half(v)); break;
    case T::f32: st<float>(p, v); break;
    case T::f64: st<double>(p, double(v)); break;
    case T::b8: st<uint8_t>(p, v != 0.f); break;
    case T::bf16: st<__nv_bfloat16>(p, __float2bfloat16(v)); break;
    case T::u16: st<uint16_t>(p, uint16_t(v)); break;
    default: st<uint32_t>(p, uint32_t(v)); break;
  }
}

// ---- kernels: torch's geometry; all loads of a thread, then all its stores
__global__ void __launch_bounds__(kThreads) v0_load_switch3(const void* in, T ti, float* out, int n) {
  const int base = blockIdx.x * kBlockWork + threadIdx.x;
  float v[kWork];
#pragma unroll
  for (int i = 0; i < kWork; ++i)
    if (base + i * kThreads < n) v[i] = load3(in, ti, std::size_t(base + i * kThreads));
#pragma unroll
  for (int i = 0; i < kWork; ++i)
    if (base + i * kThreads < n) out[base + i * kThreads] = v[i];
}

__global__ void __launch_bounds__(kThreads) v1_load_store_switch3(const void* in, T ti, void* out, T to, int n) {
  const int base = blockIdx.x * kBlockWork + threadIdx.x;
  float v[kWork];
#pragma unroll
  for (int i = 0; i < kWork; ++i)
    if (base + i * kThreads < n) v[i] = load3(in, ti, std::size_t(base + i * kThreads));
#pragma unroll
  for (int i = 0; i < kWork; ++i)
    if (base + i * kThreads < n) store3(out, to, std::size_t(base + i * kThreads), v[i]);
}

struct Sizes {
  int in_size, out_size;  // bytes per element, known at run time
};

__global__ void __launch_bounds__(kThreads) v2_load_store_switch24(const char* in, T ti, char* out, T to, Sizes s,
                                                                    int n) {
  int remaining = n - blockIdx.x * kBlockWork;
  int idx = threadIdx.x;
  float v[kWork];
#pragma unroll
  for (int i = 0; i < kWork; ++i) {
    if (idx >= remaining) break;
    const int linear = blockIdx.x * kBlockWork + idx;
    v[i] = load24(in + std::size_t(linear) * s.in_size, ti);
    idx += kThreads;
  }
  idx = threadIdx.x;
#pragma unroll
  for (int i = 0; i < kWork; ++i) {
    if (idx >= remaining) break;
    const int linear = blockIdx.x * kBlockWork + idx;
    store24(out + std::size_t(linear) * s.out_size, to, v[i]);
    idx += kThreads;
  }
}

__global__ void __launch_bounds__(kThreads) v3_load_store_switch24_call(const char* in, T ti, char* out, T to,
                                                                         Sizes s, int n) {
  int remaining = n - blockIdx.x * kBlockWork;
  int idx = threadIdx.x;
  float v[kWork];
#pragma unroll
  for (int i = 0; i < kWork; ++i) {
    if (idx >= remaining) break;
    const int linear = blockIdx.x * kBlockWork + idx;
    v[i] = load24_call(in + std::size_t(linear) * s.in_size, ti);
    idx += kThreads;
  }
  idx = threadIdx.x;
#pragma unroll
  for (int i = 0; i < kWork; ++i) {
    if (idx >= remaining) break;
    const int linear = blockIdx.x * kBlockWork + idx;
    store24_call(out + std::size_t(linear) * s.out_size, to, v[i]);
    idx += kThreads;
  }
}

// Generic torch-geometry kernel over a load / store policy (v4..v8).
template <typename Load, typename Store>
__device__ __forceinline__ void copy_body(const char* in, char* out, Sizes s, int n, Load load, Store store) {
  const int remaining = n - int(blockIdx.x) * kBlockWork;
  float v[kWork];
  int idx = int(threadIdx.x);
#pragma unroll
  for (int i = 0; i < kWork; ++i) {
    if (idx >= remaining) break;
    const unsigned linear = blockIdx.x * unsigned(kBlockWork) + unsigned(idx);
    v[i] = load(in + linear * unsigned(s.in_size));
    idx += kThreads;
  }
  idx = int(threadIdx.x);
#pragma unroll
  for (int i = 0; i < kWork; ++i) {
    if (idx >= remaining) break;
    const unsigned linear = blockIdx.x * unsigned(kBlockWork) + unsigned(idx);
    store(out + linear * unsigned(s.out_size), v[i]);
    idx += kThreads;
  }
}
// v4: 24-way load switch, plain fp32 stores
__global__ void __launch_bounds__(kThreads) v4_load_switch24_store_plain(const char* in, T ti, char* out, T to, Sizes s, int n) {
  copy_body(in, out, s, n, [&](const char* p) { return load24(p, ti); }, [&](char* p, float v) { st<float>(p, v); });
}
// v5: 24-way load and store switches, 32-bit offsets (the library version of L5)
__global__ void __launch_bounds__(kThreads) v5_load_store_switch24_u32(const char* in, T ti, char* out, T to, Sizes s, int n) {
  copy_body(in, out, s, n, [&](const char* p) { return load24(p, ti); }, [&](char* p, float v) { store24(p, to, v); });
}
// v6: 12-way load and store switches
__global__ void __launch_bounds__(kThreads) v6_load_store_switch12(const char* in, T ti, char* out, T to, Sizes s, int n) {
  copy_body(in, out, s, n, [&](const char* p) { return load12(p, ti); }, [&](char* p, float v) { store12(p, to, v); });
}
// v7: 12-way load switch, 24-way store switch
__global__ void __launch_bounds__(kThreads) v7_load_switch12_store_switch24(const char* in, T ti, char* out, T to, Sizes s, int n) {
  copy_body(in, out, s, n, [&](const char* p) { return load12(p, ti); }, [&](char* p, float v) { store24(p, to, v); });
}
// v8: 24-way switches on a type read once per thread (loads of a thread may overlap)
__global__ void __launch_bounds__(kThreads) v8_switch24_hoisted(const char* in, T ti, char* out, T to, Sizes s, int n) {
  const T a = opaque(ti), b = opaque(to);
  copy_body(in, out, s, n, [&](const char* p) {
    switch (a) { case T::bf16: return __bfloat162float(ld<__nv_bfloat16>(p)); default: return load24(p, a); } },
    [&](char* p, float v) { switch (b) { case T::f32: st<float>(p, v); break; default: store24(p, b, v); } });
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "convert_variants: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(2);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> ms = {1, 8, 32};
  int reps = 3, k = 8192;
  for (int a = 1; a + 1 < argc; a += 2) {
    if (!std::strcmp(argv[a], "--m")) {
      ms.clear();
      for (char* t = std::strtok(argv[a + 1], ","); t; t = std::strtok(nullptr, ",")) ms.push_back(std::atoi(t));
    } else if (!std::strcmp(argv[a], "--reps")) {
      reps = std::atoi(argv[a + 1]);
    } else if (!std::strcmp(argv[a], "--k")) {
      k = std::atoi(argv[a + 1]);
    } else {
      std::fprintf(stderr, "usage: %s [--m 1,8,32] [--reps 3] [--k 8192]\n", argv[0]);
      return 2;
    }
  }
  int failures = 0;
  for (int m : ms) {
    const int n = m * k;
    std::vector<__nv_bfloat16> h(n);
    for (int i = 0; i < n; ++i) h[i] = __float2bfloat16(float((i * 37) % 101 - 50) / 8.f);
    __nv_bfloat16* x;
    float* y[9];
    check(cudaMalloc(&x, n * sizeof(__nv_bfloat16)), "malloc");
    for (auto& p : y) check(cudaMalloc(&p, n * sizeof(float)), "malloc");
    check(cudaMemcpy(x, h.data(), n * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice), "copy");
    const unsigned blocks = unsigned((n + kBlockWork - 1) / kBlockWork);
    const Sizes s{2, 4};
    for (int r = 0; r < reps; ++r) {
      v0_load_switch3<<<blocks, kThreads>>>(x, T::bf16, y[0], n);
      v1_load_store_switch3<<<blocks, kThreads>>>(x, T::bf16, y[1], T::f32, n);
      v2_load_store_switch24<<<blocks, kThreads>>>(reinterpret_cast<const char*>(x), T::bf16,
                                                   reinterpret_cast<char*>(y[2]), T::f32, s, n);
      v3_load_store_switch24_call<<<blocks, kThreads>>>(reinterpret_cast<const char*>(x), T::bf16,
                                                        reinterpret_cast<char*>(y[3]), T::f32, s, n);
      const char* xc = reinterpret_cast<const char*>(x);
      v4_load_switch24_store_plain<<<blocks, kThreads>>>(xc, T::bf16, reinterpret_cast<char*>(y[4]), T::f32, s, n);
      v5_load_store_switch24_u32<<<blocks, kThreads>>>(xc, T::bf16, reinterpret_cast<char*>(y[5]), T::f32, s, n);
      v6_load_store_switch12<<<blocks, kThreads>>>(xc, T::bf16, reinterpret_cast<char*>(y[6]), T::f32, s, n);
      v7_load_switch12_store_switch24<<<blocks, kThreads>>>(xc, T::bf16, reinterpret_cast<char*>(y[7]), T::f32, s, n);
      v8_switch24_hoisted<<<blocks, kThreads>>>(xc, T::bf16, reinterpret_cast<char*>(y[8]), T::f32, s, n);
    }
    check(cudaGetLastError(), "launch");
    check(cudaDeviceSynchronize(), "sync");
    std::vector<float> ref(n), got(n);
    check(cudaMemcpy(ref.data(), y[0], n * 4, cudaMemcpyDeviceToHost), "copy");
    for (int v = 1; v < 9; ++v) {
      check(cudaMemcpy(got.data(), y[v], n * 4, cudaMemcpyDeviceToHost), "copy");
      if (std::memcmp(ref.data(), got.data(), std::size_t(n) * 4) != 0) {
        std::fprintf(stderr, "convert_variants: m=%d variant v%d differs from v0\n", m, v);
        ++failures;
      }
    }
    std::printf("m=%d: %d elements, %u blocks x %d threads, variants %s\n", m, n, blocks, kThreads,
                failures ? "DIFFER" : "agree");
    cudaFree(x);
    for (auto& p : y) cudaFree(p);
  }
  return failures ? 1 : 0;
}
