// The small-M dense split-K kernel families on the GPU (parameter: the family), splitk_mma_l2 (fp32
// workspace + counters, last CTA finishes), splitk_mma_cluster (the same tiles, K split over a
// thread-block cluster, fp32 partials summed through DSMEM; in no GPU test before session 61),
// fragment_stream_mma (register-streamed A fragments, cluster DSMEM split-K) and wgmma_tma's red5
// configs (bf16 atomics, zero-warp flags), kperm_stream_mma (K-permuted fragments straight from
// row-major W, no split across CTAs), kperm_splitk_zw (the same fragments, K split over CTAs, bf16
// atomics into a y zeroed by a zero warp) and gemv_stream (SIMT GEMV, M <= 8; eq1 runs several row
// groups per block on the K = 8192 families): every config on the four dense bf16 families at M
// around the token-tile edges where the config is applicable (each config must run somewhere),
// against the lab's fp64 device reference (whole output, per row and global; ~1 in 8 rows is a
// probe row). y is poisoned first: every element of [m, n_out] must be written and nothing past it.
// Self-cleaning state is exercised by running every M in a row on one Projection, by two CUDA-graph
// replays in a row, by a NaN call followed by a clean call, and two Projections run concurrently on
// two streams. Skips without an sm_90 GPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "lab/inputs.hpp"
#include "lab/metrics.hpp"
#include "lab/reference.hpp"
#include "lab_gpu_fixture.hpp"

using namespace projkit;
using namespace projkit::lab;

