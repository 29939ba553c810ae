// router_hilo_wgmma: the fp32 router (W fp32 [N, K], x bf16, y fp32) for M = 33..256 on
// Hopper wgmma.
// Regime: router_hilo_stream is mma.sync issue bound from M ~ 64 (M = 256: ~4100 m16n8k16 per
//   SM); one wgmma m64nTNk16 does the work of TN/8 m16n8k16 per warp (32 at TN = 256) in
//   one warpgroup instruction, so the tensor pipe, not the issue slots, sets the math time
//   (~2.2 us of tensor work at M = 256 over 128 SMs), and the call is again a weight stream
//   plus the x slice reads and the split-K atomics.
// Mechanism: W = hi + lo (bf16 each, the lossless split of router_hilo_pack.cuh: hi = bf16_rz(w),
//   lo = bf16_rn(w - hi) with the sign of hi, so Inf in x propagates as in the fp32 baseline),
//   packed once in prepare() in mma.sync A-fragment order, which is also the wgmma A register
//   fragment order. Per CTA 2 warpgroups x 64 W rows (wgmma M), TN >= m tokens (wgmma N, one
//   instantiation per 64-token step, picked per call), K range kc = K / split:
//   W fragments go global -> registers (2-deep ring of 64-K chunks), x slice -> 128B-swizzled
//   smem by cp.async, wgmma RS (A registers, B smem descriptor), fp32 accumulators.
//   K splits are combined with red.global.add.v4.f32 into y, zeroed by a tiny kernel of the
//   same call that the compute kernel follows as a programmatic dependent
//   (kernels/router_splitk_pdl.cuh, shared with router_hilo_stream). No global scratch.
//   Token slices (ts > 1, grid.z): the same 128 CTAs split M into ts slices instead of splitting
//   K further, so each output address takes K / kc red partials (16 instead of 32 at
//   split16.wgn1.ts2) while every slice re-reads its W range (mostly from L2); measured faster
//   from M ~ 112 (docs/experiments.md, "router_hilo_wgmma round 2").
//   Device code: router_hilo_wgmma.cuh.
// Constraints: fp32 W / y, bf16 x; sm_90a; N % (64*wgn) == 0; K % split == 0 and
//   (K / split) % (128 * 2/wgn) == 0; x and y 16-byte aligned (checked in run()); m in 1..256
//   (planned for 33..256; correct from 1); ts in 1..4; x slice TN * K/split * 2 B within the
//   opt-in smem, TN = the token tile of ceil(m / ts).
#include "kernels/router_hilo_wgmma.cuh"

#include <algorithm>
#include <cstdint>

#include "core/method.hpp"
#include "kernels/router_hilo_pack.cuh"
#include "kernels/router_splitk_pdl.cuh"

