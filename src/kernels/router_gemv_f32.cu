// router_gemv_f32: the fp32 router at decode-sized M in ONE kernel, straight from the fp32 weights.
// Regime: M = 1..8 (router: W fp32 [N, K], x bf16, y fp32): the call is an 8.4 MB weight stream.
//   The split-K router kernels (router_hilo_stream, _wgmma, _ring) add their K partials into y
//   with fp32 atomics, so a zero kernel must clear y first inside the call; that second kernel
//   node costs ~1.1 us at every M even as a programmatic dependent, and zeroing y inside one
//   kernel (flags between CTAs) cost as much (router round 4, docs/experiments.md): the ordering
//   round trip is the cost, not the launch.
// Mechanism: a block owns ROWS whole output rows (all of K), so it writes them with plain stores:
//   no split-K, no atomics, no zero kernel, no workspace, nothing carried between calls. Its
//   256 threads stride over K in float4 chunks; every weight load of a batch is issued before
//   any use (ld.global.nc, L1 no-allocate, L2 evict-first: each weight byte is read once), so a
//   thread keeps 8 x ROWS loads in flight and the 128-256 blocks cover HBM latency. x (bf16,
//   16 KB per token at K = 8192) goes through the L1-cached read-only path, shared by the ROWS
//   rows; its loads are issued together for up to 4 (ROWS = 1) or 8 (ROWS = 2) tokens before the
//   FMAs that use them (one dependent FMA per load serialized their latencies: +2.7 us at M = 2).
//   Arithmetic: fp32 weights times bf16-exact activations, fp32 FMA accumulation (the baseline's
//   own arithmetic; no hi/lo split is needed because the fp32 weights are read as they are);
//   warp-shuffle sums, then a fixed-order sum over the 8 warps (deterministic).
//   Where it stops: every block reads all of x (blocks x M x 16 KB through L2), which is what
//   the split-K kernels avoid; past M = 8 it loses to them (10-12 us at M = 12..16, measured).
// Constraints: fp32 W and y, bf16 x; 1 <= m <= 8; K % 4 == 0; n_out % ROWS == 0; W 16-byte,
//   x 8-byte, y 4-byte aligned (the Projection contract gives 16 bytes for all three).
#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/method.hpp"
#include "kernels/gemv_reduce.cuh"
#include "kernels/ptx.cuh"

namespace projkit {
namespace {

constexpr int kWarps = 8;
constexpr int kThreads = kWarps * 32;
constexpr int kMaxTokens = 8;

// ROWS: output rows (W rows) a block owns whole; the grid has n_out / ROWS blocks.
// MT:   token capacity of the accumulators (1, 2, 4, 8); tokens t >= m are never read or stored.
template <int ROWS, int MT>
struct Shape {
  static constexpr int kUnroll = 8;           // float4 chunks per row per batch (K = 8192: the whole row
                                              // in one batch): ROWS x 8 weight loads in flight per thread
  // Tokens whose x loads are issued together (8 x kTG in flight): every token of the call when
  // they fit the registers (ROWS = 2 at one block per SM: up to 8), else groups of 4. A group
  // issued after the first FMAs waits for its loads with nothing else in flight (E-gemv: M = 6..8
  // in two groups cost +2.3 us at ROWS = 1).
  static constexpr int kTGMax = ROWS == 1 ? 4 : 8;
  static constexpr int kTG = MT < kTGMax ? MT : kTGMax;
  static_assert(ROWS == 1 || ROWS == 2, "ROWS: 1 or 2 rows per block");
  static_assert(MT >= 1 && MT <= kMaxTokens && MT % kTG == 0, "MT: 1, 2, 4 or 8 tokens (register accumulators)");
};

// Four bf16 activations (8 bytes, read-only L1-cached path: every block of the SM re-reads x).
__device__ __forceinline__ uint2 ld_x4(const __nv_bfloat16* p) { return __ldg(reinterpret_cast<const uint2*>(p)); }
__device__ __forceinline__ float4 bf16x4_to_float4(const uint2& u) {
  const float2 a = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&u.x));
  const float2 b = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&u.y));
  return make_float4(a.x, a.y, b.x, b.y);
}

// acc += dot(w, x) over 4 K elements, fp32 FMA (NaN/Inf propagate as in the fp32 GEMM).
__device__ __forceinline__ float dot4(float acc, const float4& w, const float4& x) {
  acc = fmaf(w.x, x.x, acc);
  acc = fmaf(w.y, x.y, acc);
  acc = fmaf(w.z, x.z, acc);
  return fmaf(w.w, x.w, acc);
}

