// bf16 -> fp32 elementwise conversion for the baseline router (x.float()).
// Regime: any size. Mechanism: one thread per element, grid-stride. Constraints: none.
#include <cuda_bf16.h>

#include "baseline/convert.hpp"
#include "core/method.hpp"

namespace projkit {
namespace {
__global__ void bf16_to_f32_kernel(const __nv_bfloat16* __restrict__ in, float* __restrict__ out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = __bfloat162float(in[i]);
}
}  // namespace

Status launch_bf16_to_f32(const void* x_bf16, float* out, std::size_t count, cudaStream_t stream) {
  const int threads = 256;
  std::size_t blocks = (count + threads - 1) / threads;
  if (blocks > 65535) blocks = 65535;
  bf16_to_f32_kernel<<<unsigned(blocks), threads, 0, stream>>>(static_cast<const __nv_bfloat16*>(x_bf16), out, count);
  return cuda_status(cudaGetLastError(), "bf16_to_f32_kernel launch");
}
}  // namespace projkit
