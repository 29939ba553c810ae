// Environment facts from the CUDA runtime (no NVML needed).
#include "lab/env.hpp"

#include "core/method.hpp"

#ifndef PROJKIT_GIT_SHA
#define PROJKIT_GIT_SHA "unknown"
#endif

namespace projkit::lab {

BenchEnv collect_env(const DeviceInfo& dev) {
  BenchEnv e;
  e.gpu = dev.name;
  e.driver = dev.driver_version;
  e.cuda_runtime = dev.runtime_version;
  e.cublas = dev.cublas_version;
  int khz = 0;
  cuda_check(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev.ordinal), "cudaDeviceGetAttribute(clock rate)");
  e.sm_clock_mhz = khz / 1000;
  cuda_check(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, dev.ordinal),
             "cudaDeviceGetAttribute(memory clock rate)");
  e.mem_clock_mhz = khz / 1000;
  e.projkit_git_sha = PROJKIT_GIT_SHA;
  return e;
}

}  // namespace projkit::lab
