// router_hilo_ring device code: see router_hilo_ring.cu for the regime and the host launcher.
//
// One CTA = 2 consumer warpgroups (warps 0..7) + 1 producer warp (warp 8), 288 threads.
// The CTA owns wgn 64-row tiles of W, the K range [k0, k0 + kc) (nkb = kc / 64 k-blocks) and the
// tokens of its slice (blockIdx.z of ts slices of mt = ceil(m / ts) tokens; the wgmma N is
// TN >= mt). Stage j of the smem ring holds k-block j: [W image of row tile 0 (16 KB: hi 8 KB,
// lo 8 KB)][row tile 1 if wgn = 2][x tile: TN rows x 128 B], completion counted on full[s]:
//   - W images are pre-swizzled in prepare() (router_hilo_ring_pack below), so one plain bulk
//     copy (cp.async.bulk, 16 KB, no tensor map, L2 evict-first) per row tile and k-block lands
//     them in the wgmma K-major 128B-swizzle layout;
//   - x arrives by TMA (a tensor map encoded per call on the host) with the 128B swizzle; the box
//     is exactly the slice's mt rows (tokens past m inside the box are zero-filled by TMA; smem rows
//     mt..TN-1 are never written and only feed accumulator columns that are never stored).
// The producer (one thread) issues every stage it can at once: when the CTA's range fits the
// ring (stages == nkb) all its loads are in flight from the first instruction; otherwise it
// refills stage s after the consumers released it (empty[s]). With early = 1 (E48) thread 0
// issues that first fill right after the mbarrier init, before __syncthreads, and the producer
// only refills.
// Consumers: wgn = 2: warpgroup g owns row tile g and consumes every k-block (x shared);
//   wgn = 1: both own the one row tile, warpgroup g consumes the k-blocks j with j % 2 == g
//   (stages is even, so stage s always belongs to warpgroup s % 2).
// Per k-block: 4 k16 steps x (hi, lo) wgmma SS m64nTNk16 (A = W image, B = x tile, both smem
// descriptors), one commit group, then wait for the previous group and release its stage, so the
// tensor pipe runs k-block j while k-block j+1 lands.
// Epilogue (as router_hilo_wgmma): fp32 partials -> smem P[warpgroup][token][64 + 4] (aliasing
// the dead ring), per (token, 4 rows) the wgmma-K parts summed in fixed order, one
// red.global.add.v4.f32 into y (zeroed by the PDL predecessor; griddepcontrol.wait first).
#pragma once

#include <cuda_bf16.h>

#include <cstdint>
#include <type_traits>

#include "kernels/ptx.cuh"
#include "kernels/router_hilo_pack.cuh"  // router_hilo_split
#include "kernels/splitk_zero_warp.cuh"  // zero warp (ZW = 1)
#include "kernels/wgmma_tma.cuh"  // mbarriers, TMA, desc_k_sw128, wgmma_m64k16 (SS, N = 32..256), wgmma fence/commit/wait

