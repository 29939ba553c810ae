// router_stream_f32: the fp32 router (W fp32 [N, K], x bf16, y fp32) for small M.
// Regime: M <= ~16 (each weight is used by few tokens, so fp32 FMA on the original
//         weights is cheap and exact; the call is a pure weight stream).
// Mechanism: split-K streaming reduction. A thread-block cluster of C = K / kSliceK blocks
//   shares one group of W rows; block `rank` reads the K slice [rank*kSliceK, +kSliceK)
//   of those rows straight into registers (every load issued up front),
//   the x slice into shared memory, accumulates in fp32, reduces across the warp, and the
//   C partial tiles are summed in rank order through distributed shared memory (DSMEM).
//   No global scratch, no zero-fill, no atomics: deterministic, graph- and stream-safe.
//   Tokens beyond TOK are handled by grid.z token groups (W re-read, mostly from L2).
// Constraints: fp32 weights and output, bf16 x; K % kSliceK == 0 and K / kSliceK <= 8
//   (portable cluster size); N % (8 * RPW) == 0; x, W, y 16-byte aligned, K % 8 == 0.
#include <cooperative_groups.h>
#include <cuda_bf16.h>

#include "core/method.hpp"

namespace projkit {
namespace {

namespace cg = cooperative_groups;

constexpr int kWarps = 8;          // 256 threads: one or two W rows per warp
constexpr int kSliceK = 1024;      // K columns per block (= per cluster rank)
constexpr int kF4PerLane = kSliceK / (32 * 4);  // float4 of one W row per lane (8)

// Weights are read exactly once per call: read-only path, no L1 allocation (the L1 is
// left to nothing; x goes through smem). (.L2::evict_first needs a 256-bit load on sm_90.)
__device__ __forceinline__ float4 ldg_f4_stream(const float* p) {
  float4 v;
  asm volatile("ld.global.nc.L1::no_allocate.v4.f32 {%0,%1,%2,%3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(p));
  return v;
}

// x is shared by all row groups: plain cached 16-byte load (stays in L2 for the other clusters).
__device__ __forceinline__ uint4 ldg_u4(const void* p) {
  uint4 v;
  asm volatile("ld.global.nc.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}

// TOK: tokens resident per block (x rows in smem, accumulators per thread = TOK * RPW).
// RPW: W rows per warp (block covers R = 8 * RPW rows; more rows = fewer, longer blocks).
template <int TOK, int RPW>
__global__ void __launch_bounds__(kWarps * 32)
    router_stream_f32_kernel(const __nv_bfloat16* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                             int m, int n, int k) {
  constexpr int R = kWarps * RPW;
  static_assert(RPW == 1 || RPW == 2, "RPW: 1 or 2 rows per warp");
  static_assert(TOK >= 1 && TOK <= 16, "TOK: accumulators TOK*RPW must stay in registers");
  static_assert(kSliceK % 128 == 0, "a warp covers 128 columns per float4 step");
  static_assert(TOK * kSliceK * 2 + TOK * R * 4 <= 48 * 1024, "static smem limit");

  __shared__ __align__(16) __nv_bfloat16 xs[TOK][kSliceK];  // x[tok0 + t, k0 : k0 + kSliceK]
  __shared__ float part[TOK][R];                            // this rank's partial y tile

  cg::cluster_group cluster = cg::this_cluster();
  const int rank = int(cluster.block_rank());   // = blockIdx.x (grid.x == cluster size)
  const int csize = int(cluster.num_blocks());
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int row0 = blockIdx.y * R;
  const int tok0 = blockIdx.z * TOK;
  const int mt = min(TOK, m - tok0);           // >= 1 by grid construction
  const int64_t k0 = int64_t(rank) * kSliceK;

  // 1) all weight loads of this block in flight at once (read-only, no L1 allocation): wv[r][j] = W[row, k0 + 4*(lane + 32 j) .. +3]
  float4 wv[RPW][kF4PerLane];
#pragma unroll
  for (int r = 0; r < RPW; ++r) {
    const float* wr = w + int64_t(row0 + warp * RPW + r) * k + k0 + lane * 4;
#pragma unroll
    for (int j = 0; j < kF4PerLane; ++j) wv[r][j] = ldg_f4_stream(wr + j * 128);
  }
  // 2) x slice of the live tokens into smem (8 bf16 per 16-byte load)
  constexpr int kChunks = kSliceK / 8;
  for (int i = threadIdx.x; i < mt * kChunks; i += kWarps * 32) {
    const int t = i / kChunks, c = i % kChunks;
    *reinterpret_cast<uint4*>(&xs[t][c * 8]) = ldg_u4(x + int64_t(tok0 + t) * k + k0 + c * 8);
  }
  __syncthreads();

  // 3) fp32 FMA: acc[t][r] = sum_j W[row r, cols] . x[t, cols]
  float acc[TOK][RPW];
#pragma unroll
  for (int t = 0; t < TOK; ++t)
#pragma unroll
    for (int r = 0; r < RPW; ++r) acc[t][r] = 0.0f;
#pragma unroll
  for (int j = 0; j < kF4PerLane; ++j) {
    const int col = (lane + 32 * j) * 4;
#pragma unroll
    for (int t = 0; t < TOK; ++t) {
      if (t < mt) {
        const uint2 xv = *reinterpret_cast<const uint2*>(&xs[t][col]);
        const float2 x01 = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&xv.x));
        const float2 x23 = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&xv.y));
#pragma unroll
        for (int r = 0; r < RPW; ++r) {
          float a = acc[t][r];
          a = fmaf(wv[r][j].x, x01.x, a);
          a = fmaf(wv[r][j].y, x01.y, a);
          a = fmaf(wv[r][j].z, x23.x, a);
          a = fmaf(wv[r][j].w, x23.y, a);
          acc[t][r] = a;
        }
      }
    }
  }
  // 4) warp reduction; lane 0 writes this rank's partial tile
#pragma unroll
  for (int t = 0; t < TOK; ++t) {
    if (t < mt) {
#pragma unroll
      for (int r = 0; r < RPW; ++r) {
        float a = acc[t][r];
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) a += __shfl_xor_sync(0xffffffffu, a, off);
        if (lane == 0) part[t][warp * RPW + r] = a;
      }
    }
  }
  cluster.sync();  // every rank's partial tile is written and visible cluster-wide

