// bf16 -> fp32 elementwise conversion for the baseline router (torch's x.float()).
// Regime: the activations of the router baseline, any size.
// Mechanism: the launch geometry and per-element work of the kernel torch runs for x.float()
//   (seen under Nsight Compute on the H200 with torch 2.11: ATen's unrolled elementwise copy
//   with dynamic casting, 128 threads per block, 4 elements per thread at a stride of 128,
//   grid = ceil(n / 512)). Every element is loaded through a switch over the twelve real
//   scalar types (byte pointer, element size known at run time) and stored through a second
//   switch on the destination type, with 32-bit offsets; all of a thread's loads come before
//   its stores. Ledger L5 timed nine versions beside torch's kernel under ncu
//   (tools/dev/convert_variants.cu): this one (v6) is within -0.2..+0.1 us of torch's at
//   M = 1, 8 and 32 (4.54 / 4.90 / 4.67 us vs 4.58 / 4.82 / 4.86), where L4's 3-way load
//   switch was 0.7-0.9 us faster (the C++ baseline then ran up to 5 % faster than torch at
//   router M = 1 and 32) and 24-way switches 0.3-0.5 us slower (3.6 % slower at M = 1).
// Constraints: none on the element count (inputs over 2^29 elements run as several launches).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>

#include "baseline/convert.hpp"
#include "core/method.hpp"

namespace projkit {
namespace {

constexpr int kThreads = 128;      // torch's block size for elementwise kernels
constexpr int kWorkPerThread = 4;  // torch's thread_work_size for this copy
constexpr int kBlockWork = kThreads * kWorkPerThread;

// The element types the switches know: the twelve real types of a dynamic-cast copy,
// numbered like tools/dev/convert_variants.cu's enum (variant v6 of ledger L5; the values
// shape the compiled compare tree, hence its timing).
enum class ElemType : int { u8 = 0, i8 = 1, i16 = 2, i32 = 3, i64 = 4, f16 = 5, f32 = 6, f64 = 7, b8 = 11, bf16 = 12, u16 = 20, u32 = 21 };

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
    case ElemType::f16: return __half2float(load_as<__half>(p));
    case ElemType::f32: return load_as<float>(p);
    case ElemType::f64: return float(load_as<double>(p));
    case ElemType::b8: return load_as<uint8_t>(p) != 0 ? 1.f : 0.f;
    case ElemType::bf16: return __bfloat162float(load_as<__nv_bfloat16>(p));
    case ElemType::u16: return float(load_as<uint16_t>(p));
    default: return float(load_as<uint32_t>(p));
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
    case ElemType::f16: store_as<__half>(p, __float2half(v)); break;
    case ElemType::f32: store_as<float>(p, v); break;
    case ElemType::f64: store_as<double>(p, double(v)); break;
    case ElemType::b8: store_as<uint8_t>(p, v != 0.f); break;
    case ElemType::bf16: store_as<__nv_bfloat16>(p, __float2bfloat16(v)); break;
    case ElemType::u16: store_as<uint16_t>(p, uint16_t(v)); break;
    default: store_as<uint32_t>(p, uint32_t(v)); break;
  }
}

// Like torch's unrolled copy: a thread's 4 elements at a stride of 128, all loads (each
// through the type switch) and then all stores (each through the other switch), with 32-bit
// element offsets (torch's TrivialOffsetCalculator<1, unsigned int>; ledger L5: 64-bit
// offsets made the M = 1 call 0.3-0.5 us slower than torch's under ncu).
__global__ void __launch_bounds__(kThreads) convert_dynamic_cast_kernel(const char* in, char* out, ElemTypes t,
                                                                        int n) {
  const int remaining = n - int(blockIdx.x) * kBlockWork;
  float v[kWorkPerThread];
  int idx = int(threadIdx.x);
#pragma unroll
  for (int i = 0; i < kWorkPerThread; ++i) {
    if (idx >= remaining) break;
    const unsigned linear = blockIdx.x * unsigned(kBlockWork) + unsigned(idx);
    v[i] = fetch_as_float(in + linear * unsigned(t.in_bytes), t.in);
    idx += kThreads;
  }
  idx = int(threadIdx.x);
#pragma unroll
  for (int i = 0; i < kWorkPerThread; ++i) {
    if (idx >= remaining) break;
    const unsigned linear = blockIdx.x * unsigned(kBlockWork) + unsigned(idx);
    cast_and_store(out + linear * unsigned(t.out_bytes), t.out, v[i]);
    idx += kThreads;
  }
}
}  // namespace

Status launch_bf16_to_f32(const void* x_bf16, float* out, std::size_t count, cudaStream_t stream) {
  // 32-bit offsets address at most kChunk elements of 4 bytes per launch; larger inputs
  // run as several launches (torch splits its iterator the same way).
  constexpr std::size_t kChunk = std::size_t(1) << 29;
  const ElemTypes t{ElemType::bf16, ElemType::f32, 2, 4};
  for (std::size_t done = 0; done < count; done += kChunk) {
    const int n = int(std::min(kChunk, count - done));
    const unsigned blocks = unsigned((n + kBlockWork - 1) / kBlockWork);
    convert_dynamic_cast_kernel<<<blocks, kThreads, 0, stream>>>(static_cast<const char*>(x_bf16) + done * 2,
                                                                 reinterpret_cast<char*>(out + done), t, n);
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return cuda_status(e, "convert_dynamic_cast_kernel launch");
  }
  return {};
}
}  // namespace projkit