namespace projkit::router_ring {

constexpr int kConsumerWGs = 2;
constexpr int kThreads = 128 * kConsumerWGs + 32;  // + one producer warp
constexpr int kRows = 64;                          // W rows per row tile = the wgmma M
constexpr int kBlockK = 64;                        // K per k-block = one 128-B swizzle row
constexpr int kImageBytes = kRows * kBlockK * 2;   // one swizzled bf16 [64][64] image: 8 KB
constexpr int kTileBytes = 2 * kImageBytes;        // hi image then lo image: 16 KB per (row tile, k-block)
constexpr int kPStride = kRows + 4;                // fp32 per token row of a partial tile (+4: no bank conflicts)

__host__ __device__ constexpr int stage_bytes(int tn, int wgn) { return wgn * kTileBytes + tn * kBlockK * 2; }
__host__ __device__ constexpr int partial_bytes(int tn) { return kConsumerWGs * tn * kPStride * 4; }
__host__ __device__ constexpr int ring_bytes(int tn, int wgn, int stages) {
  return stages * stage_bytes(tn, wgn) > partial_bytes(tn) ? stages * stage_bytes(tn, wgn) : partial_bytes(tn);
}
// [<= 1 KB alignment slack][ring, later the partial tiles][full[stages], empty[stages]]
__host__ __device__ constexpr int smem_bytes(int tn, int wgn, int stages) {
  return 1024 + ring_bytes(tn, wgn, stages) + 16 * stages;
}

// ------------------------------------------------------------------ PTX wrappers
// (the W tiles arrive by ptx::bulk_load: one instruction per pre-swizzled 16 KB tile, L2
// evict-first: router round 4, session 4: -0.3..-0.45 us at M = 128 / 256 against no hint)
// Named barrier 1 over the 256 consumer threads (the producer warp has left by then).
__device__ __forceinline__ void consumer_bar_sync() { asm volatile("bar.sync 1, 256;" ::: "memory"); }

// ------------------------------------------------------------------ prepare-time packing
// W fp32 [N][K] -> per (row tile rt, k-block kb) at byte (rt * K/64 + kb) * 16 KB: the hi image
// then the lo image, each [64 rows][128 B] with the 128B swizzle (16-B piece p of row r at piece
// p ^ (r & 7)), i.e. exactly what a TMA 128B-swizzled box would write; a CTA's k-blocks of one
// row tile are contiguous. hi/lo: router_hilo_split. One thread per (row, 8-column piece).
__global__ void router_hilo_ring_pack_kernel(const float* __restrict__ w, uint8_t* __restrict__ out, int n, int k) {
  const int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= int64_t(n) * (k / 8)) return;
  const int row = int(idx / (k / 8));
  const int c8 = int(idx % (k / 8));  // 8-column piece of the row
  const int kb = c8 / 8, p = c8 % 8, rt = row / kRows, r = row % kRows;
  uint32_t hi[4], lo[4];
  for (int e = 0; e < 4; ++e) {
    __nv_bfloat16 h[2], l[2];
    for (int b = 0; b < 2; ++b) router_hilo_split(w[int64_t(row) * k + c8 * 8 + 2 * e + b], h[b], l[b]);
    hi[e] = uint32_t(__bfloat16_as_ushort(h[0])) | (uint32_t(__bfloat16_as_ushort(h[1])) << 16);
    lo[e] = uint32_t(__bfloat16_as_ushort(l[0])) | (uint32_t(__bfloat16_as_ushort(l[1])) << 16);
  }
  uint8_t* tile = out + (int64_t(rt) * (k / kBlockK) + kb) * kTileBytes;
  const int off = r * 128 + ((p ^ (r & 7)) << 4);
  *reinterpret_cast<uint4*>(tile + off) = make_uint4(hi[0], hi[1], hi[2], hi[3]);
  *reinterpret_cast<uint4*>(tile + kImageBytes + off) = make_uint4(lo[0], lo[1], lo[2], lo[3]);
}

// ------------------------------------------------------------------ dev phase probe (P8)
// PROJKIT_WGMMA_STAMPS builds only (compiled out otherwise, so production cubins carry nothing):
// when the host sets g_ring_stamps, every CTA records globaltimer at kRingStampSlots points
// (slot i below; 7 holds %smid); router_hilo_ring.cu prints and appends them to
// $PROJKIT_WGMMA_STAMPS_CSV when the method is destroyed.
#ifdef PROJKIT_WGMMA_STAMPS
constexpr unsigned kRingStampSlots = 16;
__device__ unsigned long long* g_ring_stamps = nullptr;
#endif

