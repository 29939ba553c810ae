// dev_stamps: the host side of the kernels' dev phase probes (PROJKIT_WGMMA_STAMPS builds only;
// nothing includes it otherwise). A probed kernel writes globaltimer values into per-CTA slots;
// its prepared method copies them back when destroyed and calls report(): the min / median / max
// of each named phase on stderr, and one CSV row per CTA appended to $PROJKIT_WGMMA_STAMPS_CSV.
// Users: wgmma_tma (ledger E11, P4-P7), router_hilo_ring (P8).
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

namespace projkit::dev_stamps {

struct Phase {
  const char* name;
  unsigned slot;
};

// h: n CTAs x `slots` values; t0: the reference time (the earliest start). Recorded values are
// nonzero; 0 means "not recorded" (left out of the summary, written as 0 in the CSV). `prefix(c)`
// gives the CSV row's leading columns for CTA c (config, indices, %smid); the row then holds the
// `csv` slots as ns from t0.
template <class Prefix>
void report(const std::string& name, const std::vector<unsigned long long>& h, unsigned slots, unsigned n,
            unsigned long long t0, std::initializer_list<Phase> phases, std::initializer_list<unsigned> csv,
            Prefix prefix) {
  std::fprintf(stderr, "STAMPS %s ctas=%u (ns from the earliest start: min / median / max)\n", name.c_str(), n);
  for (const Phase& p : phases) {
    std::vector<double> v;
    for (unsigned c = 0; c < n; ++c)
      if (h[c * slots + p.slot]) v.push_back(double(h[c * slots + p.slot] - t0));
    if (v.empty()) continue;
    std::sort(v.begin(), v.end());
    std::fprintf(stderr, "STAMPS   %-15s %8.0f %8.0f %8.0f\n", p.name, v.front(), v[v.size() / 2], v.back());
  }
  const char* path = std::getenv("PROJKIT_WGMMA_STAMPS_CSV");
  if (!path) return;
  FILE* f = std::fopen(path, "a");
  if (!f) return;
  for (unsigned c = 0; c < n; ++c) {
    std::fprintf(f, "%s", prefix(c).c_str());
    for (unsigned i : csv) {
      const unsigned long long v = h[c * slots + i];
      std::fprintf(f, ",%lld", (long long)(v ? v - t0 : 0));
    }
    std::fprintf(f, "\n");
  }
  std::fclose(f);
}

}  // namespace projkit::dev_stamps
