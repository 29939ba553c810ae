// fragment_stream_mma: register-streamed tensor-core kernel for skinny M (2..64), bf16 in/out,
// fp32 accumulate.
// Regime: a few to 64 tokens: the call is still a weight stream (W read once), but too many
//         tokens for a SIMT GEMV; the smem round trip of a cp.async/ldmatrix weight pipeline
//         and its fixed cost (ring fill, per-stage barriers) are what separate it from the floor.
// Mechanism: prepare() re-lays W once (lossless) into mma.sync m16n8k16 A-fragment order:
//         for every 16-row tile and every k16 step the 32 lanes' fragments (4 x bf16x2 each) are
//         512 contiguous bytes, so a warp loads a whole A fragment with ONE coalesced 16-byte
//         load per lane straight into registers (ld.global.nc.L1::no_allocate + L2 evict-first),
//         kDepth k-steps in flight per warp (rotating register buffer), no smem, no ldmatrix, no
//         barrier for weights. x[0:MT, K-slice] (tiny) is staged once per CTA into XOR-swizzled
//         smem by cp.async (token rows >= m zero-filled) and read as B fragments by ldmatrix
//         (tokens = the n8 dimension). A CTA owns `tiles` 16-row tiles over a K slice; `wk` warps
//         per tile split that slice (smem partials); `split` CTAs of a thread-block cluster split
//         K further (DSMEM reduction in fixed rank order: deterministic, no global scratch, no
//         second kernel: graph replay and concurrent streams are safe). split = 1 launches with
//         no cluster at all (o: 512 tiles already fill the machine, x[m, 1024] fits in smem).
// Constraints: bf16 W/x/y; m <= 64; N % 16 == 0; n_out % (16*tiles) == 0;
//         K % (16*kDepth*wk*split) == 0; tiles*wk <= 16 warps; split <= 8 (portable cluster);
//         MT*K/split*2 bytes of x (and the fp32 partials) <= opt-in smem; 16-byte aligned
//         pointers (the Projection contract). The packed W copy costs N*K*2 bytes per method.
#include <cooperative_groups.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/method.hpp"
#include "kernels/fragment_pack.cuh"  // pack_a_fragments_kernel: W in A-fragment order
#include "kernels/ptx.cuh"

namespace cg = cooperative_groups;

