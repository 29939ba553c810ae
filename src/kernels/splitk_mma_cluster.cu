// splitk_mma_cluster: split-K tensor-core kernel for skinny M (2..64), bf16 in/out, fp32 accumulate.
// Regime: a few to 64 tokens: still a weight stream (W read once), but too many tokens for a
//         SIMT GEMV to keep up with HBM; N alone gives too few output tiles to fill the SMs.
// Mechanism: operand swap y^T = W * x^T: a CTA's warps each own 16 W rows as the MMA A
//         operand (m16), tokens are the n8 B operand. mma.sync m16n8k16 bf16 -> fp32, fragments
//         by ldmatrix from an XOR-swizzled, STAGES-deep cp.async pipeline (weights .cg +
//         L2 evict-first). K is split across the CTAs of a thread-block cluster (launched with
//         cudaLaunchKernelEx cluster dims); each CTA parks its fp32 partial tile in its own smem,
//         barrier.cluster, then every CTA sums a disjoint slice of the tile over all peers'
//         smem (DSMEM, fixed rank order -> deterministic) and stores bf16. No second kernel,
//         no global scratch, so graph replay and concurrent streams are safe.
// Constraints: bf16 W/x/y; m <= 64; n_out % (16*WARPS) == 0; K % (split*128) == 0; split <= 8
//         (portable cluster size); stages*stage bytes <= opt-in smem; 16-byte aligned pointers.
#include <cooperative_groups.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>

#include "core/method.hpp"
#include "kernels/ptx.cuh"
#include "kernels/splitk_mma.cuh"

namespace cg = cooperative_groups;

