// cublaslt family: config list / applicability (host only), and on an sm_90 GPU every
// config against an fp64 CPU reference on the four dense families (sampled rows incl. a
// probe row, the unpooler slice, 16-byte-aligned pointers), graph replay == eager run.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <vector>

#include "core/method.hpp"
#include "kernels/cublaslt_plan.hpp"
#include "../fake_device.hpp"
#include "lab_gpu_fixture.hpp"

using namespace projkit;

namespace {

struct DevMem {
  void* p = nullptr;
  explicit DevMem(size_t bytes) { cuda_check(cudaMalloc(&p, bytes), "cudaMalloc"); }
  // A device copy of host bf16 data.
  explicit DevMem(const std::vector<uint16_t>& h) : DevMem(h.size() * 2) {
    cuda_check(cudaMemcpy(p, h.data(), h.size() * 2, cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  ~DevMem() { cudaFree(p); }
};

uint16_t f2bf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return uint16_t(u >> 16);
}
double bf2d(uint16_t b) {
  uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// x rows with r % 8 == 3 are probe rows: one power-of-two entry, the rest zero.
std::vector<uint16_t> make_x(int rows, int64_t k, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<uint16_t> x(size_t(rows) * size_t(k), 0);
  for (int r = 0; r < rows; ++r) {
    if (r % 8 == 3) {
      x[size_t(r) * size_t(k) + size_t((int64_t(r) * 131) % k)] = f2bf(std::ldexp(1.f, r % 5 - 2));
      continue;
    }
    for (int64_t c = 0; c < k; ++c) x[size_t(r) * size_t(k) + size_t(c)] = f2bf(d(g));
  }
  return x;
}

std::vector<uint16_t> make_w(int64_t n, int64_t k, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-0.05f, 0.05f);
  std::vector<uint16_t> w(size_t(n) * size_t(k));
  for (auto& v : w) v = f2bf(d(g));
  return w;
}

// fp64 reference of one output row over all n W rows.
std::vector<double> ref_row(const std::vector<uint16_t>& x, const std::vector<uint16_t>& w, int64_t n_rows, int64_t k,
                            int row) {
  std::vector<double> xr(static_cast<size_t>(k)), out(static_cast<size_t>(n_rows));
  for (int64_t c = 0; c < k; ++c) xr[size_t(c)] = bf2d(x[size_t(row) * size_t(k) + size_t(c)]);
  for (int64_t n = 0; n < n_rows; ++n) {
    double acc = 0;
    const uint16_t* wr = &w[size_t(n) * size_t(k)];
    for (int64_t c = 0; c < k; ++c) acc += xr[size_t(c)] * bf2d(wr[c]);
    out[size_t(n)] = acc;
  }
  return out;
}

// Relative L2 error of one output row (its first n_out entries) against fp64.
double row_error(const std::vector<double>& ref, const uint16_t* y_row, int64_t n_out) {
  double num = 0, den = 0;
  for (int64_t n = 0; n < n_out; ++n) {
    const double d = bf2d(y_row[n]) - ref[size_t(n)];
    num += d * d;
    den += ref[size_t(n)] * ref[size_t(n)];
  }
  return std::sqrt(num / den);
}
}  // namespace

TEST(CublasLtPlan, ConfigsAreExplicitAndApplyToEveryDenseFamily) {
  const KernelFamily* kf = find_kernel_family("cublaslt");
  ASSERT_NE(kf, nullptr);
  const auto cfgs = kf->configs();
  ASSERT_GE(cfgs.size(), 8u);
  for (const Config& c : cfgs) {
    EXPECT_EQ(Config::parse(c.name()).name(), c.name());
    for (const char* fam : {"qkv", "o", "pooler", "unpooler"})
      EXPECT_EQ(kf->applicable(builtin_spec(fam), c, 1, 256, fake_h200()), "") << c.name() << " " << fam;
  }
}

TEST(CublasLtPlan, ApplicableNamesTheViolatedConstraint) {
  const KernelFamily* kf = find_kernel_family("cublaslt");
  ASSERT_NE(kf, nullptr);
  const Config ok = Config::parse("cublaslt.orient0.rank0");
  EXPECT_NE(kf->applicable(builtin_spec("router"), ok, 1, 8, fake_h200()).find("bf16"), std::string::npos);
  EXPECT_NE(kf->applicable(builtin_spec("qkv"), Config::parse("cublaslt.orient9.rank0"), 1, 8, fake_h200()).find("orient"),
            std::string::npos);
  EXPECT_NE(kf->applicable(builtin_spec("qkv"), Config::parse("cublaslt.orient0.rank99"), 1, 8, fake_h200()).find("rank"),
            std::string::npos);
  EXPECT_NE(kf->applicable(builtin_spec("qkv"), Config::parse("cublaslt.orient0.rank0.tile3"), 1, 8, fake_h200())
                .find("unknown config key"),
            std::string::npos);
  ProjectionSpec odd;
  odd.name = "odd";
  odd.n = 64;
  odd.k = 100;
  EXPECT_NE(kf->applicable(odd, ok, 1, 8, fake_h200()).find("K % 8"), std::string::npos);
  odd.k = 128;
  odd.n = 60;
  EXPECT_NE(kf->applicable(odd, ok, 1, 8, fake_h200()).find("N % 8"), std::string::npos);
  DeviceInfo old = fake_h200();
  old.cc_major = 7;
  EXPECT_NE(kf->applicable(builtin_spec("qkv"), ok, 1, 8, old).find("compute capability"), std::string::npos);
}

TEST(CublasLtPlan, EveryConfigMatchesFp64OnDenseFamilies) {
  PROJKIT_REQUIRE_SM90(nullptr);
  const KernelFamily* kf = find_kernel_family("cublaslt");
  const DeviceInfo dev = DeviceInfo::query(0);
  const int max_m = 64;
  for (const char* fam : {"qkv", "o", "pooler", "unpooler"}) {
    const ProjectionSpec& spec = builtin_spec(fam);
    const auto w = make_w(spec.n, spec.k, 7);
    const auto x = make_x(max_m, spec.k, 11);
    DevMem dw(w), dx(x), dx16(x.size() * 2 + 256), dy(size_t(max_m) * size_t(spec.n) * 2 + 256);
    // A second copy of x at an address that is only 16-byte aligned (the align16 table). It
    // lives in its own buffer: writing it into dx at +16 B would shift the first copy.
    void* x16 = static_cast<char*>(dx16.p) + 16;
    cudaMemcpy(x16, x.data(), x.size() * 2, cudaMemcpyHostToDevice);
    // The fp64 reference is per row, shared by every config and m.
    std::map<int, std::vector<double>> ref;
    for (int row : {0, 3, 7, 8, 63}) ref[row] = ref_row(x, w, spec.n, spec.k, row);
    for (const Config& c : kf->configs()) {
      std::unique_ptr<PreparedMethod> pm;
      try {
        pm = kf->prepare(PrepareContext{spec, dw.p, max_m, dev}, c);
      } catch (const Error& e) {
        ADD_FAILURE() << c.name() << " " << fam << ": " << e.what();
        continue;
      }
      for (int m : {1, 8, 9, 64}) {
        for (int aligned16 = 0; aligned16 < 2; ++aligned16) {
          if (aligned16 && m != 9) continue;
          const int64_t n_out = spec.out_cols(m);
          void* xp = aligned16 ? x16 : dx.p;
          void* yp = aligned16 ? static_cast<char*>(dy.p) + 16 : dy.p;
          cudaMemset(dy.p, 0xff, size_t(max_m) * size_t(spec.n) * 2 + 256);
          Status st = pm->run(RunArgs{xp, m, n_out, yp, nullptr});
          ASSERT_TRUE(st.ok()) << c.name() << " " << fam << " m=" << m << ": " << st.message;
          ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
          std::vector<uint16_t> y(size_t(m) * size_t(n_out) + 64);
          cudaMemcpy(y.data(), yp, y.size() * 2, cudaMemcpyDeviceToHost);
          for (int row : {0, 3, m - 1}) {
            if (row >= m) continue;
            const double e = row_error(ref.at(row), &y[size_t(row) * size_t(n_out)], n_out);
            EXPECT_LE(e, 1e-2) << c.name() << " " << fam << " m=" << m << " row=" << row << " a16=" << aligned16;
          }
          for (size_t i = size_t(m) * size_t(n_out); i < y.size(); ++i)
            ASSERT_EQ(y[i], 0xFFFF) << c.name() << " " << fam << " m=" << m << ": wrote past y[m, n_out]";
        }
      }
    }
  }
}

TEST(CublasLtPlan, GraphReplayEqualsEagerRunAndBadArgumentsAreRefused) {
  PROJKIT_REQUIRE_SM90(nullptr);
  const ProjectionSpec& spec = builtin_spec("qkv");
  const auto w = make_w(spec.n, spec.k, 5);
  const int m = 33;
  const auto x = make_x(m, spec.k, 6);
  DevMem dw(w), dx(x), dy1(size_t(m) * size_t(spec.n) * 2), dy2(size_t(m) * size_t(spec.n) * 2);
  ProjectionOptions o;
  o.max_m = 64;
  for (const char* method : {"cublaslt.orient0.rank2", "cublaslt.orient1.rank1"}) {
    Projection p = make_single_method_projection(spec, dw.p, method, o);
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    ASSERT_TRUE(p.run(dx.p, m, dy1.p, s).ok()) << method;
    cudaMemsetAsync(dy2.p, 0xff, size_t(m) * size_t(spec.n) * 2, s);
    cudaGraph_t g;
    cudaGraphExec_t ge;
    ASSERT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    ASSERT_TRUE(p.run(dx.p, m, dy2.p, s).ok()) << method;
    ASSERT_EQ(cudaStreamEndCapture(s, &g), cudaSuccess);
    ASSERT_EQ(cudaGraphInstantiate(&ge, g, 0), cudaSuccess);
    for (int r = 0; r < 3; ++r) ASSERT_EQ(cudaGraphLaunch(ge, s), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
    std::vector<uint16_t> y1(size_t(m) * size_t(spec.n)), y2(y1.size());
    cudaMemcpy(y1.data(), dy1.p, y1.size() * 2, cudaMemcpyDeviceToHost);
    cudaMemcpy(y2.data(), dy2.p, y2.size() * 2, cudaMemcpyDeviceToHost);
    EXPECT_EQ(std::memcmp(y1.data(), y2.data(), y1.size() * 2), 0) << method << ": replay differs from eager run";
    EXPECT_LE(row_error(ref_row(x, w, spec.n, spec.k, m - 1), &y2[size_t(m - 1) * size_t(spec.n)], spec.n), 1e-2)
        << method;
    EXPECT_EQ(p.run(dx.p, 0, dy1.p, s).code, StatusCode::invalid_argument);
    EXPECT_EQ(p.run(dx.p, 65, dy1.p, s).code, StatusCode::invalid_argument);
    EXPECT_EQ(p.run(static_cast<char*>(dx.p) + 8, 1, dy1.p, s).code, StatusCode::invalid_argument);
    cudaGraphExecDestroy(ge);
    cudaGraphDestroy(g);
    cudaStreamDestroy(s);
  }
}

// A qkv Projection with `ranges` as its plan (strict): the device memory its creation took (MiB),
// then each m of `ms` run in turn (alternating methods) against the fp64 reference on three rows.
double qkv_projection_mib_and_check(const std::vector<PlanRange>& ranges, int max_m, const std::vector<int>& ms,
                                    unsigned seed) {
  const ProjectionSpec& spec = builtin_spec("qkv");
  const auto w = make_w(spec.n, spec.k, seed);
  const auto x = make_x(max_m, spec.k, seed + 1);
  DevMem dw(w), dx(x), dy(size_t(max_m) * size_t(spec.n) * 2);
  Plan plan = Plan::safe();
  plan.source = "test";
  plan.families.push_back({"qkv", ranges});
  ProjectionOptions o;
  o.max_m = max_m;
  o.strict_plan = true;
  size_t free_before = 0, free_after = 0, total = 0;
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(cudaMemGetInfo(&free_before, &total), cudaSuccess);
  Projection p(spec, dw.p, plan, o);
  EXPECT_EQ(cudaMemGetInfo(&free_after, &total), cudaSuccess);
  for (const PlanRange& r : ranges) EXPECT_EQ(p.method_name(r.m_hi), r.method) << r.m_hi;
  for (int m : ms) {
    EXPECT_EQ(cudaMemset(dy.p, 0xff, size_t(max_m) * size_t(spec.n) * 2), cudaSuccess);
    EXPECT_TRUE(p.run(dx.p, m, dy.p, nullptr).ok()) << m;
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<uint16_t> y(size_t(m) * size_t(spec.n));
    cudaMemcpy(y.data(), dy.p, y.size() * 2, cudaMemcpyDeviceToHost);
    for (int row : {0, 3, m - 1})
      if (row < m)
        EXPECT_LE(row_error(ref_row(x, w, spec.n, spec.k, row), &y[size_t(row) * size_t(spec.n)], spec.n), 1e-2)
            << "m=" << m << " row=" << row << " (" << p.method_name(m) << ")";
  }
  return (double(free_before) - double(free_after)) / double(1 << 20);
}

// A plan with four cublaslt methods: they share the Projection's one 32 MiB workspace
// (SharedScratch) instead of holding 32 MiB each, and stay right when run alternately.
TEST(CublasLtPlan, MethodsOfOneProjectionShareOneWorkspace) {
  PROJKIT_REQUIRE_SM90(nullptr);
  const double used_mib = qkv_projection_mib_and_check(
      {PlanRange{1, 16, "cublaslt.orient0.rank1", 0}, PlanRange{17, 32, "cublaslt.orient1.rank1", 0},
       PlanRange{33, 48, "cublaslt.orient2.rank2", 0}, PlanRange{49, 64, "cublaslt.orient3.rank3", 0}},
      64, {9, 40, 9, 64, 20}, 21);
  EXPECT_LT(used_mib, 56.0) << "four cublaslt methods should share one 32 MiB workspace";
}

// The same sharing for re-layouts of W (SharedLayouts): two wgmma_tma ranges that read W's
// k-block slabs (wsl1, ledger E65) hold one N*K*2-byte copy between them, not one each, and both
// stay right when run alternately.
TEST(CublasLtPlan, KSlabMethodsOfOneProjectionShareOneCopy) {
  PROJKIT_REQUIRE_SM90(nullptr);
  const double used_mib = qkv_projection_mib_and_check(
      {PlanRange{1, 64, "wgmma_tma.bn128.bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl1", 0},
       PlanRange{65, 128, "wgmma_tma.bn128.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1.wsl1", 0}},
      128, {9, 100, 64, 128, 1}, 23);
  const ProjectionSpec& spec = builtin_spec("qkv");
  const double copy_mib = double(spec.n) * double(spec.k) * 2 / double(1 << 20);  // 36 MiB for qkv
  EXPECT_GE(used_mib, copy_mib * 0.99) << "the slab copy should exist";
  EXPECT_LT(used_mib, copy_mib * 1.5) << "two wsl1 methods should share one slab copy of W";
}

// Prepared for the plan's M ranges only: those m run, any other m is refused (not launched).
TEST(CublasLtPlan, PreparedOnlyForItsMRanges) {
  PROJKIT_REQUIRE_SM90(nullptr);
  const KernelFamily* kf = find_kernel_family("cublaslt");
  const DeviceInfo dev = DeviceInfo::query(0);
  const ProjectionSpec& spec = builtin_spec("o");
  const int max_m = 32;
  const auto w = make_w(spec.n, spec.k, 31);
  const auto x = make_x(max_m, spec.k, 32);
  DevMem dw(w), dx(x), dy(size_t(max_m) * size_t(spec.n) * 2);
  PrepareContext ctx{spec, dw.p, max_m, dev};
  ctx.m_ranges = {{2, 4}, {17, 17}};
  auto pm = kf->prepare(ctx, Config::parse("cublaslt.orient1.rank1"));
  for (int m : {2, 4, 17}) {
    ASSERT_TRUE(pm->run(RunArgs{dx.p, m, spec.out_cols(m), dy.p, nullptr}).ok()) << m;
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<uint16_t> y(size_t(m) * size_t(spec.n));
    cudaMemcpy(y.data(), dy.p, y.size() * 2, cudaMemcpyDeviceToHost);
    EXPECT_LE(row_error(ref_row(x, w, spec.n, spec.k, m - 1), &y[size_t(m - 1) * size_t(spec.n)], spec.n), 1e-2) << m;
  }
  for (int m : {1, 5, 16, 18, 32}) {
    const Status st = pm->run(RunArgs{dx.p, m, spec.out_cols(m), dy.p, nullptr});
    EXPECT_EQ(st.code, StatusCode::invalid_argument) << m;
    EXPECT_NE(st.message.find("outside the M ranges"), std::string::npos) << st.message;
  }
}
