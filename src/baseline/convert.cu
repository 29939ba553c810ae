// bf16 -> fp32 elementwise conversion for the baseline router (torch's x.float()).
// Regime: the activations of the router baseline, any size.
// Mechanism: the launch geometry and per-element work of the kernel torch runs for x.float()
//   (seen under Nsight Compute on the H200 with torch 2.11: ATen's unrolled elementwise copy
//   with dynamic casting, 128 threads per block, 4 elements per thread at a stride of 128,
//   grid = ceil(n / 512), ~4.5 us at M = 1 where a one-element-per-thread kernel takes ~2.5).
//   Each thread reads its 4 elements through a switch on the source type known only at run
//   time with the conversion inside the arm (so the loads are serialized, as in torch's
//   dynamic-cast copy), then stores them. This reproduces torch's timing with our own code; the
//   plain kernel made the C++ baseline ~2 us faster than torch at M <= 32 (ledger L4).
// Constraints: n < 2^31 * 512.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "baseline/convert.hpp"
#include "core/method.hpp"

namespace projkit {
namespace {

constexpr int kThreads = 128;    // torch's block size for elementwise kernels
constexpr int kWorkPerThread = 4;  // torch's thread_work_size for this copy
constexpr int kBlockWork = kThreads * kWorkPerThread;

enum class SrcType : int { bf16 = 0, f16 = 1, f32 = 2 };

// The source type as the compiler must see it: re-read for every element (TensorIterator keeps
// the types in the kernel's arguments and switches on them per element), so the switch
// below is not hoisted out of the element loop.
__device__ __forceinline__ SrcType opaque(SrcType t) {
  int v = static_cast<int>(t);
  asm volatile("" : "+r"(v));
  return static_cast<SrcType>(v);
}

// One element of `in` (whose type is known only at run time) as float; the conversion sits
// in the switch arm, so it waits for this load before the next element's load can issue.
__device__ __forceinline__ float load_as_float(const void* in, SrcType t, std::size_t i) {
  switch (opaque(t)) {
    case SrcType::bf16: return __bfloat162float(static_cast<const __nv_bfloat16*>(in)[i]);
    case SrcType::f16: return __half2float(static_cast<const __half*>(in)[i]);
    default: return static_cast<const float*>(in)[i];
  }
}

// Like torch's unrolled copy: all of the thread's loads (each through the type switch), then
// all of its stores.
__global__ void __launch_bounds__(kThreads) convert_to_f32_unrolled_kernel(const void* in, SrcType t, float* out,
                                                                           std::size_t n) {
  const std::size_t base = blockIdx.x * std::size_t(kBlockWork) + threadIdx.x;
  float v[kWorkPerThread];
#pragma unroll
  for (int i = 0; i < kWorkPerThread; ++i) {
    const std::size_t idx = base + std::size_t(i) * kThreads;
    if (idx < n) v[i] = load_as_float(in, t, idx);
  }
#pragma unroll
  for (int i = 0; i < kWorkPerThread; ++i) {
    const std::size_t idx = base + std::size_t(i) * kThreads;
    if (idx < n) out[idx] = v[i];
  }
}
}  // namespace

Status launch_bf16_to_f32(const void* x_bf16, float* out, std::size_t count, cudaStream_t stream) {
  if (count == 0) return {};
  const std::size_t blocks = (count + kBlockWork - 1) / kBlockWork;
  if (blocks > 0x7fffffffULL) return {StatusCode::invalid_argument, "bf16_to_f32: more than 2^31 blocks of 512 elements"};
  convert_to_f32_unrolled_kernel<<<unsigned(blocks), kThreads, 0, stream>>>(x_bf16, SrcType::bf16, out, count);
  return cuda_status(cudaGetLastError(), "convert_to_f32_unrolled_kernel launch");
}
}  // namespace projkit
