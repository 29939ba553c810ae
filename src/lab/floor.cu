// stream_read: the floor probe's kernels.
// Regime: pure streaming read of `bytes` (no compute), as a memory-bound GEMV would.
// Mechanism: 16-byte loads, kUnroll independent loads in flight per thread, a grid of
//            (SM count x resident blocks per SM) from the device and the occupancy API,
//            grid-stride over the payload; L1 bypassed, optional L2 prefetch / evict-first.
//            More variants stream through the copy engine into an smem ring the way the
//            TMA kernels feed wgmma (tma_stream.*, ledger E34): one producer thread per CTA
//            issues 16 KB loads, a consumer warp frees each stage when it lands, no math; with
//            the units interleaved over the grid (L7) they are the fastest from ~10 MB up.
// Constraints: the buffer is 16-byte aligned; bytes is rounded up to 16.
#include "lab/floor.hpp"

#include <algorithm>
#ifdef PROJKIT_WGMMA_STAMPS
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#endif

#include "kernels/ptx.cuh"
#include "kernels/wgmma_tma.cuh"  // the mbarrier / TMA wrappers of the kernel whose W feed this mimics
#include "kernels/tensor_map.hpp"
#include "lab/inputs.hpp"  // fill_weight_bytes (FloorFill::weights)
#include "lab/stats.hpp"

