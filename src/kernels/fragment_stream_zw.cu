// fragment_stream_zw: dense bf16 projections for a few tokens (M 1..16) as router_hilo_stream's
// register stream over a packed copy of the rows the call returns, above all the unpooler's
// 1024-row slice (M <= 8, 8 MB).
// Regime: M <= 16 where the call is a weight stream of a few MB. The router streams its 8 MB
//   (hi / lo fragments, router_hilo_stream.kw8.wn2.zw1) 0.5 us faster than kperm_splitk_zw
//   streams the slice's 8 MB of row-major W (run Z8b: 1.21 against 1.35x the floor at M 8), and
//   the slice's x route is not the difference (E94b). This family is that stream with bf16 W and
//   y: what is left to differ is the W layout (ledger E95). Measured against kperm_splitk_zw
//   under two plans that prepare the same methods (E95, P30): +4.2..+7.4 % in time at M 3..8, so
//   plan Z9 runs kw16.wn4 there; at M 1 gemv_stream stays 6.5 % ahead, at M 2 a tie (E95b).
// Mechanism: W rows [0, n_pack) packed once in prepare() into mma.sync A-fragment order
//   (kernels/fragment_pack.cuh: 512 contiguous bytes per 16-row x k16 tile, a tile's k16 steps
//   contiguous). Each warp owns one 16-row tile x KW k16 steps and loads those fragments (KW x
//   16 B per lane, ld.global.nc L1::no_allocate) straight into registers, all issued at kernel
//   start after the block's x rows (cp.async into padded smem, tokens >= m zero-filled; tokens come
//   in groups of 8, and at m 9..16 a second group re-stages x and reuses the W registers), so a
//   block keeps 4*KW KB of W in flight with no pipeline for W. y^T += W * x^T
//   on mma.sync m16n8k16 (fp32 accumulate, two chains). The 8/WN warps along K of a block are
//   summed in smem in fixed order; the K / BK blocks along grid.x add their bf16-rounded partials
//   with red.global.add.v4.bf16x2 into y, zeroed inside the call by a ninth warp with no loads of
//   its own (kernels/splitk_zero_warp.cuh, as kperm_splitk_zw). At most 8 adds per output (E66).
// Concurrency: peers spin on each other, so the grid is launched cooperatively; flags are owned by
//   the prepared method and reset by the last peer of every call (graph replay, two Projections
//   on two streams). The order of the adds to one output is not fixed. NaN/Inf propagate.
// Constraints: bf16 W / x / y; sm_90; m in 1..16; K % BK == 0 with K / BK <= 8; out_cols(m) %
//   (16*WN) == 0; the grid (K / BK x out_cols / BN) resident at once; x and y 16-byte aligned.
//   The packed copy costs n_pack * K * 2 bytes (n_pack = the most rows a served m returns).
#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/method.hpp"
#include "kernels/fragment_pack.cuh"
#include "kernels/ptx.cuh"
#include "kernels/splitk_zero_warp.cuh"

