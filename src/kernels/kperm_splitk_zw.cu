// kperm_splitk_zw: dense bf16 projections for a few tokens (M 1..16) as kperm_stream_mma's
// K-permuted register stream, with K split across the CTAs of a one-wave cooperative grid and
// the partials added into y, which a zero warp of the same kernel zeroes.
// Regime: M <= 16 where the call is a weight stream of a few MB, above all the unpooler's
//   1024-row slice (M <= 8, 8 MB). kperm_stream_mma gives each CTA whole rows and no split, so
//   every CTA (8 rows) reads all of x (8 MB of x loads per call at M = 8 besides the 8 MB of W)
//   and runs two rounds of loads per warp; router_hilo_stream streams the router's 8 MB with K
//   split 32 ways over 256 CTAs, one round of loads per warp and a zero warp, 0.9 us faster at
//   M = 8 (run V2: 4.70 against the slice's 5.57 us). This family is the router's geometry for
//   bf16 W without a packed copy (ledger E72).
// Mechanism: kperm_stream_mma's K permutation (kernels/kperm_fragments.cuh): per 32-wide K chunk
//   a lane loads 16 bytes of one W row (the n8 B operand: 8 W rows) and 16 bytes of x per token
//   g, g + 8 (the m16 A operand; tokens >= m are zeros), and two mma.sync m16n8k16 consume them:
//   W is read in place (no re-layout).
//   A CTA owns 8*WR rows x one K range of K / split columns; its WK warps along K each stream
//   their share, U chunks in flight (W: ld.global.nc L1::no_allocate + L2 evict-first; x: the
//   L1-cached read-only path, shared by the WR row warps), and are summed in smem in fixed order.
//   The K splits of a row block add their bf16-rounded partials with red.global.add.v4.bf16x2
//   into y; y's block is zeroed inside the call by a ninth warp that has no loads of its own
//   (kernels/splitk_zero_warp.cuh, owner protocol: K split 0 zeroes and publishes, the others
//   wait and check out; flags owned by the prepared method, reset by the last peer of every
//   call), so the compute warps' first add waits on a named barrier, never on a second kernel.
//   split: the most of {8, 4, 2} whose grid (row blocks x split) fits two CTAs per SM and whose
//   K range is whole rounds of loads (splits_for below; the host picks it per call from n_out).
// Concurrency: peers spin on each other, so the grid is launched cooperatively (resident at
//   once or a launch error); CUDA-graph replays find the flags zero; two Projections own separate
//   flags. The order of the bf16 adds to one output is not fixed (last bits may differ between
//   calls; at most 8 adds per output: E66's 16 missed 1e-2 at m = 1). NaN/Inf propagate.
// Constraints: bf16 W / x / y; sm_90 (bf16x2 vector atomics); m in 1..16; split >= 2 exists for
//   every m (K % (2 * 32 * WK * U) == 0 and n_out / (8*WR) <= sm_count); out_cols(m) % (8*WR)
//   == 0; x and y 16-byte aligned, n_out % 8 == 0 (16-byte bf16 runs for the adds and zeros).
#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/method.hpp"
#include "kernels/kperm_fragments.cuh"  // the K permutation: kperm::mma_chunk, kperm::kChunkK
#include "kernels/ptx.cuh"
#include "kernels/splitk_zero_warp.cuh"

