// Dispatch plans: per family, ordered M ranges -> method config name.
// A plan file is validated against the device it is loaded on; any problem gives a
// warning and the built-in safe plan (or, in strict mode, an Error).
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/method.hpp"

namespace projkit {

using nlohmann::json;
namespace fs = std::filesystem;

Plan Plan::safe() {
  Plan p;
  p.source = "builtin-safe";
  return p;
}

std::string Plan::device_slug(const std::string& device_name) {
  std::string s;
  for (char c : device_name) s += char(std::tolower(static_cast<unsigned char>(c)));
  if (s.rfind("nvidia ", 0) == 0) s = s.substr(7);
  std::string out;
  for (char c : s) {
    bool alnum = std::isalnum(static_cast<unsigned char>(c));
    if (alnum) out += c;
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "unknown" : out;
}

const std::vector<PlanRange>* Plan::ranges(std::string_view family) const {
  for (const auto& [name, r] : families)
    if (name == family) return &r;
  return nullptr;
}

std::string Plan::method_for(std::string_view family, int m) const {
  if (const auto* r = ranges(family))
    for (const auto& pr : *r)
      if (m >= pr.m_lo && m <= pr.m_hi) return pr.method;
  return "baseline";
}

std::string Plan::to_json() const {
  json j;
  j["schema"] = "projkit.plan/1";
  j["header"] = {{"projkit_version", header.projkit_version}, {"device", header.device},
                 {"sm_count", header.sm_count}, {"cuda_runtime", header.cuda_runtime}, {"cublas", header.cublas}};
  json fams = json::object();
  for (const auto& [name, rs] : families) {
    json arr = json::array();
    for (const auto& r : rs) {
      json e = {{"m", {r.m_lo, r.m_hi}}, {"method", r.method}};
      if (r.ratio > 0) e["ratio"] = r.ratio;
      arr.push_back(e);
    }
    fams[name] = arr;
  }
  j["families"] = fams;
  return j.dump(2);
}

static std::string major_minor(const std::string& v) {
  auto p = v.find('.');
  if (p == std::string::npos) return v;
  auto q = v.find('.', p + 1);
  return v.substr(0, q);
}

// Parse + validate; throws Error on any problem (the caller decides strict vs fallback).
static Plan parse_plan(std::string_view text, const DeviceInfo& dev, std::string source) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    throw Error(StatusCode::parse_error, "plan " + source + ": malformed JSON: " + e.what());
  }
  Plan p;
  p.source = source;
  try {
    if (!j.is_object() || j.value("schema", "") != "projkit.plan/1")
      throw Error(StatusCode::parse_error, "plan " + source + ": 'schema' must be \"projkit.plan/1\"");
    const json& h = j.at("header");
    p.header.projkit_version = h.at("projkit_version").get<std::string>();
    p.header.device = h.at("device").get<std::string>();
    p.header.sm_count = h.at("sm_count").get<int>();
    p.header.cuda_runtime = h.at("cuda_runtime").get<int>();
    p.header.cublas = h.at("cublas").get<int>();
    if (major_minor(p.header.projkit_version) != major_minor(kVersion))
      throw Error(StatusCode::plan_mismatch, "plan " + source + ": written for projkit " + p.header.projkit_version +
                                                 ", this is " + kVersion);
    if (p.header.device != dev.name)
      throw Error(StatusCode::plan_mismatch,
                  "plan " + source + ": written for device '" + p.header.device + "', this is '" + dev.name + "'");
    if (p.header.sm_count != dev.sm_count)
      throw Error(StatusCode::plan_mismatch, "plan " + source + ": written for " + std::to_string(p.header.sm_count) +
                                                 " SMs, this device has " + std::to_string(dev.sm_count));
    if (p.header.cuda_runtime / 1000 != dev.runtime_version / 1000)
      throw Error(StatusCode::plan_mismatch, "plan " + source + ": written for CUDA runtime " +
                                                 std::to_string(p.header.cuda_runtime) + ", this is " +
                                                 std::to_string(dev.runtime_version));
    if (p.header.cublas / 10000 != dev.cublas_version / 10000)
      throw Error(StatusCode::plan_mismatch, "plan " + source + ": written for cuBLAS " +
                                                 std::to_string(p.header.cublas) + ", this is " +
                                                 std::to_string(dev.cublas_version));
    const json& fams = j.at("families");
    if (!fams.is_object()) throw Error(StatusCode::parse_error, "plan " + source + ": 'families' must be an object");
    for (auto it = fams.begin(); it != fams.end(); ++it) {
      std::vector<PlanRange> rs;
      int prev_hi = 0;
      for (const auto& e : it.value()) {
        PlanRange r;
        const json& m = e.at("m");
        if (!m.is_array() || m.size() != 2)
          throw Error(StatusCode::parse_error, "plan " + source + ": family '" + it.key() + "': 'm' must be [lo, hi]");
        r.m_lo = m[0].get<int>();
        r.m_hi = m[1].get<int>();
        r.method = e.at("method").get<std::string>();
        r.ratio = e.value("ratio", 0.0);
        if (r.m_lo < 1 || r.m_hi < r.m_lo || r.m_lo <= prev_hi)
          throw Error(StatusCode::parse_error, "plan " + source + ": family '" + it.key() + "': range [" +
                                                   std::to_string(r.m_lo) + ", " + std::to_string(r.m_hi) +
                                                   "] is empty, below 1, or overlaps/precedes the previous range");
        Config::parse(r.method);  // throws parse_error on a malformed name
        prev_hi = r.m_hi;
        rs.push_back(r);
      }
      p.families.emplace_back(it.key(), std::move(rs));
    }
  } catch (const json::exception& e) {
    throw Error(StatusCode::parse_error, "plan " + source + ": missing or mistyped field: " + e.what());
  }
  return p;
}

