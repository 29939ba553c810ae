// red_drain: how long do the router ring's split-K adds take by themselves, and do adds issued
// while other SMs still stream their weights finish sooner? (ledger P37 / P38, session 35)
//
// The ring's stamps (P35, session 34, router M 128) show every CTA's last red.global.add.v4.f32
// issued at 7.3-7.7 us whatever its main loop's end (5.2-6.6 us): CTAs that finish early do not
// finish their adds early. Either the adds are bound by L2's atomic rate at any time (then only
// fewer adds help: E56), or adds issued during the other CTAs' stream wait behind it (then
// spreading the loop ends, e.g. skewed K ranges, would not help either). This probe separates the
// two with the ring's exact add pattern and no wgmma:
//   grid (16 K splits, 4 row tiles, 2 token slices) = 128 CTAs of 256 threads, y fp32 [m][256];
//   CTA (x, y, z) adds its [mt tokens x 64 rows] block (mt = m / 2) with red.v4 in the ring's
//   order (thread f: token f / 16, 4 rows (f % 16) * 4); the 16 K splits of a block hit the same
//   addresses. m = 128: 4 adds per thread (2 MB of adds), m = 256: 8 (4 MB).
// Variants:
//   ring16     the pattern above
//   ring8      only the even K splits add (half the adds, 8 per address)
//   disjoint   16 adds per address turned into 16 separate copies of y (no address shared)
//   store      disjoint, plain 16-byte stores instead of adds
//   stream+add the odd K splits first stream S KB of cold weights each (LSU 16-byte loads,
//              128 x S KB in all), then add; the even ones add at once, during that stream
//   stream     the odd K splits' stream alone (no adds anywhere): its own length
//   bulk       (P38) store's bytes, written to shared memory first and stored by bulk copies
//              (cp.async.bulk.global.shared::cta, one 256-byte row segment each, issued by the 32
//              lanes of warp 0, completed with cp.async.bulk.wait_group 0): is the TMA path's
//              store drain shorter than 16-byte stores' (the dense W pairs' split-1 epilogue)?
// Each CTA's thread 0 records %globaltimer at entry, after its adds are issued, and after every
// thread's adds have been fenced (__threadfence then __syncthreads: performed at L2). Each
// launch follows the bench's L2 flush and a memset of y (y's lines written, as the zero warps'
// stores leave them). Prints per variant and m the medians over launches of: the earliest
// entry to the last fenced CTA (the drain), for the even / odd CTAs the median and last fenced
// time, and per CTA (medians) entry -> adds issued and issued -> fenced, us. Exits non-zero on
// a CUDA error or a wrong sum in y.
//
//   build/projkit_dev_red_drain [--reps 30] [--stream-kb 64]   (~5 s)
// (P38, call 2 of session 35, added the bulk variant.)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernels/ptx.cuh"  // red_add_v4, globaltimer_ns
#include "lab/stats.hpp"    // median
#include "lab/timing.hpp"   // L2Flusher: the bench's write flush
#include "projkit/projkit.hpp"

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "red_drain: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

constexpr int kN = 256, kSplits = 16, kRowTiles = 4, kSlices = 2, kThreads = 256;
constexpr int kCtas = kSplits * kRowTiles * kSlices;

enum Mode : int { kRing16 = 0, kRing8 = 1, kDisjoint = 2, kStore = 3, kStreamAdd = 4, kStreamOnly = 5, kBulk = 6 };
constexpr int kModes = 7;
const char* const kModeName[] = {"ring16", "ring8", "disjoint", "store", "stream+add", "stream", "bulk"};

