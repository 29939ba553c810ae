// router_hilo_ring: the fp32 router (W fp32 [N, K], x bf16, y fp32) for M = 33..256 on Hopper
// wgmma, with loads, tensor work and (partly) the epilogue overlapped.
// Regime: router_hilo_wgmma (W global -> registers, x by cp.async) runs load -> wgmma ->
//   epilogue in sequence inside each CTA: its wgmma stage costs ~3.3 µs for ~2.2 µs of tensor
//   work at M = 256 and starts only after half of the x slice has landed (docs/experiments.md,
//   "router_hilo_wgmma round 2"). Here every 64-K block of the CTA's range has its own mbarrier,
//   so the tensor pipe works on k-block j while j+1.. are still arriving; the call becomes the
//   W/x stream + one k-block of wgmma + the split-K epilogue.
// Mechanism: W = hi + lo (bf16 each, router_hilo_split: lossless, Inf-safe), packed once in
//   prepare() as 128B-swizzled [64 rows][64 K] smem images (hi 8 KB + lo 8 KB per (row tile,
//   k-block), a CTA's k-blocks contiguous), so one producer thread lands each with a single
//   cp.async.bulk (no tensor map); x [m][K] by TMA (128B swizzle, tensor map encoded on the host
//   in every run(): pure host work, capturable), box = the token slice. Ring of `stages` k-blocks
//   (all of the CTA's k-blocks when they fit the opt-in smem: every load in flight from the
//   start). Consumers: 2 warpgroups, wgmma SS m64nTNk16 (A = W image, B = x tile), fp32
//   accumulators. Split-K: red.global.add.v4.f32 into y zeroed by a PDL predecessor
//   (kernels/router_splitk_pdl.cuh), as the other router kernels, or (zw1) by a tenth "zero warp"
//   per CTA inside the kernel, the K splits of a y block each zeroing a share after their first
//   stage landed (kernels/splitk_zero_warp.cuh, zero_warp_share_run; ledger E-zw: equal to zw0 at
//   M 48..128 and 0.3-0.4 us faster at 192/256 with split 0 zeroing the whole block; E43: the
//   shared zeroing 0.27-0.48 us faster again). Config key early1 (E48): thread 0 issues the
//   first ring fill right after the mbarrier init instead of the producer after __syncthreads
//   (wgmma_tma red5's E47); run N's tune picks it at M 106..256 (a tie below).
//   Device code: router_hilo_ring.cuh.
//   wmc1 (E83): the two token slices of a (K split, row tile) are a cluster of 2 and multicast
//   one W image each into both (W crosses L2 -> SM once, not twice); cooperative launch with
//   cluster dims (1, 1, 2). 0.26-0.67 µs faster at every measured M of 65..256 in E83b (ledger;
//   E83: -0.02..+0.5 µs, a tie at M 224). lf1 / lf2 (E101): the first 1 / 2 k-blocks of the
//   fill loaded by each CTA for itself before the split cluster barrier's wait, so they do not
//   wait for the peer. ls1 (E102, with lf1): a lean start for that local k-block (its barrier armed,
//   fenced and its loads issued before the other barriers are armed).
//   Measured (docs/experiments.md, "router round 3"): 0.1-0.75 µs under
//   router_hilo_wgmma.split16.wgn1.ts2 at M = 96..256 (machine dependent), slower at M <= 64. What
//   still limits it: the W-only stream of this kernel takes 6.7-7.3 µs (any copy path: bulk,
//   tensor TMA, consumer cp.async; any ring depth) against ~4.7 µs for the register stream of
//   router_hilo_wgmma, and x adds ~1.3 µs at M = 128.
// Constraints: fp32 W / y, bf16 x; sm_90a; N % (64 wgn) == 0; K % 64 == 0; (K / split) % 64 == 0
//   (and an even number of k-blocks for wgn = 1); x 16-byte aligned (TMA), y 16-byte aligned
//   (red.v4); m in 1..256 (planned for ~96..256; correct from 1); ts in 1..4; token tiles 32
//   (wgmma m64n32k16, slices of <= 32 tokens) and 64..256; wmc1: ts = 2 or 4 and zw = 1, and the
//   grid's clusters of 2 co-resident (checked at prepare); wmc1 with ts = 4 (E109): lf1.ls1.
#include "kernels/router_hilo_ring.cuh"


