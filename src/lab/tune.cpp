// `projkit tune`: the pure decision logic (finalists, margin rule, log -> plan) and the
// GPU driver that measures (see tune.hpp).
#include "lab/tune.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>

#include "core/method.hpp"
#include "lab/bench.hpp"
#include "lab/check.hpp"
#include "lab/report.hpp"
#include "lab/stats.hpp"
#include "lab/timing.hpp"

namespace projkit::lab {

using nlohmann::json;

namespace {

constexpr const char* kBaseline = "baseline";

// Per family: every measured ratio at each M (retest finalists, neighbour records),
// the configs excluded there, and the decision's choice.
struct MData {
  std::string chosen;
  std::map<std::string, double> ratio;
  std::set<std::string> excluded;
};
using FamilyData = std::map<int, MData>;  // decided M only

std::optional<double> rating(const MData& d, const std::string& config) {
  if (config == kBaseline) return 1.0;
  auto it = d.ratio.find(config);
  if (it == d.ratio.end()) return std::nullopt;
  return it->second;
}

std::map<std::string, FamilyData> collect(const std::vector<json>& records) {
  std::map<std::string, FamilyData> out;
  // Decisions first (the last one per (family, m) wins), then neighbour records on top.
  for (const json& r : records) {
    if (r.value("type", "") != "decision") continue;
    MData d;
    d.chosen = r.at("chosen").get<std::string>();
    for (const json& f : r.at("finalists")) d.ratio[f.at("config").get<std::string>()] = f.at("ratio").get<double>();
    d.ratio[d.chosen] = r.at("ratio").get<double>();
    out[r.at("family").get<std::string>()][r.at("m").get<int>()] = std::move(d);
  }
  for (const json& r : records) {
    if (r.value("type", "") != "neighbour") continue;
    auto f = out.find(r.at("family").get<std::string>());
    if (f == out.end()) continue;
    auto m = f->second.find(r.at("m").get<int>());
    if (m == f->second.end()) continue;
    const std::string cfg = r.at("config").get<std::string>();
    if (r.contains("excluded")) {
      m->second.excluded.insert(cfg);
      m->second.ratio.erase(cfg);
    } else {
      m->second.ratio[cfg] = r.at("ratio").get<double>();
      m->second.excluded.erase(cfg);
    }
  }
  return out;
}

// Length of the run of `method` through m in direction step (+1 / -1), decided M only.
int run_length(const std::map<int, std::string>& choice, int m, int step) {
  int n = 0;
  for (auto it = choice.find(m); it != choice.end() && it->second == choice.at(m); it = choice.find(it->first + step)) ++n;
  return n;
}

// Step 2 of plan_from_log for one family: returns the per-M choice after the neighbour check.
std::map<int, std::string> neighbour_check(const std::string& family, const FamilyData& data, double margin,
                                           std::set<TuneNeed>& missing) {
  std::map<int, std::string> choice;
  for (const auto& [m, d] : data) choice[m] = d.chosen;
  for (bool moved = true; moved;) {
    moved = false;
    for (const auto& [m, a] : choice) {
      auto next = choice.find(m + 1);
      if (next == choice.end() || next->second == a) continue;
      const std::string& b = next->second;
      const int len_a = run_length(choice, m, -1), len_b = run_length(choice, m + 1, +1);
      // The longer run's method is the incumbent at the other side's boundary M.
      const bool a_leads = len_a >= len_b;
      const std::string incumbent = a_leads ? a : b;
      const std::string own = a_leads ? b : a;
      const int at = a_leads ? m + 1 : m;
      const MData& d = data.at(at);
      const std::optional<double> r_inc = rating(d, incumbent);
      if (!r_inc) {
        if (!d.excluded.count(incumbent)) missing.insert({family, at, incumbent});
        continue;
      }
      const double r_own = rating(d, own).value_or(0.0);
      const bool inc_ok = incumbent == kBaseline || *r_inc >= 1.0;
      // A method chosen at one M only, between other choices, is the likeliest noise win
      // (run E/F: single-M cublaslt picks measured 0.977-1.00 in the sweep): it must beat the
      // neighbouring method there by twice the margin.
      const int own_len = a_leads ? len_b : len_a;
      const double need = own_len == 1 ? 2.0 * margin : margin;
      if (inc_ok && r_own < *r_inc * (1.0 + need)) {
        choice[at] = incumbent;
        moved = true;
        break;  // the map changed under the loop: rescan from the start
      }
    }
  }
  return choice;
}

std::vector<PlanRange> merge_ranges(const std::vector<std::string>& method, const std::vector<double>& ratio,
                                    const std::vector<bool>& decided, const std::vector<PlanRange>* existing) {
  std::vector<PlanRange> out;
  for (std::size_t lo = 1; lo < method.size();) {
    std::size_t hi = lo;
    while (hi + 1 < method.size() && method[hi + 1] == method[lo]) ++hi;
    if (method[lo] != kBaseline) {
      std::vector<double> rs;
      for (std::size_t m = lo; m <= hi; ++m)
        if (decided[m]) rs.push_back(ratio[m]);
      double r = rs.empty() ? 0.0 : median(rs);
      if (rs.empty() && existing)
        for (const PlanRange& e : *existing)
          if (int(lo) >= e.m_lo && int(lo) <= e.m_hi && e.method == method[lo]) r = e.ratio;
      out.push_back({int(lo), int(hi), method[lo], r});
    }
    lo = hi + 1;
  }
  return out;
}

}  // namespace

double ratio_key(double ratio) { return std::round(ratio * 1000.0) / 1000.0; }

bool ranks_before(const RatedConfig& a, const RatedConfig& b) {
  const double ka = ratio_key(a.ratio), kb = ratio_key(b.ratio);
  if (ka != kb) return ka > kb;
  return a.config < b.config;
}

std::vector<std::string> select_finalists(const std::vector<RatedConfig>& screened, const std::string& incumbent,
                                          int top) {
  std::vector<RatedConfig> ranked;
  for (const RatedConfig& c : screened)
    if (c.config != kBaseline) ranked.push_back(c);
  std::sort(ranked.begin(), ranked.end(), ranks_before);
  std::set<std::string> out{kBaseline};
  for (std::size_t i = 0; i < ranked.size() && int(i) < top; ++i) out.insert(ranked[i].config);
  for (const RatedConfig& c : ranked)
    if (c.config == incumbent) out.insert(incumbent);
  return {out.begin(), out.end()};
}

RatedConfig choose_config(std::vector<RatedConfig> finalists, const std::string& incumbent, double margin) {
  if (std::none_of(finalists.begin(), finalists.end(), [](const RatedConfig& c) { return c.config == kBaseline; }))
    finalists.push_back({kBaseline, 1.0});
  for (RatedConfig& c : finalists)
    if (c.config == kBaseline) c.ratio = 1.0;
  std::sort(finalists.begin(), finalists.end(), ranks_before);
  const RatedConfig& best = finalists.front();
  auto inc = std::find_if(finalists.begin(), finalists.end(), [&](const RatedConfig& c) { return c.config == incumbent; });
  if (inc == finalists.end() || inc->config == best.config) return best;
  if (inc->config != kBaseline && inc->ratio < 1.0) return best;
  return best.ratio >= inc->ratio * (1.0 + margin) ? best : *inc;
}

TunePlanBuild plan_from_log(const Plan& existing, const PlanHeader& header, const std::vector<json>& records,
                            double margin) {
  std::map<std::string, FamilyData> data;
  try {
    data = collect(records);
  } catch (const json::exception& e) {
    throw Error(StatusCode::parse_error, std::string("tune log: missing or mistyped field: ") + e.what());
  }
  std::set<TuneNeed> missing;
  TunePlanBuild out;
  out.plan = Plan::safe();
  out.plan.source = "tune";
  out.plan.header = header;
  std::map<std::string, std::vector<PlanRange>> tuned;
  for (const auto& [family, fd] : data) {
    const std::map<int, std::string> choice = neighbour_check(family, fd, margin, missing);
    const std::vector<PlanRange>* old = existing.ranges(family);
    int top = kTuneMaxM;
    if (old)
      for (const PlanRange& r : *old) top = std::max(top, r.m_hi);
    top = std::max(top, choice.rbegin()->first);
    std::vector<std::string> method(std::size_t(top) + 1);
    std::vector<double> ratio(std::size_t(top) + 1, 0.0);
    std::vector<bool> decided(std::size_t(top) + 1, false);
    for (int m = 1; m <= top; ++m) method[std::size_t(m)] = existing.method_for(family, m);
    for (const auto& [m, c] : choice) {
      method[std::size_t(m)] = c;
      ratio[std::size_t(m)] = rating(fd.at(m), c).value_or(0.0);
      decided[std::size_t(m)] = true;
    }
    tuned[family] = merge_ranges(method, ratio, decided, old);
  }
  for (const auto& [family, ranges] : existing.families)
    if (!tuned.count(family)) out.plan.families.emplace_back(family, ranges);
    else out.plan.families.emplace_back(family, tuned.at(family));
  for (const auto& [family, ranges] : tuned)
    if (!existing.ranges(family)) out.plan.families.emplace_back(family, ranges);
  out.missing.assign(missing.begin(), missing.end());
  return out;
}

TuneLog parse_tune_log(std::string_view text) {
  // plans/tune-logs/ keeps its logs xz-compressed; read as text, such a file would fail on its first
  // line with a JSON error that does not say why.
  if (text.substr(0, 6) == std::string_view("\xFD" "7zXZ\0", 6))
    throw Error(StatusCode::parse_error, "the tune log is xz-compressed: restore its JSON lines first (xz -dk LOG)");
  if (text.substr(0, 2) == std::string_view("\x1F\x8B", 2))
    throw Error(StatusCode::parse_error, "the tune log is gzip-compressed: restore its JSON lines first (gzip -dk LOG)");
  TuneLog log;
  std::vector<std::pair<int, std::string_view>> lines;
  int lineno = 0;
  for (std::size_t pos = 0; pos <= text.size();) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    ++lineno;
    std::string_view line = text.substr(pos, nl - pos);
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) lines.emplace_back(lineno, line);
    pos = nl + 1;
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& [no, line] = lines[i];
    json r;
    try {
      r = json::parse(line);
      if (!r.is_object() || !r.contains("type") || !r.at("type").is_string())
        throw Error(StatusCode::parse_error, "not an object with a string 'type'");
    } catch (const std::exception& e) {
      if (i + 1 == lines.size()) {
        log.warnings.push_back("tune log line " + std::to_string(no) + " is incomplete (dropped): " + e.what());
        break;
      }
      throw Error(StatusCode::parse_error, "tune log line " + std::to_string(no) + ": " + e.what());
    }
    if (r["type"] == "start" && r.value("schema", "") != kTuneLogSchema)
      throw Error(StatusCode::parse_error, "tune log line " + std::to_string(no) + ": schema must be \"" +
                                               kTuneLogSchema + "\"");
    log.records.push_back(std::move(r));
  }
  return log;
}

