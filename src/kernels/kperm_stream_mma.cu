// kperm_stream_mma: dense bf16 projections for a few tokens (M 2..32) as independent warps
// that stream row-major W straight into mma.sync fragments.
// Regime: M = 2..32: the call is a weight stream (W read once) that the SIMT GEMV cannot feed
//   with FMAs past M ~ 2, while the split-K tensor-core kernels pay a cross-CTA combine
//   (cluster DSMEM or L2, ~1.5-2 us, issue 5 E6) and per-stage ring barriers (E7).
// Mechanism: a K permutation makes both mma operands plain 16-byte loads from the row-major
//   tensors. In a 32-wide K chunk, lane (g = lane / 4, t = lane % 4) loads W[row g][8t .. 8t+7]
//   and x[token g (+8)][8t .. 8t+7]; mma.sync m16n8k16 step 0 uses elements 8t..8t+3 as the
//   logical k {2t, 2t+1, 2t+8, 2t+9} and step 1 uses 8t+4..8t+7 the same way. A and B see the
//   same permutation, so each dot product is unchanged (only the summation order differs) and
//   W needs no re-layout, no smem and no ldmatrix. Operands: A = x (tokens as the m16 rows,
//   rows >= m are zeros), B = W (8 W rows as the n8 columns), fp32 accumulators.
//   Each warp owns 8*RT W rows over K / WK columns and keeps U chunks of loads in flight in a
//   rotating register buffer (W: ld.global.nc L1::no_allocate + L2 evict-first, read once;
//   x: the L1-cached read-only path, re-read by every warp of the SM). The WK warps along K of
//   a CTA (at least two) are summed in smem in fixed order (deterministic); there is no split across CTAs, so
//   nothing to combine, no workspace, no counters: graph replay and concurrent streams are
//   safe by construction. Grid = min(tiles, resident CTAs), grid-stride over row tiles.
// Constraints: bf16 W / x / y; m in 1..32; K % (32 * WK * U) == 0; out_cols(m) % (8 * RT * WR)
//   == 0; x 16-byte and y 4-byte aligned (the Projection contract gives 16).
#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/method.hpp"
#include "kernels/kperm_fragments.cuh"  // the K permutation: kperm::mma_chunk, kperm::kChunkK
#include "kernels/ptx.cuh"

