// splitk_mma.cuh: device code shared by the split-K mma.sync kernels for skinny M
// (splitk_mma_cluster: K splits reduced through cluster DSMEM; splitk_mma_l2: K splits reduced
// through fp32 red.global.add at L2, finished by the last-arriving CTA).
// What is shared: the tile shape, the XOR swizzle, the cp.async/ldmatrix/mma.sync main loop of
// one CTA over its K slice, and the park of the fp32 partial tile in smem.
// Operand swap y^T = W * x^T: each warp owns 16 W rows as the m16 A operand, tokens are the n8
// B operand; fragments by ldmatrix from an XOR-swizzled, runtime-depth cp.async ring (W .cg +
// L2 evict-first, x zero-filled past m).
#pragma once

#include <cuda_bf16.h>

#include <cstdint>

#include "kernels/ptx.cuh"

namespace projkit::splitk {

// Wait until at most n cp.async groups are pending (n is the runtime ring depth - 2; the
// instruction needs an immediate, so a uniform switch picks it).
__device__ __forceinline__ void cp_async_wait_dyn(int n) {
  switch (n) {
    case 0: ptx::cp_async_wait<0>(); break;
    case 1: ptx::cp_async_wait<1>(); break;
    case 2: ptx::cp_async_wait<2>(); break;
    case 3: ptx::cp_async_wait<3>(); break;
    case 4: ptx::cp_async_wait<4>(); break;
    case 5: ptx::cp_async_wait<5>(); break;
    default: ptx::cp_async_wait<6>(); break;
  }
}

constexpr int kMaxRingStages = 8;  // cp_async_wait_dyn covers waits for rings of <= 8 stages
constexpr int kBK = 128;           // K per ring stage (256 B per smem row)

// WARPS: 16-row MMA slabs per CTA (BN = 16*WARPS W rows).
// WK:    warps sharing one slab, each taking 1/WK of every stage's k16 steps (intra-CTA
//        split-K): more warps per SM sub-partition to hide ldmatrix/mma latency at MT >= 32.
// MT:    token tile (MMA n dimension), 8/16/32/64; runtime m <= MT, rows >= m are zeros.
template <int WARPS, int WK, int MT>
struct Shape {
  static constexpr int kThreads = WARPS * WK * 32;
  static constexpr int kBN = 16 * WARPS;                  // W rows per CTA
  static constexpr int kBK = splitk::kBK;                 // K per stage: 256 B = 16 chunks per row
  static constexpr int kChunks = kBK / 8;                 // 16-byte chunks per smem row
  static constexpr int kKSteps = kBK / 16 / WK;           // k16 steps per warp per stage
  static constexpr int kWStageBytes = kBN * kBK * 2;      // W tile [kBN][kBK] bf16, swizzled
  static constexpr int kXStageBytes = MT * kBK * 2;       // x tile [MT][kBK] bf16, swizzled
  static constexpr int kStageBytes = kWStageBytes + kXStageBytes;
  static constexpr int kRedStride = kBN + 4;              // fp32 partial [WK][MT][kBN+4] (pad: banks)
  static constexpr int kRedBytes = WK * MT * kRedStride * 4;
  static constexpr int kNT = MT / 8;                      // n8 tiles per warp

