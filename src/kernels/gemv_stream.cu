// gemv_stream: streaming GEMV for decode-sized M (1..8), bf16 weights/activations/output.
// Regime: M = 1 (and a few tokens) where the call is a pure weight stream and tensor cores
//         buy nothing; the time is bytes / HBM bandwidth once enough loads are in flight.
// Mechanism: a block owns ROWS consecutive W rows at a time (grid-stride over row groups, the
//         grid sized from dev.sm_count x resident blocks per SM so every SM is busy in one
//         wave); its WARPS*32 threads stride over K in 16-byte chunks, each thread keeping
//         ROWS x UNROLL weight loads in flight (ld.global.nc.L1::no_allocate + L2 evict-first:
//         the weights are read once). x (M x K, tiny) goes through the normal L1-cached
//         read-only path so every block on an SM reuses it. fp32 FMA accumulation, warp-shuffle
//         reduction, then a fixed-order cross-warp sum in smem (deterministic), bf16 store.
//         eq1 (E67): the grid is cut to ceil(groups / rounds) blocks, rounds = ceil(groups /
//         resident blocks), so every block streams the same number of row groups. The kernels
//         are the same; only the grid moves. mb4 (E69): the same body with its registers capped
//         for 4 blocks per SM (a second entry point); M = 1 only, it spills from M = 2.
//         lp1 (E90): the lean prologue. Each thread forms its W and x pointers once and reads
//         every chunk of a batch at a uniform row offset plus an immediate (the batches are
//         whole, so no per-load bounds predicate), and widens bf16 to fp32 with one bit
//         operation per element. Same loads, same FMA order, same bits as lp0. sm_90a SASS of the
//         M = 1 kernels, first weight load at instruction (lp0 -> lp1) / instructions in all:
//         rows4.warps8 145 -> 93 / 496 -> 400, rows2.warps8 163 -> 76 / 504 -> 376, its mb4 twin
//         111 -> 78 / 464 -> 352.
// Constraints: bf16 W/x/y; K % 8 == 0 (16-byte chunks); n_out % ROWS == 0; m <= 8 (mb4: m = 1);
//         W, x, y 16-byte aligned (the Projection contract).
#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/method.hpp"
#include "kernels/gemv_reduce.cuh"
#include "kernels/ptx.cuh"

