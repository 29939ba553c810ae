// Pure statistics for the timing protocol.
#include "lab/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "projkit/projkit.hpp"

namespace projkit::lab {

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  q = std::clamp(q, 0.0, 1.0);
  const double pos = q * double(v.size() - 1);
  const std::size_t lo = std::size_t(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  const double t = pos - double(lo);
  return v[lo] + (v[hi] - v[lo]) * t;
}

double median(std::vector<double> v) { return percentile(std::move(v), 0.5); }

PairedSummary summarize_pairs(const std::vector<double>& base_us, const std::vector<double>& cand_us) {
  if (base_us.size() != cand_us.size())
    throw Error(StatusCode::invalid_argument, "summarize_pairs: base and candidate sample counts differ");
  std::vector<double> ratios(base_us.size());
  for (std::size_t i = 0; i < ratios.size(); ++i) ratios[i] = base_us[i] / cand_us[i];
  PairedSummary s;
  s.pairs = int(ratios.size());
  s.base_us = median(base_us);
  s.cand_us = median(cand_us);
  s.ratio = median(ratios);
  s.ratio_p10 = percentile(ratios, 0.10);
  s.ratio_p90 = percentile(ratios, 0.90);
  return s;
}

OrderSplit split_by_order(const std::vector<double>& base_us, const std::vector<double>& cand_us,
                          const std::vector<bool>& base_first) {
  if (base_us.size() != cand_us.size() || base_us.size() != base_first.size())
    throw Error(StatusCode::invalid_argument, "split_by_order: base, candidate and order counts differ");
  std::vector<double> b1, b2, c1, c2;
  for (std::size_t i = 0; i < base_us.size(); ++i) {
    (base_first[i] ? b1 : b2).push_back(base_us[i]);
    (base_first[i] ? c2 : c1).push_back(cand_us[i]);
  }
  OrderSplit o;
  o.base_first_us = median(b1);
  o.base_second_us = median(b2);
  o.cand_first_us = median(c1);
  o.cand_second_us = median(c2);
  return o;
}

std::vector<LoadSpeedup> load_speedups(const std::vector<BenchCase>& cases) {
  std::vector<int> ms;
  for (const BenchCase& c : cases)
    if (std::find(ms.begin(), ms.end(), c.m) == ms.end()) ms.push_back(c.m);
  std::vector<LoadSpeedup> out;
  for (int m : ms) {
    double base = 0.0, cand = 0.0;
    for (const BenchCase& c : cases)
      if (c.m == m) {
        base += c.weight * c.base_us;
        cand += c.weight * c.cand_us;
      }
    out.push_back({m, base / cand});
  }
  return out;
}

double geometric_mean(const std::vector<double>& v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  double log_sum = 0.0;
  for (double x : v) {
    if (!(x > 0.0)) return std::numeric_limits<double>::quiet_NaN();
    log_sum += std::log(x);
  }
  return std::exp(log_sum / double(v.size()));
}

double score(const std::vector<LoadSpeedup>& loads) {
  std::vector<double> s;
  for (const LoadSpeedup& l : loads) s.push_back(l.speedup);
  return geometric_mean(s);
}

void finish_case(BenchCase& c) {
  c.over_floor = c.floor_us > 0.0 ? c.cand_us / c.floor_us : 0.0;
  c.tbps = c.cand_us > 0.0 ? double(c.bytes) / (c.cand_us * 1e-6) / 1e12 : 0.0;
}

double floor_model_us(std::size_t bytes) { return 1.8 + double(bytes) / 3.9e6; }

}  // namespace projkit::lab