// Streams `words` uint4 of w (this CTA's own range) with 16-byte loads, 8 in flight per thread;
// returns their xor so the loads cannot be dropped.
__device__ unsigned stream_words(const uint4* w, int words) {
  unsigned acc = 0;
  for (int i = int(threadIdx.x); i < words; i += 8 * kThreads) {
    uint4 v[8];
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      const int j = i + u * kThreads;
      v[u] = j < words ? __ldcs(w + j) : make_uint4(0u, 0u, 0u, 0u);
    }
#pragma unroll
    for (int u = 0; u < 8; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  return acc;
}

// stamps per CTA: [0] entry, [1] adds issued, [2] all adds fenced (thread 0).
__global__ void __launch_bounds__(kThreads) add_kernel(float* y, int m, int mode, const uint4* w, int stream_words_per_cta,
                                                      unsigned long long* stamps, unsigned* sink) {
  const unsigned long long t_entry = projkit::ptx::globaltimer_ns();
  const int ks = int(blockIdx.x), rt = int(blockIdx.y), sl = int(blockIdx.z);
  const int cta = (sl * kRowTiles + rt) * kSplits + ks;
  const bool odd = ks & 1;
  if ((mode == kStreamAdd || mode == kStreamOnly) && odd) {
    const unsigned acc = stream_words(w + int64_t(cta) * stream_words_per_cta, stream_words_per_cta);
    if (acc == 0x9e3779b9u) sink[cta] = acc;  // never true for the zero-filled weights: keeps the loads
  }
  const int mt = m / kSlices, t0 = sl * mt;
  const bool adds = mode != kStreamOnly && mode != kBulk && !(mode == kRing8 && odd);
  if (mode == kBulk) {  // the CTA's [mt][64] fp32 block staged in smem, then one bulk copy per row
    extern __shared__ float4 stage[];
    for (int f = int(threadIdx.x); f < mt * 16; f += kThreads) stage[f] = make_float4(1.0f, 1.0f, 1.0f, 1.0f);
    projkit::ptx::fence_proxy_async_smem();  // the generic-proxy writes -> visible to the bulk copies
    __syncthreads();
    if (threadIdx.x < 32) {
      float* yb = y + int64_t(ks) * m * kN + int64_t(t0) * kN + rt * 64;
      const uint32_t s0 = projkit::ptx::smem_addr(stage);
      for (int t = int(threadIdx.x); t < mt; t += 32)
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 256;" ::"l"(yb + int64_t(t) * kN),
                     "r"(s0 + uint32_t(t) * 256u)
                     : "memory");
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
  }
  if (adds) {
    // disjoint / store: K split ks owns copy ks of y ([kSplits][m][kN])
    float* yb = y + (mode == kDisjoint || mode == kStore ? int64_t(ks) * m * kN : 0) + int64_t(t0) * kN + rt * 64;
    const float4 v = make_float4(1.0f, 1.0f, 1.0f, 1.0f);
    for (int f = int(threadIdx.x); f < mt * 16; f += kThreads) {
      float* p = yb + int64_t(f / 16) * kN + (f % 16) * 4;
      if (mode == kStore)
        *reinterpret_cast<float4*>(p) = v;
      else
        projkit::ptx::red_add_v4(p, v);
    }
  }
  const unsigned long long t_issued = projkit::ptx::globaltimer_ns();
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) {
    stamps[3 * cta] = t_entry;
    stamps[3 * cta + 1] = t_issued;
    stamps[3 * cta + 2] = projkit::ptx::globaltimer_ns();
  }
}