namespace projkit {
namespace {

// 16-byte activation load through the read-only, L1-cached path: x is re-read by every
// block on the SM, so it should stay in L1.
__device__ __forceinline__ uint4 ld_activation(const void* p) { return __ldg(static_cast<const uint4*>(p)); }

// acc += dot(8 bf16 weights, 8 bf16 activations), fp32 FMA (NaN/Inf propagate).
__device__ __forceinline__ float dot8(float acc, const uint4& w, const uint4& x) {
  const __nv_bfloat162* wp = reinterpret_cast<const __nv_bfloat162*>(&w);
  const __nv_bfloat162* xp = reinterpret_cast<const __nv_bfloat162*>(&x);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const float2 wf = __bfloat1622float2(wp[i]);
    const float2 xf = __bfloat1622float2(xp[i]);
    acc = fmaf(wf.x, xf.x, acc);
    acc = fmaf(wf.y, xf.y, acc);
  }
  return acc;
}

// bf16 -> fp32 is exact: the bf16 bits are the fp32's upper half. A 32-bit word holds two bf16
// (element 0 in the low half); each widens with one bit operation (NaN / Inf keep their bits).
__device__ __forceinline__ float bf16_low_to_f32(uint32_t u) { return __uint_as_float(u << 16); }
__device__ __forceinline__ float bf16_high_to_f32(uint32_t u) { return __uint_as_float(u & 0xffff0000u); }

// dot8 with one-instruction widening: the same products summed in the same order (same bits).
__device__ __forceinline__ float dot8_bits(float acc, const uint4& w, const uint4& x) {
  const uint32_t wv[4] = {w.x, w.y, w.z, w.w};
  const uint32_t xv[4] = {x.x, x.y, x.z, x.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    acc = fmaf(bf16_low_to_f32(wv[i]), bf16_low_to_f32(xv[i]), acc);
    acc = fmaf(bf16_high_to_f32(wv[i]), bf16_high_to_f32(xv[i]), acc);
  }
  return acc;
}

// Chunk iterations per row and batch (GemvShape::kUnroll), also read by the host's lp1 checks.
__host__ __device__ constexpr int gemv_unroll(int rows) { return rows >= 8 ? 1 : 8 / rows; }

// ROWS:  W rows (outputs) a block computes at a time; the unit of the grid-stride loop.
// WARPS: warps per block; they split K (WARPS*32 threads stride over the K/8 chunks).
// MT:    token capacity (compile-time accumulator count); rows t >= m are never read or stored.
template <int ROWS, int WARPS, int MT>
struct GemvShape {
  static constexpr int kThreads = WARPS * 32;
  // Chunk iterations issued back to back per row, so each thread has ROWS*kUnroll 16-byte
  // weight loads in flight (8 = enough bytes in flight per SM to cover HBM latency).
  static constexpr int kUnroll = gemv_unroll(ROWS);
  // Tokens whose x loads are issued together: kUnroll x kTG 16-byte loads (<= 64 registers).
  static constexpr int kTGMax = 16 / kUnroll;
  static constexpr int kTG = MT < kTGMax ? MT : kTGMax;
  static_assert(ROWS >= 1 && ROWS <= 16, "ROWS: 1..16 rows per block");
  static_assert(WARPS >= 1 && WARPS <= 32, "WARPS: 1..32 warps per block");
  static_assert(MT >= 1 && MT <= 8, "MT: at most 8 tokens (accumulators live in registers)");
  static_assert(MT % kTG == 0, "token groups tile MT");
};

// The ends of a row group in the lean body: the accumulators zeroed, and the block's sums of
// (row, token) stored as bf16, then a barrier (`red` is reused by the next row group).
// gemv_stream_body keeps its own copies inline: with these helpers two of its kernels' .text
// changed (rows4.warps4 and rows2.warps8 at M = 1), and its kernels stay as measured.
template <int ROWS, int MT>
__device__ __forceinline__ void zero_acc(float (&acc)[ROWS][MT]) {
#pragma unroll
  for (int r = 0; r < ROWS; ++r)
#pragma unroll
    for (int t = 0; t < MT; ++t) acc[r][t] = 0.0f;
}
template <int ROWS, int MT, int WARPS>
__device__ __forceinline__ void store_row_group(const float (&acc)[ROWS][MT], float (&red)[WARPS][ROWS * MT], int tid,
                                                int m, int n_out, int g, __nv_bfloat16* __restrict__ y) {
  float s;
  if (gemv::block_sum<ROWS, MT, WARPS>(acc, red, tid, s)) {
    const int r = tid / MT, t = tid % MT;
    if (t < m) y[std::size_t(t) * n_out + std::size_t(g) * ROWS + r] = __float2bfloat16_rn(s);
  }
  __syncthreads();  // red is reused by the next row group
}

// The body of the two entry points below. grid = min(n_out/ROWS, sm_count * resident blocks per
// SM) (eq1: fewer, every block the same number of row groups); block = WARPS*32.
// x [m, k] bf16, w [>= n_out, k] bf16 (rows [0, n_out) read), y [m, n_out] bf16.
template <int ROWS, int WARPS, int MT>
__device__ __forceinline__ void gemv_stream_body(const __nv_bfloat16* __restrict__ x,
                                                 const __nv_bfloat16* __restrict__ w, __nv_bfloat16* __restrict__ y,
                                                 int m, int n_out, int k) {
  using S = GemvShape<ROWS, WARPS, MT>;
  constexpr int kThreads = S::kThreads, kUnroll = S::kUnroll;
  __shared__ float red[WARPS][ROWS * MT];  // per-warp partial sums, [warp][row*MT + token]

  const int tid = threadIdx.x;
  const int kc = k >> 3;  // 16-byte chunks per row
  const int groups = n_out / ROWS;
  const uint64_t pol = ptx::l2_evict_first_policy();

  for (int g = blockIdx.x; g < groups; g += gridDim.x) {
    float acc[ROWS][MT];
#pragma unroll
    for (int r = 0; r < ROWS; ++r)
#pragma unroll
      for (int t = 0; t < MT; ++t) acc[r][t] = 0.0f;

    const __nv_bfloat16* wg = w + std::size_t(g) * ROWS * k;
    for (int base = tid; base < kc; base += kThreads * kUnroll) {
      uint4 wv[kUnroll][ROWS];  // all weight loads of this batch issued before any use
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const int c = base + u * kThreads;
#pragma unroll
        for (int r = 0; r < ROWS; ++r)
          wv[u][r] = c < kc ? ptx::ld_stream_hint(wg + std::size_t(r) * k + std::size_t(c) * 8, pol)
                            : make_uint4(0u, 0u, 0u, 0u);
      }
      // x per group of kTG tokens: every load of the group issued before its first FMA (a load
      // followed by the FMAs that use it, token by token, serializes their latencies: the router
      // twin of this kernel lost ~2.7 us per extra token that way, router round 4).
#pragma unroll
      for (int t0 = 0; t0 < MT; t0 += S::kTG) {
        if (t0 < m) {
          uint4 xr[kUnroll][S::kTG];
#pragma unroll
          for (int u = 0; u < kUnroll; ++u) {
            const int c = base + u * kThreads;
#pragma unroll
            for (int tt = 0; tt < S::kTG; ++tt)
              xr[u][tt] = (c < kc && t0 + tt < m) ? ld_activation(x + std::size_t(t0 + tt) * k + std::size_t(c) * 8)
                                                  : make_uint4(0u, 0u, 0u, 0u);
          }
#pragma unroll
          for (int u = 0; u < kUnroll; ++u) {
            if (base + u * kThreads < kc) {
#pragma unroll
              for (int tt = 0; tt < S::kTG; ++tt) {
                if (t0 + tt < m) {
#pragma unroll
                  for (int r = 0; r < ROWS; ++r) acc[r][t0 + tt] = dot8(acc[r][t0 + tt], wv[u][r], xr[u][tt]);
                }
              }
            }
          }
        }
      }
    }

    float s;
    if (gemv::block_sum<ROWS, MT, WARPS>(acc, red, tid, s)) {
      const int r = tid / MT, t = tid % MT;
      if (t < m) y[std::size_t(t) * n_out + std::size_t(g) * ROWS + r] = __float2bfloat16_rn(s);
    }
    __syncthreads();  // red is reused by the next row group
  }
}

