// `projkit bench`: the judge's protocol over a workload. Per family, rotated copies
// (own weights, own baseline and candidate Projections, own activations and outputs;
// total bytes > 2x L2); per case one graph per copy and side; paired, order-swapped
// replays with an L2 flush before each; medians; floor per payload size.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lab/env.hpp"
#include "lab/floor.hpp"
#include "lab/stats.hpp"
#include "lab/timing.hpp"
#include "projkit/projkit.hpp"

namespace projkit::lab {

struct BenchOptions {
  Workload workload = Workload::builtin_default();
  std::vector<int> loads;              // M values to run; empty = the workload's loads
  std::vector<std::string> families;   // empty = the workload's families
  Plan plan = Plan::safe();            // candidate = Projection(spec, w, plan) ...
  std::string method;                  // ... unless a method is named
  bool baseline_vs_baseline = false;   // A/A: candidate = baseline
  int pairs = 100;                     // >= 50
  int min_copies = 8;                  // >= 8; raised until copies exceed 2x L2
  int device = 0;
  FlushMode flush = FlushMode::write;  // L2 flush before each replay
  // Diagnostics (ledger P41: does a process's allocation history move the timings, P19?): per
  // family, device buffers of ballast_mb MiB, never read by any timed graph: one per rotated copy
  // after the candidates are prepared, or min_copies of them before the rotated copies
  // (ballast_before); memset when ballast_touch. 0 = none (then the two flags are refused).
  int ballast_mb = 0;
  bool ballast_before = false;
  bool ballast_touch = false;
  // Diagnostics (P41b): each candidate is prepared on its own device copy of its rotated copy's W
  // (the same values, another buffer), so the pairs read two weight buffers as a method with a
  // packed copy does, with an in-place method's kernel.
  bool cand_own_w = false;
  std::function<void(const std::string&)> progress;  // one line per case (may be empty)
};

struct BenchReport {
  BenchEnv env;
  double overhead_us = 0.0;
  std::vector<BenchCase> cases;
  std::vector<LoadSpeedup> loads;
  double score = 0.0;
};

// The cases (family, m, weight) a bench run times, in run order (family-major).
std::vector<BenchCase> plan_bench_cases(const Workload& w, const std::vector<int>& loads,
                                        const std::vector<std::string>& families);
// Bytes a call must move: weight bytes read + x + y.
std::size_t call_bytes(const ProjectionSpec& spec, int m);

BenchReport run_bench(const BenchOptions& opts);

// What the report's env records of the diagnostics (--cand-own-w, --ballast), "" when none is on;
// throws invalid_argument for a negative ballast or a ballast flag without a ballast size.
std::string diagnostics_label(const BenchOptions& opts);

// The rotated copies of one family, shared with `projkit tune`: each copy has its own
// weights and activations (bench seeds), outputs, a baseline Projection and a candidate
// slot (`cand`, set by the caller). Enough copies that their bytes exceed 2x L2.
struct RotatedCopy {
  DeviceBuffer w, x, y_base, y_cand;
  DeviceBuffer w_cand;  // bench --cand-own-w (P41b): the candidate's own copy of w; empty otherwise
  std::unique_ptr<Projection> base, cand;
};
std::vector<RotatedCopy> make_rotated_copies(const ProjectionSpec& spec, int max_m, int min_copies,
                                             const DeviceInfo& dev, cudaStream_t s);
// One graph per copy of (candidate ? cand : base)->run(x, m, y) (throws naming the side).
std::vector<GraphExec> capture_copies(const std::vector<RotatedCopy>& copies, int m, bool candidate, cudaStream_t s);

}  // namespace projkit::lab
