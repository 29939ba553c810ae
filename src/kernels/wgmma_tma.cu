// wgmma_tma: dense bf16 projections at mid and large M (about 17..256 tokens) on Hopper.
// Regime: the weight stream still dominates but the token count makes SIMT/GEMV kernels
//   compute-bound; at M = 256 the tensor pipe and the HBM stream are about balanced.
// Mechanism: operand swap D[n, t] = W[n, :] . x[t, :] so the weights are the wgmma A
//   operand (64 W rows per consumer warpgroup, 128 per CTA) and the tokens are the wgmma N
//   (BM = 64..256). W and x tiles arrive by TMA (128B swizzle, tensor maps: W's built once
//   in prepare(), x's encoded on the host in every run(), which is pure host work and
//   capturable) into a multi-stage mbarrier ring fed by one producer thread. K is split
//   over a thread-block cluster; the partial tiles are combined in rank order
//   (deterministic) either through distributed shared memory (red0: fp32, no global scratch;
//   red4: parked as bf16 and summed in fp32, half the bytes -- cuBLAS's own reduced-precision
//   split-K reduction for bf16; every range the shipped plan gives this kernel, issue 6 E20)
//   or, with red2, through a workspace of per-CTA fp32 slots owned by the prepared method
//   (written and read inside one call after a cluster barrier: no counters, no spinning,
//   nothing to reset; one Projection runs on one stream at a time, like every workspace
//   here), or, with red5 (E24), without a cluster: each K split adds its bf16-rounded partial
//   tile into y with bf16x2 atomics, y zeroed inside the call in shares by the K splits' "zero
//   warps", counted on a self-resetting word (kernels/splitk_zero_warp.cuh; cooperative
//   launch), so the split count is no longer bounded by cluster co-residency (qkv split7,
//   pooler split4) and no CTA waits for its peers' partials. Replay-safe either way. With wt1
//   (E58) a red5 grid of one CTA per SM takes each CTA's tile and K range from a host-built work
//   table in K-split-major order (kernels/splitk_work_table.hpp). With rk1 (E59) red5 runs on
//   its own entry point, wgmma_tma_red5_kernel (red and mc compiled in: half the code, 0.8-3 %
//   faster at M 8..128); its template argument KORD picks the K splits' k-blocks (ki1:
//   interleaved instead of contiguous ranges) and the block order (ko1: K-split-major), E63 /
//   E64, instantiated for the 128..256-token tiles only. Device code: wgmma_tma.cuh.
//   Where the time goes (issue 6 E11 phase stamps, pooler M=128): ~3 us until the first
//   stage lands, the main loop ends near the HBM read floor, then 3.5-4 us of split-K
//   combine (DSMEM or L2 alike, all SMs at once) that the baseline does not pay; it is
//   bound by bytes per SM, not by when it runs (E19: a skewed chain through L2 lost), and
//   red4 takes 0.2-1.0 us of it off.
// Constraints: bf16 W / x / y; K % 64 == 0; N (and the unpooler slice) % BN == 0;
//   x 16-byte aligned, y 8-byte aligned (red5: 16-byte); sm_90a; split <= 8 (portable cluster size);
//   red5: mc = 1, one CTA per SM and the whole grid resident (<= SM count CTAs at every m);
//   wmc1 (E87): red5.rk1.ki1 at bm 64 / 128, token tiles padded to pairs, the pairs co-resident;
//   split <= K / 64; the ring must fit the opt-in shared memory.
#include "kernels/wgmma_tma.cuh"

#include <algorithm>
#include <utility>
#include <vector>
#ifdef PROJKIT_WGMMA_STAMPS
#include <cstdlib>  // getenv (P11's rotation), strtoul
#include <string>

#include "kernels/dev_stamps.hpp"
#endif

#include "core/method.hpp"
#include "kernels/tensor_map.hpp"

