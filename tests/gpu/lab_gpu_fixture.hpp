// Shared GPU-test support: every GPU test skips visibly when there is no CUDA device
// (CI has none) or, for kernel tests, when the device is not an sm_90 GPU.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "projkit/projkit.hpp"

// True when device 0 is an sm_90 GPU (what projkit's kernels are built for); fills *dev
// when given. Clears the error a missing driver leaves behind.
inline bool have_sm90_gpu(projkit::DeviceInfo* dev = nullptr) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    cudaGetLastError();
    return false;
  }
  const projkit::DeviceInfo d = projkit::DeviceInfo::query(0);
  if (dev) *dev = d;
  return d.is_hopper_sm90();
}

// Skip the current test unless device 0 is an sm_90 GPU (dev_ptr: DeviceInfo* or nullptr).
#define PROJKIT_REQUIRE_SM90(dev_ptr) \
  if (!have_sm90_gpu(dev_ptr)) GTEST_SKIP() << "no sm_90 CUDA device: GPU test skipped"

class LabGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) GTEST_SKIP() << "no CUDA device: cudaGetDeviceCount: " << cudaGetErrorString(e);
    if (count == 0) GTEST_SKIP() << "no CUDA device: cudaGetDeviceCount returned 0";
  }
};
