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

// E111: a skew of s k-blocks moves s from each of a tile's first members / 2 members to each of
// its last members / 2 (a middle member of an odd count keeps its range); the table still covers
// every (tile, k-block) once. qkv's 18 tiles of 128 k-blocks over 132 CTAs: 6 tiles of 8 members
// (16 each), 12 of 7 (18 or 19); a skew that empties a member is refused.
TEST(SplitkWorkTable, SkewMovesKBlocksFromTheFirstToTheLastMembers) {
  for (int skew : {1, 2}) {
    const auto equal = work_table::build(132, 18, 128);
    const auto work = work_table::build(132, 18, 128, skew);
    ASSERT_EQ(work.size(), equal.size());
    EXPECT_EQ(work_table::check(work, 18, 128), "");
    for (std::size_t c = 0; c < work.size(); ++c) {
      const auto &w = work[c], &e = equal[c];
      EXPECT_EQ(w.tile, e.tile);
      EXPECT_EQ(w.member, e.member);
      EXPECT_EQ(w.members, e.members);
      const int half = w.members / 2;
      const int want = w.member < half ? e.kb_count - skew : w.member >= w.members - half ? e.kb_count + skew : e.kb_count;
      EXPECT_EQ(w.kb_count, want) << "CTA " << c << " member " << w.member << " of " << w.members;
      if (w.member == 0) EXPECT_EQ(w.kb_begin, 0);
    }
  }
  // The unpooler's 64 tiles of 64 k-blocks, 2-3 members: 32 k-blocks leave a member with none.
  EXPECT_NO_THROW(work_table::build(132, 64, 64, 2));
  EXPECT_THROW(work_table::build(132, 64, 64, 32), Error);
  EXPECT_THROW(work_table::build(132, 64, 64, -1), Error);
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
  EXPECT_EQ(why("wgmma_tma.bn128.bm128.split4.mc1.stages6.xfit1.red5.wt1", 1, 64), "");  // bm 128 since E111
  EXPECT_NE(why("wgmma_tma.bn128.bm64.split4.mc1.stages8.xfit1.red5.wt2", 1, 64), "");
  // E111: bm 128 / 256 with W itself and a skew of 1..2 k-blocks, only with wt1
  const std::string sk = "wgmma_tma.bn128.bm256.split2.mc1.stages4.xfit1.red5.wt1.sk1";
  for (const char* f : {"qkv", "pooler", "unpooler", "o"})
    EXPECT_EQ(method_applicability(builtin_spec(f), sk, 193, 256, d), "") << f;
  EXPECT_NE(why("wgmma_tma.bn128.bm256.split2.mc1.stages4.xfit1.red5.wt1.sk3", 193, 256).find("sk must be"),
            std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm256.split2.mc1.stages4.xfit1.red5.rk1.sk1", 193, 256).find("sk must be"),
            std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm256.split2.mc1.stages4.xfit1.red5.wt1.wsl1", 193, 256).find("with W itself"),
            std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm192.split2.mc1.stages5.xfit1.red5.wt1", 129, 192).find("bm 64, or bm 128 / 256"),
            std::string::npos);
  EXPECT_EQ(why("wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red5.wt1.sk1", 65, 128), "");
  EXPECT_NE(why("wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red5.wt1.sk1", 65, 129).find("one token tile"),
            std::string::npos);
  // o's 64 tiles of 16 k-blocks over 2-3 members: a skew of 2 leaves every member a k-block; the
  // table's refusal reaches applicable() for a spec whose members would be emptied
  EXPECT_EQ(method_applicability(builtin_spec("o"), "wgmma_tma.bn128.bm256.split2.mc1.stages4.xfit1.red5.wt1.sk2", 1,
                                 256, d),
            "");
  ProjectionSpec tiny = builtin_spec("o");
  tiny.k = 128;  // 2 k-blocks per tile over 2-3 members
  EXPECT_NE(fam->applicable(tiny, Config::parse("wgmma_tma.bn128.bm256.split2.mc1.stages4.xfit1.red5.wt1.sk1"), 1,
                            256, d)
                .find("without k-blocks"),
            std::string::npos);
}
