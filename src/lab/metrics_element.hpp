// Per-element error accounting shared by the host and device metric paths, so both
// classify and accumulate identically.
#pragma once

#include <cstdint>

#include "lab/inputs.hpp"
#include "lab/random.hpp"
#include "projkit/projkit.hpp"

namespace projkit::lab {

// Error sums for one output row (plain data: filled on the device, copied back;
// zero-initialize with RowStats{}).
struct RowStats {
  double err2;      // sum (y - ref)^2 over finite, written outputs
  double ref2;      // sum ref^2 over the whole row
  double max_abs;   // max |y - ref| over finite, written outputs
  long long nan;      // outputs that are NaN (not the poison payload)
  long long inf;      // outputs that are +-Inf
  long long unwritten;  // outputs still holding the poison payload
};

// Classes compared by the NaN/Inf propagation check.
enum ValueClass : int { kFinite = 0, kNaN = 1, kPosInf = 2, kNegInf = 3, kUnwritten = 4 };

// Reads y[i] (bf16 or fp32 bits) as a double; returns false when it is the poison payload.
PK_HD bool decode_output(const void* y, int64_t i, DType dtype, double& v) {
  if (dtype == DType::bf16) {
    const uint16_t b = static_cast<const uint16_t*>(y)[i];
    v = double(f32_from_bf16_bits(b));
    return b != kPoisonBf16;
  }
  const uint32_t u = static_cast<const uint32_t*>(y)[i];
  v = double(f32_from_bits(u));
  return u != kPoisonF32;
}

PK_HD int value_class(const void* y, int64_t i, DType dtype) {
  double v;
  if (!decode_output(y, i, dtype, v)) return kUnwritten;
  if (v != v) return kNaN;
  if (v > 1.7976931348623157e308) return kPosInf;
  if (v < -1.7976931348623157e308) return kNegInf;
  return kFinite;
}

PK_HD void accumulate_element(RowStats& s, const void* y, int64_t i, DType dtype, double ref) {
  s.ref2 += ref * ref;
  double v;
  if (!decode_output(y, i, dtype, v)) {
    ++s.unwritten;
    return;
  }
  if (v != v) {
    ++s.nan;
    return;
  }
  const double e = v - ref;
  if (v > 1.7976931348623157e308 || v < -1.7976931348623157e308) {
    ++s.inf;
    return;
  }
  s.err2 += e * e;
  const double a = e < 0 ? -e : e;
  if (a > s.max_abs) s.max_abs = a;
}

}  // namespace projkit::lab
