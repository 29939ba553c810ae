// router_hilo_stream: the fp32 router (W fp32 [N, K], x bf16, y fp32), weights read exactly
// once per call at any M.
// Regime: M = 1..256. Small M: the call is a pure 8 MB weight stream (tensor-core work is
//   negligible); large M: mma.sync issue bound, but W still crosses DRAM and L2 only once.
// Mechanism: W = hi + lo (bf16 each), packed once in prepare() into mma.sync A-fragment order
//   (kernels/router_hilo_pack.cuh). Each warp owns one 16-row tile x KW k16 steps and loads
//   those fragments (2*KW x 16 B per lane) straight into registers, every load issued at kernel
//   start, so a block keeps 8*KW KB of W in flight with no smem and no pipeline for W. x goes
//   through smem in token groups of TT = 8*QT (cp.async, double-buffered when M > TT) and
//   y^T += hi*x^T + lo*x^T runs on mma.sync m16n8k16 (fp32 accumulate), reusing the W
//   registers for every token group. Split-K: the 8/WN warps along K of a block are summed in
//   smem in fixed order; the K/BK blocks along grid.x are combined by red.global.add.v4.f32
//   into y, which must start at zero inside the call:
//   zw0: a tiny kernel of the same call zeroes y first; the compute kernel is its programmatic
//     dependent launch (weight loads overlap the zeroing, griddepcontrol.wait precedes the first
//     atomic). No global scratch.
//   zw1 (one kernel, ledger E-zw, 0.7-0.9 us faster at every M): a ninth warp per block, with no
//     loads of its own, zeroes the output block (K split 0) or waits for its flag (the other
//     splits) while the compute warps stream, and releases them on a named barrier
//     (kernels/splitk_zero_warp.cuh). Self-resetting flags owned by the method; cooperative
//     launch (the whole grid is resident).
//   Graph replay and two Projections on two streams are safe in both. (A cluster-of-8 DSMEM reduction instead of the atomics was
//   measured 2.7 us slower at M = 1: docs/experiments.md, "Router (issue 4)", Experiments item 6.)
// Constraints: fp32 weights/output, bf16 x; N % (16*WN) == 0; K % BK == 0, BK = 16*KW*(8/WN);
//   x and y 16-byte aligned (checked in run()); K % 8 == 0.
#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>

#include "core/method.hpp"
#include "kernels/ptx.cuh"
#include "kernels/router_hilo_pack.cuh"
#include "kernels/splitk_zero_warp.cuh"
#include "kernels/router_splitk_pdl.cuh"

