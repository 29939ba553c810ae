// `projkit tune`'s pure parts: finalists, the margin rule, tie-breaking, the log -> plan
// function (merging, neighbour check, determinism), log parsing for --resume, options.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <utility>

#include "lab/tune.hpp"

using namespace projkit;
using namespace projkit::lab;
using nlohmann::json;

namespace {

const char* kA = "gemv_stream.rows4.warps4";
const char* kB = "splitk_mma_cluster.warps4.split4";
const char* kC = "wgmma_tma.bn128.bm64.split4.mc1.stages8";

PlanHeader header() { return {"0.1.0", "NVIDIA H200", 132, 13000, 130100}; }

json decision(const std::string& fam, int m, const std::string& chosen, double ratio,
              std::vector<std::pair<std::string, double>> finalists = {}, const std::string& inc = "baseline") {
  json fin = json::array({{{"config", "baseline"}, {"ratio", 1.0}}});
  for (const auto& [c, r] : finalists) fin.push_back({{"config", c}, {"ratio", r}});
  return {{"type", "decision"}, {"family", fam}, {"m", m},        {"incumbent", inc},
          {"finalists", fin},   {"chosen", chosen}, {"ratio", ratio}};
}
json neighbour(const std::string& fam, int m, const std::string& cfg, double ratio) {
  return {{"type", "neighbour"}, {"family", fam}, {"m", m}, {"config", cfg}, {"ratio", ratio}};
}

std::string str(const std::vector<PlanRange>& rs) {
  std::string s;
  for (const PlanRange& r : rs) s += std::to_string(r.m_lo) + ".." + std::to_string(r.m_hi) + " " + r.method + " " +
                                     std::to_string(r.ratio) + "; ";
  return s;
}

std::vector<PlanRange> ranges_of(const TunePlanBuild& b, const std::string& fam) {
  const auto* r = b.plan.ranges(fam);
  return r ? *r : std::vector<PlanRange>{};
}

}  // namespace

TEST(LabTune, TieBreakByRoundedRatioThenName) {
  EXPECT_DOUBLE_EQ(ratio_key(1.23449), 1.234);
  EXPECT_DOUBLE_EQ(ratio_key(1.2346), 1.235);
  // 1.2341 and 1.2344 round to the same key: the name decides.
  EXPECT_TRUE(ranks_before({"a.x1", 1.2341}, {"b.x1", 1.2344}));
  EXPECT_FALSE(ranks_before({"b.x1", 1.2344}, {"a.x1", 1.2341}));
  EXPECT_TRUE(ranks_before({"b.x1", 1.236}, {"a.x1", 1.234}));
}

TEST(LabTune, FinalistsAreTopPlusIncumbentPlusBaseline) {
  const std::vector<RatedConfig> s = {{kA, 1.30}, {kB, 1.10}, {kC, 1.20}, {"gemv_stream.rows8.warps4", 1.25},
                                      {"baseline", 1.5}};
  EXPECT_EQ(select_finalists(s, "baseline", 2), (std::vector<std::string>{"baseline", "gemv_stream.rows4.warps4",
                                                                           "gemv_stream.rows8.warps4"}));
  // The incumbent joins even when it ranks last.
  const auto f = select_finalists(s, kB, 2);
  EXPECT_EQ(f.size(), 4u);
  EXPECT_NE(std::find(f.begin(), f.end(), kB), f.end());
  // An incumbent that was not screened (excluded, inapplicable) does not.
  EXPECT_EQ(select_finalists({}, kB, 3), std::vector<std::string>{"baseline"});
}

TEST(LabTune, MarginRule) {
  // Challenger 1.019x the incumbent: the incumbent stays; 1.021x: displaced.
  EXPECT_EQ(choose_config({{kA, 1.20}, {kB, 1.20 * 1.019}}, kA, 0.02).config, kA);
  EXPECT_EQ(choose_config({{kA, 1.20}, {kB, 1.20 * 1.021}}, kA, 0.02).config, kB);
  // Baseline as incumbent (an unmapped M): a kernel needs >= 1.02.
  EXPECT_EQ(choose_config({{kA, 1.015}}, "baseline", 0.02).config, "baseline");
  EXPECT_EQ(choose_config({{kA, 1.025}}, "baseline", 0.02).config, kA);
  // A regressed incumbent (< 1) has no protection; baseline always rates 1.
  EXPECT_EQ(choose_config({{kA, 0.99}}, kA, 0.02).config, "baseline");
  EXPECT_DOUBLE_EQ(choose_config({{kA, 0.99}, {"baseline", 0.97}}, kA, 0.02).ratio, 1.0);
  // No incumbent among the finalists: the best-ranked wins; ties by name.
  EXPECT_EQ(choose_config({{kB, 1.3001}, {kA, 1.3004}}, "x.y1", 0.02).config, kA);
  // Zero margin: plain best.
  EXPECT_EQ(choose_config({{kA, 1.20}, {kB, 1.201}}, kA, 0.0).config, kB);
}

