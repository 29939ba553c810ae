// splitk_mma_l2: split-K tensor-core kernel for skinny M (1..64), bf16 in/out, fp32 accumulate,
// K splits combined in fp32 at L2 (no thread-block clusters).
// Regime: a few to 64 tokens: a weight stream (W read once) with too few output tiles along N
//         to fill the SMs, so K is split; the cluster/DSMEM combine of splitk_mma_cluster costs
//         ~2.7 us more per call than L2 atomics (router exp. 6) and clusters of 8 at 1 CTA/SM
//         fit only 15 at once on the H200, so this family combines splits through L2 instead.
// Mechanism: main loop shared with splitk_mma_cluster (kernels/splitk_mma.cuh): W rows as the
//         m16 A operand, tokens as the n8 B operand, mma.sync m16n8k16 bf16 -> fp32 from an
//         XOR-swizzled cp.async ring. Each CTA owns one (BN-row tile, K slice). Combine: the CTA
//         parks its fp32 partial in smem, adds it with red.global.add.v4.f32 into a workspace
//         ws[m][n_out] (fp32, owned by the prepared method), fences, and bumps the tile's arrival
//         counter. The CTA that arrives last (count == split-1) reads the finished tile from L2
//         (ld.global.cg), stores it as bf16 into y, and writes the tile's workspace back to zero
//         and its counter back to 0. Self-cleaning: between calls the workspace is all zero and
//         every counter 0 (zeroed once in prepare), so CUDA-graph replays need no zero kernel.
//         split == 1: no workspace, the CTA stores bf16 directly.
// Concurrency: one Projection runs on one stream at a time (the library contract, like a cuBLAS
//         handle); two Projections own separate workspaces and counters, so they may run
//         concurrently on two streams. The fp32 order of the split adds is not fixed (last bits
//         may differ between calls); NaN/Inf propagate through the fp32 adds.
// Constraints: bf16 W/x/y; sm_90 (red.global.add.v4.f32); 1 <= m <= min(max_m, 64);
//         n_out % rows == 0; K % (split*128) == 0; a 2-stage ring fits the opt-in smem;
//         x and y 16-byte aligned.
#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/method.hpp"
#include "kernels/ptx.cuh"
#include "kernels/splitk_mma.cuh"

