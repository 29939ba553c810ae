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

namespace cg = cooperative_groups;

namespace projkit {
namespace {

// Wait until at most n cp.async groups are pending (n is the runtime ring depth - 2; the
// instruction needs an immediate, so a uniform switch picks it).
__device__ __forceinline__ void cp_async_wait_dyn(int n) {
  switch (n) {
    case 0: ptx::cp_async_wait<0>(); break;
    case 1: ptx::cp_async_wait<1>(); break;
    case 2: ptx::cp_async_wait<2>(); break;
    case 3: ptx::cp_async_wait<3>(); break;
    case 4: ptx::cp_async_wait<4>(); break;
    case 5: ptx::cp_async_wait<5>(); break;
    default: ptx::cp_async_wait<6>(); break;
  }
}

// ---------------------------------------------------------------- tile shape
constexpr int kMaxRingStages = 8;  // cp_async_wait_dyn covers waits for rings of <= 8 stages

// WARPS: 16-row MMA slabs per CTA (BN = 16*WARPS W rows); with split, picked so that
//        tiles x split fills the SMs in one wave (compiled: 4, i.e. BN = 64).
// WK:    warps sharing one slab, each taking 1/WK of every stage's k16 steps (intra-CTA
//        split-K): more warps per SM sub-partition to hide ldmatrix/mma latency at MT >= 32.
// MT:    token tile (MMA n dimension), 8/16/32/64; runtime m <= MT, rows >= m are zeros.
// The ring depth (stages) is a runtime value: bytes in flight per SM is the knob that sets
// the achieved bandwidth (Little's law), and it is clamped to the device's opt-in smem.
template <int WARPS, int WK, int MT>
struct SplitkShape {
  static constexpr int kThreads = WARPS * WK * 32;
  static constexpr int kBN = 16 * WARPS;                  // W rows per CTA
  static constexpr int kBK = 128;                         // K per stage: 256 B = 16 chunks per row
  static constexpr int kChunks = kBK / 8;                 // 16-byte chunks per smem row
  static constexpr int kKSteps = kBK / 16 / WK;           // k16 steps per warp per stage
  static constexpr int kWStageBytes = kBN * kBK * 2;      // W tile [kBN][kBK] bf16, swizzled
  static constexpr int kXStageBytes = MT * kBK * 2;       // x tile [MT][kBK] bf16, swizzled
  static constexpr int kStageBytes = kWStageBytes + kXStageBytes;
  static constexpr int kRedStride = kBN + 4;              // fp32 partial [WK][MT][kBN+4] (pad: banks)
  static constexpr int kRedBytes = WK * MT * kRedStride * 4;
  static constexpr int kNT = MT / 8;                      // n8 tiles per warp

  static_assert(MT == 8 || MT == 16 || MT == 32 || MT == 64, "MT: token tile 8/16/32/64");
  static_assert(WK == 1 || WK == 2, "WK: 1 or 2 warps per row slab");
  static_assert(WARPS * WK >= 1 && WARPS * WK <= 32, "block <= 1024 threads");
  static_assert(kChunks == 16, "swizzle assumes 16 chunks (256 B) per smem row");
  static_assert((kBN * kChunks) % kThreads == 0, "W tile chunks must divide evenly over threads");
  static_assert((kBK / 16) % WK == 0, "k16 steps per stage must divide over WK warps");
  static_assert(kRedBytes <= 2 * kStageBytes, "partial tile must fit in the (>= 2 stage) ring");
};

// XOR swizzle of 16-byte chunks within a 256-byte row: the 8 rows one ldmatrix phase reads
// at the same logical chunk land in 8 distinct bank groups.
__device__ __forceinline__ uint32_t swz(int row, int chunk) {
  return uint32_t(row * 256 + ((chunk ^ (row & 7)) << 4));
}

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
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int wn = warp % WARPS;  // row slab of this warp
  const int wk = warp / WARPS;  // which 1/WK of each stage's k16 steps
  const uint32_t sbase = ptx::smem_addr(smem);
  const uint64_t pol = ptx::l2_evict_first_policy();

