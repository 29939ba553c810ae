// Smoke tests of bench, check and the floor probe on one small case each.
// No timing assertions: tests check, benchmarks measure.
#include <cmath>

#include "lab/bench.hpp"
#include "lab/check.hpp"
#include "lab/report.hpp"
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

TEST_F(LabGpu, FloorProbeSmoke) {
  const DeviceInfo dev = DeviceInfo::query(0);
  GraphTimer timer(dev);
  FloorProbe probe(timer, 16);
  const FloorResult& f = probe.measure(8u << 20);
  EXPECT_GT(f.floor_us, 0.0);
  // four LSU streams; on sm_90 also the four TMA streams (E34), which need a payload of >= 2 MB
  const std::size_t tma = dev.is_hopper_sm90() ? 4 : 0;
  ASSERT_EQ(f.variants.size(), 4u + tma);
  for (const FloorVariant& v : f.variants) {
    EXPECT_GT(v.us, 0.0) << v.name;
    EXPECT_GE(v.us, f.floor_us) << v.name;  // the floor is the best variant
  }
  if (tma) {
    EXPECT_EQ(f.variants[4].name, "tma_stream.box128x64.s8.evict_first");
    EXPECT_EQ(f.variants[7].name, "tma_stream.bulk16k.s12.evict_first");
  }
  EXPECT_EQ(&probe.measure(8u << 20), &f);  // cached per payload size
  EXPECT_EQ(probe.measure(1u << 20).variants.size(), 4u);  // < 2 MB: LSU streams only
}
