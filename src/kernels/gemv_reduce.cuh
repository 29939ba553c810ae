// gemv_reduce.cuh: the block-wide reduction shared by the GEMV kernels (gemv_stream,
// router_gemv_f32): each thread holds fp32 partial dot products acc[row][token] over its K chunks;
// they are summed within the warp by shuffles, then over the warps in a fixed order through a
// small smem table (deterministic: the same inputs give the same bits on every call).
#pragma once

namespace projkit::gemv {

// Sum over the 32 lanes of a warp; every lane gets the total.
__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

// ROWS x MT partial sums per thread -> block totals. red: smem [WARPS][ROWS * MT]. Every thread
// of the block calls it (it holds a barrier). Returns true on the threads tid < ROWS * MT, which
// get the total of (row tid / MT, token tid % MT) in `total`; the caller stores the live ones.
// The caller puts a barrier between this and any reuse of `red`.
template <int ROWS, int MT, int WARPS>
__device__ __forceinline__ bool block_sum(const float (&acc)[ROWS][MT], float (&red)[WARPS][ROWS * MT], int tid,
                                          float& total) {
  static_assert(ROWS * MT <= WARPS * 32, "one thread per (row, token) for the final sum");
  const int lane = tid & 31, warp = tid >> 5;
#pragma unroll
  for (int r = 0; r < ROWS; ++r)
#pragma unroll
    for (int t = 0; t < MT; ++t) {
      const float v = warp_sum(acc[r][t]);
      if (lane == 0) red[warp][r * MT + t] = v;
    }
  __syncthreads();
  if (tid >= ROWS * MT) return false;
  float s = red[0][tid];
#pragma unroll
  for (int q = 1; q < WARPS; ++q) s += red[q][tid];  // fixed order: deterministic
  total = s;
  return true;
}

}  // namespace projkit::gemv