namespace projkit {
namespace {

using kperm::kChunkK;
constexpr int kMaxTokens = 16;     // m16 A operand: tokens g and g + 8
constexpr int kMaxSplit = 8;       // bf16 adds per output (E66: 16 missed 1e-2)
constexpr int kCtasPerSm = 2;      // the grid is sized for (and the kernel bounded to) two per SM
constexpr int kComputeBarrier = 2;  // named barrier of the compute warps (3, 4: the zero warp's)

// TOK: token capacity (8 or 16): x loads per lane per chunk = TOK / 8.
// WR:  warps along W rows, one n8 tile (8 rows) each: the CTA owns 8*WR rows (x shared in L1).
// WK:  warps along the CTA's K range, summed in smem in fixed order.
// U:   chunks per round of loads (the K a warp covers per round); in flight per warp: U chunks
//      at TOK 8, and U / 2 at TOK 16 with U = 8 (16 tokens double the x loads per chunk: the
//      buffer then stays in registers at two CTAs per SM, no spills).
template <int TOK, int WR, int WK, int U>
struct Shape {
  static_assert(TOK == 8 || TOK == 16, "TOK: 8 or 16 tokens (one m16 A tile)");
  static_assert(WR >= 1 && WK >= 1 && WR * WK >= 2 && WR * WK <= 16, "2..16 compute warps");
  static_assert(U == 4 || U == 8, "U: 4 or 8 chunks in flight");
  static constexpr int kDepth = TOK == 16 && U == 8 ? U / 2 : U;  // chunks in flight per warp
  static constexpr int kComputeWarps = WR * WK;
  static constexpr int kComputeThreads = 32 * kComputeWarps;
  static constexpr int kThreads = kComputeThreads + 32;  // + the zero warp
  static constexpr int kRows = 8 * WR;                    // W rows (outputs) per CTA
  static constexpr int kXLoads = TOK / 8;
  static constexpr int kRoundK = WK * U * kChunkK;        // K per CTA per round of loads
  static constexpr int kRuns = kRows / 8;                 // 16-byte bf16 runs per token row
  static constexpr int kRedFloats = WK * TOK * kRows;     // smem partials [wk][token][row]
  static_assert(kRows % 8 == 0, "rows come in 16-byte bf16 runs (adds and zeros)");
  static_assert(kRedFloats * 4 <= 48 * 1024, "partials must fit static smem");
};

// grid = (split, n_out / kRows): blockIdx.x = K split, blockIdx.y = row block (the zero warp's
// output block). x [m, k], w [>= n_out, k], y [m, n_out] bf16 row-major; flags = ready[row
// blocks], count[row blocks], zero on entry and on exit.
template <int TOK, int WR, int WK, int U>
__global__ void __launch_bounds__(Shape<TOK, WR, WK, U>::kThreads, kCtasPerSm)
    kperm_splitk_zw_kernel(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ w,
                           __nv_bfloat16* __restrict__ y, int m, int n_out, int k, unsigned* __restrict__ flags) {
  using S = Shape<TOK, WR, WK, U>;
  __shared__ __align__(16) float red[S::kRedFloats];

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int row0 = int(blockIdx.y) * S::kRows;  // first W row / output column of the block
  if (warp == S::kComputeWarps) {  // the zero warp: y[0..m) x [row0, row0 + kRows)
    zero_warp::zero_warp_run(blockIdx.x == 0, y, n_out, m, row0, S::kRows, flags, int(gridDim.y),
                             int(blockIdx.y), gridDim.x - 1, lane, S::kComputeThreads);
    return;
  }
  const int wr = warp % WR, wk = warp / WR;
  const int g = lane >> 2, t = lane & 3;
  const int kc = k / int(gridDim.x);  // the CTA's K range
  const int kw = kc / WK;             // this warp's share of it
  const int nch = kw / kChunkK;       // chunks per warp: whole rounds of U (host), so of kDepth too
  constexpr int D = S::kDepth;
  const std::size_t kofs = std::size_t(blockIdx.x) * kc + std::size_t(wk) * kw + 8 * t;
  const uint64_t pol = ptx::l2_evict_first_policy();
  const __nv_bfloat16* wp = w + std::size_t(row0 + 8 * wr + g) * k + kofs;
  const __nv_bfloat16* xp[S::kXLoads];
  bool xv[S::kXLoads];
#pragma unroll
  for (int q = 0; q < S::kXLoads; ++q) {  // token g + 8q; tokens >= m are never read (zeros)
    xv[q] = g + 8 * q < m;
    xp[q] = x + std::size_t(xv[q] ? g + 8 * q : 0) * k + kofs;
  }

  uint4 wb[D], xb[D][S::kXLoads];  // chunk c lives in slot c % D
  auto load = [&](int c, int slot) {
    const std::size_t off = std::size_t(c) * kChunkK;
    wb[slot] = ptx::ld_stream_hint(wp + off, pol);
#pragma unroll
    for (int q = 0; q < S::kXLoads; ++q)
      xb[slot][q] = xv[q] ? __ldg(reinterpret_cast<const uint4*>(xp[q] + off)) : make_uint4(0u, 0u, 0u, 0u);
  };
#pragma unroll
  for (int u = 0; u < D; ++u) load(u, u);

  float acc[4] = {0.f, 0.f, 0.f, 0.f};  // {token g, g + 8} x {W rows row0 + 8wr + 2t, + 1}
  for (int c0 = 0; c0 < nch; c0 += D) {
#pragma unroll
    for (int u = 0; u < D; ++u) {
      const uint4 lo = xb[u][0];                                                     // token g
      const uint4 hi = S::kXLoads > 1 ? xb[u][S::kXLoads - 1] : make_uint4(0u, 0u, 0u, 0u);  // g + 8
      kperm::mma_chunk(acc, lo, hi, wb[u]);
      if (c0 + D + u < nch) load(c0 + D + u, u);
    }
  }

  // warp partials -> red[wk][token][row] (float2: rows 2t, 2t + 1 of the warp's n8 tile)
  {
    float* p = red + (wk * TOK + g) * S::kRows + 8 * wr + 2 * t;
    *reinterpret_cast<float2*>(p) = make_float2(acc[0], acc[1]);
    if constexpr (TOK == 16) *reinterpret_cast<float2*>(p + 8 * S::kRows) = make_float2(acc[2], acc[3]);
  }
  ptx::bar_sync_named(kComputeBarrier, S::kComputeThreads);  // every partial written
  zero_warp::wait_for_zero_warp(S::kComputeThreads);          // y's block zeroed and visible

  for (int i = threadIdx.x; i < m * S::kRuns; i += S::kComputeThreads) {
    const int tok = i / S::kRuns, run = i % S::kRuns;
    const uint4 v = zero_warp::sum_partials_bf16x8<WK>(red + tok * S::kRows + 8 * run, TOK * S::kRows);
    ptx::red_add_bf16x8(y + std::size_t(tok) * n_out + row0 + 8 * run, v);
  }
}

using Kernel = void (*)(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, int, int, int, unsigned*);

// The compiled shapes (configs() lists exactly these); TOK is picked per call from m.
struct ShapeId {
  int wr, wk, u;
};
// Measured at the slice against kperm_stream_mma.rt1.wr1.wk8.u8 (ledger E72, same binary, 200
// pairs, paired ratio at M 8 / 3): the more row warps share x, the faster.
constexpr ShapeId kShapes[] = {
    {4, 2, 8},  // 32 rows x 2 K warps: slice 32 row blocks x split 8 = 256 CTAs, one round of
                // loads per warp (the router's kw4.wn2 geometry: x shared by 4 row warps).
                // +9.5 / +4.7 % (5.06 vs 5.52 us at M 8): the plan's at the slice's M 3..8 since run W
    {2, 4, 8},  // 16 rows x 4 K warps: slice 64 x split 4 = 256 CTAs, one round. +2.6 / +0.6 %
    {1, 8, 8},  // 8 rows x 8 K warps (kperm rt1.wr1.wk8.u8's CTA): slice 128 x split 2, one round.
                // +1.1 / -0.4 % in ratio, slower in time (6.03 us at M 8)
    {4, 2, 4},  // the first with half the loads in flight: two rounds at the slice. -8.9 / -6.2 %
    {8, 1, 8},  // 64 rows x 1 K warp (no smem sum): slice 16 x split 8 = 128 CTAs, two rounds; o
                // (K = 1024) 128 x split 2. Slice +11.0 / +4.6 %, level with wr4.wk2.u8 (E74: -0.7..
                // +1.0 % at M 3..8); o M 1 / 8 / 16 -19 % against splitk_mma_l2
};

int shape_rows(const ShapeId& s) { return 8 * s.wr; }
int shape_threads(const ShapeId& s) { return 32 * (s.wr * s.wk + 1); }  // compute warps + the zero warp
int shape_round_k(const ShapeId& s) { return s.wk * s.u * kChunkK; }

// K splits of a call: the most of {8, 4, 2} whose grid (row blocks x split) fits kCtasPerSm
// CTAs per SM and whose K range is whole rounds of loads; 0 if there is none.
int splits_for(int64_t n_out, int64_t k, const ShapeId& s, int sm_count) {
  const int64_t blocks = n_out / shape_rows(s);
  for (int split = kMaxSplit; split >= 2; split /= 2)
    if (k % (int64_t(split) * shape_round_k(s)) == 0 && blocks * split <= int64_t(kCtasPerSm) * sm_count)
      return split;
  return 0;
}

template <int WR, int WK, int U>
Kernel pick_tok(int m) {
  return m <= 8 ? kperm_splitk_zw_kernel<8, WR, WK, U> : kperm_splitk_zw_kernel<16, WR, WK, U>;
}

Kernel select(const ShapeId& s, int m) {
  if (s.wr == 4 && s.wk == 2 && s.u == 8) return pick_tok<4, 2, 8>(m);
  if (s.wr == 2 && s.wk == 4 && s.u == 8) return pick_tok<2, 4, 8>(m);
  if (s.wr == 1 && s.wk == 8 && s.u == 8) return pick_tok<1, 8, 8>(m);
  if (s.wr == 4 && s.wk == 2 && s.u == 4) return pick_tok<4, 2, 4>(m);
  if (s.wr == 8 && s.wk == 1 && s.u == 8) return pick_tok<8, 1, 8>(m);
  return nullptr;
}

class KpermSplitkZw final : public PreparedMethod {
 public:
  KpermSplitkZw(const PrepareContext& ctx, const ShapeId& s)
      : spec_(ctx.spec), w_(ctx.w), s_(s), max_m_(ctx.max_m), sm_count_(ctx.dev.sm_count),
        flags_(2 * std::size_t(ctx.spec.n / shape_rows(s)) * sizeof(unsigned)) {
    for (int m : {1, 9}) {  // the two token capacities, where max_m reaches them
      if (m > max_m_) break;
      Kernel kern = select(s, m);
      if (!kern) throw Error(StatusCode::unsupported, "kperm_splitk_zw: shape not compiled");
      // splits_for sizes every grid to at most kCtasPerSm CTAs per SM: all of them must be resident.
      const std::string err = zero_warp::grid_fits_one_wave(kern, shape_threads(s), 0,
                                                            int64_t(kCtasPerSm) * sm_count_, sm_count_);
      if (!err.empty()) throw Error(StatusCode::unsupported, "kperm_splitk_zw: " + err);
    }
    cuda_check(cudaMemset(flags_.get(), 0, flags_.bytes()), "kperm_splitk_zw: zero the flags");
  }

