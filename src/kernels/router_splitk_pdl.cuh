// router_splitk_pdl: the split-K output protocol shared by the router kernels
// (router_hilo_stream, router_hilo_wgmma). Their K splits add fp32 partials into y with
// red.global.add, so y must start at zero inside the same call: a tiny kernel zeroes y and
// immediately releases its programmatic dependent (griddepcontrol.launch_dependents), the
// compute kernel is launched with cudaLaunchAttributeProgrammaticStreamSerialization, issues
// its weight loads while the zeroing runs, and executes griddepcontrol.wait before its first
// atomic. No global scratch: CUDA-graph replay and concurrent streams are safe (y is the
// caller's own output).
// Constraints: y 16-byte aligned, m * n_out % 4 == 0 (float4 zeroing).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <utility>

#include "core/method.hpp"
#include "kernels/ptx.cuh"
#include "kernels/splitk_zero_warp.cuh"  // launch_with_attribute

namespace projkit {
namespace {

// Zero y before the atomics of the compute kernel; first thing: release the dependent.
__global__ void router_zero_kernel(float4* __restrict__ y, int n4) {
  ptx::griddep_launch_dependents();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x)
    y[i] = make_float4(0.f, 0.f, 0.f, 0.f);
}

// Launch router_zero_kernel on y[0, n_floats) and then `fn<<<grid, block, smem, stream>>>(args...)`
// as its programmatic dependent. Launch only (graph-capturable); every launch checked.
template <class... KArgs, class... Args>
Status launch_zeroed_splitk(const char* what, float* y, int64_t n_floats, dim3 grid, dim3 block, std::size_t smem,
                            cudaStream_t stream, void (*fn)(KArgs...), Args&&... args) {
  // 1) zero y (the compute kernel accumulates into it)
  const int n4 = int(n_floats / 4);
  router_zero_kernel<<<unsigned((n4 + 255) / 256), 256, 0, stream>>>(reinterpret_cast<float4*>(y), n4);
  Status zs = cuda_status(cudaGetLastError(), "router_zero_kernel launch");
  if (!zs.ok()) return zs;
  // 2) compute, as a programmatic dependent of the zeroing
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  return zero_warp::launch_with_attribute(what, attr, grid, block, smem, stream, fn, std::forward<Args>(args)...);
}

}  // namespace
}  // namespace projkit
