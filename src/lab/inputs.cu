// Device generators for check/bench inputs (one thread per element, grid-stride).
#include <cuda_bf16.h>

#include "core/method.hpp"
#include "lab/inputs.hpp"
#include "lab/random.hpp"

namespace projkit::lab {
namespace {

constexpr int kThreads = 256;

unsigned grid_for(std::size_t count) {
  const std::size_t blocks = (count + kThreads - 1) / kThreads;
  return unsigned(blocks < 65535 ? (blocks ? blocks : 1) : 65535);
}

__global__ void fill_activations_kernel(uint16_t* x, int64_t count, int64_t k, uint64_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count; i += int64_t(gridDim.x) * blockDim.x)
    x[i] = activation_bits(seed, i / k, i % k, k);
}

template <class TW>
__global__ void fill_weights_kernel(TW* w, int64_t count, int64_t k, uint64_t seed) {
  constexpr bool kBf16 = sizeof(TW) == 2;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count; i += int64_t(gridDim.x) * blockDim.x) {
    const float v = weight_value(seed, i / k, i % k, k, kBf16);
    if constexpr (kBf16)
      w[i] = bf16_bits_from_f32(v);
    else
      w[i] = v;
  }
}

__global__ void set_activation_kernel(uint16_t* x, int64_t index, float value) { x[index] = bf16_bits_from_f32(value); }

template <class T>
__global__ void fill_pattern_kernel(T* y, int64_t count, T pattern) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count; i += int64_t(gridDim.x) * blockDim.x)
    y[i] = pattern;
}

}  // namespace

void fill_activations(void* d_x, int m, int64_t k, uint64_t seed, cudaStream_t stream) {
  const int64_t count = int64_t(m) * k;
  fill_activations_kernel<<<grid_for(count), kThreads, 0, stream>>>(static_cast<uint16_t*>(d_x), count, k, seed);
  cuda_check(cudaGetLastError(), "fill_activations_kernel launch");
}

void fill_weights(void* d_w, const ProjectionSpec& spec, uint64_t seed, cudaStream_t stream) {
  const int64_t count = spec.n * spec.k;
  if (spec.weight_dtype == DType::bf16)
    fill_weights_kernel<<<grid_for(count), kThreads, 0, stream>>>(static_cast<uint16_t*>(d_w), count, spec.k, seed);
  else
    fill_weights_kernel<<<grid_for(count), kThreads, 0, stream>>>(static_cast<float*>(d_w), count, spec.k, seed);
  cuda_check(cudaGetLastError(), "fill_weights_kernel launch");
}

void fill_weight_bytes(void* d, std::size_t bytes, uint64_t seed, cudaStream_t stream) {
  const int64_t count = int64_t(bytes / 2);
  fill_weights_kernel<<<grid_for(count), kThreads, 0, stream>>>(static_cast<uint16_t*>(d), count, 8192, seed);
  cuda_check(cudaGetLastError(), "fill_weights_kernel (raw buffer) launch");
}

void set_activation(void* d_x, int64_t index, float value, cudaStream_t stream) {
  set_activation_kernel<<<1, 1, 0, stream>>>(static_cast<uint16_t*>(d_x), index, value);
  cuda_check(cudaGetLastError(), "set_activation_kernel launch");
}

void poison_output(void* d_y, std::size_t count, DType dtype, cudaStream_t stream) {
  if (dtype == DType::bf16)
    fill_pattern_kernel<<<grid_for(count), kThreads, 0, stream>>>(static_cast<uint16_t*>(d_y), int64_t(count),
                                                                    kPoisonBf16);
  else
    fill_pattern_kernel<<<grid_for(count), kThreads, 0, stream>>>(static_cast<uint32_t*>(d_y), int64_t(count),
                                                                    kPoisonF32);
  cuda_check(cudaGetLastError(), "fill_pattern_kernel (poison) launch");
}

std::vector<uint16_t> activations_host(int m, int64_t k, uint64_t seed) {
  std::vector<uint16_t> x(std::size_t(m) * std::size_t(k));
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = 0; c < k; ++c) x[std::size_t(r * k + c)] = activation_bits(seed, r, c, k);
  return x;
}

std::vector<float> weights_host(const ProjectionSpec& spec, uint64_t seed, int64_t rows) {
  std::vector<float> w(std::size_t(rows) * std::size_t(spec.k));
  const bool bf16 = spec.weight_dtype == DType::bf16;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < spec.k; ++c) w[std::size_t(r * spec.k + c)] = weight_value(seed, r, c, spec.k, bf16);
  return w;
}

}  // namespace projkit::lab