namespace projkit {
namespace {

using namespace router_wgmma;

constexpr int kMaxTokens = 256;   // largest wgmma N

using KernelFn = void (*)(const __nv_bfloat16*, const uint8_t*, float*, int, int, int, int, int);

// Tokens per CTA (the wgmma N) for a call with m tokens: the smallest instantiated tile >= m,
// so at most 63 padded token columns of tensor work.
int tile_tokens(int m) { return m <= 64 ? 64 : m <= 128 ? 128 : m <= 192 ? 192 : 256; }

KernelFn kernel_for(int tn) {
  switch (tn) {
    case 64: return router_hilo_wgmma_kernel<64>;
    case 128: return router_hilo_wgmma_kernel<128>;
    case 192: return router_hilo_wgmma_kernel<192>;
    case 256: return router_hilo_wgmma_kernel<256>;
    default: return nullptr;
  }
}

struct Tiling {
  int split = 0;  // K ranges (grid.x): fp32 partials per output combined by atomics
  int wgn = 0;    // 64-row tiles per CTA (2 warpgroups: wgn = 2 share x, wgn = 1 halve K)
  int ts = 1;     // token slices (grid.z): each CTA computes ceil(m / ts) tokens
  int kc(int64_t k) const { return split > 0 ? int(k / split) : 0; }
  int slice_tokens(int m) const { return (m + ts - 1) / ts; }
};

Tiling tiling_of(const Config& cfg) { return {cfg.get("split", 0), cfg.get("wgn", 0), cfg.get("ts", 1)}; }

// "" or the violated constraint (shared by applicable() and the constructor).
std::string tiling_error(const ProjectionSpec& spec, const Tiling& t) {
  if (t.wgn != 1 && t.wgn != 2) return "router_hilo_wgmma: wgn must be 1 or 2 (64-row tiles per CTA)";
  if (t.split < 1 || spec.k % t.split != 0) return "router_hilo_wgmma: K % split != 0";
  if (t.ts < 1 || t.ts > 4) return "router_hilo_wgmma: ts (token slices) must be 1..4";
  const int wgk = kWarpgroups / t.wgn;
  if (t.kc(spec.k) % (2 * kChunkK * wgk) != 0)
    return "router_hilo_wgmma: (K / split) % (128 * 2/wgn) != 0 (an even number of 64-K chunks per warpgroup)";
  if (spec.n % (kRows * t.wgn) != 0 || spec.slice_max_m > 0) return "router_hilo_wgmma: N % (64*wgn) != 0 or sliced output";
  if (spec.k > (int64_t(1) << 30) / spec.n) return "router_hilo_wgmma: N*K too large for 32-bit tile offsets";
  return "";
}

class RouterHiloWgmma final : public PreparedMethod {
 public:
  RouterHiloWgmma(const PrepareContext& ctx, const Config& cfg)
      : spec_(ctx.spec), t_(tiling_of(cfg)), max_m_(ctx.max_m) {
    const std::string err = tiling_error(spec_, t_);
    if (!err.empty()) throw Error(StatusCode::invalid_argument, err);
    if (max_m_ < 1 || max_m_ > kMaxTokens) throw Error(StatusCode::invalid_argument, "router_hilo_wgmma: max_m outside 1..256");
    // Every token tile a call up to max_m can pick gets its smem opt-in now, as far as the
    // x slice fits (a Projection prepares with its max_m even when the plan maps this method
    // to a smaller range; applicable() refuses ranges whose tile does not fit).
    for (int tn = 64; tn <= tile_tokens(t_.slice_tokens(max_m_)); tn += 64) {
      if (std::size_t(smem_bytes(tn, t_.kc(spec_.k))) > ctx.dev.smem_per_block_optin) break;
      cuda_check(cudaFuncSetAttribute(kernel_for(tn), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      smem_bytes(tn, t_.kc(spec_.k))),
                 "router_hilo_wgmma: cudaFuncSetAttribute(smem)");
      max_tn_ = tn;
    }
    packed_ = router_hilo_packed(ctx, layouts_);  // shared with the Projection's other readers
  }

  Status run(const RunArgs& a) const override {
    if (a.m < 1 || a.m > max_m_) return {StatusCode::invalid_argument, "router_hilo_wgmma: m outside 1..max_m"};
    if ((reinterpret_cast<uintptr_t>(a.x) | reinterpret_cast<uintptr_t>(a.y)) % 16 != 0)
      return {StatusCode::invalid_argument, "router_hilo_wgmma: x and y must be 16-byte aligned"};
    const int tn = tile_tokens(t_.slice_tokens(a.m));
    if (tn > max_tn_)
      return {StatusCode::invalid_argument, "router_hilo_wgmma: m too large for this split's x slice in smem"};
    const int kc = t_.kc(spec_.k);
    return launch_zeroed_splitk("router_hilo_wgmma_kernel launch", static_cast<float*>(a.y), int64_t(a.m) * a.n_out,
                                dim3(unsigned(t_.split), unsigned(a.n_out / (kRows * t_.wgn)), unsigned(t_.ts)),
                                dim3(kThreads),
                                std::size_t(smem_bytes(tn, kc)), a.stream, kernel_for(tn),
                                static_cast<const __nv_bfloat16*>(a.x), packed_,
                                static_cast<float*>(a.y), a.m, int(a.n_out), int(spec_.k), kc, t_.wgn);
  }

