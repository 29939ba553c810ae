// Device facts come from the device (cudaGetDeviceProperties), never hard-coded.
#include <cublasLt.h>

#include "core/method.hpp"

namespace projkit {

DeviceInfo DeviceInfo::query(int ordinal) {
  DeviceInfo d;
  if (ordinal < 0) cuda_check(cudaGetDevice(&ordinal), "cudaGetDevice");
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, ordinal), "cudaGetDeviceProperties");
  d.ordinal = ordinal;
  d.name = prop.name;
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.sm_count = prop.multiProcessorCount;
  d.l2_bytes = std::size_t(prop.l2CacheSize);
  d.smem_per_block_optin = prop.sharedMemPerBlockOptin;
  cudaRuntimeGetVersion(&d.runtime_version);
  cudaDriverGetVersion(&d.driver_version);
  d.cublas_version = int(cublasLtGetVersion());
  return d;
}

}  // namespace projkit
