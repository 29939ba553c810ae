// wgmma_streamk device code: see wgmma_streamk.cu for the regime and the host launcher.
//
// Persistent stream-K over the wgmma_tma CTA (same warp roles, tiles, swizzle, descriptors:
// the PTX wrappers come from wgmma_tma.cuh). No clusters.
//   Work unit = (output tile, k-block); output tile = [128 W rows n][BM tokens t].
//   Units are ordered tile-major (tile = n_tile * m_tiles + m_tile, then k-block); CTA c of G
//   owns units [U*c/G, U*(c+1)/G), i.e. equal MMA work per SM. Its range is cut at tile
//   boundaries into segments; each segment is one mainloop over a k-block range of one tile.
//   Only the first and the last segment of a range can be part of a tile ("partial").
//   WG0     producer: one thread walks the same segments and keeps the `stages`-deep TMA ring
//           full across segment boundaries (the next segment's loads overlap this epilogue);
//   WG1,WG2 consumers: D[n, t] = sum_k W[n, k] * x[t, k] over the segment (64 n rows each).
// Segment epilogue:
//   whole tile (one contributor): bf16 straight from the registers to y;
//   partial: the fp32 fragment is stored (plain 16-B stores, fragment order, coalesced) to
//   this CTA's own workspace slot (2 per CTA: first / last segment), then the tile's arrival
//   counter is incremented. Deferred fixup: after its LAST mainloop each CTA waits until all
//   contributors of each of its partial tiles have arrived, then reduces its share of that
//   tile's 8-token blocks over the contributors' slots in CTA order (deterministic) and
//   writes bf16 y. A CTA waits only after it has published every partial it owes, so no
//   cycle; all contributors must eventually be resident (grid <= SM count, 1 CTA per SM).
//   The last contributor to finish resets the tile's counters: all-zero between launches.
// (Run 1 used red.global.add.v4.f32 into a zeroed fp32 tile + last-arriver finalize: correct,
// but ~1-1.6 TB/s of L2 atomics made it 1.2-2x slower; see docs/experiments.md.)
#pragma once

#include "kernels/wgmma_tma.cuh"