namespace projkit {
namespace {

using namespace wgmma_tma;

using tensor_map::EncodeTiledFn;
static_assert(kBlockK == 64, "tensor_map::encode_2d_bf16_sw128 boxes are 64 bf16 (128 B) wide");

using KernelFn = void (*)(CUtensorMap, CUtensorMap, __nv_bfloat16*, int, int, int, int, int, int, int, int,
                          float*, unsigned*, unsigned long long*);

// The work table entry point (wt1, E58): no split / mc / red / ws parameters.
using TableKernelFn = void (*)(CUtensorMap, CUtensorMap, __nv_bfloat16*, int, int, int, int, int, unsigned*,
                               unsigned long long*, work_table::Table);
TableKernelFn table_kernel_for(int bm, bool wsl = false) {
  if (bm != 64) return nullptr;  // the only listed wt1 token tile
  return wsl ? wgmma_tma_work_table_kernel<64, true> : wgmma_tma_work_table_kernel<64>;
}

// E65 (config key wsl1): W copied at prepare as k-block slabs [K/64][N][64] (lossless; slab kb =
// columns kb*64 .. kb*64+63 of every row). One thread per 16-byte chunk, chunk i of the copy =
// (kb, row, piece) = (i / (8 N), (i / 8) % N, i % 8).
// kSwizzle (config key wsl2, E85): each row's 8 chunks stored 128B-swizzled (chunk p of the copy's
// row holds W's chunk p ^ (row & 7)), the layout TMA's 128B swizzle writes into smem, so a plain
// 16 KB bulk copy of a [128 rows][128 B] unit lands it ready for wgmma (tiles start at rows that
// are multiples of 128, and smem stages on 1024-B boundaries). Still a permutation: lossless.
template <bool kSwizzle = false>
__global__ void pack_w_kslabs_kernel(const uint4* __restrict__ w, uint4* __restrict__ slabs, int64_t n, int64_t k) {
  const int64_t chunks = n * k / 8;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < chunks; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t piece = i % 8, row = (i / 8) % n, kb = i / (8 * n);
    slabs[i] = w[(row * k + kb * kBlockK) / 8 + (kSwizzle ? piece ^ (row & 7) : piece)];
  }
}

// Token tiles of the grid for m tokens; wmc1 (E87) pads them to pairs (at m <= bm the second tile
// is empty: it only multicasts its half of W).
int64_t token_tiles(int bm, int m, bool wmc) {
  const int64_t t = (m + bm - 1) / bm;
  return wmc ? (t + 1) / 2 * 2 : t;
}
// red5 grids are cooperative (every CTA resident): CTAs of the grid for m tokens.
int64_t red5_grid_ctas(const ProjectionSpec& spec, int bm, int split, int m, bool wmc = false) {
  return (spec.out_cols(m) / kBlockN) * int64_t(split) * token_tiles(bm, m, wmc);
}

// One instantiation per token tile (the wgmma N) and entry point: wgmma_tma_kernel (split,
// stages, red and mc are runtime values) or, with red5_entry (config key rk1, E59),
// wgmma_tma_red5_kernel (red = 5 and mc = 1 compiled in), whose k-block order kord (config keys
// ki1 | ko1 << 2, E63 / E64) is instantiated for the 128..256-token tiles only (what the config
// list names). BN is fixed at kBlockN = 128 W rows per CTA (BN = 256, two m64 wgmmas per consumer
// warpgroup, measured slower everywhere in issue 6 E10 and removed; its code is in 35399d9).
// W as k-block slabs (wsl1, E65, kord bit 8) is instantiated with contiguous K ranges and with
// ki1 at every token tile.
template <int BM>
KernelFn red5_kernel_for(int kord) {
  if (kord == 0) return wgmma_tma_red5_kernel<BM, 0>;
  if (kord == 8) return wgmma_tma_red5_kernel<BM, 8>;  // wsl1
  if (kord == 9) return wgmma_tma_red5_kernel<BM, 9>;  // ki1.wsl1
  if constexpr (BM <= 128) {
    if (kord == 129) return wgmma_tma_red5_kernel<BM, 129>;  // ki1.wmc1 (E87)
    if (kord == 385) return wgmma_tma_red5_kernel<BM, 385>;  // ki1.wmc1.xsh1 (E99: the last tile's x box inside x)
    // ki1.wsl2.ls1 (E85 at bm 64; bm 128 since E89c: qkv M 65..83 on the same pre-swizzled slab copy)
    if (kord == 49) return wgmma_tma_red5_kernel<BM, 49>;
  }
  if constexpr (BM == 64) {  // E85 (the small-M slab configs): lean start, bulk-copied pre-swizzled slabs
    if (kord == 25) return wgmma_tma_red5_kernel<BM, 25>;  // ki1.wsl1.ls1
    if (kord == 33) return wgmma_tma_red5_kernel<BM, 33>;  // ki1.wsl2
  }
  if constexpr (BM >= 128) {
    if (kord == 1) return wgmma_tma_red5_kernel<BM, 1>;  // ki1
    if (kord == 5) return wgmma_tma_red5_kernel<BM, 5>;  // ki1.ko1
  }
  return nullptr;
}
KernelFn kernel_for(int bm, int bn, bool red5_entry = false, int kord = 0) {
  if (bn != kBlockN || (kord != 0 && !red5_entry)) return nullptr;
  switch (bm) {
    case 64: return red5_entry ? red5_kernel_for<64>(kord) : wgmma_tma_kernel<64>;
    case 128: return red5_entry ? red5_kernel_for<128>(kord) : wgmma_tma_kernel<128>;
    case 192: return red5_entry ? red5_kernel_for<192>(kord) : wgmma_tma_kernel<192>;
    case 256: return red5_entry ? red5_kernel_for<256>(kord) : wgmma_tma_kernel<256>;  // red4 / red5 (E21, E24)
    default: return nullptr;
  }
}
// The k-block order, W layout, start and x path of a config (the kernel's KORD): ki | ko << 2 |
// wsl1 << 3 | ls1 << 4 | wsl2 << 5 | wmc1 << 7 (W multicast pair over the two token tiles, E87;
// bit 6 was E86's x multicast pair, removed).
int kord_of(const Config& c) {
  const int wsl = c.get("wsl", 0);
  return c.get("ki", 0) | (c.get("ko", 0) != 0 ? 4 : 0) | (wsl == 1 ? 8 : 0) | (c.get("ls", 0) != 0 ? 16 : 0) |
         (wsl == 2 ? 32 : 0) | (c.get("wmc", 0) != 0 ? 128 : 0) | (c.get("xsh", 0) != 0 ? 256 : 0);
}

class WgmmaTma final : public PreparedMethod {
 public:
  WgmmaTma(const PrepareContext& ctx, const Config& cfg)
      : spec_(ctx.spec),
        bm_(cfg.get("bm", 0)),
        split_(cfg.get("split", 1)),
        mc_(cfg.get("mc", 1)),
        stages_(cfg.get("stages", 4)),
        xfit_(cfg.get("xfit", 0) != 0),
        red_(cfg.get("red", 0)),
        wsl_(cfg.get("wsl", 0) != 0),
        wsl2_(cfg.get("wsl", 0) == 2),
        wmc_(cfg.get("wmc", 0) != 0),
        encode_(tensor_map::encoder()),
        // wsl1 always runs red5's own entry (also wt1's equal split for a row slice): W is its slabs
        kernel_(kernel_for(bm_, cfg.get("bn", kBlockN), cfg.get("rk", 0) == 1 || wsl_, kord_of(cfg))) {
    if (!encode_) throw Error(StatusCode::unsupported, "wgmma_tma: cuTensorMapEncodeTiled entry point not available");
    if (cfg.get("rk", 0) != 0 && (cfg.get("rk", 0) != 1 || red_ != 5))
      throw Error(StatusCode::invalid_argument, "wgmma_tma: rk must be 0, or 1 with red5");
    if (!kernel_)
      throw Error(StatusCode::unsupported,
                  "wgmma_tma: bm must be 64, 128, 192 or 256 and bn 128 (ki1 / ki1.ko1: rk1 and bm >= 128; "
                  "wsl1: rk1 or wt1, not with ko1; wmc1: rk1.ki1 and bm 64 or 128)");
    if (wsl_) {  // E65: W's k-block slabs, N*K*2 bytes, one copy per Projection (SharedLayouts)
      if ((reinterpret_cast<uintptr_t>(ctx.w) & 15) != 0)
        throw Error(StatusCode::invalid_argument, "wgmma_tma: wsl1 needs W 16-byte aligned");
      // wsl2 (E85): the slabs pre-swizzled, read by bulk copies (slabs_ below); wsl1: as packed
      const DeviceBuffer& slabs = shared_layout(ctx, layouts_, wsl2_ ? "wgmma_tma.kslabs.sw128" : "wgmma_tma.kslabs", [&] {
        DeviceBuffer b(std::size_t(spec_.n) * std::size_t(spec_.k) * 2);
        const int64_t chunks = spec_.n * spec_.k / 8;
        const int blocks = int(std::min<int64_t>((chunks + 255) / 256, 65535));
        if (wsl2_)
          pack_w_kslabs_kernel<true><<<blocks, 256>>>(static_cast<const uint4*>(ctx.w), b.as<uint4>(), spec_.n, spec_.k);
        else
          pack_w_kslabs_kernel<<<blocks, 256>>>(static_cast<const uint4*>(ctx.w), b.as<uint4>(), spec_.n, spec_.k);
        cuda_check(cudaGetLastError(), "wgmma_tma: pack_w_kslabs_kernel launch");
        cuda_check(cudaDeviceSynchronize(), "wgmma_tma: pack_w_kslabs_kernel");
        return b;
      });
      if (wsl2_)  // wsl2: the kernel's `ws`; it reads no W tensor map, so none is encoded (w_map_ stays zero)
        slabs_ = slabs.get();
      else if (!tensor_map::encode_kslabs_bf16_sw128(encode_, &w_map_, slabs.get(), uint64_t(spec_.n),
                                                     uint64_t(spec_.k), uint32_t(kBlockN)))
        throw Error(StatusCode::invalid_argument, "wgmma_tma: cuTensorMapEncodeTiled failed for W's k-block slabs");
    } else if (!tensor_map::encode_2d_bf16_sw128(encode_, &w_map_, ctx.w, uint64_t(spec_.n), uint64_t(spec_.k),
                                                 uint32_t(wmc_ ? kRowsPerWG : kBlockN))) {  // wmc1: half-tile boxes
      throw Error(StatusCode::invalid_argument, "wgmma_tma: cuTensorMapEncodeTiled failed for W (alignment?)");
    }
    smem_ = smem_bytes(bm_, kBlockN, stages_);
    if (red_ == 2) {  // one fp32 BM x BN slot per CTA of the largest grid (m = max_m)
      const std::size_t ctas = std::size_t(spec_.n / kBlockN) * std::size_t(split_) *
                               std::size_t((ctx.max_m + bm_ - 1) / bm_);
      ws_ = DeviceBuffer(ctas * std::size_t(bm_) * std::size_t(kBlockN) * sizeof(float));
    }
    cuda_check(cudaFuncSetAttribute(kernel_, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_),
               "wgmma_tma: cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
    if (red_ == 5) {
      // No cluster; the K splits of a tile wait for each other's zero shares, so the whole grid
      // must be resident: cooperative launch, grid <= blocks per SM x SMs (checked per call).
      // wmc1 (E87, rk1): clusters of the two token tiles multicast W; both attributes, and the
      // grid's pairs must be co-resident.
      if (mc_ != 1) throw Error(StatusCode::invalid_argument, "wgmma_tma: red5 needs mc = 1 (no K-split cluster)");
      resident_ctas_ = wmc_ ? 2 * int64_t(max_active_clusters())
                                : resident_ctas(reinterpret_cast<const void*>(kernel_), kThreads, std::size_t(smem_),
                                                ctx.dev.sm_count, "wgmma_tma red5: cooperative grid");
      if (resident_ctas_ < 1) throw Error(StatusCode::unsupported, "wgmma_tma: a CTA of this config cannot be resident");
      const int64_t tiles = (spec_.n / kBlockN) * token_tiles(bm_, ctx.max_m, wmc_);
      flags_ = DeviceBuffer(2 * std::size_t(tiles) * sizeof(unsigned));  // zeroed[tiles], passed[tiles]
      cuda_check(cudaMemset(flags_.get(), 0, flags_.bytes()), "wgmma_tma: zero the red5 flags");
    } else if (max_active_clusters() < 1) {  // the cluster (one CTA per SM, `split` of them) must be schedulable
      throw Error(StatusCode::unsupported, "wgmma_tma: a cluster of this size cannot be scheduled");
    }
#ifdef PROJKIT_WGMMA_STAMPS
    stamps_init(cfg);
    w_ = ctx.w;
#endif
    if (cfg.get("wt", 0) != 0) prepare_work_table(ctx, cfg.get("wt", 0));
  }

  // ---- Work table (config key wt1, ledger E58; red5, one token tile): a grid of one CTA per SM
  // in K-split-major order (CTA c: tile c % tiles, member c / tiles; each tile's k-blocks split
  // evenly over its members), built and checked here, passed as a kernel parameter. A run whose
  // n_out is not N (the unpooler's row slice) takes the equal split.
  void prepare_work_table(const PrepareContext& ctx, int wt) {
    if (wt != 1) throw Error(StatusCode::invalid_argument, "wgmma_tma: wt must be 0 or 1");
    if (red_ != 5) throw Error(StatusCode::invalid_argument, "wgmma_tma: wt1 needs red5");
    table_kernel_ = table_kernel_for(bm_, wsl_);
    if (!table_kernel_) throw Error(StatusCode::unsupported, "wgmma_tma: wt1 needs bm 64");
    table_ctas_ = std::min(ctx.dev.sm_count, work_table::kMaxCtas);
    cuda_check(cudaFuncSetAttribute(table_kernel_, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_),
               "wgmma_tma: cudaFuncSetAttribute(MaxDynamicSharedMemorySize), work table kernel");
    if (resident_ctas(reinterpret_cast<const void*>(table_kernel_), kThreads, std::size_t(smem_), ctx.dev.sm_count,
                      "wgmma_tma wt1: cooperative grid") < table_ctas_)
      throw Error(StatusCode::unsupported, "wgmma_tma: wt1's grid of one CTA per SM is not co-resident");
    const int n_tiles = int(spec_.n / kBlockN), k_blocks = int(spec_.k / kBlockK);
    const std::vector<work_table::Work> work = work_table::build(table_ctas_, n_tiles, k_blocks);
    const std::string why = work_table::check(work, n_tiles, k_blocks);
    if (!why.empty()) throw Error(StatusCode::internal, "wgmma_tma wt1: the work table is inconsistent: " + why);
    table_ = work_table::to_table(work, n_tiles);
  }

  // Clusters of this config the device can hold at once (grids beyond it run in waves; red5 wmc1:
  // the cooperative grid's pairs).
  int max_active_clusters() const {
    cudaLaunchConfig_t lc = launch_config(cluster_dims(), nullptr);
    cudaLaunchAttribute attr = cluster_attr();
    lc.attrs = &attr;
    lc.numAttrs = 1;
    int clusters = 0;
    cuda_check(cudaOccupancyMaxActiveClusters(&clusters, kernel_, &lc), "wgmma_tma: cudaOccupancyMaxActiveClusters");
    return clusters;
  }

  Status run(const RunArgs& a) const override {
    if (a.m < 1) return {StatusCode::invalid_argument, "wgmma_tma: m must be >= 1"};
    if (!a.x || !a.y) return {StatusCode::invalid_argument, "wgmma_tma: null x or y"};
    if ((reinterpret_cast<uintptr_t>(a.x) & 15) != 0)
      return {StatusCode::invalid_argument, "wgmma_tma: x must be 16-byte aligned (TMA)"};
    if ((reinterpret_cast<uintptr_t>(a.y) & 7) != 0)
      return {StatusCode::invalid_argument, "wgmma_tma: y must be 8-byte aligned (bf16x4 stores)"};
    if (a.n_out < 1 || a.n_out > spec_.n || a.n_out % (int64_t(kBlockN) * mc_) != 0)
      return {StatusCode::invalid_argument, "wgmma_tma: n_out must be a multiple of bn * mc and <= N"};
    const unsigned n_tiles = unsigned(a.n_out / kBlockN);
    const unsigned m_tiles = unsigned(token_tiles(bm_, a.m, wmc_));
    // x rows per tile load: BM, or (xfit, one token tile) m rounded up to 8 rows per slice.
    int x_rows = bm_;
    if (xfit_ && m_tiles == 1) {
      const int q = 8 * mc_;
      x_rows = std::min(bm_, (a.m + q - 1) / q * q);
    }
    if (red_ == 5 && (reinterpret_cast<uintptr_t>(a.y) & 15) != 0)
      return {StatusCode::invalid_argument, "wgmma_tma: red5 needs y 16-byte aligned (bf16x8 atomics)"};
    CUtensorMap x_map;
    if (!tensor_map::encode_2d_bf16_sw128(encode_, &x_map, a.x, uint64_t(a.m), uint64_t(spec_.k), uint32_t(x_rows / mc_)))
      return {StatusCode::invalid_argument, "wgmma_tma: cuTensorMapEncodeTiled failed for x"};
    if (table_kernel_ && a.n_out == int64_t(table_.n_tiles) * kBlockN) return launch_work_table(a, x_map, x_rows);
    cudaLaunchConfig_t lc = launch_config(dim3(n_tiles * unsigned(split_), m_tiles, 1), a.stream);
    cudaLaunchAttribute attrs[2] = {cluster_attr(), {}};
    lc.numAttrs = 1;
    if (red_ == 5) {  // a cooperative grid (the zero warp's flags need every CTA resident); wmc1: in pairs
      if (int64_t(n_tiles) * split_ * m_tiles > resident_ctas_)
        return {StatusCode::invalid_argument, "wgmma_tma: red5 grid at this m exceeds the resident CTAs (cooperative)"};
      attrs[0] = zero_warp::cooperative_attr();
      if (wmc_) {
        attrs[1] = cluster_attr();
        lc.numAttrs = 2;
      }
    }
    lc.attrs = attrs;
#ifdef PROJKIT_WGMMA_STAMPS
    if (probe_skip_ & 16u) {  // P17: launch variants, only while every CTA returns at entry (P16)
      if (probe_launch_ & 1u) lc.numAttrs = 0;                    // no cooperative / cluster attribute
      if (probe_launch_ & 2u) lc.dynamicSmemBytes = 0;            // no dynamic shared memory
      if (probe_launch_ & 4u) lc.blockDim = dim3(128, 1, 1);      // one warpgroup instead of three
    }
#endif
    // wsl2 (E85): `ws` carries the pre-swizzled slabs and the mc slot (ignored by rk1) W's rows N
    cudaError_t e = cudaLaunchKernelEx(&lc, kernel_, w_map_, x_map, static_cast<__nv_bfloat16*>(a.y), a.m,
                                       int(a.n_out), int(spec_.k / kBlockK), split_, wsl2_ ? int(spec_.n) : mc_,
                                       stages_, x_rows, red_,
                                       wsl2_ ? static_cast<float*>(slabs_) : probe_ws(), flags_.as<unsigned>(), stamps_);
    if (e != cudaSuccess) return cuda_status(e, "wgmma_tma_kernel launch");
    return cuda_status(cudaGetLastError(), "wgmma_tma_kernel launch");
  }

 private:
  // Work table launch (wt1): one token tile, all N tiles, the table's grid (cooperative); x_map
  // and x_rows as run() made them (mc = 1).
  Status launch_work_table(const RunArgs& a, const CUtensorMap& x_map, int x_rows) const {
    if (a.m > bm_) return {StatusCode::invalid_argument, "wgmma_tma wt1: m exceeds bm (one token tile)"};
    cudaLaunchConfig_t lc = launch_config(dim3(unsigned(table_ctas_), 1, 1), a.stream);
    cudaLaunchAttribute attr = zero_warp::cooperative_attr();
    lc.attrs = &attr;
    lc.numAttrs = 1;
    cudaError_t e = cudaLaunchKernelEx(&lc, table_kernel_, w_map_, x_map, static_cast<__nv_bfloat16*>(a.y), a.m,
                                       int(a.n_out), int(spec_.k / kBlockK), stages_, x_rows, flags_.as<unsigned>(),
                                       stamps_, table_);
    if (e != cudaSuccess) return cuda_status(e, "wgmma_tma_work_table_kernel launch");
    return cuda_status(cudaGetLastError(), "wgmma_tma_work_table_kernel launch");
  }
  cudaLaunchConfig_t launch_config(dim3 grid, cudaStream_t stream) const {
    cudaLaunchConfig_t lc{};
    lc.gridDim = grid;
    lc.blockDim = dim3(kThreads, 1, 1);
    lc.dynamicSmemBytes = std::size_t(smem_);
    lc.stream = stream;
    return lc;
  }
  // The cluster: the K splits x the N-neighbours, or (wmc1, E87) the two token tiles along y.
  dim3 cluster_dims() const { return wmc_ ? dim3(1, 2, 1) : dim3(unsigned(split_ * mc_), 1, 1); }
  cudaLaunchAttribute cluster_attr() const { return zero_warp::cluster_attr(cluster_dims()); }

  ProjectionSpec spec_;
  int bm_, split_, mc_, stages_;  // W rows per CTA: kBlockN (the config key bn stays 128)
  bool xfit_;
  int red_;
  bool wsl_;  // E65 (config key wsl1): w_map_ maps W's k-block slabs [K/64][N][64], in layouts_
  bool wsl2_;  // E85 (wsl2): the slabs pre-swizzled, read by bulk copies from slabs_ (w_map_ zero, unread)
  bool wmc_;   // E87 (wmc1): the token tiles' pair multicasts W; w_map_'s box is 64 rows
  void* slabs_ = nullptr;  // wsl2: the pre-swizzled slabs (owned by layouts_)
  std::shared_ptr<SharedLayouts> layouts_;  // wsl1: the Projection's shared re-layouts (or this method's own)
  DeviceBuffer ws_;  // red = 2 only: never needs clearing (every slot read is written first, same call)
  DeviceBuffer flags_;          // red = 5 only: the zero warps' zeroed[] / passed[], zero between calls
  int64_t resident_ctas_ = 0;  // red = 5 only: CTAs of this config the device holds at once
  int smem_ = 0;
  EncodeTiledFn encode_;
  KernelFn kernel_;
  CUtensorMap w_map_{};
  unsigned long long* stamps_ = nullptr;  // dev phase probe (PROJKIT_WGMMA_STAMPS builds only)
  TableKernelFn table_kernel_ = nullptr;  // wt1 only: wgmma_tma_work_table_kernel<bm>
  int table_ctas_ = 0;                     // wt1: the grid (one CTA per SM)
  work_table::Table table_{};              // wt1: the kernel parameter (built and checked in prepare)
#ifdef PROJKIT_WGMMA_STAMPS
  const void* w_ = nullptr;  // W: the P6 probe's address
#endif
  // The kernel's `ws`: red2's workspace; in stamps builds with red5 (no workspace) W's address for
  // the P6 probe.
  float* probe_ws() const {
#ifdef PROJKIT_WGMMA_STAMPS
    if (red_ == 5 && stamps_ != nullptr) return static_cast<float*>(const_cast<void*>(w_));
#endif
    return ws_.as<float>();
  }
#ifdef PROJKIT_WGMMA_STAMPS
  std::string name_;
  unsigned probe_skip_ = 0, probe_launch_ = 0;  // P13 / P16 / P17 (stamps builds only)
  bool ksplit_major_ = false;                    // ko1 (E64): the report's K split / tile labels

 public:
  // Dev build: per-CTA phase times of the last launch, printed when the method is destroyed.
  void stamps_init(const Config& cfg) {
    name_ = cfg.name();
    ksplit_major_ = cfg.get("ko", 0) != 0;
    if (const char* r = std::getenv("PROJKIT_RED5_ROTATION")) {  // P11: see g_red5_rotation
      const unsigned rot = unsigned(std::strtoul(r, nullptr, 10));
      cuda_check(cudaMemcpyToSymbol(g_red5_rotation, &rot, sizeof(rot)), "red5 rotation symbol");
    }
    {  // P13: see g_probe_skip (unset: 0, every part runs)
      const char* v = std::getenv("PROJKIT_WGMMA_PROBE_SKIP");
      probe_skip_ = v ? unsigned(std::strtoul(v, nullptr, 10)) : 0u;
      cuda_check(cudaMemcpyToSymbol(g_probe_skip, &probe_skip_, sizeof(probe_skip_)), "probe skip symbol");
      const char* l = std::getenv("PROJKIT_WGMMA_PROBE_LAUNCH");  // P17 (with skip bit 16 only): see run()
      probe_launch_ = l ? unsigned(std::strtoul(l, nullptr, 10)) : 0u;
    }
    cuda_check(cudaMalloc(&stamps_, 8 * kStampSlots * 4096), "stamps");
    cuda_check(cudaMemset(stamps_, 0, 8 * kStampSlots * 4096), "stamps");
  }
  ~WgmmaTma() override {
    if (!stamps_) return;
    std::vector<unsigned long long> h(kStampSlots * 4096);
    cudaDeviceSynchronize();
    cudaMemcpy(h.data(), stamps_, h.size() * 8, cudaMemcpyDeviceToHost);
    cudaFree(stamps_);
    unsigned long long t0 = ~0ull;
    unsigned n = 0;
    for (unsigned c = 0; c < 4096 && h[c * kStampSlots + 6] != 0; ++c, ++n) t0 = std::min(t0, h[c * kStampSlots]);
    if (n == 0) return;
    // Every CTA, for correlating stragglers with their SM, K split and tile (slot 4 = red5's first
    // ring fill issued, ledger P5; slot 7 = %smid); then slots 8..12 (P7 / P6: thread 0 entry,
    // index math, mbarriers, first TMA; the P6 load's issue).
    dev_stamps::report(name_, h, kStampSlots, n, t0,
                       {{"start", 0}, {"first_data", 1}, {"mainloop_end", 2}, {"parked", 3}, {"synced|issued", 4},
                        {"reduced", 5}, {"exit", 6}},
                       {0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12}, [&](unsigned c) {
                         // K split and tile of CTA c: the equal split's (tile-major, or K-split-major
                         // with ko1; one token tile's blocks), or wt1's from its table
                         const bool wt = table_kernel_ != nullptr && c < unsigned(work_table::kMaxCtas);
                         const unsigned tiles = unsigned(n) / unsigned(split_);
                         const int ks = wt ? work_table::member_of(table_.entry[c])
                                        : int(ksplit_major_ ? c / tiles : c % unsigned(split_));
                         const int tile = wt ? work_table::tile_of(table_.entry[c])
                                          : int(ksplit_major_ ? c % tiles : c / unsigned(split_));
                         return name_ + "," + std::to_string(c) + "," + std::to_string(ks) + "," + std::to_string(tile) +
                                "," + std::to_string(h[c * kStampSlots + 7]);
                       });
    // P36: the main loop's SM clock (clock64 cycles over globaltimer ns between the first stage
    // and the main loop's end, slots 14 / 15 against 1 / 2) and its length in cycles, per CTA.
    std::vector<double> ghz, kcyc;
    for (unsigned c = 0; c < n; ++c) {
      const unsigned long long* s = &h[c * kStampSlots];
      if (s[1] == 0 || s[2] <= s[1] || s[15] <= s[14]) continue;
      ghz.push_back(double(s[15] - s[14]) / double(s[2] - s[1]));
      kcyc.push_back(1e-3 * double(s[15] - s[14]));
    }
    if (!ghz.empty()) {
      std::sort(ghz.begin(), ghz.end());
      std::sort(kcyc.begin(), kcyc.end());
      std::fprintf(stderr, "STAMPS   %-15s %8.3f %8.3f %8.3f\n", "loop_sm_ghz", ghz.front(), ghz[ghz.size() / 2], ghz.back());
      std::fprintf(stderr, "STAMPS   %-15s %8.2f %8.2f %8.2f\n", "loop_kcycles", kcyc.front(), kcyc[kcyc.size() / 2],
                   kcyc.back());
    }
  }
#endif
};

// Stages per token tile: as many as fit ~192-200 KB of the 227 KB opt-in smem
// (stage = 16 KB W + BM x 128 B x): 256 -> 4, 192 -> 5, 128 -> 6, 64 -> 8.
Config cfg(int bm, int split, int mc, int xfit = 0, int red = 0) {
  const int stages = bm == 256 ? 4 : bm == 192 ? 5 : bm == 128 ? 6 : 8;
  Config c{"wgmma_tma", {{"bn", kBlockN}, {"bm", bm}, {"split", split}, {"mc", mc}, {"stages", stages}}};
  if (xfit) c.params.push_back({"xfit", 1});
  if (red) c.params.push_back({"red", red});
  return c;
}

// E59: the same red5 config on red5's own entry point (rk1: red and mc compiled in).
Config with_rk(Config c) {
  c.params.push_back({"rk", 1});
  return c;
}

// E58: the same config with its work taken from a work table in K-split-major order (wt1).
Config with_wt(Config c) {
  c.params.push_back({"wt", 1});
  return c;
}

// Grid = (N/128 tiles) x split CTAs, one per SM, clusters of split x mc. On the H200
// (132 SMs, 227 KB/CTA) cudaOccupancyMaxActiveClusters gives 66 / 39 / 30 / 22 / 17 / 15
// resident clusters of 2 / 3 / 4 / 5 / 6 / 8 CTAs; a grid with more clusters runs a second
// wave and loses ~2x, so each split is chosen to fit one wave for its family:
// qkv 18 tiles, o / unpooler 64, pooler 32. Measured numbers: docs/experiments.md, issue 6.
std::vector<Config> wgmma_tma_configs() {
  std::vector<Config> list = {
      // ---- measured winners (H200, judge protocol; ratio = baseline / ours; issue 6 results)
      cfg(64, 4, 1),   // qkv M=64: 72 CTAs (18 clusters of 4); 15.3-15.9 vs 17.6 us
      cfg(64, 2, 1),   // M=64: pooler (64 CTAs) 23.5-24.5 vs 27.4-27.8; unpooler (128) 22.6-23.5 vs 24.4-24.8
      cfg(128, 4, 1),  // qkv M=128: 72 CTAs; 17.5-18.1 vs 20.4-20.5 us
      cfg(128, 5, 1),  // qkv M=128: 90 CTAs (18 clusters of 5 <= 22); 18.05 vs 20.51 us
      cfg(128, 3, 1),  // pooler M=128: 96 CTAs (32 clusters of 3 <= 39); 25.6 vs 27.6 us
      cfg(192, 5, 1),  // qkv M=192: 90 CTAs; 20.6 vs 23.0 us
      cfg(192, 3, 1),  // pooler M=192: 96 CTAs; 29.3 vs 30.3 us
      cfg(192, 2, 1),  // unpooler M=192: 128 CTAs; 26.0-26.4 vs 28.7-29.0 us
      // ---- tight x box (xfit: load round_up(m, 8) rows, no zero-filled rows), wgmma2 run 1/2
      cfg(128, 3, 1, 1),  // pooler M 72..128: 1.07 / 1.07 / 1.08 / 1.11 / 1.12 / 1.03 / 1.02 at 72..128
      cfg(192, 5, 1, 1),  // qkv M 160..192: 1.05 (160) / 1.12 (176) / 1.12 (192); 0.99 at 136
      cfg(192, 3, 1, 1),  // pooler M 160..176: 1.03 / 1.07; 0.95 at 136, 1.00 at 192
      cfg(192, 2, 1, 1),  // unpooler M 176..192: 1.05 / 1.07; 0.95-0.96 at 136..160
      // ---- to screen (not timed: a plan may only name listed configs, so run 2 refused them)
      cfg(128, 5, 1, 1),  // qkv M 97..127: split5 wins at 128 and split4.xfit1 ties at 96
      cfg(64, 4, 1, 1),   // qkv M 33..63 without zero-filled x rows
      cfg(64, 2, 1, 1),   // pooler / unpooler M 33..63 without zero-filled x rows
      // ---- split-K combine through L2 (red2, E13: per-CTA fp32 slots in a workspace instead of
      // the DSMEM pull; H200 2026-12-01, b/c us, red0 twin in the same run):
      cfg(128, 5, 1, 0, 2),  // qkv M=128: 20.61/18.37 (1.116) vs red0 20.54/18.64 (1.105); rerun
                             // 20.80/18.35 (1.124) vs red0 20.67/18.72 (1.099)
      // ---- bf16 partial tiles in the DSMEM pull (red4, E20: half the combine bytes; H200, 100
      // pairs, ahead of the red0 twin above in every cell but pooler bm64 M=48, e.g. qkv M=128
      // split4 17.54 vs 18.03 us). The run-H/H2 tunes chose red4 for every wgmma_tma range:
      cfg(64, 4, 1, 1, 4),   // qkv M 33..64
      cfg(64, 2, 1, 1, 4),   // pooler / unpooler M 33..64
      cfg(128, 4, 1, 0, 4),  // qkv M 65..128
      cfg(128, 5, 1, 0, 4),  // qkv M=128
      cfg(128, 3, 1, 0, 4),  // qkv M=256 (two token tiles, 108 CTAs)
      cfg(128, 5, 1, 1, 4),  // qkv M 97..127
      cfg(128, 3, 1, 1, 4),  // pooler M 65..128
      cfg(128, 2, 1, 0, 4),  // unpooler M 65..128 (128 CTAs); pooler M=256 (two token tiles)
      cfg(192, 5, 1, 1, 4),  // qkv M 129..192
      cfg(192, 3, 1, 1, 4),  // pooler M 129..192
      cfg(192, 2, 1, 1, 4),  // unpooler M 129..192
      // M = 256 as one token tile (W read once, not once per 128-token tile); bm256's combine
      // (128 KB fp32 per CTA) is what lost it in issue 6, bf16 partials halve it (E21):
      // (H200, 100 pairs, b/c us; the red0 / fp32 bm256 configs of issue 6 were at 0.95):
      cfg(256, 5, 1, 1, 4),  // qkv M 224..256: 24.2-24.4 vs 24.9-25.4 (1.03-1.04, = the bm128.split3 plan)
      cfg(256, 3, 1, 0, 4),  // pooler M 224 / 240 / 256: 36.74/34.05 1.081, 35.10/34.21 1.023, 1.010
      cfg(256, 2, 1, 1, 4),  // unpooler M 224: 31.58/28.82 1.092; 240 / 256 1.00 / 0.98
      // ---- bf16 atomics into a y zeroed by a zero warp (red5, E24): no cluster, so the split is
      // free of cluster co-residency (qkv 18 N tiles x 7 = 126 CTAs, pooler 32 x 4 = 128,
      // unpooler / o 64 x 2 = 128); grids up to one CTA per SM (cooperative). Measured (H200,
      // call z4, 100 pairs, us, shipped-plan method in brackets): qkv 14.72-15.49 at M 17..64
      // (15.36-15.76), 16.35 / 17.06 at 96 / 128 (17.54 / 17.54), 18.66 at 192 (20.61), 19.92 at
      // 256 (24.61); pooler 21.66-22.56 at 17..64 (22.24-23.71), 23.90 / 24.90 at 96 / 128
      // (25.04 / 25.73), 26.88 at 192 (28.35), 28.29 at 256 (baseline 34.26); unpooler
      // 21.47-22.24 at 17..64 (21.58-22.61), 23.74 / 24.24 at 96 / 128 (baseline 23.94 / 24.58),
      // 26.11 at 192 (25.38), 28.86 at 256 (28.51); o loses everywhere (9.1-12.8 vs 7.2-9.1).
      cfg(64, 7, 1, 1, 5),   // qkv M 17..64
      cfg(128, 7, 1, 1, 5),  // qkv M 65..128
      cfg(192, 7, 1, 1, 5),  // qkv M 129..192
      cfg(256, 7, 1, 1, 5),  // qkv M 193..256
      cfg(64, 4, 1, 1, 5),   // pooler M 17..64
      cfg(128, 4, 1, 1, 5),  // pooler M 65..128
      cfg(192, 4, 1, 1, 5),  // pooler M 129..192
      cfg(256, 4, 1, 1, 5),  // pooler M 193..256
      cfg(64, 2, 1, 1, 5),   // unpooler M 17..64
      cfg(128, 2, 1, 1, 5),  // unpooler M 65..128
      cfg(192, 2, 1, 1, 5),  // unpooler M 129..192
      cfg(256, 2, 1, 1, 5),  // unpooler M 193..256
      // (dropped after that run: bm256.split5 red4 without xfit (=), bm256.split3.xfit1 (=),
      // bm256.split2 without xfit (<=), and every other split: 0.50-0.87)
      // Dropped after measurement (numbers in docs/experiments.md, issue 6): every bn256 config
      // (E10: 0.52-0.94x), every red1 config (E12), every other red2 config (E13: at or below
      // its red0 twin: bm128.split3 qkv M=256 1.022 vs 1.034, bm128.split3.xfit1 pooler M=96/128
      // 1.099/1.024 vs 1.114/1.037, bm192.split5.xfit1 qkv M=192 1.072 vs 1.075, bm64.*,
      // bm128.split2, bm192.split{3,2}.xfit1), bm128.split2 red0 (E11: unpooler M=128 0.98-1.00,
      // o 0.71), bm256.split5/3/2
      // (qkv parity, pooler/unpooler 0.95), bm128.split2 (unpooler M=128 loses), the xfit
      // variants bm128.split4 (qkv 0.98-1.00 at 80/96) and bm128.split2 (unpooler 0.95-0.97),
      // and every x-multicast config (mc2: qkv M=256 0.88x, pooler M=256 0.94x after the fix).
      // E22: more K splits for the bm64 token tile with bf16 partials lost to the shipped splits
      // (qkv bm64.split5.xfit1.red4, 90 CTAs: 1.04-1.05 vs split4's 1.09-1.10 at M 24..64;
      // pooler bm64.split3.xfit1.red4, 96 CTAs: 1.11-1.13 vs split2's 1.12-1.17 but M 32).
      // Session 3 (E14): token tiles of 16 / 32 (bm16.split{5,3,2,8}, bm32.split{5,3,2}) for
      // M <= 32 lost to the incumbents everywhere and to bm64 too (qkv M 8: bm16 15.23 us,
      // bm64 14.53, splitk_mma_cluster 13.38); their instantiations were removed.
      // ---- bm64.split2.red5's tiles over a grid of one CTA per SM in K-split-major order, from a
      // work table (wt1, E58: CTA c on tile c % tiles; pooler 4-5, unpooler 2-3 members per
      // tile). Same binary, 200 pairs, against bm64.split2: pooler M 8 +1.5..+2.4 %, M 16
      // +1.5..+2.7 %, M 32 -0.1..+2.0 %, M 64 -0.5 / +0.4 %; unpooler M 16..64 +0.4..+1.9 %
      // (five calls). qkv lost 2.6-4.9 %; rates measured per SM at prepare lost everywhere.
      with_wt(cfg(64, 2, 1, 1, 5)),  // pooler M 6..32, unpooler M 17..64
  };
  // ---- E59: every equal-split red5 config above again on red5's own entry point (rk1: red and
  // mc compiled in, 24-29 KB of .text against wgmma_tma_kernel's 52.7-58.1 KB); 0.8-3 % faster at
  // M 8..128, a tie at 192 / 256 (ledger E59). Every red5 range of the plan runs on rk1.
  const std::size_t listed = list.size();
  for (std::size_t i = 0; i < listed; ++i)
    if (list[i].get("red", 0) == 5 && list[i].get("wt", 0) == 0) list.push_back(with_rk(list[i]));
  // ---- E63 / E64: the K splits interleaved (ki1: split ks takes k-blocks ks, ks + split, ..) on
  // the rk1 configs of the 128..256-token tiles, alone and in K-split-major block order (ko1: CTA x
  // takes N tile x % tiles and K split x / tiles). Same binary, 200 pairs, against the rk1 config,
  // with the order as run-time values (ledger session 17): ki1 +1.1..+2.5 % at pooler bm192.split4
  // M 72 / 96 (+0.2 / -0.2 at 160 / 192), bm256.split4 M 224 / 256, qkv bm192 / bm256.split7
  // M 160..256, unpooler bm128.split2 M 80..128 and bm256.split2 M 240 / 256; it loses 1.3-1.7 % at
  // unpooler bm192.split2 and 5.5 % at qkv bm128.split4. ko1 on ki1 adds 1.6-2.3 % at qkv split7
  // M 192 / 256 and loses 4.7-10.5 % at pooler / unpooler M 128. Not listed after measurement: ki1
  // on the bm64 tiles and on wt1 (-3.4..-13 %), ki2 (pairs of k-blocks: -7.1..+0.2 %), ko1 without
  // ki1 (-0.5..+0.1 %), and E62's rotated ranges (-5.8..+0.4 %). The order is compile-time
  // (KORD; the run-time form cost 0.2-2.3 % on every kernel, session 17 call 8); measured in that
  // form: +0.4..+5.2 % at the cases plan S3 moved onto it (session 17 call 9).
  const std::size_t with_entry = list.size();
  for (std::size_t i = 0; i < with_entry; ++i)
    if (list[i].get("rk", 0) == 1 && list[i].get("bm", 0) >= 128)
      for (int ko : {0, 1}) {
        Config c = list[i];
        c.params.push_back({"ki", 1});
        if (ko) c.params.push_back({"ko", 1});
        list.push_back(c);
      }
  // ---- E65 (session 18): W read from its k-block slabs (wsl1: a copy [K/64][N][64] packed at
  // prepare, one per Projection), so the CTAs that load k-block kb at the same time read one
  // contiguous slab (ledger L7: the floor's TMA streams with their units interleaved over the grid
  // ran 5-9 % faster than with a contiguous range per CTA). With contiguous K ranges the grid
  // reads `split` slabs at a time; with ki1 (every token tile here) neighbouring slabs, one
  // window. Same binary, 200 pairs, against plan S3's config: ki1.wsl1 +6.7 / +6.6 % at pooler
  // M 8 / 32 (against wt1), +4.9 % at qkv M 8, +4.6 % at unpooler M 32 (against wt1), +2.8 % at
  // qkv M 128; -2.0..+0.4 % on the 128..256-token tiles at M 128 / 256, and wsl1 without ki1
  // -6.5..+4.5 %. Plan T runs ki1.wsl1 at qkv M 2..128, pooler M 6..64, unpooler M 17..64.
  // Listed on the plan's red5 tiles (run S3), rk1 with and without ki1, and wt1 (-3.0 % against
  // rk1.ki1.wsl1 at pooler M 16):
  for (const Config& base : {cfg(64, 4, 1, 1, 5), cfg(64, 2, 1, 1, 5), cfg(128, 4, 1, 1, 5), cfg(128, 2, 1, 1, 5),
                             cfg(192, 4, 1, 1, 5), cfg(256, 7, 1, 1, 5), cfg(256, 4, 1, 1, 5), cfg(256, 2, 1, 1, 5)})
    for (int ki : {0, 1}) {
      Config c = with_rk(base);
      if (ki) c.params.push_back({"ki", 1});
      c.params.push_back({"wsl", 1});
      list.push_back(c);
    }
  {
    Config c = with_wt(cfg(64, 2, 1, 1, 5));
    c.params.push_back({"wsl", 1});
    list.push_back(c);
  }
  // ---- E85 (session 25): the small-M slab configs (bm64.split4 / split2 .rk1.ki1) with P25b's
  // start: ls1 arms only the first fill's barriers before issuing it (no tensor-map prefetch), wsl2
  // reads W's slabs pre-swizzled by 16 KB bulk copies (the floor probe's W path, no tensor map),
  // and both. P25 / P25b: these kernels stream at their grid's rate; their 1.3-1.8 us over the
  // probe is fixed, ~0.4 us of it before the first stage lands. Measured (H200, session 25 call 3,
  // 200 pairs, same binary, against .wsl1): neither moves the first stage; wsl2 ends the main loop
  // 0.1-0.2 us earlier; wsl2.ls1 +0.3..+1.6 % at qkv M 2..64, pooler M 6..64, unpooler M 9..64
  // (qkv M 8 -0.1 %). Not in the plan: its A/B against plan Z4 at qkv M 16..64 kept Z4 (M 16
  // +0.2 %, M 32 +1.1 %).
  for (const Config& base : {cfg(64, 4, 1, 1, 5), cfg(64, 2, 1, 1, 5)})
    for (int v : {1, 2, 3}) {  // 1: wsl1.ls1, 2: wsl2, 3: wsl2.ls1
      Config c = with_rk(base);
      c.params.push_back({"ki", 1});
      c.params.push_back({"wsl", v & 2 ? 2 : 1});
      if (v & 1) c.params.push_back({"ls", 1});
      list.push_back(c);
    }
  // (E86, session 26: x multicast over clusters of two N-neighbours, mc2 on the rk1.ki1 tiles of
  // M 65..256, with a local first fill, was correct and lost 0.1-10 % everywhere but pooler M 256
  // (+1.0..+1.7 %); its light stamps showed the M 256 main loop tensor-bound. Its 18 configs and
  // KORD bit 64 were removed; the code is in 605fdcb.)
  // ---- E87 (session 26): W multicast over the two token tiles (wmc1): at M 65..128 (bm64) and
  // 129..256 (bm128) the two token tiles of one N tile and K range are a cluster of two; each loads
  // one 64-row half of the W tile and multicasts it to both (W crosses L2 -> SM once per pair,
  // cuBLAS's 2x1 clusters at M 256, P22), each loads its own x. Against the one-tile configs it
  // halves the K split at the same grid (pooler split 2, unpooler and o split 1: plain 16-byte
  // stores, no zero warp, no atomics; qkv split 3, 108 CTAs), so it halves or removes the adds
  // (P25c: 2.07 us at pooler M 256). E86 measured the pair's coupling at about 0 at M 256.
  for (int bm : {64, 128})
    for (int split : {1, 2, 3}) {
      Config c = with_rk(cfg(bm, split, 1, 1, 5));
      c.params.push_back({"ki", 1});
      c.params.push_back({"wmc", 1});
      list.push_back(c);
    }
  // Measured (H200, session 26 call 3, 200 pairs, against the plan's method): qkv M 128 +2.6 %
  // (bm64.split3), o M 96 / 128 +5.8 / +6.1 % (bm64.split1, against cuBLAS), unpooler M 128 / 256
  // +5.2 / +5.4 % (bm64 / bm128.split1), pooler M 256 +2.1 % (bm128.split2); -2.8..-35 % where
  // the second token tile is partly empty (M 129..224), -1.0 % at o M 256. E88 (call 5): qkv's
  // pairs in K-split-major order (ki1.ko1.wmc1) -0.2..-2.2 % at M 96..256; not listed (code in
  // 267b1aa).
  // ---- E89c (session 27): plan Z6 ran qkv M 17..64 on bm64.split4's wsl2.ls1 and M 2..16 / 65..83
  // on .wsl1, so a qkv Projection held two slab copies of W (37.7 MB each). With wsl2.ls1 at bm 128
  // too (qkv M 65..83's tile) every slab range of qkv reads the one pre-swizzled copy. Measured
  // (session 27 call 5, 200 pairs, against .wsl1): +0.5..+1.3 % in paired ratio at M 65..83; plan
  // Z6c runs it there.
  {
    Config c = with_rk(cfg(128, 4, 1, 1, 5));
    c.params.push_back({"ki", 1});
    c.params.push_back({"wsl", 2});
    c.params.push_back({"ls", 1});
    list.push_back(c);
  }
  // ---- E99 (session 32): the W pairs with the last token tile's x box shifted inside x (xsh1). E98
  // measured the pair bm128.split1 at unpooler M 193 / 201 / 209 / 217 / 223 at 31.05 / 29.28 / 27.26
  // / 25.97 / 25.90 us: the emptier the second tile, the slower, as its boxes reach past x (E81).
  // xsh1 loads that tile's last 128 (64) rows of x instead; the plan's pairs of partial tiles are
  // bm64.split3 (qkv M 84..127), bm64.split1 (o M 72..127, unpooler M 88..117) and bm128.split1
  // (unpooler M 224..255; and M 193..223 where the baseline runs).
  for (const auto& [bm, split] : {std::pair{64, 1}, std::pair{64, 3}, std::pair{128, 1}}) {
    Config c = with_rk(cfg(bm, split, 1, 1, 5));
    c.params.push_back({"ki", 1});
    c.params.push_back({"wmc", 1});
    c.params.push_back({"xsh", 1});
    list.push_back(c);
  }
  // (E106, session 35: the split-1 pairs' parked tile stored by 256-byte bulk copies from one warp
  // (bs1) instead of 16-byte stores: -7..-12 % at unpooler M 88..256, -20 % at o M 72..128, and no
  // better than the plain pair against cuBLAS at o M 136..256; each bulk copy costs its issuing lane
  // ~35-40 ns (P38). Removed; the code is in 8b2daf3.)
  // (E111, sessions 47-48: the bm 128 / 256 token tiles over a work table of one CTA per SM (wt1),
  // with each tile's first members / 2 handing 1-2 k-blocks to its last members / 2 (sk1 / sk2) so
  // that their adds drain while the others compute: on an H100, wt1 alone -7..-13 % against the
  // plan's tiles at qkv / pooler / unpooler M 96..256 (-15..-30 % at o), and sk1 / sk2 slower than
  // wt1 in 51 of 54 cases (by up to 0.95 us). Removed; the code is in fbbad5d.)
  return list;
}

std::string wgmma_tma_applicable(const ProjectionSpec& spec, const Config& c, int m_lo, int m_hi,
                                 const DeviceInfo& dev) {
  if (spec.weight_dtype != DType::bf16 || spec.x_dtype != DType::bf16 || spec.out_dtype != DType::bf16)
    return "wgmma_tma: needs bf16 weights, activations and output";
  if (!dev.is_hopper_sm90()) return "wgmma_tma: needs sm_90 (wgmma, TMA, clusters)";
  if (spec.k % kBlockK != 0) return "wgmma_tma: K must be a multiple of 64";
  const int bn = c.get("bn", kBlockN);
  if (bn != kBlockN) return "wgmma_tma: bn must be 128 (BN = 256 was measured slower, issue 6 E10)";
  if (spec.n % bn != 0) return "wgmma_tma: N must be a multiple of bn";
  if (spec.slice_max_m > 0 && spec.slice_rows % bn != 0) return "wgmma_tma: the row slice must be a multiple of bn";
  const int bm = c.get("bm", 0), split = c.get("split", 1), stages = c.get("stages", 4);
  if (!kernel_for(bm, bn)) return "wgmma_tma: bm must be 64, 128, 192 or 256";
  const int mc = c.get("mc", 1);
  if (split < 1 || split > 8) return "wgmma_tma: split must be 1..8 (portable cluster size)";
  if (mc != 1 && mc != 2 && mc != 4) return "wgmma_tma: mc must be 1, 2 or 4";
  if (split * mc > 8) return "wgmma_tma: cluster size split * mc exceeds 8 (portable limit)";
  if ((spec.n / bn) % mc != 0 || (spec.slice_max_m > 0 && (spec.slice_rows / bn) % mc != 0))
    return "wgmma_tma: the number of bn-row N tiles must be a multiple of mc";
  if (split > spec.k / kBlockK) return "wgmma_tma: split exceeds the number of 64-wide k-blocks";
  if (stages < 2) return "wgmma_tma: stages must be >= 2";
  const int xfit = c.get("xfit", 0);
  if (xfit != 0 && xfit != 1) return "wgmma_tma: xfit must be 0 or 1";
  const int red = c.get("red", 0);
  if (red != 0 && red != 2 && red != 4 && red != 5)
    return "wgmma_tma: red must be 0 (DSMEM pull), 2 (through L2), 4 (DSMEM pull of bf16 partials) or 5 (bf16 atomics)";
  if (red == 5) {
    const bool pairs = c.get("wmc", 0) == 1;  // wmc1 (E87): token tiles padded to pairs
    if (mc != 1) return "wgmma_tma: red5 needs mc = 1 (no cluster; E86's x multicast pair was removed)";
    // One CTA per SM (the ring takes more than half the opt-in smem), and the cooperative grid
    // must be resident at every m of the range.
    if (2 * std::size_t(smem_bytes(bm, bn, stages)) <= dev.smem_per_block_optin)
      return "wgmma_tma: red5 assumes one CTA per SM (ring > half the opt-in smem)";
    for (int m = std::max(m_lo, 1); m <= m_hi; ++m)
      if (red5_grid_ctas(spec, bm, split, m, pairs) > dev.sm_count)
        return "wgmma_tma: red5 grid at m=" + std::to_string(m) + " (" +
               std::to_string(red5_grid_ctas(spec, bm, split, m, pairs)) + " CTAs) exceeds the " +
               std::to_string(dev.sm_count) + " SMs (cooperative launch)";
  }
  const int rk = c.get("rk", 0);
  if (rk != 0 && (rk != 1 || red != 5)) return "wgmma_tma: rk must be 0, or 1 with red5 (red5's own entry point, E59)";
  const int wt = c.get("wt", 0);
  if (wt != 0 && rk != 0) return "wgmma_tma: wt1 and rk1 are two entry points; a config names one";
  const int ki = c.get("ki", 0), ko = c.get("ko", 0);
  if (ki != 0 && ki != 1) return "wgmma_tma: ki must be 0 (contiguous K ranges) or 1 (K splits interleaved, E63)";
  if (ko != 0 && ko != 1) return "wgmma_tma: ko must be 0 (tile-major blocks) or 1 (K-split-major blocks, E64)";
  const int wsl = c.get("wsl", 0), ls = c.get("ls", 0);
  if (wsl < 0 || wsl > 2)
    return "wgmma_tma: wsl must be 0 (W as given), 1 (W's k-block slabs, E65) or 2 (the slabs pre-swizzled, bulk "
           "copies, E85)";
  if (ls != 0 && ls != 1) return "wgmma_tma: ls must be 0 or 1 (the lean start, E85)";
  const int wmc = c.get("wmc", 0);
  if (wmc != 0 && wmc != 1) return "wgmma_tma: wmc must be 0 or 1 (W multicast over the two token tiles, E87)";
  if (wmc == 1) {
    if (red != 5 || rk != 1 || ki != 1 || mc != 1 || wsl != 0 || ls != 0 || bm > 128)
      return "wgmma_tma: wmc1 is instantiated for red5.rk1.ki1 with mc = 1, W itself and bm 64 or 128 (E87)";
  }
  const int xsh = c.get("xsh", 0);
  if (xsh != 0 && (xsh != 1 || wmc != 1))
    return "wgmma_tma: xsh must be 0, or 1 with wmc1 (the W pair's last token tile, E99)";
  if ((wsl == 2 || ls == 1) && (rk != 1 || ki != 1 || wsl == 0 || (bm != 64 && !(bm == 128 && wsl == 2 && ls == 1))))
    return "wgmma_tma: wsl2 and ls1 are instantiated for rk1.ki1 at bm 64 with W's slabs (E85), and wsl2.ls1 at "
           "bm 128 (E89c)";
  if (wsl != 0 && rk != 1 && wt != 1) return "wgmma_tma: wsl1 is instantiated for rk1 and wt1 only";
  if (wsl != 0 && ko != 0) return "wgmma_tma: wsl1 is not instantiated with ko1";
  if ((ki != 0 || ko != 0) && !kernel_for(bm, bn, rk == 1, kord_of(c)))
    return "wgmma_tma: ki1 and ki1.ko1 are instantiated for rk1 (red5's own entry point) at bm 128, 192, 256; ko1 needs ki1";
  if (wt != 0) {  // work table (E58)
    if (wt != 1) return "wgmma_tma: wt must be 0 (tile-major equal split) or 1 (work table, E58)";
    if (red != 5) return "wgmma_tma: wt1 needs red5 (bf16 atomics, no cluster)";
    if (!table_kernel_for(bm)) return "wgmma_tma: wt1 needs bm 64";
    if (m_hi > bm) return "wgmma_tma: wt1 covers one token tile (m <= bm)";
    const int ctas = std::min(dev.sm_count, work_table::kMaxCtas), tiles = int(spec.n / bn);
    if (tiles > ctas) return "wgmma_tma: wt1 needs at least one CTA per N tile";
    if (spec.k / kBlockK > work_table::kMaxKBlocks) return "wgmma_tma: wt1: more k-blocks than the table's 8 bits";
  }
  if (std::size_t(smem_bytes(bm, bn, stages)) > dev.smem_per_block_optin)
    return "wgmma_tma: the smem ring (" + std::to_string(smem_bytes(bm, bn, stages)) +
           " B) exceeds the opt-in limit";
  if (m_lo < 1 || m_hi < m_lo) return "wgmma_tma: bad M range";
  return "";
}

std::unique_ptr<PreparedMethod> wgmma_tma_prepare(const PrepareContext& ctx, const Config& c) {
  return std::make_unique<WgmmaTma>(ctx, c);
}

}  // namespace

// For tools: how many clusters of this config the current device holds at once (grids with
// more clusters run in waves). Throws like prepare() on a config that cannot launch.
int wgmma_tma_max_active_clusters(const Config& c) {
  const int bm = c.get("bm", 0), bn = c.get("bn", kBlockN), split = c.get("split", 1), mc = c.get("mc", 1),
            stages = c.get("stages", 4);
  KernelFn k = kernel_for(bm, bn);
  if (!k) return 0;
  const int smem = smem_bytes(bm, bn, stages);
  cuda_check(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem), "cudaFuncSetAttribute");
  cudaLaunchConfig_t lc{};
  lc.gridDim = dim3(unsigned(split * mc), 1, 1);
  lc.blockDim = dim3(kThreads, 1, 1);
  lc.dynamicSmemBytes = std::size_t(smem);
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = unsigned(split * mc);
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  lc.attrs = &attr;
  lc.numAttrs = 1;
  int clusters = 0;
  cuda_check(cudaOccupancyMaxActiveClusters(&clusters, k, &lc), "cudaOccupancyMaxActiveClusters");
  return clusters;
}