namespace projkit {
namespace {

using kperm::kChunkK;
constexpr int kMaxTokens = 32;

// TOK: token capacity (8, 16 or 32): x rows g + 8q (q < TOK / 8) per lane, m16 token tiles.
// RT:  8-row W tiles (mma n8 columns) per warp; the x fragment is reused RT times.
// WR:  warps along W rows per CTA (they share the CTA's x chunks through L1).
// WK:  warps along K per CTA (summed in smem at the end).
// U:   chunks in flight per warp (rotating register buffer: U x (RT + TOK/8) 16-byte loads;
//      U / 2 at TOK = 32).
template <int TOK, int RT, int WR, int WK, int U>
struct KpermShape {
  static_assert(TOK == 8 || TOK == 16 || TOK == 32, "TOK: 8, 16 or 32 tokens");
  static_assert(RT == 1 || RT == 2 || RT == 4, "RT: 1, 2 or 4 n8 row tiles per warp");
  static_assert(WK >= 2 && WR * WK <= 16, "2..16 warps per CTA, at least two along K");
  static_assert(U == 2 || U == 4 || U == 8, "U: 2, 4 or 8 chunks in flight");
  // 32 tokens double the x loads per chunk: half the chunks in flight keep the buffer in
  // registers (K % (32 * WK * U) == 0 covers both depths).
  static constexpr int kDepth = TOK == 32 && U > 2 ? U / 2 : U;
  static constexpr int kWarps = WR * WK;
  static constexpr int kThreads = 32 * kWarps;
  static constexpr int kXRows = TOK / 8;            // x loads per lane per chunk
  static constexpr int kMTiles = (TOK + 15) / 16;   // m16 token tiles
  static constexpr int kRowsWarp = 8 * RT;
  static constexpr int kRowsCta = kRowsWarp * WR;   // W rows per CTA tile
  static constexpr int kRedFloats = WK * TOK * kRowsCta;  // smem partials
  static_assert(kRedFloats * 4 <= 48 * 1024, "partials must fit static smem");
};

// Two bf16 as one 32-bit word, stored to y (4-byte aligned: n_out and the row offset are even).
__device__ __forceinline__ void store_bf16x2(__nv_bfloat16* p, float a, float b) {
  *reinterpret_cast<__nv_bfloat162*>(p) = __floats2bfloat162_rn(a, b);
}

// x [m, k], w [>= n_out, k], y [m, n_out], bf16 row-major. grid = min(n_out / kRowsCta, resident).
template <int TOK, int RT, int WR, int WK, int U>
__global__ void __launch_bounds__(KpermShape<TOK, RT, WR, WK, U>::kThreads)
    kperm_stream_mma_kernel(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ w,
                            __nv_bfloat16* __restrict__ y, int m, int n_out, int k) {
  using S = KpermShape<TOK, RT, WR, WK, U>;
  constexpr int D = S::kDepth;
  __shared__ __align__(16) float red[S::kRedFloats];  // [wk][token][row in CTA tile] (float2 access)

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int wr = warp % WR, wk = warp / WR;
  const int g = lane >> 2, t = lane & 3;
  const int kw = k / WK;            // K columns per warp
  const int nch = kw / kChunkK;     // chunks per warp (a multiple of U >= D, checked on the host)
  const int tiles = n_out / S::kRowsCta;
  const uint64_t pol = ptx::l2_evict_first_policy();
  const std::size_t kofs = std::size_t(wk) * kw + 8 * t;  // this lane's first column

  // x rows of this lane: token g + 8q; rows >= m are never read (zeros).
  const __nv_bfloat16* xp[S::kXRows];
  bool xv[S::kXRows];
#pragma unroll
  for (int q = 0; q < S::kXRows; ++q) {
    xv[q] = g + 8 * q < m;
    xp[q] = x + std::size_t(xv[q] ? g + 8 * q : 0) * k + kofs;
  }

  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const int row0 = tile * S::kRowsCta + wr * S::kRowsWarp;  // first W row of this warp
    const __nv_bfloat16* wp[RT];
#pragma unroll
    for (int r = 0; r < RT; ++r) wp[r] = w + std::size_t(row0 + 8 * r + g) * k + kofs;

    float acc[S::kMTiles][RT][4];
#pragma unroll
    for (int i = 0; i < S::kMTiles; ++i)
#pragma unroll
      for (int r = 0; r < RT; ++r)
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[i][r][e] = 0.0f;

    uint4 wb[D][RT], xb[D][S::kXRows];  // chunk c lives in slot c % D
    auto load = [&](int slot_c, uint4(&wv)[RT], uint4(&xvv)[S::kXRows]) {
      const std::size_t off = std::size_t(slot_c) * kChunkK;
#pragma unroll
      for (int r = 0; r < RT; ++r) wv[r] = ptx::ld_stream_hint(wp[r] + off, pol);
#pragma unroll
      for (int q = 0; q < S::kXRows; ++q)
        xvv[q] = xv[q] ? __ldg(reinterpret_cast<const uint4*>(xp[q] + off)) : make_uint4(0u, 0u, 0u, 0u);
    };
#pragma unroll
    for (int u = 0; u < D; ++u) load(u, wb[u], xb[u]);

    for (int c0 = 0; c0 < nch; c0 += D) {
#pragma unroll
      for (int u = 0; u < D; ++u) {
#pragma unroll
        for (int i = 0; i < S::kMTiles; ++i) {
          const uint4 lo = xb[u][2 * i];  // tokens 16i + g
          const uint4 hi = 2 * i + 1 < S::kXRows ? xb[u][2 * i + 1] : make_uint4(0u, 0u, 0u, 0u);  // 16i + 8 + g
#pragma unroll
          for (int r = 0; r < RT; ++r) kperm::mma_chunk(acc[i][r], lo, hi, wb[u][r]);
        }
        if (c0 + D + u < nch) load(c0 + D + u, wb[u], xb[u]);
      }
    }

    // acc[i][r]: {token 16i + g, 16i + g + 8} x {W rows row0 + 8r + 2t, + 1}
#pragma unroll
    for (int i = 0; i < S::kMTiles; ++i)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int tok = 16 * i + 8 * h + g;
        if (tok < TOK)
#pragma unroll
          for (int r = 0; r < RT; ++r) {
            float* p = red + (wk * TOK + tok) * S::kRowsCta + wr * S::kRowsWarp + 8 * r + 2 * t;
            *reinterpret_cast<float2*>(p) = make_float2(acc[i][r][2 * h], acc[i][r][2 * h + 1]);
          }
      }
    __syncthreads();
    constexpr int kPairs = TOK * S::kRowsCta / 2;
    for (int p = threadIdx.x; p < kPairs; p += S::kThreads) {
      const int tok = (2 * p) / S::kRowsCta, row = (2 * p) % S::kRowsCta;
      if (tok < m) {
        float2 s = *reinterpret_cast<const float2*>(red + tok * S::kRowsCta + row);
#pragma unroll
        for (int q = 1; q < WK; ++q) {  // fixed order: deterministic
          const float2 v = *reinterpret_cast<const float2*>(red + (q * TOK + tok) * S::kRowsCta + row);
          s.x += v.x;
          s.y += v.y;
        }
        store_bf16x2(y + std::size_t(tok) * n_out + std::size_t(tile) * S::kRowsCta + row, s.x, s.y);
      }
    }
    __syncthreads();  // red is reused by the next tile
  }
}

