// Host metric summaries (pure) and host per-row accounting.
#include "lab/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace projkit::lab {

double tolerance_for(const ProjectionSpec& spec) { return spec.out_dtype == DType::f32 ? 1e-4 : 1e-2; }

double row_error(const RowStats& r) { return r.ref2 > 0.0 ? std::sqrt(r.err2 / r.ref2) : std::sqrt(r.err2); }

static void finish(Metrics& m, double tol) {
  m.nonfinite_ok = m.nan == 0 && m.inf == 0 && m.unwritten == 0 && m.pattern_mismatches == 0;
  std::ostringstream why;
  if (m.unwritten) why << m.unwritten << " outputs not written; ";
  if (m.nan || m.inf) why << m.nan << " NaN and " << m.inf << " Inf outputs from finite inputs; ";
  if (m.pattern_mismatches) why << m.pattern_mismatches << " outputs differ from the baseline's NaN/Inf pattern; ";
  if (!(m.rel_l2 <= tol)) why << "relative L2 " << m.rel_l2 << " > " << tol << "; ";
  if (!(m.worst_row_rel_l2 <= tol)) why << "row " << m.worst_row << " relative L2 " << m.worst_row_rel_l2 << " > " << tol << "; ";
  m.reason = why.str();
  if (!m.reason.empty()) m.reason.resize(m.reason.size() - 2);
  m.pass = m.reason.empty();
}

Metrics summarize_rows(const std::vector<RowStats>& rows, double tol) {
  Metrics m;
  double err2 = 0.0, ref2 = 0.0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const RowStats& r = rows[i];
    err2 += r.err2;
    ref2 += r.ref2;
    m.max_abs = std::max(m.max_abs, r.max_abs);
    m.nan += r.nan;
    m.inf += r.inf;
    m.unwritten += r.unwritten;
    const double e = row_error(r);
    if (m.worst_row < 0 || e > m.worst_row_rel_l2 || std::isnan(e)) {
      m.worst_row_rel_l2 = e;
      m.worst_row = int(i);
    }
  }
  m.rel_l2 = ref2 > 0.0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  if (rows.empty()) m.worst_row_rel_l2 = 0.0;
  finish(m, tol);
  return m;
}

Metrics worst_of(const Metrics& a, const Metrics& b) {
  Metrics m;
  m.rel_l2 = std::max(a.rel_l2, b.rel_l2);
  if (b.worst_row_rel_l2 > a.worst_row_rel_l2) {
    m.worst_row_rel_l2 = b.worst_row_rel_l2;
    m.worst_row = b.worst_row;
  } else {
    m.worst_row_rel_l2 = a.worst_row_rel_l2;
    m.worst_row = a.worst_row;
  }
  m.max_abs = std::max(a.max_abs, b.max_abs);
  m.nan = a.nan + b.nan;
  m.inf = a.inf + b.inf;
  m.unwritten = a.unwritten + b.unwritten;
  m.pattern_mismatches = a.pattern_mismatches + b.pattern_mismatches;
  m.oob_writes = a.oob_writes + b.oob_writes;
  m.nonfinite_ok = a.nonfinite_ok && b.nonfinite_ok;
  m.pass = a.pass && b.pass;
  m.reason = a.reason.empty() ? b.reason : (b.reason.empty() ? a.reason : a.reason + "; " + b.reason);
  return m;
}

void add_pattern_check(Metrics& m, long long mismatches) {
  if (mismatches == 0) return;
  m.pattern_mismatches += mismatches;
  m.nonfinite_ok = false;
  m.pass = false;
  const std::string why = std::to_string(mismatches) + " outputs differ from the baseline's NaN/Inf pattern";
  m.reason = m.reason.empty() ? why : m.reason + "; " + why;
}

void add_oob_check(Metrics& m, long long oob_writes) {
  if (oob_writes == 0) return;
  m.oob_writes += oob_writes;
  m.pass = false;
  const std::string why = std::to_string(oob_writes) + " elements written past y[m, n_out]";
  m.reason = m.reason.empty() ? why : m.reason + "; " + why;
}

std::vector<RowStats> row_stats_host(const void* y, DType dtype, const double* ref, int m, int64_t n_out) {
  std::vector<RowStats> rows(std::size_t(std::max(m, 0)));
  for (int64_t r = 0; r < m; ++r)
    for (int64_t j = 0; j < n_out; ++j) accumulate_element(rows[std::size_t(r)], y, r * n_out + j, dtype, ref[r * n_out + j]);
  return rows;
}

long long class_mismatches_host(const void* a, const void* b, DType dtype, int64_t count) {
  long long n = 0;
  for (int64_t i = 0; i < count; ++i) n += value_class(a, i, dtype) != value_class(b, i, dtype);
  return n;
}

}  // namespace projkit::lab
