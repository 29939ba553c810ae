// Bench / check / floor JSON schemas: every field present with the right type.
#include <gtest/gtest.h>

#include "lab/bench.hpp"
#include "lab/floor.hpp"
#include "lab/report.hpp"

using namespace projkit;
using namespace projkit::lab;
using nlohmann::json;

namespace {
BenchEnv sample_env() {
  BenchEnv e;
  e.gpu = "NVIDIA H200";
  e.driver = 13000;
  e.sm_clock_mhz = 1980;
  e.mem_clock_mhz = 3201;
  e.cuda_runtime = 13000;
  e.cublas = 130000;
  e.projkit_git_sha = "abc";
  e.plan_source = "plans/h200.json";
  e.plan_sha256 = std::string(64, 'a');
  return e;
}
void expect_env(const json& env) {
  for (const char* k : {"gpu", "projkit_git_sha", "plan_source", "plan_sha256", "flush", "floor_fill"})
    EXPECT_TRUE(env.at(k).is_string()) << k;
  for (const char* k : {"driver", "sm_clock_mhz", "mem_clock_mhz", "cuda_runtime", "cublas"})
    EXPECT_TRUE(env.at(k).is_number_integer()) << k;
}
}  // namespace

// bench --ballast (P41) is recorded in env only when used, so earlier reports keep their keys.
TEST(LabReport, BallastIsWrittenOnlyWhenUsed) {
  BenchEnv e = sample_env();
  EXPECT_FALSE(env_json(e).contains("ballast"));
  e.ballast = "8 MiB x copies, after, memset";
  const json j = env_json(e);
  ASSERT_TRUE(j.contains("ballast"));
  EXPECT_EQ(j.at("ballast").get<std::string>(), e.ballast);
  expect_env(j);
}

// What env records of bench's diagnostics, and the flags refused without a ballast size.
TEST(LabReport, DiagnosticsLabelNamesWhatIsOn) {
  BenchOptions o;
  EXPECT_EQ(diagnostics_label(o), "");
  o.cand_own_w = true;
  EXPECT_EQ(diagnostics_label(o), "candidate on its own copy of W");
  o.ballast_mb = 8;
  o.ballast_touch = true;
  EXPECT_EQ(diagnostics_label(o), "candidate on its own copy of W; 8 MiB x copies, after, memset");
  o.cand_own_w = false;
  o.ballast_before = true;
  o.ballast_touch = false;
  EXPECT_EQ(diagnostics_label(o), "8 MiB x copies, before, untouched");
  o.ballast_mb = 0;
  EXPECT_THROW(diagnostics_label(o), Error);  // --ballast-before without --ballast
  o.ballast_before = false;
  o.ballast_mb = -1;
  EXPECT_THROW(diagnostics_label(o), Error);
}

TEST(LabReport, BenchSchema) {
  BenchReport r;
  r.env = sample_env();
  r.overhead_us = 2.5;
  BenchCase c{.family = "qkv", .method = "baseline", .m = 8, .n = 2304, .k = 8192, .weight = 62, .base_us = 16.6,
              .cand_us = 12.0, .ratio = 1.38, .ratio_p10 = 1.3, .ratio_p90 = 1.45, .floor_us = 11.5};
  c.bytes = 37'900'000;
  finish_case(c);
  c.order = split_by_order({16.0, 17.0}, {12.0, 11.5}, {true, false});
  BenchCase once = c;  // one pair: the second places were never taken
  once.m = 16;
  once.order = split_by_order({16.0}, {12.0}, {true});
  r.cases = {c, once};
  r.loads = load_speedups(r.cases);
  r.score = score(r.loads);
  const json j = json::parse(bench_json(r).dump());  // round trip through text
  EXPECT_EQ(j.at("schema"), "projkit.bench/1");
  expect_env(j.at("env"));
  EXPECT_TRUE(j.at("overhead_us").is_number());
  EXPECT_TRUE(j.at("score").is_number());
  ASSERT_EQ(j.at("cases").size(), 2u);
  const json& jc = j.at("cases")[0];
  for (const char* k : {"family", "method"}) EXPECT_TRUE(jc.at(k).is_string()) << k;
  for (const char* k : {"m", "n", "k"}) EXPECT_TRUE(jc.at(k).is_number_integer()) << k;
  for (const char* k : {"base_us", "cand_us", "ratio", "ratio_p10", "ratio_p90", "floor_us", "over_floor", "tbps", "weight"})
    EXPECT_TRUE(jc.at(k).is_number()) << k;
  const json& order = jc.at("order");
  EXPECT_DOUBLE_EQ(order.at("base_first_us").get<double>(), 16.0);
  EXPECT_DOUBLE_EQ(order.at("base_second_us").get<double>(), 17.0);
  EXPECT_DOUBLE_EQ(order.at("cand_first_us").get<double>(), 11.5);
  EXPECT_DOUBLE_EQ(order.at("cand_second_us").get<double>(), 12.0);
  const json& order1 = j.at("cases")[1].at("order");  // NaN is written as null, still valid JSON
  EXPECT_TRUE(order1.at("base_first_us").is_number());
  EXPECT_TRUE(order1.at("base_second_us").is_null());
  EXPECT_TRUE(order1.at("cand_first_us").is_null());
  EXPECT_TRUE(order1.at("cand_second_us").is_number());
  ASSERT_EQ(j.at("loads").size(), 2u);
  EXPECT_EQ(j.at("loads")[0].at("m"), 8);
  EXPECT_TRUE(j.at("loads")[0].at("speedup").is_number());
  EXPECT_FALSE(bench_table(r).empty());
}