 private:
  ProjectionSpec spec_;
  Tiling t_;
  int max_m_;
  int max_tn_ = 0;  // largest token tile whose smem fits (and was opted in)
  std::shared_ptr<SharedLayouts> layouts_;  // holds packed_ (router_hilo_packed)
  const uint8_t* packed_ = nullptr;         // W's hi / lo fragments (router_hilo_pack.cuh)
};

// Grid = split x N/(64*wgn) x ts CTAs of 2 warpgroups; per warpgroup 64 rows x K/split/(2/wgn) of
// W and ceil(M / ts) tokens.
// Predictions per config: docs/experiments.md, "Router (issue 4)", "wgmma for M 33..256".
std::vector<Config> wgmma_configs() {
  return {
      // 128 CTAs (one per SM), 64 rows x 256 K each, the two warpgroups halve K: each holds its
      // whole 32 KB of W in flight from the first instruction; 32 partials per output (as
      // router_hilo_stream.kw8.wn4); x slice TN x 256 per CTA, x re-read N/64 = 4 times.
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 1}}},
      // 128 CTAs, 128 rows x 128 K: the two warpgroups share the x slice, so x crosses L2->SM
      // only N/128 = 2 times (half of split32.wgn1), at 64 partials per output (2x the atomics).
      Config{"router_hilo_wgmma", {{"split", 64}, {"wgn", 2}}},
      // 64 CTAs, 128 rows x 256 K: x read 2 times and 32 partials per output, but only 64 SMs
      // stream W (64 KB per warpgroup through the 2-chunk register ring).
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 2}}},
      // 64 CTAs, 64 rows x 512 K (K halves per warpgroup): half the atomics (16 partials per
      // output); the x slice TN x 512 fits the smem only for TN <= 192, so it serves M <= 192.
      Config{"router_hilo_wgmma", {{"split", 16}, {"wgn", 1}}},
      // 128 CTAs = 16 K splits x 4 row groups x 2 token slices, 64 rows x 512 K x ceil(M/2) tokens
      // each: 16 partials per output (half of split32.wgn1), W read twice (the second mostly from
      // L2). Measured (H200, 2026-12-01, bench, two runs, µs at M = 64 / 96 / 128 / 192 / 256):
      // 8.70-8.90 / 8.93-9.15 / 9.39-9.63 / 10.94-11.04 / 11.65-11.78 vs split32.wgn1 8.18 / 9.36 /
      // 9.95 / 11.76 / 13.70 in the same runs; final run (E8): equal at M 80..112, -1.6 µs at 256,
      // +0.8..1.1 µs at M <= 64 (split32.wgn1 stays there).
      Config{"router_hilo_wgmma", {{"split", 16}, {"wgn", 1}, {"ts", 2}}},
  };
}

std::string wgmma_applicable(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi, const DeviceInfo& dev) {
  if (spec.weight_dtype != DType::f32 || spec.out_dtype != DType::f32 || spec.x_dtype != DType::bf16)
    return "router_hilo_wgmma: needs fp32 weights, fp32 output, bf16 x";
  const Tiling t = tiling_of(cfg);
  const std::string err = tiling_error(spec, t);
  if (!err.empty()) return err;
  // Correct for any m in 1..256 (m <= 32 pads the 64-token tile; router_hilo_stream.kw8.wn1 is
  // the planned method there). 1 stays allowed so `projkit check --method`, which maps one
  // method over [1, max_m], can run it.
  if (m_lo < 1 || m_hi > kMaxTokens || m_hi < m_lo) return "router_hilo_wgmma: M range must lie in 1..256 (wgmma N <= 256)";
  if (!dev.is_hopper_sm90()) return "router_hilo_wgmma: needs sm_90a (wgmma, PDL, red.global.add.v4.f32)";
  if (std::size_t(smem_bytes(tile_tokens(t.slice_tokens(m_hi)), t.kc(spec.k))) > dev.smem_per_block_optin)
    return "router_hilo_wgmma: x slice (TN x K/split bf16) exceeds the device opt-in shared memory";
  return "";
}

std::unique_ptr<PreparedMethod> wgmma_prepare(const PrepareContext& ctx, const Config& cfg) {
  return std::make_unique<RouterHiloWgmma>(ctx, cfg);
}

}  // namespace

extern const KernelFamily kRouterHiloWgmma = {
    "router_hilo_wgmma",
    "router M 33..256: hi/lo bf16 W fragments global->registers as wgmma A (RS form), x slice in 128B-swizzled "
    "smem as B, split-K by red.v4 atomics into PDL-zeroed y",
    wgmma_configs, wgmma_applicable, wgmma_prepare};

}  // namespace projkit
