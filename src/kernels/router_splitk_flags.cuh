// router_splitk_flags: the split-K output protocol of the router kernels in ONE kernel (no zero
// kernel). Their K splits add fp32 partials into y with red.global.add, so y must be zero before
// the first add of the call. The PDL protocol (router_splitk_pdl.cuh) zeroes y in a kernel of its
// own; that second graph node costs ~1.1 us at every M even as a programmatic dependent (router
// E-zero, docs/experiments.md, session 4). Here, for every output block (the rows and tokens one
// K split writes, shared by all `split` CTAs along K):
//   - the owner (K split 0) zeroes the block with threads that have no load in flight yet (a
//     fence waits for every earlier memory operation of its thread, weight loads included),
//     fences, and publishes ready[b] = 1 (st.release.gpu);
//   - every other CTA of the block, after issuing its weight loads, waits for ready[b]
//     (ld.acquire.gpu; the owner publishes within ~1 us, before the weights land) and checks in:
//     count[b] += 1; the last peer to check in resets ready[b] = count[b] = 0 for the next call
//     (every peer has seen ready by then; the owner never reads the flags after publishing);
//   - everyone adds its partial with red.global.add after a CTA barrier that orders it after the
//     acquire.
// The flags live in a buffer owned by the prepared method, zeroed once at prepare: self-cleaning,
// so CUDA-graph replays need nothing; one Projection runs on one stream at a time (two
// Projections own separate flags and may run concurrently). The waits need every CTA of a block
// resident at once: the kernel is launched cooperatively (cudaLaunchAttributeCooperative, valid
// for graph nodes), so a grid that cannot be co-resident fails to launch instead of hanging.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <utility>

#include "core/method.hpp"
#include "kernels/ptx.cuh"

namespace projkit::router_flags {

// Owner: zero y[t][col0 + c] for t < rows, c < cols (cols % 4 == 0, y 16-byte aligned rows), then
// publish. All `nthreads` threads (ids 0..nthreads-1) call it; `bar` is a barrier over exactly them.
template <class Barrier>
__device__ __forceinline__ void owner_zero_publish(float* y, int64_t ld, int rows, int col0, int cols, unsigned* ready,
                                                   int tid, int nthreads, Barrier bar) {
  const int c4 = cols / 4;
  for (int i = tid; i < rows * c4; i += nthreads)
    *reinterpret_cast<float4*>(y + int64_t(i / c4) * ld + col0 + (i % c4) * 4) = make_float4(0.f, 0.f, 0.f, 0.f);
  __threadfence();  // this thread's zeros before the barrier, so the release below covers them
  bar();
  if (tid == 0) ptx::st_release_gpu(ready, 1u);
}

// Peer: wait for the owner's zeros, check in; the last of the `peers` resets the block's flags.
// One thread calls it; a CTA barrier must separate it from the first red.global.add of the others.
__device__ __forceinline__ void peer_wait_check_in(unsigned* ready, unsigned* count, unsigned peers) {
  while (ptx::ld_acquire_gpu(ready) == 0u) {
  }
  if (atomicAdd(count, 1u) == peers - 1u) {  // every peer has passed the wait above
    *count = 0u;
    *ready = 0u;
  }
}

// Launch `fn<<<grid, block, smem, stream>>>(args...)` cooperatively (all CTAs co-resident or a
// launch error). Launch only (graph-capturable); every launch checked.
template <class... KArgs, class... Args>
Status launch_cooperative(const char* what, dim3 grid, dim3 block, std::size_t smem, cudaStream_t stream,
                          void (*fn)(KArgs...), Args&&... args) {
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;
  cudaLaunchConfig_t lc = {};
  lc.gridDim = grid;
  lc.blockDim = block;
  lc.dynamicSmemBytes = smem;
  lc.stream = stream;
  lc.attrs = attr;
  lc.numAttrs = 1;
  cudaError_t e = cudaLaunchKernelEx(&lc, fn, std::forward<Args>(args)...);
  if (e != cudaSuccess) return cuda_status(e, what);
  return cuda_status(cudaGetLastError(), what);
}

}  // namespace projkit::router_flags
