// `projkit check`: correctness of the method in force for every family and every M
// against the fp64 device reference. Per (family, seed): fresh weights and
// Projections; per M: one captured graph replayed with new activations written into
// the captured buffer each replay (whole output buffer poisoned: unwritten elements
// and writes past y[m, n_out] both fail; probe rows; every row checked), then two
// NaN/Inf propagation replays (+Inf, NaN in one row of x) whose output value classes
// must equal the baseline's element by element.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "lab/metrics.hpp"
#include "lab/timing.hpp"
#include "projkit/projkit.hpp"

namespace projkit::lab {

struct CheckOptions {
  Workload workload = Workload::builtin_default();
  std::vector<std::string> families;  // empty = the workload's families
  std::vector<int> ms;                // empty = 1..256
  int seeds = 3;
  int replays = 3;
  Plan plan = Plan::safe();
  std::string method;  // non-empty: check this method instead of the plan
  int device = 0;
  std::function<void(const std::string&)> progress;
};

struct CheckCase {
  std::string family, method;
  int m = 0;
  Metrics metrics;  // worst over seeds and replays
};

struct CheckReport {
  std::vector<CheckCase> cases;
  int failures = 0;
  bool pass() const { return failures == 0; }
};

CheckReport run_check(const CheckOptions& opts);

// The building blocks of a check, shared with `projkit tune` (src/lab/tune.hpp).
// Device buffers for checking one family up to max_m (the weights live elsewhere).
struct CheckBuffers {
  DeviceBuffer x, y_cand, y_base, ref, rows, counter;
  CheckBuffers(const ProjectionSpec& spec, int max_m);
};
// The activation seed of replay r at m for weight seed `seed`.
uint64_t check_activation_seed(int seed, int m, int replay);
// One replay of `graph` (a captured cand.run(b.x, m, b.y_cand)) with fresh activations
// (probe rows) written into b.x: the whole of b.y_cand is poisoned first (unwritten
// elements and writes past y[m, n_out] both fail), every row is compared with the fp64
// reference of x * d_w^T at the contract tolerance. Synchronizes the stream.
Metrics accuracy_replay(const ProjectionSpec& spec, const void* d_w, int m, uint64_t x_seed, const GraphExec& graph,
                        CheckBuffers& b, cudaStream_t s);
// One replay of `graph` with a non-finite value (special) in one row of x: the number of
// output elements whose value class (finite / NaN / +Inf / -Inf / unwritten) differs
// from `base`'s (the baseline on the same weights), element by element.
long long nonfinite_replay(const ProjectionSpec& spec, int m, uint64_t x_seed, float special, const GraphExec& graph,
                           const Projection& base, CheckBuffers& b, cudaStream_t s);
// The two NaN/Inf propagation replays of a check (+Inf, then NaN), recorded into acc.
void add_nonfinite_checks(Metrics& acc, const ProjectionSpec& spec, int m, int seed, const GraphExec& graph,
                          const Projection& base, CheckBuffers& b, cudaStream_t s);

}  // namespace projkit::lab
