// The practical read floor per payload size: the best of a few streaming-read
// kernels, timed with the bench protocol (graph per rotated copy, L2 flush, replay
// overhead subtracted). Reference on an H200: about 1.8 us + bytes / 3.9 TB/s.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "lab/timing.hpp"

namespace projkit::lab {

struct FloorVariant {
  std::string name;  // e.g. "stream_read.unroll8.no_allocate"
  double us = 0.0;   // median, overhead subtracted
  bool order_probe = false;  // an access-order probe (L7): reported, never the floor
};

struct FloorResult {
  std::size_t bytes = 0;
  double floor_us = 0.0;  // best variant
  std::string best;
  double model_us = 0.0;  // floor_model_us(bytes), for comparison
  std::vector<FloorVariant> variants;
};

// What the probe's buffer holds. zero: cudaMemset (every floor before session 27); weights:
// bf16 values drawn as the bench's weights are (fill_weight_bytes), so the streams read the
// kind of bytes the projections read (ledger P27).
enum class FloorFill { zero, weights };
FloorFill parse_floor_fill(const std::string& s);  // "zero" or "weights", else invalid_argument
const char* floor_fill_name(FloorFill f);

class FloorProbe {
 public:
  // order_probes: also time the access-order probes (L7; `projkit floor --order-probes`). They
  // are reported with the variants and never taken as the floor.
  explicit FloorProbe(GraphTimer& timer, int reps = 64, bool order_probes = false, FloorFill fill = FloorFill::zero)
      : timer_(timer), reps_(reps), order_probes_(order_probes), fill_(fill) {}
  // Measured once per payload size within the probe's lifetime.
  const FloorResult& measure(std::size_t bytes);
  double floor_us(std::size_t bytes) { return measure(bytes).floor_us; }

 private:
  GraphTimer& timer_;
  int reps_;
  bool order_probes_;
  FloorFill fill_;
  std::map<std::size_t, FloorResult> cache_;
};

}  // namespace projkit::lab