namespace projkit {
namespace {

// Tile shape, swizzle, main loop and partial park: kernels/splitk_mma.cuh (shared with
// splitk_mma_l2). Compiled: WARPS 4 (BN = 64), WK 1|2, MT 8/16/32/64.
template <int WARPS, int WK, int MT>
using SplitkShape = splitk::Shape<WARPS, WK, MT>;
constexpr int kMaxRingStages = splitk::kMaxRingStages;

// grid.x = tiles * split, cluster = (split,1,1): cluster c = tile c, rank = K slice.
// x [m, k], w [>= n_out, k], y [m, n_out], all bf16 row-major. stages: ring depth 2..8.
template <int WARPS, int WK, int MT>
__global__ void __launch_bounds__(WARPS * WK * 32) splitk_mma_cluster_kernel(const __nv_bfloat16* __restrict__ x,
                                                                             const __nv_bfloat16* __restrict__ w,
                                                                             __nv_bfloat16* __restrict__ y, int m,
                                                                             int n_out, int k, int stages) {
  using S = SplitkShape<WARPS, WK, MT>;
  extern __shared__ __align__(128) uint8_t smem[];
  cg::cluster_group cluster = cg::this_cluster();
  const int split = int(cluster.num_blocks());
  const int rank = int(cluster.block_rank());
  const int tile = int(blockIdx.x) / split;
  const int n0 = tile * S::kBN;
  const int k_per = k / split;
  const int k0 = rank * k_per;
  const int ktiles = k_per / S::kBK;
  const int tid = threadIdx.x;

  float acc[S::kNT][4];  // C fragments, layout in splitk::mainloop
  splitk::mainloop<WARPS, WK, MT>(x, w, m, k, n0, k0, ktiles, stages, smem, acc);

  // fp32 partial [WK][MT][kBN] (+pad) in this CTA's smem (the ring is drained).
  float* red = reinterpret_cast<float*>(smem);
  splitk::store_partial<WARPS, WK, MT>(red, acc);
  cluster.sync();  // barrier.cluster arrive.release / wait.acquire: every partial visible

  // Rank `rank` reduces element pairs p = rank*threads + tid (+ split*threads ...) of the live
  // [min(m,MT)][kBN] tile, summing peers 0..split-1 (and their WK slabs) in a fixed order
  // (deterministic), bf16x2 stores.
  const int live_tokens = m < MT ? m : MT;
  const int pairs = live_tokens * (S::kBN / 2);
  for (int p = rank * S::kThreads + tid; p < pairs; p += split * S::kThreads) {
    const int t = p / (S::kBN / 2), n = (p % (S::kBN / 2)) * 2;
    float2 s = make_float2(0.0f, 0.0f);
    for (int q = 0; q < split; ++q) {
      const float* peer = cluster.map_shared_rank(red, q);
#pragma unroll
      for (int h = 0; h < WK; ++h) {
        const float2 v = *reinterpret_cast<const float2*>(peer + h * (MT * S::kRedStride) + t * S::kRedStride + n);
        s.x += v.x;
        s.y += v.y;
      }
    }
    *reinterpret_cast<__nv_bfloat162*>(y + std::size_t(t) * n_out + n0 + n) = __floats2bfloat162_rn(s.x, s.y);
  }
  cluster.sync();  // no CTA leaves (freeing its smem) while a peer may still read it
}

using SplitkKernel = void (*)(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, int, int, int, int);

struct KernelInfo {
  SplitkKernel fn = nullptr;
  int stage_bytes = 0, red_bytes = 0, threads = 0, bn = 0;
  // Dynamic smem for a requested ring depth, clamped to [2, 8] and to the opt-in limit.
  int stages_for(int want, std::size_t optin) const {
    int s = std::max(2, std::min(want, kMaxRingStages));
    while (s > 2 && std::size_t(s) * std::size_t(stage_bytes) > optin) --s;
    return s;
  }
  int smem_for(int stages) const { return std::max(stages * stage_bytes, red_bytes); }
};

template <int WARPS, int WK, int MT>
KernelInfo info_of() {
  using S = SplitkShape<WARPS, WK, MT>;
  return {splitk_mma_cluster_kernel<WARPS, WK, MT>, S::kStageBytes, S::kRedBytes, S::kThreads, S::kBN};
}

constexpr int kMaxTokens = 64;
constexpr int kBK = 128;
constexpr int kMaxSplit = 8;  // portable cluster size

int token_tile_index(int m) { return m <= 8 ? 0 : m <= 16 ? 1 : m <= 32 ? 2 : 3; }

template <int WARPS, int WK>
KernelInfo select_mt(int m) {
  switch (token_tile_index(m)) {
    case 0: return info_of<WARPS, WK, 8>();
    case 1: return info_of<WARPS, WK, 16>();
    case 2: return info_of<WARPS, WK, 32>();
    default: return info_of<WARPS, WK, 64>();
  }
}

// Compiled instances: (WARPS, WK) in {(4,1), (4,2)} x MT in {8, 16, 32, 64}. WARPS = 9
// (qkv as 16 tiles of 144 rows x cluster 8 = 128 CTAs) was measured and dropped: at ~1 CTA/SM
// only 15 clusters of 8 are co-resident on the H200 (GPC shapes), so 128 CTAs take two waves
// (qkv M=8: 22.6 us vs 16.3 us for warps4.split4); see docs/experiments.md ("Dense, small M", E2 / E4).
KernelInfo select(int warps, int wk, int m) {
  if (warps == 4 && wk == 1) return select_mt<4, 1>(m);
  if (warps == 4 && wk == 2) return select_mt<4, 2>(m);
  return {};
}

// split = cfg value, or (0 = auto) the largest power of two <= 8 with tiles*split <= sm_count
// and K % (split*BK) == 0: one wave, every CTA the same K length.
int resolve_split(int cfg_split, int64_t n_out, int64_t k, int bn, int sm_count) {
  if (cfg_split > 0) return cfg_split;
  const int64_t tiles = n_out / bn;
  int s = kMaxSplit;
  while (s > 1 && (tiles * s > sm_count || k % (int64_t(s) * kBK) != 0)) s >>= 1;
  return s;
}

class SplitkMmaCluster final : public PreparedMethod {
 public:
  SplitkMmaCluster(const PrepareContext& ctx, int warps, int wk, int cfg_split, int cfg_stages)
      : spec_(ctx.spec), w_(ctx.w), warps_(warps), wk_(wk) {
    for (int ti = 0; ti < 4; ++ti) {
      const KernelInfo ki = select(warps, wk, 8 << ti);
      if (!ki.fn) throw Error(StatusCode::unsupported, "splitk_mma_cluster: warps/wk pair not compiled");
      stages_[ti] = ki.stages_for(cfg_stages, ctx.dev.smem_per_block_optin);
      smem_[ti] = ki.smem_for(stages_[ti]);
      if (std::size_t(smem_[ti]) > ctx.dev.smem_per_block_optin)
        throw Error(StatusCode::unsupported, "splitk_mma_cluster: smem exceeds the device opt-in limit");
      // The attribute is per function and shared by every Projection: always the opt-in
      // maximum, so one method's prepare never shrinks another's allowance.
      cuda_check(cudaFuncSetAttribute(ki.fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      int(ctx.dev.smem_per_block_optin)),
                 "cudaFuncSetAttribute (splitk_mma_cluster smem)");
    }
    // Split per output width this spec can produce (the unpooler slice differs from full N).
    const int bn = 16 * warps;
    split_full_ = resolve_split(cfg_split, spec_.n, spec_.k, bn, ctx.dev.sm_count);
    split_slice_ = spec_.slice_max_m > 0 ? resolve_split(cfg_split, spec_.slice_rows, spec_.k, bn, ctx.dev.sm_count)
                                         : split_full_;
    // The cluster must be schedulable (DSMEM peers co-resident) at the largest smem.
    for (int s : {split_full_, split_slice_}) {
      for (int ti = 0; ti < 4; ++ti) {
        const KernelInfo ki = select(warps, wk, 8 << ti);
        cudaLaunchConfig_t lc{};
        cudaLaunchAttribute attr{};
        attr.id = cudaLaunchAttributeClusterDimension;
        attr.val.clusterDim.x = unsigned(s);
        attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
        lc.gridDim = dim3(unsigned(s), 1, 1);
        lc.blockDim = dim3(unsigned(ki.threads), 1, 1);
        lc.dynamicSmemBytes = std::size_t(smem_[ti]);
        lc.attrs = &attr;
        lc.numAttrs = 1;
        int clusters = 0;
        cuda_check(cudaOccupancyMaxActiveClusters(&clusters, reinterpret_cast<const void*>(ki.fn), &lc),
                   "cudaOccupancyMaxActiveClusters (splitk_mma_cluster)");
        if (clusters < 1)
          throw Error(StatusCode::unsupported, "splitk_mma_cluster: cluster of split CTAs cannot be resident");
      }
    }
  }

