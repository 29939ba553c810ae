// Every kernel family the library is built with is named by the GPU suite (tests/gpu). The GPU
// tests pick a family's configs by its name in a string literal ("splitk_mma_l2" in
// Dense/SplitkStream's list, "wgmma_tma:.red5", check_method("baseline")), so a family that no GPU
// test names is listed for `projkit tune` and `--method`, but ctest never checks it against the
// fp64 reference, under graph replay, on two streams or with NaN input. This runs without a GPU, so
// CI refuses a kernel family added without its GPU test. (Session 61 found one:
// splitk_mma_cluster, registered since the first kernels, was named by no GPU test.)
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/method.hpp"

using namespace projkit;

namespace {

// The text of every C++ / CUDA source in the GPU suite's directory.
std::vector<std::pair<std::string, std::string>> gpu_suite_sources() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e : std::filesystem::directory_iterator(PROJKIT_GPU_TEST_SOURCES)) {
    const std::string ext = e.path().extension().string();
    if (ext != ".cpp" && ext != ".cu" && ext != ".hpp") continue;
    std::ifstream f(e.path());
    std::stringstream ss;
    ss << f.rdbuf();
    out.emplace_back(e.path().filename().string(), ss.str());
  }
  return out;
}

// Does `text` hold a string literal that starts with `name` followed by the literal's end, a
// config key ('.') or a name filter (':')?
bool names_in_a_literal(const std::string& text, const std::string& name) {
  const std::string open = "\"" + name;
  for (std::size_t p = text.find(open); p != std::string::npos; p = text.find(open, p + 1)) {
    const std::size_t after = p + open.size();
    if (after < text.size() && (text[after] == '"' || text[after] == '.' || text[after] == ':')) return true;
  }
  return false;
}

}  // namespace

TEST(GpuSuiteCoverage, TheScanFindsWhatItLooksFor) {
  EXPECT_TRUE(names_in_a_literal(R"(Values("splitk_mma_l2", "x"))", "splitk_mma_l2"));
  EXPECT_TRUE(names_in_a_literal(R"(Values("wgmma_tma:.red5"))", "wgmma_tma"));
  EXPECT_TRUE(names_in_a_literal(R"(make("router_hilo_ring.split16.wgn1"))", "router_hilo_ring"));
  EXPECT_FALSE(names_in_a_literal(R"(Values("splitk_mma_l2"))", "splitk_mma"));  // a prefix only
  EXPECT_FALSE(names_in_a_literal("// splitk_mma_cluster in a comment", "splitk_mma_cluster"));
}

TEST(GpuSuiteCoverage, EveryKernelFamilyIsNamedByAGpuTest) {
  const auto sources = gpu_suite_sources();
  ASSERT_GE(sources.size(), 2u) << "no GPU test sources in " << PROJKIT_GPU_TEST_SOURCES;
  ASSERT_FALSE(kernel_families().empty());
  for (const KernelFamily* fam : kernel_families()) {
    bool named = false;
    for (const auto& [file, text] : sources) named = named || names_in_a_literal(text, fam->name);
    EXPECT_TRUE(named) << "kernel family " << fam->name << " is registered (src/core/registry.cpp) but no GPU test in "
                       << PROJKIT_GPU_TEST_SOURCES << " names it: add it to a GPU test that checks its configs";
  }
}
