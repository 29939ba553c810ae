// Router kernel families on the GPU (skips without an sm_90 GPU), one parameterized suite per
// family (router_hilo_stream, _wgmma, _ring, router_gemv_f32): every config at M around the
// token-tile edges that the config accepts, against the lab's fp64 device reference (y poisoned
// with NaN first, every element must be written, rel L2 <= 1e-4 globally and per row);
// non-finite propagation (a NaN row of x gives a NaN row of y; an Inf entry gives +-Inf, not
// NaN, where the weight column is nonzero); two replays of one captured CUDA graph (any zeroing
// is inside the call); for every config, two Projections on two streams at once. Families with
// a smaller M range (router_gemv_f32: M <= 8) run the same tests at M values they accept.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "lab/inputs.hpp"
#include "lab/metrics.hpp"
#include "lab/reference.hpp"
#include "lab_gpu_fixture.hpp"

namespace projkit {
namespace {

using namespace projkit::lab;

constexpr int kMaxM = 256;
const int kMs[] = {1, 2, 3, 7, 8, 9, 15, 16, 32, 33, 64, 65, 97, 100, 128, 129, 192, 193, 200, 255, 256};

struct Rig {
  const ProjectionSpec& spec = builtin_spec("router");
  DeviceBuffer w{spec.weight_bytes()};
  DeviceBuffer x{std::size_t(kMaxM) * std::size_t(spec.k) * 2};
  DeviceBuffer y{std::size_t(kMaxM) * std::size_t(spec.n) * 4};
  DeviceBuffer ref{std::size_t(kMaxM) * std::size_t(spec.n) * sizeof(double)};
  DeviceBuffer rows{std::size_t(kMaxM) * sizeof(RowStats)};
  Rig() {
    fill_weights(w.get(), spec, 21, nullptr);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
  // y (already computed on `st`) against the fp64 reference for the current x.
  Metrics check(int m, cudaStream_t st, const DeviceBuffer& yb) {
    reference_device(spec, m, x.get(), w.get(), ref.as<double>(), st);
    row_stats_device(yb.get(), DType::f32, ref.as<double>(), m, spec.n, rows.as<RowStats>(), st);
    std::vector<RowStats> host(static_cast<std::size_t>(m));
    EXPECT_EQ(cudaStreamSynchronize(st), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(host.data(), rows.get(), host.size() * sizeof(RowStats), cudaMemcpyDeviceToHost), cudaSuccess);
    return summarize_rows(host, tolerance_for(spec));
  }
};

// The parameter is the kernel family name; every test runs over all of its configs.
class RouterFamily : public ::testing::TestWithParam<const char*> {};

// `preferred` if the config accepts it, else the largest M <= `fallback` it accepts (0: none).
int pick_m(const KernelFamily* fam, const ProjectionSpec& spec, const Config& cfg, const DeviceInfo& dev,
           int preferred, int fallback) {
  if (fam->applicable(spec, cfg, preferred, preferred, dev).empty()) return preferred;
  for (int m = fallback; m >= 1; --m)
    if (fam->applicable(spec, cfg, m, m, dev).empty()) return m;
  return 0;
}

// The largest max_m a Projection of this config accepts (applicable over 1..max_m), 0 if none.
int max_m_of(const KernelFamily* fam, const ProjectionSpec& spec, const Config& cfg, const DeviceInfo& dev) {
  for (int m : {kMaxM, 192, 128, 64, 32, 16, 8})
    if (fam->applicable(spec, cfg, 1, m, dev).empty()) return m;
  return 0;
}

TEST_P(RouterFamily, AllConfigsMatchFp64Reference) {
  DeviceInfo dev;
  PROJKIT_REQUIRE_SM90(&dev);
  const KernelFamily* fam = find_kernel_family(GetParam());
  ASSERT_NE(fam, nullptr);
  Rig r;
  int tested = 0;
  for (const Config& cfg : fam->configs()) {
    const int max_m = max_m_of(fam, r.spec, cfg, dev);
    if (max_m == 0) continue;
    ++tested;
    auto pm = fam->prepare(PrepareContext{r.spec, r.w.get(), max_m, dev}, cfg);
    for (int m : kMs) {
      if (!fam->applicable(r.spec, cfg, m, m, dev).empty()) continue;  // split16: x slice fits TN <= 192 only
      SCOPED_TRACE(cfg.name() + " m=" + std::to_string(m));
      fill_activations(r.x.get(), m, r.spec.k, 300 + uint64_t(m), nullptr);
      poison_output(r.y.get(), std::size_t(m) * std::size_t(r.spec.n), DType::f32, nullptr);
      const Status s = pm->run(RunArgs{r.x.get(), m, r.spec.n, r.y.get(), nullptr});
      ASSERT_TRUE(s.ok()) << s.message;
      ASSERT_EQ(cudaGetLastError(), cudaSuccess);
      const Metrics mt = r.check(m, nullptr, r.y);
      EXPECT_EQ(mt.unwritten, 0);
      EXPECT_TRUE(mt.pass) << mt.reason << " rel_l2 " << mt.rel_l2 << " worst row " << mt.worst_row_rel_l2;
    }
  }
  EXPECT_GT(tested, 0);
}

// NaN in x: the whole y row is NaN. Inf in x[t][c]: y[t][n] = +-Inf with the sign of W[n][c]
// where W[n][c] != 0 (hi and lo carry the sign of w, so no Inf - Inf), NaN where it is 0.
TEST_P(RouterFamily, NonFinitePropagation) {
  DeviceInfo dev;
  PROJKIT_REQUIRE_SM90(&dev);
  const KernelFamily* fam = find_kernel_family(GetParam());
  ASSERT_NE(fam, nullptr);
  Rig r;
  const int64_t N = r.spec.n, K = r.spec.k;
  std::vector<float> wh(std::size_t(N) * K);  // the weights exactly as the kernel saw them
  ASSERT_EQ(cudaMemcpy(wh.data(), r.w.get(), wh.size() * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  int tested = 0;
  for (const Config& cfg : fam->configs()) {
    const int m = pick_m(fam, r.spec, cfg, dev, 129, 8);
    if (m < 7) continue;
    ++tested;
    SCOPED_TRACE(cfg.name() + " m=" + std::to_string(m));
    auto pm = fam->prepare(PrepareContext{r.spec, r.w.get(), m, dev}, cfg);
    const int nan_row = 5, inf_row = m - 1;
    const int64_t inf_col = 4097;  // inside the second half of a K split, not a chunk edge
    fill_activations(r.x.get(), m, K, 77, nullptr);
    ASSERT_EQ(cudaMemset(static_cast<uint8_t*>(r.x.get()) + nan_row * K * 2, 0xFF, std::size_t(K) * 2), cudaSuccess);
    set_activation(r.x.get(), inf_row * K + inf_col, INFINITY, nullptr);
    poison_output(r.y.get(), std::size_t(m) * std::size_t(N), DType::f32, nullptr);
    const Status s = pm->run(RunArgs{r.x.get(), m, N, r.y.get(), nullptr});
    ASSERT_TRUE(s.ok()) << s.message;
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<float> y(std::size_t(m) * N);
    ASSERT_EQ(cudaMemcpy(y.data(), r.y.get(), y.size() * 4, cudaMemcpyDeviceToHost), cudaSuccess);
    int bad_nan = 0, bad_inf = 0, bad_finite = 0;
    for (int t = 0; t < m; ++t)
      for (int64_t n = 0; n < N; ++n) {
        const float v = y[std::size_t(t) * N + n];
        if (t == nan_row) {
          bad_nan += !std::isnan(v);
        } else if (t == inf_row) {
          const float wv = wh[std::size_t(n) * K + inf_col];
          if (wv != 0.0f) bad_inf += !(std::isinf(v) && std::signbit(v) == std::signbit(wv));
          else bad_inf += !std::isnan(v);
        } else {
          bad_finite += !std::isfinite(v);
        }
      }
    EXPECT_EQ(bad_nan, 0) << "NaN row of x must give a NaN row of y";
    EXPECT_EQ(bad_inf, 0) << "Inf in x must give +-Inf (sign of w) where w != 0";
    EXPECT_EQ(bad_finite, 0) << "other rows must stay finite";
  }
  EXPECT_GT(tested, 0);
}

// One call captured in a graph, replayed twice on fresh activations and a re-poisoned y.
TEST_P(RouterFamily, GraphReplayTwice) {
  DeviceInfo dev;
  PROJKIT_REQUIRE_SM90(&dev);
  const KernelFamily* fam = find_kernel_family(GetParam());
  ASSERT_NE(fam, nullptr);
  Rig r;
  cudaStream_t st;
  ASSERT_EQ(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), cudaSuccess);
  int tested = 0;
  for (const Config& cfg : fam->configs()) {
    const int m = pick_m(fam, r.spec, cfg, dev, 200, 8);
    if (m == 0) continue;
    ++tested;
    SCOPED_TRACE(cfg.name() + " m=" + std::to_string(m));
    auto pm = fam->prepare(PrepareContext{r.spec, r.w.get(), m, dev}, cfg);
    cudaGraph_t g = nullptr;
    ASSERT_EQ(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal), cudaSuccess);
    const Status s = pm->run(RunArgs{r.x.get(), m, r.spec.n, r.y.get(), st});
    ASSERT_EQ(cudaStreamEndCapture(st, &g), cudaSuccess);
    ASSERT_TRUE(s.ok()) << s.message;
    cudaGraphExec_t ge = nullptr;
    ASSERT_EQ(cudaGraphInstantiate(&ge, g, 0), cudaSuccess);
    for (int rep = 0; rep < 2; ++rep) {
      SCOPED_TRACE("replay " + std::to_string(rep));
      fill_activations(r.x.get(), m, r.spec.k, 900 + uint64_t(rep), st);
      poison_output(r.y.get(), std::size_t(m) * std::size_t(r.spec.n), DType::f32, st);
      ASSERT_EQ(cudaGraphLaunch(ge, st), cudaSuccess);
      const Metrics mt = r.check(m, st, r.y);
      EXPECT_EQ(mt.unwritten, 0);
      EXPECT_TRUE(mt.pass) << mt.reason << " rel_l2 " << mt.rel_l2;
    }
    cudaGraphExecDestroy(ge);
    cudaGraphDestroy(g);
  }
  EXPECT_GT(tested, 0);
  cudaStreamDestroy(st);
}

// Two Projections (different weights, different M) running concurrently on two streams, for
// every config (token-sliced grids included).
TEST_P(RouterFamily, TwoProjectionsTwoStreams) {
  DeviceInfo dev;
  PROJKIT_REQUIRE_SM90(&dev);
  const KernelFamily* fam = find_kernel_family(GetParam());
  ASSERT_NE(fam, nullptr);
  const ProjectionSpec& spec = builtin_spec("router");
  Rig a, b;
  fill_weights(b.w.get(), spec, 22, nullptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaStream_t sa, sb;
  ASSERT_EQ(cudaStreamCreateWithFlags(&sa, cudaStreamNonBlocking), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithFlags(&sb, cudaStreamNonBlocking), cudaSuccess);
  int tested = 0;
  for (const Config& cfg : fam->configs()) {
    const int max_m = max_m_of(fam, spec, cfg, dev);
    if (max_m < 8) continue;
    const std::string method = cfg.name();
    SCOPED_TRACE(method);
    ++tested;
    ProjectionOptions opts;
    opts.max_m = max_m;
    const Projection pa = make_single_method_projection(spec, a.w.get(), method, opts);
    const Projection pb = make_single_method_projection(spec, b.w.get(), method, opts);
    const int ma = max_m, mb = max_m >= 128 ? 65 : max_m / 2 + 1;  // 256 / 65, or e.g. 8 / 5
    fill_activations(a.x.get(), ma, spec.k, 501, nullptr);
    fill_activations(b.x.get(), mb, spec.k, 502, nullptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int it = 0; it < 4; ++it) {  // interleaved launches; each call re-zeroes its own y
      ASSERT_TRUE(pa.run(a.x.get(), ma, a.y.get(), sa).ok());
      ASSERT_TRUE(pb.run(b.x.get(), mb, b.y.get(), sb).ok());
    }
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const Metrics ra = a.check(ma, nullptr, a.y), rb = b.check(mb, nullptr, b.y);
    EXPECT_TRUE(ra.pass) << method << " stream A: " << ra.reason;
    EXPECT_TRUE(rb.pass) << method << " stream B: " << rb.reason;
    EXPECT_EQ(ra.unwritten + rb.unwritten, 0);
  }
  EXPECT_GT(tested, 0);
  cudaStreamDestroy(sa);
  cudaStreamDestroy(sb);
}

// A Projection whose router plan runs method `lo` at M 1..lo_hi and `hi` at lo_hi+1..max_m, two
// methods that read one shared re-layout of W (8 MiB): it takes less than 1.5 copies of device
// memory, and both stay right (fp64 check) when run alternately at `ms`. The plan covers every m of
// the Projection, so no baseline method (cuBLAS handle and workspace) counts in the memory.
void expect_one_shared_copy(const std::string& lo, int lo_hi, const std::string& hi, int max_m,
                            std::initializer_list<int> ms, uint64_t seed) {
  Rig r;
  Plan plan = Plan::safe();
  plan.source = "test";
  plan.families.push_back({"router", {PlanRange{1, lo_hi, lo, 0}, PlanRange{lo_hi + 1, max_m, hi, 0}}});
  ProjectionOptions o;
  o.max_m = max_m;
  o.strict_plan = true;
  size_t free_before = 0, free_after = 0, total = 0;
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  ASSERT_EQ(cudaMemGetInfo(&free_before, &total), cudaSuccess);
  const Projection p(r.spec, r.w.get(), plan, o);
  ASSERT_EQ(cudaMemGetInfo(&free_after, &total), cudaSuccess);
  EXPECT_EQ(p.method_name(lo_hi), lo);
  EXPECT_EQ(p.method_name(lo_hi + 1), hi);
  const double used_mib = (double(free_before) - double(free_after)) / double(1 << 20);
  const double copy_mib = double(r.spec.n) * double(r.spec.k) * 4 / double(1 << 20);  // 8 MiB
  EXPECT_GE(used_mib, copy_mib * 0.99) << "the packed copy should exist";
  EXPECT_LT(used_mib, copy_mib * 1.5) << lo << " and " << hi << " should share one packed copy";
  for (int m : ms) {
    SCOPED_TRACE("m=" + std::to_string(m));
    fill_activations(r.x.get(), m, r.spec.k, seed + uint64_t(m), nullptr);
    poison_output(r.y.get(), std::size_t(m) * std::size_t(r.spec.n), DType::f32, nullptr);
    ASSERT_TRUE(p.run(r.x.get(), m, r.y.get(), nullptr).ok());
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const Metrics mt = r.check(m, nullptr, r.y);
    EXPECT_EQ(mt.unwritten, 0);
    EXPECT_TRUE(mt.pass) << mt.reason;
  }
}

// One packed copy of W per Projection (session 27): the plan's two router_hilo_stream tiles
// (kw8.wn2 at M 4..32, kw8.wn4 at 33..64) read the same hi / lo fragment layout, so a Projection
// with both holds it once (SharedLayouts, "router_hilo.fragments").
TEST(RouterLayouts, StreamTilesShareOnePackedCopy) {
  DeviceInfo dev;
  PROJKIT_REQUIRE_SM90(&dev);
  expect_one_shared_copy("router_hilo_stream.kw8.wn2.zw1", 32, "router_hilo_stream.kw8.wn4.zw1", 64, {8, 48, 1, 64},
                         700);
}

// One swizzled tile copy per Projection for the ring too (session 33): plan Z11b runs
// router_hilo_ring wmc1 and wmc1.lf1 (E101) on neighbouring ranges; both read the same
// pre-swizzled hi / lo tiles (SharedLayouts, "router_hilo_ring.tiles").
TEST(RouterLayouts, RingConfigsShareOnePackedCopy) {
  DeviceInfo dev;
  PROJKIT_REQUIRE_SM90(&dev);
  const std::string ring = "router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1";
  expect_one_shared_copy(ring, 100, ring + ".lf1", 256, {80, 128, 1, 256, 100}, 900);
}

INSTANTIATE_TEST_SUITE_P(Router, RouterFamily, ::testing::Values("router_hilo_stream", "router_hilo_wgmma", "router_hilo_ring",
                                           "router_gemv_f32"),
                         [](const ::testing::TestParamInfo<const char*>& i) { return std::string(i.param); });

}  // namespace
}  // namespace projkit
