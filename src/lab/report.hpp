// Bench / check / floor reports: JSON (schemas "projkit.bench/1", "projkit.check/1",
// "projkit.floor/1") and readable tables.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "lab/bench.hpp"
#include "lab/check.hpp"
#include "lab/env.hpp"
#include "lab/floor.hpp"

namespace projkit::lab {

inline constexpr const char* kBenchSchema = "projkit.bench/1";
inline constexpr const char* kCheckSchema = "projkit.check/1";
inline constexpr const char* kFloorSchema = "projkit.floor/1";

nlohmann::json env_json(const BenchEnv& e);
// Each side's median by its place in the pair (bench cases and tune log records, P40).
nlohmann::json order_json(const OrderSplit& o);
nlohmann::json bench_json(const BenchReport& r);
nlohmann::json check_json(const CheckReport& r, const BenchEnv& env);
nlohmann::json floor_json(const std::vector<FloorResult>& floors, const BenchEnv& env, double overhead_us);

std::string bench_table(const BenchReport& r);
std::string check_table(const CheckReport& r, bool failures_only);
std::string floor_table(const std::vector<FloorResult>& floors);
// Every variant's time per payload size and its ratio to the floor (order probes marked).
std::string floor_variant_table(const std::vector<FloorResult>& floors);

// Writes pretty JSON to path; throws Error naming the path when it cannot.
void write_json_file(const std::string& path, const nlohmann::json& j);

}  // namespace projkit::lab
