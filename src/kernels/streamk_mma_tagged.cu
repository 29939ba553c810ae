// streamk_mma_tagged: stream-K tensor-core kernel for skinny M (1..64), bf16 in/out, fp32
// accumulate, with no combine step at the end of the critical path.
// Regime: a few to 64 tokens: a weight stream (W read once). splitk_mma_l2 sits ~2.2 us over the
//         read floor with a split-K combine and ~0.5 us without one (docs/experiments.md E6):
//         every split of a tile ends at the same moment, so the combine (red, fence, counter
//         atomic, read back) is a chain of L2 round trips after the last weight byte arrives.
// Mechanism: small tiles (16 or 32 W rows; WK = 4 warps share each 16-row slab and split every
//         128-K stage's k16 steps, summed through smem), so that there are at least as many
//         tiles as CTAs. The (tile, 128-K step) units are laid out tile-major and each of the
//         G CTAs takes one contiguous range of them (G = min(tiles, cps * SMs, resident CTAs),
//         from cudaGetDeviceProperties / occupancy, never a constant). A range is >= one tile
//         long, so it is: [tail of tile a] [whole tiles] [head of tile b]. The tail piece is the
//         CTA's FIRST work: its fp32 partial is published early (about a tile before the end of
//         the call), each value stored as one 64-bit word {tag 1 : fp32 bits} with a relaxed
//         store (single-copy atomic: no fence, no flag, no stall of this CTA's stream). Whole
//         tiles store bf16 directly. The head piece is the CTA's LAST work: its owner loads the
//         partner's tagged words a few stages before its main loop ends (the partner finished
//         long ago, so the load finds them), adds its own partial, stores bf16 and resets the
//         words to 0. The main loop is the cp.async/ldmatrix/mma.sync ring of splitk_mma.cuh
//         (W rows as the m16 A operand, tokens as n8 B), run over the unit range without
//         draining between pieces.
// Self-cleaning: the tag words are 0 between calls (zeroed once in prepare; every owner resets
//         the words it consumed), so graph replays need no zero kernel; two Projections own
//         separate words and may run concurrently on two streams. NaN/Inf travel in the value
//         word (the tag is the other half).
// Co-residency: an owner polls for its partner (CTA i waits for CTA i+1's first piece, which
//         itself waits for nothing). G is capped at the resident CTA count
//         (cudaOccupancyMaxActiveBlocksPerMultiprocessor x SMs), so the partner always gets an
//         SM once kernels running beside it finish.
// Constraints: bf16 W/x/y; sm_90; 1 <= m <= min(max_m, 64); n_out % rows == 0; K % 128 == 0;
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

constexpr int kMaxTokens = 64;
constexpr int kBK = splitk::kBK;
constexpr int kMaxStages = 16;  // cp_async_wait_dyn covers waits for rings of <= 16 stages
constexpr int kPollAhead = 3;   // the owner loads its partner's words this many stages before the end
constexpr unsigned long long kTag = 1ull << 32;  // high word of a published partial

// Four fp32 -> four bf16 (round to nearest) in one 8-byte store. p: 8-byte aligned.
__device__ __forceinline__ void store_bf16x4(__nv_bfloat16* p, const float4& v) {
  const __nv_bfloat162 lo = __floats2bfloat162_rn(v.x, v.y);
  const __nv_bfloat162 hi = __floats2bfloat162_rn(v.z, v.w);
  uint2 u;
  u.x = *reinterpret_cast<const uint32_t*>(&lo);
  u.y = *reinterpret_cast<const uint32_t*>(&hi);
  *reinterpret_cast<uint2*>(p) = u;
}

__device__ __forceinline__ float f4_get(const float4& v, int q) { return q == 0 ? v.x : q == 1 ? v.y : q == 2 ? v.z : v.w; }

