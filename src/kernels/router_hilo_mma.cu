// router_hilo_mma: the fp32 router (W fp32 [N, K], x bf16, y fp32) for larger M.
// Regime: M >= ~16 (fp32 FMA would be compute bound; tensor cores are needed).
// Mechanism: W = hi + lo with hi = bf16(w), lo = bf16(w - hi) (lo = 0 for non-finite w),
//   prepared once into mma.sync A-fragment order: for every 16-row x 16-column tile the
//   1 KB block [hi: 32 lanes x 16 B][lo: 32 lanes x 16 B], tiles ordered (k16 step, n16 tile).
//   y^T tile = hi * x^T + lo * x^T with mma.sync m16n8k16 (weights = 16-row A operand,
//   tokens = 8-column B operand), fp32 accumulate. Split-K over a cluster of C blocks along
//   K (grid.x); block tile BN weight rows x TT tokens; a 3- or 4-stage cp.async pipeline streams
//   64-column chunks of packed W and x into smem. The C partial tiles are summed in rank
//   order through distributed shared memory and stored once: no global scratch, no
//   zero-fill, no atomics (deterministic; graph-, replay- and stream-safe).
// Constraints: fp32 weights/output, bf16 x; N % BN == 0; K % (C * 64) == 0; C in {8, 16}
//   (16 needs the non-portable cluster size); x, y 16-byte aligned; K % 8 == 0.
#include <cooperative_groups.h>
#include <cuda_bf16.h>

#include <cmath>

#include "core/method.hpp"

