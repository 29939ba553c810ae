// wgmma_tma correctness on the GPU: every config, on the four dense bf16 families, at M
// values around the token-tile edges, against a CPU fp64 reference.
// All token rows are checked (1 in 8 is a probe row: one power-of-two entry) on sampled
// output columns that include the N-tile edges; y is poisoned with NaN first and the part
// of the buffer past m * n_out must stay poisoned. Skips without an sm_90 GPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/method.hpp"
#include "lab_gpu_fixture.hpp"

namespace projkit {
namespace {

float bf2f(uint16_t b) {
  uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint16_t f2bf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7FFF + ((u >> 16) & 1);
  return uint16_t(u >> 16);
}

struct DeviceMem {
  void* p = nullptr;
  explicit DeviceMem(std::size_t bytes) { EXPECT_EQ(cudaMalloc(&p, bytes), cudaSuccess); }
  ~DeviceMem() { cudaFree(p); }
};

// Checks every config of `kernel` on family `spec_name` at each M of `ms` it is applicable to
// (configs applicable at none of them are skipped; at least one config must run), `repeats`
// launches per M (same prepared method); only configs whose name contains `name_has`.
void check_all_configs(const char* kernel, const char* spec_name, const std::vector<int>& ms, int repeats,
                       const std::string& name_has = "") {
  DeviceInfo dev;
  PROJKIT_REQUIRE_SM90(&dev);
  const KernelFamily* fam = find_kernel_family(kernel);
  ASSERT_NE(fam, nullptr);
  const ProjectionSpec& spec = builtin_spec(spec_name);
  const int64_t N = spec.n, K = spec.k;
  constexpr int kMaxM = 256;

  std::mt19937 rng(99);
  std::uniform_real_distribution<float> ud(-1.f, 1.f);
  std::vector<uint16_t> hw(std::size_t(N) * K), hx(std::size_t(kMaxM) * K);
  for (auto& v : hw) v = f2bf(ud(rng));
  for (int t = 0; t < kMaxM; ++t) {
    const bool probe = t % 8 == 3 || t == 127 || t == 128 || t == 255;
    for (int64_t k = 0; k < K; ++k) hx[std::size_t(t) * K + k] = probe ? 0 : f2bf(ud(rng));
    if (probe) hx[std::size_t(t) * K + (int64_t(t) * 131 + 7) % K] = f2bf(std::ldexp(1.0f, t % 7 - 3));
  }
  DeviceMem w(hw.size() * 2), x(hx.size() * 2);
  ASSERT_EQ(cudaMemcpy(w.p, hw.data(), hw.size() * 2, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(x.p, hx.data(), hx.size() * 2, cudaMemcpyHostToDevice), cudaSuccess);

  // Sampled columns: both edges and the middle of several 128-row N tiles, plus random ones.
  std::vector<int> cols;
  const int nt = int(N / 128);
  for (int t : {0, 1, 7, nt / 2, nt - 1})  // 7: last tile of the unpooler slice (1024 rows)
    for (int o : {0, 1, 63, 64, 127}) cols.push_back(t * 128 + o);
  std::uniform_int_distribution<int> cd(0, int(N) - 1);
  for (int i = 0; i < 24; ++i) cols.push_back(cd(rng));
  std::sort(cols.begin(), cols.end());
  cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
  const int nc = int(cols.size());
  std::vector<double> ref(std::size_t(kMaxM) * nc);
  {
    const int nth = int(std::max(1u, std::min(16u, std::thread::hardware_concurrency())));
    std::vector<std::thread> th;
    for (int ti = 0; ti < nth; ++ti)
      th.emplace_back([&, ti] {
        for (int t = ti; t < kMaxM; t += nth)
          for (int j = 0; j < nc; ++j) {
            double s = 0;
            for (int64_t k = 0; k < K; ++k)
              s += double(bf2f(hx[std::size_t(t) * K + k])) * double(bf2f(hw[std::size_t(cols[j]) * K + k]));
            ref[std::size_t(t) * nc + j] = s;
          }
      });
    for (auto& t : th) t.join();
  }

  const std::size_t y_elems = std::size_t(kMaxM) * N + 4096;
  DeviceMem y(y_elems * 2);
  std::vector<uint16_t> poison(y_elems, 0x7FC0), hy(y_elems);
  cudaStream_t st;
  ASSERT_EQ(cudaStreamCreate(&st), cudaSuccess);
  int tested = 0;
  for (const Config& cfg : fam->configs()) {
    if (cfg.name().find(name_has) == std::string::npos) continue;
    std::vector<int> cfg_ms;  // the M of `ms` this config takes (red5 grids: only where they are resident)
    for (int m : ms)
      if (fam->applicable(spec, cfg, m, m, dev).empty()) cfg_ms.push_back(m);
    if (cfg_ms.empty()) continue;
    ++tested;
    auto pm = fam->prepare(PrepareContext{spec, w.p, kMaxM, dev}, cfg);
    for (int m : cfg_ms)
    for (int rep = 0; rep < repeats; ++rep) {
      SCOPED_TRACE(cfg.name() + " m=" + std::to_string(m) + " launch " + std::to_string(rep));
      const int64_t n_out = spec.out_cols(m);
      ASSERT_EQ(cudaMemcpy(y.p, poison.data(), y_elems * 2, cudaMemcpyHostToDevice), cudaSuccess);
      Status s = pm->run(RunArgs{x.p, m, n_out, y.p, st});
      ASSERT_TRUE(s.ok()) << s.message;
      ASSERT_EQ(cudaStreamSynchronize(st), cudaSuccess);
      ASSERT_EQ(cudaMemcpy(hy.data(), y.p, y_elems * 2, cudaMemcpyDeviceToHost), cudaSuccess);
      std::size_t guard = 0, nonfinite = 0;
      for (std::size_t i = std::size_t(m) * n_out; i < y_elems; ++i) guard += hy[i] != 0x7FC0;
      for (std::size_t i = 0; i < std::size_t(m) * n_out; ++i) nonfinite += !std::isfinite(bf2f(hy[i]));
      EXPECT_EQ(guard, 0u) << "writes past y[m, n_out]";
      EXPECT_EQ(nonfinite, 0u) << "NaN/Inf (unwritten poison?) in y";
      double num = 0, den = 0, worst_row = 0;
      for (int t = 0; t < m; ++t) {
        double rn = 0, rd = 0;
        for (int j = 0; j < nc; ++j) {
          if (cols[j] >= n_out) continue;  // unpooler slice (m <= 8): only W rows [0, n_out) are computed
          const double r = ref[std::size_t(t) * nc + j], v = bf2f(hy[std::size_t(t) * n_out + cols[j]]);
          rn += (v - r) * (v - r);
          rd += r * r;
        }
        num += rn;
        den += rd;
        worst_row = std::max(worst_row, std::sqrt(rn / std::max(rd, 1e-30)));
      }
      EXPECT_LE(std::sqrt(num / den), 1e-2);
      EXPECT_LE(worst_row, 1e-2);
    }
  }
  EXPECT_GT(tested, 0);
  cudaStreamDestroy(st);
}

class WgmmaTmaFamily : public ::testing::TestWithParam<const char*> {};

TEST_P(WgmmaTmaFamily, AllConfigsMatchFp64Reference) {
  check_all_configs("wgmma_tma", GetParam(),
                    {1, 2, 7, 8, 9, 16, 17, 31, 32, 33, 64, 65, 72, 96, 127, 128, 129, 160, 192, 200, 255, 256}, 1);
}

INSTANTIATE_TEST_SUITE_P(Dense, WgmmaTmaFamily, ::testing::Values("qkv", "o", "pooler", "unpooler"));

// Split-K through L2 (red2, issue 6 E13): odd M around the token-tile edges, two launches
// per M (the second reuses the workspace slots the first wrote).
class WgmmaTmaRed2 : public ::testing::TestWithParam<const char*> {};

TEST_P(WgmmaTmaRed2, MatchFp64ReferenceAtOddM) {
  check_all_configs("wgmma_tma", GetParam(), {65, 127, 128, 129, 200, 255, 256}, 2, ".red2");
}

INSTANTIATE_TEST_SUITE_P(Dense, WgmmaTmaRed2, ::testing::Values("qkv", "o", "pooler", "unpooler"));

// bf16 partial tiles in the DSMEM pull (red4, E20): odd M around the token-tile edges, two
// launches per M; the fp64 bound (1e-2 over every row and the whole output) still holds with
// one bf16 rounding per split partial.
class WgmmaTmaRed4 : public ::testing::TestWithParam<const char*> {};

TEST_P(WgmmaTmaRed4, MatchFp64ReferenceAtOddM) {
  check_all_configs("wgmma_tma", GetParam(), {1, 9, 33, 65, 127, 128, 129, 191, 200, 255, 256}, 2, ".red4");
}

INSTANTIATE_TEST_SUITE_P(Dense, WgmmaTmaRed4, ::testing::Values("qkv", "o", "pooler", "unpooler"));

// bf16 atomics into a y zeroed by the zero warp (red5, E24): every M where a red5 grid is
// resident, three launches per M on one prepared method: the second and third only pass if
// the first left the flags at zero (and y is re-poisoned before each launch, so the zeroing
// is this call's own).
class WgmmaTmaRed5 : public ::testing::TestWithParam<const char*> {};

TEST_P(WgmmaTmaRed5, MatchFp64ReferenceAndResetFlags) {
  check_all_configs("wgmma_tma", GetParam(), {1, 8, 9, 17, 33, 63, 64, 65, 100, 128, 129, 192, 193, 255, 256}, 3,
                    ".red5");
}

INSTANTIATE_TEST_SUITE_P(Dense, WgmmaTmaRed5, ::testing::Values("qkv", "o", "pooler", "unpooler"));

}  // namespace
}  // namespace projkit