using KpermKernel = void (*)(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, int, int, int);

// The compiled shapes (configs() lists exactly these); TOK is picked per call from m.
struct KpermShapeId {
  int rt, wr, wk, u;
};
constexpr KpermShapeId kShapes[] = {
    {1, 1, 16, 8},  // 8 rows x 16 warps: unpooler slice 128 CTAs, all 8 chunks of a warp in flight
    {1, 1, 8, 8},   // 8 rows x 8 warps: slice 128 CTAs with 16 chunks per warp
    {1, 1, 8, 4},   // the same, half the loads in flight: fewer registers, more CTAs per SM
                    // (qkv 288 / pooler 512 CTAs in one wave: finer balance over the SMs)
    {2, 1, 8, 4},   // 16 rows x 8 warps: pooler 256 CTAs, qkv 144
    {2, 1, 8, 8},   // the same with twice the loads in flight (8 KB of W per warp at M <= 16)
    {2, 2, 4, 4},   // 32 rows (two row warps share x through L1): pooler 128, qkv 72, unpooler 256
    {4, 1, 8, 2},   // 32 rows, x reused 4x per load
};

// Token capacity slot of a call: 0 (TOK 8), 1 (16), 2 (32).
constexpr int kTokSlots = 3;
int tok_slot(int m) { return m <= 8 ? 0 : m <= 16 ? 1 : 2; }

template <int RT, int WR, int WK, int U>
KpermKernel pick_tok(int slot) {
  if (slot == 0) return kperm_stream_mma_kernel<8, RT, WR, WK, U>;
  if (slot == 1) return kperm_stream_mma_kernel<16, RT, WR, WK, U>;
  return kperm_stream_mma_kernel<32, RT, WR, WK, U>;
}

KpermKernel select(int rt, int wr, int wk, int u, int slot) {
  if (rt == 1 && wr == 1 && wk == 16 && u == 8) return pick_tok<1, 1, 16, 8>(slot);
  if (rt == 1 && wr == 1 && wk == 8 && u == 8) return pick_tok<1, 1, 8, 8>(slot);
  if (rt == 1 && wr == 1 && wk == 8 && u == 4) return pick_tok<1, 1, 8, 4>(slot);
  if (rt == 2 && wr == 1 && wk == 8 && u == 4) return pick_tok<2, 1, 8, 4>(slot);
  if (rt == 2 && wr == 1 && wk == 8 && u == 8) return pick_tok<2, 1, 8, 8>(slot);
  if (rt == 2 && wr == 2 && wk == 4 && u == 4) return pick_tok<2, 2, 4, 4>(slot);
  if (rt == 4 && wr == 1 && wk == 8 && u == 2) return pick_tok<4, 1, 8, 2>(slot);
  return nullptr;
}

class KpermStreamMma final : public PreparedMethod {
 public:
  KpermStreamMma(const PrepareContext& ctx, const KpermShapeId& s) : spec_(ctx.spec), w_(ctx.w), s_(s) {
    const int threads = 32 * s.wr * s.wk;
    for (int slot = 0; slot < kTokSlots; ++slot) {
      KpermKernel kern = select(s.rt, s.wr, s.wk, s.u, slot);
      if (!kern) throw Error(StatusCode::unsupported, "kperm_stream_mma: shape not compiled");
      const int64_t resident =
          resident_ctas(reinterpret_cast<const void*>(kern), threads, 0, ctx.dev.sm_count, "kperm_stream_mma");
      if (resident < 1) throw Error(StatusCode::unsupported, "kperm_stream_mma: kernel cannot be resident on an SM");
      max_blocks_[slot] = int(resident);
    }
  }

