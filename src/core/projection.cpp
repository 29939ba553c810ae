// Projection: prepare once (plan -> methods -> per-m dispatch table), then run().
#include <cstdint>
#include <cstdio>
#include <map>

#include "core/method.hpp"

namespace projkit {

constexpr int kMaxM = 4096;

struct Projection::Impl {
  ProjectionSpec spec;
  DeviceInfo dev;
  int max_m = 0;
  std::vector<std::unique_ptr<PreparedMethod>> methods;
  std::vector<std::string> method_names;
  std::vector<uint16_t> table;  // table[m] = index into methods, m in [1, max_m]
  std::vector<std::string> warnings;
  const void* weights = nullptr;  // the caller's W (read in place by some methods): y must not overlap it
};

std::string method_applicability(const ProjectionSpec& spec, const std::string& method, int m_lo, int m_hi,
                                 const DeviceInfo& dev) {
  Config cfg;
  try {
    cfg = Config::parse(method);
  } catch (const Error& e) {
    return e.what();
  }
  const KernelFamily* fam = find_kernel_family(cfg.kernel);
  if (!fam) return "unknown method kernel '" + cfg.kernel + "' in '" + method + "'";
  bool listed = false;
  for (const Config& c : fam->configs()) listed = listed || c.name() == cfg.name();
  if (!listed) return "method '" + method + "' is not one of the configs kernel '" + cfg.kernel + "' lists";
  return fam->applicable(spec, cfg, m_lo, m_hi, dev);
}

std::string copy_free_method(const ProjectionSpec& spec, const std::string& method, int m_lo, int m_hi,
                             const DeviceInfo& dev) {
  Config cfg;
  try {
    cfg = Config::parse(method);
  } catch (const Error&) {
    return method;  // not a config: the plan check names the problem
  }
  const KernelFamily* fam = find_kernel_family(cfg.kernel);
  return fam && fam->copy_free ? fam->copy_free(spec, cfg, m_lo, m_hi, dev) : method;
}

std::vector<std::string> list_method_configs() {
  std::vector<std::string> out;
  for (const KernelFamily* f : kernel_families())
    for (const Config& c : f->configs()) out.push_back(c.name());
  return out;
}

static bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; }

// Whether the byte ranges [a, a + na) and [b, b + nb) share a byte.
static bool overlaps(const void* a, std::size_t na, const void* b, std::size_t nb) {
  const uintptr_t pa = reinterpret_cast<uintptr_t>(a), pb = reinterpret_cast<uintptr_t>(b);
  return na > 0 && nb > 0 && pa < pb + nb && pb < pa + na;
}

namespace {
// Makes `ordinal` the calling thread's current device for a scope and restores the previous one:
// a Projection prepares (allocations, layouts, handles) and is destroyed on its own device,
// whichever device the caller has current. Errors are left to the calls that follow.
class CurrentDeviceGuard {
 public:
  explicit CurrentDeviceGuard(int ordinal) {
    if (cudaGetDevice(&previous_) == cudaSuccess && previous_ != ordinal && cudaSetDevice(ordinal) == cudaSuccess)
      restore_ = true;
  }
  ~CurrentDeviceGuard() {
    if (restore_) cudaSetDevice(previous_);
  }
  CurrentDeviceGuard(const CurrentDeviceGuard&) = delete;
  CurrentDeviceGuard& operator=(const CurrentDeviceGuard&) = delete;

 private:
  int previous_ = -1;
  bool restore_ = false;
};
}  // namespace