// grid.x = G CTAs; CTA i takes units [U*i/G, U*(i+1)/G) of U = tiles * (k/128) (tile-major).
// x [m, k], w [>= n_out, k], y [m, n_out] bf16 row-major. tags [tiles][tag_rows][BN] u64, all 0
// on entry and on exit. smem: stages * kStageBytes (ring) + kRedBytes (partial park).
template <int WARPS, int WK, int MT>
__global__ void __launch_bounds__(WARPS * WK * 32)
    streamk_mma_tagged_kernel(const __nv_bfloat16* __restrict__ x, const __nv_bfloat16* __restrict__ w,
                              __nv_bfloat16* __restrict__ y, unsigned long long* tags, int m, int n_out, int k,
                              int stages, int tag_rows) {
  using S = splitk::Shape<WARPS, WK, MT>;
  constexpr int kRowF4 = S::kBN / 4;                                   // float4 per token row of a tile
  constexpr int kF4PerThread = (MT * kRowF4 + S::kThreads - 1) / S::kThreads;
  extern __shared__ __align__(128) uint8_t smem[];
  float* red = reinterpret_cast<float*>(smem + std::size_t(stages) * S::kStageBytes);
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int wn = warp % WARPS, wk = warp / WARPS;
  const uint32_t sbase = ptx::smem_addr(smem);
  const uint64_t pol = ptx::l2_evict_first_policy();

  const int kpt = k / S::kBK;  // 128-K units per tile
  const int64_t units = int64_t(n_out / S::kBN) * kpt;
  const int u0 = int(units * blockIdx.x / gridDim.x);
  const int u1 = int(units * (blockIdx.x + 1) / gridDim.x);
  const int n = u1 - u0;  // >= kpt (host: G <= tiles)
  const bool has_head = u1 % kpt != 0;
  const int head_tile = (u1 - 1) / kpt;
  const int live = m < MT ? m : MT;
  const int nf4 = live * kRowF4;

  auto load_stage = [&](int j, int slot) {
    const int u = u0 + j, tile = u / kpt, kt = u - tile * kpt;
    const uint32_t ws = sbase + slot * S::kStageBytes;
    const uint32_t xs = ws + S::kWStageBytes;
    const __nv_bfloat16* wsrc = w + std::size_t(tile) * S::kBN * k + kt * S::kBK;
#pragma unroll
    for (int i = 0; i < S::kBN * S::kChunks / S::kThreads; ++i) {
      const int idx = tid + i * S::kThreads, r = idx >> 4, c = idx & 15;
      ptx::cp_async_hint16(ws + splitk::swz(r, c), wsrc + std::size_t(r) * k + c * 8, pol);
    }
    const __nv_bfloat16* xsrc = x + kt * S::kBK;
    for (int idx = tid; idx < MT * S::kChunks; idx += S::kThreads) {
      const int r = idx >> 4, c = idx & 15;
      const bool ok = r < m;
      ptx::cp_async_zfill16(xs + splitk::swz(r, c), ok ? static_cast<const void*>(xsrc + std::size_t(r) * k + c * 8) : x,
                            ok ? 16u : 0u);
    }
  };

  for (int s = 0; s < stages - 1; ++s) {
    if (s < n) load_stage(s, s);
    ptx::cp_async_commit();
  }

  float acc[S::kNT][4];
#pragma unroll
  for (int j = 0; j < S::kNT; ++j)
#pragma unroll
    for (int q = 0; q < 4; ++q) acc[j][q] = 0.0f;

  unsigned long long pre[kF4PerThread][4];  // the partner's words for the head tile, loaded early
#pragma unroll
  for (int i = 0; i < kF4PerThread; ++i)
#pragma unroll
    for (int q = 0; q < 4; ++q) pre[i][q] = 0ull;
  const int poll_at = n > kPollAhead ? n - kPollAhead : 0;

  const int a_row = wn * 16 + (lane & 15);
  const int a_chunk_hi = lane >> 4;
  const int b_tok = (lane & 7) + ((lane >> 4) << 3);
  const int b_chunk_hi = (lane >> 3) & 1;

  int slot = 0, fill_slot = stages - 1;
  int kt = u0 % kpt;         // 128-K step of unit u0 + j within its tile
  int piece_kt0 = kt;        // first step of the current piece
  for (int j = 0; j < n; ++j) {
    splitk::cp_async_wait_dyn(stages - 2);
    __syncthreads();
    {
      const int nk = j + stages - 1;
      if (nk < n) load_stage(nk, fill_slot);
      ptx::cp_async_commit();
      fill_slot = fill_slot + 1 == stages ? 0 : fill_slot + 1;
    }
    if (has_head && j == poll_at) {  // partner's words, well before they are needed
#pragma unroll
      for (int i = 0; i < kF4PerThread; ++i) {
        const int f = tid + i * S::kThreads;
        if (f < nf4) {
          const int t = f / kRowF4, c = (f - t * kRowF4) * 4;
          const unsigned long long* p = tags + (std::size_t(head_tile) * tag_rows + t) * S::kBN + c;
#pragma unroll
          for (int q = 0; q < 4; ++q) pre[i][q] = ptx::ld_relaxed_gpu_u64(p + q);
        }
      }
    }
    const uint32_t ws = sbase + slot * S::kStageBytes;
    const uint32_t xs = ws + S::kWStageBytes;
    slot = slot + 1 == stages ? 0 : slot + 1;
#pragma unroll
    for (int i = 0; i < S::kKSteps; ++i) {
      const int kk = wk * S::kKSteps + i;
      uint32_t a0, a1, a2, a3;
      ptx::ldmatrix_x4(a0, a1, a2, a3, ws + splitk::swz(a_row, kk * 2 + a_chunk_hi));
      if constexpr (S::kNT == 1) {
        uint32_t b0, b1;
        ptx::ldmatrix_x2(b0, b1, xs + splitk::swz(lane & 7, kk * 2 + b_chunk_hi));
        ptx::mma_bf16_16816(acc[0], a0, a1, a2, a3, b0, b1);
      } else {
#pragma unroll
        for (int jj = 0; jj < S::kNT; jj += 2) {
          uint32_t b0, b1, b2, b3;
          ptx::ldmatrix_x4(b0, b1, b2, b3, xs + splitk::swz(jj * 8 + b_tok, kk * 2 + b_chunk_hi));
          ptx::mma_bf16_16816(acc[jj], a0, a1, a2, a3, b0, b1);
          ptx::mma_bf16_16816(acc[jj + 1], a0, a1, a2, a3, b2, b3);
        }
      }
    }

    const bool tile_end = kt == kpt - 1;
    if (tile_end || j == n - 1) {  // piece ends (CTA-uniform)
      const int tile = (u0 + j) / kpt;
      const int n0 = tile * S::kBN;
      splitk::store_partial<WARPS, WK, MT>(red, acc);
      __syncthreads();
#pragma unroll
      for (int i = 0; i < kF4PerThread; ++i) {
        const int f = tid + i * S::kThreads;
        if (f >= nf4) continue;
        const int t = f / kRowF4, c = (f - t * kRowF4) * 4;
        float4 v = *reinterpret_cast<const float4*>(red + t * S::kRedStride + c);
#pragma unroll
        for (int h = 1; h < WK; ++h) {
          const float4 o = *reinterpret_cast<const float4*>(red + h * (MT * S::kRedStride) + t * S::kRedStride + c);
          v.x += o.x; v.y += o.y; v.z += o.z; v.w += o.w;
        }
        unsigned long long* p = tags + (std::size_t(tile) * tag_rows + t) * S::kBN + c;
        if (piece_kt0 != 0) {  // tail piece (this CTA's first): publish, tagged
#pragma unroll
          for (int q = 0; q < 4; ++q)
            ptx::st_relaxed_gpu_u64(p + q, kTag | __float_as_uint(f4_get(v, q)));
          continue;
        }
        if (!tile_end) {  // head piece (this CTA's last): add the partner's tail, reset its words
          float s[4];
#pragma unroll
          for (int q = 0; q < 4; ++q) {
            unsigned long long word = pre[i][q];
            for (int spin = 0; (word & kTag) == 0; ++spin) {
              if (spin) ptx::nanosleep_ns(64);
              word = ptx::ld_relaxed_gpu_u64(p + q);
            }
            s[q] = __uint_as_float(unsigned(word));
            ptx::st_relaxed_gpu_u64(p + q, 0ull);
          }
          v.x += s[0]; v.y += s[1]; v.z += s[2]; v.w += s[3];
        }
        store_bf16x4(y + std::size_t(t) * n_out + n0 + c, v);
      }
#pragma unroll
      for (int jj = 0; jj < S::kNT; ++jj)
#pragma unroll
        for (int q = 0; q < 4; ++q) acc[jj][q] = 0.0f;
      piece_kt0 = 0;
    }
    kt = tile_end ? 0 : kt + 1;
  }
  ptx::cp_async_wait<0>();
}

