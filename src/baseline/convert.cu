// bf16 -> fp32 elementwise conversion for the baseline router (torch's x.float()).
// Regime: the activations of the router baseline, any size.
// Mechanism: the launch geometry and per-element work of the kernel torch runs for x.float()
//   (seen under Nsight Compute on the H200 with torch 2.11: ATen's unrolled elementwise copy
//   with dynamic casting, 128 threads per block, 4 elements per thread at a stride of 128,
//   grid = ceil(n / 512)). Every element is loaded through a switch over the scalar types a
//   dynamic-cast copy handles (byte pointer, element size known at run time) and stored
//   through a second switch on the destination type; all of a thread's loads come before its
//   stores. Ledger L5: this version matches torch's instruction count per warp (187 vs 207 at
//   M = 1) and its time under ncu (4.7-5.1 us vs 4.4-4.8 at M = 1; 5.0 vs 4.8-5.4 at M = 32),
//   where a 3-way load switch (L4's version) took 3.6-4.1 us and made the C++ baseline up to
//   5 % faster than torch (router M = 1 and 32), and so projkit's router ratios conservative.
//   Side-by-side versions: tools/dev/convert_variants.cu.
// Constraints: n < 2^31 * 512.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>

#include "baseline/convert.hpp"
#include "core/method.hpp"