Projection::Projection(const ProjectionSpec& spec, const void* d_weights, const Plan& plan,
                       const ProjectionOptions& opts)
    : impl_(std::make_unique<Impl>()) {
  Impl& I = *impl_;
  spec.validate();
  I.spec = spec;
  if (opts.max_m < 1 || opts.max_m > kMaxM)
    throw Error(StatusCode::invalid_argument,
                "max_m must be in [1, " + std::to_string(kMaxM) + "], got " + std::to_string(opts.max_m));
  if (!d_weights) throw Error(StatusCode::invalid_argument, "weights pointer is null");
  if (!aligned16(d_weights)) throw Error(StatusCode::invalid_argument, "weights pointer is not 16-byte aligned");
  int ordinal = opts.device;
  if (ordinal < 0) cuda_check(cudaGetDevice(&ordinal), "cudaGetDevice");
  const CurrentDeviceGuard on_device(ordinal);  // prepare on the Projection's device
  I.dev = DeviceInfo::query(ordinal);
  if (!I.dev.is_hopper_sm90())
    throw Error(StatusCode::unsupported, "projkit kernels are built for sm_90a; device '" + I.dev.name + "' is sm_" +
                                             std::to_string(I.dev.cc_major) + std::to_string(I.dev.cc_minor));
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, d_weights) != cudaSuccess || attr.type != cudaMemoryTypeDevice) {
    cudaGetLastError();
    throw Error(StatusCode::invalid_argument, "weights pointer is not device memory");
  }
  if (attr.device != ordinal)
    throw Error(StatusCode::invalid_argument, "weights are on device " + std::to_string(attr.device) +
                                                  ", the Projection is for device " + std::to_string(ordinal));
  I.max_m = opts.max_m;
  I.warnings = plan.warnings;
  I.weights = d_weights;

  // Resolve each plan range (clipped to [1, max_m]) to an applicable method, else baseline.
  std::vector<std::string> per_m(std::size_t(I.max_m) + 1, "baseline");
  if (const auto* ranges = plan.ranges(spec.name)) {
    for (const PlanRange& r : *ranges) {
      int lo = r.m_lo, hi = std::min(r.m_hi, I.max_m);
      if (lo > hi) continue;
      const std::string method = opts.weight_copies ? r.method : copy_free_method(spec, r.method, lo, hi, I.dev);
      std::string why = method_applicability(spec, method, lo, hi, I.dev);
      if (!why.empty()) {
        std::string msg = "plan " + plan.source + ": " + spec.name + " m=[" + std::to_string(lo) + "," +
                          std::to_string(hi) + "] method '" + method + "' not applicable: " + why;
        if (opts.strict_plan) throw Error(StatusCode::plan_mismatch, msg);
        I.warnings.push_back(msg + " -- using baseline");
        continue;
      }
      for (int m = lo; m <= hi; ++m) per_m[std::size_t(m)] = method;
    }
  }
  // The M ranges each method serves (a method may appear in several plan ranges).
  std::map<std::string, std::vector<std::pair<int, int>>> ranges_of;
  for (int m = 1; m <= I.max_m; ++m) {
    auto& rs = ranges_of[per_m[std::size_t(m)]];
    if (!rs.empty() && rs.back().second == m - 1)
      rs.back().second = m;
    else
      rs.push_back({m, m});
  }
  std::map<std::string, uint16_t> index;
  auto scratch = std::make_shared<SharedScratch>();  // one per Projection (see method.hpp)
  auto layouts = std::make_shared<SharedLayouts>();  // one per Projection (see method.hpp)
  I.table.assign(std::size_t(I.max_m) + 1, 0);
  for (int m = 1; m <= I.max_m; ++m) {
    const std::string& name = per_m[std::size_t(m)];
    auto it = index.find(name);
    if (it == index.end()) {
      Config cfg = Config::parse(name);
      const KernelFamily* fam = find_kernel_family(cfg.kernel);
      PrepareContext ctx{I.spec, d_weights, I.max_m, I.dev, scratch, ranges_of.at(name), layouts};
      I.methods.push_back(fam->prepare(ctx, cfg));
      I.method_names.push_back(name);
      it = index.emplace(name, uint16_t(I.methods.size() - 1)).first;
    }
    I.table[std::size_t(m)] = it->second;
  }
  cuda_check(cudaDeviceSynchronize(), "prepare (synchronize after static layouts)");
}

Projection::~Projection() {
  if (!impl_) return;  // moved from
  const CurrentDeviceGuard on_device(impl_->dev.ordinal);  // free on the device that allocated
  impl_.reset();
}
Projection::Projection(Projection&&) noexcept = default;
Projection& Projection::operator=(Projection&& other) noexcept {
  if (this != &other) {
    if (impl_) {
      const CurrentDeviceGuard on_device(impl_->dev.ordinal);  // as the destructor
      impl_.reset();
    }
    impl_ = std::move(other.impl_);
  }
  return *this;
}

Status Projection::run(const void* d_x, int m, void* d_y, cudaStream_t stream) const {
  if (!impl_) return {StatusCode::invalid_argument, "run on a moved-from Projection"};
  const Impl& I = *impl_;
  if (m < 1 || m > I.max_m)
    return {StatusCode::invalid_argument, "m must be in [1, max_m=" + std::to_string(I.max_m) + "], got " +
                                              std::to_string(m)};
  if (!d_x) return {StatusCode::invalid_argument, "x pointer is null"};
  if (!d_y) return {StatusCode::invalid_argument, "y pointer is null"};
  if (!aligned16(d_x)) return {StatusCode::invalid_argument, "x pointer is not 16-byte aligned"};
  if (!aligned16(d_y)) return {StatusCode::invalid_argument, "y pointer is not 16-byte aligned"};
  const std::size_t y_bytes = I.spec.y_bytes(m);
  if (overlaps(d_y, y_bytes, d_x, I.spec.x_bytes(m)))
    return {StatusCode::invalid_argument, "y overlaps x: y [" + std::to_string(m) + ", " +
                                              std::to_string(I.spec.out_cols(m)) +
                                              "] must not share memory with x (no in-place call)"};
  if (overlaps(d_y, y_bytes, I.weights, I.spec.weight_bytes()))
    return {StatusCode::invalid_argument, "y overlaps the weights the Projection was created from"};
  // Launches go to the current device: it must be the one the Projection was prepared on (a host
  // query, no sync; allowed during stream capture).
  int current = -1;
  if (cudaGetDevice(&current) != cudaSuccess || current != I.dev.ordinal)
    return {StatusCode::invalid_argument, "run with device " + std::to_string(current) +
                                              " current, but the Projection was prepared on device " +
                                              std::to_string(I.dev.ordinal) + " (cudaSetDevice first)"};
  RunArgs a{d_x, m, I.spec.out_cols(m), d_y, stream};
  return I.methods[I.table[std::size_t(m)]]->run(a);
}

const ProjectionSpec& Projection::spec() const { return impl_->spec; }
int Projection::max_m() const { return impl_->max_m; }
std::vector<std::string> Projection::warnings() const { return impl_->warnings; }

std::string Projection::method_name(int m) const {
  if (m < 1 || m > impl_->max_m) return "";
  return impl_->method_names[impl_->table[std::size_t(m)]];
}

Projection make_single_method_projection(const ProjectionSpec& spec, const void* d_weights, const std::string& method,
                                         const ProjectionOptions& opts) {
  Plan p = Plan::safe();
  p.source = "single-method:" + method;
  p.families.push_back({spec.name, {PlanRange{1, opts.max_m, method, 0.0}}});
  ProjectionOptions o = opts;
  o.strict_plan = true;
  return Projection(spec, d_weights, p, o);
}

}  // namespace projkit