namespace {

// weight_copies = false (copy_free_method): the same config without the key that makes the copy
// (wsl: the k-block slabs; ls1, E85, exists only with them), and without ki1 as well where that
// alone does not apply to [m_lo, m_hi] (ki1 without the slabs is instantiated at the 128..256-token
// tiles only).
std::string wgmma_tma_copy_free(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi,
                                const DeviceInfo& dev) {
  if (cfg.get("wsl", 0) == 0) return cfg.name();
  auto without = [](Config c, std::string_view key) {
    std::erase_if(c.params, [&](const auto& p) { return p.first == key; });
    return c;
  };
  const Config twin = without(without(cfg, "wsl"), "ls");
  if (method_applicability(spec, twin.name(), m_lo, m_hi, dev).empty()) return twin.name();
  return without(twin, "ki").name();
}

}  // namespace

extern const KernelFamily kWgmmaTma = {
    "wgmma_tma",
    "TMA ring + wgmma (W as A, tokens as N), K split over a cluster with a DSMEM reduction, or (red5) over plain "
    "CTAs adding bf16 partials by atomics into y zeroed by an in-kernel zero warp",
    wgmma_tma_configs, wgmma_tma_applicable, wgmma_tma_prepare, wgmma_tma_copy_free};

}  // namespace projkit