namespace projkit {
namespace {

// ---------------------------------------------------------------- shapes
constexpr int kDepth = 8;        // k16 steps (512 B per warp each) in flight per warp: 4 KB/warp
                                 // (16 measured: no gain, docs/experiments.md "Dense, small M", E5)
constexpr int kMaxWarps = 16;    // tiles*wk per CTA (512 threads: <= 128 registers per thread)
constexpr int kMaxSplit = 8;     // portable cluster size
constexpr int kMaxTokens = 64;
constexpr int kRedPad = 4;       // fp32 partial row pad: conflict-free fragment stores

// MT: token tile (MMA n dimension) 8/16/32/64; runtime m <= MT, token rows >= m are zeros.
template <int MT>
struct FragShape {
  static constexpr int kNT = MT / 8;  // n8 token tiles per warp (accumulators: kNT x 4 fp32)
  static_assert(MT == 8 || MT == 16 || MT == 32 || MT == 64, "MT: token tile 8/16/32/64");
  static_assert(kDepth >= 2 && kDepth <= 16, "kDepth: 2..16 fragments in flight (4 registers each)");
};

// Dynamic smem of one CTA: x slice [MT][k_cta] bf16, later reused for the fp32 partials
// [wk][MT][16*tiles + pad].
constexpr std::size_t smem_bytes(int mt, int64_t k_cta, int tiles, int wk) {
  const std::size_t xb = std::size_t(mt) * std::size_t(k_cta) * 2;
  const std::size_t rb = std::size_t(wk) * mt * (16 * tiles + kRedPad) * 4;
  return xb > rb ? xb : rb;
}

// grid.x = (n_out / (16*tiles)) * split; with split > 1 the launch has cluster dims (split,1,1):
// cluster = row group, rank = K slice. block = tiles*wk warps; warp w owns tile w % tiles and
// k-step sub-slice w / tiles. x [m, k], wp packed [N/16][k/16][32] uint4, y [m, n_out].
// __maxnreg__(96): 16 warps x 96 fit one SM (<= 512 threads per CTA); 8/9-warp CTAs fit twice
// (needed for clusters of 8 to be co-resident); no spills at any MT (the default heuristic
// picked 64 registers and spilled at MT = 16).
template <int MT>
__global__ void __maxnreg__(96) fragment_stream_mma_kernel(const __nv_bfloat16* __restrict__ x,
                                                                            const uint4* __restrict__ wp,
                                                                            __nv_bfloat16* __restrict__ y, int m,
                                                                            int n_out, int k, int tiles, int wk_count,
                                                                            int split) {
  using S = FragShape<MT>;
  extern __shared__ __align__(128) uint8_t smem[];
  const int rank = split > 1 ? int(cg::this_cluster().block_rank()) : 0;
  const int group = int(blockIdx.x) / split;
  const int k_cta = k / split;
  const int tid = int(threadIdx.x), lane = tid & 31, warp = tid >> 5;
  const int wn = warp % tiles, wk = warp / tiles;
  const int ks_warp = k_cta / 16 / wk_count;  // k16 steps of this warp, a multiple of kDepth
  const int ks0 = wk * ks_warp;              // first k16 step of this warp within the CTA slice
  const uint64_t pol = ptx::l2_evict_first_policy();

  // 1. Weight prologue first (the long-latency stream); the x staging below overlaps it.
  //    (Issuing x first was measured: no gain, E5.)
  const uint4* wsrc = wp + (std::size_t(group * tiles + wn) * std::size_t(k / 16) + std::size_t(rank) * (k_cta / 16) +
                            std::size_t(ks0)) * 32 + lane;
  uint4 a[kDepth];  // a[i]: this lane's A fragment of k-step s + i (rows wn*16.., 16 k)
#pragma unroll
  for (int i = 0; i < kDepth; ++i) a[i] = ptx::ld_stream_hint(wsrc + i * 32, pol);

  // 2. x[0:MT][k0 : k0 + k_cta] -> smem, row-major, 16-byte chunk c of token row r at chunk
  //    c ^ (r & 7): the 8 token rows one ldmatrix phase reads land in 8 distinct bank groups.
  const uint32_t xs = ptx::smem_addr(smem);
  const int row_chunks = k_cta / 8;  // multiple of 16 (k_cta % 128 == 0)
  const uint32_t row_bytes = uint32_t(k_cta) * 2;
  {
    const __nv_bfloat16* xsrc = x + std::size_t(rank) * k_cta;
    for (int idx = tid; idx < MT * row_chunks; idx += int(blockDim.x)) {
      const int r = idx / row_chunks, c = idx % row_chunks;
      const bool live = r < m;
      ptx::cp_async_zfill16(xs + uint32_t(r) * row_bytes + (uint32_t(c ^ (r & 7)) << 4),
                       live ? static_cast<const void*>(xsrc + std::size_t(r) * k + std::size_t(c) * 8) : x,
                       live ? 16u : 0u);
    }
    ptx::cp_async_commit();
  }
  ptx::cp_async_wait<0>();
  __syncthreads();

  float acc[S::kNT][4];  // acc[j]: rows wn*16 + {lane/4, lane/4 + 8}, tokens j*8 + 2*(lane%4) + {0, 1}
#pragma unroll
  for (int j = 0; j < S::kNT; ++j)
#pragma unroll
    for (int q = 0; q < 4; ++q) acc[j][q] = 0.0f;

  // ldmatrix B addressing. x4: lanes 0-7 tokens j*8+0..7 at k lo, 8-15 the same tokens at k+8,
  // 16-23 / 24-31 the next n8 tile. x2 (MT = 8) uses lanes 0-15 only.
  const int b_tok = (lane & 7) + ((lane >> 4) << 3);
  const int b_hi = (lane >> 3) & 1;
  const int b_key = b_tok & 7;  // == (j*8 + b_tok) & 7 for every j
  const uint32_t b_row = xs + uint32_t(b_tok) * row_bytes;

  for (int s = 0; s < ks_warp; s += kDepth) {
    const bool more = s + kDepth < ks_warp;  // warp-uniform
#pragma unroll
    for (int i = 0; i < kDepth; ++i) {
      const uint4 cur = a[i];
      if (more) a[i] = ptx::ld_stream_hint(wsrc + (s + kDepth + i) * 32, pol);  // refill: kDepth in flight
      const int kc = (ks0 + s + i) * 2 + b_hi;  // 16-byte chunk of this lane's B rows
      const uint32_t b_off = uint32_t(kc ^ b_key) << 4;
      if constexpr (S::kNT == 1) {
        uint32_t b0, b1;
        ptx::ldmatrix_x2(b0, b1, b_row + b_off);
        ptx::mma_bf16_16816(acc[0], cur, b0, b1);
      } else {
#pragma unroll
        for (int j = 0; j < S::kNT; j += 2) {
          uint32_t b0, b1, b2, b3;  // b0,b1: n8 tile j; b2,b3: tile j+1
          ptx::ldmatrix_x4(b0, b1, b2, b3, b_row + uint32_t(j * 8) * row_bytes + b_off);
          ptx::mma_bf16_16816(acc[j], cur, b0, b1);
          ptx::mma_bf16_16816(acc[j + 1], cur, b2, b3);
        }
      }
    }
  }
  __syncthreads();  // every warp is done with x: the smem becomes the partial tile

  // 3. fp32 partials [wk][MT][16*tiles + pad] in this CTA's smem.
  const int cols = 16 * tiles, rs = cols + kRedPad;
  float* red = reinterpret_cast<float*>(smem);
  {
    float* rw = red + std::size_t(wk) * MT * rs;
    const int r = wn * 16 + (lane >> 2);
#pragma unroll
    for (int j = 0; j < S::kNT; ++j) {
      const int t = j * 8 + (lane & 3) * 2;
      rw[t * rs + r] = acc[j][0];
      rw[(t + 1) * rs + r] = acc[j][1];
      rw[t * rs + r + 8] = acc[j][2];
      rw[(t + 1) * rs + r + 8] = acc[j][3];
    }
  }
  if (split > 1)
    cg::this_cluster().sync();  // barrier.cluster arrive.release / wait.acquire: peers' partials visible
  else
    __syncthreads();

  // 4. Rank `rank` sums element pairs p = rank*threads + tid (+ split*threads ...) of the live
  //    [min(m, MT)][cols] tile over peers 0..split-1 and their wk partials in a fixed order
  //    (deterministic), bf16x2 stores.
  const int live = m < MT ? m : MT;
  const int pairs = live * (cols / 2);
  const int threads = int(blockDim.x);
  for (int p = rank * threads + tid; p < pairs; p += split * threads) {
    const int t = p / (cols / 2), n = (p % (cols / 2)) * 2;
    float2 sum = make_float2(0.0f, 0.0f);
    for (int q = 0; q < split; ++q) {
      const float* peer = split > 1 ? cg::this_cluster().map_shared_rank(red, q) : red;
      for (int h = 0; h < wk_count; ++h) {
        const float2 v = *reinterpret_cast<const float2*>(peer + (std::size_t(h) * MT + t) * rs + n);
        sum.x += v.x;
        sum.y += v.y;
      }
    }
    *reinterpret_cast<__nv_bfloat162*>(y + std::size_t(t) * n_out + std::size_t(group) * cols + n) =
        __floats2bfloat162_rn(sum.x, sum.y);
  }
  if (split > 1) cg::this_cluster().sync();  // no CTA frees its smem while a peer may still read it
}

using FragKernel = void (*)(const __nv_bfloat16*, const uint4*, __nv_bfloat16*, int, int, int, int, int, int);

int token_tile(int m) { return m <= 8 ? 8 : m <= 16 ? 16 : m <= 32 ? 32 : 64; }
int token_tile_index(int m) { return m <= 8 ? 0 : m <= 16 ? 1 : m <= 32 ? 2 : 3; }

FragKernel kernel_for(int m) {
  switch (token_tile_index(m)) {
    case 0: return fragment_stream_mma_kernel<8>;
    case 1: return fragment_stream_mma_kernel<16>;
    case 2: return fragment_stream_mma_kernel<32>;
    default: return fragment_stream_mma_kernel<64>;
  }
}

class FragmentStreamMma final : public PreparedMethod {
 public:
  FragmentStreamMma(const PrepareContext& ctx, int tiles, int wk, int split)
      : spec_(ctx.spec), tiles_(tiles), wk_(wk), split_(split), optin_(ctx.dev.smem_per_block_optin),
        packed_(std::size_t(ctx.spec.n) * std::size_t(ctx.spec.k) * 2) {
    // Lossless re-layout of W into A-fragment order (creation time: launch + sync allowed).
    pack_a_fragments(static_cast<const __nv_bfloat16*>(ctx.w), packed_, spec_.n, spec_.k, ctx.dev.sm_count);
    for (int ti = 0; ti < 4; ++ti) {
      const FragKernel fn = kernel_for(8 << ti);
      // Per-function attribute shared by every Projection: always the opt-in maximum, so one
      // method's prepare never shrinks another's allowance.
      cuda_check(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, int(optin_)),
                 "cudaFuncSetAttribute (fragment_stream_mma smem)");
    }
    // The CTA (cluster) must be resident at the token tiles this spec can run.
    for (int ti = 0; ti < 4; ++ti) {
      const std::size_t smem = smem_bytes(8 << ti, spec_.k / split_, tiles_, wk_);
      if (smem > optin_) continue;  // applicable() refuses these m; run() reports it too
      const FragKernel fn = kernel_for(8 << ti);
      if (split_ > 1) {
        cudaLaunchConfig_t lc{};
        cudaLaunchAttribute attr{};
        attr.id = cudaLaunchAttributeClusterDimension;
        attr.val.clusterDim.x = unsigned(split_);
        attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
        lc.gridDim = dim3(unsigned(split_), 1, 1);
        lc.blockDim = dim3(unsigned(32 * tiles_ * wk_), 1, 1);
        lc.dynamicSmemBytes = smem;
        lc.attrs = &attr;
        lc.numAttrs = 1;
        int clusters = 0;
        cuda_check(cudaOccupancyMaxActiveClusters(&clusters, reinterpret_cast<const void*>(fn), &lc),
                   "cudaOccupancyMaxActiveClusters (fragment_stream_mma)");
        if (clusters < 1)
          throw Error(StatusCode::unsupported, "fragment_stream_mma: a cluster of split CTAs cannot be resident");
      } else {
        int blocks_per_sm = 0;
        cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, fn, 32 * tiles_ * wk_, smem),
                   "cudaOccupancyMaxActiveBlocksPerMultiprocessor (fragment_stream_mma)");
        if (blocks_per_sm < 1) throw Error(StatusCode::unsupported, "fragment_stream_mma: CTA cannot be resident");
      }
    }
  }

  Status run(const RunArgs& a) const override {
    if (a.m < 1 || a.m > kMaxTokens) return {StatusCode::invalid_argument, "fragment_stream_mma: m must be in 1..64"};
    const int cols = 16 * tiles_;
    if (a.n_out % cols != 0 || a.n_out > spec_.n)
      return {StatusCode::invalid_argument, "fragment_stream_mma: n_out % (16*tiles) != 0 or n_out > N"};
    const std::size_t smem = smem_bytes(token_tile(a.m), spec_.k / split_, tiles_, wk_);
    if (smem > optin_) return {StatusCode::invalid_argument, "fragment_stream_mma: x slice exceeds opt-in smem at this m"};
    cudaLaunchConfig_t lc{};
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = unsigned(split_);
    attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
    lc.gridDim = dim3(unsigned(a.n_out / cols) * unsigned(split_), 1, 1);
    lc.blockDim = dim3(unsigned(32 * tiles_ * wk_), 1, 1);
    lc.dynamicSmemBytes = smem;
    lc.stream = a.stream;
    lc.attrs = split_ > 1 ? &attr : nullptr;  // split 1: a plain launch, no cluster
    lc.numAttrs = split_ > 1 ? 1 : 0;
    const cudaError_t e = cudaLaunchKernelEx(&lc, kernel_for(a.m), static_cast<const __nv_bfloat16*>(a.x),
                                             packed_.as<const uint4>(), static_cast<__nv_bfloat16*>(a.y), a.m,
                                             int(a.n_out), int(spec_.k), tiles_, wk_, split_);
    if (e != cudaSuccess) return cuda_status(e, "fragment_stream_mma_kernel launch (cudaLaunchKernelEx)");
    return cuda_status(cudaGetLastError(), "fragment_stream_mma_kernel launch");
  }

 private:
  ProjectionSpec spec_;
  int tiles_, wk_, split_;
  std::size_t optin_;
  DeviceBuffer packed_;
};

