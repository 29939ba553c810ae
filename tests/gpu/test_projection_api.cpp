// Projection API on the GPU: argument errors never launch, plan fallback is loud,
// graph capture works, two Projections on two streams at once give right answers.
#include <cuda_bf16.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/method.hpp"
#include "lab_gpu_fixture.hpp"

using namespace projkit;

namespace {

struct DevMem {
  void* p = nullptr;
  explicit DevMem(size_t bytes) { cuda_check(cudaMalloc(&p, bytes), "cudaMalloc"); }
  ~DevMem() { cudaFree(p); }
};

std::vector<__nv_bfloat16> random_bf16(size_t n, unsigned seed, float scale) {
  std::mt19937 g(seed);
  std::normal_distribution<float> d(0.f, scale);
  std::vector<__nv_bfloat16> v(n);
  for (auto& e : v) e = __float2bfloat16(d(g));
  return v;
}

// Small custom family so the API tests stay quick: 64 x 256 bf16.
ProjectionSpec small_spec() {
  ProjectionSpec s;
  s.name = "small";
  s.n = 64;
  s.k = 256;
  return s;
}

std::vector<double> cpu_ref(const std::vector<__nv_bfloat16>& x, const std::vector<__nv_bfloat16>& w, int m, int n,
                            int k) {
  std::vector<double> y(size_t(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double acc = 0;
      for (int t = 0; t < k; ++t)
        acc += double(__bfloat162float(x[size_t(i) * k + t])) * double(__bfloat162float(w[size_t(j) * k + t]));
      y[size_t(i) * n + j] = acc;
    }
  return y;
}

double rel_l2(const std::vector<__nv_bfloat16>& y, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    double d = double(__bfloat162float(y[i])) - ref[i];
    num += d * d;
    den += ref[i] * ref[i];
  }
  return std::sqrt(num / den);
}
}  // namespace