  static_assert(MT == 8 || MT == 16 || MT == 32 || MT == 64, "MT: token tile 8/16/32/64");
  static_assert(WK == 1 || WK == 2, "WK: 1 or 2 warps per row slab");
  static_assert(WARPS * WK >= 1 && WARPS * WK <= 32, "block <= 1024 threads");
  static_assert(kChunks == 16, "swizzle assumes 16 chunks (256 B) per smem row");
  static_assert((kBN * kChunks) % kThreads == 0, "W tile chunks must divide evenly over threads");
  static_assert((kBK / 16) % WK == 0, "k16 steps per stage must divide over WK warps");
  static_assert(kRedBytes <= 2 * kStageBytes, "partial tile must fit in the (>= 2 stage) ring");
  static_assert((kRedStride * 4) % 16 == 0, "partial rows must stay float4-aligned");
};

// XOR swizzle of 16-byte chunks within a 256-byte row: the 8 rows one ldmatrix phase reads
// at the same logical chunk land in 8 distinct bank groups.
__device__ __forceinline__ uint32_t swz(int row, int chunk) {
  return uint32_t(row * 256 + ((chunk ^ (row & 7)) << 4));
}

// One CTA's main loop: acc = W[n0 : n0+kBN, k0 : k0+ktiles*kBK] * x[0:MT, same K]^T.
// x [m, k], w [>= n0+kBN, k] bf16 row-major; smem: stages * kStageBytes bytes; stages 2..8.
// acc[j] (C fragment of n8 tile j): rows wn*16 + {lane/4, lane/4+8}, tokens j*8 + 2*(lane%4) + {0,1}.
// On return every cp.async has landed and a barrier has passed: the ring smem may be reused.
// LEAN (E90, splitk_mma_l2's lp1): each thread forms its W source and smem destination once; its
// chunk i of a stage then sits kThreads / 16 rows further (a uniform stride in W, an immediate in
// smem: the swizzle phase row & 7 is the same for all of a thread's chunks). Same copies, same bits.
template <int WARPS, int WK, int MT, bool LEAN = false>
__device__ __forceinline__ void mainloop(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ w,
                                         int m, int k, int n0, int k0, int ktiles, int stages, uint8_t* smem,
                                         float (&acc)[Shape<WARPS, WK, MT>::kNT][4]) {
  using S = Shape<WARPS, WK, MT>;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int wn = warp % WARPS;  // row slab of this warp
  const int wk = warp / WARPS;  // which 1/WK of each stage's k16 steps
  const uint32_t sbase = ptx::smem_addr(smem);
  const uint64_t pol = ptx::l2_evict_first_policy();
  constexpr int kRowStep = S::kThreads / 16;  // rows between one thread's W chunks of a stage
  static_assert(!LEAN || kRowStep % 8 == 0, "LEAN: a thread's chunks must share the swizzle phase (row & 7)");
  const __nv_bfloat16* w_thread = nullptr;  // LEAN: this thread's first W chunk of k-tile 0
  uint32_t w_smem = 0;                      // LEAN: its smem offset within a stage
  if constexpr (LEAN) {
    w_thread = w + int64_t(n0 + (tid >> 4)) * k + k0 + (tid & 15) * 8;
    w_smem = swz(tid >> 4, tid & 15);
  }

  auto load_stage = [&](int kt, int slot) {
    const uint32_t ws = sbase + slot * S::kStageBytes;
    const uint32_t xs = ws + S::kWStageBytes;
    if constexpr (LEAN) {
      const __nv_bfloat16* src = w_thread + kt * S::kBK;
      const int64_t step = int64_t(kRowStep) * k;
#pragma unroll
      for (int i = 0; i < S::kBN * S::kChunks / S::kThreads; ++i)
        ptx::cp_async_hint16(ws + w_smem + i * kRowStep * 256, src + i * step, pol);
    } else {
      const __nv_bfloat16* wsrc = w + std::size_t(n0) * k + k0 + kt * S::kBK;
#pragma unroll
      for (int i = 0; i < S::kBN * S::kChunks / S::kThreads; ++i) {
        const int idx = tid + i * S::kThreads, r = idx >> 4, c = idx & 15;
        ptx::cp_async_hint16(ws + swz(r, c), wsrc + std::size_t(r) * k + c * 8, pol);
      }
    }
    const __nv_bfloat16* xsrc = x + k0 + kt * S::kBK;
    for (int idx = tid; idx < MT * S::kChunks; idx += S::kThreads) {
      const int r = idx >> 4, c = idx & 15;
      const bool live = r < m;
      ptx::cp_async_zfill16(xs + swz(r, c), live ? static_cast<const void*>(xsrc + std::size_t(r) * k + c * 8) : x,
                            live ? 16u : 0u);
    }
  };

  for (int s = 0; s < stages - 1; ++s) {
    if (s < ktiles) load_stage(s, s);
    ptx::cp_async_commit();
  }

#pragma unroll
  for (int j = 0; j < S::kNT; ++j)
#pragma unroll
    for (int q = 0; q < 4; ++q) acc[j][q] = 0.0f;

  const int a_row = wn * 16 + (lane & 15);  // ldmatrix.x4 A: lanes 0-15 rows, 16-31 same rows at k+8
  const int a_chunk_hi = lane >> 4;
  const int b_tok = (lane & 7) + ((lane >> 4) << 3);  // x4 B: lanes 16-31 address the next n8 tile
  const int b_chunk_hi = (lane >> 3) & 1;

  int slot = 0;                // ring slot of k-tile kt
  int fill_slot = stages - 1;  // ring slot of k-tile kt + stages - 1
  for (int kt = 0; kt < ktiles; ++kt) {
    cp_async_wait_dyn(stages - 2);
    __syncthreads();  // stage kt visible to all warps; slot of kt-1 free for refill
    {
      const int nk = kt + stages - 1;
      if (nk < ktiles) load_stage(nk, fill_slot);
      ptx::cp_async_commit();
      fill_slot = fill_slot + 1 == stages ? 0 : fill_slot + 1;
    }
    const uint32_t ws = sbase + slot * S::kStageBytes;
    const uint32_t xs = ws + S::kWStageBytes;
    slot = slot + 1 == stages ? 0 : slot + 1;
#pragma unroll
    for (int i = 0; i < S::kKSteps; ++i) {
      const int kk = wk * S::kKSteps + i;
      uint32_t a0, a1, a2, a3;
      ptx::ldmatrix_x4(a0, a1, a2, a3, ws + swz(a_row, kk * 2 + a_chunk_hi));
      if constexpr (S::kNT == 1) {
        uint32_t b0, b1;
        ptx::ldmatrix_x2(b0, b1, xs + swz(lane & 7, kk * 2 + b_chunk_hi));
        ptx::mma_bf16_16816(acc[0], a0, a1, a2, a3, b0, b1);
      } else {
#pragma unroll
        for (int j = 0; j < S::kNT; j += 2) {
          uint32_t b0, b1, b2, b3;  // b0,b1: n8 tile j; b2,b3: tile j+1
          ptx::ldmatrix_x4(b0, b1, b2, b3, xs + swz(j * 8 + b_tok, kk * 2 + b_chunk_hi));
          ptx::mma_bf16_16816(acc[j], a0, a1, a2, a3, b0, b1);
          ptx::mma_bf16_16816(acc[j + 1], a0, a1, a2, a3, b2, b3);
        }
      }
    }
  }
  ptx::cp_async_wait<0>();
  __syncthreads();  // pipeline smem may now be reused (for the partial tile)
}

// Park this CTA's fp32 partial as red[WK][MT][kRedStride] (token-major: a token's kBN outputs
// are contiguous, so the combine step reads float2/float4 runs). red: smem, kRedBytes bytes.
// The caller puts a barrier between this and any read of red by another thread.
template <int WARPS, int WK, int MT>
__device__ __forceinline__ void store_partial(float* red, const float (&acc)[Shape<WARPS, WK, MT>::kNT][4]) {
  using S = Shape<WARPS, WK, MT>;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int wn = warp % WARPS, wk = warp / WARPS;
  float* rw = red + wk * (MT * S::kRedStride);
  const int r = wn * 16 + (lane >> 2);
#pragma unroll
  for (int j = 0; j < S::kNT; ++j) {
    const int t = j * 8 + (lane & 3) * 2;
    rw[t * S::kRedStride + r] = acc[j][0];
    rw[(t + 1) * S::kRedStride + r] = acc[j][1];
    rw[t * S::kRedStride + r + 8] = acc[j][2];
    rw[(t + 1) * S::kRedStride + r + 8] = acc[j][3];
  }
}

}  // namespace projkit::splitk
