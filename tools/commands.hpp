// The projkit subcommands: each registers itself on the CLI11 app and returns the
// process exit code from its run function.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace projkit::cli {

// Adds a subcommand; `run` is set to the action to perform when it is chosen.
void add_bench(CLI::App& app, std::function<int()>& run);
void add_check(CLI::App& app, std::function<int()>& run);
void add_floor(CLI::App& app, std::function<int()>& run);
void add_info(CLI::App& app, std::function<int()>& run);
void add_tune(CLI::App& app, std::function<int()>& run);
void add_report(CLI::App& app, std::function<int()>& run);

}  // namespace projkit::cli