TEST(ProjectionGpu, RunRejectsBadArgumentsWithoutLaunching) {
  PROJKIT_REQUIRE_SM90(nullptr);
  ProjectionSpec s = small_spec();
  DevMem w(s.weight_bytes()), x(16 * 256 * 2), y(16 * 64 * 2);
  ProjectionOptions o;
  o.max_m = 16;
  Projection p(s, w.p, Plan::safe(), o);
  EXPECT_EQ(p.run(x.p, 0, y.p, nullptr).code, StatusCode::invalid_argument);
  Status st = p.run(x.p, 17, y.p, nullptr);
  EXPECT_EQ(st.code, StatusCode::invalid_argument);
  EXPECT_NE(st.message.find("max_m=16"), std::string::npos);
  EXPECT_NE(p.run(nullptr, 1, y.p, nullptr).message.find("x pointer is null"), std::string::npos);
  EXPECT_NE(p.run(x.p, 1, nullptr, nullptr).message.find("y pointer is null"), std::string::npos);
  EXPECT_NE(p.run(static_cast<char*>(x.p) + 2, 1, y.p, nullptr).message.find("16-byte"), std::string::npos);
  EXPECT_NE(p.run(x.p, 1, static_cast<char*>(y.p) + 8, nullptr).message.find("16-byte"), std::string::npos);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// y sharing bytes with x or W would be read after it is written: refused by name, nothing launched.
TEST(ProjectionGpu, RunRefusesAnOutputOverlappingXOrTheWeights) {
  PROJKIT_REQUIRE_SM90(nullptr);
  ProjectionSpec s = small_spec();  // x [m, 256] bf16: 512 B per row; y [m, 64] bf16: 128 B per row
  ASSERT_EQ(s.x_bytes(2), 1024u);
  ASSERT_EQ(s.y_bytes(2), 256u);
  DevMem w(s.weight_bytes()), buf(s.x_bytes(2) + s.y_bytes(2));
  ProjectionOptions o;
  o.max_m = 4;
  Projection p(s, w.p, Plan::safe(), o);
  char* x = static_cast<char*>(buf.p);
  const char* w_bytes = static_cast<const char*>(w.p);
  Status st = p.run(x, 2, x, nullptr);  // in place
  EXPECT_EQ(st.code, StatusCode::invalid_argument);
  EXPECT_NE(st.message.find("y overlaps x"), std::string::npos) << st.message;
  st = p.run(x, 2, x + s.x_bytes(2) - 16, nullptr);  // y's first 16 bytes are x's last
  EXPECT_NE(st.message.find("y overlaps x"), std::string::npos) << st.message;
  st = p.run(x + 512, 1, x, nullptr);  // y before x: y [1, 64] is bytes 0..127, x [1, 256] starts at 512
  EXPECT_TRUE(st.ok()) << st.message;
  st = p.run(x, 2, x + s.x_bytes(2), nullptr);  // y right after x: no shared byte
  EXPECT_TRUE(st.ok()) << st.message;
  st = p.run(x, 1, const_cast<char*>(w_bytes) + s.weight_bytes() / 2, nullptr);  // y inside W
  EXPECT_EQ(st.code, StatusCode::invalid_argument);
  EXPECT_NE(st.message.find("y overlaps the weights"), std::string::npos) << st.message;
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST(ProjectionGpu, HostPointerWeightsAreRefused) {
  PROJKIT_REQUIRE_SM90(nullptr);
  alignas(16) static char host[64 * 256 * 2];
  try {
    Projection p(small_spec(), host, Plan::safe());
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not device memory"), std::string::npos);
  }
}

TEST(ProjectionGpu, InapplicableOrUnknownPlanMethodFallsBackToBaselineLoudly) {
  PROJKIT_REQUIRE_SM90(nullptr);
  ProjectionSpec s = small_spec();
  DevMem w(s.weight_bytes());
  Plan plan = Plan::safe();
  plan.source = "test";
  plan.families.push_back({"small", {PlanRange{1, 4, "no_such_kernel.a1", 0}, PlanRange{5, 8, "reference", 0}}});
  ProjectionOptions o;
  o.max_m = 8;
  Projection p(s, w.p, plan, o);
  EXPECT_EQ(p.method_name(1), "baseline");
  EXPECT_EQ(p.method_name(5), "reference");
  ASSERT_EQ(p.warnings().size(), 1u);
  EXPECT_NE(p.warnings()[0].find("no_such_kernel"), std::string::npos);
  o.strict_plan = true;
  EXPECT_THROW(Projection(s, w.p, plan, o), Error);
}

TEST(ProjectionGpu, GraphReplayAndTwoStreamsGiveRightAnswers) {
  PROJKIT_REQUIRE_SM90(nullptr);
  ProjectionSpec s = small_spec();
  const int m = 5;
  auto hw1 = random_bf16(size_t(s.n) * s.k, 1, 0.06f), hw2 = random_bf16(size_t(s.n) * s.k, 2, 0.06f);
  auto hx1 = random_bf16(size_t(m) * s.k, 3, 1.f), hx2 = random_bf16(size_t(m) * s.k, 4, 1.f);
  DevMem w1(s.weight_bytes()), w2(s.weight_bytes()), x1(hx1.size() * 2), x2(hx2.size() * 2), y1(m * 64 * 2),
      y2(m * 64 * 2);
  cudaMemcpy(w1.p, hw1.data(), s.weight_bytes(), cudaMemcpyHostToDevice);
  cudaMemcpy(w2.p, hw2.data(), s.weight_bytes(), cudaMemcpyHostToDevice);
  cudaMemcpy(x1.p, hx1.data(), hx1.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(x2.p, hx2.data(), hx2.size() * 2, cudaMemcpyHostToDevice);
  for (const char* method : {"baseline", "reference"}) {
    ProjectionOptions o;
    o.max_m = 8;
    Projection p1 = make_single_method_projection(s, w1.p, method, o);
    Projection p2 = make_single_method_projection(s, w2.p, method, o);
    cudaStream_t s1, s2;
    cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
    cudaMemset(y1.p, 0xff, m * 64 * 2);  // NaN poison
    cudaGraph_t g;
    cudaGraphExec_t ge;
    ASSERT_EQ(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal), cudaSuccess);
    ASSERT_TRUE(p1.run(x1.p, m, y1.p, s1).ok());
    ASSERT_EQ(cudaStreamEndCapture(s1, &g), cudaSuccess);
    ASSERT_EQ(cudaGraphInstantiate(&ge, g, 0), cudaSuccess);
    for (int r = 0; r < 3; ++r) {
      cudaMemsetAsync(y2.p, 0xff, m * 64 * 2, s2);
      ASSERT_EQ(cudaGraphLaunch(ge, s1), cudaSuccess);
      ASSERT_TRUE(p2.run(x2.p, m, y2.p, s2).ok());
    }
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<__nv_bfloat16> out1(size_t(m) * 64), out2(size_t(m) * 64);
    cudaMemcpy(out1.data(), y1.p, out1.size() * 2, cudaMemcpyDeviceToHost);
    cudaMemcpy(out2.data(), y2.p, out2.size() * 2, cudaMemcpyDeviceToHost);
    EXPECT_LT(rel_l2(out1, cpu_ref(hx1, hw1, m, 64, 256)), 1e-2) << method;
    EXPECT_LT(rel_l2(out2, cpu_ref(hx2, hw2, m, 64, 256)), 1e-2) << method;
    cudaGraphExecDestroy(ge);
    cudaGraphDestroy(g);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
  }
}

// A Projection belongs to one device: it prepares there whichever device is current, refuses
// weights of another device, and run() refuses to launch while another device is current (the
// launch would go to that GPU). Needs two sm_90 devices (nvidia-h100-x2 and larger machines).
TEST(ProjectionGpu, AProjectionPreparesAndRunsOnItsOwnDeviceOnly) {
  PROJKIT_REQUIRE_SM90(nullptr);
  int count = 0;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  if (count < 2) GTEST_SKIP() << "one CUDA device: the two-device test skipped";
  ASSERT_EQ(cudaSetDevice(1), cudaSuccess);
  if (!DeviceInfo::query(1).is_hopper_sm90()) GTEST_SKIP() << "device 1 is not sm_90: skipped";
  const ProjectionSpec s = small_spec();
  const int m = 3;
  const auto hw = random_bf16(size_t(s.n) * s.k, 11, 0.05f), hx = random_bf16(size_t(m) * s.k, 12, 1.0f);
  DevMem w1(s.weight_bytes()), x1(hx.size() * 2), y1(size_t(m) * s.n * 2);  // on device 1
  ASSERT_EQ(cudaMemcpy(w1.p, hw.data(), hw.size() * 2, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(x1.p, hx.data(), hx.size() * 2, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  ProjectionOptions o;
  o.max_m = 8;
  o.device = 1;
  {
    Projection p(s, w1.p, Plan::safe(), o);  // prepared on device 1 with device 0 current
    int current = -1;
    ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
    EXPECT_EQ(current, 0);  // the caller's device is restored
    const Status wrong = p.run(x1.p, m, y1.p, nullptr);
    EXPECT_EQ(wrong.code, StatusCode::invalid_argument);
    EXPECT_NE(wrong.message.find("prepared on device 1"), std::string::npos) << wrong.message;
    ASSERT_EQ(cudaSetDevice(1), cudaSuccess);
    ASSERT_TRUE(p.run(x1.p, m, y1.p, nullptr).ok());
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<__nv_bfloat16> hy(size_t(m) * s.n);
    ASSERT_EQ(cudaMemcpy(hy.data(), y1.p, hy.size() * 2, cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_LT(rel_l2(hy, cpu_ref(hx, hw, m, int(s.n), int(s.k))), 1e-2);
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  }  // destroyed with device 0 current: frees on device 1
  DevMem w0(s.weight_bytes());  // on device 0
  try {
    Projection p(s, w0.p, Plan::safe(), o);
    FAIL() << "weights of device 0 accepted by a Projection for device 1";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("weights are on device 0"), std::string::npos) << e.what();
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}