#include <algorithm>
#include <cstdint>
#include <memory>
#ifdef PROJKIT_WGMMA_STAMPS
#include <string>
#include <vector>

#include "kernels/dev_stamps.hpp"
#endif

#include "core/method.hpp"
#include "kernels/tensor_map.hpp"
#include "kernels/router_splitk_pdl.cuh"

namespace projkit {
namespace {

using namespace router_ring;

constexpr int kMaxTokens = 256;  // largest wgmma N

using tensor_map::EncodeTiledFn;
static_assert(kBlockK == 64, "tensor_map::encode_2d_bf16_sw128 boxes are 64 bf16 (128 B) wide");

using KernelFn = void (*)(CUtensorMap, const uint8_t*, float*, int, int, int, int, int, int, int, unsigned*);

// Tokens per CTA (the wgmma N) for a slice of mt tokens: the smallest instantiated tile >= mt.
int tile_tokens(int mt) { return mt <= 32 ? 32 : mt <= 64 ? 64 : mt <= 128 ? 128 : mt <= 192 ? 192 : 256; }
int tile_index(int tn) { return tn == 32 ? 0 : tn / 64; }  // stages_[] slot

template <int ZW, int WMC = 0, int LF = 0, int LS = 0>
KernelFn kernel_for_zw(int tn) {
  switch (tn) {
    case 32: return router_hilo_ring_kernel<32, ZW, WMC, LF, LS>;
    case 64: return router_hilo_ring_kernel<64, ZW, WMC, LF, LS>;
    case 128: return router_hilo_ring_kernel<128, ZW, WMC, LF, LS>;
    case 192: return router_hilo_ring_kernel<192, ZW, WMC, LF, LS>;
    case 256: return router_hilo_ring_kernel<256, ZW, WMC, LF, LS>;
    default: return nullptr;
  }
}
// ts: token slices (E109: wmc1.lf1.ls1 over 4 slices is the kernel with LS = 2, log2 ts)
KernelFn kernel_for(int tn, int zw, int wmc = 0, int lf = 0, int ls = 0, int ts = 2) {
  if (ls == 1) {  // E102: lf1.ls1 (the kernel's LS = log2 ts; E109: ts 4)
    if (wmc != 1 || zw != 1 || lf != 1) return nullptr;
    return ts == 2 ? kernel_for_zw<1, 1, 1, 1>(tn) : ts == 4 ? kernel_for_zw<1, 1, 1, 2>(tn) : nullptr;
  }
  if (wmc == 1 && zw == 1) switch (lf) {
      case 0: return kernel_for_zw<1, 1>(tn);
      case 1: return kernel_for_zw<1, 1, 1>(tn);
      case 2: return kernel_for_zw<1, 1, 2>(tn);
      default: return nullptr;
    }
  if (wmc == 1 || lf != 0 || ls != 0) return nullptr;
  return zw == 1 ? kernel_for_zw<1>(tn) : zw == 0 ? kernel_for_zw<0>(tn) : nullptr;
}
// E83 (wmc1): pairs of token slices of a (K split, row tile) form a cluster along z.
constexpr unsigned kWmcCluster = 2;

struct Tiling {
  int split = 0;  // K ranges (grid.x): fp32 partials per output
  int wgn = 0;    // 64-row tiles per CTA (2: warpgroups own one each and share x; 1: they halve the k-blocks)
  int ts = 1;     // token slices (grid.z)
  int zw = 0;     // 1: y zeroed inside by a zero warp (splitk_zero_warp.cuh), 0: by the PDL zero kernel
  int early = 0;  // 1 = the first ring fill issued by thread 0 right after the mbarrier init (E48)
  int wmc = 0;    // 1 = W multicast over pairs of token slices (clusters of 2 along z; E83; ts 4: E109)
  int lf = 0;     // wmc1: the first lf k-blocks of the fill loaded locally, before the peer is waited for (E101)
  int ls = 0;     // lf1: the lean start of the local k-blocks (their barriers first, then the rest; E102)
  int kc(int64_t k) const { return split > 0 ? int(k / split) : 0; }
  int nkb(int64_t k) const { return kc(k) / kBlockK; }
  int slice_tokens(int m) const { return (m + ts - 1) / ts; }
};

Tiling tiling_of(const Config& cfg) {
  return {cfg.get("split", 0), cfg.get("wgn", 0), cfg.get("ts", 1), cfg.get("zw", 0), cfg.get("early", 0),
          cfg.get("wmc", 0), cfg.get("lf", 0), cfg.get("ls", 0)};
}

// Ring depth for token tile tn: every k-block of the CTA if they fit, else the most that fit
// (even for wgn = 1, >= 4 so a warpgroup never waits on a stage only it can release); 0: none fits.
int ring_stages(const Tiling& t, int64_t k, int tn, std::size_t smem_optin) {
  const int nkb = t.nkb(k);
  int s = nkb;
  while (s > 0 && std::size_t(smem_bytes(tn, t.wgn, s)) > smem_optin) --s;
  if (s < nkb) {
    if (t.wgn == 1) s &= ~1;
    if (s < 4) s = 0;
  }
  return s;
}

// "" or the violated constraint (shared by applicable() and the constructor).
std::string tiling_error(const ProjectionSpec& spec, const Tiling& t) {
  if (t.wgn != 1 && t.wgn != 2) return "router_hilo_ring: wgn must be 1 or 2 (64-row tiles per CTA)";
  if (t.split < 1 || spec.k % t.split != 0) return "router_hilo_ring: K % split != 0";
  if (t.ts < 1 || t.ts > 4) return "router_hilo_ring: ts (token slices) must be 1..4";
  if (t.zw != 0 && t.zw != 1) return "router_hilo_ring: zw must be 0 (PDL zero kernel) or 1 (zero warps)";
  if (t.early != 0 && t.early != 1) return "router_hilo_ring: early must be 0 or 1";
  if (t.wmc != 0 && t.wmc != 1) return "router_hilo_ring: wmc must be 0 or 1";
  if (t.wmc == 1 && ((t.ts != 2 && t.ts != 4) || t.zw != 1))
    return "router_hilo_ring: wmc1 (W multicast over the token slices) needs ts = 2 or 4 and zw = 1";
  if (t.wmc == 1 && t.ts == 4 && (t.lf != 1 || t.ls != 1))
    return "router_hilo_ring: wmc1 over four token slices (E109) needs lf1 and ls1";
  if (t.lf < 0 || t.lf > 2) return "router_hilo_ring: lf must be 0, 1 or 2 (local first k-blocks, E101)";
  if (t.lf != 0 && (t.wmc != 1 || t.early != 1))
    return "router_hilo_ring: lf (local first k-blocks) needs wmc1 and early1";
  if (t.ls != 0 && (t.ls != 1 || t.lf != 1)) return "router_hilo_ring: ls must be 0, or 1 with lf1 (E102)";
  if (spec.k % kBlockK != 0 || t.kc(spec.k) % kBlockK != 0 || t.nkb(spec.k) < 1)
    return "router_hilo_ring: K and K / split must be multiples of 64";
  if (t.wgn == 1 && t.nkb(spec.k) % 2 != 0) return "router_hilo_ring: wgn = 1 needs an even number of 64-K blocks per CTA";
  if (spec.n % (kRows * t.wgn) != 0 || spec.slice_max_m > 0) return "router_hilo_ring: N % (64*wgn) != 0 or sliced output";
  if (spec.k > (int64_t(1) << 30) / spec.n) return "router_hilo_ring: N*K too large for 32-bit offsets";
  return "";
}

class RouterHiloRing final : public PreparedMethod {
 public:
  RouterHiloRing(const PrepareContext& ctx, const Config& cfg)
      : spec_(ctx.spec), t_(tiling_of(cfg)), max_m_(ctx.max_m), encode_(tensor_map::encoder()) {
    const std::string err = tiling_error(spec_, t_);
    if (!err.empty()) throw Error(StatusCode::invalid_argument, err);
    if (!encode_) throw Error(StatusCode::unsupported, "router_hilo_ring: cuTensorMapEncodeTiled entry point not available");
    if (max_m_ < 1 || max_m_ > kMaxTokens) throw Error(StatusCode::invalid_argument, "router_hilo_ring: max_m outside 1..256");
    for (int tn = 32; tn <= tile_tokens(t_.slice_tokens(max_m_)); tn = tn == 32 ? 64 : tn + 64) {
      const int s = ring_stages(t_, spec_.k, tn, ctx.dev.smem_per_block_optin);
      if (s == 0) break;
      const KernelFn fn = kernel_for(tn, t_.zw, t_.wmc, t_.lf, t_.ls, t_.ts);
      cuda_check(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes(tn, t_.wgn, s)),
                 "router_hilo_ring: cudaFuncSetAttribute(smem)");
      if (t_.zw) {  // every CTA of an output block must be resident at once (cooperative launch)
        const int64_t ctas = int64_t(t_.split) * (spec_.n / (kRows * t_.wgn)) * t_.ts;
        const std::size_t smem = std::size_t(smem_bytes(tn, t_.wgn, s));
        const std::string e =
            t_.wmc ? zero_warp::clusters_fit_one_wave(fn, threads(), smem, grid_of(int(spec_.n)), wmc_cluster())
                   : zero_warp::grid_fits_one_wave(fn, threads(), smem, ctas, ctx.dev.sm_count);
        if (!e.empty()) throw Error(StatusCode::unsupported, "router_hilo_ring: " + e);
      }
      stages_[tile_index(tn)] = s;
      max_tn_ = tn;
    }
    // The swizzled hi / lo tiles, one copy per Projection whatever the ring configs its plan runs
    // (SharedLayouts; E101's plan Z11 runs wmc1 and wmc1.lf1 side by side).
    packed_ = shared_layout(ctx, layouts_, "router_hilo_ring.tiles", [&] {
                DeviceBuffer b(std::size_t(spec_.n) * std::size_t(spec_.k) * 4);
                const int64_t threads = int64_t(spec_.n) * (spec_.k / 8);
                router_hilo_ring_pack_kernel<<<unsigned((threads + 255) / 256), 256>>>(
                    static_cast<const float*>(ctx.w), b.as<uint8_t>(), int(spec_.n), int(spec_.k));
                cuda_check(cudaGetLastError(), "router_hilo_ring_pack_kernel launch");
                cuda_check(cudaDeviceSynchronize(), "router_hilo_ring_pack_kernel");
                return b;
              }).as<const uint8_t>();
    if (t_.zw) {
      flags_ = DeviceBuffer(2 * std::size_t(spec_.n / (kRows * t_.wgn)) * std::size_t(t_.ts) * sizeof(unsigned));
      cuda_check(cudaMemset(flags_.get(), 0, flags_.bytes()), "router_hilo_ring: zero the flags");
    }
#ifdef PROJKIT_WGMMA_STAMPS
    stamps_init(cfg);
#endif
  }