// The lp1 body (E90): as gemv_stream_body, for K / 8 a multiple of the batch (WARPS * 32 *
// kUnroll chunks, checked by the host): every batch is whole, so no load needs a bounds
// predicate, and each thread's chunk c of row r / token t sits at (its pointer) + r * kc + c,
// where r * kc is uniform and c's part within the batch an immediate. x [m, k], w [>= n_out, k],
// y [m, n_out] bf16.
template <int ROWS, int WARPS, int MT>
__device__ __forceinline__ void gemv_stream_lean_body(const __nv_bfloat16* __restrict__ x,
                                                      const __nv_bfloat16* __restrict__ w,
                                                      __nv_bfloat16* __restrict__ y, int m, int n_out, int k) {
  using S = GemvShape<ROWS, WARPS, MT>;
  constexpr int kThreads = S::kThreads, kUnroll = S::kUnroll, kBatch = kThreads * kUnroll;
  __shared__ float red[WARPS][ROWS * MT];  // per-warp partial sums, [warp][row*MT + token]

  const int tid = threadIdx.x;
  const int kc = k >> 3;  // 16-byte chunks per row; kc % kBatch == 0 (host)
  const int groups = n_out / ROWS;
  const uint64_t pol = ptx::l2_evict_first_policy();
  const uint4* xt = reinterpret_cast<const uint4*>(x) + tid;  // this thread's chunk 0 of token 0

  for (int g = blockIdx.x; g < groups; g += gridDim.x) {
    float acc[ROWS][MT];
    zero_acc(acc);

    // Row r of the group starts at wr[r] (this thread's chunk 0); chunk base + u * kThreads of it
    // sits at an immediate offset from there.
    const uint4* wr[ROWS];
    wr[0] = reinterpret_cast<const uint4*>(w) + int64_t(g) * ROWS * kc + tid;
#pragma unroll
    for (int r = 1; r < ROWS; ++r) wr[r] = wr[r - 1] + kc;
    for (int base = 0; base < kc; base += kBatch) {
      uint4 wv[kUnroll][ROWS];  // all weight loads of this batch issued before any use
      // The guard always passes (whole batches); as a predicated load it keeps ptxas from
      // sinking the later loads below the first FMAs (unguarded: 34 registers, each load's
      // latency exposed in turn).
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
#pragma unroll
        for (int r = 0; r < ROWS; ++r)
          wv[u][r] = ptx::ld_stream_hint_guarded(wr[r] + base + u * kThreads, pol, tid + base + u * kThreads < kc);
#pragma unroll
      for (int t0 = 0; t0 < MT; t0 += S::kTG) {
        if (t0 < m) {
          uint4 xr[kUnroll][S::kTG];
#pragma unroll
          for (int u = 0; u < kUnroll; ++u)
#pragma unroll
            for (int tt = 0; tt < S::kTG; ++tt)
              xr[u][tt] = t0 + tt < m ? ld_activation(xt + int64_t(t0 + tt) * kc + base + u * kThreads)
                                      : make_uint4(0u, 0u, 0u, 0u);
#pragma unroll
          for (int u = 0; u < kUnroll; ++u)
#pragma unroll
            for (int tt = 0; tt < S::kTG; ++tt)
              if (t0 + tt < m) {
#pragma unroll
                for (int r = 0; r < ROWS; ++r) acc[r][t0 + tt] = dot8_bits(acc[r][t0 + tt], wv[u][r], xr[u][tt]);
              }
        }
      }
    }

    store_row_group(acc, red, tid, m, n_out, g, y);
  }
}

