// Timing statistics of the judge's protocol, as pure functions (unit-tested on the CPU).
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace projkit::lab {

double median(std::vector<double> v);                // NaN when empty
double percentile(std::vector<double> v, double q);  // q in [0, 1], linear interpolation

// Paired timings of one case: base[i] and cand[i] were measured back to back.
struct PairedSummary {
  double base_us = 0.0, cand_us = 0.0;  // medians
  double ratio = 0.0;                   // median of base[i] / cand[i] (> 1: candidate faster)
  double ratio_p10 = 0.0, ratio_p90 = 0.0;
  int pairs = 0;
};
// Both inputs already have the replay overhead subtracted. Sizes must match (throws otherwise).
PairedSummary summarize_pairs(const std::vector<double>& base_us, const std::vector<double>& cand_us);

// Each side's median split by its place in the pair. The protocol swaps the order on alternate
// pairs so that an order effect (whatever the first replay of a pair leaves to the second)
// cancels in the ratio; this split shows how large it is (ledger P40). A group with no sample
// reads NaN.
struct OrderSplit {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double base_first_us = kNaN, base_second_us = kNaN;  // baseline replayed first / second of its pair
  double cand_first_us = kNaN, cand_second_us = kNaN;  // candidate replayed first / second of its pair
};
// base_first[i]: pair i replayed the baseline first. Sizes must match (throws otherwise).
OrderSplit split_by_order(const std::vector<double>& base_us, const std::vector<double>& cand_us,
                          const std::vector<bool>& base_first);

// One benchmark case (family x M) as reported.
struct BenchCase {
  std::string family, method;
  std::string weight_dtype = "bf16";  // as stored (the router's is fp32)
  int m = 0;
  long long n = 0, k = 0;
  double weight = 1.0;
  double base_us = 0.0, cand_us = 0.0, ratio = 0.0, ratio_p10 = 0.0, ratio_p90 = 0.0;
  double floor_us = 0.0, over_floor = 0.0, tbps = 0.0;
  std::size_t bytes = 0;  // weight bytes read + x + y
  OrderSplit order;       // the medians by place in the pair (NaN where not timed)
};
struct LoadSpeedup {
  int m = 0;
  double speedup = 0.0;  // sum(weight * base_us) / sum(weight * cand_us) over the load's cases
};

// Loads in order of first appearance of each m.
std::vector<LoadSpeedup> load_speedups(const std::vector<BenchCase>& cases);
double geometric_mean(const std::vector<double>& v);  // NaN when empty or any value <= 0
double score(const std::vector<LoadSpeedup>& loads);   // geometric mean of the load speedups

// Fill over_floor and tbps from base/cand/floor/bytes.
void finish_case(BenchCase& c);
// The practical read floor model of the brief: 1.8 us + bytes / 3.9 TB/s.
double floor_model_us(std::size_t bytes);

}  // namespace projkit::lab
