// `projkit report RESULTS.json [--out DIR]`: markdown tables and PNG figures of a
// projkit.bench/1 result. The renderer is python/projkit/report.py (matplotlib); this
// subcommand finds it and execs `python3 -m projkit.report`.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>

#include "cli_common.hpp"
#include "commands.hpp"

namespace projkit::cli {
namespace {

namespace fs = std::filesystem;

// $PROJKIT_PYTHON_DIR, else python/ of the checkout the executable lives in, else lib/python of its install.
fs::path python_dir() {
  std::error_code ec;
  if (const char* env = std::getenv("PROJKIT_PYTHON_DIR")) {
    if (!fs::is_regular_file(fs::path(env) / "projkit" / "report.py", ec))
      throw Error(StatusCode::invalid_argument,
                  std::string("report: $PROJKIT_PYTHON_DIR='") + env + "' has no projkit/report.py");
    return env;
  }
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    for (const fs::path& d : {exe.parent_path() / ".." / ".." / "python", exe.parent_path() / ".." / "python",
                              exe.parent_path() / ".." / "lib" / "python"})  // a checkout's build/, an install's bin/
      if (fs::is_regular_file(d / "projkit" / "report.py", ec)) return fs::weakly_canonical(d);
  throw Error(StatusCode::invalid_argument,
              "report: projkit/report.py not found next to the executable (python/ of a checkout, lib/python/ "
              "of an install); set PROJKIT_PYTHON_DIR");
}

}  // namespace

void add_report(CLI::App& app, std::function<int()>& run) {
  struct Args {
    std::string results, out = ".";
  };
  auto a = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand("report", "markdown + PNG figures of a bench result (python3 + matplotlib)");
  sub->add_option("results", a->results, "projkit.bench/1 JSON (projkit bench --json), or that JSON as FILE.xz")
      ->required();
  sub->add_option("--out", a->out, "directory for report.md and the figures")->capture_default_str();
  sub->callback([a, &run] {
    run = [a]() -> int {
      const fs::path dir = python_dir();
      std::string path = dir.string();
      if (const char* pp = std::getenv("PYTHONPATH"); pp && *pp) path += std::string(":") + pp;
      if (setenv("PYTHONPATH", path.c_str(), 1) != 0)
        throw Error(StatusCode::internal, std::string("report: setenv PYTHONPATH: ") + std::strerror(errno));
      const char* argv[] = {"python3", "-m", "projkit.report", a->results.c_str(), "--out", a->out.c_str(), nullptr};
      std::fflush(stdout);
      execvp("python3", const_cast<char* const*>(argv));
      throw Error(StatusCode::unsupported, std::string("report: cannot run python3 (") + std::strerror(errno) +
                                               "); install python3 and matplotlib (python3 -m pip install matplotlib)");
    };
  });
}

}  // namespace projkit::cli
