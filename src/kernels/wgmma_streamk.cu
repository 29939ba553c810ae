// wgmma_streamk: dense bf16 projections at M about 17..128 on Hopper, persistent stream-K.
// Regime: few output tiles (qkv: 18 N tiles of 128 rows) but 132 SMs: the K range must be
//   split, and wgmma_tma's cluster split cannot fill the GPU (clusters of 3..8 CTAs at 1 CTA
//   per SM fit only 102..120 SMs, see docs/experiments.md, issue 6 E2).
// Mechanism: exactly min(sm_count, units) CTAs, no clusters; each walks an equal contiguous
//   range of (output tile, k-block) units, so every SM gets the same MMA work, cut into
//   per-tile segments. CTA = wgmma_tma's producer/consumer warpgroups (TMA ring, 128B
//   swizzle, W as the wgmma A operand, tokens as N), the ring kept full across segments.
//   A partial tile's contributors publish fp32 fragments in per-CTA workspace slots owned by
//   the prepared method; after its last mainloop each contributor waits for the tile's
//   arrival count, reduces its share of the tile over the slots (CTA order: deterministic)
//   and writes bf16 y; the last one resets the counters (zero between launches: replay-safe).
//   The wait needs every CTA of the grid to become resident eventually: grid <= SM count
//   at 1 CTA per SM (the ring takes > half of the SM's shared memory).
//   Device code: wgmma_streamk.cuh.
// Constraints: bf16 W / x / y; K % 64 == 0; N (and the unpooler slice) % 128 == 0; x 16-byte
//   aligned, y 4-byte aligned; sm_90a; the ring must fit the opt-in shared memory.
//   The workspace is per prepared method: one Projection must not run on two streams at the
//   same time (concurrent launches of the same method would share the slots and counters).
#include "kernels/wgmma_streamk.cuh"

#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled

#include <algorithm>

#include "core/method.hpp"

