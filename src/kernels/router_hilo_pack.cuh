// router_hilo_pack: the prepare()-time weight re-layout of router_hilo_stream. Lossless split
// of fp32 W [N, K] into bf16 hi/lo mma.sync m16n8k16 A fragments (router_hilo_split below):
// hi = bf16_rz(w), lo = bf16_rn(w - hi), so lo has the sign of hi and an Inf in x gives
// Inf*hi + Inf*lo = +-Inf, as the fp32 baseline's Inf*w does (with hi rounded to nearest,
// about half the pairs have opposite signs and give Inf - Inf = NaN).
// Layout: for every 16-row x 16-column tile a 1 KB block [hi: 32 lanes x 16 B][lo: 32 lanes x
// 16 B], tiles ordered (k16 step, n16 tile): tile (s, j) at byte (s * N/16 + j) * 1024.
// (The (n16 tile, k16 step) order, one warp's k16 steps contiguous, measured no faster: run 4.)
// Constraints: N % 16 == 0, K % 16 == 0. Runs at prepare() time (allocation and sync allowed).
#pragma once
#include <cuda_bf16.h>

#include <cmath>

#include "core/method.hpp"

namespace projkit {
namespace {

// w = hi + lo (to ~2^-16 relative), both bf16, with lo of the sign of hi so non-finite x
// propagates as in the fp32 baseline:
//  - non-finite w: hi = w (Inf / NaN), lo = 0: x*Inf + x*0 gives what x*w gives;
//  - finite w: hi = bf16_rz(w) (never overflows, |hi| <= |w|), lo = bf16_rn(w - hi) (the
//    residual is exact in fp32 and has the sign of w); when lo would be zero or subnormal
//    (w exact in bf16, or a residual below the normal range, which tensor cores may flush)
//    and w != 0, lo = +-2^-126, the smallest normal: a change of at most 2^-126 in w that
//    keeps Inf*hi + Inf*lo = +-Inf instead of Inf*0 = NaN. w == 0 keeps lo = 0 (Inf*0 = NaN,
//    as in the baseline).
__device__ __forceinline__ void router_hilo_split(float w, __nv_bfloat16& hi, __nv_bfloat16& lo) {
  if (!isfinite(w)) {
    hi = __float2bfloat16_rn(w);
    lo = __float2bfloat16_rn(0.0f);
    return;
  }
  hi = __float2bfloat16_rz(w);
  lo = __float2bfloat16_rn(w - __bfloat162float(hi));
  constexpr float kMinNormal = 1.17549435e-38f;  // 2^-126
  if (w != 0.0f && fabsf(__bfloat162float(lo)) < kMinNormal) lo = __float2bfloat16_rn(copysignf(kMinNormal, w));
}

// Prepare: W fp32 [N, K] -> packed hi/lo A fragments. One thread per (k16 step, n16 tile, lane).
__global__ void router_hilo_pack_kernel(const float* __restrict__ w, uint4* __restrict__ out, int n, int k) {
  const int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int n16 = n / 16;
  const int64_t total = int64_t(k / 16) * n16 * 32;
  if (idx >= total) return;
  const int lane = int(idx % 32);
  const int j = int((idx / 32) % n16);
  const int64_t s = idx / (32 * int64_t(n16));
  const int g = lane >> 2, tq = lane & 3;
  uint32_t hi[4], lo[4];
  for (int reg = 0; reg < 4; ++reg) {
    // reg 0: (g, 2tq..+1), 1: (g+8, 2tq..), 2: (g, 2tq+8..), 3: (g+8, 2tq+8..)
    const int row = j * 16 + g + ((reg & 1) ? 8 : 0);
    const int col = int(s * 16) + 2 * tq + ((reg & 2) ? 8 : 0);
    __nv_bfloat16 h[2], l[2];
    for (int e = 0; e < 2; ++e) router_hilo_split(w[int64_t(row) * k + col + e], h[e], l[e]);
    hi[reg] = uint32_t(__bfloat16_as_ushort(h[0])) | (uint32_t(__bfloat16_as_ushort(h[1])) << 16);
    lo[reg] = uint32_t(__bfloat16_as_ushort(l[0])) | (uint32_t(__bfloat16_as_ushort(l[1])) << 16);
  }
  uint4* blk = out + (s * n16 + j) * 64;
  blk[lane] = make_uint4(hi[0], hi[1], hi[2], hi[3]);
  blk[32 + lane] = make_uint4(lo[0], lo[1], lo[2], lo[3]);
}

// Pack W into `out` (N*K*4 bytes) and wait for it (prepare() only).
inline void router_hilo_pack(const float* w, const DeviceBuffer& out, int n, int k) {
  const int64_t threads = int64_t(k / 16) * (n / 16) * 32;
  router_hilo_pack_kernel<<<unsigned((threads + 255) / 256), 256>>>(w, out.as<uint4>(), n, k);
  cuda_check(cudaGetLastError(), "router_hilo_pack_kernel launch");
  cuda_check(cudaDeviceSynchronize(), "router_hilo_pack_kernel");
}

// The packed fragments of the Projection's W, made by the first method that asks and shared by
// every method of that Projection that reads this layout (router_hilo_stream's tiles,
// router_hilo_wgmma): plan Z6c's two router_hilo_stream tiles (M 4..32 / 33..64) held one copy each
// before session 27. `keep` (the method's member) holds the layouts as long as the method lives.
inline const uint8_t* router_hilo_packed(const PrepareContext& ctx, std::shared_ptr<SharedLayouts>& keep) {
  return shared_layout(ctx, keep, "router_hilo.fragments", [&] {
           DeviceBuffer b(std::size_t(ctx.spec.n) * std::size_t(ctx.spec.k) * 4);
           router_hilo_pack(static_cast<const float*>(ctx.w), b, int(ctx.spec.n), int(ctx.spec.k));
           return b;
         }).as<const uint8_t>();
}

}  // namespace
}  // namespace projkit
