// gemv_bulk_ring: GEMV for decode-sized M (1..4) fed by bulk copies of whole W rows, the grid
// reading one window of W at a time.
// Regime: M = 1..4, where the call is one pass over W. gemv_stream (LSU loads, each block its own
//   rows) runs 1.03-1.10x the read floor there; the floor's best variants since L7 (session 18)
//   are copy-engine streams whose 16 KB units are interleaved over the grid, 1-5 % under the LSU
//   stream from 10 MB up. This kernel is that stream with the dot products added.
// Mechanism: one CTA per SM (grid G = min(units, SMs)). A unit is R whole rows of W, 16 KB
//   contiguous (R = 8192 / K: 1 for K = 8192, 2 for 4096, 8 for 1024); CTA c takes units c,
//   c + G, c + 2G, ... One producer lane moves each unit with one cp.async.bulk (L2 evict-first:
//   read once) into an S-stage smem ring, completion counted on full[s] mbarriers; consumer warp w
//   owns stage w (S = the consumer warps), so it takes the CTA's units w, w + S, ..: each lane
//   reads 16-byte chunks l, l + 32, .. of the unit, fp32 FMA against x (m x K, staged in smem
//   once by the consumers while the first units land), a warp-shuffle sum per (row, token), lane
//   0 stores bf16 and releases the stage (empty[s]). No block barrier per unit, no split across
//   CTAs: nothing to combine, no workspace or counters (graph replay and concurrent streams are
//   safe by construction); the sums are in a fixed order (deterministic).
// Constraints: bf16 W / x / y; m in 1..4; K in {1024, 2048, 4096, 8192} (a unit is 16 KB of
//   whole rows); n_out % R == 0; W, x 16-byte and y 2-byte aligned (the Projection contract gives
//   16); smem = 4 x K x 2 B of x + S x 16 KB of ring (192 KB at K = 8192, S = 8).
#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/method.hpp"
#include "kernels/gemv_reduce.cuh"  // dot8, warp_sum
#include "kernels/ptx.cuh"          // bulk_load, l2_evict_first_policy, bar_sync_named
#include "kernels/wgmma_tma.cuh"    // mbarrier wrappers (mbar_init, mbar_wait, ...)

namespace projkit {
namespace {

constexpr int kUnitBytes = 16384;             // one bulk copy: R whole rows
constexpr int kUnitChunks = kUnitBytes / 16;  // 16-byte chunks per unit
constexpr int kMaxTokens = 4;
constexpr int kConsumerBarrier = 1;  // named barrier of the consumer warps (0 is __syncthreads)

// MT: token capacity (x rows staged, accumulators per row); rows t >= m are never read or stored.
// R:  W rows per unit (8192 / K); a lane's chunks of one row are contiguous in its loop.
// S:  consumer warps = ring stages (warp w consumes stage w).
template <int MT, int R, int S>
struct BulkShape {
  static_assert(MT == 1 || MT == 2 || MT == 4, "MT: 1, 2 or 4 tokens");
  static_assert(R == 1 || R == 2 || R == 4 || R == 8, "R: whole rows per 16 KB unit (K = 8192 / R)");
  static_assert(S >= 2 && S <= 16, "S: 2..16 consumer warps / stages");
  static constexpr int kK = 8192 / R;                  // K this instantiation serves
  static constexpr int kLaneChunksPerRow = kUnitChunks / 32 / R;  // chunks of one row per lane
  static constexpr int kThreads = 32 * (S + 1);        // + the producer warp
  static constexpr int kXBytes = MT * kK * 2;
  static constexpr int kSmem = 1024 + kXBytes + S * kUnitBytes + 16 * S;  // + alignment slack, barriers
  static_assert(kLaneChunksPerRow >= 1, "a row spans at least 32 chunks");
};

// grid = min(units, SMs), one CTA per SM; x [m][K], w [>= n_out][K], y [m][n_out], bf16.
template <int MT, int R, int S>
__global__ void __launch_bounds__(BulkShape<MT, R, S>::kThreads, 1)
    gemv_bulk_ring_kernel(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ w,
                          __nv_bfloat16* __restrict__ y, int m, int n_out) {
  using Sh = BulkShape<MT, R, S>;
  using namespace wgmma_tma;  // mbar_* wrappers
  constexpr int K = Sh::kK;
  extern __shared__ uint8_t smem_raw[];
  const uint32_t raw = ptx::smem_addr(smem_raw);
  const uint32_t base = (raw + 127u) & ~127u;
  const uint32_t xs = base;                                // x [MT][K] bf16
  const uint32_t ring = xs + uint32_t(Sh::kXBytes);        // S x 16 KB (bulk copies need 16-B alignment)
  const uint32_t bars = ring + uint32_t(S * kUnitBytes);   // full[S], empty[S]
  auto full_bar = [&](int s) { return bars + 8u * uint32_t(s); };
  auto empty_bar = [&](int s) { return bars + 8u * uint32_t(S + s); };
  uint8_t* const xs_ptr = smem_raw + (xs - raw);
  const uint8_t* const ring_ptr = smem_raw + (ring - raw);

  const int units = n_out / R;
  const int G = int(gridDim.x), c = int(blockIdx.x);
  const int my_units = c < units ? (units - c + G - 1) / G : 0;  // units c, c + G, ...
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) & 31;