using TaggedKernel = void (*)(const __nv_bfloat16*, const __nv_bfloat16*, __nv_bfloat16*, unsigned long long*, int,
                              int, int, int, int);

struct KernelInfo {
  TaggedKernel fn = nullptr;
  int stage_bytes = 0, red_bytes = 0, threads = 0, bn = 0;
  int smem_for(int stages) const { return stages * stage_bytes + red_bytes; }
};

template <int WARPS, int MT>
KernelInfo info_of() {
  using S = splitk::Shape<WARPS, 4, MT>;
  return {streamk_mma_tagged_kernel<WARPS, 4, MT>, S::kStageBytes, S::kRedBytes, S::kThreads, S::kBN};
}

int token_tile_index(int m) { return m <= 8 ? 0 : m <= 16 ? 1 : m <= 32 ? 2 : 3; }

template <int WARPS>
KernelInfo select_mt(int m) {
  switch (token_tile_index(m)) {
    case 0: return info_of<WARPS, 8>();
    case 1: return info_of<WARPS, 16>();
    case 2: return info_of<WARPS, 32>();
    default: return info_of<WARPS, 64>();
  }
}

// Compiled: rows 16 (1 slab x WK 4 = 4 warps) and rows 32 (2 slabs x WK 4 = 8 warps) x MT 8..64.
KernelInfo select(int rows, int m) {
  if (rows == 16) return select_mt<1>(m);
  if (rows == 32) return select_mt<2>(m);
  return {};
}