namespace projkit {
namespace {

namespace cg = cooperative_groups;

constexpr int kWarps = 8;
constexpr int kThreads = kWarps * 32;
constexpr int kChunkK = 64;               // K columns per pipeline stage
constexpr int kXRow = kChunkK + 8;        // bf16 per smem x row: +16 B pad => B-fragment loads hit 32 banks
constexpr int kFragBytes = 1024;          // one 16x16 tile: hi (512 B) + lo (512 B)

// 16-byte async copy global->smem, L2 only (.cg): data is consumed from smem, never reused from L1.
// src_bytes = 0 zero-fills the destination (tokens beyond m).
__device__ __forceinline__ void cp_async_16(void* smem_dst, const void* gsrc, int src_bytes) {
  const unsigned s = unsigned(__cvta_generic_to_shared(smem_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(s), "l"(gsrc), "r"(src_bytes) : "memory");
}
// Close the group of copies issued for one pipeline stage.
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
// Wait until at most N stage groups are still in flight (the oldest stage has landed).
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}
// D += A(16x16 bf16, row) * B(16x8 bf16, col), fp32 accumulate: the tensor-core product.
__device__ __forceinline__ void mma_bf16_16816(float (&d)[4], const uint4& a, uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(b0), "r"(b1));
}

// WN_T: 16-row weight tiles per warp; WT_T: 8-token tiles per warp;
// WARPS_N: warps along the weight rows (kWarps / WARPS_N along tokens).
template <int WN_T, int WT_T, int WARPS_N>
struct Tile {
  static constexpr int kWarpsT = kWarps / WARPS_N;
  static constexpr int BN = 16 * WN_T * WARPS_N;   // weight rows per block
  static constexpr int TT = 8 * WT_T * kWarpsT;    // tokens per block
  static constexpr int kWStage = (kChunkK / 16) * (BN / 16) * kFragBytes;  // packed W bytes per stage
  static constexpr int kXStage = TT * kXRow * 2;                           // x bytes per stage
  // cp.async pipeline depth: 4, except 3 for the 64x128 tile so two blocks fit per SM
  // (measured: M=256 27.6 -> 21.2 us). 8 stages for the small tiles did not help
  // (bn32.tt32 9.8 -> 9.7 us) or hurt (bn32.tt64 11.0 -> 16.8 us): see docs/experiments-router.md.
  static constexpr int kStages = (BN * TT >= 64 * 128) ? 3 : 4;
  static constexpr int kSmem = kStages * (kWStage + kXStage);
  static_assert(kWarps % WARPS_N == 0, "warp grid must tile 8 warps");
  static_assert(TT * BN * 4 <= kSmem, "partial tile must fit in the pipeline smem it reuses");
  static_assert((TT * BN / 4) % 16 == 0, "partial tile float4 count must split over C <= 16 ranks");
};

template <int WN_T, int WT_T, int WARPS_N>
__global__ void __launch_bounds__(kThreads, 1)
    router_hilo_mma_kernel(const __nv_bfloat16* __restrict__ x, const uint8_t* __restrict__ wp, float* __restrict__ y,
                           int m, int n, int k) {
  using T = Tile<WN_T, WT_T, WARPS_N>;
  constexpr int BN = T::BN, TT = T::TT, kStages = T::kStages;
  extern __shared__ __align__(128) uint8_t smem[];
  uint8_t* sw = smem;                              // [kStages][k16 step 4][BN/16][1 KB]
  uint8_t* sx = smem + kStages * T::kWStage;       // [kStages][TT][kXRow] bf16

  cg::cluster_group cluster = cg::this_cluster();
  const int rank = int(cluster.block_rank());      // = blockIdx.x: the K split
  const int csize = int(cluster.num_blocks());
  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
  const int g = lane >> 2, tq = lane & 3;          // mma fragment coordinates
  const int wn = warp % WARPS_N, wt = warp / WARPS_N;
  const int ks = k / csize;                        // K columns of this split
  const int k0 = rank * ks;
  const int n16_0 = blockIdx.y * (BN / 16);
  const int tok0 = blockIdx.z * TT;
  const int nchunks = ks / kChunkK;
  const int n16_all = n / 16;

  auto load_stage = [&](int c, int st) {
    // packed W: 4 k16 steps x (BN/16) tiles x 1 KB; each k16 step's BN/16 tiles are contiguous
    uint8_t* dw = sw + st * T::kWStage;
    const int kstep0 = (k0 + c * kChunkK) / 16;
    constexpr int kPerStep = (BN / 16) * (kFragBytes / 16);
    for (int i = tid; i < T::kWStage / 16; i += kThreads) {
      const int s = i / kPerStep, rem = i % kPerStep;
      const uint8_t* src = wp + (int64_t(kstep0 + s) * n16_all + n16_0) * kFragBytes + rem * 16;
      cp_async_16(dw + i * 16, src, 16);
    }
    // x: TT rows x 64 bf16 (8 x 16 B); rows beyond m are zero-filled
    uint8_t* dx = sx + st * T::kXStage;
    for (int i = tid; i < TT * (kChunkK / 8); i += kThreads) {
      const int t = i / (kChunkK / 8), c8 = i % (kChunkK / 8);
      const int tok = tok0 + t;
      const bool live = tok < m;
      const __nv_bfloat16* src = live ? x + int64_t(tok) * k + k0 + c * kChunkK + c8 * 8 : x;
      cp_async_16(dx + (t * kXRow + c8 * 8) * 2, src, live ? 16 : 0);
    }
    cp_async_commit();
  };

  float acc[WN_T][WT_T][4];  // acc[i][q]: C fragment of weight tile i x token tile q
#pragma unroll
  for (int i = 0; i < WN_T; ++i)
#pragma unroll
    for (int q = 0; q < WT_T; ++q)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][q][e] = 0.0f;

#pragma unroll
  for (int st = 0; st < kStages - 1; ++st) {
    if (st < nchunks) load_stage(st, st);
    else cp_async_commit();
  }
  for (int c = 0; c < nchunks; ++c) {
    cp_async_wait<kStages - 2>();
    __syncthreads();  // chunk c visible to all; everyone is done with chunk c-1's stage
    const int nc = c + kStages - 1;
    if (nc < nchunks) load_stage(nc, nc % kStages);
    else cp_async_commit();
    const uint8_t* cw = sw + (c % kStages) * T::kWStage;
    const uint8_t* cx = sx + (c % kStages) * T::kXStage;
#pragma unroll
    for (int s = 0; s < kChunkK / 16; ++s) {
      uint4 ahi[WN_T], alo[WN_T];  // A fragments (16 weight rows x 16 k) of hi and lo
#pragma unroll
      for (int i = 0; i < WN_T; ++i) {
        const uint8_t* f = cw + (s * (BN / 16) + wn * WN_T + i) * kFragBytes + lane * 16;
        ahi[i] = *reinterpret_cast<const uint4*>(f);
        alo[i] = *reinterpret_cast<const uint4*>(f + 512);
      }
#pragma unroll
      for (int q = 0; q < WT_T; ++q) {
        // B fragment (16 k x 8 tokens): token g, k = 2tq..2tq+1 and 2tq+8..2tq+9
        const int t = (wt * WT_T + q) * 8 + g;
        const uint8_t* p = cx + (t * kXRow + s * 16 + 2 * tq) * 2;
        const uint32_t b0 = *reinterpret_cast<const uint32_t*>(p);
        const uint32_t b1 = *reinterpret_cast<const uint32_t*>(p + 16);
#pragma unroll
        for (int i = 0; i < WN_T; ++i) {
          mma_bf16_16816(acc[i][q], ahi[i], b0, b1);
          mma_bf16_16816(acc[i][q], alo[i], b0, b1);
        }
      }
    }
  }
  cp_async_wait<0>();
  __syncthreads();  // pipeline drained: smem is reused for the partial tile