  Status run(const RunArgs& a) const override {
    if (a.m < 1 || a.m > max_m_) return {StatusCode::invalid_argument, "router_hilo_ring: m outside 1..max_m"};
    if (!a.x || !a.y) return {StatusCode::invalid_argument, "router_hilo_ring: null x or y"};
    if ((reinterpret_cast<uintptr_t>(a.x) | reinterpret_cast<uintptr_t>(a.y)) % 16 != 0)
      return {StatusCode::invalid_argument, "router_hilo_ring: x and y must be 16-byte aligned"};
    if (a.n_out != spec_.n) return {StatusCode::invalid_argument, "router_hilo_ring: n_out must be N"};
    const int mt = t_.slice_tokens(a.m);
    const int tn = tile_tokens(mt);
    if (tn > max_tn_) return {StatusCode::invalid_argument, "router_hilo_ring: m too large for this ring in smem"};
    const int stages = stages_[tile_index(tn)];
    CUtensorMap x_map;
    if (!tensor_map::encode_2d_bf16_sw128(encode_, &x_map, a.x, uint64_t(a.m), uint64_t(spec_.k), uint32_t(mt)))
      return {StatusCode::invalid_argument, "router_hilo_ring: cuTensorMapEncodeTiled failed for x"};
    const dim3 grid = grid_of(int(a.n_out));
#ifdef PROJKIT_WGMMA_STAMPS
    grid_ = grid;
#endif
    const std::size_t smem = std::size_t(smem_bytes(tn, t_.wgn, stages));
    if (t_.wmc)  // E83 / E109: clusters of pairs of token slices, W multicast; zero warps as zw1
      return zero_warp::launch_cooperative_clusters("router_hilo_ring_kernel launch", wmc_cluster(), grid,
                                                    dim3(threads()), smem, a.stream, kernel_for(tn, t_.zw, t_.wmc, t_.lf, t_.ls, t_.ts), x_map,
                                                    packed_, static_cast<float*>(a.y), a.m,
                                                    int(a.n_out), int(spec_.k), t_.kc(spec_.k), t_.wgn, stages,
                                                    t_.early, flags_.as<unsigned>());
    if (t_.zw)  // one kernel: y zeroed inside by the zero warps (kernels/splitk_zero_warp.cuh)
      return zero_warp::launch_cooperative("router_hilo_ring_kernel launch", grid, dim3(threads()), smem, a.stream,
                                              kernel_for(tn, t_.zw), x_map, packed_,
                                              static_cast<float*>(a.y), a.m, int(a.n_out), int(spec_.k),
                                              t_.kc(spec_.k), t_.wgn, stages, t_.early, flags_.as<unsigned>());
    return launch_zeroed_splitk("router_hilo_ring_kernel launch", static_cast<float*>(a.y), int64_t(a.m) * a.n_out,
                                grid, dim3(threads()), smem, a.stream, kernel_for(tn, 0), x_map,
                                packed_, static_cast<float*>(a.y), a.m, int(a.n_out),
                                int(spec_.k), t_.kc(spec_.k), t_.wgn, stages, t_.early, static_cast<unsigned*>(nullptr));
  }