namespace projkit::lab {
namespace {

enum class ReadHint : int { no_allocate = 0, prefetch256 = 1, evict_first = 2 };

constexpr int kThreads = 512;

// kUnroll: independent 16-byte loads in flight per thread per step.
// kHint: which load instruction (see ReadHint).
// kBlocked (L7's access-order probe, session 18; `projkit floor --order-probes`, never the
//   floor): CTA c reads only its own contiguous 1/G of the payload (G = gridDim.x), G separate
//   fronts through memory as the split-K kernels' CTAs each stream their own W range, instead of
//   the grid-stride sweep in which the whole grid reads one window of memory at a time.
template <int kUnroll, ReadHint kHint, bool kBlocked = false>
__global__ void __launch_bounds__(kThreads) stream_read_kernel(const uint4* __restrict__ src, int64_t count,
                                                                unsigned* __restrict__ sink, unsigned magic) {
  static_assert(kUnroll >= 1 && kUnroll <= 16, "loads in flight per thread");
  uint64_t policy = 0;
  if constexpr (kHint == ReadHint::evict_first) policy = ptx::l2_evict_first_policy();
  // this thread's elements: first, first + stride, .. while < end
  const int64_t stride = kBlocked ? int64_t(kThreads) : int64_t(gridDim.x) * kThreads;
  const int64_t first = kBlocked ? count * blockIdx.x / gridDim.x + threadIdx.x
                                 : int64_t(blockIdx.x) * kThreads + threadIdx.x;
  const int64_t end = kBlocked ? count * (blockIdx.x + 1) / gridDim.x : count;
  unsigned acc = 0;
  for (int64_t base = first; base < end; base += stride * kUnroll) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t i = base + u * stride;
      if (i < end) {
        if constexpr (kHint == ReadHint::no_allocate)
          v[u] = ptx::ld_stream(src + i);
        else if constexpr (kHint == ReadHint::prefetch256)
          v[u] = ptx::ld_stream_prefetch256(src + i);
        else
          v[u] = ptx::ld_stream_hint(src + i, policy);
      } else {
        v[u] = make_uint4(0, 0, 0, 0);
      }
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  if (acc == magic) *sink = acc;  // keeps the loads alive (never true for zeros; a rare, harmless write for weights)
}

// ---- TMA variants (E34). The payload is read in 16 KB units: either 2D tensor boxes [128
// rows][64 bf16] of a bf16 [tiles * 128][8192] view over its whole 2 MB tiles (rows 16 KB apart:
// the W box of wgmma_tma at K = 8192) and 1D bulk copies for the rest, or 1D bulk copies of 16
// contiguous KB throughout (router_hilo_ring's packed tiles). CTA c takes units [c * U / G,
// (c + 1) * U / G) in (tile, k-block) order, one N tile's K range as a split-K CTA would.
constexpr int kUnitBytes = 16384;                  // one box / bulk copy
constexpr int kViewCols = 8192;                    // bf16 per row of the 2D view
constexpr int kUnitsPerTile = kViewCols * 2 * 128 / kUnitBytes;  // 128 k-blocks per 128-row tile
constexpr int64_t kTileBytes = int64_t(kUnitBytes) * kUnitsPerTile;  // 2 MB
constexpr int kTmaThreads = 64;                    // warp 0: producer (lane 0), warp 1: consumer
constexpr int tma_smem(int stages) { return 1024 + stages * kUnitBytes + 16 * stages; }

#ifdef PROJKIT_WGMMA_STAMPS
// P25b (session 25; stamps builds only, compiled out otherwise): per-CTA globaltimer stamps of the
// TMA streams, to set beside wgmma_tma red5's (first stage landed, last main-loop end, last exit).
// Slots per CTA: 0 the consumer warp's entry, 1 its first unit landed, 2 its last unit landed,
// 3 its exit, 4 thread 0's first ring fill issued, 5 thread 0's entry, 7 %smid. Every stamp is kept
// in a register and stored at the CTA's end, after the symbol (cold after the L2 flush) is read, so
// nothing on the stream's path waits for it. Set by FloorProbe with $PROJKIT_FLOOR_STAMPS.
constexpr int kFloorStampSlots = 8;
__device__ unsigned long long* g_floor_stamps = nullptr;
#endif

// kTensor: 2D tensor boxes (true) or 1D bulk copies. kTmaStages: ring depth in 16 KB stages
// (8: 128 KB in flight per SM; 12: 192 KB, wgmma_tma's ring at bm64 / bm128); one CTA per SM.
// kInterleave (L7): CTA c takes units c, c + G, c + 2G, .. (the whole grid reads one window of
// memory at a time, as the LSU stream's grid stride does) instead of its own range.
template <bool kTensor, int kTmaStages, bool kInterleave = false>
__global__ void __launch_bounds__(kTmaThreads, 1)
    tma_stream_kernel(const __grid_constant__ CUtensorMap map, const char* __restrict__ src, int64_t box_units,
                      int64_t bytes, unsigned* __restrict__ sink, unsigned magic) {
  using namespace wgmma_tma;
  extern __shared__ uint8_t smem_raw[];
  const uint32_t base = (smem_u32(smem_raw) + 1023u) & ~1023u;
  const uint32_t bars = base + uint32_t(kTmaStages * kUnitBytes);
  auto full_bar = [&](int s) { return bars + 8u * uint32_t(s); };
  auto empty_bar = [&](int s) { return bars + 8u * uint32_t(kTmaStages + s); };
  // box units first (tensor variant only), then bulk units over the bytes after them
  const int64_t boxes = kTensor ? box_units : 0;
  const int64_t bulk0 = boxes * kUnitBytes;
  const int64_t units = boxes + (bytes - bulk0 + kUnitBytes - 1) / kUnitBytes;
  // this CTA's units: u0, u0 + du, .. while < u1
  const int64_t u0 = kInterleave ? int64_t(blockIdx.x) : units * blockIdx.x / gridDim.x;
  const int64_t u1 = kInterleave ? units : units * (blockIdx.x + 1) / gridDim.x;
  const int64_t du = kInterleave ? int64_t(gridDim.x) : 1;
#ifdef PROJKIT_WGMMA_STAMPS
  const unsigned long long t_entry = wgmma_tma::globaltimer_ns();
  unsigned long long t_fill = 0, t_first = 0, t_last = 0;
#endif
  if (threadIdx.x == 0) {
    for (int s = 0; s < kTmaStages; ++s) {
      mbar_init(full_bar(s), 1);
      mbar_init(empty_bar(s), 1);
    }
    fence_mbar_init();
  }
  __syncthreads();
  unsigned acc = 0;
  if (threadIdx.x == 0) {  // producer
    if constexpr (kTensor) prefetch_tensor_map(&map);
    const uint64_t pol = ptx::l2_evict_first_policy();
    int s = 0;
    uint32_t phase = 0;
    for (int64_t u = u0, j = 0; u < u1; u += du, ++j) {
      if (j >= kTmaStages) mbar_wait(empty_bar(s), phase ^ 1u);
      const uint32_t dst = base + uint32_t(s * kUnitBytes);
      if (u < boxes) {
        mbar_arrive_expect_tx(full_bar(s), uint32_t(kUnitBytes));
        tma_load_2d(dst, &map, full_bar(s), int(u % kUnitsPerTile) * 64, int(u / kUnitsPerTile) * 128, pol);
      } else {
        const int64_t off = bulk0 + (u - boxes) * kUnitBytes;  // the last unit may be short (16-B multiple)
        const uint32_t n = uint32_t(bytes - off < kUnitBytes ? bytes - off : kUnitBytes);
        mbar_arrive_expect_tx(full_bar(s), n);
        ptx::bulk_load(dst, src + off, n, full_bar(s), pol);
      }
#ifdef PROJKIT_WGMMA_STAMPS
      if (j == kTmaStages - 1 || u + du >= u1) t_fill = t_fill ? t_fill : wgmma_tma::globaltimer_ns();
#endif
      if (++s == kTmaStages) { s = 0; phase ^= 1u; }
    }
#ifdef PROJKIT_WGMMA_STAMPS
    if (unsigned long long* p = g_floor_stamps) {
      p[blockIdx.x * kFloorStampSlots + 4] = t_fill;
      p[blockIdx.x * kFloorStampSlots + 5] = t_entry;
    }
#endif
  } else if (threadIdx.x >= 32) {  // consumer warp
    const int lane = int(threadIdx.x) - 32;
    int s = 0;
    uint32_t phase = 0;
    for (int64_t u = u0; u < u1; u += du) {
      mbar_wait(full_bar(s), phase);
#ifdef PROJKIT_WGMMA_STAMPS
      t_last = wgmma_tma::globaltimer_ns();
      if (t_first == 0) t_first = t_last;
#endif
      if (lane == 0) {
        acc ^= ld_smem_u4(base + uint32_t(s * kUnitBytes)).x;
        mbar_arrive(empty_bar(s));
      }
      __syncwarp();
      if (++s == kTmaStages) { s = 0; phase ^= 1u; }
    }
#ifdef PROJKIT_WGMMA_STAMPS
    const unsigned long long t_exit = wgmma_tma::globaltimer_ns();
    unsigned long long* p = g_floor_stamps;
    if (lane == 0 && p != nullptr) {
      unsigned long long* c = p + blockIdx.x * kFloorStampSlots;
      c[0] = t_entry;
      c[1] = t_first;
      c[2] = t_last;
      c[3] = t_exit;
      c[7] = ptx::sm_id();
    }
#endif
  }
  if (acc == magic) *sink = acc;  // keeps the loads alive (never true for zeros; a rare, harmless write for weights)
}

using TmaStreamKernel = void (*)(CUtensorMap, const char*, int64_t, int64_t, unsigned*, unsigned);

struct Variant {
  const char* name;
  void (*kernel)(const uint4*, int64_t, unsigned*, unsigned);  // LSU stream, or null
  TmaStreamKernel tma_kernel = nullptr;                         // TMA stream, or null
  int stages = 0;                                               // TMA: ring depth (its smem)
  bool order_probe = false;  // L7: timed with --order-probes only, never the floor
  bool one_per_sm = false;   // LSU: a grid of one CTA per SM (as the TMA variants) instead of full occupancy
  int grid_ctas = 0;         // TMA: the grid (at most one CTA per SM); 0 = one CTA per SM
};

const Variant kVariants[] = {
    // 4 loads in flight per thread: enough at full occupancy.
    {"stream_read.unroll4.no_allocate", stream_read_kernel<4, ReadHint::no_allocate>},
    // 8 in flight: more bytes in flight per SM when occupancy is limited.
    {"stream_read.unroll8.no_allocate", stream_read_kernel<8, ReadHint::no_allocate>},
    // L2 256-byte prefetch: fewer, larger DRAM requests.
    {"stream_read.unroll4.prefetch256", stream_read_kernel<4, ReadHint::prefetch256>},
    // Evict-first policy: what weight streaming kernels use.
    {"stream_read.unroll8.evict_first", stream_read_kernel<8, ReadHint::evict_first>},
    // Through the copy engine into an smem ring (E34): is the TMA feed of the wgmma kernels
    // itself slower than the LSU stream? Tensor boxes as wgmma_tma's W, bulk copies as
    // router_hilo_ring's packed tiles.
    {"tma_stream.box128x64.s8.evict_first", nullptr, tma_stream_kernel<true, 8>, 8},
    {"tma_stream.bulk16k.s8.evict_first", nullptr, tma_stream_kernel<false, 8>, 8},
    {"tma_stream.box128x64.s12.evict_first", nullptr, tma_stream_kernel<true, 12>, 12},
    {"tma_stream.bulk16k.s12.evict_first", nullptr, tma_stream_kernel<false, 12>, 12},
    // The TMA streams with their units interleaved across the CTAs (the whole grid reads one
    // window of memory at a time): L7 (session 18) measured them 0-5 % faster than the best LSU
    // stream from 10 MB up, so they are floor variants since then.
    {"tma_stream.box128x64.s8.interleaved", nullptr, tma_stream_kernel<true, 8, true>, 8},
    {"tma_stream.bulk16k.s8.interleaved", nullptr, tma_stream_kernel<false, 8, true>, 8},
    // The LSU stream with one CTA per SM (L7: within -4..+7 % of the full-occupancy grid).
    {"stream_read.unroll8.evict_first.sm1", stream_read_kernel<8, ReadHint::evict_first>, nullptr, 0, false, true},
    // L7's access-order probes (`projkit floor --order-probes`, never the floor): the LSU stream
    // blocked, a contiguous range per CTA as each split-K CTA streams its own W range, with one
    // CTA per SM and at full occupancy.
    {"order.stream_read_blocked.unroll8.evict_first.sm1", stream_read_kernel<8, ReadHint::evict_first, true>, nullptr, 0, true, true},
    {"order.stream_read_blocked.unroll8.evict_first", stream_read_kernel<8, ReadHint::evict_first, true>, nullptr, 0, true, false},
    // P24's grid probes (session 24, `--order-probes` only): the interleaved TMA streams over the
    // grid of a wgmma_tma red5 slab config instead of one CTA per SM. With W's k-block slabs and
    // ki1, CTA (tile t, K split ks) of a grid of G = tiles x split CTAs loads, at its j-th k-block,
    // slab ks + split * j, tile t: the 16 KB unit (ks + split * j) * tiles + t. For fixed j the grid
    // loads G consecutive units, which is exactly the bulk stream interleaved over G CTAs. So these
    // stream the dense kernels' W bytes in their order, with no x, no tensor work and no epilogue:
    // G = 64 (pooler bm64.split2), 72 (qkv bm64.split4), 128 (unpooler bm64.split2).
    {"order.tma_stream.bulk16k.s8.interleaved.g64", nullptr, tma_stream_kernel<false, 8, true>, 8, true, false, 64},
    {"order.tma_stream.bulk16k.s8.interleaved.g72", nullptr, tma_stream_kernel<false, 8, true>, 8, true, false, 72},
    {"order.tma_stream.bulk16k.s8.interleaved.g128", nullptr, tma_stream_kernel<false, 8, true>, 8, true, false, 128},
    // P28 (session 27, `--order-probes` only): the interleaved bulk stream with 1 and 2 units in
    // flight per CTA instead of 8. With PROJKIT_FLOOR_STAMPS their first unit lands behind a grid
    // burst of 2 / 4 MB instead of 17 MB: does a first unit wait ~1-1.5 us for its own latency, or
    // for the burst queued with it (the dense kernels' stage 0 lands 1.5-1.8 us after its issue)?
    {"order.tma_stream.bulk16k.s1.interleaved", nullptr, tma_stream_kernel<false, 1, true>, 1, true, false},
    {"order.tma_stream.bulk16k.s2.interleaved", nullptr, tma_stream_kernel<false, 2, true>, 2, true, false},
};

#ifdef PROJKIT_WGMMA_STAMPS
// P25b: 8 more launches of a TMA variant, each timed as the variants are (L2 flushed first), with
// g_floor_stamps set; per launch, from the earliest entry: the median and the last CTA's first unit
// landed, the median and the last CTA's last unit landed, the last exit, the median first fill
// issued. Printed to stderr: the medians over the launches, us.
void stamp_launches(GraphTimer& timer, const char* name, std::size_t bytes, unsigned grid,
                    const std::vector<GraphExec>& graphs) {
  constexpr int kLaunches = 8;
  const std::size_t n = std::size_t(grid) * kFloorStampSlots;
  DeviceBuffer buf(n * sizeof(unsigned long long));
  unsigned long long* dp = buf.as<unsigned long long>();
  cuda_check(cudaMemcpyToSymbol(g_floor_stamps, &dp, sizeof(dp)), "floor stamps symbol");
  auto med = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  std::vector<double> col[7];
  for (int l = 0; l < kLaunches; ++l) {
    cuda_check(cudaMemset(dp, 0, buf.bytes()), "floor stamps");
    timer.time_sequence({graphs[std::size_t(l) % graphs.size()].get()});
    std::vector<unsigned long long> h(n);
    cuda_check(cudaMemcpy(h.data(), dp, buf.bytes(), cudaMemcpyDeviceToHost), "floor stamps back");
    unsigned long long t0 = ~0ull;
    for (unsigned c = 0; c < grid; ++c)
      for (int i : {0, 5})
        if (h[c * kFloorStampSlots + i]) t0 = std::min(t0, h[c * kFloorStampSlots + i]);
    std::vector<double> first, last, fill;
    double first_max = 0, last_max = 0, exit_max = 0;
    for (unsigned c = 0; c < grid; ++c) {
      const unsigned long long* e = &h[c * kFloorStampSlots];
      if (!e[1] || !e[3]) continue;
      first.push_back(1e-3 * double(e[1] - t0));
      last.push_back(1e-3 * double(e[2] - t0));
      if (e[4]) fill.push_back(1e-3 * double(e[4] - t0));
      first_max = std::max(first_max, 1e-3 * double(e[1] - t0));
      last_max = std::max(last_max, 1e-3 * double(e[2] - t0));
      exit_max = std::max(exit_max, 1e-3 * double(e[3] - t0));
    }
    if (first.empty() || t0 == ~0ull) continue;
    const double v[7] = {med(first), first_max, med(last), last_max, exit_max, med(fill), double(first.size())};
    for (int i = 0; i < 7; ++i) col[i].push_back(v[i]);
  }
  unsigned long long* none = nullptr;
  cuda_check(cudaMemcpyToSymbol(g_floor_stamps, &none, sizeof(none)), "floor stamps symbol");
  std::fprintf(stderr,
               "STAMPS floor %s bytes=%zu ctas=%.0f launches=%zu (us from the earliest entry, median over launches): "
               "first landed med %.2f max %.2f | last landed med %.2f max %.2f | last exit %.2f | fill issued med %.2f\n",
               name, bytes, med(col[6]), col[0].size(), med(col[0]), med(col[1]), med(col[2]), med(col[3]),
               med(col[4]), med(col[5]));
}
#endif

}  // namespace

FloorFill parse_floor_fill(const std::string& s) {
  if (s == "zero") return FloorFill::zero;
  if (s == "weights") return FloorFill::weights;
  throw Error(StatusCode::invalid_argument, "floor fill must be 'zero' or 'weights' (got '" + s + "')");
}

const char* floor_fill_name(FloorFill f) { return f == FloorFill::weights ? "weights" : "zero"; }

const FloorResult& FloorProbe::measure(std::size_t bytes) {
  auto it = cache_.find(bytes);
  if (it != cache_.end()) return it->second;
  const DeviceInfo& dev = timer_.device();
  const std::size_t padded = (std::max<std::size_t>(bytes, 16) + 15) / 16 * 16;
  const int copies = rotated_copies(padded, dev.l2_bytes, 8);
  DeviceBuffer buf(padded * std::size_t(copies));
  DeviceBuffer sink(sizeof(unsigned));
  if (fill_ == FloorFill::weights)
    fill_weight_bytes(buf.get(), buf.bytes(), 0xF1004000u, timer_.stream());
  else
    cuda_check(cudaMemsetAsync(buf.get(), 0, buf.bytes(), timer_.stream()), "cudaMemsetAsync (floor buffer)");
  const int64_t count = int64_t(padded / 16);

  FloorResult r;
  r.bytes = bytes;
  r.model_us = floor_model_us(bytes);
  const double overhead = timer_.overhead_us();
  const int64_t tiles = int64_t(padded) / kTileBytes;  // TMA variants: whole 2 MB tiles
  const tensor_map::EncodeTiledFn encode = dev.is_hopper_sm90() ? tensor_map::encoder() : nullptr;
  for (const Variant& v : kVariants) {
    if (v.order_probe && !order_probes_) continue;
    if (v.tma_kernel && (tiles == 0 || !encode)) continue;  // sm_90 only, and a payload of >= 2 MB
    // grid, smem and the launch of copy c (its own tensor map for the TMA variants)
    unsigned grid = unsigned(std::max(1, dev.sm_count));  // TMA: one CTA per SM (128-192 KB ring)
    if (v.grid_ctas > 0) grid = unsigned(std::min(v.grid_ctas, std::max(1, dev.sm_count)));  // P24: a GEMM's grid
    const int smem = v.tma_kernel ? tma_smem(v.stages) : 0;
    if (v.tma_kernel) {
      cuda_check(cudaFuncSetAttribute(v.tma_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem),
                 "cudaFuncSetAttribute (tma_stream)");
    } else if (!v.one_per_sm) {
      // blocks per SM x SMs (core's resident_ctas), at least one block per SM
      grid = unsigned(std::max<int64_t>(grid, resident_ctas(reinterpret_cast<const void*>(v.kernel), kThreads, 0,
                                                            dev.sm_count, "stream_read")));
    }
    std::vector<GraphExec> graphs;
    for (int c = 0; c < copies; ++c) {
      const char* src = buf.as<char>() + std::size_t(c) * padded;
      CUtensorMap map{};
      if (v.tma_kernel &&
          !tensor_map::encode_2d_bf16_sw128(encode, &map, src, uint64_t(tiles) * 128, uint64_t(kViewCols), 128))
        throw Error(StatusCode::cuda_error, "floor: cuTensorMapEncodeTiled failed (tma_stream)");
      graphs.push_back(capture_graph(
          timer_.stream(),
          [&](cudaStream_t s) {
            if (v.tma_kernel)
              v.tma_kernel<<<grid, kTmaThreads, smem, s>>>(map, src, tiles * kUnitsPerTile, int64_t(padded),
                                                           sink.as<unsigned>(), 0xDEADBEEFu);
            else
              v.kernel<<<grid, kThreads, 0, s>>>(reinterpret_cast<const uint4*>(src), count, sink.as<unsigned>(),
                                                 0xDEADBEEFu);
            return cuda_status(cudaGetLastError(), v.name);
          },
          v.name));
    }
    std::vector<cudaGraphExec_t> seq;
    for (int i = 0; i < std::max(reps_, copies); ++i) seq.push_back(graphs[std::size_t(i % copies)].get());
    timer_.time_sequence(std::vector<cudaGraphExec_t>(seq.begin(), seq.begin() + copies));  // warm-up
    std::vector<double> us = timer_.time_sequence(seq);
    for (double& u : us) u -= overhead;
    const double med = median(us);
#ifdef PROJKIT_WGMMA_STAMPS
    if (v.tma_kernel && std::getenv("PROJKIT_FLOOR_STAMPS")) stamp_launches(timer_, v.name, bytes, grid, graphs);
#endif
    r.variants.push_back({v.name, med, v.order_probe});
    if (v.order_probe) continue;  // reported, never the floor
    if (r.best.empty() || med < r.floor_us) {
      r.floor_us = med;
      r.best = v.name;
    }
  }
  return cache_.emplace(bytes, std::move(r)).first->second;
}

}  // namespace projkit::lab
