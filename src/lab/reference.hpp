// fp64 reference y = x * W^T: products and sums in double from the inputs as
// stored (bf16 activations, bf16 or fp32 weights). out_cols(m) columns (slice aware).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "projkit/projkit.hpp"

namespace projkit::lab {

// Host: x as bf16 bits [m, K], w as values [>= out_cols(m), K]. Small shapes only.
std::vector<double> reference_host(const ProjectionSpec& spec, int m, const uint16_t* x_bits, const float* w);

// Device: d_x bf16 [m, K], d_w [N, K] in spec.weight_dtype, d_y double [m, out_cols(m)].
void reference_device(const ProjectionSpec& spec, int m, const void* d_x, const void* d_w, double* d_y,
                      cudaStream_t stream);

}  // namespace projkit::lab