  if (threadIdx.x == 32 * S) {
    for (int s = 0; s < S; ++s) {
      mbar_init(full_bar(s), 1);   // the producer's arrive.expect_tx
      mbar_init(empty_bar(s), 1);  // lane 0 of the stage's consumer warp
    }
    fence_mbar_init();
  }
  __syncthreads();

  if (warp == S) {
    // ---------------- producer (one lane): every stage at once, then refill as warps release
    if (lane == 0) {
      const uint64_t pol = ptx::l2_evict_first_policy();  // each W byte is read once per call
      for (int i = 0; i < my_units; ++i) {
        const int s = i % S;
        if (i >= S) mbar_wait(empty_bar(s), uint32_t((i / S - 1) & 1));  // round i/S - 1 released
        mbar_arrive_expect_tx(full_bar(s), uint32_t(kUnitBytes));
        ptx::bulk_load(ring + uint32_t(s * kUnitBytes), w + int64_t(c + i * G) * R * K, uint32_t(kUnitBytes),
                       full_bar(s), pol);
      }
    }
    return;
  }

  // ---------------- consumers: stage x (the live rows) while the first units land
  {
    const int chunks = m * (K / 8);
    uint4* xd = reinterpret_cast<uint4*>(xs_ptr);
    for (int i = int(threadIdx.x); i < chunks; i += 32 * S) xd[i] = __ldg(reinterpret_cast<const uint4*>(x) + i);
    ptx::bar_sync_named(kConsumerBarrier, 32 * S);
  }
  const uint4* xv = reinterpret_cast<const uint4*>(xs_ptr);
  for (int i = warp; i < my_units; i += S) {
    mbar_wait(full_bar(warp), uint32_t((i / S) & 1));
    const uint4* wu = reinterpret_cast<const uint4*>(ring_ptr + warp * kUnitBytes);
    float acc[R][MT];
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
      for (int t = 0; t < MT; ++t) acc[r][t] = 0.0f;
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll 8
      for (int j = 0; j < Sh::kLaneChunksPerRow; ++j) {
        const int kc = lane + 32 * j;                   // chunk within the row
        const uint4 wc = wu[r * (K / 8) + kc];
#pragma unroll
        for (int t = 0; t < MT; ++t)
          if (t < m) acc[r][t] = gemv::dot8(acc[r][t], wc, xv[t * (K / 8) + kc]);
      }
    __syncwarp();
    if (lane == 0) mbar_arrive(empty_bar(warp));  // every lane's reads of the stage are done
    const int row0 = (c + i * G) * R;
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
      for (int t = 0; t < MT; ++t) {
        const float v = gemv::warp_sum(acc[r][t]);
        if (lane == 0 && t < m) y[int64_t(t) * n_out + row0 + r] = __float2bfloat16_rn(v);
      }
  }
}

using BulkKernel = void (*)(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, int, int);
constexpr int kStages = 8;  // 128 KB of W in flight per SM, as the floor's bulk16k.s8 stream

template <int R>
BulkKernel pick_tokens(int m) {
  if (m <= 1) return gemv_bulk_ring_kernel<1, R, kStages>;
  if (m <= 2) return gemv_bulk_ring_kernel<2, R, kStages>;
  return gemv_bulk_ring_kernel<4, R, kStages>;
}
// The kernel for K and m (nullptr: K not served).
BulkKernel select(int64_t k, int m) {
  switch (k) {
    case 8192: return pick_tokens<1>(m);
    case 4096: return pick_tokens<2>(m);
    case 2048: return pick_tokens<4>(m);
    case 1024: return pick_tokens<8>(m);
    default: return nullptr;
  }
}
int smem_for(int64_t k, int m) {
  const int mt = m <= 1 ? 1 : m <= 2 ? 2 : 4;
  return 1024 + mt * int(k) * 2 + kStages * kUnitBytes + 16 * kStages;
}

class GemvBulkRing final : public PreparedMethod {
 public:
  explicit GemvBulkRing(const PrepareContext& ctx) : spec_(ctx.spec), w_(ctx.w), sm_count_(ctx.dev.sm_count) {
    for (int m : {1, 2, 4}) {
      BulkKernel kern = select(spec_.k, m);
      if (!kern) throw Error(StatusCode::unsupported, "gemv_bulk_ring: K must be 1024, 2048, 4096 or 8192");
      cuda_check(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_for(spec_.k, m)),
                 "gemv_bulk_ring: cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
    }
  }