namespace projkit {
namespace {

constexpr int kWarps = 8;           // compute warps (the zero warp is the ninth)
constexpr int kThreads = kWarps * 32;
constexpr int kComputeBarrier = 2;  // named barrier of the compute warps (3, 4: the zero warp's)
constexpr int kGroup = 8;           // tokens per group: one n8 tile (the B operand)
constexpr int kMaxTokens = 16;      // two groups (the slice needs one)
constexpr int kMaxSplit = 8;        // bf16 adds per output (E66: 16 missed 1e-2)

// KW: k16 steps per warp held in registers (KW uint4 of W per lane, all loaded at start);
// WN: 16-row tiles per block (one per warp column; 8/WN warps split the block's K range).
template <int KW, int WN>
struct Shape {
  static_assert(KW == 16, "KW: 16 k16 steps per warp (8 KB of W per warp; KW 8 measured 7-21 % slower, E95)");
  static_assert(WN == 2 || WN == 4, "WN: 2 or 4 warp columns (8/WN warps along K)");
  static constexpr int kWarpsK = kWarps / WN;  // warps along K
  static constexpr int BN = 16 * WN;           // W rows (outputs) per block
  static constexpr int BK = 16 * KW * kWarpsK; // K columns per block (= per split)
  static constexpr int kXRow = (BK + 8) * 2;   // smem bytes per x row: +16 B so the B-fragment LDS.32 of
                                               // (8 tokens x 4 tq) hit 32 distinct banks
  static constexpr int kC = BK / 8;            // 16-byte chunks per x row
  static constexpr int kRowStep = kThreads / kC;  // x rows per pass of the loader
  static constexpr int kSmem = kGroup * kXRow + kWarpsK * kGroup * BN * 4;  // x rows + fp32 partials [wk][t][BN]
  static_assert(kThreads % kC == 0 && kRowStep >= 1 && 8 % kRowStep == 0,
                "a loader pass covers whole x rows, and 8-row groups are whole passes");
  static_assert(BN % 8 == 0, "outputs come in 16-byte bf16 runs (adds and zeros)");
};

// grid = (K / BK, n_out / BN): blockIdx.x = K split, blockIdx.y = row block (the zero warp's
// output block). x [m, k], wp packed [n_pack / 16][k / 16][32] uint4, y [m, n_out] bf16;
// flags = ready[row blocks], count[row blocks], zero on entry and on exit.
template <int KW, int WN>
__global__ void __launch_bounds__(kThreads + 32, 1)
    fragment_stream_zw_kernel(const __nv_bfloat16* __restrict__ x, const uint4* __restrict__ wp,
                              __nv_bfloat16* __restrict__ y, int m, int n_out, int k, unsigned* __restrict__ flags) {
  using S = Shape<KW, WN>;
  extern __shared__ __align__(16) uint8_t smem[];
  const int tid = int(threadIdx.x), warp = tid >> 5, lane = tid & 31;
  const int row0 = int(blockIdx.y) * S::BN;
  if (warp == kWarps) {  // the zero warp: y[0..m) x [row0, row0 + BN)
    zero_warp::zero_warp_run(blockIdx.x == 0, y, n_out, m, row0, S::BN, flags, int(gridDim.y), int(blockIdx.y),
                             gridDim.x - 1, lane, kThreads);
    return;
  }
  const int g = lane >> 2, tq = lane & 3;  // mma fragment coordinates
  const int wn = warp % WN, wk = warp / WN;
  const int k0 = int(blockIdx.x) * S::BK;

  // x rows [t0, t0 + rr) x [k0, k0 + BK) of a token group -> smem, zeros past m;
  // each thread's first source and destination formed once, stepped by whole rows.
  auto load_x = [&](int t0, int rr) {
    const int c = tid % S::kC, tr = tid / S::kC;
    const __nv_bfloat16* src = x + int64_t(t0 + tr) * k + k0 + c * 8;
    uint32_t d = ptx::smem_addr(smem + tr * S::kXRow + c * 16);
    const int64_t step = int64_t(S::kRowStep) * k;
    for (int t = tr; t < rr; t += S::kRowStep, src += step, d += S::kRowStep * S::kXRow) {
      const bool live = t0 + t < m;
      ptx::cp_async_zfill16(d, live ? src : x, live ? 16 : 0);
    }
    ptx::cp_async_commit();
  };
  // 1. The first group's x, issued first so it is not queued behind the weight loads (E91).
  const int ngroups = (m + kGroup - 1) / kGroup;  // 1 at the slice's m; also a loop so that ptxas keeps
                                                  // the W loads below ahead of the cp.async wait (E94:
                                                  // sunk below a straight-line wait, -30 %)
  load_x(0, min(kGroup, (m + 7) & ~7));

  // 2. This warp's KW fragments: 16-row tile blockIdx.y * WN + wn, k16 steps k0 / 16 + wk * KW + s.
  uint4 wf[KW];
  {
    const uint4* base = wp + (int64_t(blockIdx.y * WN + wn) * (k / 16) + k0 / 16 + wk * KW) * 32 + lane;
#pragma unroll
    for (int s = 0; s < KW; ++s) wf[s] = ptx::ld_stream(base + s * 32);
  }

  float* red = reinterpret_cast<float*>(smem + kGroup * S::kXRow);  // [wk][t][BN]
  for (int grp = 0; grp < ngroups; ++grp) {
    const int t0 = grp * kGroup, mt = min(kGroup, m - t0);
    if (grp > 0) {  // the previous group's x and partials are read: refill
      ptx::bar_sync_named(kComputeBarrier, kThreads);
      load_x(t0, (mt + 7) & ~7);
    }
    ptx::cp_async_wait<0>();
    ptx::bar_sync_named(kComputeBarrier, kThreads);  // x visible to every compute warp

    // 3. acc[h]: chain h (k16 steps of parity h: ILP at one token tile). C fragment: c0 (row g,
    //    token 2tq), c1 (g, 2tq+1), c2 (g+8, 2tq), c3 (g+8, 2tq+1).
    float acc[2][4];
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[h][e] = 0.f;
#pragma unroll
    for (int s = 0; s < KW; ++s) {  // B fragment (16 k x 8 tokens): token g, k = kcol..+1, kcol+8..+9
      const int kcol = (wk * KW + s) * 16 + 2 * tq;
      const uint8_t* p = smem + g * S::kXRow + kcol * 2;
      const uint32_t b0 = *reinterpret_cast<const uint32_t*>(p);
      const uint32_t b1 = *reinterpret_cast<const uint32_t*>(p + 16);
      ptx::mma_bf16_16816(acc[s & 1], wf[s], b0, b1);
    }

    // 4. Warp partials -> red[wk][t][n_local] (token-major: a token's outputs contiguous).
    {
      float* rw = red + wk * kGroup * S::BN;
      const int nl = wn * 16 + g, t = 2 * tq;
      rw[t * S::BN + nl] = acc[0][0] + acc[1][0];
      rw[(t + 1) * S::BN + nl] = acc[0][1] + acc[1][1];
      rw[t * S::BN + nl + 8] = acc[0][2] + acc[1][2];
      rw[(t + 1) * S::BN + nl + 8] = acc[0][3] + acc[1][3];
    }
    ptx::bar_sync_named(kComputeBarrier, kThreads);     // every partial written
    if (grp == 0) zero_warp::wait_for_zero_warp(kThreads);  // y's block zeroed and visible

    // 5. Sum over the warps along K in fixed order; one bf16x8 add per 8 outputs.
    constexpr int kRuns = S::BN / 8;
    for (int i = tid; i < mt * kRuns; i += kThreads) {
      const int t = i / kRuns, run = i % kRuns;
      const uint4 v = zero_warp::sum_partials_bf16x8<S::kWarpsK>(red + t * S::BN + 8 * run, kGroup * S::BN);
      ptx::red_add_bf16x8(y + int64_t(t0 + t) * n_out + row0 + 8 * run, v);
    }
  }
}

using Kernel = void (*)(const __nv_bfloat16*, const uint4*, __nv_bfloat16*, int, int, int, unsigned*);

// One compiled tile: its kernel and sizes (one CTA per SM: the grid is sized to sm_count).
struct Tile {
  int kw = 0, wn = 0;
  Kernel kernel = nullptr;
  int smem = 0, bk = 0, bn = 0;
};

template <int KW, int WN>
Tile make_tile() {
  using S = Shape<KW, WN>;
  return {KW, WN, fragment_stream_zw_kernel<KW, WN>, S::kSmem, S::BK, S::BN};
}

// The compiled tiles (configs() lists exactly these). At the slice (1024 x 4096):
Tile pick_tile(int kw, int wn) {
  if (kw == 16 && wn == 2) return make_tile<16, 2>();  // 32 x 1024: 32 row blocks x 4 splits = 128 CTAs, one
                                                       // per SM, 64 KB of W each (router kw8.wn2's bytes)
  if (kw == 16 && wn == 4) return make_tile<16, 4>();  // 64 x 512: 16 x 8 splits = 128 CTAs, one per SM
  return {};
}
Tile pick_tile(const Config& cfg) { return pick_tile(cfg.get("kw", 0), cfg.get("wn", 0)); }

// "" if `t` runs m rows of spec on this device, else the reason.
std::string tile_error(const ProjectionSpec& spec, const Tile& t, int m, int sm_count) {
  if (m < 1 || m > kMaxTokens) return "m must be in 1..16 (two token groups)";
  if (spec.k % t.bk != 0) return "K % (16*kw*(8/wn)) != 0";
  if (spec.k / t.bk > kMaxSplit) return "K / (16*kw*(8/wn)) > 8 bf16 adds per output";
  const int64_t n_out = spec.out_cols(m);
  if (n_out % t.bn != 0) return "out_cols(" + std::to_string(m) + ") % (16*wn) != 0";
  if ((spec.k / t.bk) * (n_out / t.bn) > int64_t(sm_count))
    return "the grid at m=" + std::to_string(m) + " (K / BK x out_cols / BN CTAs) exceeds one wave";
  return "";
}

class FragmentStreamZw final : public PreparedMethod {
 public:
  FragmentStreamZw(const PrepareContext& ctx, const Tile& t)
      : spec_(ctx.spec), t_(t), max_m_(std::min(ctx.max_m, kMaxTokens)) {
    // The rows the served m return: the method's ranges, else 1..max_m (m above 16 is refused).
    for (int m = 1; m <= max_m_; ++m) {
      bool served = ctx.m_ranges.empty();
      for (const auto& [lo, hi] : ctx.m_ranges) served = served || (m >= lo && m <= hi);
      if (!served) continue;
      const std::string err = tile_error(spec_, t_, m, ctx.dev.sm_count);
      if (!err.empty()) throw Error(StatusCode::unsupported, "fragment_stream_zw: " + err);
      n_pack_ = std::max(n_pack_, spec_.out_cols(m));
    }
    if (n_pack_ == 0) throw Error(StatusCode::unsupported, "fragment_stream_zw: serves no m in 1..16");
    cuda_check(cudaFuncSetAttribute(t_.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, t_.smem),
               "fragment_stream_zw: cudaFuncSetAttribute(smem)");
    const std::string err = zero_warp::grid_fits_one_wave(t_.kernel, kThreads + 32, std::size_t(t_.smem),
                                                          (spec_.k / t_.bk) * (n_pack_ / t_.bn), ctx.dev.sm_count);
    if (!err.empty()) throw Error(StatusCode::unsupported, "fragment_stream_zw: " + err);
    flags_ = DeviceBuffer(2 * std::size_t(n_pack_ / t_.bn) * sizeof(unsigned));  // ready[], count[]
    cuda_check(cudaMemset(flags_.get(), 0, flags_.bytes()), "fragment_stream_zw: zero the flags");
    packed_ = shared_layout(ctx, layouts_, "a_fragments.rows" + std::to_string(n_pack_), [&] {
                DeviceBuffer b(std::size_t(n_pack_) * std::size_t(spec_.k) * 2);
                pack_a_fragments(static_cast<const __nv_bfloat16*>(ctx.w), b, n_pack_, spec_.k, ctx.dev.sm_count);
                return b;
              }).as<const uint4>();
  }