// Params: tiles (16-row tiles per CTA, one warp each per K sub-slice), wk (warps per tile
// splitting the CTA's K slice), split (CTAs of a cluster splitting K; 1 = no cluster).
// Each is sized for one family so that CTAs ~ sm_count (one wave) with >= 8 warps x kDepth
// fragments (>= 32 KB) in flight per SM; x/W bytes per CTA = MT / (16*tiles).
// Measured (E5, runs 3-4): never clearly better than splitk_mma_cluster / gemv_stream / the
// baseline; kept are the configs that came closest, each for the (family, M) it tied. The
// dropped configs (tiles4.wk4, tiles8.wk2.split2/4, tiles4.wk2.split2, tiles2.wk4.split4,
// tiles9.wk1.split8) and their numbers are in docs/experiments.md ("Dense, small M", E5).
std::vector<Config> fragment_configs() {
  return {
      // qkv (N 2304, K 8192): 18 row groups of 128 rows x cluster 8 = 144 CTAs x 8 warps (2 per
      // SM), x/W = MT/128. Run 3: qkv M 17..32 19.2-20.0 us = 1.03-0.99x the baseline (the
      // only method >= 1.0x there; splitk 0.92x).
      Config{"fragment_stream_mma", {{"tiles", 8}, {"wk", 1}, {"split", 8}}},
      // qkv M <= 16 geometry of splitk_mma_cluster.warps4.split4 (36 x cluster 4 = 144 CTAs x
      // 8 warps): the like-for-like comparison of the two weight paths (run 3: 18.0 vs 16.6 us).
      Config{"fragment_stream_mma", {{"tiles", 4}, {"wk", 2}, {"split", 4}}},
      // o (N 8192, K 1024): 256 CTAs x 8 warps, no split, no cluster; x[MT][1024] in smem.
      // Run 3: o M 2..4 at 1.00-1.01x the baseline (ties; splitk 0.99x).
      Config{"fragment_stream_mma", {{"tiles", 2}, {"wk", 4}, {"split", 1}}},
  };
}

