// Accuracy metrics against the fp64 reference: global relative L2, worst-row
// relative L2, max abs error, NaN/Inf/unwritten counts, and the NaN/Inf pattern
// comparison with the baseline. The summaries are pure host functions.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "lab/metrics_element.hpp"

namespace projkit::lab {

// The contract: 1e-4 for fp32-output (router) families, 1e-2 for bf16 (dense).
double tolerance_for(const ProjectionSpec& spec);

struct Metrics {
  double rel_l2 = 0.0;            // sqrt(sum err^2 / sum ref^2) over the whole output
  double worst_row_rel_l2 = 0.0;  // the same per row, worst row (absolute L2 when the row's ref is 0)
  int worst_row = -1;
  double max_abs = 0.0;
  long long nan = 0, inf = 0, unwritten = 0;
  long long pattern_mismatches = 0;  // NaN/Inf propagation check vs the baseline
  long long oob_writes = 0;          // elements written past y[m, n_out] in the output buffer
  bool nonfinite_ok = true;          // nan == inf == unwritten == pattern_mismatches == 0
  bool pass = true;
  std::string reason;  // why it failed ("" when pass)
};

// Relative L2 of one row; absolute L2 when the reference row is all zeros.
double row_error(const RowStats& r);
// Summarize per-row sums against a tolerance.
Metrics summarize_rows(const std::vector<RowStats>& rows, double tol);
// Worst of two results (max errors, summed counts, pass only if both pass).
Metrics worst_of(const Metrics& a, const Metrics& b);
// Record a NaN/Inf propagation comparison into m.
void add_pattern_check(Metrics& m, long long mismatches);
// Record writes past the output (the poisoned tail of the buffer was changed).
void add_oob_check(Metrics& m, long long oob_writes);

// Host: per-row stats of y (bf16/fp32 bits, [m, n_out]) against ref (double, [m, n_out]).
std::vector<RowStats> row_stats_host(const void* y, DType dtype, const double* ref, int m, int64_t n_out);
// Host: elements whose value class (finite/NaN/+Inf/-Inf/unwritten) differs.
long long class_mismatches_host(const void* a, const void* b, DType dtype, int64_t count);

// Device versions (d_rows: m RowStats; d_count: one long long, zeroed by the call).
void row_stats_device(const void* d_y, DType dtype, const double* d_ref, int m, int64_t n_out, RowStats* d_rows,
                      cudaStream_t stream);
void class_mismatches_device(const void* d_a, const void* d_b, DType dtype, int64_t count, long long* d_count,
                             cudaStream_t stream);
// Elements of d_y[0, count) that no longer hold the poison payload.
void count_written_device(const void* d_y, DType dtype, int64_t count, long long* d_count, cudaStream_t stream);

}  // namespace projkit::lab
