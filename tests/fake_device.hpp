// DeviceInfos describing an H200 (and an H100) without touching the GPU: for tests of plan
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

// The H100 SXM of plans/h100-80gb-hbm3.json (session 36): what the device machine's H100 reported
// (`projkit info`: 132 SMs, L2 50 MiB, the same opt-in smem as the H200).
inline projkit::DeviceInfo fake_h100() {
  projkit::DeviceInfo d = fake_h200();
  d.name = "NVIDIA H100 80GB HBM3";
  d.l2_bytes = std::size_t(50) << 20;
  return d;
}
