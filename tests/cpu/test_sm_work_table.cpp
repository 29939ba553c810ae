// The SM work table (kernels/sm_work_table.hpp, ledger E58): the builder covers every
// (tile, k-block) exactly once, sizes K ranges by rate, refuses what its bit fields cannot hold,
// and the checker names a broken table; wgmma_tma's smt configs are applicable only where the
// table mode works (red5, one token tile, every N row).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "../fake_device.hpp"
#include "core/method.hpp"
#include "kernels/sm_work_table.hpp"

using namespace projkit;

TEST(SmWorkTable, PackedFieldsRoundTrip) {
  const uint32_t e = sm_work::pack(63, 14, 15, 200, 55);
  EXPECT_EQ(sm_work::tile_of(e), 63);
  EXPECT_EQ(sm_work::member_of(e), 14);
  EXPECT_EQ(sm_work::members_of(e), 15);
  EXPECT_EQ(sm_work::kb_begin_of(e), 200);
  EXPECT_EQ(sm_work::kb_count_of(e), 55);
}

// Equal rates: 132 SMs over pooler's 32 tiles of 128 k-blocks = 28 tiles of 4 members and 4 of
// 5, every SM busy, every (tile, k-block) once, members' ranges within one k-block of equal.
TEST(SmWorkTable, EqualRatesUseEverySmAndCoverOnce) {
  const std::vector<double> rates(132, 1.0);
  const auto work = sm_work::build(rates, 32, 128);
  ASSERT_EQ(work.size(), 132u);
  EXPECT_EQ(sm_work::check(work, 32, 128), "");
  std::vector<int> per_tile(32, 0);
  for (const auto& w : work) {
    EXPECT_GT(w.kb_count, 0);
    ++per_tile[std::size_t(w.tile)];
    const int lo = 128 / w.members;
    EXPECT_TRUE(w.kb_count == lo || w.kb_count == lo + 1) << w.kb_count << " of 128 over " << w.members;
  }
  EXPECT_EQ(std::count(per_tile.begin(), per_tile.end(), 4), 28);
  EXPECT_EQ(std::count(per_tile.begin(), per_tile.end(), 5), 4);
  const auto table = sm_work::to_table(work, 32);
  EXPECT_EQ(table.n_tiles, 32);
  EXPECT_EQ(table.times_ns, nullptr);
  for (int s = 132; s < sm_work::kMaxSms; ++s) EXPECT_EQ(sm_work::kb_count_of(table.entry[s]), 0);
}

// Spread rates (+-20 %, as the GEMM's per-SM stream times in ledger P4): the table still covers
// once, a faster member of a tile gets at least as many k-blocks as a slower one, and the
// predicted span beats the equal table's under the same rates.
TEST(SmWorkTable, RatesSizeTheRangesAndShortenTheSpan) {
  std::mt19937 rng(58);
  std::uniform_real_distribution<double> u(0.8, 1.2);
  for (const auto& [tiles, kbs] : std::vector<std::pair<int, int>>{{32, 128}, {64, 64}, {18, 128}, {64, 16}}) {
    std::vector<double> rates(132);
    for (double& r : rates) r = u(rng);
    const auto work = sm_work::build(rates, tiles, kbs);
    ASSERT_EQ(sm_work::check(work, tiles, kbs), "") << tiles << " tiles";
    for (std::size_t a = 0; a < work.size(); ++a)
      for (std::size_t b = 0; b < work.size(); ++b)
        if (work[a].tile == work[b].tile && rates[a] > rates[b] * 1.1) EXPECT_GE(work[a].kb_count, work[b].kb_count);
    const auto equal = sm_work::build(std::vector<double>(132, 1.0), tiles, kbs);
    EXPECT_LT(sm_work::predicted_span(work, rates), sm_work::predicted_span(equal, rates)) << tiles << " tiles";
  }
}

