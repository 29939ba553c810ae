// code_fetch: what does a kernel pay to fetch its own instructions after the judge's L2 flush?
// (ledger P32, session 32)
//
// Session 16 asked (ledger, "What session 16 leaves" 2) whether instruction fetch is part of every
// kernel's start: the judge's flush writes 2x L2 before every replay, which evicts the kernel's code
// from L2 with its data, so each SM's first warps would fetch their instructions from DRAM, behind
// the flush's dirty lines. P7 / P16 / P28 saw 0.6-1.6 us of start-up that the data's own latency
// does not explain.
// Kernels (one warp per SM, grid = the device's SM count; thread 0 records %globaltimer at entry
// and at the end): `straight<S>` runs S steps of 4 independent IMAD chains, fully unrolled
// (mad.lo.u32 with run-time operands, which ptxas cannot fold: S x 64 B of code); `loop4<S>` runs
// the same S steps as 4 passes over an unrolled S/4-step body (the same instructions executed, a
// quarter of the code).
// Conditions: warm (the kernel right after itself: its code in L2 and in the SMs' caches) and
// cold (right after the lab's write flush, lab::L2Flusher, as `projkit bench` does).
// Prints per kernel and condition: code bytes, the median over SMs and launches of (end - entry),
// its 90th percentile, and the median event time of the launch; then cold minus warm. Exits
// non-zero on a CUDA error or a wrong checksum.
//
//   build/projkit_dev_code_fetch [--reps 40]   (~5 s)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernels/ptx.cuh"  // globaltimer_ns
#include "lab/timing.hpp"   // L2Flusher: the bench's write flush
#include "projkit/projkit.hpp"

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "code_fetch: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

// One step: each of the 4 chains c = c * a + b. Run-time a and b, so no step folds into another.
__device__ __forceinline__ void step4(unsigned& c0, unsigned& c1, unsigned& c2, unsigned& c3, unsigned a, unsigned b) {
  asm volatile(
      "mad.lo.u32 %0, %0, %4, %5;\n\t"
      "mad.lo.u32 %1, %1, %4, %5;\n\t"
      "mad.lo.u32 %2, %2, %4, %5;\n\t"
      "mad.lo.u32 %3, %3, %4, %5;"
      : "+r"(c0), "+r"(c1), "+r"(c2), "+r"(c3)
      : "r"(a), "r"(b));
}

// STEPS: unrolled steps in the body (the code size); passes: run-time repeats of the body.
template <int STEPS>
__global__ void __launch_bounds__(32) chain_kernel(unsigned a, unsigned b, int passes, unsigned long long* stamps,
                                                   unsigned* out) {
  const unsigned long long t0 = projkit::ptx::globaltimer_ns();
  unsigned c0 = threadIdx.x, c1 = threadIdx.x + 1, c2 = threadIdx.x + 2, c3 = threadIdx.x + 3;
#pragma unroll 1
  for (int p = 0; p < passes; ++p) {
#pragma unroll
    for (int i = 0; i < STEPS; ++i) step4(c0, c1, c2, c3, a, b);
  }
  const unsigned sum = c0 ^ c1 ^ c2 ^ c3;
  const unsigned long long t1 = projkit::ptx::globaltimer_ns();
  if (threadIdx.x == 0) {
    stamps[2 * blockIdx.x] = t0;
    stamps[2 * blockIdx.x + 1] = t1;
    out[blockIdx.x] = sum;
  }
}

// The checksum thread 0 computes: the same chains on the host.
unsigned host_sum(unsigned a, unsigned b, long steps) {
  unsigned c[4] = {0, 1, 2, 3};
  for (long i = 0; i < steps; ++i)
    for (unsigned& x : c) x = x * a + b;
  return c[0] ^ c[1] ^ c[2] ^ c[3];
}

struct Variant {
  const char* name;
  void (*kernel)(unsigned, unsigned, int, unsigned long long*, unsigned*);
  int body_steps;  // unrolled steps (code: 64 B each)
  int passes;
};