TEST(LabReport, CheckSchema) {
  CheckReport r;
  CheckCase ok{.family = "router", .method = "baseline", .m = 3};
  CheckCase bad{.family = "router", .method = "baseline", .m = 4};
  bad.metrics.pass = false;
  bad.metrics.reason = "relative L2 1 > 1e-4";
  r.cases = {ok, bad};
  r.failures = 1;
  const json j = json::parse(check_json(r, sample_env()).dump());
  EXPECT_EQ(j.at("schema"), "projkit.check/1");
  expect_env(j.at("env"));
  EXPECT_EQ(j.at("pass"), false);
  EXPECT_EQ(j.at("failures"), 1);
  ASSERT_EQ(j.at("cases").size(), 2u);
  for (const json& c : j.at("cases")) {
    EXPECT_TRUE(c.at("family").is_string());
    EXPECT_TRUE(c.at("method").is_string());
    EXPECT_TRUE(c.at("m").is_number_integer());
    for (const char* k : {"rel_l2", "worst_row_rel_l2", "max_abs"}) EXPECT_TRUE(c.at(k).is_number()) << k;
    EXPECT_TRUE(c.at("nonfinite_ok").is_boolean());
    EXPECT_TRUE(c.at("pass").is_boolean());
  }
  EXPECT_EQ(j.at("cases")[1].at("pass"), false);
  EXPECT_NE(check_table(r, true).find("FAIL"), std::string::npos);
}

TEST(LabReport, FloorSchema) {
  FloorResult f;
  f.bytes = 1 << 20;
  f.floor_us = 2.0;
  f.best = "stream_read.unroll4.no_allocate";
  f.variants = {{f.best, 2.0}};
  const json j = floor_json({f}, sample_env(), 2.1);
  EXPECT_EQ(j.at("schema"), "projkit.floor/1");
  ASSERT_EQ(j.at("floors").size(), 1u);
  EXPECT_TRUE(j.at("floors")[0].at("floor_us").is_number());
  EXPECT_TRUE(j.at("floors")[0].at("variants").is_array());
}

// P27 (session 27): the floor probe's buffer is zeros or bf16 weight values; the env says which.
TEST(LabReport, FloorFillNames) {
  EXPECT_EQ(parse_floor_fill("zero"), FloorFill::zero);
  EXPECT_EQ(parse_floor_fill("weights"), FloorFill::weights);
  EXPECT_STREQ(floor_fill_name(FloorFill::weights), "weights");
  EXPECT_STREQ(floor_fill_name(FloorFill::zero), "zero");
  EXPECT_THROW(parse_floor_fill("random"), Error);
  BenchEnv e = sample_env();
  e.floor_fill = floor_fill_name(FloorFill::weights);
  EXPECT_EQ(floor_json({}, e, 2.0).at("env").at("floor_fill"), "weights");
}

TEST(LabReport, BenchCasePlanning) {
  const Workload w = Workload::builtin_default();
  const auto cases = plan_bench_cases(w, {1, 16}, {"unpooler"});
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].n, 1024);  // small-M slice
  EXPECT_EQ(cases[1].n, 8192);
  EXPECT_EQ(cases[0].bytes, std::size_t(1024) * 4096 * 2 + 4096 * 2 + 1024 * 2);
  EXPECT_DOUBLE_EQ(cases[0].weight, 62.0);
  EXPECT_THROW(plan_bench_cases(w, {1}, {"nope"}), Error);
}