// The entry points over the two bodies: LEAN selects gemv_stream_lean_body (lp1, E90).
template <int ROWS, int WARPS, int MT, bool LEAN = false>
__global__ void __launch_bounds__(WARPS * 32) gemv_stream_kernel(const __nv_bfloat16* __restrict__ x,
                                                                 const __nv_bfloat16* __restrict__ w,
                                                                 __nv_bfloat16* __restrict__ y, int m,
                                                                 int n_out, int k) {
  if constexpr (LEAN)
    gemv_stream_lean_body<ROWS, WARPS, MT>(x, w, y, m, n_out, k);
  else
    gemv_stream_body<ROWS, WARPS, MT>(x, w, y, m, n_out, k);
}
// MINB (E69, config key mb4): the same kernel with its registers capped so that MINB blocks fit
// an SM (65536 / (MINB * WARPS * 32) registers per thread).
template <int ROWS, int WARPS, int MT, int MINB, bool LEAN = false>
__global__ void __launch_bounds__(WARPS * 32, MINB) gemv_stream_min_blocks_kernel(
    const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ w, __nv_bfloat16* __restrict__ y, int m,
    int n_out, int k) {
  if constexpr (LEAN)
    gemv_stream_lean_body<ROWS, WARPS, MT>(x, w, y, m, n_out, k);
  else
    gemv_stream_body<ROWS, WARPS, MT>(x, w, y, m, n_out, k);
}

using GemvKernel = void (*)(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, int, int, int);

// Token capacities instantiated per (ROWS, WARPS): m=1 gets the 1-accumulator kernel, small m
// the next power of two (fewer idle accumulators than one 8-wide kernel for everything).
template <int ROWS, int WARPS, bool LEAN = false>
GemvKernel pick_kernel(int m) {
  if (m <= 1) return gemv_stream_kernel<ROWS, WARPS, 1, LEAN>;
  if (m <= 2) return gemv_stream_kernel<ROWS, WARPS, 2, LEAN>;
  if (m <= 4) return gemv_stream_kernel<ROWS, WARPS, 4, LEAN>;
  return gemv_stream_kernel<ROWS, WARPS, 8, LEAN>;
}
// The register-capped entry point exists for m = 1 only: from m = 2 its cap spills (ptxas), so no
// config may run it there and no larger token capacity is compiled.
template <int ROWS, int WARPS, int MINB>
GemvKernel pick_min_blocks_kernel(int m) {
  return m <= 1 ? gemv_stream_min_blocks_kernel<ROWS, WARPS, 1, MINB> : nullptr;
}