double pct(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[std::min(v.size() - 1, std::size_t(q * double(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 40;
  for (int i = 1; i + 1 < argc; i += 2)
    if (!std::strcmp(argv[i], "--reps")) reps = std::max(1, std::atoi(argv[i + 1]));
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  if (prop.major < 9) {
    std::fprintf(stderr, "code_fetch: needs an sm_90 device\n");
    return 1;
  }
  const projkit::DeviceInfo dev = projkit::DeviceInfo::query(0);
  const projkit::lab::L2Flusher flusher(dev, projkit::lab::FlushMode::write);
  const int grid = dev.sm_count;
  const unsigned a = 2654435761u, b = 97u;  // passed as kernel parameters

  const Variant variants[] = {
      {"straight<0>", chain_kernel<0>, 0, 1},          {"straight<256>", chain_kernel<256>, 256, 1},
      {"straight<1024>", chain_kernel<1024>, 1024, 1}, {"straight<4096>", chain_kernel<4096>, 4096, 1},
      {"loop4<4096>", chain_kernel<1024>, 1024, 4},
  };
  unsigned long long* stamps = nullptr;
  unsigned* out = nullptr;
  check(cudaMalloc(&stamps, sizeof(unsigned long long) * 2 * grid), "cudaMalloc stamps");
  check(cudaMalloc(&out, sizeof(unsigned) * grid), "cudaMalloc out");
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "cudaEventCreate");
  check(cudaEventCreate(&e1), "cudaEventCreate");
  std::vector<unsigned long long> h(2 * std::size_t(grid));
  std::vector<unsigned> hout(grid);

  std::printf("code_fetch on %s (%d SMs, L2 %zu MB, flush %zu MB): one warp per SM, us\n", prop.name, grid,
              dev.l2_bytes >> 20, flusher.bytes() >> 20);
  std::printf("%-16s %9s | %-30s | %-30s | %s\n", "kernel", "code KB", "warm: run median / p90 / event",
              "cold: run median / p90 / event", "cold - warm (run median / event)");
  int bad = 0;
  for (const Variant& v : variants) {
    const unsigned want = host_sum(a, b, long(v.body_steps) * v.passes);
    double med[2], ev[2];
    char cell[2][64];
    for (int cold = 0; cold < 2; ++cold) {
      std::vector<double> run, evt;
      for (int r = 0; r < reps; ++r) {
        if (cold) flusher.enqueue(s);
        else v.kernel<<<grid, 32, 0, s>>>(a, b, v.passes, stamps, out);  // the warm-up launch
        check(cudaEventRecord(e0, s), "cudaEventRecord");
        v.kernel<<<grid, 32, 0, s>>>(a, b, v.passes, stamps, out);
        check(cudaGetLastError(), "chain_kernel launch");
        check(cudaEventRecord(e1, s), "cudaEventRecord");
        check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
        float ms = 0.f;
        check(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
        evt.push_back(1e3 * ms);
        check(cudaMemcpy(h.data(), stamps, sizeof(unsigned long long) * h.size(), cudaMemcpyDeviceToHost), "copy");
        check(cudaMemcpy(hout.data(), out, sizeof(unsigned) * hout.size(), cudaMemcpyDeviceToHost), "copy");
        for (int c = 0; c < grid; ++c) {
          run.push_back(1e-3 * double(h[2 * c + 1] - h[2 * c]));
          bad += hout[c] != want;
        }
      }
      med[cold] = pct(run, 0.5);
      ev[cold] = pct(evt, 0.5);
      std::snprintf(cell[cold], sizeof cell[cold], "%7.2f / %7.2f / %7.2f", med[cold], pct(run, 0.9), ev[cold]);
    }
    std::printf("%-16s %9.1f | %-30s | %-30s | %+6.2f / %+6.2f\n", v.name, v.body_steps * 64 / 1024.0, cell[0], cell[1],
                med[1] - med[0], ev[1] - ev[0]);
  }
  if (bad) std::fprintf(stderr, "code_fetch: %d wrong checksums\n", bad);
  return bad ? 1 : 0;
}
