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
//   Device code: router_hilo_wgmma.cuh.
// Constraints: fp32 W / y, bf16 x; sm_90a; N % (64*wgn) == 0; K % split == 0 and
//   (K / split) % (128 * 2/wgn) == 0; x and y 16-byte aligned (checked in run()); m in 1..256
//   (planned for 33..256; correct from 1); x slice TN * K/split * 2 B within the opt-in smem.
#include "kernels/router_hilo_wgmma.cuh"

#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled

#include <algorithm>
#include <cstdint>

#include "core/method.hpp"
#include "kernels/router_hilo_pack.cuh"
#include "kernels/router_splitk_pdl.cuh"

namespace projkit {
namespace {

using namespace router_wgmma;

constexpr int kMaxTokens = 256;   // largest wgmma N

using KernelFn = void (*)(CUtensorMap, const __nv_bfloat16*, const uint8_t*, float*, int, int, int, int, int, int, int, int, int);
using EncodeTiledFn = PFN_cuTensorMapEncodeTiled_v12000;

// The driver's tensor-map encoder through the runtime's entry-point query (no libcuda link).
EncodeTiledFn tensor_map_encoder() {
  static EncodeTiledFn fn = []() -> EncodeTiledFn {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
    if (e != cudaSuccess || q != cudaDriverEntryPointSuccess) return nullptr;
    return reinterpret_cast<EncodeTiledFn>(p);
  }();
  return fn;
}

// x [m][k] bf16 read in boxes of [tn tokens][64 k] with the 128B swizzle of the x tile; rows
// past m read as zeros. Pure host work (capturable), once per call.
bool encode_x_map(EncodeTiledFn enc, CUtensorMap* map, const void* x, int m, int64_t k, int tn) {
  const cuuint64_t dims[2] = {cuuint64_t(k), cuuint64_t(m)};
  const cuuint64_t strides[1] = {cuuint64_t(k) * 2};
  const cuuint32_t box[2] = {uint32_t(kChunkK), uint32_t(tn)};
  const cuuint32_t elem_strides[2] = {1, 1};
  return enc(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(x), dims, strides, box, elem_strides,
             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// Tokens of the x tile for a call with m tokens: the smallest instantiated tile >= m (one pass:
// the wgmma N, at most 63 padded token columns; two passes (tp): 128 or 256, passes of 64 / 128).
int tile_tokens(int m, bool tp) {
  if (tp) return m <= 128 ? 128 : 256;
  return m <= 64 ? 64 : m <= 128 ? 128 : m <= 192 ? 192 : 256;
}

KernelFn kernel_for(int tn, bool tp, bool no_mma = false, bool tma_x = false, bool ring4 = false) {
  if (ring4 && !tp && !no_mma && !tma_x)
    return tn == 64 ? router_hilo_wgmma_kernel<64, false, false, false, true>
                    : tn == 128 ? router_hilo_wgmma_kernel<128, false, false, false, true> : nullptr;
  if (ring4 && !tp && !no_mma && tma_x)
    return tn == 64 ? router_hilo_wgmma_kernel<64, false, false, true, true>
                    : tn == 128 ? router_hilo_wgmma_kernel<128, false, false, true, true> : nullptr;
  if (ring4) return nullptr;
  if (tma_x) {
    switch (tn) {
      case 64: return router_hilo_wgmma_kernel<64, false, false, true>;
      case 128: return router_hilo_wgmma_kernel<128, false, false, true>;
      case 192: return router_hilo_wgmma_kernel<192, false, false, true>;
      case 256: return router_hilo_wgmma_kernel<256, false, false, true>;
      default: return nullptr;
    }
  }
  if (no_mma && !tp)  // timing-only leave-out (skip & kSkipMma)
    return tn == 128 ? router_hilo_wgmma_kernel<128, false, true> : tn == 256 ? router_hilo_wgmma_kernel<256, false, true> : nullptr;
  if (tp) return tn == 128 ? router_hilo_wgmma_kernel<128, true> : tn == 256 ? router_hilo_wgmma_kernel<256, true> : nullptr;
  switch (tn) {
    case 64: return router_hilo_wgmma_kernel<64, false>;
    case 128: return router_hilo_wgmma_kernel<128, false>;
    case 192: return router_hilo_wgmma_kernel<192, false>;
    case 256: return router_hilo_wgmma_kernel<256, false>;
    default: return nullptr;
  }
}

struct Tiling {
  int split = 0;  // K ranges (grid.x): fp32 partials per output combined by atomics
  int wgn = 0;    // 64-row tiles per CTA (2 warpgroups: wgn = 2 share x, wgn = 1 halve K)
  int tp = 0;     // 1: two token passes, pass 0's atomics overlap pass 1's wgmmas
  int cl = 1;     // CTAs per cluster along the splits (2: DSMEM pair sum before the atomics)
  int skip = 0;   // timing-only leave-out bits (router_wgmma::kSkip*)
  int xt = 0;     // 1: x blocks by TMA, one mbarrier each (0: cp.async in two commit groups)
  int mc = 1;     // xt1: CTAs per cluster along N sharing x by TMA multicast (1 or 2)
  int ep = 0;     // epilogue: 0 smem transpose + red.v4; 1 scalar reds from registers; 2 wg sum in smem, then 1
  int ts = 1;     // token slices (grid.z), each CTA gets ceil(m / ts) tokens
  int rg = 2;     // W register ring depth in 64-K chunks (2, or 4 for token tiles <= 128)
  int kc(int64_t k) const { return split > 0 ? int(k / split) : 0; }
  int smem(int tn, int64_t k) const { return tp ? smem_bytes_tp(tn, kc(k)) : smem_bytes(tn, kc(k)); }
};

Tiling tiling_of(const Config& cfg) {
  return {cfg.get("split", 0), cfg.get("wgn", 0), cfg.get("tp", 0), cfg.get("cl", 1), cfg.get("skip", 0),
          cfg.get("xt", 0),    cfg.get("mc", 1), cfg.get("ep", 0), cfg.get("ts", 1), cfg.get("rg", 2)};
}

// "" or the violated constraint (shared by applicable() and the constructor).
std::string tiling_error(const ProjectionSpec& spec, const Tiling& t) {
  if (t.wgn != 1 && t.wgn != 2) return "router_hilo_wgmma: wgn must be 1 or 2 (64-row tiles per CTA)";
  if (t.split < 1 || spec.k % t.split != 0) return "router_hilo_wgmma: K % split != 0";
  const int wgk = kWarpgroups / t.wgn;
  if (t.kc(spec.k) % (2 * kChunkK * wgk) != 0)
    return "router_hilo_wgmma: (K / split) % (128 * 2/wgn) != 0 (an even number of 64-K chunks per warpgroup)";
  if (t.tp != 0 && t.tp != 1) return "router_hilo_wgmma: tp must be 0 or 1";
  if (t.tp == 1 && t.kc(spec.k) != 2 * kChunkK * wgk)
    return "router_hilo_wgmma: tp1 needs exactly 2 chunks per warpgroup ((K / split) == 128 * 2/wgn)";
  if (t.cl != 1 && t.cl != 2) return "router_hilo_wgmma: cl must be 1 or 2";
  if (t.cl == 2 && (t.split % 2 != 0 || t.tp != 0)) return "router_hilo_wgmma: cl2 needs an even split and no tp";
  if (t.skip < 0 || t.skip > 7) return "router_hilo_wgmma: skip bits 0..7";
  if (t.xt != 0 && t.xt != 1) return "router_hilo_wgmma: xt must be 0 or 1";
  if (t.xt == 1 && (t.tp != 0 || t.skip != 0)) return "router_hilo_wgmma: xt1 excludes tp and skip";
  if (t.xt == 1 && t.kc(spec.k) / kChunkK > kBarBytes / 8) return "router_hilo_wgmma: xt1 needs K / split <= 1024";
  if (t.rg != 2 && t.rg != 4) return "router_hilo_wgmma: rg must be 2 or 4";
  if (t.rg == 4 && (t.kc(spec.k) % (4 * kChunkK * wgk) != 0 || t.tp != 0 || t.skip != 0))
    return "router_hilo_wgmma: rg4 needs a multiple of 4 chunks per warpgroup and no tp / skip";
  if (t.ts < 1 || t.ts > 4) return "router_hilo_wgmma: ts must be 1..4";
  if (t.ts > 1 && (t.mc != 1 || t.tp != 0 || t.cl != 1)) return "router_hilo_wgmma: ts excludes mc2, tp1, cl2";
  if (t.ep < 0 || t.ep > 2) return "router_hilo_wgmma: ep must be 0, 1 or 2";
  if (t.ep != 0 && (t.tp != 0 || t.cl != 1)) return "router_hilo_wgmma: ep1/ep2 exclude tp and cl2";
  if (t.ep == 2 && t.wgn != 1) return "router_hilo_wgmma: ep2 needs wgn1 (two K halves to sum)";
  if (t.mc != 1 && t.mc != 2) return "router_hilo_wgmma: mc must be 1 or 2";
  if (t.mc == 2 && (t.xt != 1 || t.cl != 1 || (spec.n / (kRows * t.wgn)) % 2 != 0))
    return "router_hilo_wgmma: mc2 needs xt1, cl1 and an even number of row groups";
  if (spec.n % (kRows * t.wgn) != 0 || spec.slice_max_m > 0) return "router_hilo_wgmma: N % (64*wgn) != 0 or sliced output";
  if (spec.k > (int64_t(1) << 30) / spec.n) return "router_hilo_wgmma: N*K too large for 32-bit tile offsets";
  return "";
}

class RouterHiloWgmma final : public PreparedMethod {
 public:
  RouterHiloWgmma(const PrepareContext& ctx, const Config& cfg)
      : spec_(ctx.spec), t_(tiling_of(cfg)), max_m_(ctx.max_m),
        packed_(std::size_t(ctx.spec.n) * std::size_t(ctx.spec.k) * 4), encode_(tensor_map_encoder()) {
    if (t_.xt != 0 && !encode_) throw Error(StatusCode::unsupported, "router_hilo_wgmma: cuTensorMapEncodeTiled not available");
    const std::string err = tiling_error(spec_, t_);
    if (!err.empty()) throw Error(StatusCode::invalid_argument, err);
    if (max_m_ < 1 || max_m_ > kMaxTokens) throw Error(StatusCode::invalid_argument, "router_hilo_wgmma: max_m outside 1..256");
    // Every token tile a call up to max_m can pick gets its smem opt-in now, as far as the
    // x slice fits (a Projection prepares with its max_m even when the plan maps this method
    // to a smaller range; applicable() refuses ranges whose tile does not fit).
    for (int tn = t_.tp ? 128 : 64; tn <= tile_tokens(max_m_, t_.tp != 0); tn += t_.tp ? 128 : 64) {
      if (std::size_t(t_.smem(tn, spec_.k)) > ctx.dev.smem_per_block_optin) break;
      KernelFn fn = kernel_for(tn, t_.tp != 0, (t_.skip & kSkipMma) != 0, t_.xt != 0, t_.rg == 4);
      if (fn == nullptr) continue;
      cuda_check(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      t_.smem(tn, spec_.k)),
                 "router_hilo_wgmma: cudaFuncSetAttribute(smem)");
      max_tn_ = tn;
    }
    router_hilo_pack(static_cast<const float*>(ctx.w), packed_, int(spec_.n), int(spec_.k));
  }

  Status run(const RunArgs& a) const override {
    if (a.m < 1 || a.m > max_m_) return {StatusCode::invalid_argument, "router_hilo_wgmma: m outside 1..max_m"};
    if ((reinterpret_cast<uintptr_t>(a.x) | reinterpret_cast<uintptr_t>(a.y)) % 16 != 0)
      return {StatusCode::invalid_argument, "router_hilo_wgmma: x and y must be 16-byte aligned"};
    const int tn = tile_tokens((a.m + t_.ts - 1) / t_.ts, t_.tp != 0);
    if (tn > max_tn_)
      return {StatusCode::invalid_argument, "router_hilo_wgmma: m too large for this split's x slice in smem"};
    const int kc = t_.kc(spec_.k);
    CUtensorMap x_map{};
    if (t_.xt != 0 && !encode_x_map(encode_, &x_map, a.x, a.m, spec_.k, tn))
      return {StatusCode::invalid_argument, "router_hilo_wgmma: cuTensorMapEncodeTiled failed for x"};
    return launch_zeroed_splitk_cluster(
        "router_hilo_wgmma_kernel launch", static_cast<float*>(a.y), int64_t(a.m) * a.n_out,
        dim3(unsigned(t_.split), unsigned(a.n_out / (kRows * t_.wgn)), unsigned(t_.ts)), dim3(kThreads),
        std::size_t(t_.smem(tn, spec_.k)),
        dim3(unsigned(t_.cl), unsigned(t_.mc), 1), a.stream,
        kernel_for(tn, t_.tp != 0, (t_.skip & kSkipMma) != 0, t_.xt != 0, t_.rg == 4), x_map, static_cast<const __nv_bfloat16*>(a.x),
        packed_.as<const uint8_t>(), static_cast<float*>(a.y), a.m, int(a.n_out), int(spec_.k), kc, t_.wgn, t_.cl, t_.skip,
        t_.mc, t_.ep);
  }

 private:
  ProjectionSpec spec_;
  Tiling t_;
  int max_m_;
  int max_tn_ = 0;  // largest token tile whose smem fits (and was opted in)
  DeviceBuffer packed_;
  EncodeTiledFn encode_ = nullptr;
};

// Grid = split x N/(64*wgn) CTAs of 2 warpgroups; per warpgroup 64 rows x K/split/(2/wgn) of W.
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
      // EXPERIMENT (run E): candidates and timing-only leave-outs.
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 1}, {"tp", 1}}},
      Config{"router_hilo_wgmma", {{"split", 64}, {"wgn", 2}, {"tp", 1}}},
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 1}, {"cl", 2}}},
      Config{"router_hilo_wgmma", {{"split", 64}, {"wgn", 2}, {"cl", 2}}},
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 1}, {"skip", 1}}},
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 1}, {"skip", 2}}},
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 1}, {"skip", 4}}},
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 1}, {"skip", 7}}},
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 1}, {"tp", 1}, {"skip", 1}}},
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 1}, {"xt", 1}}},
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 1}, {"xt", 1}, {"mc", 2}}},
      Config{"router_hilo_wgmma", {{"split", 64}, {"wgn", 2}, {"xt", 1}}},
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 2}, {"xt", 1}}},
      Config{"router_hilo_wgmma", {{"split", 16}, {"wgn", 1}, {"xt", 1}}},
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 1}, {"ep", 1}}},
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 1}, {"ep", 2}}},
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 1}, {"xt", 1}, {"ep", 1}}},
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 1}, {"xt", 1}, {"ep", 2}}},
      Config{"router_hilo_wgmma", {{"split", 16}, {"wgn", 1}, {"xt", 1}, {"ep", 1}}},
      Config{"router_hilo_wgmma", {{"split", 16}, {"wgn", 1}, {"xt", 1}, {"ep", 2}}},
      Config{"router_hilo_wgmma", {{"split", 64}, {"wgn", 2}, {"xt", 1}, {"ep", 1}}},
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 2}, {"xt", 1}, {"ep", 1}}},
      Config{"router_hilo_wgmma", {{"split", 16}, {"wgn", 1}, {"ts", 2}}},
      Config{"router_hilo_wgmma", {{"split", 8}, {"wgn", 1}, {"ts", 4}}},
      Config{"router_hilo_wgmma", {{"split", 32}, {"wgn", 1}, {"ts", 2}}},
      Config{"router_hilo_wgmma", {{"split", 16}, {"wgn", 1}, {"ts", 2}, {"rg", 4}}},
      Config{"router_hilo_wgmma", {{"split", 8}, {"wgn", 1}, {"ts", 4}, {"rg", 4}}},
      Config{"router_hilo_wgmma", {{"split", 16}, {"wgn", 1}, {"ts", 4}, {"rg", 4}}},
      Config{"router_hilo_wgmma", {{"split", 16}, {"wgn", 1}, {"ts", 2}, {"xt", 1}}},
      Config{"router_hilo_wgmma", {{"split", 8}, {"wgn", 1}, {"ts", 4}, {"xt", 1}}},
      Config{"router_hilo_wgmma", {{"split", 8}, {"wgn", 1}, {"ts", 4}, {"rg", 4}, {"xt", 1}}},
      Config{"router_hilo_wgmma", {{"split", 16}, {"wgn", 1}, {"ts", 2}, {"rg", 4}, {"xt", 1}}},
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
  if (t.rg == 4 && tile_tokens((m_hi + t.ts - 1) / t.ts, false) > 128)
    return "router_hilo_wgmma: rg4 serves token tiles <= 128 (ceil(M / ts) <= 128)";
  if (std::size_t(t.smem(tile_tokens((m_hi + t.ts - 1) / t.ts, t.tp != 0), spec.k)) > dev.smem_per_block_optin)
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
