// `projkit tune`: derive a dispatch plan from measurements on this device.
//
// Per family and per M: every applicable method config (baseline always a candidate)
// is checked for correctness (one seed, probe rows, poisoned output, the contract
// tolerance, NaN/Inf propagation as the baseline's; a config that fails is excluded
// and logged), then timed with the judge's
// protocol (graph per rotated copy, L2 flush, paired and order-swapped against the
// baseline) with few pairs ("screening"). The finalists (the best `top` screened
// configs + the current plan's choice + baseline) are re-timed with more pairs; a
// challenger displaces the current choice only if its ratio beats it by >= margin.
// Then range boundaries are checked against their neighbours (see plan_from_log), equal
// neighbours merge into ranges, and the plan is written.
//
// Every measurement and decision goes to a JSON-lines log (one record per line, schema
// below). The plan is a pure function of that log (plan_from_log), so the same
// measurements give the same plan, and a partial log resumes a run (--resume).
//
// Log records ("type" field):
//   start        {device, families, ms, screen_pairs, pairs, margin, top, flush}  (flush absent = "write")
//   inapplicable {family, config, m: [lo, hi], reason}          not screened there
//   screen       {family, m, config, ratio, base_us, cand_us, pairs} | {family, m, config, excluded}
//   retest       {family, m, config, ratio, base_us, cand_us, pairs}
//   decision     {family, m, incumbent, finalists: [{config, ratio}], chosen, ratio}
//   neighbour    {family, m, config, ratio, base_us, cand_us, pairs} | {family, m, config, excluded}
//   plan         {path}
#pragma once

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "projkit/projkit.hpp"

namespace projkit::lab {

inline constexpr const char* kTuneLogSchema = "projkit.tunelog/1";
inline constexpr int kTuneMaxM = 256;

// ---------------------------------------------------------------- pure decision logic
// (host only, unit-tested on the CPU)

// A config and its measured ratio over the baseline (> 1: faster). Baseline is 1 by definition.
struct RatedConfig {
  std::string config;
  double ratio = 0.0;
};

// Tie-break key: the ratio rounded to 3 decimals.
double ratio_key(double ratio);
// Ranking order: higher ratio_key first, then config name ascending (deterministic).
bool ranks_before(const RatedConfig& a, const RatedConfig& b);

// The finalists at one M: the `top` best-ranked screened configs (baseline excluded from
// the count), the incumbent when it was screened at this M, and baseline. Sorted by name.
std::vector<std::string> select_finalists(const std::vector<RatedConfig>& screened, const std::string& incumbent,
                                          int top);

// The margin rule over the finalists' retest ratios (baseline may be absent: it rates 1).
// The best-ranked finalist wins, except that a measured incumbent stays unless the best
// beats its ratio by >= margin (relative). An incumbent other than baseline that measured
// below 1 (slower than baseline) has no such protection.
RatedConfig choose_config(std::vector<RatedConfig> finalists, const std::string& incumbent, double margin);

// A (family, m, config) measurement the neighbour check still needs.
struct TuneNeed {
  std::string family;
  int m = 0;
  std::string config;
  bool operator<(const TuneNeed& o) const {
    return std::tie(family, m, config) < std::tie(o.family, o.m, o.config);
  }
  bool operator==(const TuneNeed& o) const = default;
};

struct TunePlanBuild {
  Plan plan;
  std::vector<TuneNeed> missing;  // sorted; empty when the plan is final
};

// The plan from the log's decisions (pure). Per family with decisions:
//  1. each decided M takes its decision's choice;
//  2. neighbour check, at every boundary m|m+1 (both decided) between methods A and B:
//     the longer run's method (A on a tie) is the incumbent at the other side's boundary
//     M, which keeps its own method only if that beats the incumbent there by >= margin
//     (and the incumbent measured >= 1 there); otherwise the boundary M moves over.
//     The ratios come from the decision's finalists and `neighbour` records; a ratio
//     neither measured nor excluded is reported in `missing` (the caller measures it and
//     calls again). Repeats until no boundary moves (each move lengthens the longer run,
//     so it terminates);
//  3. undecided M keep the existing plan's method; equal neighbours merge; baseline
//     ranges are left out (unmapped = baseline); a range's ratio is the median of its
//     decided M's ratios (0 when none).
// Families without decisions keep the existing plan's ranges. Later records win over
// earlier ones for the same (family, m[, config]).
TunePlanBuild plan_from_log(const Plan& existing, const PlanHeader& header, const std::vector<nlohmann::json>& records,
                            double margin);

// A JSON-lines log. A malformed last line (a run killed mid-write) is dropped with a
// warning; a malformed line elsewhere, or a wrong schema in a start record, throws
// Error(parse_error) naming the line; an xz- or gzip-compressed log throws Error(parse_error)
// naming the command that restores its lines.
struct TuneLog {
  std::vector<nlohmann::json> records;
  std::vector<std::string> warnings;
};
TuneLog parse_tune_log(std::string_view text);
// The (family, m) pairs that already have a decision record.
std::set<std::pair<std::string, int>> decided_cases(const std::vector<nlohmann::json>& records);

// ---------------------------------------------------------------- the driver (GPU)
struct TuneOptions {
  std::vector<std::string> families;  // empty = every built-in family
  std::vector<int> ms;                // empty = 1..256
  std::vector<std::string> kernels;   // kernel names to screen; empty = all but "reference"
  int screen_pairs = 20;              // paired replays per screened (config, m), >= 4
  int pairs = 60;                     // paired replays per finalist retest / neighbour, >= 60
  int top = 3;                        // screened configs that reach the retest, >= 1
  double margin = 0.02;               // relative gain a challenger needs over the incumbent
  int min_copies = 8;                 // rotated copies, >= 8 (raised until > 2x L2)
  std::string flush = "write";        // L2 flush before each replay: "write" (the judge's) or "read" (a clean
                                      // L2, as a serving process mostly sees it; ledger P45)
  Plan existing = Plan::safe();       // the current plan: incumbents, and the untuned ranges
  std::vector<nlohmann::json> resumed;  // records of a partial log: decided (family, m) are skipped
  int device = 0;
  std::function<void(const nlohmann::json&)> log;       // each new record (required)
  std::function<void(const std::string&)> progress;     // progress lines (may be empty)
};
// Throws Error(invalid_argument) naming the bad option (no device needed), including a resumed
// log measured under another --flush than o.flush (its measurements would not compare).
void validate_tune_options(const TuneOptions& o);

// Runs the measurements and returns the plan (header from the device).
Plan run_tune(const TuneOptions& o);

}  // namespace projkit::lab