std::set<std::pair<std::string, int>> decided_cases(const std::vector<json>& records) {
  std::set<std::pair<std::string, int>> out;
  for (const json& r : records)
    if (r.value("type", "") == "decision") out.emplace(r.at("family").get<std::string>(), r.at("m").get<int>());
  return out;
}

void validate_tune_options(const TuneOptions& o) {
  auto bad = [](const std::string& msg) { throw Error(StatusCode::invalid_argument, "tune: " + msg); };
  for (const std::string& f : o.families) builtin_spec(f);  // throws naming the family
  for (int m : o.ms)
    if (m < 1 || m > kTuneMaxM) bad("M must be in [1, " + std::to_string(kTuneMaxM) + "], got " + std::to_string(m));
  for (const std::string& k : o.kernels)
    if (!find_kernel_family(k)) bad("unknown kernel '" + k + "' in --kernels");
  if (o.screen_pairs < 4) bad("--screen-pairs must be >= 4, got " + std::to_string(o.screen_pairs));
  if (o.pairs < 60) bad("--pairs must be >= 60, got " + std::to_string(o.pairs));
  if (o.top < 1) bad("--top must be >= 1, got " + std::to_string(o.top));
  if (!(o.margin >= 0.0 && o.margin < 1.0)) bad("--margin must be in [0, 1), got " + std::to_string(o.margin));
  if (o.min_copies < 8) bad("--copies must be >= 8, got " + std::to_string(o.min_copies));
  if (o.flush != "write" && o.flush != "read") bad("--flush must be 'write' or 'read', got '" + o.flush + "'");
  for (const json& r : o.resumed)
    if (r.value("type", "") == "start" && r.value("flush", std::string("write")) != o.flush)
      bad("the --resume log was measured under --flush " + r.value("flush", std::string("write")) +
          ", this run under --flush " + o.flush + ": one plan from both would mix two L2 regimes");
  if (!o.log) bad("a log sink is required");
}