namespace {

constexpr int kMaxM = 64;
const int kMs[] = {1, 2, 3, 7, 8, 9, 16, 17, 31, 32, 33, 48, 64};
const char* const kDense[] = {"qkv", "o", "pooler", "unpooler"};

class SplitkStream : public ::testing::TestWithParam<const char*> {};

// The configs of `param` = "kernel" or "kernel:text" (only the configs whose name contains text).
std::vector<std::string> family_configs(const char* param) {
  const std::string p(param);
  const std::size_t colon = p.find(':');
  const std::string kernel = p.substr(0, colon), has = colon == std::string::npos ? "" : p.substr(colon + 1);
  std::vector<std::string> names;
  const KernelFamily* fam = find_kernel_family(kernel);
  if (fam)
    for (const Config& c : fam->configs())
      if (c.name().find(has) != std::string::npos) names.push_back(c.name());
  return names;
}

// Buffers for checking one output of up to kMaxM x N.
struct Checker {
  const ProjectionSpec& spec;
  DeviceBuffer ref, rows, count;
  explicit Checker(const ProjectionSpec& s)
      : spec(s), ref(std::size_t(kMaxM) * std::size_t(s.n) * sizeof(double)), rows(kMaxM * sizeof(RowStats)),
        count(sizeof(long long)) {}
  // fp64 reference of x[m] (W w) into ref.
  void reference(int m, const void* x, const void* w) { reference_device(spec, m, x, w, ref.as<double>(), nullptr); }
  // y [m, n_out] (buffer of kMaxM x N, poisoned before the run) vs ref; returns the summary
  // with the untouched-tail check folded in.
  Metrics check(int m, const void* y, const double* r = nullptr) {
    const int64_t n_out = spec.out_cols(m);
    row_stats_device(y, spec.out_dtype, r ? r : ref.as<double>(), m, n_out, rows.as<RowStats>(), nullptr);
    std::vector<RowStats> host(static_cast<std::size_t>(m));
    EXPECT_EQ(cudaMemcpy(host.data(), rows.get(), host.size() * sizeof(RowStats), cudaMemcpyDeviceToHost),
              cudaSuccess);
    Metrics res = summarize_rows(host, tolerance_for(spec));
    const int64_t used = int64_t(m) * n_out, total = int64_t(kMaxM) * spec.n;
    count_written_device(static_cast<const uint16_t*>(y) + used, spec.out_dtype, total - used,
                         count.as<long long>(), nullptr);
    long long oob = 0;
    EXPECT_EQ(cudaMemcpy(&oob, count.get(), sizeof oob, cudaMemcpyDeviceToHost), cudaSuccess);
    add_oob_check(res, oob);
    return res;
  }
};

// bf16 x and y buffers of kMaxM rows of spec.
DeviceBuffer x_buffer(const ProjectionSpec& spec) { return DeviceBuffer(std::size_t(kMaxM) * std::size_t(spec.k) * 2); }
DeviceBuffer y_buffer(const ProjectionSpec& spec) { return DeviceBuffer(std::size_t(kMaxM) * std::size_t(spec.n) * 2); }

// One checked problem: W (seed), x of m rows (seed + 1), y, and the fp64 reference of x W^T.
struct Problem {
  DeviceBuffer w, x, y;
  Checker chk;
  Problem(const ProjectionSpec& spec, int m, uint64_t seed)
      : w(spec.weight_bytes()), x(x_buffer(spec)), y(y_buffer(spec)), chk(spec) {
    fill_weights(w.get(), spec, seed, nullptr);
    fill_activations(x.get(), m, spec.k, seed + 1, nullptr);
    chk.reference(m, x.get(), w.get());
  }
};

void poison(const ProjectionSpec& spec, void* y, cudaStream_t s) {
  poison_output(y, std::size_t(kMaxM) * std::size_t(spec.n), spec.out_dtype, s);
}

std::unique_ptr<Projection> make(const ProjectionSpec& spec, const void* w, const std::string& method, int max_m) {
  ProjectionOptions opts;
  opts.max_m = max_m;
  return std::make_unique<Projection>(make_single_method_projection(spec, w, method, opts));
}

// Is config c applicable to spec at every M in ms (on this device)?
bool applicable(const ProjectionSpec& spec, const std::string& c, std::initializer_list<int> ms) {
  const DeviceInfo dev = DeviceInfo::query(0);
  for (int m : ms)
    if (!method_applicability(spec, c, m, m, dev).empty()) return false;
  return true;
}

TEST_P(SplitkStream, AllConfigsMatchFp64Reference) {
  PROJKIT_REQUIRE_SM90(nullptr);
  const DeviceInfo dev = DeviceInfo::query(0);
  const std::vector<std::string> cfgs = family_configs(GetParam());
  ASSERT_FALSE(cfgs.empty()) << GetParam() << " not registered";
  std::vector<int> runs(cfgs.size(), 0);  // checked (family, M) cases per config
  for (const char* fname : kDense) {
    const ProjectionSpec& spec = builtin_spec(fname);
    SCOPED_TRACE(spec.name);
    DeviceBuffer w(spec.weight_bytes()), x = x_buffer(spec), y = y_buffer(spec);
    fill_weights(w.get(), spec, 21, nullptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<std::unique_ptr<Projection>> ps;
    for (const std::string& c : cfgs) {
      int m_hi = 0;  // the largest M of kMs the config takes here (configs cover 1..m_hi)
      for (int m : kMs)
        if (method_applicability(spec, c, 1, m, dev).empty()) m_hi = m;
      if (m_hi == 0) {
        ps.push_back(nullptr);
        continue;
      }
      ps.push_back(make(spec, w.get(), c, m_hi));
    }
    Checker chk(spec);
    for (int m : kMs) {
      fill_activations(x.get(), m, spec.k, 300 + uint64_t(m), nullptr);
      chk.reference(m, x.get(), w.get());
      for (std::size_t i = 0; i < ps.size(); ++i) {
        if (!ps[i] || m > ps[i]->max_m()) continue;
        ++runs[i];
        SCOPED_TRACE(cfgs[i] + " M=" + std::to_string(m));
        poison(spec, y.get(), nullptr);
        const Status st = ps[i]->run(x.get(), m, y.get(), nullptr);
        ASSERT_TRUE(st.ok()) << st.message;
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        const Metrics r = chk.check(m, y.get());
        EXPECT_TRUE(r.pass) << r.reason;
        EXPECT_EQ(r.unwritten, 0);
        EXPECT_EQ(r.oob_writes, 0);
      }
    }
  }
  for (std::size_t i = 0; i < cfgs.size(); ++i) EXPECT_GT(runs[i], 0) << cfgs[i] << " never applicable";
}

// Two replays of one captured call in a row: the second only passes if the first left the
// workspace and counters clean. qkv M = 9 (full N) and unpooler M = 7 (the 1024-row slice).
TEST_P(SplitkStream, GraphReplayedTwiceStaysCorrect) {
  PROJKIT_REQUIRE_SM90(nullptr);
  const std::vector<std::string> cfgs = family_configs(GetParam());
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  for (auto [fname, m] : {std::pair<const char*, int>{"qkv", 9}, {"unpooler", 7}}) {
    const ProjectionSpec& spec = builtin_spec(fname);
    Problem pr(spec, m, 22);
    auto &w = pr.w, &x = pr.x, &y = pr.y;
    Checker& chk = pr.chk;
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (const std::string& c : cfgs) {
      if (!applicable(spec, c, {m})) continue;
      SCOPED_TRACE(spec.name + " " + c + " M=" + std::to_string(m));
      const auto p = make(spec, w.get(), c, m);
      cudaGraph_t g;
      ASSERT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), cudaSuccess);
      const Status st = p->run(x.get(), m, y.get(), s);
      ASSERT_EQ(cudaStreamEndCapture(s, &g), cudaSuccess);
      ASSERT_TRUE(st.ok()) << st.message;
      cudaGraphExec_t ge;
      ASSERT_EQ(cudaGraphInstantiate(&ge, g, 0), cudaSuccess);
      for (int rep = 0; rep < 2; ++rep) {
        poison(spec, y.get(), s);
        ASSERT_EQ(cudaGraphLaunch(ge, s), cudaSuccess);
        ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
        const Metrics r = chk.check(m, y.get());
        EXPECT_TRUE(r.pass) << "replay " << rep << ": " << r.reason;
        EXPECT_EQ(r.oob_writes, 0);
      }
      cudaGraphExecDestroy(ge);
      cudaGraphDestroy(g);
    }
  }
  cudaStreamDestroy(s);
}

