// Timing statistics of the lab: medians of paired ratios, percentiles, load sums, score.
#include <gtest/gtest.h>

#include <cmath>

#include "lab/args.hpp"
#include "lab/stats.hpp"
#include "lab/timing.hpp"

using namespace projkit::lab;

TEST(LabStats, MedianAndPercentiles) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2.0);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_TRUE(std::isnan(median({})));
  std::vector<double> v;
  for (int i = 0; i <= 10; ++i) v.push_back(double(10 - i));  // 10..0
  EXPECT_DOUBLE_EQ(percentile(v, 0.1), 1.0);
  EXPECT_DOUBLE_EQ(percentile(v, 0.9), 9.0);
  EXPECT_DOUBLE_EQ(percentile({0, 10}, 0.25), 2.5);  // linear interpolation
}

TEST(LabStats, RatioIsMedianOfPairedRatiosNotRatioOfMedians) {
  // Pairs: ratios 2, 2, 0.5 -> median 2; medians of sides: base 10, cand 5 -> 2 as well,
  // so make them differ: base {10, 20, 30}, cand {20, 5, 10} -> ratios {0.5, 4, 3}, median 3.
  const PairedSummary s = summarize_pairs({10, 20, 30}, {20, 5, 10});
  EXPECT_EQ(s.pairs, 3);
  EXPECT_DOUBLE_EQ(s.ratio, 3.0);
  EXPECT_DOUBLE_EQ(s.base_us, 20.0);
  EXPECT_DOUBLE_EQ(s.cand_us, 10.0);
  EXPECT_DOUBLE_EQ(s.ratio_p10, percentile({0.5, 4, 3}, 0.1));
  EXPECT_DOUBLE_EQ(s.ratio_p90, percentile({0.5, 4, 3}, 0.9));
  EXPECT_LE(s.ratio_p10, s.ratio);
  EXPECT_GE(s.ratio_p90, s.ratio);
  EXPECT_THROW(summarize_pairs({1, 2}, {1}), projkit::Error);
}

TEST(LabStats, SplitByOrderGroupsEachSideByItsPlaceInThePair) {
  // Pairs 0 and 2: baseline first; pair 1: candidate first.
  const OrderSplit o = split_by_order({10, 7, 12}, {5, 6, 4}, {true, false, true});
  EXPECT_DOUBLE_EQ(o.base_first_us, 11.0);   // median of 10, 12
  EXPECT_DOUBLE_EQ(o.base_second_us, 7.0);
  EXPECT_DOUBLE_EQ(o.cand_first_us, 6.0);    // the candidate ran first only in pair 1
  EXPECT_DOUBLE_EQ(o.cand_second_us, 4.5);   // median of 5, 4
  // A place never taken reads NaN, not 0.
  const OrderSplit one = split_by_order({3}, {2}, {true});
  EXPECT_DOUBLE_EQ(one.base_first_us, 3.0);
  EXPECT_TRUE(std::isnan(one.base_second_us));
  EXPECT_TRUE(std::isnan(one.cand_first_us));
  EXPECT_DOUBLE_EQ(one.cand_second_us, 2.0);
  EXPECT_THROW(split_by_order({1, 2}, {1, 2}, {true}), projkit::Error);
  EXPECT_THROW(split_by_order({1, 2}, {1}, {true, false}), projkit::Error);
}

TEST(LabStats, LoadSpeedupIsWeightedSumRatio) {
  std::vector<BenchCase> cases(3);
  cases[0] = {.family = "qkv", .m = 1, .weight = 1, .base_us = 10, .cand_us = 5};
  cases[1] = {.family = "o", .m = 1, .weight = 3, .base_us = 2, .cand_us = 2};
  cases[2] = {.family = "qkv", .m = 8, .weight = 1, .base_us = 10, .cand_us = 10};
  const auto loads = load_speedups(cases);
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(loads[0].m, 1);
  EXPECT_DOUBLE_EQ(loads[0].speedup, (10.0 + 6.0) / (5.0 + 6.0));
  EXPECT_EQ(loads[1].m, 8);
  EXPECT_DOUBLE_EQ(loads[1].speedup, 1.0);
  EXPECT_DOUBLE_EQ(score(loads), std::sqrt(16.0 / 11.0));
}

TEST(LabStats, GeometricMean) {
  EXPECT_NEAR(geometric_mean({1, 4}), 2.0, 1e-12);
  EXPECT_NEAR(geometric_mean({2, 2, 2}), 2.0, 1e-12);
  EXPECT_TRUE(std::isnan(geometric_mean({})));
  EXPECT_TRUE(std::isnan(geometric_mean({1, 0})));
}

TEST(LabStats, CaseDerivedFieldsAndFloorModel) {
  BenchCase c;
  c.cand_us = 10;
  c.floor_us = 8;
  c.bytes = 40'000'000;
  finish_case(c);
  EXPECT_DOUBLE_EQ(c.over_floor, 1.25);
  EXPECT_DOUBLE_EQ(c.tbps, 4.0);
  EXPECT_NEAR(floor_model_us(37'748'736), 1.8 + 37.748736 / 3.9, 1e-9);
}

TEST(LabStats, RotatedCopiesExceedTwiceL2) {
  const std::size_t l2 = 60u << 20;
  EXPECT_EQ(rotated_copies(64u << 20, l2, 8), 8);           // 512 MiB > 120 MiB already
  const int c = rotated_copies(8u << 20, l2, 8);            // 8 MiB copies
  EXPECT_GT(std::size_t(c) * (8u << 20), 2 * l2);
  EXPECT_LE(std::size_t(c - 1) * (8u << 20), 2 * l2);
}

TEST(LabArgs, MListsAndNames) {
  EXPECT_EQ(parse_m_list("1,8,32"), (std::vector<int>{1, 8, 32}));
  EXPECT_EQ(parse_m_list("1..4"), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(parse_m_list("3..4,8,4"), (std::vector<int>{3, 4, 8}));
  EXPECT_EQ(parse_m_list("1..256").size(), 256u);
  EXPECT_THROW(parse_m_list("0"), projkit::Error);
  EXPECT_THROW(parse_m_list("4..2"), projkit::Error);
  EXPECT_THROW(parse_m_list("a"), projkit::Error);
  EXPECT_THROW(parse_m_list("1,,2"), projkit::Error);
  EXPECT_EQ(parse_name_list("qkv,o"), (std::vector<std::string>{"qkv", "o"}));
  EXPECT_THROW(parse_name_list("qkv,"), projkit::Error);
}