  Status run(const RunArgs& a) const override {
    if (a.m < 1 || a.m > max_m_) return {StatusCode::invalid_argument, "kperm_splitk_zw: m outside 1..max_m"};
    const int rows = shape_rows(s_);
    if (a.n_out % rows != 0 || a.n_out % 8 != 0)
      return {StatusCode::invalid_argument, "kperm_splitk_zw: n_out % (8*wr) != 0 or n_out % 8 != 0"};
    if ((reinterpret_cast<uintptr_t>(a.x) | reinterpret_cast<uintptr_t>(a.y)) % 16 != 0)
      return {StatusCode::invalid_argument, "kperm_splitk_zw: x and y must be 16-byte aligned"};
    const int split = splits_for(a.n_out, spec_.k, s_, sm_count_);
    if (split < 2) return {StatusCode::invalid_argument, "kperm_splitk_zw: no K split of 2, 4 or 8 fits this n_out"};
    const dim3 grid(unsigned(split), unsigned(a.n_out / rows), 1);
    return zero_warp::launch_cooperative("kperm_splitk_zw_kernel launch", grid, dim3(shape_threads(s_)), 0,
                                         a.stream, select(s_, a.m), static_cast<const __nv_bfloat16*>(a.x),
                                         static_cast<const __nv_bfloat16*>(w_), static_cast<__nv_bfloat16*>(a.y), a.m,
                                         int(a.n_out), int(spec_.k), flags_.as<unsigned>());
  }