class StreamkMmaTagged final : public PreparedMethod {
 public:
  StreamkMmaTagged(const PrepareContext& ctx, int rows, int cps, int want_stages)
      : spec_(ctx.spec), w_(ctx.w), rows_(rows), max_m_(std::min(ctx.max_m, kMaxTokens)) {
    if (!select(rows, 1).fn) throw Error(StatusCode::unsupported, "streamk_mma_tagged: rows must be 16 or 32");
    if (max_m_ < 1) throw Error(StatusCode::invalid_argument, "streamk_mma_tagged: max_m < 1");
    if (spec_.k % kBK != 0 || spec_.n % rows != 0)
      throw Error(StatusCode::unsupported, "streamk_mma_tagged: K % 128 != 0 or N % rows != 0");
    int smem_per_sm = 0, reserved = 0;
    cuda_check(cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, ctx.dev.ordinal),
               "cudaDeviceGetAttribute (smem per SM)");
    cuda_check(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, ctx.dev.ordinal),
               "cudaDeviceGetAttribute (reserved smem per block)");
    for (int ti = 0; ti < 4; ++ti)
      cuda_check(cudaFuncSetAttribute(select(rows, 8 << ti).fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      int(ctx.dev.smem_per_block_optin)),
                 "cudaFuncSetAttribute (streamk_mma_tagged smem)");
    n_out_[0] = spec_.n;
    n_out_[1] = spec_.slice_max_m > 0 ? spec_.slice_rows : spec_.n;
    const int sms = ctx.dev.sm_count;
    for (int si = 0; si < 2; ++si) {
      if (n_out_[si] % rows != 0) {  // a slice that does not fit only fails the calls that use it
        if (si == 0) throw Error(StatusCode::unsupported, "streamk_mma_tagged: N % rows != 0");
        continue;
      }
      const int64_t tiles = n_out_[si] / rows;
      for (int ti = 0; ti < 4; ++ti) {
        const KernelInfo ki = select(rows, 8 << ti);
        int64_t g = std::min<int64_t>(tiles, int64_t(cps) * sms);
        // Ring depth: the requested one, lowered (to >= 2) until ceil(G / SMs) CTAs share an SM.
        const int64_t per_sm = (g + sms - 1) / sms;
        const std::size_t share = std::size_t(smem_per_sm) / std::size_t(per_sm);
        const std::size_t budget =
            std::min(ctx.dev.smem_per_block_optin, share > std::size_t(reserved) ? share - reserved : std::size_t(0));
        int s = std::max(2, std::min(want_stages, kMaxStages));
        while (s > 2 && std::size_t(ki.smem_for(s)) > budget) --s;
        if (std::size_t(ki.smem_for(s)) > ctx.dev.smem_per_block_optin)
          throw Error(StatusCode::unsupported, "streamk_mma_tagged: smem exceeds the device opt-in limit");
        // Every CTA must be resident at once (owners poll their partners): cap G there.
        int occ = 0;
        cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, ki.fn, ki.threads, std::size_t(ki.smem_for(s))),
                   "cudaOccupancyMaxActiveBlocksPerMultiprocessor (streamk_mma_tagged)");
        if (occ < 1) throw Error(StatusCode::unsupported, "streamk_mma_tagged: no CTA fits on an SM");
        g = std::min<int64_t>(g, int64_t(occ) * sms);
        grid_[si][ti] = int(g);
        stages_[si][ti] = s;
        smem_[si][ti] = ki.smem_for(s);
      }
    }
    // Tagged words [tiles][max_m][rows] u64 (the slice uses the first of the same tiles), zeroed
    // once; every call leaves them zero again.
    tags_ = DeviceBuffer(std::size_t(spec_.n) * std::size_t(max_m_) * sizeof(unsigned long long));
    cuda_check(cudaMemsetAsync(tags_.get(), 0, tags_.bytes(), nullptr), "cudaMemsetAsync (streamk_mma_tagged tags)");
    cuda_check(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize (streamk_mma_tagged prepare)");
  }

  Status run(const RunArgs& a) const override {
    if (a.m < 1 || a.m > max_m_)
      return {StatusCode::invalid_argument, "streamk_mma_tagged: m must be in 1..min(max_m, 64)"};
    if ((reinterpret_cast<uintptr_t>(a.x) | reinterpret_cast<uintptr_t>(a.y)) % 16 != 0)
      return {StatusCode::invalid_argument, "streamk_mma_tagged: x and y must be 16-byte aligned"};
    const int si = a.n_out == n_out_[0] ? 0 : a.n_out == n_out_[1] ? 1 : -1;
    if (si < 0) return {StatusCode::invalid_argument, "streamk_mma_tagged: n_out is neither N nor the slice width"};
    const int ti = token_tile_index(a.m);
    if (grid_[si][ti] < 1) return {StatusCode::invalid_argument, "streamk_mma_tagged: slice width % rows != 0"};
    const KernelInfo ki = select(rows_, a.m);
    ki.fn<<<unsigned(grid_[si][ti]), unsigned(ki.threads), std::size_t(smem_[si][ti]), a.stream>>>(
        static_cast<const __nv_bfloat16*>(a.x), static_cast<const __nv_bfloat16*>(w_), static_cast<__nv_bfloat16*>(a.y),
        tags_.as<unsigned long long>(), a.m, int(a.n_out), int(spec_.k), stages_[si][ti], max_m_);
    return cuda_status(cudaGetLastError(), "streamk_mma_tagged_kernel launch");
  }

 private:
  ProjectionSpec spec_;
  const void* w_;
  int rows_;
  int max_m_;
  int64_t n_out_[2] = {0, 0};
  int grid_[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
  int stages_[2][4] = {{2, 2, 2, 2}, {2, 2, 2, 2}};
  int smem_[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
  DeviceBuffer tags_;  // u64 [N / rows][max_m][rows], 0 between calls
};

constexpr int kDefaultStages = 16;

// Params: rows (W rows per tile: 16 | 32), cps (CTAs per SM asked for: G = min(tiles, cps x SMs,
// resident)), stages (ring depth, default 16, lowered per launch so ceil(G/SMs) CTAs fit an SM).
// Grids below for 132 SMs.
std::vector<Config> tagged_configs() {
  return {
      // One CTA per SM, stream-K: qkv 144 tiles over 132 CTAs (each 1.09 tiles: a tail + a head),
      // pooler 256 / unpooler 512 / o 512 tiles over 132, unpooler slice 64 tiles over 64 CTAs.
      Config{"streamk_mma_tagged", {{"rows", 16}, {"cps", 1}}},
      // Two CTAs per SM: qkv 144 and pooler 256 CTAs of exactly one tile each (no hand-off at
      // all; qkv: 12 SMs hold 2 CTAs), unpooler / o 264 CTAs stream-K.
      Config{"streamk_mma_tagged", {{"rows", 16}, {"cps", 2}}},
      // 32-row tiles: half the x bytes per W byte of rows 16 (M 17..32). pooler 128 CTAs of one
      // tile, unpooler / o 256 tiles over 132 CTAs, qkv 72 CTAs (for comparison).
      Config{"streamk_mma_tagged", {{"rows", 32}, {"cps", 1}}},
  };
}

std::string tagged_applicable(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi, const DeviceInfo& dev) {
  const int rows = cfg.get("rows", 0), cps = cfg.get("cps", 1), stages = cfg.get("stages", kDefaultStages);
  if (!select(rows, 1).fn) return "streamk_mma_tagged: rows" + std::to_string(rows) + " is not compiled (rows 16 | 32)";
  if (cps < 1 || cps > 4) return "streamk_mma_tagged: cps must be in 1..4";
  if (stages < 2 || stages > kMaxStages) return "streamk_mma_tagged: stages must be in 2..16";
  if (spec.weight_dtype != DType::bf16 || spec.x_dtype != DType::bf16 || spec.out_dtype != DType::bf16)
    return "streamk_mma_tagged: needs bf16 weights, activations and output";
  if (!dev.is_hopper_sm90()) return "streamk_mma_tagged: needs sm_90 (built for sm_90a)";
  if (m_lo < 1 || m_hi < m_lo || m_hi > kMaxTokens) return "streamk_mma_tagged: m must be in 1..64 (token tile <= 64)";
  if (spec.k % kBK != 0) return "streamk_mma_tagged: K % 128 != 0";
  if (spec.k > (int64_t(1) << 30) || spec.n > (int64_t(1) << 24) || (spec.n / rows) * (spec.k / kBK) >= (int64_t(1) << 31))
    return "streamk_mma_tagged: N, K too large for int";
  for (int m = m_lo; m <= m_hi; ++m) {
    const KernelInfo km = select(rows, m);
    if (std::size_t(km.smem_for(2)) > dev.smem_per_block_optin)
      return "streamk_mma_tagged: needs " + std::to_string(km.smem_for(2)) + " B smem per block (2 stages) > opt-in";
    const int64_t n_out = spec.out_cols(m);
    if (n_out % rows != 0)
      return "streamk_mma_tagged: out_cols(" + std::to_string(m) + ") % " + std::to_string(rows) + " (rows) != 0";
  }
  return "";
}

std::unique_ptr<PreparedMethod> tagged_prepare(const PrepareContext& ctx, const Config& cfg) {
  return std::make_unique<StreamkMmaTagged>(ctx, cfg.get("rows", 0), cfg.get("cps", 1),
                                            cfg.get("stages", kDefaultStages));
}

}  // namespace

extern const KernelFamily kStreamkMmaTagged = {
    "streamk_mma_tagged",
    "stream-K mma.sync m16n8k16 over 16/32-row tiles (W as A, tokens as B), cp.async swizzled ring run across "
    "pieces; a tile's first piece is published early as tagged 64-bit fp32 words, its owner adds them at its end",
    tagged_configs, tagged_applicable, tagged_prepare};

}  // namespace projkit
