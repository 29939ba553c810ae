// Helpers shared by the projkit subcommands.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "lab/env.hpp"
#include "projkit/projkit.hpp"

namespace projkit::cli {

// The subcommand's --device option: a CUDA device ordinal, 0 and up (CLI11 refuses a negative one
// while parsing; whether that device is present is require_device's question).
CLI::Option* add_device_option(CLI::App* sub, int& ordinal);
// Throws Error(unsupported) "no CUDA device: ..." when there is none.
DeviceInfo require_device(int ordinal);

// The plan a command runs with: "safe", "serving" or a file (strict: a bad or missing explicit plan is an
// error), or "" for the device's default plan (warnings printed to stderr).
Plan load_plan(const std::string& arg, const DeviceInfo& dev);
// Fill env.plan_source / env.plan_sha256 for a plan, or for a named method / A/A run.
void describe_plan(lab::BenchEnv& env, const Plan& plan, const std::string& method, bool baseline_vs_baseline);

Workload load_workload(const std::string& path);  // "" = built-in default

// Fails early (before any GPU work) when an output file cannot be written; the error names the
// option that gave the path (e.g. "--json", "--log").
void require_writable(const std::string& path, const std::string& option);

// A progress line on stderr: rewritten in place on a terminal, one line each otherwise.
void progress_line(const std::string& line);
void progress_done();

}  // namespace projkit::cli
