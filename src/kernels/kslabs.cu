// kslabs: the prepare-time copy of W into its k-block slabs (kslabs.hpp). Not on the timed path.
#include "kernels/kslabs.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace projkit::kslabs {
namespace {

// One thread per 16-byte chunk, chunk i of the copy = (kb, row, piece) = (i / (8 N), (i / 8) % N, i % 8).
__global__ void pack_w_kslabs_kernel(const uint4* __restrict__ w, uint4* __restrict__ slabs, int64_t n, int64_t k) {
  const int64_t chunks = n * k / 8;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < chunks; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t piece = i % 8, row = (i / 8) % n, kb = i / (8 * n);
    slabs[i] = w[(row * k + kb * kWidth) / 8 + piece];
  }
}

}  // namespace

const DeviceBuffer& of(const PrepareContext& ctx, std::shared_ptr<SharedLayouts>& holder, const char* who) {
  const ProjectionSpec& spec = ctx.spec;
  if (spec.weight_dtype != DType::bf16 || spec.k % kWidth != 0)
    throw Error(StatusCode::invalid_argument, std::string(who) + ": W's k-block slabs need bf16 W and K % 64 == 0");
  if ((reinterpret_cast<uintptr_t>(ctx.w) & 15) != 0)
    throw Error(StatusCode::invalid_argument, std::string(who) + ": W's k-block slabs need W 16-byte aligned");
  holder = ctx.layouts ? ctx.layouts : std::make_shared<SharedLayouts>();
  return holder->get("kslabs", [&] {
    DeviceBuffer b(std::size_t(spec.n) * std::size_t(spec.k) * 2);
    const int64_t chunks = spec.n * spec.k / 8;
    const int blocks = int(std::min<int64_t>((chunks + 255) / 256, 65535));
    pack_w_kslabs_kernel<<<blocks, 256>>>(static_cast<const uint4*>(ctx.w), b.as<uint4>(), spec.n, spec.k);
    cuda_check(cudaGetLastError(), "kslabs: pack_w_kslabs_kernel launch");
    cuda_check(cudaDeviceSynchronize(), "kslabs: pack_w_kslabs_kernel");
    return b;
  });
}

}  // namespace projkit::kslabs