// ---------------------------------------------------------------- the driver
namespace {

// One measurement: an exclusion reason, or the paired summary against the baseline.
struct Measured {
  std::string excluded;
  PairedSummary sum;
  OrderSplit order;
};

// The rotated copies of one family with the baseline graphs cached per M, and the
// check buffers; one candidate config prepared at a time.
class FamilyRig {
 public:
  FamilyRig(const ProjectionSpec& spec, const DeviceInfo& dev, GraphTimer& timer, int min_copies)
      : spec_(spec), dev_(dev), timer_(timer),
        copies_(make_rotated_copies(spec, kTuneMaxM, min_copies, dev, timer.stream())),
        check_(spec, kTuneMaxM) {}

  // Prepare `config` on every copy, mapped at the M values `ms` (baseline elsewhere).
  void prepare(const std::string& config, const std::vector<int>& ms) {
    Plan p = Plan::safe();
    p.source = "tune:" + config;
    std::vector<PlanRange> ranges;
    for (int m : ms) {
      if (!ranges.empty() && ranges.back().m_hi + 1 == m) ranges.back().m_hi = m;
      else ranges.push_back({m, m, config, 0.0});
    }
    p.families.emplace_back(spec_.name, ranges);
    ProjectionOptions po;
    po.max_m = kTuneMaxM;
    po.strict_plan = true;
    po.device = dev_.ordinal;
    release();
    for (RotatedCopy& c : copies_) c.cand = std::make_unique<Projection>(spec_, c.w.get(), p, po);
  }
  void release() {
    for (RotatedCopy& c : copies_) c.cand.reset();
  }

