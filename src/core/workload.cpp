// Workloads: families x loads x weights, built in or read from JSON.
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "projkit/projkit.hpp"

namespace projkit {

using nlohmann::json;

const ProjectionSpec& Workload::spec(std::string_view family) const {
  for (const auto& s : families)
    if (s.name == family) return s;
  throw Error(StatusCode::invalid_argument, "workload '" + name + "' has no family '" + std::string(family) + "'");
}

static void fill_cases(Workload& w, double default_weight, const json* weights) {
  w.cases.clear();
  for (int m : w.loads)
    for (const auto& s : w.families) {
      double wt = default_weight;
      if (weights && weights->contains(s.name)) wt = (*weights)[s.name].get<double>();
      if (!(wt > 0)) throw Error(StatusCode::parse_error, "workload: weight of '" + s.name + "' must be > 0");
      w.cases.push_back({s.name, m, wt});
    }
}

Workload Workload::builtin_default() {
  Workload w;
  w.name = "default";
  w.families = builtin_specs();
  w.loads = {1, 8, 16, 32, 128, 256};
  fill_cases(w, 62.0, nullptr);
  return w;
}

static ProjectionSpec spec_from_json(const json& j) {
  if (j.is_string()) return builtin_spec(j.get<std::string>());
  if (!j.is_object()) throw Error(StatusCode::parse_error, "workload: a family must be a built-in name or an object");
  ProjectionSpec s;
  if (j.contains("base")) s = builtin_spec(j.at("base").get<std::string>());
  if (j.contains("name")) s.name = j.at("name").get<std::string>();
  if (j.contains("n")) s.n = j.at("n").get<int64_t>();
  if (j.contains("k")) s.k = j.at("k").get<int64_t>();
  if (j.contains("weight_dtype")) s.weight_dtype = parse_dtype(j.at("weight_dtype").get<std::string>());
  if (j.contains("out_dtype")) s.out_dtype = parse_dtype(j.at("out_dtype").get<std::string>());
  if (j.contains("slice_max_m")) s.slice_max_m = j.at("slice_max_m").get<int>();
  if (j.contains("slice_rows")) s.slice_rows = j.at("slice_rows").get<int64_t>();
  for (auto it = j.begin(); it != j.end(); ++it) {
    static const char* known[] = {"base", "name", "n", "k", "weight_dtype", "out_dtype", "slice_max_m", "slice_rows"};
    bool ok = false;
    for (const char* k : known) ok = ok || it.key() == k;
    if (!ok) throw Error(StatusCode::parse_error, "workload: unknown family field '" + it.key() + "'");
  }
  try {
    s.validate();
  } catch (const Error& e) {
    throw Error(StatusCode::parse_error, std::string("workload: ") + e.what());
  }
  return s;
}

Workload Workload::from_json_text(std::string_view text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    throw Error(StatusCode::parse_error, std::string("workload: malformed JSON: ") + e.what());
  }
  try {
    if (!j.is_object()) throw Error(StatusCode::parse_error, "workload: top level must be an object");
    Workload w;
    w.name = j.value("name", "custom");
    if (!j.contains("families") || !j["families"].is_array() || j["families"].empty())
      throw Error(StatusCode::parse_error, "workload: 'families' must be a non-empty array");
    for (const auto& f : j["families"]) {
      ProjectionSpec s = spec_from_json(f);
      for (const auto& o : w.families)
        if (o.name == s.name) throw Error(StatusCode::parse_error, "workload: family '" + s.name + "' listed twice");
      w.families.push_back(s);
    }
    if (!j.contains("loads") || !j["loads"].is_array() || j["loads"].empty())
      throw Error(StatusCode::parse_error, "workload: 'loads' must be a non-empty array of M values");
    for (const auto& m : j["loads"]) {
      if (!m.is_number_integer() || m.get<int>() < 1 || m.get<int>() > 4096)
        throw Error(StatusCode::parse_error, "workload: every load M must be an integer in [1, 4096]");
      w.loads.push_back(m.get<int>());
    }
    const json* weights = j.contains("weights") ? &j["weights"] : nullptr;
    if (weights && !weights->is_object()) throw Error(StatusCode::parse_error, "workload: 'weights' must be an object");
    if (weights)
      for (auto it = weights->begin(); it != weights->end(); ++it) {
        bool found = false;
        for (const auto& s : w.families) found = found || s.name == it.key();
        if (!found) throw Error(StatusCode::parse_error, "workload: 'weights' names unknown family '" + it.key() + "'");
      }
    fill_cases(w, j.value("weight", 1.0), weights);
    return w;
  } catch (const json::exception& e) {
    throw Error(StatusCode::parse_error, std::string("workload: wrong field type: ") + e.what());
  } catch (const Error& e) {
    if (e.code() == StatusCode::parse_error) throw;
    throw Error(StatusCode::parse_error, std::string("workload: ") + e.what());
  }
}

Workload Workload::from_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw Error(StatusCode::invalid_argument, "workload file '" + path + "' cannot be opened");
  std::stringstream ss;
  ss << f.rdbuf();
  try {
    return from_json_text(ss.str());
  } catch (const Error& e) {
    throw Error(e.code(), path + ": " + e.what());
  }
}

}  // namespace projkit