TEST(LabTune, PlanMergesEqualNeighboursAndLeavesBaselineOut) {
  std::vector<json> log;
  for (int m = 1; m <= 4; ++m) log.push_back(decision("qkv", m, kA, 1.30 + 0.01 * m, {{kA, 1.30 + 0.01 * m}}));
  for (int m = 5; m <= 8; ++m) log.push_back(decision("qkv", m, "baseline", 1.0));
  const TunePlanBuild b = plan_from_log(Plan::safe(), header(), log, 0.02);
  // Boundary 4|5: baseline at 4 is needed first (an equal-length tie: A = gemv leads, so baseline's 5 is asked
  // about gemv at 5).
  ASSERT_EQ(b.missing.size(), 1u);
  EXPECT_EQ(b.missing[0], (TuneNeed{"qkv", 5, kA}));
  // gemv at 5 measured 0.97: the boundary stays.
  log.push_back(neighbour("qkv", 5, kA, 0.97));
  const TunePlanBuild c = plan_from_log(Plan::safe(), header(), log, 0.02);
  EXPECT_TRUE(c.missing.empty());
  const auto r = ranges_of(c, "qkv");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].m_lo, 1);
  EXPECT_EQ(r[0].m_hi, 4);
  EXPECT_EQ(r[0].method, kA);
  EXPECT_NEAR(r[0].ratio, 1.325, 1e-9);  // median of 1.31..1.34
  EXPECT_EQ(c.plan.header.device, "NVIDIA H200");
  // Round trip through the plan file format.
  EXPECT_NE(c.plan.to_json().find("\"projkit.plan/1\""), std::string::npos);
}

TEST(LabTune, NeighbourCheckMovesBoundaryWithinMargin) {
  // 1..3 A, 4..5 B. A leads (longer): B's 4 keeps B only if B beats A there by >= 2 %.
  std::vector<json> log;
  for (int m = 1; m <= 3; ++m) log.push_back(decision("o", m, kA, 1.20, {{kA, 1.20}}));
  log.push_back(decision("o", 4, kB, 1.21, {{kB, 1.21}}));
  log.push_back(decision("o", 5, kB, 1.25, {{kB, 1.25}}));
  log.push_back(neighbour("o", 4, kA, 1.20));  // B beats A by 0.8 % at 4: 4 moves to A
  TunePlanBuild b = plan_from_log(Plan::safe(), header(), log, 0.02);
  // Now A (1..4) leads B (5): A at 5 is needed.
  ASSERT_EQ(b.missing.size(), 1u);
  EXPECT_EQ(b.missing[0], (TuneNeed{"o", 5, kA}));
  log.push_back(neighbour("o", 5, kA, 1.10));  // B beats A by 13.6 % at 5: stays B
  b = plan_from_log(Plan::safe(), header(), log, 0.02);
  EXPECT_TRUE(b.missing.empty());
  const auto r = ranges_of(b, "o");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].m_hi, 4);
  EXPECT_EQ(r[0].method, kA);
  EXPECT_NEAR(r[0].ratio, 1.20, 1e-12);
  EXPECT_EQ(r[1].m_lo, 5);
  EXPECT_EQ(r[1].method, kB);
  // An excluded neighbour (failed its check there) is not asked again and blocks the move.
  std::vector<json> log2(log.begin(), log.end() - 1);
  log2.push_back({{"type", "neighbour"}, {"family", "o"}, {"m", 5}, {"config", kA}, {"excluded", "check failed"}});
  const TunePlanBuild b2 = plan_from_log(Plan::safe(), header(), log2, 0.02);
  EXPECT_TRUE(b2.missing.empty());
  EXPECT_EQ(str(ranges_of(b2, "o")), str(r));
}

