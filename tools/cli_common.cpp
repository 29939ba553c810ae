// Shared CLI helpers (see cli_common.hpp).
#include "cli_common.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <limits>

#include "file_sha256.hpp"

namespace projkit::cli {

CLI::Option* add_device_option(CLI::App* sub, int& ordinal) {
  return sub->add_option("--device", ordinal, "CUDA device ordinal")->check(CLI::Range(0, std::numeric_limits<int>::max()));
}

DeviceInfo require_device(int ordinal) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess)
    throw Error(StatusCode::unsupported, std::string("no CUDA device: cudaGetDeviceCount: ") + cudaGetErrorString(e));
  if (count == 0) throw Error(StatusCode::unsupported, "no CUDA device: cudaGetDeviceCount returned 0");
  if (ordinal < 0 || ordinal >= count)
    throw Error(StatusCode::invalid_argument,
                "--device " + std::to_string(ordinal) + " out of range (" + std::to_string(count) + " devices)");
  return DeviceInfo::query(ordinal);
}

Plan load_plan(const std::string& arg, const DeviceInfo& dev) {
  // An explicit plan ("safe", "serving" or a file) is strict: a missing or bad one is an error.
  Plan p = arg.empty() ? Plan::for_device(dev.ordinal) : Plan::named(arg, dev, /*strict=*/true);
  for (const std::string& w : p.warnings) std::fprintf(stderr, "projkit: plan warning: %s\n", w.c_str());
  return p;
}

void describe_plan(lab::BenchEnv& env, const Plan& plan, const std::string& method, bool baseline_vs_baseline) {
  if (baseline_vs_baseline) {
    env.plan_source = "baseline-vs-baseline";
    return;
  }
  if (!method.empty()) {
    env.plan_source = "method:" + method;
    return;
  }
  env.plan_source = plan.source;
  std::error_code ec;
  if (std::filesystem::is_regular_file(plan.source, ec)) env.plan_sha256 = file_sha256_hex(plan.source);
}

Workload load_workload(const std::string& path) {
  return path.empty() ? Workload::builtin_default() : Workload::from_file(path);
}

void require_writable(const std::string& path, const std::string& option) {
  if (path.empty()) return;
  namespace fs = std::filesystem;
  const fs::path parent = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  std::error_code ec;
  if (!fs::is_directory(parent, ec))
    throw Error(StatusCode::invalid_argument, option + " '" + path + "': directory '" + parent.string() + "' does not exist");
  if (access(parent.c_str(), W_OK) != 0)
    throw Error(StatusCode::invalid_argument, option + " '" + path + "': directory '" + parent.string() + "' is not writable");
  if (fs::is_directory(path, ec)) throw Error(StatusCode::invalid_argument, option + " '" + path + "' is a directory");
}

void progress_line(const std::string& line) {
  if (isatty(STDERR_FILENO))
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
  else
    std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

void progress_done() {
  if (isatty(STDERR_FILENO)) std::fprintf(stderr, "\r\033[K");
}

}  // namespace projkit::cli
