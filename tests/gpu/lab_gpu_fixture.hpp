// Shared fixture for the lab GPU tests: skips visibly without a CUDA device.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

class LabGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) GTEST_SKIP() << "no CUDA device: cudaGetDeviceCount: " << cudaGetErrorString(e);
    if (count == 0) GTEST_SKIP() << "no CUDA device: cudaGetDeviceCount returned 0";
  }
};