// What y must hold after one launch of `mode` (y zeroed before): adds per address.
float expected(int mode) {
  switch (mode) {
    case kRing16: return 16.0f;
    case kRing8: return 8.0f;
    case kStreamAdd: return 16.0f;
    case kDisjoint:
    case kStore:
    case kBulk: return 1.0f;
    default: return 0.0f;
  }
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 30, stream_kb = 64;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--reps")) reps = std::max(1, std::atoi(argv[i + 1]));
    if (!std::strcmp(argv[i], "--stream-kb")) stream_kb = std::max(1, std::atoi(argv[i + 1]));
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  if (prop.major < 9) {
    std::fprintf(stderr, "red_drain: needs an sm_90 device\n");
    return 1;
  }
  const projkit::DeviceInfo dev = projkit::DeviceInfo::query(0);
  const projkit::lab::L2Flusher flusher(dev, projkit::lab::FlushMode::write);
  constexpr int kMaxM = 256;
  const std::size_t y_elems = std::size_t(kSplits) * kMaxM * kN;  // room for the disjoint copies
  const int words = stream_kb * 1024 / 16;                         // uint4 per streaming CTA
  float* y = nullptr;
  uint4* w = nullptr;
  unsigned long long* stamps = nullptr;
  unsigned* sink = nullptr;
  check(cudaMalloc(&y, sizeof(float) * y_elems), "cudaMalloc y");
  check(cudaMalloc(&w, sizeof(uint4) * std::size_t(words) * kCtas), "cudaMalloc w");
  check(cudaMalloc(&stamps, sizeof(unsigned long long) * 3 * kCtas), "cudaMalloc stamps");
  check(cudaMalloc(&sink, sizeof(unsigned) * kCtas), "cudaMalloc sink");
  check(cudaMemset(w, 0, sizeof(uint4) * std::size_t(words) * kCtas), "cudaMemset w");
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  std::vector<unsigned long long> h(3 * kCtas);
  std::vector<float> hy;

  std::printf("red_drain on %s (%d SMs): the router ring's adds, grid 16 x 4 x 2 = %d CTAs x %d threads, y fp32 "
              "[m][%d]; stream = %d KB per odd K split; medians over %d launches, us from the earliest entry\n",
              prop.name, dev.sm_count, kCtas, kThreads, kN, stream_kb, reps);
  std::printf("%-11s %4s | %7s | %-21s | %-21s | %s\n", "variant", "m", "drain", "even CTAs: med / last",
              "odd CTAs: med / last", "per CTA: entry->issued / ->fenced");
  int bad = 0;
  for (int m : {128, 256}) {
    for (int mode = 0; mode < kModes; ++mode) {
      std::vector<double> drain, even_med, even_last, odd_med, odd_last, issue, fence;
      for (int r = 0; r < reps; ++r) {
        check(cudaMemsetAsync(y, 0, sizeof(float) * y_elems, s), "cudaMemsetAsync y");
        flusher.enqueue(s);
        check(cudaMemsetAsync(y, 0, sizeof(float) * std::size_t(kSplits) * m * kN, s), "cudaMemsetAsync y");
        const int smem = mode == kBulk ? m / kSlices * 256 : 0;  // the bulk variant's staged block
        add_kernel<<<dim3(kSplits, kRowTiles, kSlices), kThreads, smem, s>>>(y, m, mode, w, words, stamps, sink);
        check(cudaGetLastError(), "launch");
        check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
        check(cudaMemcpy(h.data(), stamps, sizeof(unsigned long long) * h.size(), cudaMemcpyDeviceToHost), "copy");
        unsigned long long t0 = ~0ull, tl = 0;
        for (int c = 0; c < kCtas; ++c) t0 = std::min(t0, h[3 * c]), tl = std::max(tl, h[3 * c + 2]);
        drain.push_back(1e-3 * double(tl - t0));
        std::vector<double> ev, od;
        for (int c = 0; c < kCtas; ++c) (c % kSplits % 2 ? od : ev).push_back(1e-3 * double(h[3 * c + 2] - t0));
        std::vector<double> is, fe;  // per CTA: entry -> issued, issued -> fenced
        for (int c = 0; c < kCtas; ++c)
          is.push_back(1e-3 * double(h[3 * c + 1] - h[3 * c])), fe.push_back(1e-3 * double(h[3 * c + 2] - h[3 * c + 1]));
        issue.push_back(projkit::lab::median(is));
        fence.push_back(projkit::lab::median(fe));
        even_med.push_back(projkit::lab::median(ev));
        even_last.push_back(*std::max_element(ev.begin(), ev.end()));
        odd_med.push_back(projkit::lab::median(od));
        odd_last.push_back(*std::max_element(od.begin(), od.end()));
        if (r == 0) {  // the sums: every address of the first m x 256 (or of each copy) holds expected(mode)
          const std::size_t n = (mode == kDisjoint || mode == kStore || mode == kBulk ? kSplits : 1) * std::size_t(m) * kN;
          hy.resize(n);
          check(cudaMemcpy(hy.data(), y, sizeof(float) * n, cudaMemcpyDeviceToHost), "copy y");
          for (float v : hy) bad += v != expected(mode);
        }
      }
      std::printf("%-11s %4d | %7.2f | %8.2f / %8.2f   | %8.2f / %8.2f   | %6.2f / %6.2f\n", kModeName[mode], m,
                  projkit::lab::median(drain), projkit::lab::median(even_med), projkit::lab::median(even_last),
                  projkit::lab::median(odd_med), projkit::lab::median(odd_last), projkit::lab::median(issue),
                  projkit::lab::median(fence));
    }
  }
  if (bad) std::printf("WRONG: %d values of y differ from the expected sums\n", bad);
  return bad ? 1 : 0;
}