namespace projkit {
namespace {

constexpr int kWarps = 8;
constexpr int kThreads = kWarps * 32;
constexpr int kComputeBarrier = 2;  // zw1: named barrier of the 8 compute warps (0: __syncthreads, 3: the zero warp's)
constexpr int kFragBytes = 1024;  // one packed 16x16 tile: hi (512 B) + lo (512 B)

// KW: k16 steps per warp held in registers (2*KW uint4 of W per lane);
// WN: 16-row tiles per block (one per warp column; 8/WN warps split the block's K range);
// QT: 8-token tiles per token group (accumulators 2*QT*4 floats per lane).
template <int KW, int WN, int QT>
struct Shape {
  static_assert(KW == 4 || KW == 8, "KW: 4 or 8 k16 steps per warp (register budget)");
  static_assert(WN == 1 || WN == 2 || WN == 4, "WN must divide the 8 warps");
  static_assert(QT >= 1 && QT <= 8, "QT: accumulators must stay in registers");
  static constexpr int kWarpsK = kWarps / WN;      // warps along K
  static constexpr int BN = 16 * WN;               // weight rows per block
  static constexpr int BK = 16 * KW * kWarpsK;     // K columns per block (= per split)
  static constexpr int TT = 8 * QT;                // tokens per group
  static constexpr int kXRow = (BK + 8) * 2;       // smem bytes per x row: +16 B pad so the B-fragment
                                                   // LDS.32 of (8 tokens x 4 tq) hit 32 distinct banks
  static constexpr int kRedPerTok = kWarpsK * BN * 4;  // partial bytes per token: [warps_k][BN] fp32
  static_assert(kRedPerTok == 512, "partial tile layout assumes 128 floats per token");
  static_assert(BK % 8 == 0 && (kXRow % 16) == 0, "16-byte cp.async rows");
};

// Dynamic smem per launch: [x buffer 0][x buffer 1 if M > TT][partials], sized by M.
template <int KW, int WN, int QT>
__host__ __device__ constexpr int smem_rows(int m) {
  return Shape<KW, WN, QT>::TT < ((m + 7) & ~7) ? Shape<KW, WN, QT>::TT : ((m + 7) & ~7);
}
template <int KW, int WN, int QT>
__host__ __device__ constexpr int smem_bytes(int m) {
  using S = Shape<KW, WN, QT>;
  const int rows = smem_rows<KW, WN, QT>(m);
  const int nbuf = m > S::TT ? 2 : 1;
  return nbuf * rows * S::kXRow + rows * S::kRedPerTok;
}

// ZW: 0 = y zeroed by the PDL predecessor (router_splitk_pdl.cuh); 1 = one more warp (warp 8, no
// loads of its own) zeroes / waits for the zeroed y block and hands off on a named barrier
// (splitk_zero_warp.cuh; cooperative launch, `flags` = ready[N / BN], count[N / BN]).
// XL: how a token group of x reaches smem (E93; the W loads follow x in both, E91):
//   0: one cp.async loop over the compute threads, each copy's token and chunk from its loop index;
//   1: the same copies, each thread's first source and destination formed once and stepped by
//      whole token rows (kThreads / chunks-per-row rows per step; every thread the same count).
//      First W load at SASS instruction 258 -> 142 (kw8.wn2), 260 -> 170 (kw8.wn4). E93 (call 1 of
//      session 29, 200 pairs, paired ratio): kw8.wn4 +3.5 / +2.3 / +3.5 % at router M 33 / 48 / 64,
//      kw8.wn2 -2.9..+2.4 % at M 4..32 (the plan runs it at M 32). Bulk copies per token row on an
//      mbarrier (xl2, xl3) measured -8.7..+0.2 % and were removed (code in de9fc12).
template <int KW, int WN, int QT, int ZW, int XL>
__global__ void __launch_bounds__(kThreads + 32 * ZW, KW <= 4 ? 2 : 1)
    router_hilo_stream_kernel(const __nv_bfloat16* __restrict__ x, const uint8_t* __restrict__ wp,
                              float* __restrict__ y, int m, int n, int k, unsigned* __restrict__ flags) {
  using S = Shape<KW, WN, QT>;
  static_assert(ZW == 0 || ZW == 1, "ZW: 0 (PDL zero kernel) or 1 (zero warp)");
  static_assert(XL == 0 || XL == 1, "XL: 0 loop, 1 lean loop");
  static_assert(XL == 0 || (kThreads % (S::BK / 8) == 0 && 8 % (kThreads / (S::BK / 8)) == 0),
                "XL 1: a pass covers whole token rows, and 8-row groups are whole passes");
  extern __shared__ __align__(16) uint8_t smem[];
  const int rows = smem_rows<KW, WN, QT>(m);
  const int ngroups = (m + S::TT - 1) / S::TT;
  const int nbuf = ngroups > 1 ? 2 : 1;
  float* red = reinterpret_cast<float*>(smem + nbuf * rows * S::kXRow);  // [warps_k][rows][BN]

  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
  if constexpr (ZW == 1) {
    if (warp == kWarps) {  // the zero warp: output block = all m tokens x rows [blockIdx.y * BN, + BN)
      zero_warp::zero_warp_run(blockIdx.x == 0, y, n, m, int(blockIdx.y) * S::BN, S::BN, flags, int(gridDim.y),
                                  int(blockIdx.y), gridDim.x - 1, lane, kThreads);
      return;
    }
  }
  // Barrier over the compute warps only (with ZW the zero warp has left).
  auto compute_sync = [] {
    if constexpr (ZW == 1)
      ptx::bar_sync_named(kComputeBarrier, kThreads);
    else
      __syncthreads();
  };
  const int g = lane >> 2, tq = lane & 3;  // mma fragment coordinates
  const int wn = warp % WN, wk = warp / WN;
  const int k0 = blockIdx.x * S::BK;
  const int n16_all = n / 16;
  const int n16 = blockIdx.y * WN + wn;

  // x token group `grp` -> smem buffer `buf`: rows [0, round8(mt)) x BK columns (zero-filled past m)
  constexpr int kC = S::BK / 8;  // 16-byte chunks per row
  auto load_x = [&](int grp, int buf) {
    uint8_t* dst = smem + buf * rows * S::kXRow;
    const int t0 = grp * S::TT;
    const int mt = min(S::TT, m - t0);
    const int rr = (mt + 7) & ~7;
    if constexpr (XL == 1) {
      constexpr int kRowStep = kThreads / kC;  // token rows per pass
      const int c = tid % kC, tr = tid / kC;
      const __nv_bfloat16* src = x + int64_t(t0 + tr) * k + k0 + c * 8;
      uint32_t d = ptx::smem_addr(dst + tr * S::kXRow + c * 16);
      const int64_t step = int64_t(kRowStep) * k;
      for (int t = tr; t < rr; t += kRowStep, src += step, d += kRowStep * S::kXRow) {
        const bool live = t < mt;
        ptx::cp_async_zfill16(d, live ? src : x, live ? 16 : 0);
      }
    } else {
      for (int i = tid; i < rr * kC; i += kThreads) {
        const int t = i / kC, c = i % kC;
        const bool live = t < mt;
        const __nv_bfloat16* src = live ? x + int64_t(t0 + t) * k + k0 + c * 8 : x;
        ptx::cp_async_zfill16(ptx::smem_addr(dst + t * S::kXRow + c * 16), src, live ? 16 : 0);
      }
    }
    ptx::cp_async_commit();
  };
  load_x(0, 0);  // tiny; issued first so it is not queued behind the weight stream

  // W fragments of this warp: k16 steps k0/16 + wk*KW + s (s < KW) of 16-row tile n16, all in flight.
  uint4 whi[KW], wlo[KW];
  {
    const uint8_t* base = wp + (int64_t(k0 / 16 + wk * KW) * n16_all + n16) * kFragBytes + lane * 16;
#pragma unroll
    for (int s = 0; s < KW; ++s) {
      whi[s] = ptx::ld_stream(base + int64_t(s) * n16_all * kFragBytes);
      wlo[s] = ptx::ld_stream(base + int64_t(s) * n16_all * kFragBytes + 512);
    }
  }

  for (int grp = 0; grp < ngroups; ++grp) {
    const int buf = grp & 1;
    // The other buffer was last read by group grp-1, before the barrier that precedes its
    // reduction, so it may be refilled now.
    if (grp + 1 < ngroups) {
      load_x(grp + 1, buf ^ 1);
      ptx::cp_async_wait<1>();
    } else {
      ptx::cp_async_wait<0>();
    }
    compute_sync();  // group grp's x visible to every warp
    const uint8_t* xs = smem + buf * rows * S::kXRow;
    const int t0 = grp * S::TT;
    const int mt = min(S::TT, m - t0);
    const int nq = (mt + 7) >> 3;

    // acc[q][0]: hi products, acc[q][1]: lo products (two chains: ILP even at one token tile).
    // C fragment of tile q: c0 (row g, token 2tq), c1 (g, 2tq+1), c2 (g+8, 2tq), c3 (g+8, 2tq+1).
    float acc[QT][2][4];
#pragma unroll
    for (int q = 0; q < QT; ++q)
#pragma unroll
      for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[q][h][e] = 0.f;
    // (Dispatching nq to a static tile count, so no per-tile branch sits between a k16 step's
    // B loads and its mma, measured no faster: run 4.)
#pragma unroll
    for (int s = 0; s < KW; ++s) {
      const int kcol = (wk * KW + s) * 16 + 2 * tq;
#pragma unroll
      for (int q = 0; q < QT; ++q) {
        if (q < nq) {
          // B fragment (16 k x 8 tokens): token q*8+g, k = kcol..+1 and kcol+8..+9
          const uint8_t* p = xs + (q * 8 + g) * S::kXRow + kcol * 2;
          const uint32_t b0 = *reinterpret_cast<const uint32_t*>(p);
          const uint32_t b1 = *reinterpret_cast<const uint32_t*>(p + 16);
          ptx::mma_bf16_16816(acc[q][0], whi[s], b0, b1);
          ptx::mma_bf16_16816(acc[q][1], wlo[s], b0, b1);
        }
      }
    }
    // warp partials -> red[wk][t][n_local] (token-major so the y rows come out contiguous)
    float* rw = red + wk * rows * S::BN;
#pragma unroll
    for (int q = 0; q < QT; ++q) {
      if (q < nq) {
        const int nl = wn * 16 + g, t = q * 8 + 2 * tq;
        rw[t * S::BN + nl] = acc[q][0][0] + acc[q][1][0];
        rw[(t + 1) * S::BN + nl] = acc[q][0][1] + acc[q][1][1];
        rw[t * S::BN + nl + 8] = acc[q][0][2] + acc[q][1][2];
        rw[(t + 1) * S::BN + nl + 8] = acc[q][0][3] + acc[q][1][3];
      }
    }
    compute_sync();  // all warp partials of this group written

    const int nf4 = mt * S::BN / 4;  // live outputs of this block and group, in float4
    const int row0 = blockIdx.y * S::BN;
    float4* red4 = reinterpret_cast<float4*>(red);
    if (grp == 0) {  // y zeroed and visible
      if constexpr (ZW == 1)
        zero_warp::wait_for_zero_warp(kThreads);
      else
        ptx::griddep_wait();
    }
    for (int f = tid; f < nf4; f += kThreads) {
      float4 sum = red4[f];
#pragma unroll
      for (int w = 1; w < S::kWarpsK; ++w) {  // fixed order over the warps along K
        const float4 v = red4[w * rows * S::BN / 4 + f];
        sum.x += v.x; sum.y += v.y; sum.z += v.z; sum.w += v.w;
      }
      const int t = f / (S::BN / 4), c4 = f % (S::BN / 4);
      ptx::red_add_v4(y + int64_t(t0 + t) * n + row0 + c4 * 4, sum);
    }
    // next group: red is rewritten only after the next top-of-loop barrier
  }
}

using KernelFn = void (*)(const __nv_bfloat16*, const uint8_t*, float*, int, int, int, unsigned*);
using SmemFn = int (*)(int);

struct Variant {
  int kw = 0, wn = 0, zw = 0;
  KernelFn fn = nullptr;
  SmemFn smem = nullptr;  // dynamic smem bytes for a given M
  int bk = 0, bn = 0, tt = 0;
};

template <int KW, int WN, int QT, int ZW, int XL = 0>
Variant make_variant() {
  using S = Shape<KW, WN, QT>;
  return {KW, WN, ZW, router_hilo_stream_kernel<KW, WN, QT, ZW, XL>, smem_bytes<KW, WN, QT>, S::BK, S::BN, S::TT};
}

// The instantiated tiles (few, to keep compile time modest); QT is tied to the tile. Dropped
// (never clearly fastest, numbers in the ledger, router run 3): kw8.wn2 (32 x 512) and the
// zw0 kw4.wn2 (32 x 256, two blocks per SM); kw4.wn2 is back with the zero warp (E27), and
// kw8.wn2 with it for E73.
Variant pick_variant(int kw, int wn, int zw, int xl = 0) {
  if (xl != 0) {  // E93: the lean x loader, on the plan's two tiles only
    if (xl != 1 || zw != 1 || kw != 8 || (wn != 2 && wn != 4)) return {};
    return wn == 2 ? make_variant<8, 2, 4, 1, 1>() : make_variant<8, 4, 8, 1, 1>();
  }
  if (zw == 0) {
    if (kw == 8 && wn == 1) return make_variant<8, 1, 4, 0>();  // 16 x 1024, 8 splits, x groups of 32
    if (kw == 8 && wn == 4) return make_variant<8, 4, 8, 0>();  // 64 x 256, 32 splits, x groups of 64
  } else if (zw == 1) {
    if (kw == 8 && wn == 1) return make_variant<8, 1, 4, 1>();
    if (kw == 8 && wn == 4) return make_variant<8, 4, 8, 1>();
    if (kw == 4 && wn == 2) return make_variant<4, 2, 4, 1>();  // 32 x 256, 32 splits, 256 blocks (2 per SM)
    if (kw == 8 && wn == 2) return make_variant<8, 2, 4, 1>();  // 32 x 512, 16 splits, 128 blocks (E73)
  }
  return {};
}
Variant pick_variant(const Config& cfg) {
  return pick_variant(cfg.get("kw", 0), cfg.get("wn", 0), cfg.get("zw", 0), cfg.get("xl", 0));
}

class RouterHiloStream final : public PreparedMethod {
 public:
  RouterHiloStream(const PrepareContext& ctx, const Config& cfg)
      : spec_(ctx.spec), v_(pick_variant(cfg)), max_m_(ctx.max_m) {
    if (!v_.fn) throw Error(StatusCode::invalid_argument, "router_hilo_stream: no kernel for " + cfg.name());
    cuda_check(cudaFuncSetAttribute(v_.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, v_.smem(max_m_)),
               "router_hilo_stream: cudaFuncSetAttribute(smem)");
    if (v_.zw) {  // every CTA of an output block must be resident at once (cooperative launch)
      const int64_t ctas = (spec_.k / v_.bk) * (spec_.n / v_.bn);
      const std::string err = zero_warp::grid_fits_one_wave(v_.fn, threads(), std::size_t(v_.smem(max_m_)), ctas,
                                                               ctx.dev.sm_count);
      if (!err.empty()) throw Error(StatusCode::unsupported, "router_hilo_stream: " + err);
      flags_ = DeviceBuffer(2 * std::size_t(spec_.n / v_.bn) * sizeof(unsigned));  // ready[], count[]
      cuda_check(cudaMemset(flags_.get(), 0, flags_.bytes()), "router_hilo_stream: zero the flags");
    }
    packed_ = router_hilo_packed(ctx, layouts_);  // shared with the Projection's other readers
  }
  Status run(const RunArgs& a) const override {
    if (a.m < 1 || a.m > max_m_) return {StatusCode::invalid_argument, "router_hilo_stream: m outside 1..max_m"};
    if ((reinterpret_cast<uintptr_t>(a.x) | reinterpret_cast<uintptr_t>(a.y)) % 16 != 0)
      return {StatusCode::invalid_argument, "router_hilo_stream: x and y must be 16-byte aligned"};
    const dim3 grid(unsigned(spec_.k / v_.bk), unsigned(a.n_out / v_.bn), 1);
    if (v_.zw)  // one kernel: y zeroed inside by the zero warps (kernels/splitk_zero_warp.cuh)
      return zero_warp::launch_cooperative("router_hilo_stream_kernel launch", grid, dim3(threads()),
                                              std::size_t(v_.smem(a.m)), a.stream, v_.fn,
                                              static_cast<const __nv_bfloat16*>(a.x), packed_,
                                              static_cast<float*>(a.y), a.m, int(a.n_out), int(spec_.k),
                                              flags_.as<unsigned>());
    // zero y, then the compute kernel as its programmatic dependent (kernels/router_splitk_pdl.cuh)
    return launch_zeroed_splitk("router_hilo_stream_kernel launch", static_cast<float*>(a.y), int64_t(a.m) * a.n_out,
                                grid, dim3(threads()), std::size_t(v_.smem(a.m)), a.stream, v_.fn,
                                static_cast<const __nv_bfloat16*>(a.x), packed_,
                                static_cast<float*>(a.y), a.m, int(a.n_out), int(spec_.k),
                                static_cast<unsigned*>(nullptr));
  }