namespace projkit {
namespace {

constexpr int kMaxTokens = 64;  // largest token tile (MT)
constexpr int kBK = splitk::kBK;
constexpr int kMaxSplit = 64;   // no cluster limit; 64 keeps >= 1 ring stage per split at K = 8192

// Four fp32 -> four bf16 (round to nearest) in one 8-byte store. p: 8-byte aligned.
__device__ __forceinline__ void store_bf16x4(__nv_bfloat16* p, const float4& v) {
  const __nv_bfloat162 lo = __floats2bfloat162_rn(v.x, v.y);
  const __nv_bfloat162 hi = __floats2bfloat162_rn(v.z, v.w);
  uint2 u;
  u.x = *reinterpret_cast<const uint32_t*>(&lo);
  u.y = *reinterpret_cast<const uint32_t*>(&hi);
  *reinterpret_cast<uint2*>(p) = u;
}

// grid.x = tiles * split, block = (tile = blockIdx.x / split, K slice = blockIdx.x % split).
// WARPS: 16-row MMA slabs per CTA (BN = 16*WARPS W rows; compiled 4 -> 64 rows, 8 -> 128 rows).
// MT:    token tile (8/16/32/64), the smallest >= m; token rows >= m are zero-filled.
// WK:    warps per 16-row slab (config key wk, E80): 1, or 2 splitting each stage's k16 steps
//        (splitk::Shape), their fp32 partials summed in a fixed order in the epilogue. P20: with
//        WK = 1 each SM sub-partition runs one warp, and o's call is that warp's instruction
//        stream (active cycles = instructions x ~4.8 cycles each), not the HBM stream.
// x [m, k], w [>= n_out, k], y [m, n_out] bf16 row-major; ws [>= m, n_out] fp32, all zero on
// entry and on exit; counters [n_out / BN] u32, all 0 on entry and on exit (split > 1 only).
// LEAN: lp1 (E90), split 1 only (the host checks): the tile is blockIdx.x and the K slice all of
//        K (no integer division in the prologue), and the main loop's W addresses are formed once
//        per thread (splitk::mainloop's LEAN).
template <int WARPS, int MT, int WK = 1, bool LEAN = false>
__global__ void __launch_bounds__(WARPS * WK * 32) splitk_mma_l2_kernel(const __nv_bfloat16* __restrict__ x,
                                                                   const __nv_bfloat16* __restrict__ w,
                                                                   __nv_bfloat16* __restrict__ y, float* ws,
                                                                   unsigned* counters, int m, int n_out, int k,
                                                                   int split, int stages) {
  using S = splitk::Shape<WARPS, WK, MT>;
  static_assert(S::kBN % 4 == 0, "tile rows come in float4 runs");
  static_assert(S::kThreads >= 32, "at least one warp");
  extern __shared__ __align__(128) uint8_t smem[];
  const int tile = LEAN ? int(blockIdx.x) : int(blockIdx.x) / split;
  const int part = LEAN ? 0 : int(blockIdx.x) - tile * split;
  const int n0 = tile * S::kBN;      // first W row / output column of the tile
  const int k_per = LEAN ? k : k / split;  // K slice length (host checks K % (split*kBK) == 0)
  const int k0 = part * k_per;
  const int ktiles = k_per / S::kBK;
  const int tid = threadIdx.x;

  float acc[S::kNT][4];  // C fragments, layout in splitk::mainloop
  splitk::mainloop<WARPS, WK, MT, LEAN>(x, w, m, k, n0, k0, ktiles, stages, smem, acc);

  // fp32 partials red[WK][MT][kRedStride] in smem (ring drained by mainloop's final barrier).
  float* red = reinterpret_cast<float*>(smem);
  splitk::store_partial<WARPS, WK, MT>(red, acc);
  __syncthreads();
  // The CTA's partial of (token t, rows c..c+3): the WK warps' partials summed in order.
  auto partial = [red](int t, int c) {
    float4 v = *reinterpret_cast<const float4*>(red + t * S::kRedStride + c);
#pragma unroll
    for (int q = 1; q < WK; ++q) {
      const float4 u = *reinterpret_cast<const float4*>(red + (q * MT + t) * S::kRedStride + c);
      v = make_float4(v.x + u.x, v.y + u.y, v.z + u.z, v.w + u.w);
    }
    return v;
  };

  constexpr int kRowF4 = S::kBN / 4;           // float4 per token row of the tile
  const int live = m < MT ? m : MT;            // == m (host picks MT >= m)
  const int nf4 = live * kRowF4;               // live float4 of the [live][kBN] tile
  if (split == 1) {  // whole K in this CTA: no combine
    for (int f = tid; f < nf4; f += S::kThreads) {
      const int t = f / kRowF4, c = (f - t * kRowF4) * 4;
      const float4 v = partial(t, c);
      store_bf16x4(y + std::size_t(t) * n_out + n0 + c, v);
    }
    return;
  }

  // 1) add the partial into the workspace at L2 (token row t of the tile: ws + t*n_out + n0).
  float* wst = ws + n0;
  for (int f = tid; f < nf4; f += S::kThreads) {
    const int t = f / kRowF4, c = (f - t * kRowF4) * 4;
    const float4 v = partial(t, c);
    ptx::red_add_v4(wst + std::size_t(t) * n_out + c, v);
  }
  // 2) arrive: every thread's reds are ordered before the counter bump (fence, then barrier,
  //    then one thread's atomic; the pattern of the CUDA threadfence reduction sample).
  __threadfence();
  __syncthreads();
  int is_last = 0;
  if (tid == 0) {
    const unsigned arrived = atomicAdd(counters + tile, 1u);
    is_last = arrived == unsigned(split - 1);
    if (is_last) __threadfence();  // acquire side: the other splits' reds are visible to this CTA
  }
  if (!__syncthreads_or(is_last)) return;

  // 3) last CTA of the tile: finished fp32 tile -> bf16 y; workspace tile and counter back to 0
  //    (no other CTA of this call touches the tile any more: all split CTAs have arrived).
  for (int f = tid; f < nf4; f += S::kThreads) {
    const int t = f / kRowF4, c = (f - t * kRowF4) * 4;
    float* p = wst + std::size_t(t) * n_out + c;
    const float4 v = ptx::ld_cg_f4(p);
    *reinterpret_cast<float4*>(p) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    store_bf16x4(y + std::size_t(t) * n_out + n0 + c, v);
  }
  if (tid == 0) counters[tile] = 0u;
}

using L2Kernel = void (*)(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, float*, unsigned*, int, int, int,
                          int, int);

struct KernelInfo {
  L2Kernel fn = nullptr;
  int stage_bytes = 0, red_bytes = 0, threads = 0, bn = 0;
  int smem_for(int stages) const { return std::max(stages * stage_bytes, red_bytes); }
};

template <int WARPS, int MT, int WK, bool LEAN = false>
KernelInfo info_of() {
  using S = splitk::Shape<WARPS, WK, MT>;
  return {splitk_mma_l2_kernel<WARPS, MT, WK, LEAN>, S::kStageBytes, S::kRedBytes, S::kThreads, S::kBN};
}

int token_tile_index(int m) { return m <= 8 ? 0 : m <= 16 ? 1 : m <= 32 ? 2 : 3; }

template <int WARPS, int WK = 1, bool LEAN = false>
KernelInfo select_mt(int m) {
  switch (token_tile_index(m)) {
    case 0: return info_of<WARPS, 8, WK, LEAN>();
    case 1: return info_of<WARPS, 16, WK, LEAN>();
    case 2: return info_of<WARPS, 32, WK, LEAN>();
    default: return info_of<WARPS, 64, WK, LEAN>();
  }
}

// Compiled instances: rows 64 (4 warps) and 128 (8 warps) x MT 8/16/32/64 = 8 kernels, and rows 64
// with two warps per slab (wk2, E80) x MT 8/16/32/64 = 4 more; the lean prologue (lp1, E90) of
// the rows-64 kernels, wk 1 and 2: 8 more.
KernelInfo select(int rows, int m, int wk = 1, int lp = 0) {
  if (lp == 1) {
    if (rows != 64) return {};
    return wk == 2 ? select_mt<4, 2, true>(m) : wk == 1 ? select_mt<4, 1, true>(m) : KernelInfo{};
  }
  if (lp != 0) return {};
  if (wk == 2) return rows == 64 ? select_mt<4, 2>(m) : KernelInfo{};
  if (wk != 1) return {};
  if (rows == 64) return select_mt<4>(m);
  if (rows == 128) return select_mt<8>(m);
  return {};
}

// split = cfg value, or (0 = auto) the largest power of two s <= kMaxSplit with
// tiles*s <= 2*sm_count (one wave at 2 CTAs/SM) and K % (s*kBK) == 0.
int resolve_split(int cfg_split, int64_t n_out, int64_t k, int bn, int sm_count) {
  if (cfg_split > 0) return cfg_split;
  const int64_t tiles = n_out / bn;
  int s = kMaxSplit;
  while (s > 1 && (tiles * s > 2 * int64_t(sm_count) || k % (int64_t(s) * kBK) != 0)) s >>= 1;
  return s;
}

// Ring depth for one launch shape: the requested depth, lowered (to >= 2) until the CTAs each
// SM must hold for a single wave (ceil(grid / sm_count)) fit its shared memory together.
int pick_stages(const KernelInfo& ki, int want, int64_t grid, int sm_count, std::size_t smem_per_sm,
                std::size_t reserved_per_block, std::size_t optin) {
  const int64_t per_sm = std::max<int64_t>(1, (grid + sm_count - 1) / sm_count);
  const std::size_t share = smem_per_sm / std::size_t(per_sm);
  const std::size_t budget = std::min(optin, share > reserved_per_block ? share - reserved_per_block : 0);
  int s = std::max(2, std::min(want, splitk::kMaxRingStages));
  while (s > 2 && std::size_t(ki.smem_for(s)) > budget) --s;
  return s;
}

// lp1's kernels take the tile from blockIdx.x and all of K as their slice: a K split would send
// CTAs past the last tile. "" or the violated constraint (applicable() and prepare both ask).
std::string lean_split_error(int lp, int cfg_split) {
  return lp == 1 && cfg_split != 1 ? "splitk_mma_l2: lp1 needs split 1 (its K slice is all of K)" : "";
}

class SplitkMmaL2 final : public PreparedMethod {
 public:
  SplitkMmaL2(const PrepareContext& ctx, int rows, int cfg_split, int cfg_stages, int wk, int lp)
      : spec_(ctx.spec), w_(ctx.w), rows_(rows), wk_(wk), lp_(lp), max_m_(std::min(ctx.max_m, kMaxTokens)) {
    if (!select(rows, 1, wk, lp).fn)
      throw Error(StatusCode::unsupported,
                  "splitk_mma_l2: rows must be 64 or 128, wk 1 (or 2 with rows 64), lp1 with rows 64 only");
    if (const std::string err = lean_split_error(lp, cfg_split); !err.empty())
      throw Error(StatusCode::unsupported, err);
    if (max_m_ < 1) throw Error(StatusCode::invalid_argument, "splitk_mma_l2: max_m < 1");
    int smem_per_sm = 0, reserved = 0;
    cuda_check(cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, ctx.dev.ordinal),
               "cudaDeviceGetAttribute (smem per SM)");
    cuda_check(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, ctx.dev.ordinal),
               "cudaDeviceGetAttribute (reserved smem per block)");
    // Output widths this spec produces: [0] full N, [1] the small-M row slice (if any).
    n_out_[0] = spec_.n;
    n_out_[1] = spec_.slice_max_m > 0 ? spec_.slice_rows : spec_.n;
    for (int si = 0; si < 2; ++si) {
      split_[si] = resolve_split(cfg_split, n_out_[si], spec_.k, rows, ctx.dev.sm_count);
      if (spec_.k % (int64_t(split_[si]) * kBK) != 0 || n_out_[si] % rows != 0) {
        // Full N must work; a slice shape that does not fit only fails the calls that use it.
        if (si == 0) throw Error(StatusCode::unsupported, "splitk_mma_l2: K % (split*128) != 0 or N % rows != 0");
        split_[si] = 0;
        continue;
      }
      const int64_t grid = n_out_[si] / rows * split_[si];
      for (int ti = 0; ti < 4; ++ti) {
        const KernelInfo ki = select(rows, 8 << ti, wk_, lp_);
        stages_[si][ti] = pick_stages(ki, cfg_stages, grid, ctx.dev.sm_count, std::size_t(smem_per_sm),
                                      std::size_t(reserved), ctx.dev.smem_per_block_optin);
        smem_[si][ti] = ki.smem_for(stages_[si][ti]);
        if (std::size_t(smem_[si][ti]) > ctx.dev.smem_per_block_optin)
          throw Error(StatusCode::unsupported, "splitk_mma_l2: smem exceeds the device opt-in limit");
      }
    }
    for (int ti = 0; ti < 4; ++ti) {
      // Per-function attribute shared by every Projection: always the opt-in maximum, so one
      // method's prepare never shrinks another's allowance.
      cuda_check(cudaFuncSetAttribute(select(rows, 8 << ti, wk_, lp_).fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      int(ctx.dev.smem_per_block_optin)),
                 "cudaFuncSetAttribute (splitk_mma_l2 smem)");
    }
    // Workspace [max_m][N] fp32 + one arrival counter per tile, zeroed once; every call leaves
    // them zero again (the last CTA of each tile cleans up).
    if (split_[0] > 1 || split_[1] > 1) {  // split 1 never touches them
      ws_ = DeviceBuffer(std::size_t(max_m_) * std::size_t(spec_.n) * sizeof(float));
      counters_ = DeviceBuffer(std::size_t(spec_.n / rows) * sizeof(unsigned));
      cuda_check(cudaMemsetAsync(ws_.get(), 0, ws_.bytes(), nullptr), "cudaMemsetAsync (splitk_mma_l2 workspace)");
      cuda_check(cudaMemsetAsync(counters_.get(), 0, counters_.bytes(), nullptr),
                 "cudaMemsetAsync (splitk_mma_l2 counters)");
      cuda_check(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize (splitk_mma_l2 prepare)");
    }
  }