  Status run(const RunArgs& a) const override {
    if (a.m < 1 || a.m > kMaxTokens) return {StatusCode::invalid_argument, "gemv_bulk_ring: m must be in 1..4"};
    const int r = int(8192 / spec_.k);
    if (a.n_out % r != 0) return {StatusCode::invalid_argument, "gemv_bulk_ring: n_out % (8192 / K) != 0"};
    if ((reinterpret_cast<uintptr_t>(a.x) & 15) != 0)
      return {StatusCode::invalid_argument, "gemv_bulk_ring: x must be 16-byte aligned"};
    const int units = int(a.n_out / r);
    const int grid = std::min(units, sm_count_);
    BulkKernel kern = select(spec_.k, a.m);
    kern<<<grid, 32 * (kStages + 1), smem_for(spec_.k, a.m), a.stream>>>(
        static_cast<const __nv_bfloat16*>(a.x), static_cast<const __nv_bfloat16*>(w_),
        static_cast<__nv_bfloat16*>(a.y), a.m, int(a.n_out));
    return cuda_status(cudaGetLastError(), "gemv_bulk_ring_kernel launch");
  }

 private:
  ProjectionSpec spec_;
  const void* w_;
  int sm_count_;
};

std::vector<Config> bulk_configs() {
  // E71 (session 20): 8 stages of 16 KB (the floor's bulk16k.s8.interleaved stream), 8 consumer
  // warps. Measured: (pending).
  return {Config{"gemv_bulk_ring", {{"stages", kStages}}}};
}

std::string bulk_applicable(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi, const DeviceInfo& dev) {
  if (cfg.get("stages", 0) != kStages) return "gemv_bulk_ring: stages must be 8 (the compiled ring)";
  if (spec.weight_dtype != DType::bf16 || spec.x_dtype != DType::bf16 || spec.out_dtype != DType::bf16)
    return "gemv_bulk_ring: needs bf16 weights, activations and output";
  if (!dev.is_hopper_sm90()) return "gemv_bulk_ring: needs sm_90 (cp.async.bulk, mbarrier transaction counts)";
  if (m_lo < 1 || m_hi > kMaxTokens) return "gemv_bulk_ring: m must be in 1..4 (x staged in smem, register sums)";
  if (!select(spec.k, 1)) return "gemv_bulk_ring: K must be 1024, 2048, 4096 or 8192 (a 16 KB unit of whole rows)";
  for (int m = m_lo; m <= m_hi; ++m) {
    if (spec.out_cols(m) % (8192 / spec.k) != 0)
      return "gemv_bulk_ring: out_cols(" + std::to_string(m) + ") % (8192 / K) != 0";
    if (std::size_t(smem_for(spec.k, m)) > dev.smem_per_block_optin)
      return "gemv_bulk_ring: needs " + std::to_string(smem_for(spec.k, m)) + " B smem > the opt-in limit";
  }
  return "";
}

std::unique_ptr<PreparedMethod> bulk_prepare(const PrepareContext& ctx, const Config&) {
  return std::make_unique<GemvBulkRing>(ctx);
}

}  // namespace

extern const KernelFamily kGemvBulkRing = {
    "gemv_bulk_ring",
    "GEMV fed by 16 KB bulk copies of whole W rows into an smem ring, units interleaved over a grid of one CTA per "
    "SM; one consumer warp per stage, warp-shuffle sums",
    bulk_configs, bulk_applicable, bulk_prepare};

}  // namespace projkit
