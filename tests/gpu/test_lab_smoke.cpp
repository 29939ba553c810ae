// Smoke tests of bench, check, tune and the floor probe on one small case each.
// No timing assertions: tests check, benchmarks measure.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "lab/bench.hpp"
#include "lab/check.hpp"
#include "lab/report.hpp"
#include "lab/tune.hpp"
#include "lab_gpu_fixture.hpp"

using namespace projkit;
using namespace projkit::lab;

TEST_F(LabGpu, BenchSmokeOneCase) {
  BenchOptions o;
  o.families = {"o"};
  o.loads = {1};
  o.pairs = 50;
  o.plan = Plan::safe();
  const BenchReport r = run_bench(o);
  ASSERT_EQ(r.cases.size(), 1u);
  const BenchCase& c = r.cases[0];
  EXPECT_EQ(c.method, "baseline");
  EXPECT_TRUE(std::isfinite(c.base_us) && std::isfinite(c.cand_us) && std::isfinite(c.ratio));
  EXPECT_GT(c.floor_us, 0.0);
  // Both places in the pair were timed for both sides (the protocol alternates the order).
  for (double us : {c.order.base_first_us, c.order.base_second_us, c.order.cand_first_us, c.order.cand_second_us})
    EXPECT_TRUE(std::isfinite(us) && us > 0.0) << us;
  ASSERT_EQ(r.loads.size(), 1u);
  const auto j = bench_json(r);
  EXPECT_EQ(j.at("cases").size(), 1u);
}

TEST_F(LabGpu, BenchSmokeNamedMethod) {
  BenchOptions o;
  o.families = {"router"};
  o.loads = {2};
  o.pairs = 50;
  o.method = "reference";
  const BenchReport r = run_bench(o);
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases[0].method, "reference");
}

TEST_F(LabGpu, CheckSmokeSmallCases) {
  CheckOptions o;
  o.families = {"router", "unpooler"};
  o.ms = {1, 9};
  o.seeds = 1;
  o.replays = 2;
  o.plan = Plan::safe();
  const CheckReport r = run_check(o);
  ASSERT_EQ(r.cases.size(), 4u);
  for (const CheckCase& c : r.cases) EXPECT_TRUE(c.metrics.pass) << c.family << " M=" << c.m << ": " << c.metrics.reason;
  EXPECT_TRUE(r.pass());
}

TEST_F(LabGpu, CheckSmokeReferenceMethod) {
  CheckOptions o;
  o.families = {"o"};
  o.ms = {3};
  o.seeds = 1;
  o.replays = 1;
  o.method = "reference";
  const CheckReport r = run_check(o);
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_TRUE(r.cases[0].metrics.pass) << r.cases[0].metrics.reason;
}

// The tune's GPU driver (run_tune: screen with the correctness check, retest, decide, neighbour
// check) on one family at two M with one kernel family; before session 61 only the CLI's tune runs
// on the device exercised it. Nothing here depends on which config wins: every config is screened
// or logged inapplicable at each M, each M gets one decision whose choice is one of its finalists,
// and the plan maps each M to one of the decisions' choices (the neighbour check may move the
// boundary) under this device's header.
TEST_F(LabGpu, TuneSmokeOneFamilyTwoM) {
  PROJKIT_REQUIRE_SM90(nullptr);
  TuneOptions o;
  o.families = {"o"};
  o.ms = {8, 9};
  o.kernels = {"splitk_mma_l2"};
  o.screen_pairs = 4;
  o.top = 1;
  std::vector<nlohmann::json> log;
  o.log = [&](const nlohmann::json& r) { log.push_back(r); };
  const Plan plan = run_tune(o);
  ASSERT_FALSE(log.empty());
  EXPECT_EQ(log.front().at("type"), "start");
  std::map<int, std::set<std::string>> seen;  // per M: the configs screened or logged inapplicable
  std::map<int, nlohmann::json> decisions;
  for (const nlohmann::json& r : log) {
    const std::string type = r.at("type");
    if (type == "screen") seen[r.at("m").get<int>()].insert(r.at("config").get<std::string>());
    if (type == "inapplicable")
      for (int m = r.at("m")[0].get<int>(); m <= r.at("m")[1].get<int>(); ++m)
        seen[m].insert(r.at("config").get<std::string>());
    if (type == "decision") {
      const int m = r.at("m").get<int>();
      EXPECT_EQ(decisions.count(m), 0u) << "two decisions at M=" << m;
      decisions[m] = r;
    }
  }
  const KernelFamily* l2 = find_kernel_family("splitk_mma_l2");
  ASSERT_NE(l2, nullptr);
  std::set<std::string> chosen;
  for (int m : {8, 9}) {
    for (const Config& c : l2->configs()) EXPECT_EQ(seen[m].count(c.name()), 1u) << c.name() << " M=" << m;
    ASSERT_EQ(decisions.count(m), 1u) << "no decision at M=" << m;
    const std::string c = decisions[m].at("chosen");
    bool finalist = false;
    for (const nlohmann::json& f : decisions[m].at("finalists")) finalist = finalist || f.at("config") == c;
    EXPECT_TRUE(finalist) << c << " chosen at M=" << m << " is not a finalist";
    chosen.insert(c);
  }
  for (int m : {8, 9}) EXPECT_EQ(chosen.count(plan.method_for("o", m)), 1u) << plan.method_for("o", m);
  EXPECT_EQ(plan.header.device, DeviceInfo::query(0).name);
  EXPECT_EQ(plan.header.sm_count, DeviceInfo::query(0).sm_count);
}

