// A DeviceInfo describing an H200 without touching the GPU: for tests of plan
// validation and applicability predicates that must run on CPU-only machines.
#pragma once

#include "projkit/projkit.hpp"

inline projkit::DeviceInfo fake_h200() {
  projkit::DeviceInfo d;
  d.name = "NVIDIA H200";
  d.cc_major = 9;
  d.cc_minor = 0;
  d.sm_count = 132;
  d.l2_bytes = std::size_t(60) << 20;
  d.smem_per_block_optin = 232448;
  d.runtime_version = 13000;
  d.cublas_version = 130100;
  return d;
}