  Status run(const RunArgs& a) const override {
    if (a.m < 1 || a.m > max_m_)
      return {StatusCode::invalid_argument, "splitk_mma_l2: m must be in 1..min(max_m, 64)"};
    if ((reinterpret_cast<uintptr_t>(a.x) | reinterpret_cast<uintptr_t>(a.y)) % 16 != 0)
      return {StatusCode::invalid_argument, "splitk_mma_l2: x and y must be 16-byte aligned"};
    const int si = a.n_out == n_out_[0] ? 0 : a.n_out == n_out_[1] ? 1 : -1;
    if (si < 0) return {StatusCode::invalid_argument, "splitk_mma_l2: n_out is neither N nor the slice width"};
    const int ti = token_tile_index(a.m);
    const KernelInfo ki = select(rows_, a.m, wk_, lp_);
    const int split = split_[si];
    if (split < 1) return {StatusCode::invalid_argument, "splitk_mma_l2: slice width % rows or K % (split*128) != 0"};
    const unsigned grid = unsigned(a.n_out / ki.bn) * unsigned(split);
    ki.fn<<<grid, unsigned(ki.threads), std::size_t(smem_[si][ti]), a.stream>>>(
        static_cast<const __nv_bfloat16*>(a.x), static_cast<const __nv_bfloat16*>(w_), static_cast<__nv_bfloat16*>(a.y),
        ws_.as<float>(), counters_.as<unsigned>(), a.m, int(a.n_out), int(spec_.k), split, stages_[si][ti]);
    return cuda_status(cudaGetLastError(), "splitk_mma_l2_kernel launch");
  }

