// Report writers (see report.hpp).
#include "lab/report.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace projkit::lab {
namespace {

std::string format(const char* fmt, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

}  // namespace

nlohmann::json env_json(const BenchEnv& e) {
  nlohmann::json j = {{"gpu", e.gpu},
          {"driver", e.driver},
          {"sm_clock_mhz", e.sm_clock_mhz},
          {"mem_clock_mhz", e.mem_clock_mhz},
          {"cuda_runtime", e.cuda_runtime},
          {"cublas", e.cublas},
          {"projkit_git_sha", e.projkit_git_sha},
          {"plan_source", e.plan_source},
          {"plan_sha256", e.plan_sha256},
          {"flush", e.flush},
          {"floor_fill", e.floor_fill}};
  if (!e.ballast.empty()) j["ballast"] = e.ballast;
  return j;
}

nlohmann::json order_json(const OrderSplit& o) {
  // NaN (a group with no sample) is written as null.
  return {{"base_first_us", o.base_first_us},
          {"base_second_us", o.base_second_us},
          {"cand_first_us", o.cand_first_us},
          {"cand_second_us", o.cand_second_us}};
}

nlohmann::json bench_json(const BenchReport& r) {
  nlohmann::json cases = nlohmann::json::array();
  for (const BenchCase& c : r.cases)
    cases.push_back({{"family", c.family},       {"m", c.m},
                     {"n", c.n},                 {"k", c.k},
                     {"weight_dtype", c.weight_dtype},
                     {"method", c.method},       {"base_us", c.base_us},
                     {"cand_us", c.cand_us},     {"ratio", c.ratio},
                     {"ratio_p10", c.ratio_p10}, {"ratio_p90", c.ratio_p90},
                     {"floor_us", c.floor_us},   {"over_floor", c.over_floor},
                     {"tbps", c.tbps},           {"weight", c.weight},
                     {"bytes", c.bytes},         {"order", order_json(c.order)}});
  nlohmann::json loads = nlohmann::json::array();
  for (const LoadSpeedup& l : r.loads) loads.push_back({{"m", l.m}, {"speedup", l.speedup}});
  return {{"schema", kBenchSchema}, {"env", env_json(r.env)}, {"overhead_us", r.overhead_us},
          {"cases", cases},         {"loads", loads},         {"score", r.score}};
}

nlohmann::json check_json(const CheckReport& r, const BenchEnv& env) {
  nlohmann::json cases = nlohmann::json::array();
  for (const CheckCase& c : r.cases) {
    const Metrics& m = c.metrics;
    cases.push_back({{"family", c.family},
                     {"m", c.m},
                     {"method", c.method},
                     {"rel_l2", m.rel_l2},
                     {"worst_row_rel_l2", m.worst_row_rel_l2},
                     {"worst_row", m.worst_row},
                     {"max_abs", m.max_abs},
                     {"nan", m.nan},
                     {"inf", m.inf},
                     {"unwritten", m.unwritten},
                     {"pattern_mismatches", m.pattern_mismatches},
                     {"oob_writes", m.oob_writes},
                     {"nonfinite_ok", m.nonfinite_ok},
                     {"pass", m.pass},
                     {"reason", m.reason}});
  }
  return {{"schema", kCheckSchema},
          {"env", env_json(env)},
          {"cases", cases},
          {"failures", r.failures},
          {"pass", r.pass()}};
}

nlohmann::json floor_json(const std::vector<FloorResult>& floors, const BenchEnv& env, double overhead_us) {
  nlohmann::json arr = nlohmann::json::array();
  for (const FloorResult& f : floors) {
    nlohmann::json variants = nlohmann::json::array();
    for (const FloorVariant& v : f.variants) {
      nlohmann::json j = {{"name", v.name}, {"us", v.us}};
      if (v.order_probe) j["order_probe"] = true;  // L7: never the floor
      variants.push_back(j);
    }
    arr.push_back({{"bytes", f.bytes},
                   {"floor_us", f.floor_us},
                   {"best", f.best},
                   {"model_us", f.model_us},
                   {"tbps", f.floor_us > 0 ? double(f.bytes) / (f.floor_us * 1e6) : 0.0},
                   {"variants", variants}});
  }
  return {{"schema", kFloorSchema}, {"env", env_json(env)}, {"overhead_us", overhead_us}, {"floors", arr}};
}

std::string bench_table(const BenchReport& r) {
  std::ostringstream o;
  o << format("%-9s %5s %6s %6s  %-34s %9s %9s %7s %6s %6s %9s %6s %6s\n", "family", "m", "n", "k", "method", "base_us",
              "cand_us", "ratio", "p10", "p90", "floor_us", "/floor", "TB/s");
  for (const BenchCase& c : r.cases)
    o << format("%-9s %5d %6lld %6lld  %-34s %9.2f %9.2f %7.3f %6.3f %6.3f %9.2f %6.2f %6.2f\n", c.family.c_str(), c.m,
                c.n, c.k, c.method.c_str(), c.base_us, c.cand_us, c.ratio, c.ratio_p10, c.ratio_p90, c.floor_us,
                c.over_floor, c.tbps);
  o << "loads:";
  for (const LoadSpeedup& l : r.loads) o << format("  M=%d x%.3f", l.m, l.speedup);
  o << format("\nscore (geometric mean over loads): %.4f   replay overhead subtracted: %.2f us\n", r.score,
              r.overhead_us);
  return o.str();
}

std::string check_table(const CheckReport& r, bool failures_only) {
  std::ostringstream o;
  o << format("%-9s %5s  %-34s %10s %10s %10s %5s %s\n", "family", "m", "method", "rel_l2", "worst_row", "max_abs",
              "pass", "reason");
  for (const CheckCase& c : r.cases) {
    if (failures_only && c.metrics.pass) continue;
    o << format("%-9s %5d  %-34s %10.3e %10.3e %10.3e %5s %s\n", c.family.c_str(), c.m, c.method.c_str(),
                c.metrics.rel_l2, c.metrics.worst_row_rel_l2, c.metrics.max_abs, c.metrics.pass ? "ok" : "FAIL",
                c.metrics.reason.c_str());
  }
  // Per family: worst errors over every M.
  std::vector<std::string> fams;
  for (const CheckCase& c : r.cases)
    if (fams.empty() || fams.back() != c.family) fams.push_back(c.family);
  for (const std::string& f : fams) {
    double worst = 0, worst_row = 0;
    int n = 0, bad = 0;
    for (const CheckCase& c : r.cases)
      if (c.family == f) {
        ++n;
        bad += !c.metrics.pass;
        worst = std::max(worst, c.metrics.rel_l2);
        worst_row = std::max(worst_row, c.metrics.worst_row_rel_l2);
      }
    o << format("summary %-9s %4d M values, %3d failing, worst rel_l2 %.3e, worst row %.3e\n", f.c_str(), n, bad, worst,
                worst_row);
  }
  o << (r.pass() ? "check: PASS\n" : format("check: FAIL (%d cases)\n", r.failures));
  return o.str();
}

std::string floor_table(const std::vector<FloorResult>& floors) {
  std::ostringstream o;
  o << format("%12s %10s %10s %7s  %s\n", "bytes", "floor_us", "model_us", "TB/s", "best variant");
  for (const FloorResult& f : floors)
    o << format("%12zu %10.2f %10.2f %7.2f  %s\n", f.bytes, f.floor_us, f.model_us,
                f.floor_us > 0 ? double(f.bytes) / (f.floor_us * 1e6) : 0.0, f.best.c_str());
  return o.str();
}

std::string floor_variant_table(const std::vector<FloorResult>& floors) {
  std::ostringstream o;
  o << format("%12s  %-52s %9s %8s\n", "bytes", "variant", "us", "x floor");
  for (const FloorResult& f : floors)
    for (const FloorVariant& v : f.variants)
      o << format("%12zu  %-52s %9.2f %8.3f%s\n", f.bytes, v.name.c_str(), v.us, f.floor_us > 0 ? v.us / f.floor_us : 0.0,
                  v.order_probe ? "  (order probe)" : "");
  return o.str();
}

void write_json_file(const std::string& path, const nlohmann::json& j) {
  std::ofstream f(path);
  if (!f) throw Error(StatusCode::invalid_argument, "cannot open '" + path + "' for writing");
  f << j.dump(2) << "\n";
  if (!f) throw Error(StatusCode::internal, "failed writing '" + path + "'");
}

}  // namespace projkit::lab
