// projkit: benchmark, check and inspect the projection library.
//   projkit bench   [--workload F] [--loads 1,8 | --m-sweep A..B] [--families qkv,o] [--plan F|safe|serving]
//                   [--method NAME | --baseline-vs-baseline] [--pairs N] [--copies N] [--flush write|read] [--json PATH]
//   projkit check   [--m 1..256] [--families ...] [--seeds 3] [--replays 3] [--plan ...] [--method NAME] [--json PATH]
//   projkit floor   [--workload F] [--flush write|read] [--fill zero|weights] [--json PATH]
//   projkit info    [--plan ...]
//   projkit tune    --log FILE [--families ...] [--m 1..256] [--kernels ...] [--screen-pairs 20] [--pairs 60]
//                   [--margin 0.02] [--plan ...] [--out FILE] [--resume LOG] [--flush write|read]
//   projkit report  RESULTS.json [--out DIR]
// Every subcommand checks its arguments before any GPU work, all but whether --device names a
// present device and --plan (a plan is checked against the device: its name, SM count, CUDA and
// cuBLAS versions). A bad argument or a failure prints "projkit: error (<status>): <message>"
// (CLI11's own message for a malformed command line) and exits non-zero
// (tests/python/test_cli_errors.py).
#include <cstdio>
#include <exception>

#include "cli_common.hpp"
#include "commands.hpp"
#include "projkit/projkit.hpp"

int main(int argc, char** argv) {
  CLI::App app{"projkit: dense LLM projections at memory speed (bench, check, floor, info, tune, report)"};
  app.require_subcommand(1);
  std::function<int()> run;
  projkit::cli::add_bench(app, run);
  projkit::cli::add_check(app, run);
  projkit::cli::add_floor(app, run);
  projkit::cli::add_info(app, run);
  projkit::cli::add_tune(app, run);
  projkit::cli::add_report(app, run);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    return run();
  } catch (const projkit::Error& e) {
    projkit::cli::progress_done();
    std::fprintf(stderr, "projkit: error (%s): %s\n", projkit::status_code_name(e.code()), e.what());
  } catch (const std::exception& e) {
    projkit::cli::progress_done();
    std::fprintf(stderr, "projkit: error: %s\n", e.what());
  }
  return 2;
}