  // Correctness at m (when `check`), then `pairs` paired replays against the baseline.
  Measured measure(int m, int pairs, bool check) {
    Measured out;
    const cudaStream_t s = timer_.stream();
    try {
      if (check) {
        const RotatedCopy& c0 = copies_.front();
        const GraphExec g = capture_graph(
            s, [&](cudaStream_t st) { return c0.cand->run(check_.x.get(), m, check_.y_cand.get(), st); },
            "candidate capture (check)");
        Metrics r = accuracy_replay(spec_, c0.w.get(), m, check_activation_seed(0, m, 0), g, check_, s);
        add_nonfinite_checks(r, spec_, m, 0, g, *c0.base, check_, s);
        if (!r.pass) {
          char buf[160];
          std::snprintf(buf, sizeof buf, " (rel_l2 %.3e, worst row %.3e)", r.rel_l2, r.worst_row_rel_l2);
          out.excluded = "check failed: " + r.reason + buf;
          return out;
        }
      }
      const std::vector<GraphExec> gc = capture_copies(copies_, m, true, s);
      const PairedSamples ps = time_paired(timer_, base_graphs(m), gc, pairs);
      out.sum = summarize_pairs(ps.base_us, ps.cand_us);
      out.order = split_by_order(ps.base_us, ps.cand_us, ps.base_first);
    } catch (const Error& e) {
      // A launch or capture error may have left a sticky error behind: then stop.
      const cudaError_t sticky = cudaDeviceSynchronize();
      if (sticky != cudaSuccess)
        throw Error(StatusCode::cuda_error, std::string("tune: the CUDA context is lost after ") + e.what() + " (" +
                                                cudaGetErrorString(sticky) + "); rerun with --resume");
      out.excluded = std::string("run failed: ") + e.what();
    }
    return out;
  }

 private:
  const std::vector<GraphExec>& base_graphs(int m) {
    auto it = base_.find(m);
    if (it == base_.end()) it = base_.emplace(m, capture_copies(copies_, m, false, timer_.stream())).first;
    return it->second;
  }

