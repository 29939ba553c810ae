// sm_work_table: the work of a split-K grid assigned per SM (%smid), with each SM's K range
// sized by its measured stream rate (docs/design.md, "split-K ranges sized by each SM's rate";
// ledger E58). User: wgmma_tma red5 with the config key smt (experiment).
// Regime: memory-bound split-K GEMMs whose call ends with its slowest CTA, where the slow CTAs
//   are slow because of their SM (ledger P4, P11), not because of their work.
// Mechanism: a cooperative grid of exactly sm_count CTAs, one per SM (the kernel's occupancy is
//   one CTA per SM), so %smid names a CTA. entry[smid] packs (output tile, member index, members
//   of that tile, first k-block, k-block count). The builder gives every tile a set of SMs whose
//   summed rates are about equal (longest-rate-first onto the tile with the least summed rate),
//   then splits the tile's k-blocks over its members in proportion to their rates.
// Constraints: sm_count <= kMaxSms; tiles <= 256; members per tile <= 15; k-blocks per tile
//   <= 255; every SM id of the grid in [0, sm_count) (checked by the prepared method at
//   calibration; the kernel traps on an id outside the table). The table is a kernel
//   parameter (__grid_constant__), not global memory: a cold global load would cost a DRAM round
//   trip before the first TMA issue (the judge flushes L2 before every call).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#if defined(__CUDACC__)
#define PROJKIT_SM_WORK_HD __host__ __device__
#else
#define PROJKIT_SM_WORK_HD
#endif

namespace projkit::sm_work {

constexpr int kMaxSms = 192;        // table entries (H200: 132 SMs)
constexpr int kMaxMembers = 15;     // 4-bit member / members fields
constexpr int kMaxTiles = 256;      // 8-bit tile field
constexpr int kMaxKBlocks = 255;    // 8-bit first k-block and count fields

// Calibration times per SM id: CTA entry, first stage landed, main loop end. An SM's rate is its
// k-blocks / (main loop end - first stage): the start-up before the first stage is common to all
// SMs and not proportional to the work (E58's first call sized ranges by k-blocks / (end - entry)
// and penalized the SMs with the least work).
constexpr int kTimeSlots = 3;

// The kernel parameter (passed by value, __grid_constant__): 784 bytes.
struct Table {
  uint32_t entry[kMaxSms];       // per SM id, packed by pack() below; count 0 = the SM idles
  unsigned long long* times_ns;  // calibration only: [kMaxSms][kTimeSlots] ns; nullptr otherwise
  int n_tiles;                   // output tiles of the grid (the zero warp's flag blocks)
  int by_block;                  // 1: entries indexed by blockIdx.x instead of %smid (E58c, no SM-id assumption)
};

// One SM's work, unpacked.
struct Work {
  int tile = 0;      // output tile (BN W rows)
  int member = 0;    // index among the tile's members, 0..members-1 (its zero share)
  int members = 0;   // CTAs adding into the tile
  int kb_begin = 0;  // first k-block
  int kb_count = 0;  // k-blocks (0: idle)
};

PROJKIT_SM_WORK_HD constexpr uint32_t pack(int tile, int member, int members, int kb_begin, int kb_count) {
  return uint32_t(tile) | uint32_t(member) << 8 | uint32_t(members) << 12 | uint32_t(kb_begin) << 16 |
         uint32_t(kb_count) << 24;
}
PROJKIT_SM_WORK_HD constexpr int tile_of(uint32_t e) { return int(e & 0xffu); }
PROJKIT_SM_WORK_HD constexpr int member_of(uint32_t e) { return int((e >> 8) & 0xfu); }
PROJKIT_SM_WORK_HD constexpr int members_of(uint32_t e) { return int((e >> 12) & 0xfu); }
PROJKIT_SM_WORK_HD constexpr int kb_begin_of(uint32_t e) { return int((e >> 16) & 0xffu); }
PROJKIT_SM_WORK_HD constexpr int kb_count_of(uint32_t e) { return int(e >> 24); }

// Host: the work of each of the rates.size() SMs for n_tiles tiles of k_blocks k-blocks each.
// rates[s] > 0: SM s's relative stream rate. members_cap > 0: at most that many members per tile
// (the fastest n_tiles x members_cap SMs work, the rest idle); 0: as many as the fields and the
// k-blocks allow. Throws Error(invalid_argument) naming the violated limit. Deterministic for
// given rates.
std::vector<Work> build(const std::vector<double>& rates, int n_tiles, int k_blocks, int members_cap = 0);

// Host: "" if `work` covers every (tile, k-block) exactly once, with consistent member indices
// and counts and every field within its bits; else the first violation.
std::string check(const std::vector<Work>& work, int n_tiles, int k_blocks);

// Host: the kernel parameter for `work` (check() must pass; times_ns left null).
Table to_table(const std::vector<Work>& work, int n_tiles);

// Host: the slowest tile's time in units of k-blocks / rate (what the table predicts for the
// call's stream part): max over tiles of max over members of kb_count / rate.
double predicted_span(const std::vector<Work>& work, const std::vector<double>& rates);

}  // namespace projkit::sm_work