namespace projkit {
namespace {

constexpr int kThreads = 128;      // torch's block size for elementwise kernels
constexpr int kWorkPerThread = 4;  // torch's thread_work_size for this copy
constexpr int kBlockWork = kThreads * kWorkPerThread;

// The element types the switches know (the scalar types of a dynamic-cast copy; complex
// types convert their real part, as a cast to a real type does).
enum class ElemType : int {
  u8, i8, i16, i32, i64, u16, u32, u64, f16, bf16, f32, f64, b8, c32, c64, c128, e4m3, e5m2
};

struct ElemTypes {
  ElemType in, out;
  int in_bytes, out_bytes;  // element sizes, known only at run time (pointer arithmetic in bytes)
};

// The type as the compiler must see it: re-read for every element (torch keeps the types in
// the kernel's arguments and switches on them per element), so no switch is hoisted out of
// the element loop.
__device__ __forceinline__ ElemType opaque(ElemType t) {
  int v = static_cast<int>(t);
  asm volatile("" : "+r"(v));
  return static_cast<ElemType>(v);
}

template <typename U> __device__ __forceinline__ U load_as(const char* p) { return *reinterpret_cast<const U*>(p); }
template <typename U> __device__ __forceinline__ void store_as(char* p, U v) { *reinterpret_cast<U*>(p) = v; }

// One element of type t at p, as float.
__device__ __forceinline__ float fetch_as_float(const char* p, ElemType t) {
  switch (opaque(t)) {
    case ElemType::u8: return float(load_as<uint8_t>(p));
    case ElemType::i8: return float(load_as<int8_t>(p));
    case ElemType::i16: return float(load_as<int16_t>(p));
    case ElemType::i32: return float(load_as<int32_t>(p));
    case ElemType::i64: return float(load_as<long long>(p));
    case ElemType::u16: return float(load_as<uint16_t>(p));
    case ElemType::u32: return float(load_as<uint32_t>(p));
    case ElemType::u64: return float(load_as<unsigned long long>(p));
    case ElemType::f16: return __half2float(load_as<__half>(p));
    case ElemType::bf16: return __bfloat162float(load_as<__nv_bfloat16>(p));
    case ElemType::f32: return load_as<float>(p);
    case ElemType::f64: return float(load_as<double>(p));
    case ElemType::b8: return load_as<uint8_t>(p) != 0 ? 1.f : 0.f;
    case ElemType::c32: return __half2float(load_as<__half>(p));
    case ElemType::c64: return load_as<float>(p);
    case ElemType::c128: return float(load_as<double>(p));
    case ElemType::e4m3: return float(load_as<__nv_fp8_e4m3>(p));
    default: return float(load_as<__nv_fp8_e5m2>(p));
  }
}

// v converted to type t, stored at p.
__device__ __forceinline__ void cast_and_store(char* p, ElemType t, float v) {
  switch (opaque(t)) {
    case ElemType::u8: store_as<uint8_t>(p, uint8_t(v)); break;
    case ElemType::i8: store_as<int8_t>(p, int8_t(v)); break;
    case ElemType::i16: store_as<int16_t>(p, int16_t(v)); break;
    case ElemType::i32: store_as<int32_t>(p, int32_t(v)); break;
    case ElemType::i64: store_as<long long>(p, static_cast<long long>(v)); break;
    case ElemType::u16: store_as<uint16_t>(p, uint16_t(v)); break;
    case ElemType::u32: store_as<uint32_t>(p, uint32_t(v)); break;
    case ElemType::u64: store_as<unsigned long long>(p, static_cast<unsigned long long>(v)); break;
    case ElemType::f16: store_as<__half>(p, __float2half(v)); break;
    case ElemType::bf16: store_as<__nv_bfloat16>(p, __float2bfloat16(v)); break;
    case ElemType::f32: store_as<float>(p, v); break;
    case ElemType::f64: store_as<double>(p, double(v)); break;
    case ElemType::b8: store_as<uint8_t>(p, v != 0.f); break;
    case ElemType::c32: store_as<__half2>(p, __halves2half2(__float2half(v), __float2half(0.f))); break;
    case ElemType::c64: store_as<float2>(p, make_float2(v, 0.f)); break;
    case ElemType::c128: store_as<double2>(p, make_double2(double(v), 0.0)); break;
    case ElemType::e4m3: store_as<__nv_fp8_e4m3>(p, __nv_fp8_e4m3(v)); break;
    default: store_as<__nv_fp8_e5m2>(p, __nv_fp8_e5m2(v)); break;
  }
}

// Like torch's unrolled copy: a thread's 4 elements at a stride of 128, all loads (each
// through the type switch) and then all stores (each through the other switch).
__global__ void __launch_bounds__(kThreads) convert_dynamic_cast_kernel(const char* in, char* out, ElemTypes t,
                                                                        std::size_t n) {
  const std::size_t block_start = blockIdx.x * std::size_t(kBlockWork);
  const std::size_t remaining = n - block_start;
  float v[kWorkPerThread];
  std::size_t idx = threadIdx.x;
#pragma unroll
  for (int i = 0; i < kWorkPerThread; ++i) {
    if (idx >= remaining) break;
    v[i] = fetch_as_float(in + (block_start + idx) * std::size_t(t.in_bytes), t.in);
    idx += kThreads;
  }
  idx = threadIdx.x;
#pragma unroll
  for (int i = 0; i < kWorkPerThread; ++i) {
    if (idx >= remaining) break;
    cast_and_store(out + (block_start + idx) * std::size_t(t.out_bytes), t.out, v[i]);
    idx += kThreads;
  }
}
}  // namespace

Status launch_bf16_to_f32(const void* x_bf16, float* out, std::size_t count, cudaStream_t stream) {
  if (count == 0) return {};
  const std::size_t blocks = (count + kBlockWork - 1) / kBlockWork;
  if (blocks > 0x7fffffffULL) return {StatusCode::invalid_argument, "bf16_to_f32: more than 2^31 blocks of 512 elements"};
  const ElemTypes t{ElemType::bf16, ElemType::f32, 2, 4};
  convert_dynamic_cast_kernel<<<unsigned(blocks), kThreads, 0, stream>>>(static_cast<const char*>(x_bf16),
                                                                         reinterpret_cast<char*>(out), t, count);
  return cuda_status(cudaGetLastError(), "convert_dynamic_cast_kernel launch");
}
}  // namespace projkit