  auto load_stage = [&](int kt, int slot) {
    const uint32_t ws = sbase + slot * S::kStageBytes;
    const uint32_t xs = ws + S::kWStageBytes;
    const __nv_bfloat16* wsrc = w + std::size_t(n0) * k + k0 + kt * S::kBK;
#pragma unroll
    for (int i = 0; i < S::kBN * S::kChunks / S::kThreads; ++i) {
      const int idx = tid + i * S::kThreads, r = idx >> 4, c = idx & 15;
      ptx::cp_async_hint16(ws + swz(r, c), wsrc + std::size_t(r) * k + c * 8, pol);
    }
    const __nv_bfloat16* xsrc = x + k0 + kt * S::kBK;
    for (int idx = tid; idx < MT * S::kChunks; idx += S::kThreads) {
      const int r = idx >> 4, c = idx & 15;
      const bool live = r < m;
      ptx::cp_async_zfill16(xs + swz(r, c), live ? static_cast<const void*>(xsrc + std::size_t(r) * k + c * 8) : x,
                       live ? 16u : 0u);
    }
  };

  for (int s = 0; s < stages - 1; ++s) {
    if (s < ktiles) load_stage(s, s);
    ptx::cp_async_commit();
  }

  float acc[S::kNT][4];  // acc[j]: rows wn*16 + {lane/4, lane/4+8}, tokens j*8 + 2*(lane%4) + {0,1}
#pragma unroll
  for (int j = 0; j < S::kNT; ++j)
#pragma unroll
    for (int q = 0; q < 4; ++q) acc[j][q] = 0.0f;

  const int a_row = wn * 16 + (lane & 15);  // ldmatrix.x4 A: lanes 0-15 rows, 16-31 same rows at k+8
  const int a_chunk_hi = lane >> 4;
  const int b_tok = (lane & 7) + ((lane >> 4) << 3);  // x4 B: lanes 16-31 address the next n8 tile
  const int b_chunk_hi = (lane >> 3) & 1;

  int slot = 0;                // ring slot of k-tile kt
  int fill_slot = stages - 1;  // ring slot of k-tile kt + stages - 1
  for (int kt = 0; kt < ktiles; ++kt) {
    cp_async_wait_dyn(stages - 2);
    __syncthreads();  // stage kt visible to all warps; slot of kt-1 free for refill
    {
      const int nk = kt + stages - 1;
      if (nk < ktiles) load_stage(nk, fill_slot);
      ptx::cp_async_commit();
      fill_slot = fill_slot + 1 == stages ? 0 : fill_slot + 1;
    }
    const uint32_t ws = sbase + slot * S::kStageBytes;
    const uint32_t xs = ws + S::kWStageBytes;
    slot = slot + 1 == stages ? 0 : slot + 1;
#pragma unroll
    for (int i = 0; i < S::kKSteps; ++i) {
      const int kk = wk * S::kKSteps + i;
      uint32_t a0, a1, a2, a3;
      ptx::ldmatrix_x4(a0, a1, a2, a3, ws + swz(a_row, kk * 2 + a_chunk_hi));
      if constexpr (S::kNT == 1) {
        uint32_t b0, b1;
        ptx::ldmatrix_x2(b0, b1, xs + swz(lane & 7, kk * 2 + b_chunk_hi));
        ptx::mma_bf16_16816(acc[0], a0, a1, a2, a3, b0, b1);
      } else {
#pragma unroll
        for (int j = 0; j < S::kNT; j += 2) {
          uint32_t b0, b1, b2, b3;  // b0,b1: n8 tile j; b2,b3: tile j+1
          ptx::ldmatrix_x4(b0, b1, b2, b3, xs + swz(j * 8 + b_tok, kk * 2 + b_chunk_hi));
          ptx::mma_bf16_16816(acc[j], a0, a1, a2, a3, b0, b1);
          ptx::mma_bf16_16816(acc[j + 1], a0, a1, a2, a3, b2, b3);
        }
      }
    }
  }
  ptx::cp_async_wait<0>();
  __syncthreads();  // pipeline smem is now reused for the partial tile

  // fp32 partial [WK][MT][kBN] (+pad) in this CTA's smem.
  float* red = reinterpret_cast<float*>(smem);
  {
    float* rw = red + wk * (MT * S::kRedStride);
    const int r = wn * 16 + (lane >> 2);
#pragma unroll
    for (int j = 0; j < S::kNT; ++j) {
      const int t = j * 8 + (lane & 3) * 2;
      rw[t * S::kRedStride + r] = acc[j][0];
      rw[(t + 1) * S::kRedStride + r] = acc[j][1];
      rw[t * S::kRedStride + r + 8] = acc[j][2];
      rw[(t + 1) * S::kRedStride + r + 8] = acc[j][3];
    }
  }
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
// (qkv M=8: 22.6 us vs 16.3 us for warps4.split4); see docs/experiments-dense-small.md.
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