Plan Plan::from_json_text(std::string_view text, const DeviceInfo& dev, bool strict, std::string source) {
  try {
    return parse_plan(text, dev, std::move(source));
  } catch (const Error& e) {
    if (strict) throw;
    Plan p = safe();
    p.warnings.push_back(std::string(e.what()) + " -- using the built-in safe plan (baseline everywhere)");
    return p;
  }
}

Plan Plan::from_file(const std::string& path, const DeviceInfo& dev, bool strict) {
  std::ifstream f(path);
  if (!f) {
    if (strict) throw Error(StatusCode::invalid_argument, "plan file '" + path + "' cannot be opened");
    Plan p = safe();
    p.warnings.push_back("plan file '" + path + "' cannot be opened -- using the built-in safe plan");
    return p;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  return from_json_text(ss.str(), dev, strict, path);
}

// The file this code was loaded from: libprojkit.so, or the executable it is linked into statically.
static fs::path code_module_path() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&code_module_path), &info) == 0 || !info.dli_fname) return {};
  std::error_code ec;
  const fs::path p = fs::canonical(info.dli_fname, ec);
  return ec ? fs::path() : p;
}

// Where plans are looked for, in order. Next to the executable serves the CLI (build/projkit,
// <prefix>/bin/projkit). Next to the library serves a process whose executable is not projkit's, a
// Python or a server linking libprojkit.so: <libdir>/plans (a package that ships both side by side),
// <libdir>/../plans (build/libprojkit.so in a checkout), <libdir>/../share/projkit/plans (what `cmake
// --install` lays out). Without these (session 61), such a process found plans only in the source
// tree the library was built from, and a library copied elsewhere ran the safe plan.
static std::vector<fs::path> plan_dirs() {
  std::vector<fs::path> dirs;
  if (const char* d = std::getenv("PROJKIT_PLAN_DIR")) dirs.emplace_back(d);
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    dirs.push_back(exe.parent_path() / ".." / "plans");
    dirs.push_back(exe.parent_path() / ".." / ".." / "plans");
    dirs.push_back(exe.parent_path() / ".." / "share" / "projkit" / "plans");
  }
  const fs::path lib = code_module_path();
  if (!lib.empty() && !fs::equivalent(lib, exe, ec)) {  // not linked into the executable
    dirs.push_back(lib.parent_path() / "plans");
    dirs.push_back(lib.parent_path() / ".." / "plans");
    dirs.push_back(lib.parent_path() / ".." / "share" / "projkit" / "plans");
  }
#ifdef PROJKIT_SOURCE_PLANS_DIR
  dirs.emplace_back(PROJKIT_SOURCE_PLANS_DIR);
#endif
  return dirs;
}

std::vector<std::string> Plan::search_dirs() {
  std::vector<std::string> out;
  for (const auto& d : plan_dirs()) {
    std::string n = d.lexically_normal().string();
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(std::move(n));  // once, at its first place
  }
  return out;
}

// "dir1, dir2, ...": a missing plan's message says where it was looked for.
static std::string plan_dirs_text() {
  std::string out;
  for (const std::string& d : Plan::search_dirs()) out += (out.empty() ? "" : ", ") + d;
  return out;
}

std::string Plan::set_file(const DeviceInfo& dev, std::string_view set) {
  if (!set.empty() && set != kServingSet)
    throw Error(StatusCode::invalid_argument,
                "plan set '" + std::string(set) + "' is unknown (the sets: the default, '" + std::string(kServingSet) + "')");
  return (set.empty() ? "" : std::string(set) + "/") + device_slug(dev.name) + ".json";
}

std::string Plan::find_file(const DeviceInfo& dev, std::string_view set) {
  const fs::path file = set_file(dev, set);
  for (const auto& d : plan_dirs()) {
    std::error_code ec;
    if (fs::is_regular_file(d / file, ec)) return fs::weakly_canonical(d / file).string();
  }
  return "";
}

Plan Plan::for_device_info(const DeviceInfo& dev, bool strict, std::string_view set) {
  const std::string path = find_file(dev, set);
  if (!path.empty()) return from_file(path, dev, strict);
  const std::string what = set_file(dev, set);
  if (strict)
    throw Error(StatusCode::plan_mismatch,
                "no plan file '" + what + "' for device '" + dev.name + "' (looked in " + plan_dirs_text() + ")");
  if (!set.empty()) {
    // A serving plan is a refinement of the default one: without it, the default plan.
    Plan p = for_device_info(dev, false, "");
    p.warnings.insert(p.warnings.begin(), "no plan file '" + what + "' for device '" + dev.name +
                                              "' -- using the default plan set's (" + p.source + ")");
    return p;
  }
  Plan p = safe();
  p.warnings.push_back("no plan file '" + what + "' for device '" + dev.name + "' (looked in " + plan_dirs_text() +
                       ") -- using the built-in safe plan (baseline everywhere)");
  return p;
}

Plan Plan::named(std::string_view name, const DeviceInfo& dev, bool strict) {
  if (name.empty()) return for_device_info(dev, strict, "");
  if (name == "safe") return safe();
  if (name == kServingSet) return for_device_info(dev, strict, kServingSet);
  return from_file(std::string(name), dev, strict);
}

Plan Plan::for_device(int ordinal, bool strict) {
  DeviceInfo dev = DeviceInfo::query(ordinal);
  if (const char* env = std::getenv("PROJKIT_PLAN")) return named(env, dev, strict);
  return for_device_info(dev, strict, "");
}

}  // namespace projkit