namespace projkit {
namespace {

using namespace wgmma_streamk;

using EncodeTiledFn = PFN_cuTensorMapEncodeTiled_v12000;

// The driver's tensor-map encoder through the runtime's entry-point query (no libcuda link).
EncodeTiledFn sk_tensor_map_encoder() {
  static EncodeTiledFn fn = []() -> EncodeTiledFn {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
    if (e != cudaSuccess || q != cudaDriverEntryPointSuccess) return nullptr;
    return reinterpret_cast<EncodeTiledFn>(p);
  }();
  return fn;
}

// A 2D bf16 tensor [rows][cols] (cols contiguous) read in boxes of [box_rows][64] with the
// 128B swizzle the wgmma descriptors expect.
bool sk_encode_2d_bf16(EncodeTiledFn enc, CUtensorMap* map, const void* ptr, uint64_t rows, uint64_t cols,
                       uint32_t box_rows) {
  const cuuint64_t dims[2] = {cols, rows};
  const cuuint64_t strides[1] = {cols * 2};
  const cuuint32_t box[2] = {uint32_t(kBlockK), box_rows};
  const cuuint32_t elem_strides[2] = {1, 1};
  CUresult r = enc(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(ptr), dims, strides, box, elem_strides,
                   CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS;
}

using KernelFn = void (*)(CUtensorMap, CUtensorMap, __nv_bfloat16*, float*, int*, int, int, int, int, int, int, int);

// One instantiation per token tile (the wgmma N).
KernelFn sk_kernel_for(int bm) {
  switch (bm) {
    case 32: return wgmma_streamk_kernel<32>;
    case 64: return wgmma_streamk_kernel<64>;
    case 128: return wgmma_streamk_kernel<128>;
    default: return nullptr;
  }
}

class WgmmaStreamK final : public PreparedMethod {
 public:
  WgmmaStreamK(const PrepareContext& ctx, const Config& cfg)
      : spec_(ctx.spec),
        bm_(cfg.get("bm", 0)),
        stages_(cfg.get("stages", 4)),
        sms_(ctx.dev.sm_count),
        encode_(sk_tensor_map_encoder()),
        kernel_(sk_kernel_for(bm_)) {
    if (!encode_) throw Error(StatusCode::unsupported, "wgmma_streamk: cuTensorMapEncodeTiled entry point not available");
    if (!kernel_) throw Error(StatusCode::unsupported, "wgmma_streamk: bm must be 32, 64 or 128");
    if (sms_ < 1) throw Error(StatusCode::unsupported, "wgmma_streamk: device reports no SMs");
    if (!sk_encode_2d_bf16(encode_, &w_map_, ctx.w, uint64_t(spec_.n), uint64_t(spec_.k), uint32_t(kBlockN)))
      throw Error(StatusCode::invalid_argument, "wgmma_streamk: cuTensorMapEncodeTiled failed for W (alignment?)");
    smem_ = sk_smem_bytes(bm_, stages_);
    cuda_check(cudaFuncSetAttribute(kernel_, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_),
               "wgmma_streamk: cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
    // Workspace: 2 fp32 tile slots per CTA (a CTA's first and last segment may be partial
    // tiles), no initial state; arrival + done counters per tile of the largest launch (max_m),
    // zero on entry and exit of every launch.
    max_tiles_ = int64_t(spec_.n / kBlockN) * ((std::max(ctx.max_m, 1) + bm_ - 1) / bm_);
    ws_ = DeviceBuffer(std::size_t(2) * std::size_t(sms_) * sk_tile_floats(bm_) * sizeof(float));
    counters_ = DeviceBuffer(std::size_t(2 * max_tiles_) * sizeof(int));
    cuda_check(cudaMemset(counters_.get(), 0, counters_.bytes()), "wgmma_streamk: zero counters");
    cuda_check(cudaDeviceSynchronize(), "wgmma_streamk: prepare sync");
  }

  Status run(const RunArgs& a) const override {
    if (a.m < 1) return {StatusCode::invalid_argument, "wgmma_streamk: m must be >= 1"};
    if (!a.x || !a.y) return {StatusCode::invalid_argument, "wgmma_streamk: null x or y"};
    if ((reinterpret_cast<uintptr_t>(a.x) & 15) != 0)
      return {StatusCode::invalid_argument, "wgmma_streamk: x must be 16-byte aligned (TMA)"};
    if ((reinterpret_cast<uintptr_t>(a.y) & 3) != 0)
      return {StatusCode::invalid_argument, "wgmma_streamk: y must be 4-byte aligned (bf16x2 stores)"};
    if (a.n_out < 1 || a.n_out > spec_.n || a.n_out % kBlockN != 0)
      return {StatusCode::invalid_argument, "wgmma_streamk: n_out must be a multiple of 128 and <= N"};
    const int n_tiles = int(a.n_out / kBlockN);
    const int m_tiles = (a.m + bm_ - 1) / bm_;
    if (int64_t(n_tiles) * m_tiles > max_tiles_)
      return {StatusCode::invalid_argument, "wgmma_streamk: m exceeds the max_m the workspace was prepared for"};
    // One token tile: load only round_up(m, 8) x rows (no zero-filled rows; docs E4).
    const int x_rows = m_tiles == 1 ? std::min(bm_, (a.m + 7) / 8 * 8) : bm_;
    CUtensorMap x_map;
    if (!sk_encode_2d_bf16(encode_, &x_map, a.x, uint64_t(a.m), uint64_t(spec_.k), uint32_t(x_rows)))
      return {StatusCode::invalid_argument, "wgmma_streamk: cuTensorMapEncodeTiled failed for x"};
    const int kbt = int(spec_.k / kBlockK);
    const int64_t units = int64_t(n_tiles) * m_tiles * kbt;
    const unsigned grid = unsigned(std::min<int64_t>(sms_, units));
    kernel_<<<grid, kStreamThreads, std::size_t(smem_), a.stream>>>(
        w_map_, x_map, static_cast<__nv_bfloat16*>(a.y), ws_.as<float>(), counters_.as<int>(), a.m, int(a.n_out), kbt,
        n_tiles, m_tiles, stages_, x_rows);
    return cuda_status(cudaGetLastError(), "wgmma_streamk_kernel launch");
  }

 private:
  ProjectionSpec spec_;
  int bm_, stages_, sms_;
  int smem_ = 0;
  int64_t max_tiles_ = 0;
  EncodeTiledFn encode_;
  KernelFn kernel_;
  CUtensorMap w_map_{};
  DeviceBuffer ws_, counters_;
};

// Deepest ring that fits the 227 KB opt-in smem (stage = 16 KB W + BM x 128 B x).
Config sk_cfg(int bm) {
  const int stages = bm == 128 ? 7 : bm == 64 ? 9 : 11;
  return Config{"wgmma_streamk", {{"bn", kBlockN}, {"bm", bm}, {"stages", stages}}};
}

// Screening status (H200, docs/experiments.md issue 6 E7/E8): never faster than the baseline
// yet. Run 1 (red.v4 combine): bm32 0.86-1.01x, bm64 0.84-1.02x, bm128 0.72-0.96x, bm256
// 0.63-0.89x (dropped: x re-read + 128 KB partials per contributor make it L2-bound); run 2
// (slot fixup) lost more because the fixup serialized its L2 loads, fixed since, not re-timed.
std::vector<Config> wgmma_streamk_configs() {
  return {
      sk_cfg(32),   // M 17..32: 32-token tile (wgmma n32), 4 KB x per stage; 16 KB partials
      sk_cfg(64),   // M 33..64: 64-token tile; 32 KB partials
      sk_cfg(128),  // M 65..128: one token tile, x box fitted to m; 64 KB partials
  };
}

std::string wgmma_streamk_applicable(const ProjectionSpec& spec, const Config& c, int m_lo, int m_hi,
                                     const DeviceInfo& dev) {
  if (spec.weight_dtype != DType::bf16 || spec.x_dtype != DType::bf16 || spec.out_dtype != DType::bf16)
    return "wgmma_streamk: needs bf16 weights, activations and output";
  if (!dev.is_hopper_sm90()) return "wgmma_streamk: needs sm_90 (wgmma, TMA)";
  if (spec.k % kBlockK != 0) return "wgmma_streamk: K must be a multiple of 64";
  if (spec.n % kBlockN != 0) return "wgmma_streamk: N must be a multiple of 128";
  if (spec.slice_max_m > 0 && spec.slice_rows % kBlockN != 0)
    return "wgmma_streamk: the row slice must be a multiple of 128";
  if (c.get("bn", kBlockN) != kBlockN) return "wgmma_streamk: bn must be 128";
  const int bm = c.get("bm", 0), stages = c.get("stages", 4);
  if (!sk_kernel_for(bm)) return "wgmma_streamk: bm must be 32, 64 or 128";
  if (stages < 2) return "wgmma_streamk: stages must be >= 2";
  if (std::size_t(sk_smem_bytes(bm, stages)) > dev.smem_per_block_optin)
    return "wgmma_streamk: the smem ring (" + std::to_string(sk_smem_bytes(bm, stages)) + " B) exceeds the opt-in limit";
  if (m_lo < 1 || m_hi < m_lo) return "wgmma_streamk: bad M range";
  if (dev.sm_count < 1) return "wgmma_streamk: device reports no SMs";
  return "";
}

std::unique_ptr<PreparedMethod> wgmma_streamk_prepare(const PrepareContext& ctx, const Config& c) {
  return std::make_unique<WgmmaStreamK>(ctx, c);
}

}  // namespace

extern const KernelFamily kWgmmaStreamK = {
    "wgmma_streamk",
    "persistent stream-K: sm_count CTAs on equal (tile, k-block) ranges, TMA ring + wgmma, "
    "fp32 slot fixup split over each tile's contributors",
    wgmma_streamk_configs, wgmma_streamk_applicable, wgmma_streamk_prepare};

}  // namespace projkit
