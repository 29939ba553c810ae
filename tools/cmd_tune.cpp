// `projkit tune`: measure every applicable method config per family and M on this
// device and write its plan (see src/lab/tune.hpp for the procedure and the log).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "lab/args.hpp"
#include "lab/tune.hpp"

namespace projkit::cli {
namespace {

namespace fs = std::filesystem;

// plans/ of the checkout the executable was built in or carried to (<exe>/../plans,
// <exe>/../../plans): where `Plan::for_device` finds the plan again.
fs::path default_plans_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    for (const fs::path& d : {exe.parent_path() / ".." / "plans", exe.parent_path() / ".." / ".." / "plans"})
      if (fs::is_directory(d, ec)) return fs::weakly_canonical(d);
  throw Error(StatusCode::invalid_argument, "tune: no plans/ directory next to the executable; give --out FILE");
}

std::string read_text(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw Error(StatusCode::invalid_argument, "tune: --resume file '" + path + "' cannot be opened");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

void add_tune(CLI::App& app, std::function<int()>& run) {
  struct Args {
    std::string families, m = "1..256", kernels, plan, out, log, resume, flush = "write";
    int screen_pairs = 20, pairs = 60, top = 3, copies = 8, device = 0;
    double margin = 0.02;
  };
  auto a = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand("tune", "screen + retest every applicable method per family and M; write the plan");
  sub->add_option("--families", a->families, "families to tune, e.g. qkv,o (default: all)");
  sub->add_option("--m", a->m, "M values to tune, e.g. 1..128 (within 1..256)")->capture_default_str();
  sub->add_option("--kernels", a->kernels, "kernels to screen, e.g. gemv_stream,wgmma_tma (default: all but reference)");
  sub->add_option("--screen-pairs", a->screen_pairs, "paired replays per screened (config, M), >= 4")->capture_default_str();
  sub->add_option("--pairs", a->pairs, "paired replays per finalist retest, >= 60")->capture_default_str();
  sub->add_option("--top", a->top, "screened configs per M that reach the retest")->capture_default_str();
  sub->add_option("--margin", a->margin, "relative gain a challenger needs over the current choice")->capture_default_str();
  sub->add_option("--copies", a->copies, "minimum rotated copies (>= 8; raised until > 2x L2)")->capture_default_str();
  sub->add_option("--plan", a->plan, "current plan (incumbents, untuned ranges): file, 'safe' or 'serving' (default: the device's)");
  sub->add_option("--out", a->out, "plan file to write (default: <plans dir>/<device slug>.json; with --flush read <plans dir>/serving/<device slug>.json)");
  sub->add_option("--log", a->log, "JSON-lines tune log to write (every measurement and decision)")->required();
  sub->add_option("--resume", a->resume, "partial tune log: its decided (family, M) are kept, not re-measured");
  add_device_option(sub, a->device);
  sub->add_option("--flush", a->flush,
                  "L2 flush before each replay: write (the judge's, default) or read (a clean L2: a plan for serving)")
      ->capture_default_str();
  sub->callback([a, &run] {
    run = [a] {
      lab::TuneOptions o;
      if (!a->families.empty()) o.families = lab::parse_name_list(a->families);
      o.ms = lab::parse_m_list(a->m);
      if (!a->kernels.empty()) o.kernels = lab::parse_name_list(a->kernels);
      o.screen_pairs = a->screen_pairs;
      o.pairs = a->pairs;
      o.top = a->top;
      o.margin = a->margin;
      o.min_copies = a->copies;
      o.device = a->device;
      o.flush = a->flush;
      o.log = [](const nlohmann::json&) {};  // replaced below; validation needs a sink
      if (!a->resume.empty()) {
        const std::string text = read_text(a->resume);  // names the file when it cannot be opened
        lab::TuneLog prev;
        try {
          prev = lab::parse_tune_log(text);
        } catch (const Error& e) {  // name the file: the parser sees only its text
          throw Error(e.code(), "--resume " + a->resume + ": " + e.what());
        }
        for (const std::string& w : prev.warnings) std::fprintf(stderr, "projkit: tune: %s\n", w.c_str());
        o.resumed = std::move(prev.records);
      }
      lab::validate_tune_options(o);  // bad options (and a resumed log of another flush) fail before any GPU work
      require_writable(a->log, "--log");
      require_writable(a->out, "--out");  // an explicit --out; the default one needs the device's name
      const DeviceInfo dev = require_device(a->device);
      // Default --out: the plan set the flush tunes for (a read flush: plans/serving/).
      std::string out = a->out;
      if (out.empty()) {
        const fs::path file = default_plans_dir() / Plan::set_file(dev, o.flush == "read" ? Plan::kServingSet : "");
        std::error_code ec;
        fs::create_directories(file.parent_path(), ec);
        if (ec) throw Error(StatusCode::invalid_argument, "tune: cannot create '" + file.parent_path().string() + "': " + ec.message());
        out = file.string();
      }
      if (a->out.empty()) require_writable(out, "the default --out");
      o.existing = load_plan(a->plan, dev);
      // The log is rewritten from the resumed records, then appended to line by line.
      auto log = std::make_shared<std::ofstream>(a->log, std::ios::trunc);
      if (!*log) throw Error(StatusCode::invalid_argument, "tune: cannot write --log '" + a->log + "'");
      for (const nlohmann::json& r : o.resumed) *log << r.dump() << "\n";
      log->flush();
      o.log = [log, path = a->log](const nlohmann::json& r) {
        *log << r.dump() << "\n";
        log->flush();
        if (!*log) throw Error(StatusCode::internal, "tune: writing the log '" + path + "' failed");
      };
      o.progress = progress_line;
      Plan plan = lab::run_tune(o);
      progress_done();
      {
        std::ofstream f(out, std::ios::trunc);
        f << plan.to_json() << "\n";
        if (!f) throw Error(StatusCode::internal, "tune: writing the plan '" + out + "' failed");
      }
      o.log({{"type", "plan"}, {"path", out}});
      std::cout << "projkit tune on " << dev.name << ": wrote " << out << " (log " << a->log << ")\n";
      for (const auto& [family, ranges] : plan.families)
        for (const PlanRange& r : ranges)
          std::printf("  %-9s m=[%3d,%3d] %-44s x%.3f\n", family.c_str(), r.m_lo, r.m_hi, r.method.c_str(), r.ratio);
      return 0;
    };
  });
}

}  // namespace projkit::cli
