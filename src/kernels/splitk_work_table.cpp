// splitk_work_table: host builder and checks (see splitk_work_table.hpp).
#include "kernels/splitk_work_table.hpp"

#include <algorithm>
#include <cstdint>

#include "projkit/projkit.hpp"

namespace projkit::work_table {

std::vector<Work> build(int ctas, int n_tiles, int k_blocks) {
  auto refuse = [](const std::string& why) { throw Error(StatusCode::invalid_argument, "splitk_work_table: " + why); };
  if (ctas < 1 || ctas > kMaxCtas) refuse("CTAs must be 1.." + std::to_string(kMaxCtas));
  if (n_tiles < 1 || n_tiles > kMaxTiles) refuse("tiles must be 1.." + std::to_string(kMaxTiles));
  if (n_tiles > ctas) refuse("fewer CTAs than tiles");
  if (k_blocks < 1 || k_blocks > kMaxKBlocks) refuse("k-blocks per tile must be 1.." + std::to_string(kMaxKBlocks));
  // K-split-major: CTA c -> tile c % n_tiles, member c / n_tiles, while the tile has room.
  const int cap = std::min(kMaxMembers, k_blocks);
  std::vector<Work> work(static_cast<std::size_t>(ctas));  // idle unless assigned below
  for (int t = 0; t < n_tiles; ++t) {
    const int members = std::min(cap, (ctas - t + n_tiles - 1) / n_tiles);  // CTAs t, t + n_tiles, ...
    for (int j = 0; j < members; ++j) {
      Work& w = work[static_cast<std::size_t>(t + j * n_tiles)];
      w.tile = t;
      w.member = j;
      w.members = members;
      w.kb_begin = int(int64_t(k_blocks) * j / members);
      w.kb_count = int(int64_t(k_blocks) * (j + 1) / members) - w.kb_begin;
    }
  }
  return work;
}

std::string check(const std::vector<Work>& work, int n_tiles, int k_blocks) {
  if (work.empty() || int(work.size()) > kMaxCtas) return "CTA count outside 1.." + std::to_string(kMaxCtas);
  if (n_tiles < 1 || n_tiles > kMaxTiles) return "tiles outside 1.." + std::to_string(kMaxTiles);
  if (k_blocks < 1 || k_blocks > kMaxKBlocks) return "k-blocks outside 1.." + std::to_string(kMaxKBlocks);
  std::vector<std::vector<int>> cover(std::size_t(n_tiles), std::vector<int>(std::size_t(k_blocks), 0));
  std::vector<int> members(std::size_t(n_tiles), -1), seen(std::size_t(n_tiles), 0);
  std::vector<std::vector<int>> index_used(std::size_t(n_tiles), std::vector<int>(kMaxMembers, 0));
  for (std::size_t s = 0; s < work.size(); ++s) {
    const Work& w = work[s];
    if (w.kb_count == 0) continue;  // idle
    const std::string at = "CTA " + std::to_string(s) + ": ";
    if (w.tile < 0 || w.tile >= n_tiles) return at + "tile outside the grid";
    if (w.members < 1 || w.members > kMaxMembers) return at + "members outside 1.." + std::to_string(kMaxMembers);
    if (w.member < 0 || w.member >= w.members) return at + "member index outside 0..members-1";
    if (w.kb_count < 0 || w.kb_begin < 0 || w.kb_begin + w.kb_count > k_blocks) return at + "k-blocks outside the tile";
    int& m = members[std::size_t(w.tile)];
    if (m >= 0 && m != w.members) return at + "members differs from the tile's other members";
    m = w.members;
    if (index_used[std::size_t(w.tile)][std::size_t(w.member)]++) return at + "member index used twice in its tile";
    ++seen[std::size_t(w.tile)];
    for (int k = w.kb_begin; k < w.kb_begin + w.kb_count; ++k) ++cover[std::size_t(w.tile)][std::size_t(k)];
  }
  for (int t = 0; t < n_tiles; ++t) {
    if (seen[std::size_t(t)] != members[std::size_t(t)]) return "tile " + std::to_string(t) + ": member count mismatch";
    for (int k = 0; k < k_blocks; ++k)
      if (cover[std::size_t(t)][std::size_t(k)] != 1)
        return "tile " + std::to_string(t) + ", k-block " + std::to_string(k) + ": covered " +
               std::to_string(cover[std::size_t(t)][std::size_t(k)]) + " times";
  }
  return "";
}

Table to_table(const std::vector<Work>& work, int n_tiles) {
  Table t{};
  for (std::size_t s = 0; s < work.size() && s < std::size_t(kMaxCtas); ++s) {
    const Work& w = work[s];
    t.entry[s] = w.kb_count == 0 ? 0u : pack(w.tile, w.member, w.members, w.kb_begin, w.kb_count);
  }
  t.n_tiles = n_tiles;
  return t;
}

}  // namespace projkit::work_table
