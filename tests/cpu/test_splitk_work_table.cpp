// The split-K work table (kernels/splitk_work_table.hpp, ledger E58): the builder covers every
// (tile, k-block) exactly once in K-split-major order and refuses what its bit fields cannot
// hold; the checker names a broken table; wgmma_tma's wt1 config is applicable only where the
// table mode works (red5, bm64, one token tile).
#include <gtest/gtest.h>

#include <algorithm>

#include "../fake_device.hpp"
#include "core/method.hpp"
#include "kernels/splitk_work_table.hpp"

using namespace projkit;

TEST(SplitkWorkTable, PackedFieldsRoundTrip) {
  const uint32_t e = work_table::pack(63, 14, 15, 200, 55);
  EXPECT_EQ(work_table::tile_of(e), 63);
  EXPECT_EQ(work_table::member_of(e), 14);
  EXPECT_EQ(work_table::members_of(e), 15);
  EXPECT_EQ(work_table::kb_begin_of(e), 200);
  EXPECT_EQ(work_table::kb_count_of(e), 55);
}

// 132 CTAs over pooler's 32 tiles of 128 k-blocks: 28 tiles of 4 members and 4 of 5, CTA c on
// tile c % 32 as member c / 32, every CTA busy, every (tile, k-block) once, ranges within one
// k-block of equal. The unpooler's 64 tiles of 64: 60 tiles of 2 and 4 of 3.
TEST(SplitkWorkTable, KSplitMajorCoversOnce) {
  const auto work = work_table::build(132, 32, 128);
  ASSERT_EQ(work.size(), 132u);
  EXPECT_EQ(work_table::check(work, 32, 128), "");
  std::vector<int> per_tile(32, 0);
  for (std::size_t c = 0; c < work.size(); ++c) {
    const auto& w = work[c];
    EXPECT_EQ(w.tile, int(c % 32));
    EXPECT_EQ(w.member, int(c / 32));
    ++per_tile[std::size_t(w.tile)];
    const int lo = 128 / w.members;
    EXPECT_TRUE(w.kb_count == lo || w.kb_count == lo + 1) << w.kb_count << " of 128 over " << w.members;
  }
  EXPECT_EQ(std::count(per_tile.begin(), per_tile.end(), 4), 28);
  EXPECT_EQ(std::count(per_tile.begin(), per_tile.end(), 5), 4);
  const auto table = work_table::to_table(work, 32);
  EXPECT_EQ(table.n_tiles, 32);
  EXPECT_EQ(work_table::kb_count_of(table.entry[131]), work[131].kb_count);
  for (int c = 132; c < work_table::kMaxCtas; ++c) EXPECT_EQ(work_table::kb_count_of(table.entry[c]), 0);
  const auto unp = work_table::build(132, 64, 64);
  EXPECT_EQ(work_table::check(unp, 64, 64), "");
  EXPECT_EQ(std::count_if(unp.begin(), unp.end(), [](const work_table::Work& w) { return w.members == 3; }), 12);
}

TEST(SplitkWorkTable, CheckNamesABrokenTable) {
  const auto work = work_table::build(132, 32, 128);
  auto overlap = work;
  overlap[0].kb_begin += 1;  // overlaps its successor, leaves its first k-block uncovered
  EXPECT_NE(work_table::check(overlap, 32, 128).find("covered"), std::string::npos);
  auto members = work;
  members[5].members += 1;
  EXPECT_NE(work_table::check(members, 32, 128), "");
  auto idle = work;
  idle[7].kb_count = 0;  // a CTA dropped from its tile: its k-blocks uncovered
  EXPECT_NE(work_table::check(idle, 32, 128), "");
  auto twice = work;
  twice[40].member = twice[8].member;  // CTAs 8 and 40 share tile 8
  EXPECT_NE(work_table::check(twice, 32, 128), "");
}

TEST(SplitkWorkTable, BuildRefusesWhatTheFieldsCannotHold) {
  EXPECT_THROW(work_table::build(10, 32, 128), Error);                         // fewer CTAs than tiles
  EXPECT_THROW(work_table::build(132, 32, 256), Error);                        // 8-bit k-block fields
  EXPECT_THROW(work_table::build(work_table::kMaxCtas + 1, 32, 128), Error);  // the table's entries
  // 132 CTAs over 4 tiles would need 33 members each: the 4-bit field caps them at 15, the rest idle.
  const auto capped = work_table::build(132, 4, 128);
  EXPECT_EQ(work_table::check(capped, 4, 128), "");
  EXPECT_EQ(std::count_if(capped.begin(), capped.end(), [](const work_table::Work& w) { return w.kb_count > 0; }), 60);
  // and at most one member per k-block
  const auto short_k = work_table::build(132, 32, 3);
  EXPECT_EQ(work_table::check(short_k, 32, 3), "");
  EXPECT_EQ(std::count_if(short_k.begin(), short_k.end(), [](const work_table::Work& w) { return w.kb_count > 0; }), 96);
}

TEST(SplitkWorkTable, WgmmaTmaWt1Applicability) {
  const DeviceInfo d = fake_h200();
  const std::string wt = "wgmma_tma.bn128.bm64.split2.mc1.stages8.xfit1.red5.wt1";
  EXPECT_EQ(method_applicability(builtin_spec("pooler"), wt, 1, 64, d), "");
  // the unpooler's row slice at M <= 8 (a run with n_out < N) takes the equal split
  EXPECT_EQ(method_applicability(builtin_spec("unpooler"), wt, 1, 64, d), "");
  const KernelFamily* fam = find_kernel_family("wgmma_tma");
  ASSERT_NE(fam, nullptr);
  auto why = [&](const char* name, int lo, int hi) {
    return fam->applicable(builtin_spec("qkv"), Config::parse(name), lo, hi, d);
  };
  // two token tiles (qkv split1: a red5 grid of 36 CTAs that would fit the SMs)
  EXPECT_NE(why("wgmma_tma.bn128.bm64.split1.mc1.stages8.xfit1.red5.wt1", 1, 65).find("one token tile"),
            std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm64.split4.mc1.stages8.xfit1.red4.wt1", 1, 64).find("red5"), std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm128.split4.mc1.stages6.xfit1.red5.wt1", 1, 64).find("bm 64"), std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm64.split4.mc1.stages8.xfit1.red5.wt2", 1, 64), "");
}