namespace projkit::wgmma_streamk {

using namespace projkit::wgmma_tma;  // kBlockN, kBlockK, kWTileBytes, PTX wrappers, descriptors

constexpr int kStreamThreads = 128 * (1 + kConsumerWGs);  // producer WG + 2 consumer WGs
constexpr int kConsumerThreads = 128 * kConsumerWGs;
constexpr int kFixupBatch = 8;  // contributor slots loaded back-to-back per fixup step (latency hiding)

__host__ __device__ constexpr int sk_x_tile_bytes(int bm) { return bm * kBlockK * 2; }  // [bm t][64 k] bf16
__host__ __device__ constexpr int sk_stage_bytes(int bm) { return kWTileBytes + sk_x_tile_bytes(bm); }
// [<=1 KB alignment slack][stages x {W tile | x tile}][full[], empty[]]
__host__ __device__ constexpr int sk_smem_bytes(int bm, int stages) { return 1024 + stages * sk_stage_bytes(bm) + 16 * stages; }
// fp32 workspace floats per output tile ([128 n][bm t] in fragment order).
__host__ __device__ constexpr int sk_tile_floats(int bm) { return kBlockN * bm; }

// ------------------------------------------------------------------ PTX wrappers (new here)
// Spin read of a tile's arrival counter; acquire orders the slot reads that follow after it.
__device__ __forceinline__ int ld_acquire_gpu(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// A segment of CTA work: k-blocks [kb0, kb1) of output tile `tile`.
struct Segment {
  int tile, kb0, kb1;
};
// The segment that starts at unit u (u < u_end): runs to the tile's end or the range's end.
__device__ __forceinline__ Segment segment_at(int64_t u, int64_t u_end, int kbt) {
  Segment s;
  s.tile = int(u / kbt);
  s.kb0 = int(u - int64_t(s.tile) * kbt);
  const int64_t left = u_end - u;
  s.kb1 = left < int64_t(kbt - s.kb0) ? s.kb0 + int(left) : kbt;
  return s;
}

// The CTA that owns unit u (ranges [U*c/G, U*(c+1)/G), every range non-empty: G <= U).
__device__ __forceinline__ int cta_of_unit(int64_t u, int64_t units, int ctas) {
  return int(((u + 1) * ctas - 1) / units);
}
// Workspace slot of contributor c for tile `tile`: 2c for the tile of its first unit, else 2c+1.
__device__ __forceinline__ int slot_of(int c, int tile, int64_t units, int ctas, int kbt) {
  return 2 * c + (int((units * c / ctas) / kbt) == tile ? 0 : 1);
}

// bf16 store of one 8-token block q of a consumer fragment to y[t][n] (token rows >= mv
// skipped); v = acc[4q .. 4q+3]. Lanes l and l^4 hold neighbouring n for the same t pair;
// one shuffle gives each a (t, n..n+1) pair -> 4-B stores. All 32 lanes must call it.
//   acc[4q + 2h + b] = D[n_l + 8h][8q + 2(lane%4) + b],  n_l = 64c + 16warp + lane/4
__device__ __forceinline__ void store_q_bf16(int q, const float4& v, __nv_bfloat16* __restrict__ y, int mv, int n_out,
                                             int n0, int m0, int tid) {
  const int lane = tid & 31, warp = (tid >> 5) & 3, c = tid >> 7;
  const int odd = (lane >> 2) & 1;  // n_l odd: this lane stores token t+1, cols n_l-1..n_l
  const int n_l = c * 64 + warp * 16 + (lane >> 2);
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const float v0 = h ? v.z : v.x, v1 = h ? v.w : v.y;  // D[n][t], D[n][t+1]
    const float recv = __shfl_xor_sync(0xffffffffu, odd ? v0 : v1, 4);
    const int t = 8 * q + 2 * (lane & 3) + odd;
    const int n = n_l + 8 * h - odd;
    const __nv_bfloat162 pr = odd ? __floats2bfloat162_rn(recv, v1) : __floats2bfloat162_rn(v0, recv);
    if (t < mv) *reinterpret_cast<__nv_bfloat162*>(y + int64_t(m0 + t) * n_out + n0 + n) = pr;
  }
}

// ------------------------------------------------------------------ kernel
// Template parameter BM: tokens per output tile = the wgmma N (32, 64, 128 or 256).
// Runtime: kbt = K / 64 k-blocks per tile; n_tiles = n_out / 128; m_tiles = ceil(m / BM);
// stages (ring depth); x_rows = rows per x TMA box (BM, or round_up(m, 8) when m < BM: no
// zero-filled rows are fetched; smem rows >= x_rows only feed D columns of tokens >= m,
// which are never stored or reduced).
// ws: 2 * gridDim.x slots of sk_tile_floats(BM) fp32 (no initial state needed);
// counters: [arrive: n_tiles * m_tiles ints][done: n_tiles * m_tiles ints], zero on entry and exit.
template <int BM>
__global__ void __launch_bounds__(kStreamThreads, 1)
    wgmma_streamk_kernel(const __grid_constant__ CUtensorMap tm_w,  // W [N rows][K] bf16, box [128 n][64 k]
                         const __grid_constant__ CUtensorMap tm_x,  // x [m rows][K] bf16, box [x_rows t][64 k]
                         __nv_bfloat16* __restrict__ y,              // [m][n_out] bf16
                         float* __restrict__ ws,                     // [2 * gridDim.x][BM/8 q][256 thr] float4
                         int* __restrict__ counters, int m, int n_out, int kbt, int n_tiles, int m_tiles,
                         int stages, int x_rows) {
  static_assert(BM == 32 || BM == 64 || BM == 128 || BM == 256, "BM is the wgmma N: 32, 64, 128 or 256");
  static_assert(sk_x_tile_bytes(BM) % 1024 == 0 && kWTileBytes % 1024 == 0, "tiles keep 1024-B swizzle alignment");
  static_assert(BM % 8 == 0, "fragment q-blocks of 8 tokens");
  constexpr int kAcc = BM / 2;  // fp32 accumulators per consumer thread: [64 n] x [BM t] / 128

  extern __shared__ uint8_t smem_raw[];
  const uint32_t base = (smem_u32(smem_raw) + 1023u) & ~1023u;
  const uint32_t bars = base + uint32_t(stages * sk_stage_bytes(BM));  // full[s], then empty[s]
  auto full_bar = [&](int s) { return bars + 8u * uint32_t(s); };
  auto empty_bar = [&](int s) { return bars + 8u * uint32_t(stages + s); };
  auto stage_w = [&](int s) { return base + uint32_t(s * sk_stage_bytes(BM)); };
  auto stage_x = [&](int s) { return stage_w(s) + uint32_t(kWTileBytes); };

  const int ctas = int(gridDim.x), cta = int(blockIdx.x);
  const int64_t units = int64_t(n_tiles) * m_tiles * kbt;
  const int64_t u_begin = units * cta / ctas, u_end = units * (cta + 1) / ctas;
  const int tiles = n_tiles * m_tiles;
  int* arrive = counters;        // per tile: contributors that published their partial
  int* done = counters + tiles;  // per tile: contributors that finished their fixup share
  const int wg = int(threadIdx.x) / 128;

  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      mbar_init(full_bar(s), 1);                  // the producer's arrive.expect_tx
      mbar_init(empty_bar(s), kConsumerWGs * 4);  // one arrive per consumer warp
    }
    fence_mbar_init();
  }
  __syncthreads();

  if (wg == 0) {
    // ---------------- producer
    setmaxnreg_dec<kProducerRegs>();
    if (threadIdx.x == 0) {
      prefetch_tensor_map(&tm_w);
      prefetch_tensor_map(&tm_x);
      const uint64_t pol_w = policy_evict_first();
      const uint64_t pol_x = policy_evict_last();
      const uint32_t tx = uint32_t(kWTileBytes + x_rows * kBlockK * 2);
      int s = 0, it = 0;
      uint32_t phase = 0;
      for (int64_t u = u_begin; u < u_end;) {
        const Segment g = segment_at(u, u_end, kbt);
        const int n0 = (g.tile / m_tiles) * kBlockN, m0 = (g.tile % m_tiles) * BM;
        for (int kb = g.kb0; kb < g.kb1; ++kb, ++it) {
          if (it >= stages) mbar_wait(empty_bar(s), phase ^ 1u);  // consumers freed the previous round
          mbar_arrive_expect_tx(full_bar(s), tx);
          tma_load_2d(stage_w(s), &tm_w, full_bar(s), kb * kBlockK, n0, pol_w);
          tma_load_2d(stage_x(s), &tm_x, full_bar(s), kb * kBlockK, m0, pol_x);
          if (++s == stages) { s = 0; phase ^= 1u; }
        }
        u += g.kb1 - g.kb0;
      }
    }
    return;
  }

  // ---------------- consumers
  setmaxnreg_inc<kConsumerRegs>();
  const int c = wg - 1;                    // which 64-row half of the W tile
  const int tid = int(threadIdx.x) - 128;  // 0..255 over the consumer warpgroups
  const int lane = tid & 31;
  float acc[kAcc];  // D[64 n][BM t] fragment, see wgmma_m64k16
  int s = 0;
  uint32_t phase = 0;
  for (int64_t u = u_begin; u < u_end;) {
    const Segment g = segment_at(u, u_end, kbt);
    u += g.kb1 - g.kb0;
    const int n0 = (g.tile / m_tiles) * kBlockN, m0 = (g.tile % m_tiles) * BM;
#pragma unroll
    for (int i = 0; i < kAcc; ++i) acc[i] = 0.0f;
    int prev_s = 0;
    for (int kb = g.kb0; kb < g.kb1; ++kb) {
      mbar_wait(full_bar(s), phase);
      wgmma_fence();
      const uint32_t a_base = stage_w(s) + uint32_t(c * 64 * 128);  // rows [64c, 64c+64) of the W tile
      const uint32_t b_base = stage_x(s);
#pragma unroll
      for (int k = 0; k < kBlockK / 16; ++k)
        wgmma_m64k16<BM>(acc, desc_k_sw128(a_base + 32u * k), desc_k_sw128(b_base + 32u * k));
      wgmma_commit();
      wgmma_wait<1>();  // the previous k-block's group has retired
      if (kb > g.kb0 && lane == 0) mbar_arrive(empty_bar(prev_s));
      prev_s = s;
      if (++s == stages) { s = 0; phase ^= 1u; }
    }
    wgmma_wait<0>();
    if (lane == 0) mbar_arrive(empty_bar(prev_s));
#pragma unroll
    for (int i = 0; i < kAcc; ++i) fence_reg(acc[i]);

    const int mv = m - m0;                              // valid token rows of the tile
    const int qv = min(BM / 8, (mv + 7) / 8);           // 8-token blocks holding valid rows
    if (g.kb0 == 0 && g.kb1 == kbt) {  // the whole K range: no reduction
#pragma unroll
      for (int q = 0; q < BM / 8; ++q)
        if (q < qv) store_q_bf16(q, make_float4(acc[4 * q], acc[4 * q + 1], acc[4 * q + 2], acc[4 * q + 3]), y, mv,
                                 n_out, n0, m0, tid);
      continue;
    }
    // Partial tile: publish the fragment in this CTA's slot, float4 (q, tid) at (q * 256 + tid).
    float4* slot = reinterpret_cast<float4*>(ws) +
                   int64_t(slot_of(cta, g.tile, units, ctas, kbt)) * (sk_tile_floats(BM) / 4);
#pragma unroll
    for (int q = 0; q < BM / 8; ++q)
      if (q < qv) __stcg(slot + q * kConsumerThreads + tid, make_float4(acc[4 * q], acc[4 * q + 1], acc[4 * q + 2], acc[4 * q + 3]));
    __threadfence();  // this thread's slot stores are visible device-wide before the arrival
    consumer_bar_sync();
    if (tid == 0) atomicAdd(arrive + g.tile, 1);
  }

  // ---------------- deferred fixup: the first and the last tile of the range, if partial
  const int t_first = int(u_begin / kbt), t_last = int((u_end - 1) / kbt);
  for (int pass = 0; pass < 2; ++pass) {
    const int tile = pass == 0 ? t_first : t_last;
    if (pass == 1 && t_last == t_first) break;
    const int c_lo = cta_of_unit(int64_t(tile) * kbt, units, ctas);
    const int c_hi = cta_of_unit(int64_t(tile + 1) * kbt - 1, units, ctas);
    const int n = c_hi - c_lo + 1;  // contributors of this tile
    if (n == 1) continue;           // stored whole above
    const int n0 = (tile / m_tiles) * kBlockN, m0 = (tile % m_tiles) * BM;
    const int mv = m - m0;
    const int qv = min(BM / 8, (mv + 7) / 8);
    const int r = cta - c_lo;  // my share: 8-token blocks [q_lo, q_hi)
    const int q_lo = qv * r / n, q_hi = qv * (r + 1) / n;
    if (tid == 0)
      while (ld_acquire_gpu(arrive + tile) < n) __nanosleep(64);
    consumer_bar_sync();  // every consumer thread reads the slots after the acquire
    for (int q = q_lo; q < q_hi; ++q) {
      // Batches of kFixupBatch independent L2 loads in flight, then adds in CTA order
      // (deterministic). Run 2 issued one load per add: n serialized L2 round trips per
      // 8-token block, +2..17 us (docs/experiments.md, issue 6 E8).
      float4 sum = make_float4(0.f, 0.f, 0.f, 0.f);
      for (int cb = c_lo; cb <= c_hi; cb += kFixupBatch) {
        float4 v[kFixupBatch];
#pragma unroll
        for (int j = 0; j < kFixupBatch; ++j)
          if (cb + j <= c_hi) {
            const float4* slot2 = reinterpret_cast<const float4*>(ws) +
                                  int64_t(slot_of(cb + j, tile, units, ctas, kbt)) * (sk_tile_floats(BM) / 4);
            v[j] = __ldcg(slot2 + q * kConsumerThreads + tid);  // L2: written by other SMs
          }
#pragma unroll
        for (int j = 0; j < kFixupBatch; ++j)
          if (cb + j <= c_hi) { sum.x += v[j].x; sum.y += v[j].y; sum.z += v[j].z; sum.w += v[j].w; }
      }
      store_q_bf16(q, sum, y, mv, n_out, n0, m0, tid);
    }
    if (tid == 0 && atomicAdd(done + tile, 1) == n - 1) {  // every contributor is past its wait
      arrive[tile] = 0;
      done[tile] = 0;
    }
  }
}

}  // namespace projkit::wgmma_streamk