  // partial tile red[TT][BN] fp32 (token-major, so the final stores are contiguous in y)
  float* red = reinterpret_cast<float*>(smem);
#pragma unroll
  for (int i = 0; i < WN_T; ++i)
#pragma unroll
    for (int q = 0; q < WT_T; ++q) {
      const int nl = (wn * WN_T + i) * 16 + g;
      const int tl = (wt * WT_T + q) * 8 + 2 * tq;
      red[tl * BN + nl] = acc[i][q][0];
      red[(tl + 1) * BN + nl] = acc[i][q][1];
      red[tl * BN + nl + 8] = acc[i][q][2];
      red[(tl + 1) * BN + nl + 8] = acc[i][q][3];
    }
  cluster.sync();  // all partial tiles of the cluster written and visible

  constexpr int kF4 = TT * BN / 4;
  const int per_rank = kF4 / csize;
  for (int e = rank * per_rank + tid; e < (rank + 1) * per_rank; e += kThreads) {
    float4 s = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int q = 0; q < csize; ++q) {  // fixed rank order: deterministic
      const float4 v = reinterpret_cast<const float4*>(cluster.map_shared_rank(red, q))[e];
      s.x += v.x; s.y += v.y; s.z += v.z; s.w += v.w;
    }
    const int t = e / (BN / 4), c4 = e % (BN / 4);
    const int tok = tok0 + t;
    if (tok < m) *reinterpret_cast<float4*>(y + int64_t(tok) * n + n16_0 * 16 + c4 * 4) = s;
  }
  cluster.sync();  // keep smem alive until every rank has read it
}

// Prepare: W fp32 [N, K] -> packed hi/lo A fragments. One thread per (k16 step, n16 tile, lane).
__global__ void router_hilo_pack_kernel(const float* __restrict__ w, uint4* __restrict__ out, int n, int k) {
  const int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int n16 = n / 16;
  const int64_t total = int64_t(k / 16) * n16 * 32;
  if (idx >= total) return;
  const int lane = int(idx % 32);
  const int j = int((idx / 32) % n16);
  const int64_t s = idx / (32 * int64_t(n16));
  const int g = lane >> 2, tq = lane & 3;
  uint32_t hi[4], lo[4];
  for (int reg = 0; reg < 4; ++reg) {
    // reg 0: (g, 2tq..+1), 1: (g+8, 2tq..), 2: (g, 2tq+8..), 3: (g+8, 2tq+8..)
    const int row = j * 16 + g + ((reg & 1) ? 8 : 0);
    const int col = int(s * 16) + 2 * tq + ((reg & 2) ? 8 : 0);
    __nv_bfloat16 h[2], l[2];
    for (int e = 0; e < 2; ++e) {
      const float v = w[int64_t(row) * k + col + e];
      __nv_bfloat16 hv = __float2bfloat16_rn(v);
      if (isinf(__bfloat162float(hv)) && isfinite(v)) hv = __float2bfloat16_rz(v);  // no overflow to Inf
      const float hf = __bfloat162float(hv);
      h[e] = hv;
      l[e] = isfinite(v) ? __float2bfloat16_rn(v - hf) : __float2bfloat16_rn(0.0f);
    }
    hi[reg] = uint32_t(__bfloat16_as_ushort(h[0])) | (uint32_t(__bfloat16_as_ushort(h[1])) << 16);
    lo[reg] = uint32_t(__bfloat16_as_ushort(l[0])) | (uint32_t(__bfloat16_as_ushort(l[1])) << 16);
  }
  uint4* blk = out + (s * n16 + j) * 64;
  blk[lane] = make_uint4(hi[0], hi[1], hi[2], hi[3]);
  blk[32 + lane] = make_uint4(lo[0], lo[1], lo[2], lo[3]);
}

