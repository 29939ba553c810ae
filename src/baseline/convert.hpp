// Elementwise bf16 -> fp32 conversion (torch's x.float() before the router's fp32 GEMM).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "projkit/projkit.hpp"

namespace projkit {
Status launch_bf16_to_f32(const void* x_bf16, float* out, std::size_t count, cudaStream_t stream);
}
