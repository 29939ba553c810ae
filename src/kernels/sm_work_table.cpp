// sm_work_table: host builder and checks (see sm_work_table.hpp).
#include "kernels/sm_work_table.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "projkit/projkit.hpp"

namespace projkit::sm_work {

std::vector<Work> build(const std::vector<double>& rates, int n_tiles, int k_blocks, int members_cap) {
  const int sms = int(rates.size());
  auto refuse = [](const std::string& why) { throw Error(StatusCode::invalid_argument, "sm_work_table: " + why); };
  if (sms < 1 || sms > kMaxSms) refuse("SM count must be 1.." + std::to_string(kMaxSms));
  if (n_tiles < 1 || n_tiles > kMaxTiles) refuse("tiles must be 1.." + std::to_string(kMaxTiles));
  if (n_tiles > sms) refuse("fewer SMs than tiles");
  if (k_blocks < 1 || k_blocks > kMaxKBlocks) refuse("k-blocks per tile must be 1.." + std::to_string(kMaxKBlocks));
  for (double r : rates)
    if (!(r > 0.0) || !std::isfinite(r)) refuse("every rate must be finite and > 0");

  // SMs fastest first (ties by id); each onto the tile with the least summed rate (ties: fewer
  // members, then lower tile), while it has room: <= cap members and >= 1 k-block per member.
  std::vector<int> order(static_cast<std::size_t>(sms));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return rates[std::size_t(a)] > rates[std::size_t(b)]; });
  if (members_cap < 0) refuse("members_cap must be >= 0");
  const int cap = std::min({kMaxMembers, k_blocks, members_cap > 0 ? members_cap : kMaxMembers});
  std::vector<double> sum(static_cast<std::size_t>(n_tiles), 0.0);
  std::vector<std::vector<int>> members(static_cast<std::size_t>(n_tiles));
  std::vector<Work> work(static_cast<std::size_t>(sms));  // idle unless assigned below
  for (int s : order) {
    int best = -1;
    for (int t = 0; t < n_tiles; ++t) {
      if (int(members[std::size_t(t)].size()) >= cap) continue;
      if (best < 0 || sum[std::size_t(t)] < sum[std::size_t(best)] ||
          (sum[std::size_t(t)] == sum[std::size_t(best)] && members[std::size_t(t)].size() < members[std::size_t(best)].size()))
        best = t;
    }
    if (best < 0) continue;  // every tile full: this SM idles
    sum[std::size_t(best)] += rates[std::size_t(s)];
    members[std::size_t(best)].push_back(s);
  }
  // K ranges in proportion to the members' rates (members in SM-id order), cumulative rounding,
  // each member at least one k-block.
  for (int t = 0; t < n_tiles; ++t) {
    std::vector<int>& ms = members[std::size_t(t)];
    std::sort(ms.begin(), ms.end());
    const int n = int(ms.size());
    double acc = 0.0;
    int prev = 0;
    for (int j = 0; j < n; ++j) {
      acc += rates[std::size_t(ms[std::size_t(j)])];
      int end = j == n - 1 ? k_blocks : int(std::lround(double(k_blocks) * acc / sum[std::size_t(t)]));
      end = std::max(end, prev + 1);
      end = std::min(end, k_blocks - (n - 1 - j));
      Work& w = work[std::size_t(ms[std::size_t(j)])];
      w.tile = t;
      w.member = j;
      w.members = n;
      w.kb_begin = prev;
      w.kb_count = end - prev;
      prev = end;
    }
  }
  return work;
}

std::string check(const std::vector<Work>& work, int n_tiles, int k_blocks) {
  if (work.empty() || int(work.size()) > kMaxSms) return "SM count outside 1.." + std::to_string(kMaxSms);
  if (n_tiles < 1 || n_tiles > kMaxTiles) return "tiles outside 1.." + std::to_string(kMaxTiles);
  if (k_blocks < 1 || k_blocks > kMaxKBlocks) return "k-blocks outside 1.." + std::to_string(kMaxKBlocks);
  std::vector<std::vector<int>> cover(std::size_t(n_tiles), std::vector<int>(std::size_t(k_blocks), 0));
  std::vector<int> members(std::size_t(n_tiles), -1), seen(std::size_t(n_tiles), 0);
  std::vector<std::vector<int>> index_used(std::size_t(n_tiles), std::vector<int>(kMaxMembers, 0));
  for (std::size_t s = 0; s < work.size(); ++s) {
    const Work& w = work[s];
    if (w.kb_count == 0) continue;  // idle
    const std::string at = "SM " + std::to_string(s) + ": ";
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
  for (std::size_t s = 0; s < work.size() && s < std::size_t(kMaxSms); ++s) {
    const Work& w = work[s];
    t.entry[s] = w.kb_count == 0 ? 0u : pack(w.tile, w.member, w.members, w.kb_begin, w.kb_count);
  }
  t.times_ns = nullptr;
  t.n_tiles = n_tiles;
  t.by_block = 0;
  return t;
}

double predicted_span(const std::vector<Work>& work, const std::vector<double>& rates) {
  double span = 0.0;
  for (std::size_t s = 0; s < work.size() && s < rates.size(); ++s)
    if (work[s].kb_count > 0) span = std::max(span, double(work[s].kb_count) / rates[s]);
  return span;
}

}  // namespace projkit::sm_work