// grid = n_out / ROWS, block = 256 (ROWS = 1: two blocks per SM, so <= 128 registers; the router's
// 256 blocks then fit one wave). x [m, k] bf16, w [>= n_out, k] fp32, y [m, n_out] fp32.
template <int ROWS, int MT>
__global__ void __launch_bounds__(kThreads, ROWS == 1 ? 2 : 1) router_gemv_f32_kernel(const __nv_bfloat16* __restrict__ x,
                                                                   const float* __restrict__ w,
                                                                   float* __restrict__ y, int m, int n_out, int k) {
  using S = Shape<ROWS, MT>;
  constexpr int kUnroll = S::kUnroll;
  __shared__ float red[kWarps][ROWS * MT];  // per-warp sums, [warp][row * MT + token]

  const int tid = threadIdx.x;
  const int kc = k >> 2;  // float4 chunks per row
  const int row0 = int(blockIdx.x) * ROWS;
  const float* wr = w + int64_t(row0) * k;
  const uint64_t pol = ptx::l2_evict_first_policy();

  float acc[ROWS][MT];
#pragma unroll
  for (int r = 0; r < ROWS; ++r)
#pragma unroll
    for (int t = 0; t < MT; ++t) acc[r][t] = 0.0f;

  for (int base = tid; base < kc; base += kThreads * kUnroll) {
    float4 wv[kUnroll][ROWS];  // the whole batch in flight before the first use
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int c = base + u * kThreads;
#pragma unroll
      for (int r = 0; r < ROWS; ++r) {
        if (c < kc) {
          const uint4 v = ptx::ld_stream_hint(wr + int64_t(r) * k + int64_t(c) * 4, pol);
          wv[u][r] = make_float4(__uint_as_float(v.x), __uint_as_float(v.y), __uint_as_float(v.z), __uint_as_float(v.w));
        } else {
          wv[u][r] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
      }
    }
    // x per group of kTG tokens: all 8 x kTG loads issued before the first FMA of the group (one
    // dependent FMA after each load would serialize their L2/L1 latencies: ~0.15 us per load).
#pragma unroll
    for (int t0 = 0; t0 < MT; t0 += S::kTG) {
      if (t0 < m) {
        uint2 xr[kUnroll][S::kTG];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
          const int c = base + u * kThreads;
#pragma unroll
          for (int tt = 0; tt < S::kTG; ++tt)
            xr[u][tt] = (c < kc && t0 + tt < m) ? ld_x4(x + int64_t(t0 + tt) * k + int64_t(c) * 4) : make_uint2(0u, 0u);
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
#pragma unroll
          for (int tt = 0; tt < S::kTG; ++tt) {
            const float4 xv = bf16x4_to_float4(xr[u][tt]);  // zeros past kc or m: adds nothing
#pragma unroll
            for (int r = 0; r < ROWS; ++r) acc[r][t0 + tt] = dot4(acc[r][t0 + tt], wv[u][r], xv);
          }
        }
      }
    }
  }

  float s;
  if (gemv::block_sum<ROWS, MT, kWarps>(acc, red, tid, s)) {
    const int r = tid / MT, t = tid % MT;
    if (t < m) y[int64_t(t) * n_out + row0 + r] = s;
  }
}

using KernelFn = void (*)(const __nv_bfloat16*, const float*, float*, int, int, int);

// Token capacity per launch: the next power of two >= m (fewer idle accumulators than one
// 8-wide kernel for every m).
template <int ROWS>
KernelFn pick_kernel(int m) {
  if (m <= 1) return router_gemv_f32_kernel<ROWS, 1>;
  if (m <= 2) return router_gemv_f32_kernel<ROWS, 2>;
  if (m <= 4) return router_gemv_f32_kernel<ROWS, 4>;
  return router_gemv_f32_kernel<ROWS, 8>;
}

// The compiled row counts; configs() lists exactly these.
KernelFn select(int rows, int m) {
  if (rows == 1) return pick_kernel<1>(m);
  if (rows == 2) return pick_kernel<2>(m);
  return nullptr;
}

class RouterGemvF32 final : public PreparedMethod {
 public:
  RouterGemvF32(const PrepareContext& ctx, int rows) : spec_(ctx.spec), w_(ctx.w), rows_(rows) {
    if (!select(rows, 1)) throw Error(StatusCode::unsupported, "router_gemv_f32: rows must be 1 or 2");
  }

