// `projkit floor` (read floor per payload size) and `projkit info` (device, plan,
// kernel families with their configs).
#include <algorithm>
#include <iostream>
#include <memory>

#include "cli_common.hpp"
#include "commands.hpp"
#include "core/method.hpp"
#include "lab/bench.hpp"
#include "lab/floor.hpp"
#include "lab/report.hpp"

namespace projkit::cli {

void add_floor(CLI::App& app, std::function<int()>& run) {
  struct Args {
    std::string workload, json, flush = "write", fill = "zero";
    int device = 0;
    bool order_probes = false;
  };
  auto a = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand("floor", "practical read floor per payload size of the workload's cases");
  sub->add_option("--workload", a->workload, "workload JSON (default: built-in)");
  add_device_option(sub, a->device);
  sub->add_option("--json", a->json, "write the projkit.floor/1 report here");
  sub->add_option("--flush", a->flush, "L2 flush before each replay: write (default) or read");
  sub->add_option("--fill", a->fill,
                  "what the probe reads: zero (default, cudaMemset) or weights (bf16 values as the bench's W)");
  sub->add_flag("--order-probes", a->order_probes,
                "also time the access-order probes (ledger L7): reported per size, never the floor");
  sub->callback([a, &run] {
    run = [a] {
      // Every argument is checked before any GPU work.
      require_writable(a->json, "--json");
      const Workload w = load_workload(a->workload);
      std::vector<std::size_t> sizes;
      for (const lab::BenchCase& c : lab::plan_bench_cases(w, {}, {}))
        if (std::find(sizes.begin(), sizes.end(), c.bytes) == sizes.end()) sizes.push_back(c.bytes);
      std::sort(sizes.begin(), sizes.end());
      const lab::FloorFill fill = lab::parse_floor_fill(a->fill);
      const lab::FlushMode flush = lab::parse_flush_mode(a->flush);
      const DeviceInfo dev = require_device(a->device);
      cuda_check(cudaSetDevice(a->device), "cudaSetDevice");
      lab::GraphTimer timer(dev, flush);
      lab::FloorProbe probe(timer, 64, a->order_probes, fill);
      std::vector<lab::FloorResult> floors;
      for (std::size_t i = 0; i < sizes.size(); ++i) {
        progress_line("[" + std::to_string(i + 1) + "/" + std::to_string(sizes.size()) + "] " +
                      std::to_string(sizes[i]) + " bytes");
        floors.push_back(probe.measure(sizes[i]));
      }
      progress_done();
      std::cout << "projkit floor on " << dev.name << " (buffer " << lab::floor_fill_name(fill) << ", replay overhead "
                << timer.overhead_us() << " us subtracted)\n"
                << lab::floor_table(floors);
      if (a->order_probes) std::cout << lab::floor_variant_table(floors);
      if (!a->json.empty()) {
        lab::write_json_file(a->json, lab::floor_json(floors, [&] {
                                                       lab::BenchEnv e = lab::collect_env(dev);
                                                       e.flush = lab::flush_mode_name(timer.flush_mode());
                                                       e.floor_fill = lab::floor_fill_name(fill);
                                                       return e;
                                                     }(), timer.overhead_us()));
        std::cout << "wrote " << a->json << "\n";
      }
      return 0;
    };
  });
}

void add_info(CLI::App& app, std::function<int()>& run) {
  struct Args {
    std::string plan;
    int device = 0;
  };
  auto a = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand("info", "device, plan in force, kernel families and their configs");
  sub->add_option("--plan", a->plan, "plan file, 'safe', or 'serving' (the device's clean-L2 plan; default: the device's plan)");
  add_device_option(sub, a->device);
  sub->callback([a, &run] {
    run = [a] {
      std::cout << "projkit " << kVersion << " (git " << PROJKIT_GIT_SHA << ")\n";
      const DeviceInfo dev = require_device(a->device);
      std::cout << "device " << dev.ordinal << ": " << dev.name << ", sm_" << dev.cc_major << dev.cc_minor << ", "
                << dev.sm_count << " SMs, L2 " << (dev.l2_bytes >> 20) << " MiB, smem/block (opt-in) "
                << (dev.smem_per_block_optin >> 10) << " KiB\n"
                << "CUDA runtime " << dev.runtime_version << ", driver " << dev.driver_version << ", cuBLAS "
                << dev.cublas_version << "\n";
      std::cout << "plans dirs, in order:";
      for (const std::string& d : Plan::search_dirs()) std::cout << " " << d;
      const std::string own = Plan::find_file(dev, "");
      std::cout << "\nplan file for this device: "
                << (own.empty() ? "none (" + Plan::set_file(dev, "") + " in no plans dir: the baseline everywhere)" : own)
                << "\n";
      const std::string serving = Plan::find_file(dev, Plan::kServingSet);
      std::cout << "serving plan (--plan serving, tuned with a clean L2): "
                << (serving.empty() ? "none for this device" : serving) << "\n";
      const Plan plan = load_plan(a->plan, dev);
      std::cout << "\nplan: " << plan.source << "\n";
      for (const ProjectionSpec& spec : builtin_specs()) {
        std::cout << "  " << spec.name << " (N=" << spec.n << " K=" << spec.k << " W " << dtype_name(spec.weight_dtype)
                  << "):";
        const std::vector<PlanRange>* ranges = plan.ranges(spec.name);
        if (!ranges || ranges->empty()) std::cout << " baseline everywhere";
        std::cout << "\n";
        if (ranges)
          for (const PlanRange& r : *ranges)
            std::cout << "    M " << r.m_lo << ".." << r.m_hi << " -> " << r.method
                      << (r.ratio > 0 ? " (x" + std::to_string(r.ratio) + ")" : std::string()) << "\n";
      }
      std::cout << "\nkernel families:\n";
      for (const KernelFamily* f : kernel_families()) {
        std::cout << "  " << f->name << ": " << f->mechanism << "\n";
        for (const Config& c : f->configs()) {
          std::cout << "    " << c.name() << "  applies to:";
          bool any = false;
          for (const ProjectionSpec& spec : builtin_specs()) {
            // The M ranges (within 1..256) where this config applies to this family.
            std::string ranges;
            for (int lo = 1; lo <= 256; ++lo) {
              if (!f->applicable(spec, c, lo, lo, dev).empty()) continue;
              int hi = lo;
              while (hi < 256 && f->applicable(spec, c, hi + 1, hi + 1, dev).empty()) ++hi;
              ranges += (ranges.empty() ? "" : ",") + std::to_string(lo) + ".." + std::to_string(hi);
              lo = hi;
            }
            if (!ranges.empty()) {
              std::cout << " " << spec.name << "[M " << ranges << "]";
              any = true;
            }
          }
          std::cout << (any ? "" : " (no built-in family)") << "\n";
        }
      }
      return 0;
    };
  });
}

}  // namespace projkit::cli