  Status run(const RunArgs& a) const override {
    if (a.m < 1 || a.m > max_m_) return {StatusCode::invalid_argument, "fragment_stream_zw: m outside 1..max_m (<= 16)"};
    if (a.n_out % t_.bn != 0 || a.n_out > n_pack_)
      return {StatusCode::invalid_argument, "fragment_stream_zw: n_out % (16*wn) != 0 or n_out > the packed rows"};
    if ((reinterpret_cast<uintptr_t>(a.x) | reinterpret_cast<uintptr_t>(a.y)) % 16 != 0)
      return {StatusCode::invalid_argument, "fragment_stream_zw: x and y must be 16-byte aligned"};
    const dim3 grid(unsigned(spec_.k / t_.bk), unsigned(a.n_out / t_.bn), 1);
    return zero_warp::launch_cooperative("fragment_stream_zw_kernel launch", grid, dim3(kThreads + 32),
                                         std::size_t(t_.smem), a.stream, t_.kernel,
                                         static_cast<const __nv_bfloat16*>(a.x), packed_,
                                         static_cast<__nv_bfloat16*>(a.y), a.m, int(a.n_out), int(spec_.k),
                                         flags_.as<unsigned>());
  }

 private:
  ProjectionSpec spec_;
  Tile t_;
  int max_m_;
  int64_t n_pack_ = 0;                      // packed W rows
  std::shared_ptr<SharedLayouts> layouts_;  // holds packed_
  const uint4* packed_ = nullptr;           // rows [0, n_pack) in A-fragment order (fragment_pack.cuh)
  DeviceBuffer flags_;                      // ready[n_pack / BN], count[n_pack / BN], zero between calls
};

// E95 (session 30, call 1, one-method processes, so times compare among these tiles only, P30):
// kw16.wn2 -0.8..+5.5 % slower than kw16.wn4 at the slice's M 3..8; kw8.wn2 (32 x 512, 256 CTAs at
// two per SM) 7-10 % and kw8.wn1 (16 x 1024, 256 CTAs) 15-21 % slower, removed (code in 1735914).
std::vector<Config> zw_configs() {
  return {
      // The router's kw8.wn2 bytes per warp and grid at the slice: 4 K splits.
      Config{"fragment_stream_zw", {{"kw", 16}, {"wn", 2}}},
      // 64 rows x 512 K: x shared by 4 warp columns, 8 K splits, one CTA per SM. Plan Z9's at the
      // slice's M 3..8.
      Config{"fragment_stream_zw", {{"kw", 16}, {"wn", 4}}},
  };
}

std::string zw_applicable(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi, const DeviceInfo& dev) {
  const Tile t = pick_tile(cfg);
  if (!t.kernel) return "fragment_stream_zw: " + cfg.name() + " is not a compiled tile (kw16.wn2, kw16.wn4)";
  if (spec.weight_dtype != DType::bf16 || spec.x_dtype != DType::bf16 || spec.out_dtype != DType::bf16)
    return "fragment_stream_zw: needs bf16 weights, activations and output";
  if (dev.cc_major != 9) return "fragment_stream_zw: needs sm_90 (red.global.add.v4.bf16x2)";
  if (spec.k > (int64_t(1) << 30) || spec.n > (int64_t(1) << 30)) return "fragment_stream_zw: N, K must fit in int";
  if (m_lo < 1 || m_hi < m_lo) return "fragment_stream_zw: empty M range";
  for (int m = m_lo; m <= m_hi; ++m) {
    const std::string err = tile_error(spec, t, m, dev.sm_count);
    if (!err.empty()) return "fragment_stream_zw: " + err;
  }
  if (std::size_t(t.smem) > dev.smem_per_block_optin) return "fragment_stream_zw: x rows exceed the opt-in smem";
  return "";
}

std::unique_ptr<PreparedMethod> zw_prepare(const PrepareContext& ctx, const Config& cfg) {
  const Tile t = pick_tile(cfg);
  if (!t.kernel) throw Error(StatusCode::unsupported, "fragment_stream_zw: tile not compiled");
  return std::make_unique<FragmentStreamZw>(ctx, t);
}

// weight_copies = false (copy_free_method): the same kind of register stream over W in place,
// kperm_splitk_zw's tile the slice ran before plan Z9 (E72), or the baseline where it does not apply.
std::string zw_copy_free(const ProjectionSpec& spec, const Config&, int m_lo, int m_hi, const DeviceInfo& dev) {
  const std::string twin = "kperm_splitk_zw.wr4.wk2.u8";
  return method_applicability(spec, twin, m_lo, m_hi, dev).empty() ? twin : "baseline";
}

}  // namespace

extern const KernelFamily kFragmentStreamZw = {
    "fragment_stream_zw",
    "router_hilo_stream's register stream for bf16 W: a packed copy of the returned rows in A-fragment order loaded "
    "once into registers, x in smem, mma.sync, split-K by bf16x2 atomics into a y zeroed by an in-kernel zero warp",
    zw_configs, zw_applicable, zw_prepare, zw_copy_free};

}  // namespace projkit