std::string fragment_applicable(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi,
                                const DeviceInfo& dev) {
  const int tiles = cfg.get("tiles", 0), wk = cfg.get("wk", 1), split = cfg.get("split", 1);
  if (tiles < 1 || wk < 1 || tiles * wk > kMaxWarps)
    return "fragment_stream_mma: tiles*wk must be in 1..16 warps per CTA";
  if (split < 1 || split > kMaxSplit) return "fragment_stream_mma: split must be in 1..8 (portable cluster size)";
  if (spec.weight_dtype != DType::bf16 || spec.x_dtype != DType::bf16 || spec.out_dtype != DType::bf16)
    return "fragment_stream_mma: needs bf16 weights, activations and output";
  if (dev.cc_major < 9) return "fragment_stream_mma: needs sm_90 (thread-block clusters, DSMEM)";
  if (m_lo < 1 || m_hi > kMaxTokens) return "fragment_stream_mma: m must be in 1..64 (token tile <= 64)";
  if (spec.k > (int64_t(1) << 30) || spec.n > (int64_t(1) << 30)) return "fragment_stream_mma: N, K must fit in int";
  if (spec.n % 16 != 0) return "fragment_stream_mma: N % 16 != 0 (packed 16-row tiles)";
  if (spec.k % (int64_t(16) * kDepth * wk * split) != 0)
    return "fragment_stream_mma: K % (16*" + std::to_string(kDepth) + "*wk*split) != 0";
  for (int m = m_lo; m <= m_hi; ++m) {
    const int64_t n_out = spec.out_cols(m);
    if (n_out % (16 * tiles) != 0)
      return "fragment_stream_mma: out_cols(" + std::to_string(m) + ") % (16*tiles) != 0";
    const std::size_t smem = smem_bytes(token_tile(m), spec.k / split, tiles, wk);
    if (smem > dev.smem_per_block_optin)
      return "fragment_stream_mma: x slice needs " + std::to_string(smem) + " B smem at m=" + std::to_string(m) +
             " > device opt-in";
  }
  return "";
}

std::unique_ptr<PreparedMethod> fragment_prepare(const PrepareContext& ctx, const Config& cfg) {
  return std::make_unique<FragmentStreamMma>(ctx, cfg.get("tiles", 0), cfg.get("wk", 1), cfg.get("split", 1));
}

}  // namespace

extern const KernelFamily kFragmentStreamMma = {
    "fragment_stream_mma",
    "W packed in mma m16n8k16 A-fragment order, streamed to registers (1 x 16 B/lane per k16); x via smem ldmatrix; "
    "cluster DSMEM split-K",
    fragment_configs, fragment_applicable, fragment_prepare};

}  // namespace projkit