// Two Projections (same config, different weights) running at once on two streams, three calls
// each interleaved: each owns its workspace, so both stay correct. qkv at M = 17 and 33, or at
// M = 3 and 8 for configs whose x slice only fits smem at small M; configs that take no qkv M (the
// slice's fragment_stream_zw) run on the unpooler's slice at M = 3 and 8.
TEST_P(SplitkStream, TwoProjectionsOnTwoStreams) {
  PROJKIT_REQUIRE_SM90(nullptr);
  cudaStream_t s1, s2;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), cudaSuccess);
  std::vector<std::string> tested;
  for (const char* fname : {"qkv", "unpooler"}) {
    const ProjectionSpec& spec = builtin_spec(fname);
    DeviceBuffer wa(spec.weight_bytes()), wb(spec.weight_bytes());
    DeviceBuffer xa = x_buffer(spec), xb = x_buffer(spec), ya = y_buffer(spec), yb = y_buffer(spec);
    fill_weights(wa.get(), spec, 31, nullptr);
    fill_weights(wb.get(), spec, 32, nullptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (const std::string& c : family_configs(GetParam())) {
      if (std::find(tested.begin(), tested.end(), c) != tested.end()) continue;
      const bool wide = applicable(spec, c, {17, 33});
      if (!wide && !applicable(spec, c, {3, 8})) continue;
      const int ma = wide ? 17 : 3, mb = wide ? 33 : 8;
      SCOPED_TRACE(spec.name + " " + c + " M=" + std::to_string(ma) + "," + std::to_string(mb));
      fill_activations(xa.get(), ma, spec.k, 33, nullptr);
      fill_activations(xb.get(), mb, spec.k, 34, nullptr);
      Checker ca(spec), cb(spec);
      ca.reference(ma, xa.get(), wa.get());
      cb.reference(mb, xb.get(), wb.get());
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      const auto pa = make(spec, wa.get(), c, mb);
      const auto pb = make(spec, wb.get(), c, mb);
      poison(spec, ya.get(), s1);
      poison(spec, yb.get(), s2);
      for (int rep = 0; rep < 3; ++rep) {
        ASSERT_TRUE(pa->run(xa.get(), ma, ya.get(), s1).ok());
        ASSERT_TRUE(pb->run(xb.get(), mb, yb.get(), s2).ok());
      }
      ASSERT_EQ(cudaStreamSynchronize(s1), cudaSuccess);
      ASSERT_EQ(cudaStreamSynchronize(s2), cudaSuccess);
      const Metrics ra = ca.check(ma, ya.get()), rb = cb.check(mb, yb.get());
      EXPECT_TRUE(ra.pass) << "stream 1: " << ra.reason;
      EXPECT_TRUE(rb.pass) << "stream 2: " << rb.reason;
      tested.push_back(c);
    }
  }
  EXPECT_GT(tested.size(), 0u);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

// NaN in x row 2 makes y row 2 all NaN (fp32 adds propagate it) and leaves the other rows
// finite; the next clean call is correct again (the NaN workspace tile was reset). The pooler at
// M = 8, or the unpooler's slice for configs that take no pooler M 8.
TEST_P(SplitkStream, NanPropagatesAndDoesNotPersist) {
  PROJKIT_REQUIRE_SM90(nullptr);
  const int m = 8;
  std::vector<std::string> tested;
  for (const char* fname : {"pooler", "unpooler"}) {
    const ProjectionSpec& spec = builtin_spec(fname);
    const int64_t n_out = spec.out_cols(m);
    Problem pr(spec, m, 41);
    auto &w = pr.w, &x = pr.x, &y = pr.y;
    Checker& chk = pr.chk;
    for (const std::string& c : family_configs(GetParam())) {
      if (std::find(tested.begin(), tested.end(), c) != tested.end() || !applicable(spec, c, {m})) continue;
      SCOPED_TRACE(spec.name + " " + c);
      tested.push_back(c);
      const auto p = make(spec, w.get(), c, m);
      set_activation(x.get(), 2 * spec.k + 77, std::numeric_limits<float>::quiet_NaN(), nullptr);
      poison(spec, y.get(), nullptr);
      ASSERT_TRUE(p->run(x.get(), m, y.get(), nullptr).ok());
      std::vector<uint16_t> host(std::size_t(m) * std::size_t(n_out));
      ASSERT_EQ(cudaMemcpy(host.data(), y.get(), host.size() * 2, cudaMemcpyDeviceToHost), cudaSuccess);
      long long row2_not_nan = 0, other_nonfinite = 0;
      for (int t = 0; t < m; ++t)
        for (int64_t n = 0; n < n_out; ++n) {
          const uint16_t b = host[std::size_t(t) * std::size_t(n_out) + std::size_t(n)];
          const bool nan = (b & 0x7F80) == 0x7F80 && (b & 0x007F) != 0;
          const bool finite = (b & 0x7F80) != 0x7F80;
          if (t == 2) row2_not_nan += !nan || b == kPoisonBf16;  // the poison is a NaN too
          else other_nonfinite += !finite;
        }
      EXPECT_EQ(row2_not_nan, 0);
      EXPECT_EQ(other_nonfinite, 0);
      // Restore x (regenerate: the generator is deterministic) and call again.
      fill_activations(x.get(), m, spec.k, 42, nullptr);
      poison(spec, y.get(), nullptr);
      ASSERT_TRUE(p->run(x.get(), m, y.get(), nullptr).ok());
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      const Metrics r = chk.check(m, y.get());
      EXPECT_TRUE(r.pass) << "after NaN call: " << r.reason;
    }
  }
  EXPECT_GT(tested.size(), 0u);
}

// The lean prologue's kernels (lp1, E90) assume what applicable() checks: splitk_mma_l2's take the
// tile from blockIdx.x and all of K (split 1), gemv_stream's read x unguarded within whole batches.
// A family's prepare, called directly with a config applicable() refuses, refuses it too instead of
// building a method that would write past y or read past x.
TEST(LeanPrologue, PrepareRefusesWhatItsKernelsCannotRun) {
  PROJKIT_REQUIRE_SM90(nullptr);
  const DeviceInfo dev = DeviceInfo::query(0);
  const ProjectionSpec& o = builtin_spec("o");
  DeviceBuffer wo(o.weight_bytes());
  const KernelFamily* l2 = find_kernel_family("splitk_mma_l2");
  ASSERT_NE(l2, nullptr);
  EXPECT_THROW(l2->prepare(PrepareContext{o, wo.get(), 8, dev}, Config::parse("splitk_mma_l2.rows64.split2.lp1")),
               Error);
  EXPECT_THROW(l2->prepare(PrepareContext{o, wo.get(), 8, dev}, Config::parse("splitk_mma_l2.rows64.split0.lp1")),
               Error);
  EXPECT_NE(l2->prepare(PrepareContext{o, wo.get(), 8, dev}, Config::parse("splitk_mma_l2.rows64.split1.lp1")),
            nullptr);
  const ProjectionSpec& up = builtin_spec("unpooler");  // K / 8 = 512: not whole 1024-chunk batches
  DeviceBuffer wu(up.weight_bytes());
  const KernelFamily* gemv = find_kernel_family("gemv_stream");
  ASSERT_NE(gemv, nullptr);
  EXPECT_THROW(gemv->prepare(PrepareContext{up, wu.get(), 1, dev}, Config::parse("gemv_stream.rows2.warps8.lp1")),
               Error);
  EXPECT_NE(gemv->prepare(PrepareContext{up, wu.get(), 1, dev}, Config::parse("gemv_stream.rows4.warps8.lp1")),
            nullptr);
}

// fragment_stream_zw runs tokens in groups of 8; the built-in families never give it more than one
// (it takes only the unpooler's slice, M <= 8). A slice of 16 tokens (the unpooler's W with
// slice_max_m = 16) makes M 9..16 take the second group: x re-staged, the weight registers reused,
// the partials' smem rewritten only after every add of the first group. Every tile, against the
// fp64 reference, y poisoned, on one Projection M after M.
TEST(FragmentStreamZw, SecondTokenGroupMatchesFp64Reference) {
  PROJKIT_REQUIRE_SM90(nullptr);
  ProjectionSpec spec = builtin_spec("unpooler");
  spec.name = "unpooler_slice16";
  spec.slice_max_m = 16;
  DeviceBuffer w(spec.weight_bytes()), x = x_buffer(spec), y = y_buffer(spec);
  fill_weights(w.get(), spec, 51, nullptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const DeviceInfo dev = DeviceInfo::query(0);
  Checker chk(spec);
  const std::vector<std::string> cfgs = family_configs("fragment_stream_zw");
  ASSERT_FALSE(cfgs.empty());
  for (const std::string& c : cfgs) {
    ASSERT_EQ(method_applicability(spec, c, 1, 16, dev), "") << c;
    const auto p = make(spec, w.get(), c, 16);
    for (int m : {8, 9, 13, 16}) {
      SCOPED_TRACE(c + " M=" + std::to_string(m));
      fill_activations(x.get(), m, spec.k, 520 + uint64_t(m), nullptr);
      chk.reference(m, x.get(), w.get());
      poison(spec, y.get(), nullptr);
      const Status st = p->run(x.get(), m, y.get(), nullptr);
      ASSERT_TRUE(st.ok()) << st.message;
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      const Metrics r = chk.check(m, y.get());
      EXPECT_TRUE(r.pass) << r.reason;
      EXPECT_EQ(r.unwritten, 0);
      EXPECT_EQ(r.oob_writes, 0);
    }
  }
}

// wgmma_tma red5 (bf16 atomics into a y zeroed by the zero warp, flags per prepared method,
// cooperative launch) joins for the same checks, two Projections on two streams included.
INSTANTIATE_TEST_SUITE_P(Dense, SplitkStream,
                         ::testing::Values("splitk_mma_l2", "splitk_mma_cluster", "fragment_stream_mma",
                                           "wgmma_tma:.red5", "kperm_stream_mma", "gemv_stream", "kperm_splitk_zw",
                                           "fragment_stream_zw"));

}  // namespace