// ------------------------------------------------------------------ kernel
// TN: the wgmma N (32, or 64..256 in steps of 64) >= mt. Runtime: kc (grid.x = K / kc splits), wgn,
// stages (ring depth; even when wgn = 1; stages <= nkb), ts = gridDim.z token slices. The host
// guarantees kc % 64 == 0, nkb even when wgn = 1, N % (64 wgn) == 0, 1 <= mt <= TN.
// ZW: 0 = y zeroed by the PDL predecessor (router_splitk_pdl.cuh); 1 = a tenth warp (warp 9, no
// loads of its own): the K splits of a y block (blockIdx.z, blockIdx.y) share its zeroing, each
// after its CTA's first stage landed, and wait for all of them (zero_warp_share_run, as
// wgmma_tma red5; cooperative launch; flags = zeroed[blocks], passed[blocks]). Split 0 zeroing
// the whole block at kernel start, the first version, was 0.27-0.48 us slower (ledger E43).
// WMC: 0 = each CTA loads its own W tiles; 1 (E83, config key wmc1; ts = 2 or 4, zw = 1) = pairs of
// token slices of a (K split, row tile) (z = 0 / 1 and, with ts 4 (E109), 2 / 3) are a cluster of 2
// along z and share W: CTA rank r loads image r (hi for r = 0, lo for r = 1) of every W tile and
// multicasts it into both CTAs, so L2 sends each W byte to the pair once instead of twice. A ring stage is then refilled only after the consumers
// of both CTAs released it (empty count x 2, remote arrivals, only for stages that are refilled).
// An empty slice (m < 2) still streams and multicasts its half of W (its x stage is left unloaded:
// its accumulators are never stored), adds nothing.
// LF: 0, or (E101, config key lf; WMC = 1 and early = 1) the first min(LF, stages) k-blocks of the
// first fill are loaded by each CTA for itself (both images of each W tile, no multicast) before
// it waits for its peer: the cluster barrier is split (arrive once this CTA's mbarriers exist,
// wait before the first multicast), so the first stages leave without waiting for the peer.
// LS: 0, or (E102, config key ls1; LF >= 1) a lean start for those local k-blocks: thread 0 arms
// only their full barriers, fences, and issues them (no tensor-map prefetch, the two L2 policies
// formed once), then arms the other barriers and fences again before its cluster arrive; the
// slice size is (m + 2^LS - 1) >> LS (the host passes LS = log2 ts: 1 for wmc1's two slices, 2
// for its four, E109) instead of a division by gridDim.z.
template <int TN, int ZW, int WMC = 0, int LF = 0, int LS = 0>
__global__ void __launch_bounds__(kThreads + 32 * ZW, 1)
    router_hilo_ring_kernel(const __grid_constant__ CUtensorMap tm_x,  // x [m][k] bf16, box [mt rows][64]
                            const uint8_t* __restrict__ wp,            // swizzled hi/lo tiles (pack above)
                            float* __restrict__ y,                     // [m][n] fp32: zeroed by the PDL predecessor (ZW 0) or the zero warp (ZW 1)
                            int m, int n, int k, int kc, int wgn, int stages,
                            int early,  // 1 = thread 0 issues the first ring fill right after the mbarrier
                                        // init, before __syncthreads (as wgmma_tma red5; ledger E47, E48)
                            unsigned* __restrict__ flags) {
  static_assert(TN == 32 || (TN % 64 == 0 && TN <= 256), "TN is the wgmma N: 32 or a multiple of 64 up to 256");
  static_assert(ZW == 0 || ZW == 1, "ZW: 0 (PDL zero kernel) or 1 (zero warps)");
  static_assert(WMC == 0 || (WMC == 1 && ZW == 1), "WMC: 0, or 1 (W multicast over pairs of token slices; zero warps)");
  static_assert(LF >= 0 && (LF == 0 || WMC == 1), "LF: local first k-blocks of the multicast ring only");
  static_assert(LS == 0 || ((LS == 1 || LS == 2) && LF >= 1),
                "LS: the lean start of LF's local first k-blocks, 2 or 4 token slices");
  constexpr int kAcc = TN / 2;  // fp32 accumulators per thread: [64 rows][TN tokens] / 128 threads
  using namespace wgmma_tma;

#ifdef PROJKIT_WGMMA_STAMPS
  // P8 slots: 0 thread 0 entry, 1 its first fill issued (or the mbarriers ready), 2 warpgroup 0's
  // first stage landed, 3 its main loop done, 4 partials parked, 5 the zero-warp hand-off passed,
  // 6 thread 0's adds issued, 7 %smid, 8 the producer's last issue, 9 the zero warp done,
  // 10 warpgroup 1's first stage landed; P9: 11 thread 0's mbarriers initialized, 12 its first
  // k-block issued; 13 its index math done (the first kernel-parameter reads); P35: 14 its cluster
  // wait passed (wmc1 with lf, before the multicast rest of the fill); P39: 15 its first red issued.
  // Thread 0's start-up points (0, 13, 11, 12, 14, 1) are kept in registers (mark) and stored after
  // its fill, so the cold read of g_ring_stamps (a __device__ symbol, flushed from L2 like the
  // parameters) cannot delay the fill it measures; the later points are stored as they happen.
  const unsigned long long t_entry = globaltimer_ns();
  unsigned long long t_marks[kRingStampSlots] = {};
  auto mark = [&](int i) { t_marks[i] = globaltimer_ns(); };
  unsigned long long* const st =
      g_ring_stamps == nullptr
          ? nullptr
          : g_ring_stamps + ((blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x) * kRingStampSlots;
  auto stamp = [&](int i) {
    if (st != nullptr) st[i] = globaltimer_ns();
  };
#else
  auto mark = [](int) {};
  auto stamp = [](int) {};
#endif
  const int mt = LS ? (m + (1 << LS) - 1) >> LS : (m + int(gridDim.z) - 1) / int(gridDim.z);  // LS: ts = 2^LS
  const int t0 = int(blockIdx.z) * mt;
  if (WMC == 0 && t0 >= m) return;  // an empty slice (m < ts): no loads, no atomics (WMC: loads, no atomics)
  const int m_loc = WMC ? max(0, min(mt, m - t0)) : min(mt, m - t0);
  if (threadIdx.x == 0) mark(13);

  extern __shared__ uint8_t smem_raw[];
  const uint32_t raw = ptx::smem_addr(smem_raw);
  const uint32_t base = (raw + 1023u) & ~1023u;
  const int sbytes = stage_bytes(TN, wgn);
  const uint32_t bars = base + uint32_t(ring_bytes(TN, wgn, stages));
  auto full_bar = [&](int s) { return bars + 8u * uint32_t(s); };
  auto empty_bar = [&](int s) { return bars + 8u * uint32_t(stages + s); };
  auto stage_w = [&](int s, int g) { return base + uint32_t(s * sbytes + g * kTileBytes); };
  auto stage_x = [&](int s) { return base + uint32_t(s * sbytes + wgn * kTileBytes); };

  const int nkb = kc / kBlockK;
  const int kb0 = int(blockIdx.x) * nkb;  // first global k-block of the CTA
  const int rt0 = int(blockIdx.y) * wgn;  // first row tile of the CTA
  const int kb_all = k / kBlockK;
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) & 31;

  // bytes per stage (WMC: an empty slice loads no x, only its half of W for the peer and its own)
  const uint32_t tx = uint32_t(wgn * kTileBytes + (WMC == 0 || m_loc > 0 ? mt * kBlockK * 2 : 0));
  const int n_first = early ? min(stages, nkb) : 0;                     // k-blocks issued by thread 0
  const uint32_t crank = WMC ? cluster_ctarank() : 0u;  // WMC: which W image this CTA multicasts
  // k-block j into stage s. multicast (std::bool_constant): false for LF's local k-blocks, which load
  // both images of each W tile into this CTA only, as WMC = 0 does.
  auto issue = [&](int j, int s, uint64_t pol_w, uint64_t pol_x, auto multicast) {
    mbar_arrive_expect_tx(full_bar(s), tx);
    for (int g = 0; g < wgn; ++g) {
      if constexpr (WMC == 1 && decltype(multicast)::value)  // image crank into both CTAs (the peer sends the other)
        ptx::bulk_load_multicast(stage_w(s, g) + crank * uint32_t(kImageBytes),
                                 wp + (int64_t(rt0 + g) * kb_all + kb0 + j) * kTileBytes + crank * kImageBytes,
                                 uint32_t(kImageBytes), full_bar(s), uint16_t(0x3), pol_w);
      else
        ptx::bulk_load(stage_w(s, g), wp + (int64_t(rt0 + g) * kb_all + kb0 + j) * kTileBytes, uint32_t(kTileBytes),
                       full_bar(s), pol_w);
    }
    if (WMC == 0 || m_loc > 0) tma_load_2d(stage_x(s), &tm_x, full_bar(s), (kb0 + j) * kBlockK, t0, pol_x);
  };
  const int n_local = LF == 0 ? 0 : LF < n_first ? LF : n_first;  // LF: k-blocks 0..n_local-1 of the fill stay local
  // thread 0: k-blocks j0..j1-1 of the first ring fill; the first of its calls prefetches x's tensor map
  auto fill = [&](int j0, int j1, auto multicast, bool first) {
    if (first) prefetch_tensor_map(&tm_x);
    const uint64_t pol_w = policy_evict_first(), pol_x = policy_evict_last();
    for (int j = j0; j < j1; ++j) {
      issue(j, j, pol_w, pol_x, multicast);
      if (j == 0) mark(12);
    }
  };
  auto first_fill = [&]() {  // thread 0: the first ring fill (early = 1) after the local k-blocks
    if (n_first > 0) fill(n_local, n_first, std::true_type{}, LF == 0);
    mark(1);
#ifdef PROJKIT_WGMMA_STAMPS
    if (st != nullptr) {
      st[0] = t_entry;
      st[7] = ptx::sm_id();
      for (int i : {1, 11, 12, 13, 14}) st[i] = t_marks[i];
    }
#endif
  };
  if (threadIdx.x == 0) {
    // LS (E102): the local k-blocks' full barriers first, one fence, their loads; then the rest.
    const int n_lean = LS ? n_local : 0;
    if constexpr (LS >= 1) {  // (LS = log2 ts: 1 or 2)
      for (int s = 0; s < n_lean; ++s) mbar_init(full_bar(s), 1);
      fence_mbar_init();
      mark(11);
      fill(0, n_lean, std::false_type{}, false);  // into this CTA only, no tensor-map prefetch
    }
    for (int s = 0; s < stages; ++s) {
      if (s >= n_lean) mbar_init(full_bar(s), 1);                       // the producer's arrive.expect_tx
      mbar_init(empty_bar(s), (wgn == 2 ? 8u : 4u) * (WMC ? 2u : 1u));  // one arrive per consuming warp (of both CTAs)
    }
    fence_mbar_init();  // (LS: released at cluster scope before this thread's cluster arrive)
    if constexpr (LS == 0) mark(11);
    if constexpr (WMC == 0) first_fill();
  }
  if constexpr (WMC == 1 && LF == 0) {
    cluster_sync();  // the peer's barriers exist before any multicast into it or remote arrive
    if (threadIdx.x == 0) first_fill();
  } else if constexpr (WMC == 1) {
    __syncwarp();
    cluster_arrive_relaxed();  // this CTA's barriers exist (fence_mbar_init released them at cluster scope)
    if constexpr (LS == 0)
      if (threadIdx.x == 0 && n_local > 0) fill(0, n_local, std::false_type{}, true);  // into this CTA only
    __syncwarp();
    cluster_wait();  // the peer's barriers exist before any multicast into it or remote arrive
    if (threadIdx.x == 0) mark(14);
    if (threadIdx.x == 0) first_fill();
  }
  __syncthreads();

  if constexpr (ZW == 1) {
    if (warp == 2 * 4 + 1) {  // the zero warp: output block = the slice's tokens x the CTA's 64 wgn rows
      const int blocks = int(gridDim.y * gridDim.z), b = int(blockIdx.z * gridDim.y + blockIdx.y);
      ptx::bar_sync_named(zero_warp::kFirstStageBarrier, 64);  // consumer warp 0 has seen the first stage
      // this K split's share of the block's m_loc token rows
      const int r0 = m_loc * int(blockIdx.x) / int(gridDim.x), r1 = m_loc * int(blockIdx.x + 1) / int(gridDim.x);
      zero_warp::zero_warp_share_run(y + int64_t(t0 + r0) * n, n, r1 - r0, rt0 * kRows, kRows * wgn, flags, blocks, b,
                                     gridDim.x, lane, 128 * kConsumerWGs);
      if (lane == 0) stamp(9);
      return;
    }
  }

  if (warp == 2 * 4) {
    // ---------------- producer (one thread)
    if (lane == 0) {
      prefetch_tensor_map(&tm_x);
      const uint64_t pol_x = policy_evict_last();  // x is re-read by the N / (64 wgn) row-tile CTAs
      const uint64_t pol_w = policy_evict_first();  // each W byte is read once per call
      for (int j = n_first; j < nkb; ++j) {
        const int s = j % stages;
        if (j >= stages) mbar_wait(empty_bar(s), uint32_t((j / stages - 1) & 1));  // round j/stages-1 released
        issue(j, s, pol_w, pol_x, std::true_type{});
      }
      stamp(8);
    }
    return;
  }

  // ---------------- consumers
  const int wg = warp / 4;
  const int j0 = wgn == 2 ? 0 : wg, jstep = wgn == 2 ? 1 : 2;  // this warpgroup's k-blocks
  const int gsel = wgn == 2 ? wg : 0;                           // its row tile within the stage
  float acc[kAcc];
#pragma unroll
  for (int i = 0; i < kAcc; ++i) acc[i] = 0.0f;

  int prev_s = -1;
  for (int j = j0; j < nkb; j += jstep) {
    const int s = j % stages;
    mbar_wait(full_bar(s), uint32_t((j / stages) & 1));
    if constexpr (ZW == 1)
      if (j == j0 && warp == 0) ptx::bar_arrive_named(zero_warp::kFirstStageBarrier, 64);  // the zero warp may store
    if (j == j0 && (threadIdx.x == 0 || threadIdx.x == 128)) stamp(threadIdx.x == 0 ? 2 : 10);
    const uint32_t a0 = stage_w(s, gsel), b0 = stage_x(s);
#pragma unroll
    for (int i = 0; i < kAcc; ++i) fence_reg(acc[i]);
    wgmma_fence();
#pragma unroll
    for (int q = 0; q < kBlockK / 16; ++q) {
      const uint64_t bdesc = desc_k_sw128(b0 + 32u * uint32_t(q));
      wgmma_m64k16<TN>(acc, desc_k_sw128(a0 + 32u * uint32_t(q)), bdesc);                         // hi
      wgmma_m64k16<TN>(acc, desc_k_sw128(a0 + uint32_t(kImageBytes) + 32u * uint32_t(q)), bdesc);  // lo
    }
    wgmma_commit();
    wgmma_wait<1>();  // the previous k-block's group has retired: release its stage
    if (prev_s >= 0 && lane == 0) mbar_arrive(empty_bar(prev_s));
    if constexpr (WMC == 1)  // and in the peer, whose producer multicasts into ours too, if it refills it
      if (prev_s >= 0 && lane == 1 && j - jstep + stages < nkb)
        mbar_arrive_cluster(mapa_shared(empty_bar(prev_s), crank ^ 1u));
    prev_s = s;
  }
  wgmma_wait<0>();
#pragma unroll
  for (int i = 0; i < kAcc; ++i) fence_reg(acc[i]);
  if (threadIdx.x == 0) stamp(3);

  // Every consumer has retired all its wgmmas and every stage has been consumed (no load is
  // pending): the ring becomes P[wg][t][kPStride] (fp32, this warpgroup's rows fastest).
  consumer_bar_sync();
  float* P = reinterpret_cast<float*>(smem_raw + (base - raw));
  {
    const int nl = (warp & 3) * 16 + (lane >> 2), t2 = 2 * (lane & 3);
    park_acc_transposed<TN>(P + wg * TN * kPStride, acc, nl, t2, m_loc, kPStride);  // tokens past the slice: skipped
  }
  consumer_bar_sync();
  if (threadIdx.x == 0) stamp(4);

  // y[t0 + t][row0 + ...] += P (wgn = 2: warpgroup g's rows; wgn = 1: P[0] + P[1], fixed order).
  if constexpr (ZW == 1)
    zero_warp::wait_for_zero_warp(128 * kConsumerWGs);  // y block zeroed and visible
  else
    ptx::griddep_wait();  // y zeroed and visible
  if (threadIdx.x == 0) stamp(5);
  const int tid = int(threadIdx.x);
  const int f4_per_t = 16 * wgn;  // float4 per token of this CTA's 64 * wgn rows
  const int row0 = rt0 * kRows;
  float* yt = y + int64_t(t0) * n;
  for (int f = tid; f < m_loc * f4_per_t; f += 128 * kConsumerWGs) {
    const int t = f / f4_per_t, c4 = f % f4_per_t;
    const int r = c4 >> 4, col = (c4 & 15) * 4;
    float4 sum = *reinterpret_cast<const float4*>(P + (r * TN + t) * kPStride + col);
    if (wgn == 1) {
      const float4 v = *reinterpret_cast<const float4*>(P + (TN + t) * kPStride + col);
      sum.x += v.x; sum.y += v.y; sum.z += v.z; sum.w += v.w;
    }
    ptx::red_add_v4(yt + int64_t(t) * n + row0 + r * kRows + col, sum);
    if (f == tid && threadIdx.x == 0) stamp(15);  // P39: thread 0's first red issued
  }
  if (threadIdx.x == 0) stamp(6);
}

}  // namespace projkit::router_ring