TEST_F(LabGpu, FloorProbeSmoke) {
  const DeviceInfo dev = DeviceInfo::query(0);
  GraphTimer timer(dev);
  FloorProbe probe(timer, 16);
  const FloorResult& f = probe.measure(8u << 20);
  EXPECT_GT(f.floor_us, 0.0);
  // five LSU streams (four at full occupancy, one with a CTA per SM, L7); on sm_90 also the six
  // TMA streams (E34's four, L7's two interleaved ones), which need a payload of >= 2 MB; the
  // access-order probes only with order_probes
  const std::size_t tma = dev.is_hopper_sm90() ? 6 : 0;
  ASSERT_EQ(f.variants.size(), 5u + tma);
  auto has = [](const FloorResult& r, const char* name) {
    return std::any_of(r.variants.begin(), r.variants.end(), [&](const FloorVariant& v) { return v.name == name; });
  };
  for (const FloorVariant& v : f.variants) {
    EXPECT_GT(v.us, 0.0) << v.name;
    EXPECT_GE(v.us, f.floor_us) << v.name;  // the floor is the best variant
    EXPECT_FALSE(v.name.starts_with("order.")) << v.name << ": an order probe without order_probes";
  }
  EXPECT_TRUE(has(f, "stream_read.unroll8.evict_first.sm1"));
  if (tma) {
    EXPECT_TRUE(has(f, "tma_stream.box128x64.s8.evict_first"));
    EXPECT_TRUE(has(f, "tma_stream.bulk16k.s8.interleaved"));
  }
  EXPECT_EQ(&probe.measure(8u << 20), &f);  // cached per payload size
  EXPECT_EQ(probe.measure(1u << 20).variants.size(), 5u);  // < 2 MB: LSU streams only
  // With the order probes: two more LSU variants, and on sm_90 P24's three TMA grid probes (the
  // bulk stream over 64 / 72 / 128 CTAs) and P28's two shallow rings (1 / 2 units in flight per
  // CTA), reported and never taken as the floor.
  FloorProbe with_probes(timer, 16, true);
  const FloorResult& g = with_probes.measure(8u << 20);
  const std::size_t grid_probes = tma ? 5 : 0;
  ASSERT_EQ(g.variants.size(), 7u + tma + grid_probes);
  EXPECT_TRUE(has(g, "order.stream_read_blocked.unroll8.evict_first"));
  if (tma) EXPECT_TRUE(has(g, "order.tma_stream.bulk16k.s8.interleaved.g64"));
  for (const FloorVariant& v : g.variants)
    EXPECT_EQ(v.order_probe, v.name.starts_with("order.")) << v.name;
  EXPECT_FALSE(g.best.starts_with("order.")) << g.best;
  // P27: the same streams over a buffer of bf16 weight values (every variant runs and is timed)
  FloorProbe weights(timer, 16, false, FloorFill::weights);
  const FloorResult& h = weights.measure(8u << 20);
  ASSERT_EQ(h.variants.size(), 5u + tma);
  EXPECT_GT(h.floor_us, 0.0);
}