  Status run(const RunArgs& a) const override {
    if (a.m < 1 || a.m > kMaxTokens) return {StatusCode::invalid_argument, "router_gemv_f32: m must be in 1..8"};
    if (!a.x || !a.y) return {StatusCode::invalid_argument, "router_gemv_f32: null x or y"};
    if ((reinterpret_cast<uintptr_t>(a.x) & 7) != 0 || (reinterpret_cast<uintptr_t>(a.y) & 3) != 0)
      return {StatusCode::invalid_argument, "router_gemv_f32: x must be 8-byte and y 4-byte aligned"};
    if (a.n_out < rows_ || a.n_out > spec_.n || a.n_out % rows_ != 0)
      return {StatusCode::invalid_argument, "router_gemv_f32: n_out must be a multiple of rows and <= N"};
    select(rows_, a.m)<<<unsigned(a.n_out / rows_), kThreads, 0, a.stream>>>(
        static_cast<const __nv_bfloat16*>(a.x), static_cast<const float*>(w_), static_cast<float*>(a.y), a.m,
        int(a.n_out), int(spec_.k));
    return cuda_status(cudaGetLastError(), "router_gemv_f32_kernel launch");
  }

 private:
  ProjectionSpec spec_;
  const void* w_;  // the caller's fp32 weights, read in place (no packed copy)
  int rows_;
};

std::vector<Config> router_gemv_configs() {
  return {
      // 1 row per block: 256 blocks of 32 KB (two per SM), 8 float4 weight loads in flight per
      // thread, x loads 4 tokens at a time. Router round 4 (H200, session 4, us, same-run
      // router_hilo_stream.kw8.wn1 in brackets): M 1 3.94-4.05 (5.63-5.89), M 2 4.16-4.35 (5.76-5.89),
      // M 4 4.83-4.96 (5.78-5.98); M 5..8 7.1-7.5 (two x groups).
      Config{"router_gemv_f32", {{"rows", 1}}},
      // 2 rows per block: 128 blocks of 64 KB (one per SM), 8 chunks x 2 rows in flight per
      // thread, every token's x loads (up to 8) issued at once; each x load feeds both rows.
      // M 1 4.48-4.61, M 4 4.86-5.10, M 5..8 5.47-5.95 (stream 5.71-6.10).
      Config{"router_gemv_f32", {{"rows", 2}}},
  };
}

std::string router_gemv_applicable(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi,
                                   const DeviceInfo& dev) {
  const int rows = cfg.get("rows", 0);
  if (!select(rows, 1)) return "router_gemv_f32: rows" + std::to_string(rows) + " is not compiled (rows 1 | 2)";
  if (spec.weight_dtype != DType::f32 || spec.out_dtype != DType::f32 || spec.x_dtype != DType::bf16)
    return "router_gemv_f32: needs fp32 weights, fp32 output, bf16 x";
  if (dev.cc_major < 8) return "router_gemv_f32: needs sm_80+ (createpolicy / L2 cache hints)";
  if (m_lo < 1 || m_hi < m_lo || m_hi > kMaxTokens) return "router_gemv_f32: m must be in 1..8 (register accumulators)";
  if (spec.k % 4 != 0) return "router_gemv_f32: K % 4 != 0 (16-byte weight chunks)";
  if (spec.k > (int64_t(1) << 30) || spec.n > (int64_t(1) << 30)) return "router_gemv_f32: N, K must fit in int";
  for (int m = m_lo; m <= m_hi; ++m)
    if (spec.out_cols(m) % rows != 0)
      return "router_gemv_f32: out_cols(" + std::to_string(m) + ") % rows" + std::to_string(rows) + " != 0";
  return "";
}

std::unique_ptr<PreparedMethod> router_gemv_prepare(const PrepareContext& ctx, const Config& cfg) {
  return std::make_unique<RouterGemvF32>(ctx, cfg.get("rows", 0));
}

}  // namespace

extern const KernelFamily kRouterGemvF32 = {
    "router_gemv_f32",
    "router small M in one kernel: fp32 weights read in place, whole rows per block (no split-K, no atomics, "
    "no zero kernel), fp32 FMA, plain stores",
    router_gemv_configs, router_gemv_applicable, router_gemv_prepare};

}  // namespace projkit
