// `projkit bench`: the judge's timing protocol over a workload (see src/lab/bench.hpp).
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli_common.hpp"
#include "commands.hpp"
#include "lab/args.hpp"
#include "lab/bench.hpp"
#include "lab/report.hpp"
#include "lab/timing.hpp"

namespace projkit::cli {

void add_bench(CLI::App& app, std::function<int()>& run) {
  struct Args {
    std::string workload, loads, families, m_sweep, plan, method, json, flush = "write";
    bool aa = false, ballast_before = false, ballast_touch = false, cand_own_w = false;
    int pairs = 100, copies = 8, device = 0, ballast_mb = 0;
  };
  auto a = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand("bench", "time baseline vs candidate per case (graph, L2 flush, paired)");
  sub->add_option("--workload", a->workload, "workload JSON (default: the built-in workload)");
  sub->add_option("--loads", a->loads, "M values to run, e.g. 1,8 (default: the workload's loads)");
  sub->add_option("--families", a->families, "families to run, e.g. qkv,o (default: all of the workload's)");
  sub->add_option("--m-sweep", a->m_sweep, "run every M in A..B instead of the loads");
  sub->add_option("--plan", a->plan, "plan file, 'safe', or 'serving' (the device's clean-L2 plan; default: the device's plan)");
  sub->add_option("--method", a->method, "candidate = this one method config (e.g. baseline, reference)");
  sub->add_flag("--baseline-vs-baseline", a->aa, "A/A run: candidate = baseline (the ratio spread is the noise)");
  sub->add_option("--pairs", a->pairs, "paired replays per case (>= 50)")->check(CLI::Range(50, 100000));
  sub->add_option("--copies", a->copies, "minimum rotated copies (>= 8; raised until > 2x L2)")->check(CLI::Range(8, 4096));
  add_device_option(sub, a->device);
  sub->add_option("--flush", a->flush, "L2 flush before each replay: write (default) or read");
  sub->add_option("--json", a->json, "write the projkit.bench/1 report here");
  sub->add_option("--ballast", a->ballast_mb,
                  "diagnostic: MiB of device memory per rotated copy allocated and never read (ledger P41)")
      ->check(CLI::Range(0, 65536));
  sub->add_flag("--ballast-before", a->ballast_before, "allocate the ballast before the rotated copies (default: after the candidates)");
  sub->add_flag("--ballast-touch", a->ballast_touch, "memset the ballast (default: allocated only)");
  sub->add_flag("--cand-own-w", a->cand_own_w,
                "diagnostic: prepare each candidate on its own device copy of W (ledger P41b)");
  sub->callback([a, &run] {
    run = [a] {
      if (!a->loads.empty() && !a->m_sweep.empty())
        throw Error(StatusCode::invalid_argument, "bench: --loads and --m-sweep are exclusive");
      if (!a->method.empty() && a->aa)
        throw Error(StatusCode::invalid_argument, "bench: --method and --baseline-vs-baseline are exclusive");
      if (!a->method.empty() && !a->plan.empty())
        throw Error(StatusCode::invalid_argument, "bench: --method and --plan are exclusive");
      require_writable(a->json, "--json");
      lab::BenchOptions o;
      o.workload = load_workload(a->workload);
      if (!a->loads.empty()) o.loads = lab::parse_m_list(a->loads);
      if (!a->m_sweep.empty()) o.loads = lab::parse_m_list(a->m_sweep);
      if (!a->families.empty()) o.families = lab::parse_name_list(a->families);
      lab::plan_bench_cases(o.workload, o.loads, o.families);  // unknown family: error before any GPU work
      o.ballast_mb = a->ballast_mb;
      o.ballast_before = a->ballast_before;
      o.ballast_touch = a->ballast_touch;
      o.cand_own_w = a->cand_own_w;
      lab::diagnostics_label(o);  // bad diagnostic flags: error before any GPU work
      o.flush = lab::parse_flush_mode(a->flush);  // bad flush mode: error before any GPU work
      const DeviceInfo dev = require_device(a->device);
      if (a->method.empty() && !a->aa) o.plan = load_plan(a->plan, dev);
      o.method = a->method;
      o.baseline_vs_baseline = a->aa;
      o.pairs = a->pairs;
      o.min_copies = a->copies;
      o.device = a->device;
      o.progress = progress_line;
      lab::BenchReport r = lab::run_bench(o);
      progress_done();
      describe_plan(r.env, o.plan, o.method, o.baseline_vs_baseline);
      std::cout << "projkit bench on " << r.env.gpu << " (plan: " << r.env.plan_source << ")\n"
                << lab::bench_table(r);
      if (!a->json.empty()) {
        lab::write_json_file(a->json, lab::bench_json(r));
        std::cout << "wrote " << a->json << "\n";
      }
      return 0;
    };
  });
}

}  // namespace projkit::cli
