// fragment_pack: the prepare()-time re-layout of bf16 W [N, K] into mma.sync m16n8k16
// A-fragment order, shared by fragment_stream_mma and fragment_stream_zw: a warp loads one
// 16-row x k16 tile with one 16-byte load per lane (512 contiguous bytes), and one 16-row
// tile's k16 steps follow each other (a warp's run of steps is one contiguous stretch).
// Lossless: the same bf16 values, moved. Constraints: N % 16 == 0, K % 16 == 0.
#pragma once
#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>

#include "core/method.hpp"

namespace projkit {
namespace {

// Packed layout: wp[(tile*ksteps + s)*32 + lane] = the lane's A fragment of rows
// [16*tile, +16) x k [16*s, +16): {a0, a1, a2, a3} with g = lane/4, c = 2*(lane%4):
//   a0 = W[g][c..c+1], a1 = W[g+8][c..c+1], a2 = W[g][c+8..c+9], a3 = W[g+8][c+8..c+9]
// (the m16n8k16 row-major A register order). One thread per 16-byte packed chunk.
__global__ void pack_a_fragments_kernel(const __nv_bfloat16* __restrict__ w, uint4* __restrict__ wp, int64_t n,
                                        int64_t k) {
  const int64_t ksteps = k / 16;
  const int64_t total = (n / 16) * ksteps * 32;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total; i += int64_t(gridDim.x) * blockDim.x) {
    const int lane = int(i & 31);
    const int64_t ts = i >> 5, tile = ts / ksteps, s = ts % ksteps;
    const int64_t r = tile * 16 + (lane >> 2), c = s * 16 + (lane & 3) * 2;
    auto pair = [&](int64_t rr, int64_t cc) { return *reinterpret_cast<const uint32_t*>(w + rr * k + cc); };
    wp[i] = make_uint4(pair(r, c), pair(r + 8, c), pair(r, c + 8), pair(r + 8, c + 8));
  }
}

// Pack rows [0, n) of W into `out` (n*k*2 bytes) and wait for it (prepare() only: launch + sync).
inline void pack_a_fragments(const __nv_bfloat16* w, const DeviceBuffer& out, int64_t n, int64_t k, int sm_count) {
  const int64_t chunks = (n / 16) * (k / 16) * 32;
  const int blocks = int(std::min<int64_t>((chunks + 255) / 256, int64_t(sm_count) * 16));
  pack_a_fragments_kernel<<<blocks, 256>>>(w, out.as<uint4>(), n, k);
  cuda_check(cudaGetLastError(), "pack_a_fragments_kernel launch");
  cuda_check(cudaDeviceSynchronize(), "pack_a_fragments_kernel");
}

}  // namespace
}  // namespace projkit