 private:
  ProjectionSpec spec_;
  Tiling t_;
  int max_m_;
  EncodeTiledFn encode_;
  int stages_[5] = {0, 0, 0, 0, 0};  // ring depth per token tile (32, 64, 128, 192, 256)
  int max_tn_ = 0;                // largest token tile whose ring fits (and was opted in)
  std::shared_ptr<SharedLayouts> layouts_;  // holds packed_ (shared with the Projection's other ring configs)
  const uint8_t* packed_ = nullptr;          // swizzled hi / lo tiles (router_hilo_ring_pack_kernel)
  DeviceBuffer flags_;  // zw1 only: zeroed[blocks], passed[blocks] (block = row tile x token slice), zero between calls

  int threads() const { return kThreads + 32 * t_.zw; }
  // split K ranges x N/(64 wgn) row tiles x ts token slices
  dim3 grid_of(int n_out) const { return dim3(unsigned(t_.split), unsigned(n_out / (kRows * t_.wgn)), unsigned(t_.ts)); }
  static dim3 wmc_cluster() { return dim3(1, 1, kWmcCluster); }

#ifdef PROJKIT_WGMMA_STAMPS
  // Dev phase probe (P8, ledger session 13): the last launch's per-CTA stamps (router_hilo_ring.cuh),
  // printed and appended to $PROJKIT_WGMMA_STAMPS_CSV when the method is destroyed. The device
  // pointer is a global symbol: the last ring method prepared in a process owns it.
  unsigned long long* stamps_ = nullptr;
  mutable dim3 grid_{0, 0, 0};
  std::string name_;