TEST(LabTune, SingleMRangeNeedsTwiceTheMargin) {
  // 1..2 A, 3 B, 4..6 A: B at 3 is a one-M range between A's; it must beat A there by >= 4 %.
  auto build = [](double b_over_a) {
    std::vector<json> log;
    for (int m : {1, 2, 4, 5, 6}) log.push_back(decision("pooler", m, kA, 1.20, {{kA, 1.20}}));
    log.push_back(decision("pooler", 3, kB, 1.20 * b_over_a, {{kB, 1.20 * b_over_a}, {kA, 1.20}}));
    return plan_from_log(Plan::safe(), header(), log, 0.02);
  };
  const TunePlanBuild three = build(1.03);  // clears the 2 % margin, not twice it: A takes M 3
  EXPECT_TRUE(three.missing.empty());
  ASSERT_EQ(ranges_of(three, "pooler").size(), 1u) << str(ranges_of(three, "pooler"));
  EXPECT_EQ(ranges_of(three, "pooler")[0].method, kA);
  const TunePlanBuild five = build(1.05);  // beats A by 5 %: the one-M range stays
  const auto r = ranges_of(five, "pooler");
  ASSERT_EQ(r.size(), 3u) << str(r);
  EXPECT_EQ(r[1].m_lo, 3);
  EXPECT_EQ(r[1].m_hi, 3);
  EXPECT_EQ(r[1].method, kB);
}

TEST(LabTune, UntunedFamiliesAndMKeepTheExistingPlan) {
  Plan old = Plan::safe();
  old.families.push_back({"router", {{1, 256, "router_stream_f32.warps8", 3.0}}});
  old.families.push_back({"qkv", {{1, 2, kC, 1.1}, {100, 200, kB, 1.05}}});
  const std::vector<json> log = {decision("qkv", 1, kA, 1.4, {{kA, 1.4}}), decision("qkv", 2, kA, 1.4, {{kA, 1.4}})};
  const TunePlanBuild b = plan_from_log(old, header(), log, 0.02);
  EXPECT_TRUE(b.missing.empty());
  EXPECT_EQ(str(ranges_of(b, "router")), str(old.families[0].second));
  const auto q = ranges_of(b, "qkv");
  ASSERT_EQ(q.size(), 2u);
  EXPECT_EQ(q[0].method, kA);
  EXPECT_EQ(q[1].m_lo, 100);
  EXPECT_EQ(q[1].method, kB);
  EXPECT_DOUBLE_EQ(q[1].ratio, 1.05);
}

TEST(LabTune, SameRecordsSamePlan) {
  std::vector<json> log;
  const char* cfgs[] = {kA, kB, kC, "baseline"};
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.95, 1.4);
  for (int m = 1; m <= 40; ++m) {
    std::vector<std::pair<std::string, double>> fin;
    for (const char* c : cfgs)
      if (std::string(c) != "baseline") fin.push_back({c, u(rng)});
    std::vector<RatedConfig> rated;
    for (auto& [c, r] : fin) rated.push_back({c, r});
    const RatedConfig win = choose_config(rated, "baseline", 0.02);
    log.push_back(decision("pooler", m, win.config, win.ratio, fin));
  }
  TunePlanBuild b = plan_from_log(Plan::safe(), header(), log, 0.02);
  EXPECT_TRUE(b.missing.empty());  // every finalist was measured at every M
  std::vector<json> shuffled = log;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  EXPECT_EQ(plan_from_log(Plan::safe(), header(), shuffled, 0.02).plan.to_json(), b.plan.to_json());
  EXPECT_EQ(plan_from_log(Plan::safe(), header(), log, 0.02).plan.to_json(), b.plan.to_json());
  // Ranges are ordered, non-overlapping, and within 1..256.
  int prev = 0;
  for (const PlanRange& r : ranges_of(b, "pooler")) {
    EXPECT_GT(r.m_lo, prev);
    EXPECT_LE(r.m_lo, r.m_hi);
    prev = r.m_hi;
  }
}