// A members cap (smt3: as many CTAs as the equal split): qkv's 18 tiles x 4 = 72 busy SMs, and
// they are the 72 fastest.
TEST(SmWorkTable, MembersCapKeepsTheFastestSms) {
  std::vector<double> rates(132);
  for (std::size_t s = 0; s < rates.size(); ++s) rates[s] = 1.0 + 0.001 * double((s * 37) % 132);
  const auto work = sm_work::build(rates, 18, 128, 4);
  ASSERT_EQ(sm_work::check(work, 18, 128), "");
  std::vector<double> busy, idle;
  for (std::size_t s = 0; s < work.size(); ++s) {
    (work[s].kb_count > 0 ? busy : idle).push_back(rates[s]);
    if (work[s].kb_count > 0) EXPECT_EQ(work[s].members, 4);
  }
  ASSERT_EQ(busy.size(), 72u);
  EXPECT_GT(*std::min_element(busy.begin(), busy.end()), *std::max_element(idle.begin(), idle.end()));
  EXPECT_THROW(sm_work::build(rates, 18, 128, -1), Error);
}

TEST(SmWorkTable, CheckNamesABrokenTable) {
  auto work = sm_work::build(std::vector<double>(132, 1.0), 32, 128);
  auto overlap = work;
  overlap[0].kb_begin += 1;  // overlaps its successor, leaves its first k-block uncovered
  EXPECT_NE(sm_work::check(overlap, 32, 128).find("covered"), std::string::npos);
  auto members = work;
  members[5].members += 1;
  EXPECT_NE(sm_work::check(members, 32, 128), "");
  auto idle = work;
  idle[7].kb_count = 0;  // an SM dropped from its tile: its k-blocks uncovered
  EXPECT_NE(sm_work::check(idle, 32, 128), "");
}

TEST(SmWorkTable, BuildRefusesWhatTheFieldsCannotHold) {
  EXPECT_THROW(sm_work::build(std::vector<double>(10, 1.0), 32, 128), Error);             // fewer SMs than tiles
  EXPECT_THROW(sm_work::build(std::vector<double>(132, 1.0), 32, 256), Error);            // 8-bit k-block fields
  EXPECT_THROW(sm_work::build(std::vector<double>(sm_work::kMaxSms + 1, 1.0), 32, 128), Error);
  std::vector<double> zero(132, 1.0);
  zero[3] = 0.0;
  EXPECT_THROW(sm_work::build(zero, 32, 128), Error);
  // 132 SMs over 4 tiles would need 33 members each: the 4-bit field caps them at 15, the rest idle.
  const auto capped = sm_work::build(std::vector<double>(132, 1.0), 4, 128);
  EXPECT_EQ(sm_work::check(capped, 4, 128), "");
  EXPECT_EQ(std::count_if(capped.begin(), capped.end(), [](const sm_work::Work& w) { return w.kb_count > 0; }), 60);
}

TEST(SmWorkTable, WgmmaTmaSmtConfigsApplicability) {
  const DeviceInfo d = fake_h200();
  const std::string pooler = "wgmma_tma.bn128.bm192.split4.mc1.stages5.xfit1.red5.smt2";
  EXPECT_EQ(method_applicability(builtin_spec("pooler"), pooler, 65, 192, d), "");
  // two token tiles (asked of the family itself: qkv split1, unlisted, a red5 grid of 36 CTAs
  // that would fit the SMs, so the table mode's own limit answers)
  const KernelFamily* fam = find_kernel_family("wgmma_tma");
  ASSERT_NE(fam, nullptr);
  EXPECT_NE(fam->applicable(builtin_spec("qkv"), Config::parse("wgmma_tma.bn128.bm64.split1.mc1.stages8.xfit1.red5.smt1"),
                            1, 65, d)
                .find("one token tile"),
            std::string::npos);
  // the unpooler's row slice at M <= 8 (a run with n_out < N) takes the equal split
  const std::string unp = "wgmma_tma.bn128.bm64.split2.mc1.stages8.xfit1.red5.smt1";
  EXPECT_EQ(method_applicability(builtin_spec("unpooler"), unp, 1, 64, d), "");
  // red4 (DSMEM pull, no zero warp) has no table mode; smt 6 does not exist
  EXPECT_NE(method_applicability(builtin_spec("qkv"), "wgmma_tma.bn128.bm64.split4.mc1.stages8.xfit1.red4.smt1", 1, 64, d),
            "");
  EXPECT_NE(method_applicability(builtin_spec("qkv"), "wgmma_tma.bn128.bm64.split4.mc1.stages8.xfit1.red5.smt6", 1, 64, d),
            "");
}
