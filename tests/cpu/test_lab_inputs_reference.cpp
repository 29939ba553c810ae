// Check inputs (probe rows, weight scale) and the fp64 host reference.
#include <gtest/gtest.h>

#include <cmath>

#include "lab/inputs.hpp"
#include "lab/random.hpp"
#include "lab/reference.hpp"

using namespace projkit;
using namespace projkit::lab;

namespace {
bool is_power_of_two_magnitude(float v) {
  int e = 0;
  return v != 0 && std::frexp(std::fabs(v), &e) == 0.5f;
}
}  // namespace

TEST(LabInputs, ProbeRowsAboutOneInEightWithOnePowerOfTwo) {
  const int m = 4000;
  const int64_t k = 64;
  const std::vector<uint16_t> x = activations_host(m, k, 42);
  int probes = 0;
  for (int r = 0; r < m; ++r) {
    int nonzero = 0;
    float value = 0;
    for (int64_t c = 0; c < k; ++c) {
      const float v = f32_from_bf16_bits(x[std::size_t(r * k + c)]);
      if (v != 0) {
        ++nonzero;
        value = v;
      }
    }
    if (is_probe_row(42, r)) {
      ++probes;
      EXPECT_EQ(nonzero, 1) << "row " << r;
      EXPECT_TRUE(is_power_of_two_magnitude(value)) << "row " << r << " value " << value;
    } else {
      EXPECT_GT(nonzero, k / 2) << "row " << r;  // dense normal rows
    }
  }
  const double rate = double(probes) / m;
  EXPECT_NEAR(rate, 1.0 / 8, 0.02);
}

TEST(LabInputs, DeterministicPerSeed) {
  EXPECT_EQ(activations_host(3, 16, 7), activations_host(3, 16, 7));
  EXPECT_NE(activations_host(3, 16, 7), activations_host(3, 16, 8));
}

TEST(LabInputs, WeightScaleAndStorage) {
  const ProjectionSpec& qkv = builtin_spec("qkv");
  const std::vector<float> w = weights_host(qkv, 3, 8);  // 8 rows x 8192
  double sum2 = 0;
  for (float v : w) {
    sum2 += double(v) * v;
    EXPECT_EQ(f32_from_bf16_bits(bf16_bits_from_f32(v)), v);  // exactly representable in bf16
  }
  const double std_dev = std::sqrt(sum2 / double(w.size()));
  EXPECT_NEAR(std_dev, 1.0 / std::sqrt(8192.0), 0.05 / std::sqrt(8192.0));
  const std::vector<float> wr = weights_host(builtin_spec("router"), 3, 1);
  bool any_not_bf16 = false;
  for (float v : wr) any_not_bf16 |= f32_from_bf16_bits(bf16_bits_from_f32(v)) != v;
  EXPECT_TRUE(any_not_bf16);  // router weights keep full fp32 precision
}

TEST(LabInputs, Bf16RoundingHelpers) {
  EXPECT_EQ(bf16_bits_from_f32(1.0f), 0x3F80);
  EXPECT_EQ(f32_from_bf16_bits(0x3F80), 1.0f);
  EXPECT_EQ(bf16_bits_from_f32(1.0f + 1.0f / 256), 0x3F80);  // tie rounds to even
  EXPECT_EQ(bf16_bits_from_f32(1.0f + 3.0f / 256), 0x3F82);
  EXPECT_TRUE(std::isnan(f32_from_bf16_bits(bf16_bits_from_f32(NAN))));
}

TEST(LabReference, HostReferenceMatchesHandComputation) {
  ProjectionSpec s;
  s.name = "tiny";
  s.n = 8;
  s.k = 8;
  const int m = 2;
  std::vector<uint16_t> x(std::size_t(m * s.k));
  std::vector<float> w(std::size_t(s.n * s.k));
  for (int i = 0; i < m * s.k; ++i) x[std::size_t(i)] = bf16_bits_from_f32(float(i % 5) - 2.0f);
  for (int i = 0; i < s.n * s.k; ++i) w[std::size_t(i)] = float(i % 7) * 0.25f - 0.5f;
  const std::vector<double> y = reference_host(s, m, x.data(), w.data());
  ASSERT_EQ(y.size(), std::size_t(m * s.n));
  for (int r = 0; r < m; ++r)
    for (int j = 0; j < s.n; ++j) {
      double acc = 0;
      for (int c = 0; c < s.k; ++c) acc += double(float((r * s.k + c) % 5) - 2.0f) * (double((j * s.k + c) % 7) * 0.25 - 0.5);
      EXPECT_DOUBLE_EQ(y[std::size_t(r * s.n + j)], acc);
    }
}

TEST(LabReference, ProbeRowGivesScaledWeightColumnAndSliceIsRespected) {
  const ProjectionSpec& up = builtin_spec("unpooler");
  ProjectionSpec s = up;
  s.k = 64;  // small K, same slice rule (M <= 8 -> 1024 rows)
  const std::vector<float> w = weights_host(s, 1, s.n);
  uint64_t seed = 0;
  while (!is_probe_row(seed, 0)) ++seed;
  const std::vector<uint16_t> x = activations_host(1, s.k, seed);
  const std::vector<double> y = reference_host(s, 1, x.data(), w.data());
  ASSERT_EQ(y.size(), 1024u);
  const int64_t col = probe_col(seed, 0, s.k);
  const double v = probe_value(seed, 0);
  for (int j = 0; j < 1024; ++j) EXPECT_DOUBLE_EQ(y[std::size_t(j)], v * w[std::size_t(j * s.k + col)]);
}
