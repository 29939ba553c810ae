// Device metric passes: per-row error sums (one block per row) and the NaN/Inf
// class comparison. Same element logic as the host (metrics_element.hpp).
#include "core/method.hpp"
#include "lab/metrics.hpp"

namespace projkit::lab {
namespace {

constexpr int kThreads = 256;

// grid = m blocks; block r reduces row r of y against ref into rows[r].
__global__ void row_stats_kernel(const void* __restrict__ y, DType dtype, const double* __restrict__ ref, int64_t n_out,
                                 RowStats* __restrict__ rows) {
  const int64_t r = blockIdx.x;
  RowStats s{};
  for (int64_t j = threadIdx.x; j < n_out; j += kThreads) accumulate_element(s, y, r * n_out + j, dtype, ref[r * n_out + j]);
  __shared__ RowStats part[kThreads];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int step = kThreads / 2; step > 0; step >>= 1) {
    if (int(threadIdx.x) < step) {
      RowStats& a = part[threadIdx.x];
      const RowStats& b = part[threadIdx.x + step];
      a.err2 += b.err2;
      a.ref2 += b.ref2;
      a.max_abs = a.max_abs > b.max_abs ? a.max_abs : b.max_abs;
      a.nan += b.nan;
      a.inf += b.inf;
      a.unwritten += b.unwritten;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) rows[r] = part[0];
}

__global__ void class_mismatch_kernel(const void* __restrict__ a, const void* __restrict__ b, DType dtype, int64_t count,
                                      long long* __restrict__ out) {
  long long n = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count; i += int64_t(gridDim.x) * blockDim.x)
    n += value_class(a, i, dtype) != value_class(b, i, dtype);
  if (n) atomicAdd(reinterpret_cast<unsigned long long*>(out), static_cast<unsigned long long>(n));
}

__global__ void count_written_kernel(const void* __restrict__ y, DType dtype, int64_t count, long long* __restrict__ out) {
  long long n = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count; i += int64_t(gridDim.x) * blockDim.x)
    n += value_class(y, i, dtype) != kUnwritten;
  if (n) atomicAdd(reinterpret_cast<unsigned long long*>(out), static_cast<unsigned long long>(n));
}

unsigned blocks_for(int64_t count) {
  const int64_t b = (count + kThreads - 1) / kThreads;
  return unsigned(b < 4096 ? (b ? b : 1) : 4096);
}

}  // namespace

void row_stats_device(const void* d_y, DType dtype, const double* d_ref, int m, int64_t n_out, RowStats* d_rows,
                      cudaStream_t stream) {
  if (m <= 0) return;
  row_stats_kernel<<<unsigned(m), kThreads, 0, stream>>>(d_y, dtype, d_ref, n_out, d_rows);
  cuda_check(cudaGetLastError(), "row_stats_kernel launch");
}

void class_mismatches_device(const void* d_a, const void* d_b, DType dtype, int64_t count, long long* d_count,
                             cudaStream_t stream) {
  cuda_check(cudaMemsetAsync(d_count, 0, sizeof(long long), stream), "cudaMemsetAsync (mismatch counter)");
  class_mismatch_kernel<<<blocks_for(count), kThreads, 0, stream>>>(d_a, d_b, dtype, count, d_count);
  cuda_check(cudaGetLastError(), "class_mismatch_kernel launch");
}

void count_written_device(const void* d_y, DType dtype, int64_t count, long long* d_count, cudaStream_t stream) {
  cuda_check(cudaMemsetAsync(d_count, 0, sizeof(long long), stream), "cudaMemsetAsync (written counter)");
  if (count <= 0) return;
  count_written_kernel<<<blocks_for(count), kThreads, 0, stream>>>(d_y, dtype, count, d_count);
  cuda_check(cudaGetLastError(), "count_written_kernel launch");
}

}  // namespace projkit::lab