TEST(LabTune, ResumeParsesPartialLog) {
  std::string text;
  text += json({{"type", "start"}, {"schema", kTuneLogSchema}}).dump() + "\n";
  text += decision("qkv", 1, kA, 1.3, {{kA, 1.3}}).dump() + "\n\n";
  text += json({{"type", "screen"}, {"family", "qkv"}, {"m", 2}, {"config", kA}, {"ratio", 1.2}}).dump() + "\n";
  text += decision("o", 7, "baseline", 1.0).dump() + "\n";
  text += R"({"type":"decision","family":"qkv","m":2,"inc)";  // killed mid-write
  const TuneLog log = parse_tune_log(text);
  EXPECT_EQ(log.records.size(), 4u);
  ASSERT_EQ(log.warnings.size(), 1u);
  EXPECT_NE(log.warnings[0].find("line 6"), std::string::npos);
  const auto d = decided_cases(log.records);
  EXPECT_EQ(d, (std::set<std::pair<std::string, int>>{{"qkv", 1}, {"o", 7}}));
  // A bad line that is not the last one is an error naming it.
  EXPECT_THROW(parse_tune_log("{\"type\":\"start\",\"schema\":\"projkit.tunelog/1\"}\nnot json\n{\"type\":\"plan\"}\n"),
               Error);
  try {
    parse_tune_log("{\"type\":\"start\",\"schema\":\"other/9\"}\n");
    FAIL() << "a foreign schema must be refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), StatusCode::parse_error);
  }
  EXPECT_TRUE(parse_tune_log("").records.empty());
}

// plans/tune-logs/ ships its log xz-compressed; passed to --resume as it is, it is refused with the
// remedy named, not with a JSON error on its first line (gzip likewise).
TEST(LabTune, ResumeRefusesACompressedLogNamingTheRemedy) {
  const std::string path = std::string(PROJKIT_TEST_DATA) + "/../../plans/tune-logs/h200-tune.jsonl.xz";
  std::ifstream f(path, std::ios::binary);
  ASSERT_TRUE(f) << "cannot open " << path;
  const std::string xz((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  ASSERT_GT(xz.size(), 6u);
  const std::string gz("\x1F\x8B\x08\x00\x00\x00\x00\x00", 8);
  for (const auto& [text, remedy] : {std::pair{xz, "xz -dk"}, std::pair{gz, "gzip -dk"}}) {
    try {
      parse_tune_log(text);
      FAIL() << "a compressed log must be refused (" << remedy << ")";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), StatusCode::parse_error);
      EXPECT_NE(std::string(e.what()).find(remedy), std::string::npos) << e.what();
    }
  }
}

TEST(LabTune, OptionValidation) {
  TuneOptions o;
  o.log = [](const json&) {};
  EXPECT_NO_THROW(validate_tune_options(o));
  auto expect_bad = [&](auto edit, const char* what) {
    TuneOptions b = o;
    edit(b);
    try {
      validate_tune_options(b);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), StatusCode::invalid_argument) << what;
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  expect_bad([](TuneOptions& b) { b.pairs = 59; }, "--pairs");
  expect_bad([](TuneOptions& b) { b.screen_pairs = 3; }, "--screen-pairs");
  expect_bad([](TuneOptions& b) { b.top = 0; }, "--top");
  expect_bad([](TuneOptions& b) { b.margin = -0.1; }, "--margin");
  expect_bad([](TuneOptions& b) { b.min_copies = 4; }, "--copies");
  expect_bad([](TuneOptions& b) { b.ms = {1, 257}; }, "257");
  expect_bad([](TuneOptions& b) { b.kernels = {"no_such_kernel"}; }, "no_such_kernel");
  expect_bad([](TuneOptions& b) { b.families = {"nope"}; }, "nope");
  expect_bad([](TuneOptions& b) { b.log = nullptr; }, "log");
  expect_bad([](TuneOptions& b) { b.flush = "none"; }, "--flush");
}

// A resumed log keeps its decisions only under the flush it was measured with (a log from before
// the flush was recorded counts as "write", the only flush tune had then).
TEST(LabTune, ResumeRefusesAnotherFlush) {
  TuneOptions o;
  o.log = [](const json&) {};
  const json old_start = {{"type", "start"}, {"schema", kTuneLogSchema}, {"device", "NVIDIA H200"}};
  json read_start = old_start;
  read_start["flush"] = "read";
  o.resumed = {old_start};
  EXPECT_NO_THROW(validate_tune_options(o));  // write against a log without the field
  o.flush = "read";
  try {
    validate_tune_options(o);
    ADD_FAILURE() << "a write-flush log resumed under --flush read";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), StatusCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("--flush write"), std::string::npos) << e.what();
  }
  o.resumed = {read_start};
  EXPECT_NO_THROW(validate_tune_options(o));
  o.flush = "write";
  EXPECT_THROW(validate_tune_options(o), Error);
}