 private:
  ProjectionSpec spec_;
  const void* w_;
  ShapeId s_;
  int max_m_;
  int sm_count_;
  DeviceBuffer flags_;  // ready[N / rows], count[N / rows], zero between calls
};

std::vector<Config> zw_configs() {
  std::vector<Config> out;
  for (const ShapeId& s : kShapes)
    out.push_back(Config{"kperm_splitk_zw", {{"wr", s.wr}, {"wk", s.wk}, {"u", s.u}}});
  return out;
}

std::string zw_applicable(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi, const DeviceInfo& dev) {
  const ShapeId s{cfg.get("wr", 0), cfg.get("wk", 0), cfg.get("u", 0)};
  if (!select(s, 1)) return "kperm_splitk_zw: " + cfg.name() + " is not a compiled shape";
  if (spec.weight_dtype != DType::bf16 || spec.x_dtype != DType::bf16 || spec.out_dtype != DType::bf16)
    return "kperm_splitk_zw: needs bf16 weights, activations and output";
  if (dev.cc_major != 9) return "kperm_splitk_zw: needs sm_90 (red.global.add.v4.bf16x2)";
  if (m_lo < 1 || m_hi > kMaxTokens) return "kperm_splitk_zw: m must be in 1..16 (one m16 token tile)";
  if (spec.k > (int64_t(1) << 30) || spec.n > (int64_t(1) << 30)) return "kperm_splitk_zw: N, K must fit in int";
  for (int m = m_lo; m <= m_hi; ++m) {
    const int64_t n_out = spec.out_cols(m);
    if (n_out % shape_rows(s) != 0 || n_out % 8 != 0)
      return "kperm_splitk_zw: out_cols(" + std::to_string(m) + ") % (8*wr) != 0 or % 8 != 0";
    if (splits_for(n_out, spec.k, s, dev.sm_count) < 2)
      return "kperm_splitk_zw: no K split of 2, 4 or 8 with whole rounds (K % (split*32*wk*u)) and "
             "(out_cols(" + std::to_string(m) + ") / (8*wr)) * split <= 2 * sm_count";
  }
  return "";
}

std::unique_ptr<PreparedMethod> zw_prepare(const PrepareContext& ctx, const Config& cfg) {
  const ShapeId s{cfg.get("wr", 0), cfg.get("wk", 0), cfg.get("u", 0)};
  if (!select(s, 1)) throw Error(StatusCode::unsupported, "kperm_splitk_zw: shape not compiled");
  return std::make_unique<KpermSplitkZw>(ctx, s);
}

}  // namespace

extern const KernelFamily kKpermSplitkZw = {
    "kperm_splitk_zw",
    "kperm_stream_mma's K-permuted register stream with K split over a one-wave cooperative grid; bf16x2 "
    "atomics into a y zeroed by an in-kernel zero warp",
    zw_configs, zw_applicable, zw_prepare};

}  // namespace projkit