  // 5) rank `rank` finalizes entries e with e % csize == rank, summing ranks in fixed order
  for (int e = threadIdx.x; e < mt * R; e += kWarps * 32) {
    if (e % csize != rank) continue;
    const int t = e / R, r = e % R;
    float s = 0.0f;
    for (int q = 0; q < csize; ++q) s += cluster.map_shared_rank(&part[0][0], q)[t * R + r];
    y[int64_t(tok0 + t) * n + row0 + r] = s;
  }
  cluster.sync();  // keep this block's smem alive until every rank has read it
}

using KernelFn = void (*)(const __nv_bfloat16*, const float*, float*, int, int, int);

KernelFn pick_kernel(int tok, int rpw) {
  if (tok == 8 && rpw == 1) return router_stream_f32_kernel<8, 1>;
  if (tok == 8 && rpw == 2) return router_stream_f32_kernel<8, 2>;
  if (tok == 16 && rpw == 1) return router_stream_f32_kernel<16, 1>;
  return nullptr;
}

class RouterStreamF32 final : public PreparedMethod {
 public:
  RouterStreamF32(const PrepareContext& ctx, const Config& cfg)
      : spec_(ctx.spec), w_(static_cast<const float*>(ctx.w)), tok_(cfg.get("tok", 8)), rpw_(cfg.get("rows", 8) / kWarps) {
    fn_ = pick_kernel(tok_, rpw_);
    if (!fn_) throw Error(StatusCode::invalid_argument, "router_stream_f32: no kernel for " + cfg.name());
  }
  Status run(const RunArgs& a) const override {
    if (a.m < 1) return {StatusCode::invalid_argument, "router_stream_f32: m must be >= 1"};
    const int csize = int(spec_.k / kSliceK);
    cudaLaunchConfig_t lc = {};
    lc.gridDim = dim3(unsigned(csize), unsigned(a.n_out / (kWarps * rpw_)), unsigned((a.m + tok_ - 1) / tok_));
    lc.blockDim = dim3(kWarps * 32);
    lc.dynamicSmemBytes = 0;
    lc.stream = a.stream;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = unsigned(csize);
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    lc.attrs = attr;
    lc.numAttrs = 1;
    cudaError_t e = cudaLaunchKernelEx(&lc, fn_, static_cast<const __nv_bfloat16*>(a.x), w_, static_cast<float*>(a.y),
                                       a.m, int(a.n_out), int(spec_.k));
    if (e != cudaSuccess) return cuda_status(e, "router_stream_f32_kernel launch");
    return cuda_status(cudaGetLastError(), "router_stream_f32_kernel launch");
  }

 private:
  ProjectionSpec spec_;
  const float* w_;
  int tok_, rpw_;
  KernelFn fn_ = nullptr;
};

std::vector<Config> stream_configs() {
  return {
      // 8 rows x 1024 K per block: 256 blocks (two per SM) of 32 KB each; M <= 8 in one pass.
      Config{"router_stream_f32", {{"rows", 8}, {"tok", 8}}},
      // 16 rows per block: 128 blocks of 64 KB, fewer DSMEM reductions; M <= 8 in one pass.
      Config{"router_stream_f32", {{"rows", 16}, {"tok", 8}}},
      // 16 tokens per pass so M in 9..16 still reads W once (32 accumulators per thread).
      Config{"router_stream_f32", {{"rows", 8}, {"tok", 16}}},
  };
}

std::string stream_applicable(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi, const DeviceInfo& dev) {
  const int rows = cfg.get("rows", 8), tok = cfg.get("tok", 8);
  if (!pick_kernel(tok, rows / kWarps) || rows % kWarps)
    return "router_stream_f32: unknown config (rows in {8,16} with tok8, or rows8.tok16)";
  if (spec.weight_dtype != DType::f32 || spec.out_dtype != DType::f32 || spec.x_dtype != DType::bf16)
    return "router_stream_f32: needs fp32 weights, fp32 output, bf16 x";
  if (spec.k % kSliceK != 0 || spec.k / kSliceK > 8 || spec.k / kSliceK < 1)
    return "router_stream_f32: K must be a multiple of 1024 and <= 8192 (cluster of K/1024 <= 8 blocks)";
  if (spec.n % rows != 0 || spec.slice_max_m > 0) return "router_stream_f32: N % rows != 0 or sliced output";
  if (m_lo < 1 || m_hi < m_lo) return "router_stream_f32: empty M range";
  if (m_hi > 64) return "router_stream_f32: M > 64 (re-reads W per 8/16-token group; use router_hilo_mma)";
  if (dev.cc_major < 9) return "router_stream_f32: thread-block clusters need sm_90";
  return "";
}

std::unique_ptr<PreparedMethod> stream_prepare(const PrepareContext& ctx, const Config& cfg) {
  return std::make_unique<RouterStreamF32>(ctx, cfg);
}

}  // namespace

extern const KernelFamily kRouterStreamF32 = {
    "router_stream_f32",
    "router small M: fp32 weight stream, split-K over a K/1024-block cluster, DSMEM reduction (exact fp32)",
    stream_configs, stream_applicable, stream_prepare};

}  // namespace projkit
