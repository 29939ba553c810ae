// Counter-based random numbers and bf16 bit helpers shared by host and device.
// Every check/bench input is a pure function of (seed, stream, index), so the GPU
// generator and the host generator produce identical data and tests can replay it.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#ifdef __CUDACC__
#define PK_HD __host__ __device__ __forceinline__
#else
#define PK_HD inline
#endif

namespace projkit::lab {

// Independent random streams drawn from one seed.
enum class RandomStream : uint64_t { activation = 1, probe_pick = 2, probe_col = 3, probe_exp = 4, weight = 5 };

// splitmix64 finalizer over (seed, stream, index): statistically good, branch-free.
PK_HD uint64_t mix64(uint64_t seed, RandomStream stream, uint64_t index) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + (uint64_t(stream) << 56) + index * 0xD1B54A32D192ED03ull;
  z ^= z >> 30;
  z *= 0xBF58476D1CE4E5B9ull;
  z ^= z >> 27;
  z *= 0x94D049BB133111EBull;
  z ^= z >> 31;
  return z;
}

// Uniform in (0, 1): 53 random bits, never exactly 0 (safe for log).
PK_HD double uniform_open01(uint64_t bits) { return (double(bits >> 11) + 0.5) * (1.0 / 9007199254740992.0); }

// Standard normal from two draws (Box-Muller, cosine branch).
PK_HD double normal_from(uint64_t a, uint64_t b) {
  const double r = sqrt(-2.0 * log(uniform_open01(a)));
  return r * cos(6.283185307179586 * uniform_open01(b));
}

PK_HD uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
PK_HD float f32_from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
// fp32 -> bf16 bits, round to nearest even; NaN stays a (quiet) NaN.
PK_HD uint16_t bf16_bits_from_f32(float f) {
  const uint32_t u = f32_bits(f);
  if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu)) return uint16_t((u >> 16) | 0x0040u);
  return uint16_t((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}
PK_HD float f32_from_bf16_bits(uint16_t b) { return f32_from_bits(uint32_t(b) << 16); }

// ---------------------------------------------------------------- check inputs
// About one row in kProbeRowPeriod is a probe row: a single nonzero entry that is a
// power of two (sign random), at a random column. A probe row's output is exactly a
// scaled copy of one weight column, so lossy weight formats fail the per-row check.
inline constexpr uint64_t kProbeRowPeriod = 8;
inline constexpr int kProbeMinExp = -4, kProbeMaxExp = 4;

PK_HD bool is_probe_row(uint64_t seed, int64_t row) {
  return mix64(seed, RandomStream::probe_pick, uint64_t(row)) % kProbeRowPeriod == 0;
}
PK_HD int64_t probe_col(uint64_t seed, int64_t row, int64_t k) {
  return int64_t(mix64(seed, RandomStream::probe_col, uint64_t(row)) % uint64_t(k));
}
PK_HD float probe_value(uint64_t seed, int64_t row) {
  const uint64_t r = mix64(seed, RandomStream::probe_exp, uint64_t(row));
  const int e = kProbeMinExp + int(r % uint64_t(kProbeMaxExp - kProbeMinExp + 1));
  const float mag = ldexpf(1.0f, e);
  return ((r >> 32) & 1u) ? -mag : mag;
}

// Activation x[row, col] as bf16 bits: standard normal, or the probe pattern.
PK_HD uint16_t activation_bits(uint64_t seed, int64_t row, int64_t col, int64_t k) {
  if (is_probe_row(seed, row)) return col == probe_col(seed, row, k) ? bf16_bits_from_f32(probe_value(seed, row)) : 0;
  const uint64_t i = uint64_t(row * k + col);
  const double v = normal_from(mix64(seed, RandomStream::activation, 2 * i), mix64(seed, RandomStream::activation, 2 * i + 1));
  return bf16_bits_from_f32(float(v));
}

// Weight W[row, col] as an fp32 value: normal with std 1/sqrt(K) (the scale of a
// trained Linear layer); rounded to bf16 when the weights are stored as bf16.
PK_HD float weight_value(uint64_t seed, int64_t row, int64_t col, int64_t k, bool stored_bf16) {
  const uint64_t i = uint64_t(row * k + col);
  const double v = normal_from(mix64(seed, RandomStream::weight, 2 * i), mix64(seed, RandomStream::weight, 2 * i + 1)) /
                   sqrt(double(k));
  const float f = float(v);
  return stored_bf16 ? f32_from_bf16_bits(bf16_bits_from_f32(f)) : f;
}

}  // namespace projkit::lab
