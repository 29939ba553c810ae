// Check/bench inputs: seeded activations (with probe rows) and weights generated on
// the device, the same data on the host, and output poisoning to prove every
// element of y was written.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "projkit/projkit.hpp"

namespace projkit::lab {

// Poison payloads: signaling NaNs with a distinctive mantissa. Arithmetic never
// produces them (it yields quiet NaNs), so an element still holding one was not written.
inline constexpr uint16_t kPoisonBf16 = 0x7FA5;
inline constexpr uint32_t kPoisonF32 = 0x7FA5A5A5u;

// x[m, k] bf16 on the device (see random.hpp: ~1 row in 8 is a probe row).
void fill_activations(void* d_x, int m, int64_t k, uint64_t seed, cudaStream_t stream);
// All N rows of W in the spec's weight dtype.
void fill_weights(void* d_w, const ProjectionSpec& spec, uint64_t seed, cudaStream_t stream);
// bytes / 2 bf16 values over a raw buffer, drawn as fill_weights draws a bf16 W with rows of
// 8192 (the floor probe's payload, ledger P27); bytes must be even.
void fill_weight_bytes(void* d, std::size_t bytes, uint64_t seed, cudaStream_t stream);
// Write one bf16 value at x[index] (NaN/Inf injection), capture-safe.
void set_activation(void* d_x, int64_t index, float value, cudaStream_t stream);
// Fill count elements of dtype with the poison payload.
void poison_output(void* d_y, std::size_t count, DType dtype, cudaStream_t stream);

// Host copies of the same data (tests, CPU reference).
std::vector<uint16_t> activations_host(int m, int64_t k, uint64_t seed);  // bf16 bits
std::vector<float> weights_host(const ProjectionSpec& spec, uint64_t seed, int64_t rows);  // values as stored

}  // namespace projkit::lab