using KernelFn = void (*)(const __nv_bfloat16*, const uint8_t*, float*, int, int, int);

struct Variant {
  int bn, tt;
  KernelFn fn;
  int smem;
};

// The instantiated tiles (few, to keep compile time modest).
Variant pick_variant(int bn, int tt) {
  using A = Tile<1, 1, 2>;  // 32 x 32
  using B = Tile<1, 2, 2>;  // 32 x 64
  using C = Tile<2, 2, 2>;  // 64 x 64
  using D = Tile<2, 4, 2>;  // 64 x 128
  if (bn == A::BN && tt == A::TT) return {bn, tt, router_hilo_mma_kernel<1, 1, 2>, A::kSmem};
  if (bn == B::BN && tt == B::TT) return {bn, tt, router_hilo_mma_kernel<1, 2, 2>, B::kSmem};
  if (bn == C::BN && tt == C::TT) return {bn, tt, router_hilo_mma_kernel<2, 2, 2>, C::kSmem};
  if (bn == D::BN && tt == D::TT) return {bn, tt, router_hilo_mma_kernel<2, 4, 2>, D::kSmem};
  return {0, 0, nullptr, 0};
}

class RouterHiloMma final : public PreparedMethod {
 public:
  RouterHiloMma(const PrepareContext& ctx, const Config& cfg)
      : spec_(ctx.spec), v_(pick_variant(cfg.get("bn", 0), cfg.get("tt", 0))), csize_(cfg.get("cl", 8)),
        packed_(std::size_t(ctx.spec.n) * std::size_t(ctx.spec.k) * 4) {
    if (!v_.fn) throw Error(StatusCode::invalid_argument, "router_hilo_mma: no kernel for " + cfg.name());
    cuda_check(cudaFuncSetAttribute(v_.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, v_.smem),
               "router_hilo_mma: cudaFuncSetAttribute(smem)");
    if (csize_ > 8)
      cuda_check(cudaFuncSetAttribute(v_.fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
                 "router_hilo_mma: cudaFuncSetAttribute(non-portable cluster)");
    const int64_t threads = (spec_.k / 16) * (spec_.n / 16) * 32;
    router_hilo_pack_kernel<<<unsigned((threads + 255) / 256), 256>>>(static_cast<const float*>(ctx.w),
                                                                       packed_.as<uint4>(), int(spec_.n), int(spec_.k));
    cuda_check(cudaGetLastError(), "router_hilo_pack_kernel launch");
    cuda_check(cudaDeviceSynchronize(), "router_hilo_pack_kernel");
  }
  Status run(const RunArgs& a) const override {
    if (a.m < 1) return {StatusCode::invalid_argument, "router_hilo_mma: m must be >= 1"};
    cudaLaunchConfig_t lc = {};
    lc.gridDim = dim3(unsigned(csize_), unsigned(a.n_out / v_.bn), unsigned((a.m + v_.tt - 1) / v_.tt));
    lc.blockDim = dim3(kThreads);
    lc.dynamicSmemBytes = std::size_t(v_.smem);
    lc.stream = a.stream;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = unsigned(csize_);
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    lc.attrs = attr;
    lc.numAttrs = 1;
    cudaError_t e = cudaLaunchKernelEx(&lc, v_.fn, static_cast<const __nv_bfloat16*>(a.x), packed_.as<const uint8_t>(),
                                       static_cast<float*>(a.y), a.m, int(a.n_out), int(spec_.k));
    if (e != cudaSuccess) return cuda_status(e, "router_hilo_mma_kernel launch");
    return cuda_status(cudaGetLastError(), "router_hilo_mma_kernel launch");
  }

 private:
  ProjectionSpec spec_;
  Variant v_;
  int csize_;
  DeviceBuffer packed_;
};

std::vector<Config> mma_configs() {
  return {
      // M <= 32: 8 weight-row tiles x 16-way split = 128 blocks; small tile keeps every SM busy.
      Config{"router_hilo_mma", {{"bn", 32}, {"tt", 32}, {"cl", 16}}},
      // same tile with the portable cluster of 8 (if 16-block clusters do not co-schedule well).
      Config{"router_hilo_mma", {{"bn", 32}, {"tt", 32}, {"cl", 8}}},
      // M 33..64: 128 blocks, x tile 64 tokens.
      Config{"router_hilo_mma", {{"bn", 32}, {"tt", 64}, {"cl", 16}}},
      // M up to 128 with 64 blocks x 2 per 128 tokens; 64x64 tiles halve the x re-reads of bn32.
      Config{"router_hilo_mma", {{"bn", 64}, {"tt", 64}, {"cl", 16}}},
      // M 129..256: 4 x 2 tiles x 16 splits = 128 blocks; largest warp tile (32x32) for mma density.
      Config{"router_hilo_mma", {{"bn", 64}, {"tt", 128}, {"cl", 16}}},
      // same large tile with the portable cluster of 8 (64 blocks at M = 256, 2x the work each).
      Config{"router_hilo_mma", {{"bn", 64}, {"tt", 128}, {"cl", 8}}},
  };
}

std::string mma_applicable(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi, const DeviceInfo& dev) {
  const Variant v = pick_variant(cfg.get("bn", 0), cfg.get("tt", 0));
  const int cl = cfg.get("cl", 8);
  if (!v.fn) return "router_hilo_mma: unknown tile (bn32.tt32, bn32.tt64, bn64.tt64, bn64.tt128)";
  if (cl != 8 && cl != 16) return "router_hilo_mma: cluster size cl must be 8 or 16";
  if (spec.weight_dtype != DType::f32 || spec.out_dtype != DType::f32 || spec.x_dtype != DType::bf16)
    return "router_hilo_mma: needs fp32 weights, fp32 output, bf16 x";
  if (spec.n % v.bn != 0 || spec.slice_max_m > 0) return "router_hilo_mma: N % bn != 0 or sliced output";
  if (spec.k % (int64_t(cl) * kChunkK) != 0) return "router_hilo_mma: K % (cl * 64) != 0";
  if (spec.k > (int64_t(1) << 30) / spec.n) return "router_hilo_mma: N*K too large for 32-bit tile indices";
  if (m_lo < 1 || m_hi < m_lo) return "router_hilo_mma: empty M range";
  if (!(dev.cc_major == 9)) return "router_hilo_mma: needs sm_90 (clusters, DSMEM)";
  if (std::size_t(v.smem) > dev.smem_per_block_optin) return "router_hilo_mma: smem exceeds the device opt-in limit";
  return "";
}

std::unique_ptr<PreparedMethod> mma_prepare(const PrepareContext& ctx, const Config& cfg) {
  return std::make_unique<RouterHiloMma>(ctx, cfg);
}

}  // namespace

extern const KernelFamily kRouterHiloMma = {
    "router_hilo_mma",
    "router larger M: W = hi + lo bf16 fragments, mma.sync m16n8k16 fp32 accumulate, cluster split-K, DSMEM reduction",
    mma_configs, mma_applicable, mma_prepare};

}  // namespace projkit