constexpr int kMaxTokens = 8;

// lp1 (E90) reads x unguarded within a batch, so its batches (warps * 32 threads x gemv_unroll
// chunks) must divide K / 8: "" or the violated constraint (applicable() and prepare both ask).
std::string lean_batch_error(const ProjectionSpec& spec, int rows, int warps) {
  const int64_t batch = int64_t(warps) * 32 * gemv_unroll(rows);
  if ((spec.k / 8) % batch == 0) return "";
  return "gemv_stream: lp1 needs K / 8 to be a multiple of " + std::to_string(batch) +
         " (whole batches: no bounds predicate per load)";
}

// The lp1 kernels (E90), on the plan's three M = 1 shapes: rows4.warps8 (unpooler slice),
// rows2.warps8 (pooler) and its mb4 twin (qkv).
GemvKernel select_lean(int rows, int warps, int m, int mb) {
  if (mb == 4) return rows == 2 && warps == 8 && m <= 1 ? gemv_stream_min_blocks_kernel<2, 8, 1, 4, true> : nullptr;
  if (mb != 0) return nullptr;
  if (rows == 2 && warps == 8) return pick_kernel<2, 8, true>(m);
  if (rows == 4 && warps == 8) return pick_kernel<4, 8, true>(m);
  return nullptr;
}

// The (rows, warps, mb) triples that are compiled; configs() lists exactly these. mb4 (E69) only
// for rows2.warps8 (68 registers at M = 1: 3 blocks per SM; capped to 64: 4).
GemvKernel select(int rows, int warps, int m, int mb = 0, int lp = 0) {
  if (lp == 1) return select_lean(rows, warps, m, mb);
  if (lp != 0) return nullptr;
  if (mb == 4) return rows == 2 && warps == 8 ? pick_min_blocks_kernel<2, 8, 4>(m) : nullptr;
  if (mb != 0) return nullptr;
  if (rows == 2 && warps == 8) return pick_kernel<2, 8>(m);
  if (rows == 4 && warps == 4) return pick_kernel<4, 4>(m);
  if (rows == 8 && warps == 4) return pick_kernel<8, 4>(m);
  if (rows == 4 && warps == 8) return pick_kernel<4, 8>(m);
  return nullptr;
}

class GemvStream final : public PreparedMethod {
 public:
  GemvStream(const PrepareContext& ctx, int rows, int warps, bool equal_rounds, int min_blocks, int lean)
      : spec_(ctx.spec),
        w_(ctx.w),
        rows_(rows),
        warps_(warps),
        equal_rounds_(equal_rounds),
        mb_(min_blocks),
        lp_(lean) {
    if (lp_ == 1) {  // as applicable() checks: lp1's batches must be whole
      const std::string err = lean_batch_error(spec_, rows, warps);
      if (!err.empty()) throw Error(StatusCode::unsupported, err);
    }
    // Resident blocks per SM for every token variant (same smem/regs class, but measure each);
    // mb4 has the m = 1 variant only.
    for (int i = 0; i < (mb_ == 4 ? 1 : 4); ++i) {
      const int m = 1 << i;  // 1, 2, 4, 8
      GemvKernel kern = select(rows, warps, m, mb_, lp_);
      if (!kern) throw Error(StatusCode::unsupported, "gemv_stream: rows/warps pair not compiled");
      const int64_t resident =
          resident_ctas(reinterpret_cast<const void*>(kern), warps * 32, 0, ctx.dev.sm_count, "gemv_stream");
      if (resident < 1) throw Error(StatusCode::unsupported, "gemv_stream: kernel cannot be resident on an SM");
      max_blocks_[i] = int(resident);
    }
  }

