// fp64 reference on the device: fast enough to check every M in 1..256 for every
// family within minutes. Regime: any shape. Mechanism: shared-memory tiled SIMT
// GEMM in double; inputs converted to double on the way into shared memory.
#include "core/method.hpp"
#include "lab/random.hpp"
#include "lab/reference.hpp"

namespace projkit::lab {
namespace {

constexpr int kTileM = 64;   // rows of x per block
constexpr int kTileN = 64;   // rows of W (output columns) per block
constexpr int kTileK = 16;   // depth of one shared-memory stage
constexpr int kThreads = 256;
constexpr int kPerThread = 4;  // each thread owns a 4 x 4 block of outputs (strided by 16)
static_assert(kTileM * kTileK % kThreads == 0 && kTileN * kTileK % kThreads == 0, "tile loads divide evenly");
static_assert((kTileM / kPerThread) * (kTileN / kPerThread) == kThreads, "4x4 outputs per thread cover the tile");

__device__ __forceinline__ double load_as_double(const uint16_t* p) { return double(f32_from_bf16_bits(*p)); }
__device__ __forceinline__ double load_as_double(const float* p) { return double(*p); }

// grid = (ceil(n_out / 64), ceil(m / 64)); y[m, n_out] double.
template <class TW>
__global__ void __launch_bounds__(kThreads) reference_fp64_kernel(const uint16_t* __restrict__ x, const TW* __restrict__ w,
                                                                  double* __restrict__ y, int m, int64_t n_out, int64_t k) {
  __shared__ double xs[kTileK][kTileM + 1];  // x tile, transposed: [k][row]
  __shared__ double ws[kTileK][kTileN + 1];  // W tile, transposed: [k][col]
  const int64_t row0 = int64_t(blockIdx.y) * kTileM, col0 = int64_t(blockIdx.x) * kTileN;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  double acc[kPerThread][kPerThread] = {};
  for (int64_t k0 = 0; k0 < k; k0 += kTileK) {
    for (int e = threadIdx.x; e < kTileM * kTileK; e += kThreads) {
      const int r = e / kTileK, c = e % kTileK;
      const int64_t gr = row0 + r, gc = k0 + c;
      xs[c][r] = (gr < m && gc < k) ? load_as_double(x + gr * k + gc) : 0.0;
    }
    for (int e = threadIdx.x; e < kTileN * kTileK; e += kThreads) {
      const int r = e / kTileK, c = e % kTileK;
      const int64_t gr = col0 + r, gc = k0 + c;
      ws[c][r] = (gr < n_out && gc < k) ? load_as_double(w + gr * k + gc) : 0.0;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kTileK; ++kk) {
      double a[kPerThread], b[kPerThread];
#pragma unroll
      for (int i = 0; i < kPerThread; ++i) a[i] = xs[kk][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < kPerThread; ++j) b[j] = ws[kk][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < kPerThread; ++i)
#pragma unroll
        for (int j = 0; j < kPerThread; ++j) acc[i][j] = fma(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < kPerThread; ++i)
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      const int64_t r = row0 + ty + 16 * i, c = col0 + tx + 16 * j;
      if (r < m && c < n_out) y[r * n_out + c] = acc[i][j];
    }
}

}  // namespace

void reference_device(const ProjectionSpec& spec, int m, const void* d_x, const void* d_w, double* d_y,
                      cudaStream_t stream) {
  const int64_t n_out = spec.out_cols(m);
  const dim3 grid(unsigned((n_out + kTileN - 1) / kTileN), unsigned((m + kTileM - 1) / kTileM));
  const auto* x = static_cast<const uint16_t*>(d_x);
  if (spec.weight_dtype == DType::bf16)
    reference_fp64_kernel<<<grid, kThreads, 0, stream>>>(x, static_cast<const uint16_t*>(d_w), d_y, m, n_out, spec.k);
  else
    reference_fp64_kernel<<<grid, kThreads, 0, stream>>>(x, static_cast<const float*>(d_w), d_y, m, n_out, spec.k);
  cuda_check(cudaGetLastError(), "reference_fp64_kernel launch");
}

}  // namespace projkit::lab
