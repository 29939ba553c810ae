// splitk_zero_warp: a split-K output protocol in ONE kernel, with the zeroing of the output and
// the flag traffic on a dedicated warp (the "zero warp"). Users: router_hilo_stream and
// router_hilo_ring (config key zw1: fp32 atomics), wgmma_tma (red5: bf16x2 atomics) and
// kperm_splitk_zw (bf16x2 atomics, the owner protocol).
// Regime: those kernels add their K-split partials into y with red.global.add, so y must be
//   zero before the first add of the call. For the router: The PDL protocol
//   (router_splitk_pdl.cuh) zeroes y in a kernel of its own: that second graph node costs ~1.1 us
//   at every M (ledger, session 4 "Router round 4" (a)). Session 4's in-kernel attempt (zf1, commit
//   4d770cd) cost as much; there the flag work sat on the critical path: the owner's warp 0 zeroed,
//   fenced and published BEFORE issuing its own weight loads (the fence waits for them otherwise),
//   and a peer's thread 0 (a compute thread) spun on the flag and took a returning atomic before
//   its warp could use its weights.
// Mechanism: one extra warp per CTA, with no loads of its own in flight, does all of it while the
//   compute warps stream their weights:
//   - owner CTA (K split 0 of an output block: rows x tokens shared by the split CTAs): zero the
//     block, __threadfence, publish ready[b] = 1 (st.release.gpu);
//   - every other CTA of the block: spin on ready[b] (ld.acquire.gpu, nanosleep back-off), then
//     check in (count[b] += 1); the last peer resets ready[b] = count[b] = 0 for the next call
//     (every peer has seen ready by then, and the owner never reads the flags after publishing);
//   - then bar.arrive on a named barrier; the compute warps bar.sync on it right before their
//     first red.global.add, which orders every add after the owner's zeros (release/acquire at
//     gpu scope, then CTA barrier).
//   The flags live in a buffer owned by the prepared method, zeroed once at prepare and left zero
//   by every call (self-resetting: CUDA-graph replays need nothing). One Projection runs on one
//   stream at a time (the library contract); two Projections own separate flags.
// In wgmma_tma (red5) the zero warp is the producer warpgroup's second warp. There and in
//   router_hilo_ring the K splits of an output block share the zeroing instead of one owner
//   (zero_warp_share_run below, each after its CTA's first stage has landed: ledger P4, E41-E43);
//   router_hilo_stream keeps the owner protocol above.
// Constraints: every CTA of an output block must be resident at once (peers spin on the owner,
//   or in the shared protocol on each other):
//   the kernel is launched cooperatively (cudaLaunchAttributeCooperative, valid in graphs), so a
//   grid that cannot be co-resident fails to launch instead of hanging; the prepared methods also
//   check the residency at prepare (grid_fits_one_wave, core's resident_ctas). y rows 16-byte aligned, cols * sizeof(T) % 16 == 0.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <utility>

#include "core/method.hpp"
#include "kernels/ptx.cuh"

