// `projkit bench` driver (see bench.hpp).
#include "lab/bench.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "core/method.hpp"
#include "lab/inputs.hpp"
#include "lab/timing.hpp"

namespace projkit::lab {
namespace {

std::unique_ptr<Projection> make_candidate(const BenchOptions& o, const ProjectionSpec& spec, const void* w,
                                           const ProjectionOptions& popts) {
  if (o.baseline_vs_baseline) return std::make_unique<Projection>(make_single_method_projection(spec, w, "baseline", popts));
  if (!o.method.empty()) return std::make_unique<Projection>(make_single_method_projection(spec, w, o.method, popts));
  return std::make_unique<Projection>(spec, w, o.plan, popts);
}

}  // namespace

std::string diagnostics_label(const BenchOptions& o) {
  if (o.ballast_mb < 0) throw Error(StatusCode::invalid_argument, "bench: --ballast must be >= 0 MiB");
  if (o.ballast_mb == 0 && (o.ballast_before || o.ballast_touch))
    throw Error(StatusCode::invalid_argument, "bench: --ballast-before / --ballast-touch need --ballast MiB > 0");
  std::string s = o.cand_own_w ? "candidate on its own copy of W" : "";
  if (o.ballast_mb > 0)
    s += (s.empty() ? "" : "; ") + std::to_string(o.ballast_mb) + " MiB x copies, " +
         (o.ballast_before ? "before" : "after") + (o.ballast_touch ? ", memset" : ", untouched");
  return s;
}

std::vector<RotatedCopy> make_rotated_copies(const ProjectionSpec& spec, int max_m, int min_copies,
                                             const DeviceInfo& dev, cudaStream_t s) {
  const std::size_t x_bytes = std::size_t(max_m) * std::size_t(spec.k) * dtype_bytes(spec.x_dtype);
  const std::size_t y_bytes = std::size_t(max_m) * std::size_t(spec.n) * dtype_bytes(spec.out_dtype);
  const int copies = rotated_copies(spec.weight_bytes() + x_bytes + y_bytes, dev.l2_bytes, std::max(min_copies, 8));
  ProjectionOptions popts;
  popts.max_m = max_m;
  popts.device = dev.ordinal;
  std::vector<RotatedCopy> cp(static_cast<std::size_t>(copies));
  for (int c = 0; c < copies; ++c) {
    RotatedCopy& b = cp[std::size_t(c)];
    b.w = DeviceBuffer(spec.weight_bytes());
    b.x = DeviceBuffer(x_bytes);
    b.y_base = DeviceBuffer(y_bytes);
    b.y_cand = DeviceBuffer(y_bytes);
    fill_weights(b.w.get(), spec, 0xBE7C0000u + unsigned(c), s);
    fill_activations(b.x.get(), max_m, spec.k, 0xAC710000u + unsigned(c), s);
    cuda_check(cudaStreamSynchronize(s), "cudaStreamSynchronize (bench inputs)");
    b.base = std::make_unique<Projection>(make_single_method_projection(spec, b.w.get(), "baseline", popts));
  }
  return cp;
}

std::vector<GraphExec> capture_copies(const std::vector<RotatedCopy>& copies, int m, bool candidate, cudaStream_t s) {
  std::vector<GraphExec> g;
  g.reserve(copies.size());
  for (const RotatedCopy& b : copies) {
    const Projection* p = candidate ? b.cand.get() : b.base.get();
    if (!p) throw Error(StatusCode::internal, "capture_copies: a copy has no candidate Projection");
    void* y = candidate ? b.y_cand.get() : b.y_base.get();
    g.push_back(capture_graph(
        s, [&](cudaStream_t st) { return p->run(b.x.get(), m, y, st); },
        candidate ? "candidate capture" : "baseline capture"));
  }
  return g;
}

std::size_t call_bytes(const ProjectionSpec& spec, int m) {
  return spec.weight_bytes_read(m) + std::size_t(m) * std::size_t(spec.k) * dtype_bytes(spec.x_dtype) +
         std::size_t(m) * std::size_t(spec.out_cols(m)) * dtype_bytes(spec.out_dtype);
}

std::vector<BenchCase> plan_bench_cases(const Workload& w, const std::vector<int>& loads,
                                        const std::vector<std::string>& families) {
  const std::vector<int>& ms = loads.empty() ? w.loads : loads;
  std::vector<std::string> fams = families;
  if (fams.empty())
    for (const ProjectionSpec& s : w.families) fams.push_back(s.name);
  std::vector<BenchCase> cases;
  for (const std::string& f : fams) {
    const ProjectionSpec& spec = w.spec(f);  // throws for an unknown family
    for (int m : ms) {
      if (m < 1) throw Error(StatusCode::invalid_argument, "bench: M must be >= 1 (got " + std::to_string(m) + ")");
      BenchCase c;
      c.family = f;
      c.m = m;
      c.n = spec.out_cols(m);
      c.k = spec.k;
      c.weight_dtype = dtype_name(spec.weight_dtype);
      for (const WorkloadCase& wc : w.cases)
        if (wc.family == f && wc.m == m) c.weight = wc.weight;
      c.bytes = call_bytes(spec, m);
      cases.push_back(c);
    }
  }
  return cases;
}

BenchReport run_bench(const BenchOptions& o) {
  if (o.pairs < 1) throw Error(StatusCode::invalid_argument, "bench: --pairs must be >= 1");
  const std::string diagnostics = diagnostics_label(o);  // refuses bad diagnostic flags before any GPU work
  cuda_check(cudaSetDevice(o.device), "cudaSetDevice");
  const DeviceInfo dev = DeviceInfo::query(o.device);
  GraphTimer timer(dev, o.flush);
  FloorProbe floor(timer);
  BenchReport rep;
  rep.env = collect_env(dev);
  rep.env.flush = flush_mode_name(o.flush);
  rep.env.ballast = diagnostics;
  rep.overhead_us = timer.overhead_us();
  rep.cases = plan_bench_cases(o.workload, o.loads, o.families);
  const cudaStream_t s = timer.stream();

  std::size_t done = 0;
  for (std::size_t first = 0; first < rep.cases.size();) {
    std::size_t last = first;
    while (last < rep.cases.size() && rep.cases[last].family == rep.cases[first].family) ++last;
    const ProjectionSpec& spec = o.workload.spec(rep.cases[first].family);
    int max_m = 1;
    for (std::size_t i = first; i < last; ++i) max_m = std::max(max_m, rep.cases[i].m);
    std::vector<DeviceBuffer> ballast;  // P41: allocated, never read by a timed graph
    auto add_ballast = [&](std::size_t count) {
      for (std::size_t i = 0; i < count; ++i) {
        ballast.emplace_back(std::size_t(o.ballast_mb) << 20);
        if (o.ballast_touch) cuda_check(cudaMemsetAsync(ballast.back().get(), 0, ballast.back().bytes(), s), "ballast");
      }
      cuda_check(cudaStreamSynchronize(s), "cudaStreamSynchronize (ballast)");
    };
    if (o.ballast_mb > 0 && o.ballast_before) add_ballast(std::size_t(o.min_copies));
    std::vector<RotatedCopy> cp = make_rotated_copies(spec, max_m, o.min_copies, dev, s);
    ProjectionOptions popts;
    popts.max_m = max_m;
    popts.device = o.device;
    for (RotatedCopy& b : cp) {
      const void* w = b.w.get();
      if (o.cand_own_w) {  // P41b: the same values in a buffer of the candidate's own
        b.w_cand = DeviceBuffer(b.w.bytes());
        cuda_check(cudaMemcpy(b.w_cand.get(), b.w.get(), b.w.bytes(), cudaMemcpyDeviceToDevice), "cand-own-w copy");
        w = b.w_cand.get();
      }
      b.cand = make_candidate(o, spec, w, popts);
    }
    if (o.ballast_mb > 0 && !o.ballast_before) add_ballast(cp.size());
    for (std::size_t i = first; i < last; ++i) {
      BenchCase& bc = rep.cases[i];
      const std::vector<GraphExec> gb = capture_copies(cp, bc.m, false, s);
      const std::vector<GraphExec> gc = capture_copies(cp, bc.m, true, s);
      const PairedSamples ps = time_paired(timer, gb, gc, o.pairs);
      const PairedSummary sum = summarize_pairs(ps.base_us, ps.cand_us);
      bc.method = cp[0].cand->method_name(bc.m);
      bc.base_us = sum.base_us;
      bc.cand_us = sum.cand_us;
      bc.ratio = sum.ratio;
      bc.ratio_p10 = sum.ratio_p10;
      bc.ratio_p90 = sum.ratio_p90;
      bc.order = split_by_order(ps.base_us, ps.cand_us, ps.base_first);
      bc.floor_us = floor.floor_us(bc.bytes);
      finish_case(bc);
      ++done;
      if (o.progress) {
        char fmt_buf[512];
        std::snprintf(fmt_buf, sizeof fmt_buf, "[%zu/%zu] %s m=%d %s: base %.2f us, cand %.2f us, x%.3f", done,
                      rep.cases.size(), bc.family.c_str(), bc.m, bc.method.c_str(), bc.base_us, bc.cand_us, bc.ratio);
        o.progress(fmt_buf);
      }
    }
    first = last;
  }
  rep.loads = load_speedups(rep.cases);
  rep.score = score(rep.loads);
  return rep;
}

}  // namespace projkit::lab