  Status run(const RunArgs& a) const override {
    if (a.m < 1 || a.m > kMaxTokens) return {StatusCode::invalid_argument, "kperm_stream_mma: m must be in 1..32"};
    const int rows = 8 * s_.rt * s_.wr;
    if (a.n_out % rows != 0) return {StatusCode::invalid_argument, "kperm_stream_mma: n_out % (8*rt*wr) != 0"};
    if ((reinterpret_cast<uintptr_t>(a.x) & 15) != 0 || (reinterpret_cast<uintptr_t>(a.y) & 3) != 0)
      return {StatusCode::invalid_argument, "kperm_stream_mma: x must be 16-byte and y 4-byte aligned"};
    const int tiles = int(a.n_out / rows);
    const int slot = tok_slot(a.m);
    const int grid = std::min(tiles, max_blocks_[slot]);
    KpermKernel kern = select(s_.rt, s_.wr, s_.wk, s_.u, slot);
    kern<<<grid, 32 * s_.wr * s_.wk, 0, a.stream>>>(static_cast<const __nv_bfloat16*>(a.x),
                                                    static_cast<const __nv_bfloat16*>(w_),
                                                    static_cast<__nv_bfloat16*>(a.y), a.m, int(a.n_out),
                                                    int(spec_.k));
    return cuda_status(cudaGetLastError(), "kperm_stream_mma_kernel launch");
  }

 private:
  ProjectionSpec spec_;
  const void* w_;
  KpermShapeId s_;
  int max_blocks_[kTokSlots] = {0, 0, 0};
};

std::vector<Config> kperm_configs() {
  std::vector<Config> out;
  for (const KpermShapeId& s : kShapes)
    out.push_back(Config{"kperm_stream_mma", {{"rt", s.rt}, {"wr", s.wr}, {"wk", s.wk}, {"u", s.u}}});
  return out;
}

std::string kperm_applicable(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi,
                             const DeviceInfo& dev) {
  const int rt = cfg.get("rt", 0), wr = cfg.get("wr", 0), wk = cfg.get("wk", 0), u = cfg.get("u", 0);
  if (!select(rt, wr, wk, u, 0)) return "kperm_stream_mma: " + cfg.name() + " is not a compiled shape";
  if (spec.weight_dtype != DType::bf16 || spec.x_dtype != DType::bf16 || spec.out_dtype != DType::bf16)
    return "kperm_stream_mma: needs bf16 weights, activations and output";
  if (dev.cc_major < 8) return "kperm_stream_mma: needs sm_80+ (mma.sync bf16, L2 cache hints)";
  if (m_lo < 1 || m_hi > kMaxTokens) return "kperm_stream_mma: m must be in 1..32 (register accumulators)";
  if (spec.k > (int64_t(1) << 30) || spec.n > (int64_t(1) << 30)) return "kperm_stream_mma: N, K must fit in int";
  if (spec.k % (int64_t(kChunkK) * wk * u) != 0)
    return "kperm_stream_mma: K % (32 * wk * u) != 0 (whole chunk rounds per warp)";
  for (int m = m_lo; m <= m_hi; ++m)
    if (spec.out_cols(m) % (8 * rt * wr) != 0)
      return "kperm_stream_mma: out_cols(" + std::to_string(m) + ") % (8*rt*wr) != 0";
  return "";
}

std::unique_ptr<PreparedMethod> kperm_prepare(const PrepareContext& ctx, const Config& cfg) {
  const KpermShapeId s{cfg.get("rt", 0), cfg.get("wr", 0), cfg.get("wk", 0), cfg.get("u", 0)};
  if (!select(s.rt, s.wr, s.wk, s.u, 0)) throw Error(StatusCode::unsupported, "kperm_stream_mma: shape not compiled");
  return std::make_unique<KpermStreamMma>(ctx, s);
}

}  // namespace

extern const KernelFamily kKpermStreamMma = {
    "kperm_stream_mma",
    "independent warps stream row-major W into mma.sync B fragments via a K permutation (no re-layout, no smem "
    "ring, no cross-CTA combine)",
    kperm_configs, kperm_applicable, kperm_prepare};

}  // namespace projkit
