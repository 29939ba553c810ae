// The environment a measurement was taken in (recorded in every bench JSON).
#pragma once

#include <string>

#include "projkit/projkit.hpp"

namespace projkit::lab {

struct BenchEnv {
  std::string gpu;
  int driver = 0;          // cudaDriverGetVersion
  int sm_clock_mhz = 0;    // peak SM clock (cudaDevAttrClockRate)
  int mem_clock_mhz = 0;   // peak memory clock (cudaDevAttrMemoryClockRate)
  int cuda_runtime = 0;    // cudaRuntimeGetVersion
  int cublas = 0;          // cublasLtGetVersion
  std::string projkit_git_sha;
  std::string plan_source;  // plan file path, "builtin-safe", or "method:<name>"
  std::string plan_sha256;  // sha256 of the plan file ("" when there is no file)
  std::string flush = "write";  // L2 flush mode of the timing (lab/timing.hpp)
  std::string floor_fill = "zero";  // what the floor probe's buffer holds (lab/floor.hpp, FloorFill)
  std::string ballast;  // bench's diagnostics (--cand-own-w, --ballast; ledger P41), "" when none (then not written)
};

// Device facts for env (plan fields left empty).
BenchEnv collect_env(const DeviceInfo& dev);

}  // namespace projkit::lab
