// `projkit check` driver (see check.hpp).
#include "lab/check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include "core/method.hpp"
#include "lab/inputs.hpp"
#include "lab/random.hpp"
#include "lab/reference.hpp"
#include "lab/timing.hpp"

namespace projkit::lab {
namespace {

Projection make_checked(const CheckOptions& o, const ProjectionSpec& spec, const void* w, const ProjectionOptions& p) {
  if (!o.method.empty()) return make_single_method_projection(spec, w, o.method, p);
  return Projection(spec, w, o.plan, p);
}

Metrics failed(const std::string& why) {
  Metrics m;
  m.pass = false;
  m.nonfinite_ok = false;
  m.reason = why;
  return m;
}

}  // namespace

CheckBuffers::CheckBuffers(const ProjectionSpec& spec, int max_m)
    : x(std::size_t(max_m) * std::size_t(spec.k) * dtype_bytes(spec.x_dtype)),
      y_cand(std::size_t(max_m) * std::size_t(spec.n) * dtype_bytes(spec.out_dtype)),
      y_base(y_cand.bytes()),
      ref(std::size_t(max_m) * std::size_t(spec.n) * sizeof(double)),
      rows(std::size_t(max_m) * sizeof(RowStats)),
      counter(sizeof(long long)) {}

uint64_t check_activation_seed(int seed, int m, int replay) {
  return mix64(uint64_t(seed), RandomStream::activation, uint64_t(m) * 1000 + uint64_t(replay));
}

Metrics accuracy_replay(const ProjectionSpec& spec, const void* d_w, int m, uint64_t x_seed, const GraphExec& graph,
                        CheckBuffers& b, cudaStream_t s) {
  const int64_t n_out = spec.out_cols(m);
  const std::size_t out_count = std::size_t(m) * std::size_t(n_out);
  const std::size_t capacity = b.y_cand.bytes() / dtype_bytes(spec.out_dtype);
  fill_activations(b.x.get(), m, spec.k, x_seed, s);
  poison_output(b.y_cand.get(), capacity, spec.out_dtype, s);
  graph.launch(s);
  reference_device(spec, m, b.x.get(), d_w, b.ref.as<double>(), s);
  row_stats_device(b.y_cand.get(), spec.out_dtype, b.ref.as<double>(), m, n_out, b.rows.as<RowStats>(), s);
  count_written_device(b.y_cand.as<char>() + out_count * dtype_bytes(spec.out_dtype), spec.out_dtype,
                       int64_t(capacity - out_count), b.counter.as<long long>(), s);
  std::vector<RowStats> rows(static_cast<std::size_t>(m));
  long long oob = 0;
  cuda_check(cudaMemcpyAsync(rows.data(), b.rows.get(), rows.size() * sizeof(RowStats), cudaMemcpyDeviceToHost, s),
             "cudaMemcpyAsync (row stats)");
  cuda_check(cudaMemcpyAsync(&oob, b.counter.get(), sizeof oob, cudaMemcpyDeviceToHost, s),
             "cudaMemcpyAsync (out-of-bounds count)");
  cuda_check(cudaStreamSynchronize(s), "cudaStreamSynchronize (check replay)");
  Metrics r = summarize_rows(rows, tolerance_for(spec));
  add_oob_check(r, oob);
  return r;
}

long long nonfinite_replay(const ProjectionSpec& spec, int m, uint64_t x_seed, float special, const GraphExec& graph,
                           const Projection& base, CheckBuffers& b, cudaStream_t s) {
  const int64_t n_out = spec.out_cols(m);
  const std::size_t count = std::size_t(m) * std::size_t(n_out);
  fill_activations(b.x.get(), m, spec.k, x_seed, s);
  const int64_t row = int64_t(mix64(x_seed, RandomStream::probe_pick, 7) % uint64_t(m));
  const int64_t col = int64_t(mix64(x_seed, RandomStream::probe_col, 7) % uint64_t(spec.k));
  set_activation(b.x.get(), row * spec.k + col, special, s);
  poison_output(b.y_cand.get(), count, spec.out_dtype, s);
  poison_output(b.y_base.get(), count, spec.out_dtype, s);
  graph.launch(s);
  const Status st = base.run(b.x.get(), m, b.y_base.get(), s);
  if (!st.ok()) throw Error(st.code, "baseline run (NaN/Inf check): " + st.message);
  class_mismatches_device(b.y_cand.get(), b.y_base.get(), spec.out_dtype, int64_t(count), b.counter.as<long long>(), s);
  long long mismatches = 0;
  cuda_check(cudaMemcpyAsync(&mismatches, b.counter.get(), sizeof mismatches, cudaMemcpyDeviceToHost, s),
             "cudaMemcpyAsync (mismatch count)");
  cuda_check(cudaStreamSynchronize(s), "cudaStreamSynchronize (NaN/Inf check)");
  return mismatches;
}

void add_nonfinite_checks(Metrics& acc, const ProjectionSpec& spec, int m, int seed, const GraphExec& graph,
                          const Projection& base, CheckBuffers& b, cudaStream_t s) {
  const uint64_t nf_seed = check_activation_seed(seed, m, 999);
  add_pattern_check(acc, nonfinite_replay(spec, m, nf_seed, std::numeric_limits<float>::infinity(), graph, base, b, s));
  add_pattern_check(acc, nonfinite_replay(spec, m, nf_seed + 1, std::numeric_limits<float>::quiet_NaN(), graph, base, b, s));
}

CheckReport run_check(const CheckOptions& o) {
  if (o.seeds < 1 || o.replays < 1) throw Error(StatusCode::invalid_argument, "check: --seeds and --replays must be >= 1");
  std::vector<int> ms = o.ms;
  if (ms.empty())
    for (int m = 1; m <= 256; ++m) ms.push_back(m);
  for (int m : ms)
    if (m < 1) throw Error(StatusCode::invalid_argument, "check: M must be >= 1 (got " + std::to_string(m) + ")");
  std::vector<std::string> fams = o.families;
  if (fams.empty())
    for (const ProjectionSpec& s : o.workload.families) fams.push_back(s.name);
  cuda_check(cudaSetDevice(o.device), "cudaSetDevice");
  const int max_m = *std::max_element(ms.begin(), ms.end());
  Stream stream;
  const cudaStream_t s = stream.get();

  CheckReport rep;
  for (const std::string& fam : fams) {
    const ProjectionSpec& spec = o.workload.spec(fam);
    CheckBuffers b(spec, max_m);
    DeviceBuffer w(spec.weight_bytes());
    ProjectionOptions popts;
    popts.max_m = max_m;
    popts.device = o.device;
    std::vector<std::optional<Metrics>> worst(ms.size());
    std::vector<std::string> method(ms.size());
    for (int seed = 0; seed < o.seeds; ++seed) {
      fill_weights(w.get(), spec, 0x5EED0000u + unsigned(seed), s);
      stream.sync();
      const Projection cand = make_checked(o, spec, w.get(), popts);
      const Projection base = make_single_method_projection(spec, w.get(), "baseline", popts);
      int seed_failures = 0;
      for (std::size_t mi = 0; mi < ms.size(); ++mi) {
        const int m = ms[mi];
        method[mi] = cand.method_name(m);
        Metrics acc;
        try {
          const GraphExec graph = capture_graph(
              s, [&](cudaStream_t st) { return cand.run(b.x.get(), m, b.y_cand.get(), st); }, "candidate capture");
          for (int r = 0; r < o.replays; ++r) {
            const Metrics one = accuracy_replay(spec, w.get(), m, check_activation_seed(seed, m, r), graph, b, s);
            acc = r == 0 ? one : worst_of(acc, one);
          }
          add_nonfinite_checks(acc, spec, m, seed, graph, base, b, s);
        } catch (const Error& e) {
          acc = failed(e.what());
        }
        seed_failures += !acc.pass;
        worst[mi] = worst[mi] ? worst_of(*worst[mi], acc) : acc;
      }
      if (o.progress)
        o.progress(fam + " seed " + std::to_string(seed + 1) + "/" + std::to_string(o.seeds) + ": " +
                   std::to_string(ms.size()) + " M values, " + std::to_string(seed_failures) + " failing");
    }
    for (std::size_t mi = 0; mi < ms.size(); ++mi) {
      CheckCase c;
      c.family = fam;
      c.m = ms[mi];
      c.method = method[mi];
      c.metrics = *worst[mi];
      rep.failures += !c.metrics.pass;
      rep.cases.push_back(std::move(c));
    }
  }
  return rep;
}

}  // namespace projkit::lab