namespace projkit::zero_warp {

// Named barrier id of the zero warp's hand-off (ids 0..2 are taken by __syncthreads and the
// kernels' own named barriers).
constexpr int kFlagBarrier = 3;
// Named barrier id on which a kernel may hold its zero warp until the CTA's first loads have
// landed (wgmma_tma red5, router_hilo_ring zw1: the first consumer warp arrives after its first
// full-barrier wait, the zero warp syncs; 64 threads).
constexpr int kFirstStageBarrier = 4;

// One warp (lane = 0..31): zero y[t * ld + col0 + c] for t < rows, c < cols (16-byte stores:
// cols * sizeof(T) % 16 == 0, rows 16-byte aligned), then fence, so that lane 0's next release
// (a store or a count) covers every lane's zeros.
template <class T>
__device__ __forceinline__ void zero_rows_fenced(T* y, int64_t ld, int rows, int col0, int cols, int lane) {
  const int c16 = cols * int(sizeof(T)) / 16;  // 16-byte chunks per row
  for (int i = lane; i < rows * c16; i += 32)
    reinterpret_cast<uint4*>(y + int64_t(i / c16) * ld + col0)[i % c16] = make_uint4(0u, 0u, 0u, 0u);
  __threadfence();  // this lane's zeros before the warp barrier
  __syncwarp();
}

// Lane 0: wait until *flag >= target (acquire), then check out on *count; the last of the
// `checkers` to check out resets both words for the next call (every checker has passed the
// wait by then, and nobody else reads them after it).
__device__ __forceinline__ void wait_then_check_out(unsigned* flag, unsigned target, unsigned* count,
                                                    unsigned checkers) {
  while (ptx::ld_acquire_gpu(flag) < target) __nanosleep(64);
  if (atomicAdd(count, 1u) == checkers - 1u) {
    *count = 0u;
    *flag = 0u;
  }
}

// The zero warp's whole job, one owner per output block b (router_hilo_stream zw1,
// kperm_splitk_zw): the owner zeroes the block and publishes ready = flags + b; every peer waits
// for it and checks out on count = flags + blocks + b. Then the hand-off to the `compute_threads`
// compute threads, which call wait_for_zero_warp() before their first red.global.add.
template <class T>
__device__ __forceinline__ void zero_warp_run(bool owner, T* y, int64_t ld, int rows, int col0, int cols,
                                              unsigned* flags, int blocks, int b, unsigned peers, int lane,
                                              int compute_threads) {
  if (owner) {
    zero_rows_fenced(y, ld, rows, col0, cols, lane);
    if (lane == 0) ptx::st_release_gpu(flags + b, 1u);
  } else {
    if (lane == 0) wait_then_check_out(flags + b, 1u, flags + blocks + b, peers);
    __syncwarp();
  }
  ptx::bar_arrive_named(kFlagBarrier, compute_threads + 32);
}
__device__ __forceinline__ void wait_for_zero_warp(int compute_threads) {
  ptx::bar_sync_named(kFlagBarrier, compute_threads + 32);
}

// The zeroing shared by the `members` CTAs of output block b (wgmma_tma red5, router_hilo_ring
// zw1): each zero warp zeroes its own `rows` (its share of the block's rows) and counts itself in
// (zeroed = flags + b; the fence before it releases the zeros); all wait until every member has
// zeroed, then check out on passed = flags + blocks + b. Then the hand-off, as zero_warp_run.
template <class T>
__device__ __forceinline__ void zero_warp_share_run(T* y, int64_t ld, int rows, int col0, int cols, unsigned* flags,
                                                    int blocks, int b, unsigned members, int lane,
                                                    int compute_threads) {
  zero_rows_fenced(y, ld, rows, col0, cols, lane);
  if (lane == 0) {
    atomicAdd(flags + b, 1u);
    wait_then_check_out(flags + b, members, flags + blocks + b, members);
  }
  __syncwarp();
  ptx::bar_arrive_named(kFlagBarrier, compute_threads + 32);
}

// 8 outputs of a compute thread's adds after the hand-off (kperm_splitk_zw, fragment_stream_zw): the
// COUNT fp32 partial runs of 8 at p + q * stride (q < COUNT: the block's warps along K) summed in
// fixed order and rounded to bf16, as the operand of one red.global.add.v4.bf16x2 (ptx::
// red_add_bf16x8). p 16-byte aligned.
template <int COUNT>
__device__ __forceinline__ uint4 sum_partials_bf16x8(const float* p, int stride) {
  float4 a = reinterpret_cast<const float4*>(p)[0], b = reinterpret_cast<const float4*>(p)[1];
#pragma unroll
  for (int q = 1; q < COUNT; ++q) {
    const float4* v = reinterpret_cast<const float4*>(p + q * stride);
    const float4 va = v[0], vb = v[1];
    a.x += va.x; a.y += va.y; a.z += va.z; a.w += va.w;
    b.x += vb.x; b.y += vb.y; b.z += vb.z; b.w += vb.w;
  }
  const __nv_bfloat162 h0 = __floats2bfloat162_rn(a.x, a.y), h1 = __floats2bfloat162_rn(a.z, a.w);
  const __nv_bfloat162 h2 = __floats2bfloat162_rn(b.x, b.y), h3 = __floats2bfloat162_rn(b.z, b.w);
  uint4 v;
  v.x = *reinterpret_cast<const uint32_t*>(&h0);
  v.y = *reinterpret_cast<const uint32_t*>(&h1);
  v.z = *reinterpret_cast<const uint32_t*>(&h2);
  v.w = *reinterpret_cast<const uint32_t*>(&h3);
  return v;
}

// Host: "" if all `grid_ctas` CTAs can be resident at once, else the reason.
template <class Fn>
std::string grid_fits_one_wave(Fn fn, int threads, std::size_t smem, int64_t grid_ctas, int sm_count) {
  const int64_t resident =
      resident_ctas(reinterpret_cast<const void*>(fn), threads, smem, sm_count, "zero warp: cooperative grid");
  if (resident < grid_ctas)
    return "zero warp: the cooperative grid of " + std::to_string(grid_ctas) + " CTAs is not co-resident (" +
           std::to_string(resident) + " resident on " + std::to_string(sm_count) + " SMs)";
  return "";
}

// The launch attribute of a cluster shape (`cluster` CTAs per cluster along x, y, z).
inline cudaLaunchAttribute cluster_attr(dim3 cluster) {
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = cluster.x;
  attr.val.clusterDim.y = cluster.y;
  attr.val.clusterDim.z = cluster.z;
  return attr;
}

// Host: "" if every cluster of `cluster` CTAs of `grid` can be resident at once
// (cudaOccupancyMaxActiveClusters), else the reason. For cooperative grids of clusters (E83).
template <class Fn>
std::string clusters_fit_one_wave(Fn fn, int threads, std::size_t smem, dim3 grid, dim3 cluster) {
  cudaLaunchAttribute attr = cluster_attr(cluster);
  cudaLaunchConfig_t lc = {};
  lc.gridDim = grid;
  lc.blockDim = dim3(unsigned(threads));
  lc.dynamicSmemBytes = smem;
  lc.attrs = &attr;
  lc.numAttrs = 1;
  int active = 0;
  const cudaError_t e = cudaOccupancyMaxActiveClusters(&active, fn, &lc);
  if (e != cudaSuccess) return std::string("zero warp: cudaOccupancyMaxActiveClusters: ") + cudaGetErrorString(e);
  const int64_t need = int64_t(grid.x / cluster.x) * (grid.y / cluster.y) * (grid.z / cluster.z);
  if (active < need)
    return "zero warp: the cooperative grid of " + std::to_string(need) + " clusters is not co-resident (" +
           std::to_string(active) + " clusters resident)";
  return "";
}

// Launch `fn<<<grid, block, smem, stream>>>(args...)` with `n` launch attributes (cooperative,
// a cluster shape, or programmatic stream serialization in router_splitk_pdl.cuh). Launch only
// (graph-capturable); every launch checked.
template <class... KArgs, class... Args>
Status launch_with_attributes(const char* what, const cudaLaunchAttribute* attrs, unsigned n, dim3 grid,
                              dim3 block, std::size_t smem, cudaStream_t stream, void (*fn)(KArgs...),
                              Args&&... args) {
  cudaLaunchConfig_t lc = {};
  lc.gridDim = grid;
  lc.blockDim = block;
  lc.dynamicSmemBytes = smem;
  lc.stream = stream;
  lc.attrs = const_cast<cudaLaunchAttribute*>(attrs);
  lc.numAttrs = n;
  cudaError_t e = cudaLaunchKernelEx(&lc, fn, std::forward<Args>(args)...);
  if (e != cudaSuccess) return cuda_status(e, what);
  return cuda_status(cudaGetLastError(), what);
}

// launch_with_attributes with one attribute.
template <class... KArgs, class... Args>
Status launch_with_attribute(const char* what, const cudaLaunchAttribute& attr, dim3 grid, dim3 block,
                             std::size_t smem, cudaStream_t stream, void (*fn)(KArgs...), Args&&... args) {
  return launch_with_attributes(what, &attr, 1, grid, block, smem, stream, fn, std::forward<Args>(args)...);
}

// The cooperative launch attribute: all CTAs co-resident or a launch error (never a hang of the
// peers). Every zero-warp kernel is launched with it (launch_cooperative below; wgmma_tma red5
// sets it in its own launch config).
inline cudaLaunchAttribute cooperative_attr() {
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeCooperative;
  attr.val.cooperative = 1;
  return attr;
}

// Launch cooperatively (cooperative_attr).
template <class... KArgs, class... Args>
Status launch_cooperative(const char* what, dim3 grid, dim3 block, std::size_t smem, cudaStream_t stream,
                          void (*fn)(KArgs...), Args&&... args) {
  return launch_with_attribute(what, cooperative_attr(), grid, block, smem, stream, fn, std::forward<Args>(args)...);
}

// Launch cooperatively in clusters of `cluster` CTAs (E83; the two attributes are accepted together
// on the H200, ledger E56).
template <class... KArgs, class... Args>
Status launch_cooperative_clusters(const char* what, dim3 cluster, dim3 grid, dim3 block, std::size_t smem,
                                   cudaStream_t stream, void (*fn)(KArgs...), Args&&... args) {
  const cudaLaunchAttribute attrs[2] = {cooperative_attr(), cluster_attr(cluster)};
  return launch_with_attributes(what, attrs, 2, grid, block, smem, stream, fn, std::forward<Args>(args)...);
}

}  // namespace projkit::zero_warp