  Status run(const RunArgs& a) const override {
    if (a.m < 1 || a.m > kMaxTokens) return {StatusCode::invalid_argument, "gemv_stream: m must be in 1..8"};
    if (mb_ == 4 && a.m > 1) return {StatusCode::invalid_argument, "gemv_stream: mb4 runs m = 1 only"};
    if (a.n_out % rows_ != 0) return {StatusCode::invalid_argument, "gemv_stream: n_out % rows != 0"};
    const int vi = a.m <= 1 ? 0 : a.m <= 2 ? 1 : a.m <= 4 ? 2 : 3;
    const int groups = int(a.n_out / rows_);
    int grid = std::min(groups, max_blocks_[vi]);
    if (equal_rounds_) {  // eq1: every block the same number of groups (the last round full)
      const int rounds = (groups + grid - 1) / grid;
      grid = (groups + rounds - 1) / rounds;
    }
    GemvKernel kern = select(rows_, warps_, a.m, mb_, lp_);
    kern<<<grid, warps_ * 32, 0, a.stream>>>(static_cast<const __nv_bfloat16*>(a.x),
                                             static_cast<const __nv_bfloat16*>(w_),
                                             static_cast<__nv_bfloat16*>(a.y), a.m, int(a.n_out), int(spec_.k));
    return cuda_status(cudaGetLastError(), "gemv_stream_kernel launch");
  }

 private:
  ProjectionSpec spec_;
  const void* w_;
  int rows_, warps_;
  bool equal_rounds_;
  int mb_;
  int lp_;  // 1: the lean prologue (E90)
  int max_blocks_[4] = {0, 0, 0, 0};
};

std::vector<Config> gemv_configs() {
  return {
      // K = 8192 (qkv, pooler): 4 warps x 4 rows x 2 unrolled chunks = 8 x 16 B loads in flight
      // per thread, x reused 4x per load. Measured best at M = 1: qkv 14.85 us, pooler 22.66 us
      // (baseline 19.42 / 28.64 in the same harness).
      Config{"gemv_stream", {{"rows", 4}, {"warps", 4}}},
      // K = 4096 (unpooler 1024-row slice): 8 warps x 2 rows x 4 chunks = one pass over K per row
      // pair. Measured best at M = 1, 2 for the slice (7.07 / 8.03 us vs 9.82 / 9.73).
      Config{"gemv_stream", {{"rows", 2}, {"warps", 8}}},
      // K = 1024 (o): 128 chunks per row = 4 warps x 1 chunk, so in-flight depth comes from rows:
      // 8 rows -> 8 loads in flight. Measured best at M = 1 for o (9.31 vs 10.34) and pooler M = 2.
      Config{"gemv_stream", {{"rows", 8}, {"warps", 4}}},
      // K = 4096 (unpooler slice), E51: 8 warps x 4 rows x 2 chunks = a block's whole 32 KB of W in
      // flight at once (router_gemv_f32's shape). Measured against rows4.warps4 (same binary):
      // unpooler M 1 / 2 +4.1..+5.0 / +3.1..+3.8 % (4.42 vs 4.66 us at M 1); the plan's choice at
      // M 1..2 since run O. At K = 8192 it loses to rows2.warps8 (qkv M 1 -9.5 %, pooler -3 %).
      Config{"gemv_stream", {{"rows", 4}, {"warps", 8}}},
      // E67: rows2.warps8 with equal rounds (eq1). At M = 1 (68 registers: 3 blocks of 256
      // threads per SM) qkv's 1152 row groups run on 384 blocks (3 each) instead of 396. Same
      // binary, against rows2.warps8: qkv M 1 +1.4 % (200 pairs); pooler (2048 groups on 342
      // blocks instead of 396) -2.8 %, and rows4.warps8.eq1 -4.7..-4.9 % (session 20 call 1).
      Config{"gemv_stream", {{"rows", 2}, {"warps", 8}, {"eq", 1}}},
      // E69: rows2.warps8 with its registers capped for 4 blocks per SM (mb4, 64 registers at
      // M = 1, no spills; from M = 2 it spills): a third more weight bytes in flight per SM (E68:
      // the red5 kernels lose 1-34 % when fewer of a CTA's loads are in flight), alone and with
      // eq1. Same binary, against rows2.warps8 (session 20 call 3): qkv M 1 eq1.mb4 +2.2 % (the
      // plan's since run V), mb4 -0.6 %; pooler M 1 -1.1 / -2.0 %.
      Config{"gemv_stream", {{"rows", 2}, {"warps", 8}, {"mb", 4}}},
      Config{"gemv_stream", {{"rows", 2}, {"warps", 8}, {"eq", 1}, {"mb", 4}}},
      // E90 (session 28): the lean prologue (lp1) on the plan's three M = 1 shapes (unpooler slice,
      // pooler, qkv): the first weight load 50-90 instructions sooner (header). A block issues
      // its whole batch up front, so its prologue is on the call's critical path. Same binary, 200
      // pairs, against lp0: unpooler M 1 / 2 +6.4 / +2.5 %, qkv M 1 (eq1.mb4) +3.4 %, pooler M 1
      // eq1.mb4.lp1 +2.3 % against rows2.warps8 (rows2.warps8.lp1 -1.0 %: its 60 registers give 4
      // blocks per SM instead of 3, another grid); the plan's at those M since run Z7b. P29: the
      // gain is the addressing; the one-operation widening adds 0-0.6 %.
      Config{"gemv_stream", {{"rows", 4}, {"warps", 8}, {"lp", 1}}},
      Config{"gemv_stream", {{"rows", 2}, {"warps", 8}, {"lp", 1}}},
      Config{"gemv_stream", {{"rows", 2}, {"warps", 8}, {"eq", 1}, {"mb", 4}, {"lp", 1}}},
  };
}

