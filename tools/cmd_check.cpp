// `projkit check`: every family x every M against the fp64 reference (see src/lab/check.hpp).
#include <iostream>
#include <memory>

#include "cli_common.hpp"
#include "commands.hpp"
#include "lab/args.hpp"
#include "lab/check.hpp"
#include "lab/report.hpp"

namespace projkit::cli {

void add_check(CLI::App& app, std::function<int()>& run) {
  struct Args {
    std::string workload, m = "1..256", families, plan, method, json;
    int seeds = 3, replays = 3, device = 0;
    bool all_rows = false;
  };
  auto a = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand("check", "correctness of the plan (or a method) vs an fp64 reference");
  sub->add_option("--m", a->m, "M values: 1..256, 1,8,32 or a mix")->capture_default_str();
  sub->add_option("--families", a->families, "families to check (default: all of the workload's)");
  sub->add_option("--workload", a->workload, "workload JSON giving the families (default: built-in)");
  sub->add_option("--seeds", a->seeds, "weight seeds (fresh weights and Projections each)")->check(CLI::Range(1, 1000));
  sub->add_option("--replays", a->replays, "graph replays with fresh activations per seed and M")->check(CLI::Range(1, 1000));
  sub->add_option("--plan", a->plan, "plan file, 'safe', or 'serving' (the device's clean-L2 plan; default: the device's plan)");
  sub->add_option("--method", a->method, "check this one method config instead of the plan");
  add_device_option(sub, a->device);
  sub->add_option("--json", a->json, "write the projkit.check/1 report here");
  sub->add_flag("--all", a->all_rows, "print every case, not only failures");
  sub->callback([a, &run] {
    run = [a] {
      if (!a->method.empty() && !a->plan.empty())
        throw Error(StatusCode::invalid_argument, "check: --method and --plan are exclusive");
      require_writable(a->json, "--json");
      lab::CheckOptions o;
      o.workload = load_workload(a->workload);
      o.ms = lab::parse_m_list(a->m);
      if (!a->families.empty()) o.families = lab::parse_name_list(a->families);
      for (const std::string& f : o.families) o.workload.spec(f);  // unknown family: error before any GPU work
      const DeviceInfo dev = require_device(a->device);
      o.seeds = a->seeds;
      o.replays = a->replays;
      if (a->method.empty()) o.plan = load_plan(a->plan, dev);
      o.method = a->method;
      o.device = a->device;
      o.progress = progress_line;
      const lab::CheckReport r = lab::run_check(o);
      progress_done();
      lab::BenchEnv env = lab::collect_env(dev);
      describe_plan(env, o.plan, o.method, false);
      std::cout << "projkit check on " << env.gpu << " (plan: " << env.plan_source << ")\n"
                << lab::check_table(r, !a->all_rows);
      if (!a->json.empty()) {
        lab::write_json_file(a->json, lab::check_json(r, env));
        std::cout << "wrote " << a->json << "\n";
      }
      return r.pass() ? 0 : 1;
    };
  });
}

}  // namespace projkit::cli