 public:
  void stamps_init(const Config& cfg) {
    name_ = cfg.name();
    const std::size_t bytes = 8 * kRingStampSlots * 4096;
    cuda_check(cudaMalloc(&stamps_, bytes), "ring stamps");
    cuda_check(cudaMemset(stamps_, 0, bytes), "ring stamps");
    cuda_check(cudaMemcpyToSymbol(g_ring_stamps, &stamps_, sizeof(stamps_)), "ring stamps symbol");
  }
  ~RouterHiloRing() override {
    if (!stamps_) return;
    const unsigned n = grid_.x * grid_.y * grid_.z;
    std::vector<unsigned long long> h(kRingStampSlots * 4096);
    cudaDeviceSynchronize();
    cudaMemcpy(h.data(), stamps_, h.size() * 8, cudaMemcpyDeviceToHost);
    unsigned long long* none = nullptr;
    cudaMemcpyToSymbol(g_ring_stamps, &none, sizeof(none));
    cudaFree(stamps_);
    if (n == 0 || n > 4096) return;
    unsigned long long t0 = ~0ull;
    for (unsigned c = 0; c < n; ++c)
      if (h[c * kRingStampSlots]) t0 = std::min(t0, h[c * kRingStampSlots]);
    if (t0 == ~0ull) return;
    // config, cta, K split (x), row tile (y), slice (z), smid, then slots 0..6 and 8..14
    dev_stamps::report(name_, h, kRingStampSlots, n, t0,
                       {{"t0_entry", 0}, {"fill_issued", 1}, {"wg0_first", 2}, {"wg0_loop_end", 3}, {"parked", 4},
                        {"zero_passed", 5}, {"adds_issued", 6}, {"prod_last", 8}, {"zero_done", 9}, {"wg1_first", 10},
                        {"mbar_ready", 11}, {"first_issued", 12}, {"index_done", 13}, {"cluster_passed", 14},
                        {"first_red", 15}},
                       {0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15}, [&](unsigned c) {
                         return name_ + "," + std::to_string(c) + "," + std::to_string(c % grid_.x) + "," +
                                std::to_string((c / grid_.x) % grid_.y) + "," + std::to_string(c / (grid_.x * grid_.y)) +
                                "," + std::to_string(h[c * kRingStampSlots + 7]);
                       });
  }
#endif
};

// Grid = split x N/(64 wgn) x ts CTAs of 2 consumer warpgroups + 1 producer warp.
// Predictions per config: docs/experiments.md, "router round 3".
std::vector<Config> ring_configs() {
  return {
      // 128 CTAs = 16 K splits x 4 row tiles x 2 token slices (the tiling of
      // router_hilo_wgmma.split16.wgn1.ts2): 64 rows x 512 K x ceil(M/2) tokens, the two warpgroups
      // alternate k-blocks; 16 partials per output; all 8 k-blocks in flight up to M = 128, a
      // 6-stage ring above. Measured (H200, 2026-12-01, 3 device calls, same-process pairs with
      // router_hilo_wgmma.split16.wgn1.ts2): M = 96..256 -0.1..-0.75 µs, M = 128 +0.1..-0.75 (machine
      // dependent); loses at M <= 64. Losing tilings and copy-path variants: ledger "router round 3".
      Config{"router_hilo_ring", {{"split", 16}, {"wgn", 1}, {"ts", 2}}},
      // The same tiling in one kernel (zw1): a tenth warp per CTA zeroes its share of y's block
      // after the CTA's first stage landed, and waits for the other K splits' shares, while the
      // producer streams, instead of the PDL zero kernel (~1.1 us); kernels/splitk_zero_warp.cuh.
      // Measured (ledger E-zw, with split 0 zeroing the whole block): equal at M 48..128 (the PDL
      // zero kernel already overlapped the W stream), -0.3..-0.4 us at 192 / 256; the shared
      // zeroing another -0.27..-0.48 us at M 65..256 (E43).
      Config{"router_hilo_ring", {{"split", 16}, {"wgn", 1}, {"ts", 2}, {"zw", 1}}},
      // zw1 with the first ring fill issued by thread 0 right after the mbarrier init, before
      // __syncthreads (E48, session 12; wgmma_tma red5's E47 took 0.1-0.7 us off that way). Run N's
      // A/B: +3.3 / +1.4 % in paired ratio at M 128 / 256; its tune ties it with zw1 below M ~106.
      Config{"router_hilo_ring", {{"split", 16}, {"wgn", 1}, {"ts", 2}, {"zw", 1}, {"early", 1}}},
      // E83 (session 24): that config with the two token slices of each (K split, row tile) in a
      // cluster of 2 sharing W: each CTA loads half of every W tile (its hi or lo image) and
      // multicasts it into both, so W crosses from L2 to the SMs once instead of twice (P8 / P22:
      // the ring's main loop is L2 -> SM-bound at M 128 / 256: 24-32 MB moved per call).
      // Measured (H200, 200 pairs, same binary, against the plan's zw1 / zw1.early1): +1.7..+6.0 %
      // at M 65..78, +0.8 / +2.6 / +2.2 / +3.7 / +0.1 / +6.2 % at M 106 / 128 / 160 / 192 / 224 / 256.
      Config{"router_hilo_ring", {{"split", 16}, {"wgn", 1}, {"ts", 2}, {"zw", 1}, {"early", 1}, {"wmc", 1}}},
      // E101 (session 33): wmc1 issues its whole fill only after a full cluster barrier (P26's
      // stamps at M 128: mbarriers ready 1.15 us, first k-block issued 1.57, where early1 without
      // the pair issues at once). lf1 / lf2 load k-block 0 (0 and 1) locally, both W images, before
      // the wait; the rest is multicast as before (+8 / +16 KB of L2 -> SM bytes per CTA).
      // Measured (H200, 200 pairs, same binary, against wmc1): lf1 -0.1..-0.31 us, +1.5..+4.5 % at
      // every measured M of 65..256 but 81 (a tie), plan Z11b's config at M 65..78 and 82..256; lf2
      // +0.4..+3.1 %, behind lf1 at most M (ledger E101, E101b; P33: every phase 0.13-0.27 us sooner).
      Config{"router_hilo_ring", {{"split", 16}, {"wgn", 1}, {"ts", 2}, {"zw", 1}, {"early", 1}, {"wmc", 1}, {"lf", 1}}},
      Config{"router_hilo_ring", {{"split", 16}, {"wgn", 1}, {"ts", 2}, {"zw", 1}, {"early", 1}, {"wmc", 1}, {"lf", 2}}},
      // E102 (session 34): lf1 with a lean start. P33's stamps at M 128 / 256: index math 0.91 / 0.99
      // us, mbarriers 1.14 / 1.25, first k-block issued 1.39 / 1.49; stage 0 moved with the first
      // issue in E101. ls1 arms only k-block 0's full barrier, fences and issues it (no tensor-map
      // prefetch, the policies formed once), then arms the other 15 barriers before the cluster
      // arrive, and takes the slice size without a division. Measured (H200, 200 pairs, same binary,
      // against lf1 / wmc1): +1.1..+5.3 % at 13 M of 65..256 (M 128 / 256 +2.5 / +1.1 %), +2.1..+8.8 %
      // at M 79..81 and 99..105 (ledger E102, E102c; P34: the first k-block issued 0.08 / 0.19 us
      // sooner at M 128 / 256); plan Z12b's config at router M 65..256. E103's ls2 (x's tensor map
      // prefetched at entry by the producer warp) read -2.0..+1.1 % against ls1 and was removed.
      Config{"router_hilo_ring",
             {{"split", 16}, {"wgn", 1}, {"ts", 2}, {"zw", 1}, {"early", 1}, {"wmc", 1}, {"lf", 1}, {"ls", 1}}},
      // E109 (session 41): half the partials at the end. P37: the ring's adds are a write drain,
      // ~1.9 / 2.5 us for 2 / 4 MB at M 128 / 256, ~0.5 / 0.75 us less when half the K splits add.
      // 8 K splits x 4 row tiles x 4 token slices (128 CTAs; 64 rows x 1024 K x ceil(M/4) tokens),
      // slices 0 / 1 and 2 / 3 sharing W as the pairs above: W crosses L2 -> SM twice (16 MB) where
      // lf1.ls1 crosses once; 16 k-blocks per CTA in a 10-stage (M <= 128) or 8-stage ring, a stage
      // refilled once both CTAs of the pair released it. (A cluster of the four slices sharing W
      // once, E109's first form, does not fit: 30 of the 32 clusters of 4 are co-resident on the
      // H200.) Predicted: -0..-0.4 us at M 192 / 256 (2 MB fewer adds for 8 MB more L2 -> SM: round
      // 3's split8.ts4 without multicast tied split16.ts2 at M 256 with 16 MB more), a loss at M <= 128.
      // Measured (session 42, H100 80GB HBM3, 200 pairs, same binary, against lf1.ls1 above): M 256
      // -0.53 / -0.54 us (+6.0 / +6.7 %), M 200..248 +1.4..+5.0 %, M 65..192 -2.7..+1.7 %; the H100 plan's
      // config at router M 193..256 (ledger E109). On the H200 (session 43, the same A/B) it loses at
      // every measured M: -5.2..-7.9 % at M 200..256 (M 256 8.50 -> 8.99 us), -8.9..-15.8 % at M 65..192,
      // so plan Z12b keeps split16 (ledger, session 43).
      Config{"router_hilo_ring",
             {{"split", 8}, {"wgn", 1}, {"ts", 4}, {"zw", 1}, {"early", 1}, {"wmc", 1}, {"lf", 1}, {"ls", 1}}},
      // E115 (session 52; refuted, removed; code in 85b7845): xp1, the zero warps prefetching x into L2
      // in address order at entry (each CTA 1/128 of x's lines) on the two configs above. H100, 200
      // pairs, against the plan's config: -0.1..+0.1 % at M 72..128, -1.8 / -1.9 % at 160 / 192,
      // -12.7 % at 256 (split8.ts4): x's DRAM order is not what x costs the ring.
  };
}

std::string ring_applicable(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi, const DeviceInfo& dev) {
  if (spec.weight_dtype != DType::f32 || spec.out_dtype != DType::f32 || spec.x_dtype != DType::bf16)
    return "router_hilo_ring: needs fp32 weights, fp32 output, bf16 x";
  const Tiling t = tiling_of(cfg);
  const std::string err = tiling_error(spec, t);
  if (!err.empty()) return err;
  if (m_lo < 1 || m_hi > kMaxTokens || m_hi < m_lo) return "router_hilo_ring: M range must lie in 1..256 (wgmma N <= 256)";
  if (!dev.is_hopper_sm90()) return "router_hilo_ring: needs sm_90a (wgmma, TMA, PDL, red.global.add.v4.f32)";
  if (ring_stages(t, spec.k, tile_tokens(t.slice_tokens(m_hi)), dev.smem_per_block_optin) == 0)
    return "router_hilo_ring: the k-block ring does not fit the device opt-in shared memory";
  return "";
}

std::unique_ptr<PreparedMethod> ring_prepare(const PrepareContext& ctx, const Config& cfg) {
  return std::make_unique<RouterHiloRing>(ctx, cfg);
}

}  // namespace

extern const KernelFamily kRouterHiloRing = {
    "router_hilo_ring",
    "router M ~65..256: pre-swizzled hi/lo bf16 W tiles by cp.async.bulk and x by TMA into a per-k-block mbarrier "
    "ring (one producer warp), wgmma SS as each k-block lands, split-K by red.v4 atomics into y zeroed by a PDL "
    "kernel (zw0) or an in-kernel zero warp (zw1)",
    ring_configs, ring_applicable, ring_prepare};

}  // namespace projkit
