// Accuracy metrics on hand-made cases: wrong outputs, NaN, unwritten elements,
// per-row failures hidden by a passing global error, zero-norm rows, NaN patterns.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "lab/inputs.hpp"
#include "lab/metrics.hpp"
#include "lab/random.hpp"

using namespace projkit;
using namespace projkit::lab;

namespace {
std::vector<float> f32(std::initializer_list<double> v) {
  std::vector<float> out;
  for (double d : v) out.push_back(float(d));
  return out;
}
std::vector<uint16_t> bf16(std::initializer_list<double> v) {
  std::vector<uint16_t> out;
  for (double d : v) out.push_back(bf16_bits_from_f32(float(d)));
  return out;
}
Metrics eval_f32(const std::vector<float>& y, const std::vector<double>& ref, int m, double tol) {
  return summarize_rows(row_stats_host(y.data(), DType::f32, ref.data(), m, int64_t(ref.size()) / m), tol);
}
}  // namespace

TEST(LabMetrics, ExactOutputPasses) {
  const Metrics r = eval_f32(f32({1, 2, 3, 4}), {1, 2, 3, 4}, 2, 1e-4);
  EXPECT_TRUE(r.pass) << r.reason;
  EXPECT_EQ(r.rel_l2, 0.0);
  EXPECT_TRUE(r.nonfinite_ok);
}

TEST(LabMetrics, KnownWrongOutputFails) {
  const Metrics r = eval_f32(f32({1, 2, 3, 5}), {1, 2, 3, 4}, 2, 1e-2);
  EXPECT_FALSE(r.pass);
  EXPECT_NEAR(r.rel_l2, std::sqrt(1.0 / 30.0), 1e-12);
  EXPECT_EQ(r.worst_row, 1);
  EXPECT_NEAR(r.worst_row_rel_l2, 1.0 / 5.0, 1e-12);
  EXPECT_DOUBLE_EQ(r.max_abs, 1.0);
}

TEST(LabMetrics, PerRowFailureCaughtWhenGlobalPasses) {
  // Row 0 is large and exact; row 1 is small and 50% wrong: global error ~5e-5.
  const Metrics r = eval_f32(f32({1000, 1000, 0.01, 0.02}), {1000, 1000, 0.02, 0.02}, 2, 1e-2);
  EXPECT_LT(r.rel_l2, 1e-2);
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.worst_row, 1);
  EXPECT_NE(r.reason.find("row 1"), std::string::npos) << r.reason;
}

TEST(LabMetrics, NaNAndInfFail) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  Metrics r = eval_f32({1, nan}, {1, 1}, 1, 1e-2);
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.nan, 1);
  EXPECT_FALSE(r.nonfinite_ok);
  r = eval_f32({inf, 1}, {1, 1}, 1, 1e-2);
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.inf, 1);
}

TEST(LabMetrics, UnwrittenPoisonFails) {
  std::vector<uint16_t> y = bf16({1, 2, 3, 4});
  y[2] = kPoisonBf16;
  const std::vector<double> ref = {1, 2, 3, 4};
  const Metrics r = summarize_rows(row_stats_host(y.data(), DType::bf16, ref.data(), 2, 2), 1e-2);
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.unwritten, 1);
  EXPECT_EQ(r.nan, 0);  // the poison is not counted as a computed NaN
}

TEST(LabMetrics, Bf16RoundingPassesDenseTolerance) {
  const std::vector<double> ref = {1.0 / 3, 2.0 / 3, 100.0 / 7, -5.0 / 9};
  std::vector<uint16_t> y;
  for (double d : ref) y.push_back(bf16_bits_from_f32(float(d)));
  const Metrics r = summarize_rows(row_stats_host(y.data(), DType::bf16, ref.data(), 1, 4), 1e-2);
  EXPECT_TRUE(r.pass) << r.reason;
  EXPECT_GT(r.rel_l2, 0.0);
}

TEST(LabMetrics, ZeroReferenceRowUsesAbsoluteError) {
  Metrics r = eval_f32({0, 0, 1, 1}, {0, 0, 1, 1}, 2, 1e-4);
  EXPECT_TRUE(r.pass) << r.reason;
  r = eval_f32({0, 1e-3f, 1, 1}, {0, 0, 1, 1}, 2, 1e-4);
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.worst_row, 0);
  EXPECT_NEAR(r.worst_row_rel_l2, 1e-3, 1e-9);
}

TEST(LabMetrics, WorstOfMergesAndPatternCheckFails) {
  const Metrics good = eval_f32(f32({1, 2}), {1, 2}, 1, 1e-2);
  const Metrics bad = eval_f32(f32({1, 3}), {1, 2}, 1, 1e-2);
  const Metrics w = worst_of(good, bad);
  EXPECT_FALSE(w.pass);
  EXPECT_DOUBLE_EQ(w.rel_l2, bad.rel_l2);
  Metrics p = good;
  add_pattern_check(p, 0);
  EXPECT_TRUE(p.pass);
  add_pattern_check(p, 3);
  EXPECT_FALSE(p.pass);
  EXPECT_FALSE(p.nonfinite_ok);
  EXPECT_EQ(p.pattern_mismatches, 3);
  Metrics q = good;
  add_oob_check(q, 0);
  EXPECT_TRUE(q.pass);
  add_oob_check(q, 2);
  EXPECT_FALSE(q.pass);
  EXPECT_EQ(q.oob_writes, 2);
  EXPECT_NE(q.reason.find("past"), std::string::npos);
}

TEST(LabMetrics, NonFinitePatternComparison) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> base = {inf, -inf, nan, 1};
  EXPECT_EQ(class_mismatches_host(base.data(), base.data(), DType::f32, 4), 0);
  const std::vector<float> flipped = {-inf, -inf, nan, 2};  // sign of Inf differs
  EXPECT_EQ(class_mismatches_host(base.data(), flipped.data(), DType::f32, 4), 1);
  const std::vector<float> dropped = {inf, -inf, 0, 1};     // NaN dropped
  EXPECT_EQ(class_mismatches_host(base.data(), dropped.data(), DType::f32, 4), 1);
  const std::vector<uint16_t> b16 = {bf16_bits_from_f32(inf), kPoisonBf16};
  const std::vector<uint16_t> c16 = {bf16_bits_from_f32(inf), bf16_bits_from_f32(nan)};
  EXPECT_EQ(class_mismatches_host(b16.data(), c16.data(), DType::bf16, 2), 1);  // unwritten != NaN
}

TEST(LabMetrics, Tolerances) {
  EXPECT_DOUBLE_EQ(tolerance_for(builtin_spec("router")), 1e-4);
  EXPECT_DOUBLE_EQ(tolerance_for(builtin_spec("qkv")), 1e-2);
}