  const ProjectionSpec& spec_;
  const DeviceInfo& dev_;
  GraphTimer& timer_;
  std::vector<RotatedCopy> copies_;
  CheckBuffers check_;
  std::map<int, std::vector<GraphExec>> base_;
};

json measured_record(const char* type, const std::string& family, int m, const std::string& config,
                     const Measured& r) {
  json j = {{"type", type}, {"family", family}, {"m", m}, {"config", config}};
  if (!r.excluded.empty()) {
    j["excluded"] = r.excluded;
  } else {
    j["ratio"] = r.sum.ratio;
    j["base_us"] = r.sum.base_us;
    j["cand_us"] = r.sum.cand_us;
    j["pairs"] = r.sum.pairs;
    // Each side's median by its place in the pair (P40); NaN (no sample) is written as null.
    j["order"] = order_json(r.order);
  }
  return j;
}

// The screening candidates: every listed config of the selected kernels, baseline aside.
std::vector<std::string> screening_configs(const std::vector<std::string>& kernels) {
  std::vector<std::string> out;
  for (const KernelFamily* f : kernel_families()) {
    const std::string k = f->name;
    if (k == kBaseline) continue;
    const bool selected = kernels.empty() ? k != "reference"
                                          : std::find(kernels.begin(), kernels.end(), k) != kernels.end();
    if (!selected) continue;
    for (const Config& c : f->configs()) out.push_back(c.name());
  }
  return out;
}

class Clock {
 public:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

}  // namespace

Plan run_tune(const TuneOptions& o) {
  validate_tune_options(o);
  cuda_check(cudaSetDevice(o.device), "cudaSetDevice");
  const DeviceInfo dev = DeviceInfo::query(o.device);
  const PlanHeader header{kVersion, dev.name, dev.sm_count, dev.runtime_version, dev.cublas_version};
  GraphTimer timer(dev, parse_flush_mode(o.flush));
  const Clock clock;
  auto say = [&](const std::string& line) {
    if (!o.progress) return;
    char t[32];
    std::snprintf(t, sizeof t, " (%.0f s)", clock.seconds());
    o.progress(line + t);
  };

  std::vector<std::string> families = o.families;
  if (families.empty())
    for (const ProjectionSpec& s : builtin_specs()) families.push_back(s.name);
  std::vector<int> ms = o.ms;
  if (ms.empty())
    for (int m = 1; m <= kTuneMaxM; ++m) ms.push_back(m);
  std::sort(ms.begin(), ms.end());
  const std::vector<std::string> configs = screening_configs(o.kernels);

  std::vector<json> all = o.resumed;
  auto emit = [&](json r) {
    o.log(r);
    all.push_back(std::move(r));
  };
  emit({{"type", "start"}, {"schema", kTuneLogSchema}, {"device", dev.name}, {"families", families}, {"ms", ms},
        {"screen_pairs", o.screen_pairs}, {"pairs", o.pairs}, {"margin", o.margin}, {"top", o.top},
        {"flush", o.flush}, {"overhead_us", timer.overhead_us()}});
  const std::set<std::pair<std::string, int>> decided = decided_cases(o.resumed);

  std::map<std::string, std::unique_ptr<FamilyRig>> rigs;
  auto rig_for = [&](const ProjectionSpec& spec) -> FamilyRig& {
    auto& r = rigs[spec.name];
    if (!r) {
      rigs.clear();  // one family's copies at a time
      auto& fresh = rigs[spec.name];
      fresh = std::make_unique<FamilyRig>(spec, dev, timer, o.min_copies);
      return *fresh;
    }
    return *r;
  };

  for (const std::string& family : families) {
    const ProjectionSpec& spec = builtin_spec(family);
    std::vector<int> todo;
    for (int m : ms)
      if (!decided.count({family, m})) todo.push_back(m);
    if (todo.empty()) {
      say("[" + family + "] every requested M already decided (resumed)");
      continue;
    }
    FamilyRig& rig = rig_for(spec);

    // Screening: config-major, so each config's copies are prepared once for all M.
    std::map<int, std::vector<RatedConfig>> screened;
    for (std::size_t ci = 0; ci < configs.size(); ++ci) {
      const std::string& cfg = configs[ci];
      std::vector<int> app;
      for (std::size_t i = 0; i < todo.size();) {  // inapplicable runs logged with their reason
        const std::string why = method_applicability(spec, cfg, todo[i], todo[i], dev);
        std::size_t j = i + 1;
        while (j < todo.size() && todo[j] == todo[j - 1] + 1 &&
               method_applicability(spec, cfg, todo[j], todo[j], dev) == why)
          ++j;
        if (why.empty()) app.insert(app.end(), todo.begin() + long(i), todo.begin() + long(j));
        else
          emit({{"type", "inapplicable"}, {"family", family}, {"config", cfg}, {"m", {todo[i], todo[j - 1]}},
                {"reason", why}});
        i = j;
      }
      if (app.empty()) continue;
      std::string prep_error;
      try {
        rig.prepare(cfg, app);
      } catch (const Error& e) {
        prep_error = std::string("prepare failed: ") + e.what();
      }
      int excluded = 0;
      RatedConfig best{"", 0.0};
      int best_m = 0;
      for (int m : app) {
        Measured r;
        if (prep_error.empty()) r = rig.measure(m, o.screen_pairs, /*check=*/true);
        else r.excluded = prep_error;
        emit(measured_record("screen", family, m, cfg, r));
        if (!r.excluded.empty()) {
          ++excluded;
          continue;
        }
        screened[m].push_back({cfg, r.sum.ratio});
        if (r.sum.ratio > best.ratio) best = {cfg, r.sum.ratio}, best_m = m;
      }
      rig.release();
      char line[256];
      std::snprintf(line, sizeof line, "[%s screen %zu/%zu] %s: %zu M, %d excluded, best x%.3f at M=%d",
                    family.c_str(), ci + 1, configs.size(), cfg.c_str(), app.size(), excluded, best.ratio, best_m);
      say(line);
    }

    // Retest the finalists with more pairs (config-major again).
    std::map<int, std::vector<std::string>> finalists;
    std::map<std::string, std::vector<int>> retest_ms;
    for (int m : todo) {
      finalists[m] = select_finalists(screened[m], o.existing.method_for(family, m), o.top);
      for (const std::string& c : finalists[m])
        if (c != kBaseline) retest_ms[c].push_back(m);
    }
    std::map<int, std::vector<RatedConfig>> rated;
    std::size_t done = 0;
    for (const auto& [cfg, cms] : retest_ms) {
      rig.prepare(cfg, cms);  // it prepared at screening, so a failure here is a real error
      for (int m : cms) {
        const Measured r = rig.measure(m, o.pairs, /*check=*/false);
        emit(measured_record("retest", family, m, cfg, r));
        if (r.excluded.empty()) rated[m].push_back({cfg, r.sum.ratio});
      }
      rig.release();
      say("[" + family + " retest " + std::to_string(++done) + "/" + std::to_string(retest_ms.size()) + "] " + cfg +
          ": " + std::to_string(cms.size()) + " M");
    }
    for (int m : todo) {
      const std::string inc = o.existing.method_for(family, m);
      const RatedConfig win = choose_config(rated[m], inc, o.margin);
      json fin = json::array();
      for (const std::string& c : finalists[m]) {
        if (c == kBaseline) {
          fin.push_back({{"config", c}, {"ratio", 1.0}});
          continue;
        }
        for (const RatedConfig& rc : rated[m])
          if (rc.config == c) fin.push_back({{"config", c}, {"ratio", rc.ratio}});
      }
      emit({{"type", "decision"}, {"family", family}, {"m", m}, {"incumbent", inc}, {"finalists", fin},
            {"chosen", win.config}, {"ratio", win.ratio}});
    }
    say("[" + family + "] decided " + std::to_string(todo.size()) + " M");
  }

  // Neighbour check: measure what plan_from_log still needs, until it needs nothing.
  std::set<TuneNeed> asked;
  for (;;) {
    const TunePlanBuild b = plan_from_log(o.existing, header, all, o.margin);
    if (b.missing.empty()) break;
    std::map<std::pair<std::string, std::string>, std::vector<int>> by_config;  // (family, config) -> M
    for (const TuneNeed& n : b.missing) {
      if (!asked.insert(n).second)
        throw Error(StatusCode::internal, "tune: neighbour measurement " + n.family + " m=" + std::to_string(n.m) +
                                              " " + n.config + " asked for twice");
      by_config[{n.family, n.config}].push_back(n.m);
    }
    say("neighbour check: " + std::to_string(b.missing.size()) + " measurements");
    for (const auto& [key, cms] : by_config) {
      const auto& [family, cfg] = key;
      const ProjectionSpec& spec = builtin_spec(family);
      std::vector<int> app;
      for (int m : cms) {
        const std::string why = method_applicability(spec, cfg, m, m, dev);
        if (why.empty()) app.push_back(m);
        else emit(measured_record("neighbour", family, m, cfg, Measured{"inapplicable: " + why, {}}));
      }
      if (app.empty()) continue;
      FamilyRig& rig = rig_for(spec);
      std::string prep_error;
      try {
        rig.prepare(cfg, app);
      } catch (const Error& e) {
        prep_error = std::string("prepare failed: ") + e.what();
      }
      for (int m : app) {
        Measured r;
        if (prep_error.empty()) r = rig.measure(m, o.pairs, /*check=*/true);
        else r.excluded = prep_error;
        emit(measured_record("neighbour", family, m, cfg, r));
      }
      rig.release();
    }
  }
  rigs.clear();
  return plan_from_log(o.existing, header, all, o.margin).plan;
}

}  // namespace projkit::lab
