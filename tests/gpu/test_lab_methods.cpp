// `baseline` and `reference` for all five families at the edge M values, within the
// numerical contract against the fp64 device reference, outputs poisoned with NaN
// and checked fully written; the shipped plan at its range edges, and under graph replay beside a
// second stream. Also: device reference == host reference on a small shape.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "core/method.hpp"
#include "lab/inputs.hpp"
#include "lab/metrics.hpp"
#include "lab/reference.hpp"
#include "lab_gpu_fixture.hpp"

using namespace projkit;
using namespace projkit::lab;

namespace {

const int kEdgeMs[] = {1, 2, 3, 7, 8, 9, 16, 31, 32, 33, 64, 127, 128, 255, 256};

constexpr int kMaxM = 256;

// Device buffers for x, y and the fp64 reference of up to kMaxM rows of spec.
struct CaseBuffers {
  DeviceBuffer x, y, ref, rows;
  explicit CaseBuffers(const ProjectionSpec& spec)
      : x(std::size_t(kMaxM) * std::size_t(spec.k) * 2),
        y(std::size_t(kMaxM) * std::size_t(spec.n) * dtype_bytes(spec.out_dtype)),
        ref(std::size_t(kMaxM) * std::size_t(spec.n) * sizeof(double)), rows(std::size_t(kMaxM) * sizeof(RowStats)) {}
};

// y (m rows of spec.out_cols(m)) against the fp64 reference of x (m rows) and W w: the contract's
// tolerance over every row and the whole output, every element written.
void expect_matches_reference(const ProjectionSpec& spec, int m, const void* w, CaseBuffers& b) {
  const int64_t n_out = spec.out_cols(m);
  reference_device(spec, m, b.x.get(), w, b.ref.as<double>(), nullptr);
  row_stats_device(b.y.get(), spec.out_dtype, b.ref.as<double>(), m, n_out, b.rows.as<RowStats>(), nullptr);
  std::vector<RowStats> host(static_cast<std::size_t>(m));
  ASSERT_EQ(cudaMemcpy(host.data(), b.rows.get(), host.size() * sizeof(RowStats), cudaMemcpyDeviceToHost),
            cudaSuccess);
  const Metrics r = summarize_rows(host, tolerance_for(spec));
  EXPECT_EQ(r.unwritten, 0);
  EXPECT_TRUE(r.pass) << r.reason;
}

// Runs `p` (serving spec) at every m of ms against the fp64 device reference.
void check_projection(const ProjectionSpec& spec, const Projection& p, const void* w, const std::vector<int>& ms) {
  CaseBuffers b(spec);
  for (int m : ms) {
    SCOPED_TRACE("M=" + std::to_string(m) + " method " + p.method_name(m));
    fill_activations(b.x.get(), m, spec.k, 100 + uint64_t(m), nullptr);
    poison_output(b.y.get(), std::size_t(m) * std::size_t(spec.out_cols(m)), spec.out_dtype, nullptr);
    const Status st = p.run(b.x.get(), m, b.y.get(), nullptr);
    ASSERT_TRUE(st.ok()) << st.message;
    expect_matches_reference(spec, m, w, b);
  }
}

void check_method(const std::string& method) {
  for (const ProjectionSpec& spec : builtin_specs()) {
    SCOPED_TRACE(spec.name + " / " + method);
    DeviceBuffer w(spec.weight_bytes());
    fill_weights(w.get(), spec, 11, nullptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    ProjectionOptions opts;
    opts.max_m = 256;
    const Projection p = make_single_method_projection(spec, w.get(), method, opts);
    check_projection(spec, p, w.get(), std::vector<int>(std::begin(kEdgeMs), std::end(kEdgeMs)));
  }
}

}  // namespace

TEST_F(LabGpu, BaselineMeetsContractAllFamilies) { check_method("baseline"); }
TEST_F(LabGpu, ReferenceMeetsContractAllFamilies) { check_method("reference"); }

// Every method the device's shipped plan uses, at the edge M values and at both ends of
// every plan range, through the plan's own Projection (no fallback warnings allowed).
TEST_F(LabGpu, ShippedPlanMeetsContractAtRangeEdges) {
  const Plan plan = Plan::for_device(0);
  if (plan.source == "builtin-safe") GTEST_SKIP() << "no shipped plan for this device";
  for (const ProjectionSpec& spec : builtin_specs()) {
    SCOPED_TRACE(spec.name + " / plan " + plan.source);
    std::vector<int> ms(std::begin(kEdgeMs), std::end(kEdgeMs));
    if (const auto* ranges = plan.ranges(spec.name))
      for (const PlanRange& r : *ranges)
        for (int m : {r.m_lo, r.m_hi})
          if (m <= 256 && std::find(ms.begin(), ms.end(), m) == ms.end()) ms.push_back(m);
    DeviceBuffer w(spec.weight_bytes());
    fill_weights(w.get(), spec, 12, nullptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const Projection p(spec, w.get(), plan);
    EXPECT_TRUE(p.warnings().empty()) << p.warnings().front();
    check_projection(spec, p, w.get(), ms);
  }
}

namespace {
// The check of ShippedPlanGraphReplayBesideASecondStream (below) for one plan: s1 replays the graph,
// s2 runs the second Projection.
void check_plan_beside_a_second_stream(const Plan& plan, cudaStream_t s1, cudaStream_t s2) {
  for (const ProjectionSpec& spec : builtin_specs()) {
    SCOPED_TRACE(spec.name + " / plan " + plan.source);
    std::vector<int> ms = {1, 8, 16, 32, 128, 256};
    if (const auto* ranges = plan.ranges(spec.name))
      for (const PlanRange& r : *ranges) ms.push_back(std::min((r.m_lo + r.m_hi) / 2, kMaxM));
    std::sort(ms.begin(), ms.end());
    ms.erase(std::unique(ms.begin(), ms.end()), ms.end());
    DeviceBuffer w1(spec.weight_bytes()), w2(spec.weight_bytes());
    fill_weights(w1.get(), spec, 13, nullptr);
    fill_weights(w2.get(), spec, 14, nullptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const Projection p1(spec, w1.get(), plan), p2(spec, w2.get(), plan);
    EXPECT_TRUE(p1.warnings().empty()) << p1.warnings().front();
    CaseBuffers b1(spec), b2(spec);
    for (int m : ms) {
      SCOPED_TRACE("M=" + std::to_string(m) + " method " + p1.method_name(m));
      const std::size_t out = std::size_t(m) * std::size_t(spec.out_cols(m));
      fill_activations(b1.x.get(), m, spec.k, 200 + uint64_t(m), nullptr);
      fill_activations(b2.x.get(), m, spec.k, 300 + uint64_t(m), nullptr);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      cudaGraph_t g;
      ASSERT_EQ(cudaStreamBeginCapture(s1, cudaStreamCaptureModeThreadLocal), cudaSuccess);
      const Status st = p1.run(b1.x.get(), m, b1.y.get(), s1);
      ASSERT_EQ(cudaStreamEndCapture(s1, &g), cudaSuccess);
      ASSERT_TRUE(st.ok()) << st.message;
      cudaGraphExec_t ge;
      ASSERT_EQ(cudaGraphInstantiate(&ge, g, 0), cudaSuccess);
      for (int rep = 0; rep < 3; ++rep) {
        poison_output(b1.y.get(), out, spec.out_dtype, s1);
        ASSERT_EQ(cudaGraphLaunch(ge, s1), cudaSuccess);
        poison_output(b2.y.get(), out, spec.out_dtype, s2);
        const Status st2 = p2.run(b2.x.get(), m, b2.y.get(), s2);
        ASSERT_TRUE(st2.ok()) << st2.message;
      }
      ASSERT_EQ(cudaStreamSynchronize(s1), cudaSuccess);
      ASSERT_EQ(cudaStreamSynchronize(s2), cudaSuccess);
      cudaGraphExecDestroy(ge);
      cudaGraphDestroy(g);
      {
        SCOPED_TRACE("graph-replayed Projection");
        expect_matches_reference(spec, m, w1.get(), b1);
      }
      {
        SCOPED_TRACE("second stream's Projection");
        expect_matches_reference(spec, m, w2.get(), b2);
      }
    }
  }
}
}  // namespace

// The shipped plans' Projections as a server runs them (the default set, and the serving set where
// the device has one). Per family, two Projections of the plan over two weight tensors; at each
// scored load M and at one M inside every plan range, the first is captured once in a CUDA graph
// and replayed three times on one stream while the second runs three times on another, interleaved,
// each output poisoned before each call; both outputs against the fp64 reference. Split-K flags,
// counters and workspaces belong to each prepared method, so neither the replays nor the other
// stream may disturb them. Dense/SplitkStream and Router/RouterFamily check this per kernel (the
// dense ones at M <= 64); here it is the plan's own methods at every M range, wgmma_tma's
// cooperative M 65..256 tiles included (session 61).
TEST_F(LabGpu, ShippedPlanGraphReplayBesideASecondStream) {
  PROJKIT_REQUIRE_SM90(nullptr);
  const DeviceInfo dev = DeviceInfo::query(0);
  std::vector<Plan> plans;
  for (std::string_view set : {std::string_view(""), Plan::kServingSet})
    if (!Plan::find_file(dev, set).empty()) plans.push_back(Plan::for_device_info(dev, false, set));
  std::erase_if(plans, [](const Plan& p) { return p.source == "builtin-safe"; });
  if (plans.empty()) GTEST_SKIP() << "no shipped plan for this device";
  cudaStream_t s1, s2;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), cudaSuccess);
  for (const Plan& plan : plans) check_plan_beside_a_second_stream(plan, s1, s2);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

TEST_F(LabGpu, DeviceReferenceEqualsHostReference) {
  for (DType wd : {DType::bf16, DType::f32}) {
    ProjectionSpec s;
    s.name = "small";
    s.n = 136;
    s.k = 200;
    s.weight_dtype = wd;
    s.out_dtype = wd;
    const int m = 70;
    const std::vector<uint16_t> x = activations_host(m, s.k, 5);
    const std::vector<float> wv = weights_host(s, 6, s.n);
    DeviceBuffer dx(x.size() * 2), dw(s.weight_bytes()), dy(std::size_t(m) * std::size_t(s.n) * sizeof(double));
    ASSERT_EQ(cudaMemcpy(dx.get(), x.data(), x.size() * 2, cudaMemcpyHostToDevice), cudaSuccess);
    if (wd == DType::f32) {
      ASSERT_EQ(cudaMemcpy(dw.get(), wv.data(), wv.size() * 4, cudaMemcpyHostToDevice), cudaSuccess);
    } else {
      std::vector<uint16_t> wb(wv.size());
      for (std::size_t i = 0; i < wv.size(); ++i) wb[i] = bf16_bits_from_f32(wv[i]);
      ASSERT_EQ(cudaMemcpy(dw.get(), wb.data(), wb.size() * 2, cudaMemcpyHostToDevice), cudaSuccess);
    }
    reference_device(s, m, dx.get(), dw.get(), dy.as<double>(), nullptr);
    std::vector<double> got(std::size_t(m) * std::size_t(s.n));
    ASSERT_EQ(cudaMemcpy(got.data(), dy.get(), got.size() * 8, cudaMemcpyDeviceToHost), cudaSuccess);
    const std::vector<double> want = reference_host(s, m, x.data(), wv.data());
    for (std::size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-12 * (1 + std::abs(want[i]))) << i;
  }
}

TEST_F(LabGpu, GeneratorsMatchHostAndPoisonIsDetected) {
  const int m = 17;
  const int64_t k = 256;
  DeviceBuffer dx(std::size_t(m) * k * 2);
  fill_activations(dx.get(), m, k, 77, nullptr);
  std::vector<uint16_t> got(std::size_t(m) * k);
  ASSERT_EQ(cudaMemcpy(got.data(), dx.get(), got.size() * 2, cudaMemcpyDeviceToHost), cudaSuccess);
  const std::vector<uint16_t> want = activations_host(m, k, 77);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < got.size(); ++i) differ += got[i] != want[i];
  EXPECT_LE(differ, got.size() / 1000);  // host/device libm may differ by an ulp before bf16 rounding
  // Probe rows are exact on both sides.
  for (int r = 0; r < m; ++r)
    if (is_probe_row(77, r))
      for (int64_t c = 0; c < k; ++c) EXPECT_EQ(got[std::size_t(r * k + c)], want[std::size_t(r * k + c)]);
  // A poisoned, never-written buffer is reported as unwritten everywhere.
  DeviceBuffer y(64 * 4), ref(64 * 8), rows(sizeof(RowStats));
  poison_output(y.get(), 64, DType::f32, nullptr);
  ASSERT_EQ(cudaMemset(ref.get(), 0, 64 * 8), cudaSuccess);
  row_stats_device(y.get(), DType::f32, ref.as<double>(), 1, 64, rows.as<RowStats>(), nullptr);
  RowStats h{};
  ASSERT_EQ(cudaMemcpy(&h, rows.get(), sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(h.unwritten, 64);
}