 private:
  int threads() const { return kThreads + 32 * v_.zw; }

  ProjectionSpec spec_;
  Variant v_;
  int max_m_;
  std::shared_ptr<SharedLayouts> layouts_;  // holds packed_ (router_hilo_packed)
  const uint8_t* packed_ = nullptr;         // W's hi / lo fragments (router_hilo_pack.cuh)
  DeviceBuffer flags_;  // zw1 only: ready[N / BN], count[N / BN], zero between calls
};

std::vector<Config> stream_configs() {
  return {
      // M 1..32: 16 rows x 1024 K per block (128 blocks, 64 KB of W each in registers), 8 splits:
      // fewest atomics per output (M = 1: 6.1 us vs 6.7-7.1 for the 32-split tiles, runs 3-4).
      Config{"router_hilo_stream", {{"kw", 8}, {"wn", 1}}},
      // M 33..256: 64 rows x 256 K (32 splits, 128 blocks): x re-read only N/64 = 4 times
      // (x traffic 4 x M x 16 KB instead of 16 x M x 16 KB): M = 256 16.2 us vs 21.9 for kw8.wn1.
      Config{"router_hilo_stream", {{"kw", 8}, {"wn", 4}}},
      // The same two tiles in one kernel (zw1): a ninth warp zeroes y's block (K split 0) or waits
      // for it (the other splits) while the compute warps stream their weights, so neither the PDL
      // zero kernel (~1.1 us at every M) nor session 4's zf1 flag work sits on the critical path
      // (kernels/splitk_zero_warp.cuh). Measured (ledger E-zw): -0.56..-0.92 us at every M.
      Config{"router_hilo_stream", {{"kw", 8}, {"wn", 1}, {"zw", 1}}},
      Config{"router_hilo_stream", {{"kw", 8}, {"wn", 4}, {"zw", 1}}},
      // E27: 32 rows x 256 K per block, 256 blocks at two per SM (cooperative: all resident), 32
      // splits like kw8.wn4 but half the W registers per block. Measured (ledger E27, 100 pairs):
      // M 8 / 16 / 32 4.80 / 5.02 / 5.68 us vs kw8.wn4.zw1 5.25 / 5.66 / 5.98; loses from M 48
      // (7.62 vs 6.91 at M 64: too few registers left for the token groups). The plan runs it at
      // M 4..32.
      Config{"router_hilo_stream", {{"kw", 4}, {"wn", 2}, {"zw", 1}}},
      // E73 / E75 (session 21): 32 rows x 512 K per block, 128 blocks at one per SM, 16 splits:
      // half of kw4.wn2's atomics per output (M 32: 16 x 32 x 256 fp32 adds instead of 32 x) with
      // the same 64 KB of W in flight per SM (run 3 had dropped it with the PDL zero kernel, zw0).
      // Same binary against kw4.wn2.zw1, 200 pairs: M 8 / 12 / 16 / 20 / 24 / 32 +2.3..+3.5 /
      // +1.2 / +1.2..+3.4 / +4.0 / +3.7 / +3.9 % (4.90 vs 5.02 us at M 8); the plan's at M 4..32
      // since run X.
      Config{"router_hilo_stream", {{"kw", 8}, {"wn", 2}, {"zw", 1}}},
      // E93 (session 29): the plan's two tiles with the lean x loader (kernel template XL = 1: each
      // thread's first x source and destination formed once, stepped by whole token rows). Same
      // binary, 200 pairs, paired ratio: kw8.wn4 +3.5 / +2.3 / +3.5 % at M 33 / 48 / 64; kw8.wn2 +1.6
      // / -0.9 / +0.1 / -2.9 / +2.4 % at M 4 / 8 / 16 / 24 / 32. Plan Z8 runs them at M 32 and 33..64.
      Config{"router_hilo_stream", {{"kw", 8}, {"wn", 2}, {"zw", 1}, {"xl", 1}}},
      Config{"router_hilo_stream", {{"kw", 8}, {"wn", 4}, {"zw", 1}, {"xl", 1}}},
  };
}

std::string stream_applicable(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi, const DeviceInfo& dev) {
  const Variant v = pick_variant(cfg);
  if (!v.fn)
    return "router_hilo_stream: unknown tile (kw8.wn1 or kw8.wn4 with zw 0 or 1, kw4.wn2 or kw8.wn2 with zw1; "
           "xl1 with kw8.wn2.zw1 or kw8.wn4.zw1)";
  if (spec.weight_dtype != DType::f32 || spec.out_dtype != DType::f32 || spec.x_dtype != DType::bf16)
    return "router_hilo_stream: needs fp32 weights, fp32 output, bf16 x";
  if (spec.n % v.bn != 0 || spec.slice_max_m > 0) return "router_hilo_stream: N % (16*wn) != 0 or sliced output";
  if (spec.k % v.bk != 0) return "router_hilo_stream: K % (16*kw*(8/wn)) != 0";
  if (spec.k > (int64_t(1) << 30) / spec.n) return "router_hilo_stream: N*K too large for 32-bit tile offsets";
  if (m_lo < 1 || m_hi < m_lo) return "router_hilo_stream: empty M range";
  if (dev.cc_major != 9) return "router_hilo_stream: needs sm_90 (PDL, red.global.add.v4.f32)";
  if (std::size_t(v.smem(m_hi)) > dev.smem_per_block_optin)
    return "router_hilo_stream: x token-group smem exceeds the device opt-in limit";
  return "";
}

std::unique_ptr<PreparedMethod> stream_prepare(const PrepareContext& ctx, const Config& cfg) {
  return std::make_unique<RouterHiloStream>(ctx, cfg);
}

}  // namespace

extern const KernelFamily kRouterHiloStream = {
    "router_hilo_stream",
    "router any M: hi/lo bf16 A fragments loaded once into registers, x token groups in smem, mma.sync, "
    "split-K by red.v4 atomics into y zeroed by a PDL kernel (zw0) or an in-kernel zero warp (zw1)",
    stream_configs, stream_applicable, stream_prepare};

}  // namespace projkit
