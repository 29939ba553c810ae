// The K permutation shared by kperm_stream_mma and kperm_splitk_zw: row-major W and x straight
// into mma.sync m16n8k16 fragments, no re-layout, no smem, no ldmatrix.
// In a 32-wide K chunk, lane (g = lane / 4, t = lane % 4) holds one 16-byte load of W[row g]
// [8t .. 8t+7] (the n8 B operand: 8 W rows) and one of x[token g (+ 8)][8t .. 8t+7] (the m16 A
// operand). Step 0 reads elements 8t..8t+3 (words .x, .y) as the logical k {2t, 2t+1, 2t+8,
// 2t+9}, step 1 reads 8t+4..8t+7 (.z, .w) the same way. A and B see the same permutation, so each
// dot product is the plain one, summed in another order.
#pragma once

#include <cstdint>

#include "kernels/ptx.cuh"

namespace projkit::kperm {

constexpr int kChunkK = 32;  // K per chunk: 4 lanes x 8 bf16 = two k16 mma steps

// acc (C fragment: {token g, g + 8} x {W rows 2t, 2t + 1}) += one 32-wide K chunk.
// x_lo: this lane's x load of token g; x_hi: of token g + 8 (zeros past m); w: its W load.
__device__ __forceinline__ void mma_chunk(float (&acc)[4], const uint4& x_lo, const uint4& x_hi, const uint4& w) {
  ptx::mma_bf16_16816(acc, x_lo.x, x_hi.x, x_lo.y, x_hi.y, w.x, w.y);  // step 0: elements 8t..8t+3
  ptx::mma_bf16_16816(acc, x_lo.z, x_hi.z, x_lo.w, x_hi.w, w.z, w.w);  // step 1: elements 8t+4..8t+7
}

}  // namespace projkit::kperm