  Status run(const RunArgs& a) const override {
    if (a.m < 1 || a.m > kMaxTokens) return {StatusCode::invalid_argument, "splitk_mma_cluster: m must be in 1..64"};
    const int ti = token_tile_index(a.m);
    const KernelInfo ki = select(warps_, wk_, a.m);
    if (a.n_out % ki.bn != 0) return {StatusCode::invalid_argument, "splitk_mma_cluster: n_out % (16*warps) != 0"};
    const int split = a.n_out == spec_.n ? split_full_ : split_slice_;
    cudaLaunchConfig_t lc{};
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = unsigned(split);
    attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
    lc.gridDim = dim3(unsigned(a.n_out / ki.bn) * unsigned(split), 1, 1);
    lc.blockDim = dim3(unsigned(ki.threads), 1, 1);
    lc.dynamicSmemBytes = std::size_t(smem_[ti]);
    lc.stream = a.stream;
    lc.attrs = &attr;
    lc.numAttrs = 1;
    cudaError_t e = cudaLaunchKernelEx(&lc, ki.fn, static_cast<const __nv_bfloat16*>(a.x),
                                       static_cast<const __nv_bfloat16*>(w_), static_cast<__nv_bfloat16*>(a.y), a.m,
                                       int(a.n_out), int(spec_.k), stages_[ti]);
    if (e != cudaSuccess) return cuda_status(e, "splitk_mma_cluster_kernel launch (cudaLaunchKernelEx)");
    return cuda_status(cudaGetLastError(), "splitk_mma_cluster_kernel launch");
  }