 private:
  ProjectionSpec spec_;
  const void* w_;
  int rows_;
  int wk_;  // warps per 16-row slab (E80)
  int lp_;  // 1: the lean prologue (E90): split 1, W addresses formed once
  int max_m_;  // workspace rows: min(ctx.max_m, 64)
  int64_t n_out_[2] = {0, 0};
  int split_[2] = {1, 1};
  int stages_[2][4] = {{2, 2, 2, 2}, {2, 2, 2, 2}};
  int smem_[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
  DeviceBuffer ws_;        // fp32 [max_m][N], zero between calls
  DeviceBuffer counters_;  // u32 [N / rows], 0 between calls
};

constexpr int kDefaultStages = 4;

// Params: rows (W rows per CTA: 64 | 128), split (K splits; 0 = auto: the largest power of two
// with tiles*split <= 2*sm_count, i.e. one wave at 2 CTAs/SM), stages (ring depth, default 4,
// lowered per launch so that the whole grid is co-resident). Grids below for 132 SMs.
std::vector<Config> l2_configs() {
  return {
      // The general config: one wave of ~2 CTAs/SM everywhere. qkv 36x4 = 144 CTAs, pooler 64x4 =
      // 256, o 128x2 = 256, unpooler 128x2 = 256, unpooler slice 16x16 = 256 (the cluster family
      // could not go past 8 splits there). Run 1 (docs/experiments.md E6): 1.18x on the slice M 2..8.
      Config{"splitk_mma_l2", {{"rows", 64}, {"split", 0}}},
      // qkv: 36x8 = 288 CTAs (3/SM at 3 stages), K slice 1024: more independent streams than
      // the cluster family could keep resident (clusters of 8 at 1 CTA/SM: 15 at once).
      // Run 1: best qkv M 2..32 (1.20x at M 2/8, 1.17x M 16, 1.07x M 32).
      Config{"splitk_mma_l2", {{"rows", 64}, {"split", 8}}},
      // Half the workspace atomics of auto (m*N*split*4 bytes of red traffic matters at M 32..64):
      // pooler 64x2 = 128 CTAs of 4096 K, o and unpooler 128x2 = 256. Untimed.
      Config{"splitk_mma_l2", {{"rows", 64}, {"split", 2}}},
      // o / unpooler full N: 128 tiles x 1 = 128 CTAs, no combine at all (direct bf16 store):
      // the cost floor of this main loop without split-K; o's short K (1024) favours it.
      // Run 1: o M 2..16 1.05-1.13x (the only combine-free config), unpooler M 16 1.03x.
      Config{"splitk_mma_l2", {{"rows", 64}, {"split", 1}}},
      // 128-row tiles: x re-read from L2 per W byte halved (MT/BN), for M 32..64. Auto split:
      // qkv 18x8 = 144, pooler 32x8 = 256, o 64x4 = 256, unpooler 64x4 = 256, slice 8x32 = 256.
      // Run 1: best pooler M 2..32 (1.24x M 2, 1.13x M 32), slice M 2 (6.1 us).
      Config{"splitk_mma_l2", {{"rows", 128}, {"split", 0}}},
      // 128-row tiles with fewer splits for M 32..64: pooler / unpooler 32|64 x 4 = 128|256 CTAs,
      // half the red traffic of rows128 auto on pooler; qkv 18x4 = 72 CTAs (for comparison). Untimed.
      Config{"splitk_mma_l2", {{"rows", 128}, {"split", 4}}},
      // split 1 with an 8-deep ring (lowered per token tile to what fits: MT <= 32 keeps 8, MT 64
      // gets 7): o's whole K slice (8 k-tiles of 128) is requested at kernel start instead of 3
      // stages at a time. Small-M E16 (H200, session 4; us / ratio vs the same run's baseline):
      // o M 24 6.96 / 1.068 and M 32 6.94 / 1.068 (split1 with 4 stages: 7.44 / 1.004, 7.62 / 0.990);
      // M 48..64 (MT 64) 9.5 / 0.79: baseline there; unpooler M 9..32 no better than cluster.split2.
      Config{"splitk_mma_l2", {{"rows", 64}, {"split", 1}, {"stages", 8}}},
      // E80 (session 22): the two o configs of the plan (M 1..16, 17..32) with two warps per slab
      // (256 threads per CTA, each warp half of every stage's k16 steps and of its cp.async): P20's
      // counters put o's call on one warp per SM sub-partition issuing ~2200 instructions at ~4.8
      // cycles each (active cycles = the kernel time, HBM at 42-47 % of peak).
      Config{"splitk_mma_l2", {{"rows", 64}, {"split", 1}, {"wk", 2}}},
      Config{"splitk_mma_l2", {{"rows", 64}, {"split", 1}, {"stages", 8}, {"wk", 2}}},
      // E90 (session 28): the plan's three o configs (M 1..8, 9..16, 17..32) with the lean prologue
      // (lp1): no integer division for the block's tile and K slice, W addresses formed once per
      // thread. sm_90a SASS, first cp.async at instruction (lp0 -> lp1): MT 8 201 -> 91, every
      // rows-64 kernel 155-201 -> 85-93. Same binary, 200 pairs, against lp0: o M 1 / 8 +2.5 /
      // +2.3 %, M 16 (wk2) +1.9 %, M 32 (stages8) -3.3 %; plan Z7b runs the first two at o M 1..16.
      Config{"splitk_mma_l2", {{"rows", 64}, {"split", 1}, {"lp", 1}}},
      // Plan Z8b also runs wk2.lp1 at o M 17..32 (E93c, session 29, 300 pairs against stages8:
      // +2.1 / +2.5 / +2.9 / +2.4 / +4.1 / +1.2 % at M 17 / 20 / 24 / 28 / 31 / 32). Its 8-deep twin
      // stages8.wk2.lp1 lost there (E93b: -0.7..-1.5 %) and is not listed.
      Config{"splitk_mma_l2", {{"rows", 64}, {"split", 1}, {"wk", 2}, {"lp", 1}}},
      Config{"splitk_mma_l2", {{"rows", 64}, {"split", 1}, {"stages", 8}, {"lp", 1}}},
  };
}

std::string l2_applicable(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi, const DeviceInfo& dev) {
  const int rows = cfg.get("rows", 0), cfg_split = cfg.get("split", 0);
  const int stages = cfg.get("stages", kDefaultStages), wk = cfg.get("wk", 1);
  if (!select(rows, 1).fn) return "splitk_mma_l2: rows" + std::to_string(rows) + " is not compiled (rows 64 | 128)";
  if (!select(rows, 1, wk).fn) return "splitk_mma_l2: wk must be 1, or 2 with rows 64 (E80)";
  const int lp = cfg.get("lp", 0);
  if (lp != 0 && lp != 1) return "splitk_mma_l2: lp must be 0 or 1 (the lean prologue, E90)";
  if (!select(rows, 1, wk, lp).fn) return "splitk_mma_l2: lp1 is compiled for rows 64 only";
  if (const std::string err = lean_split_error(lp, cfg_split); !err.empty()) return err;
  if (cfg_split < 0 || cfg_split > kMaxSplit) return "splitk_mma_l2: split must be 0 (auto) or 1..64";
  if (stages < 2 || stages > splitk::kMaxRingStages) return "splitk_mma_l2: stages must be in 2..8";
  if (spec.weight_dtype != DType::bf16 || spec.x_dtype != DType::bf16 || spec.out_dtype != DType::bf16)
    return "splitk_mma_l2: needs bf16 weights, activations and output";
  if (!dev.is_hopper_sm90()) return "splitk_mma_l2: needs sm_90 (red.global.add.v4.f32; built for sm_90a)";
  if (m_lo < 1 || m_hi < m_lo || m_hi > kMaxTokens) return "splitk_mma_l2: m must be in 1..64 (token tile <= 64)";
  if (spec.k > (int64_t(1) << 30) || spec.n > (int64_t(1) << 24)) return "splitk_mma_l2: N, K too large for int";
  for (int m = m_lo; m <= m_hi; ++m) {
    const KernelInfo km = select(rows, m, wk);
    if (std::size_t(km.smem_for(2)) > dev.smem_per_block_optin)
      return "splitk_mma_l2: needs " + std::to_string(km.smem_for(2)) + " B smem per block (2 stages) > device opt-in";
    const int64_t n_out = spec.out_cols(m);
    if (n_out % rows != 0)
      return "splitk_mma_l2: out_cols(" + std::to_string(m) + ") % " + std::to_string(rows) + " (rows) != 0";
    const int split = resolve_split(cfg_split, n_out, spec.k, rows, dev.sm_count);
    if (spec.k % (int64_t(split) * kBK) != 0)
      return "splitk_mma_l2: K % (split*128) != 0 (K " + std::to_string(spec.k) + ", split " + std::to_string(split) +
             ")";
  }
  return "";
}

std::unique_ptr<PreparedMethod> l2_prepare(const PrepareContext& ctx, const Config& cfg) {
  return std::make_unique<SplitkMmaL2>(ctx, cfg.get("rows", 0), cfg.get("split", 0),
                                       cfg.get("stages", kDefaultStages), cfg.get("wk", 1), cfg.get("lp", 0));
}

}  // namespace

extern const KernelFamily kSplitkMmaL2 = {
    "splitk_mma_l2",
    "split-K mma.sync m16n8k16 (W as A, tokens as B), cp.async swizzled pipeline, fp32 red.v4 into a "
    "self-cleaning workspace, last-arriving CTA converts to bf16",
    l2_configs, l2_applicable, l2_prepare};

}  // namespace projkit