std::string gemv_applicable(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi, const DeviceInfo& dev) {
  const int rows = cfg.get("rows", 0), warps = cfg.get("warps", 0), eq = cfg.get("eq", 0), mb = cfg.get("mb", 0);
  if (eq != 0 && eq != 1) return "gemv_stream: eq must be 0 or 1 (equal rounds)";
  if (mb != 0 && mb != 4) return "gemv_stream: mb must be 0 or 4 (blocks per SM the registers allow)";
  const int lp = cfg.get("lp", 0);
  if (lp != 0 && lp != 1) return "gemv_stream: lp must be 0 or 1 (the lean prologue, E90)";
  if (!select(rows, warps, 1, mb, lp)) return "gemv_stream: rows" + std::to_string(rows) + ".warps" + std::to_string(warps) +
                                      " is not a compiled config";
  if (spec.weight_dtype != DType::bf16 || spec.x_dtype != DType::bf16 || spec.out_dtype != DType::bf16)
    return "gemv_stream: needs bf16 weights, activations and output";
  if (dev.cc_major < 8) return "gemv_stream: needs sm_80+ (createpolicy / L2 cache hints)";
  if (m_lo < 1 || m_hi > kMaxTokens) return "gemv_stream: m must be in 1..8 (register accumulators)";
  if (mb == 4 && m_hi > 1) return "gemv_stream: mb4 is for m = 1 (its 64-register cap spills from m = 2)";
  if (spec.k % 8 != 0) return "gemv_stream: K % 8 != 0 (16-byte weight chunks)";
  if (spec.k > (int64_t(1) << 30) || spec.n > (int64_t(1) << 30)) return "gemv_stream: N, K must fit in int";
  if (lp == 1) {
    const std::string err = lean_batch_error(spec, rows, warps);
    if (!err.empty()) return err;
  }
  for (int m = m_lo; m <= m_hi; ++m)
    if (spec.out_cols(m) % rows != 0)
      return "gemv_stream: out_cols(" + std::to_string(m) + ") % rows" + std::to_string(rows) + " != 0";
  return "";
}

std::unique_ptr<PreparedMethod> gemv_prepare(const PrepareContext& ctx, const Config& cfg) {
  return std::make_unique<GemvStream>(ctx, cfg.get("rows", 0), cfg.get("warps", 0), cfg.get("eq", 0) == 1,
                                      cfg.get("mb", 0), cfg.get("lp", 0));
}

}  // namespace

extern const KernelFamily kGemvStream = {
    "gemv_stream",
    "streaming GEMV: 16B no-L1-allocate evict-first weight loads, ROWSxUNROLL in flight, fp32 + shuffle reduce",
    gemv_configs, gemv_applicable, gemv_prepare};

}  // namespace projkit