 private:
  ProjectionSpec spec_;
  const void* w_;
  int warps_, wk_;
  int split_full_ = 1, split_slice_ = 1;
  int stages_[4] = {2, 2, 2, 2};
  int smem_[4] = {0, 0, 0, 0};
};

constexpr int kDefaultStages = 4;

// Params: warps (row slabs, BN = 16*warps), wk (warps per slab, default 1), split (0/absent =
// auto), stages (ring depth, default 4, clamped per token tile to the opt-in smem).
std::vector<Config> splitk_configs() {
  return {
      // BN = 64, 4-deep ring (72-128 KB smem, up to 2 CTAs/SM); split auto: o 128x1, pooler
      // 64x2, unpooler 128x1 and its 1024-row slice 16x8 -> 128 CTAs, one wave.
      // Measured best: pooler M 3..16, unpooler slice M 3..8.
      Config{"splitk_mma_cluster", {{"warps", 4}}},
      // qkv: 36 tiles of 64 rows x 4 K slices = 144 CTAs (2 per SM where needed; a cluster of
      // 4 at 72 KB has 92 co-resident slots). Measured best: qkv M 2..16 (1.12-1.20x the
      // baseline); best of this family to M = 32 (0.92x there).
      Config{"splitk_mma_cluster", {{"warps", 4}, {"split", 4}}},
      // unpooler full N (K = 4096) / o: 2 K slices -> 256 CTAs, 2 co-resident per SM.
      // Measured best: unpooler M 9..32.
      Config{"splitk_mma_cluster", {{"warps", 4}, {"split", 2}}},
      // 8-deep ring (~1 CTA/SM, 112-192 KB in flight). Measured best: pooler M 17..32 (by ~2%).
      Config{"splitk_mma_cluster", {{"warps", 4}, {"stages", 8}}},
      // 8-deep ring + 2 warps per row slab (8 warps/CTA) to hide ldmatrix/mma latency at MT 64.
      // Measured best of this family at M >= 33 (still slower than the baseline there).
      Config{"splitk_mma_cluster", {{"warps", 4}, {"wk", 2}, {"stages", 8}}},
  };
}

std::string splitk_applicable(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi,
                              const DeviceInfo& dev) {
  const int warps = cfg.get("warps", 0), wk = cfg.get("wk", 1), cfg_split = cfg.get("split", 0);
  const int stages = cfg.get("stages", kDefaultStages);
  const KernelInfo ki = select(warps, wk, 1);
  if (!ki.fn)
    return "splitk_mma_cluster: warps" + std::to_string(warps) + ".wk" + std::to_string(wk) +
           " is not compiled (warps 4, wk 1|2)";
  if (cfg_split < 0 || cfg_split > kMaxSplit || (cfg_split & (cfg_split - 1)) != 0)
    return "splitk_mma_cluster: split must be 0 (auto) or a power of two <= 8 (portable cluster size)";
  if (stages < 2 || stages > kMaxRingStages) return "splitk_mma_cluster: stages must be in 2..8";
  if (spec.weight_dtype != DType::bf16 || spec.x_dtype != DType::bf16 || spec.out_dtype != DType::bf16)
    return "splitk_mma_cluster: needs bf16 weights, activations and output";
  if (dev.cc_major < 9) return "splitk_mma_cluster: needs sm_90 (thread-block clusters, DSMEM)";
  if (m_lo < 1 || m_hi > kMaxTokens) return "splitk_mma_cluster: m must be in 1..64 (token tile <= 64)";
  if (spec.k > (int64_t(1) << 30) || spec.n > (int64_t(1) << 30)) return "splitk_mma_cluster: N, K must fit in int";
  for (int m = m_lo; m <= m_hi; ++m) {
    const KernelInfo km = select(warps, wk, m);
    const int st = km.stages_for(stages, dev.smem_per_block_optin);
    if (std::size_t(km.smem_for(st)) > dev.smem_per_block_optin)
      return "splitk_mma_cluster: needs " + std::to_string(km.smem_for(st)) + " B smem per block > device opt-in";
    const int64_t n_out = spec.out_cols(m);
    if (n_out % km.bn != 0)
      return "splitk_mma_cluster: out_cols(" + std::to_string(m) + ") % " + std::to_string(km.bn) + " (16*warps) != 0";
    const int split = resolve_split(cfg_split, n_out, spec.k, km.bn, dev.sm_count);
    if (spec.k % (int64_t(split) * kBK) != 0)
      return "splitk_mma_cluster: K % (split*128) != 0 (split " + std::to_string(split) + ")";
  }
  return "";
}

std::unique_ptr<PreparedMethod> splitk_prepare(const PrepareContext& ctx, const Config& cfg) {
  return std::make_unique<SplitkMmaCluster>(ctx, cfg.get("warps", 0), cfg.get("wk", 1), cfg.get("split", 0),
                                            cfg.get("stages", kDefaultStages));
}

}  // namespace

extern const KernelFamily kSplitkMmaCluster = {
    "splitk_mma_cluster",
    "split-K mma.sync m16n8k16 (W as A, tokens as B), cp.async swizzled pipeline, cluster DSMEM reduction",
    splitk_configs, splitk_applicable, splitk_prepare};

}  // namespace projkit
