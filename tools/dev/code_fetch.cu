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
// Conditions, each a sequence on one stream whose last kernel is timed:
//   warm         kernel, stamp, kernel         its code in L2 and in the SMs' instruction caches
//   cold         kernel, flush, stamp, kernel  the bench's write flush (lab::L2Flusher) in between
//   evicted      evictor, stamp, kernel        straight<4096> (256 KB of code) has run in between
//   evicted+cold evictor, flush, stamp, kernel both: the code comes from DRAM if from anywhere
//   cublas8      gemm, flush, stamp, kernel    the bench's pairing: torch's cuBLAS call (bf16
//   cublas256                                  GemmEx, pooler shape N 4096 x K 8192, M 8 or 256) ran
//                                              in between, as the baseline's replay does
// `stamp` is one thread recording %globaltimer, so the timed kernel's start = its CTAs' entry stamp
// minus that (a launch gap + the fetch of its first code). Calls 5-7 of session 32 ran the versions
// of commits af878fa / f99e5a3 / ed663d3, whose flush kernel recorded its own end and whose medians
// were nearest-rank; this one uses the lab's flush and lab::median.
// Prints per kernel and condition the medians over SMs and launches of start and run (entry to
// end), in us. Exits non-zero on a CUDA error or a wrong checksum.
//
//   build/projkit_dev_code_fetch [--reps 40]   (~10 s)
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernels/ptx.cuh"  // globaltimer_ns
#include "lab/stats.hpp"    // median
#include "lab/timing.hpp"   // L2Flusher: the bench's write flush
#include "projkit/projkit.hpp"

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "code_fetch: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}
void check_blas(cublasStatus_t e, const char* what) {
  if (e != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "code_fetch: %s: %s\n", what, cublasGetStatusString(e));
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

// When the kernel before the timed one ends: one thread records %globaltimer.
__global__ void end_stamp_kernel(unsigned long long* end) { *end = projkit::ptx::globaltimer_ns(); }

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
  const int grid = dev.sm_count;
  const unsigned a = 2654435761u, b = 97u;  // passed as kernel parameters
  const projkit::lab::L2Flusher flusher(dev, projkit::lab::FlushMode::write);

  const Variant variants[] = {
      {"straight<0>", chain_kernel<0>, 0, 1},          {"straight<256>", chain_kernel<256>, 256, 1},
      {"straight<1024>", chain_kernel<1024>, 1024, 1}, {"loop4<1024>", chain_kernel<256>, 256, 4},
      {"straight<4096>", chain_kernel<4096>, 4096, 1},
  };
  const Variant& evictor = variants[4];
  unsigned long long *stamps = nullptr, *end = nullptr;
  unsigned* out = nullptr;
  check(cudaMalloc(&stamps, sizeof(unsigned long long) * 2 * grid), "cudaMalloc stamps");
  check(cudaMalloc(&end, sizeof(unsigned long long)), "cudaMalloc end");
  check(cudaMalloc(&out, sizeof(unsigned) * grid), "cudaMalloc out");
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  // The baseline's call (src/baseline/cublas_linear.cpp's arguments) on the pooler's shape.
  constexpr int kN = 4096, kK = 8192, kMaxM = 256;
  __nv_bfloat16 *w = nullptr, *x = nullptr, *y = nullptr;
  void* ws = nullptr;
  check(cudaMalloc(&w, sizeof(__nv_bfloat16) * kN * kK), "cudaMalloc w");
  check(cudaMalloc(&x, sizeof(__nv_bfloat16) * kMaxM * kK), "cudaMalloc x");
  check(cudaMalloc(&y, sizeof(__nv_bfloat16) * kMaxM * kN), "cudaMalloc y");
  check(cudaMalloc(&ws, 32u << 20), "cudaMalloc cuBLAS workspace");
  check(cudaMemset(w, 0, sizeof(__nv_bfloat16) * kN * kK), "cudaMemset w");
  check(cudaMemset(x, 0, sizeof(__nv_bfloat16) * kMaxM * kK), "cudaMemset x");
  cublasHandle_t blas;
  check_blas(cublasCreate(&blas), "cublasCreate");
  auto gemm = [&](int m) {
    const float alpha = 1.0f, beta = 0.0f;
    check_blas(cublasSetStream(blas, s), "cublasSetStream");
    check_blas(cublasSetWorkspace(blas, ws, 32u << 20), "cublasSetWorkspace");
    check_blas(cublasGemmEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, kN, m, kK, &alpha, w, CUDA_R_16BF, kK, x, CUDA_R_16BF, kK,
                            &beta, y, CUDA_R_16BF, kN, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP),
               "cublasGemmEx");
  };
  std::vector<unsigned long long> h(2 * std::size_t(grid));
  std::vector<unsigned> hout(grid);

  std::printf("code_fetch on %s (%d SMs, L2 %zu MB, flush %zu MB): one warp per SM; medians over SMs and %d "
              "launches, us\n",
              prop.name, grid, dev.l2_bytes >> 20, flusher.bytes() >> 20, reps);
  const char* conds[] = {"warm", "cold", "evicted", "evicted+cold", "cublas8", "cublas256"};
  std::printf("%-15s %7s |", "kernel", "code KB");
  for (const char* c : conds) std::printf(" %-12s start / run |", c);
  std::printf("\n");
  int bad = 0;
  for (const Variant& v : variants) {
    const unsigned want = host_sum(a, b, long(v.body_steps) * v.passes);
    std::printf("%-15s %7.1f |", v.name, v.body_steps * 64 / 1024.0);
    for (int c = 0; c < 6; ++c) {
      const bool evict = c == 2 || c == 3, cold = c != 0 && c != 2;
      std::vector<double> start, run;
      for (int r = 0; r < reps; ++r) {
        if (c >= 4) {
          gemm(c == 4 ? 8 : 256);
        } else {
          const Variant& first = evict ? evictor : v;
          first.kernel<<<grid, 32, 0, s>>>(a, b, first.passes, stamps, out);
        }
        if (cold) flusher.enqueue(s);
        end_stamp_kernel<<<1, 1, 0, s>>>(end);
        v.kernel<<<grid, 32, 0, s>>>(a, b, v.passes, stamps, out);
        check(cudaGetLastError(), "launch");
        check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
        unsigned long long e = 0;
        check(cudaMemcpy(&e, end, sizeof e, cudaMemcpyDeviceToHost), "copy");
        check(cudaMemcpy(h.data(), stamps, sizeof(unsigned long long) * h.size(), cudaMemcpyDeviceToHost), "copy");
        check(cudaMemcpy(hout.data(), out, sizeof(unsigned) * hout.size(), cudaMemcpyDeviceToHost), "copy");
        for (int k = 0; k < grid; ++k) {
          start.push_back(1e-3 * double(int64_t(h[2 * k] - e)));
          run.push_back(1e-3 * double(h[2 * k + 1] - h[2 * k]));
          bad += hout[k] != want;
        }
      }
      std::printf(" %8.2f / %8.2f      |", projkit::lab::median(start), projkit::lab::median(run));
    }
    std::printf("\n");
  }
  if (bad) std::fprintf(stderr, "code_fetch: %d wrong checksums\n", bad);
  return bad ? 1 : 0;
}
