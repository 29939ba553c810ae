// Internal: what a kernel family provides to the dispatcher.
//
// A *method* is one kernel family plus one config. A config is a value with a
// self-describing name: "<kernel>.<key><int>.<key><int>..." e.g.
// "gemv_stream.rows2.warps8". Each kernel family lists its configs explicitly
// (each with the reason it exists), says when a config applies, prepares its
// static layouts once, and launches.
#pragma once

#include <cuda_runtime.h>

#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "projkit/projkit.hpp"

namespace projkit {

struct Config {
  std::string kernel;                               // e.g. "gemv_stream"
  std::vector<std::pair<std::string, int>> params;  // ordered, e.g. {{"rows",2},{"warps",8}}

  std::string name() const;                        // "gemv_stream.rows2.warps8"
  int get(std::string_view key, int fallback) const;
  bool has(std::string_view key) const;
  static Config parse(std::string_view name);      // throws Error(parse_error)
};

// Everything a launch needs. n_out = spec.out_cols(m) (the unpooler slice reads
// only W rows [0, n_out)); y is row-major [m, n_out].
struct RunArgs {
  const void* x;
  int m;
  int64_t n_out;
  void* y;
  cudaStream_t stream;
};

class SharedScratch;

class SharedLayouts;  // below

struct PrepareContext {
  const ProjectionSpec& spec;
  const void* w;         // device, row-major [N, K], spec.weight_dtype; outlives the method
  int max_m;             // run() never sees a larger m
  const DeviceInfo& dev;
  // Scratch shared by the methods of one Projection (null: the method makes its own).
  std::shared_ptr<SharedScratch> scratch = nullptr;
  // The m this method will serve, as inclusive ranges (a plan's ranges for it); empty: every
  // m in [1, max_m]. Methods with per-m set-up (cublaslt) prepare only these.
  std::vector<std::pair<int, int>> m_ranges = {};
  // Lossless re-layouts of W shared by the methods of one Projection (null: the method makes
  // its own).
  std::shared_ptr<SharedLayouts> layouts = nullptr;
};

// A method prepared for one weight tensor. Owns its re-layouts and workspaces.
class PreparedMethod {
 public:
  virtual ~PreparedMethod() = default;
  // Launch only: no allocation, no sync, capturable. Return cuda_error on a failed launch.
  virtual Status run(const RunArgs& a) const = 0;
};

struct KernelFamily {
  const char* name;       // config prefix, e.g. "gemv_stream"
  const char* mechanism;  // one line for `projkit info`
  // The explicit config list (what `tune` screens).
  std::vector<Config> (*configs)();
  // "" when cfg applies to spec for every m in [m_lo, m_hi] on dev; else the violated constraint.
  std::string (*applicable)(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi,
                            const DeviceInfo& dev);
  // Prepare static layouts (allocate + launch + sync allowed here). Throws Error.
  std::unique_ptr<PreparedMethod> (*prepare)(const PrepareContext& ctx, const Config& cfg);
  // The method a Projection with weight_copies = false runs instead of cfg over [m_lo, m_hi]
  // (copy_free_method), for the families whose configs may keep a re-laid-out copy of W: cfg's
  // own name when it keeps none. nullptr: the family never keeps a copy.
  std::string (*copy_free)(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi,
                           const DeviceInfo& dev) = nullptr;
};

// Every kernel family the library was built with (src/core/registry.cpp).
const std::vector<const KernelFamily*>& kernel_families();
const KernelFamily* find_kernel_family(std::string_view name);

// Helpers shared by kernel families.
Status cuda_status(cudaError_t e, const char* what);  // ok when e == cudaSuccess
void cuda_check(cudaError_t e, const char* what);     // throws Error(cuda_error)
// How many CTAs of `kernel` (a __global__ function, cast to const void*) with `threads` threads
// and `smem` bytes of dynamic smem the device holds at once: blocks per SM x sm_count (a
// grid-stride grid, or the largest cooperative grid). Throws Error(cuda_error) naming `what`.
int64_t resident_ctas(const void* kernel, int threads, std::size_t smem, int sm_count, const char* what);

// A device buffer owned by a PreparedMethod (freed in the destructor).
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(o.p_), bytes_(o.bytes_) { o.p_ = nullptr; o.bytes_ = 0; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  void* get() const { return p_; }
  template <class T> T* as() const { return static_cast<T*>(p_); }
  std::size_t bytes() const { return bytes_; }

 private:
  void* p_ = nullptr;
  std::size_t bytes_ = 0;
};

// Device scratch shared by the prepared methods of one Projection, for contents that never
// outlive one call (cuBLASLt's matmul workspace). Sharing is safe because a Projection runs
// one method per call on one stream at a time (the library contract); without it every
// prepared cublaslt method of a plan held its own 32 MiB (6-9 per dense family in run E).
// Grown only while methods are prepared; methods read get() at run time, never cache it.
// Workspaces that must persist between calls (self-resetting split-K counters) stay per method.
class SharedScratch {
 public:
  void reserve(std::size_t bytes) {
    if (bytes > buf_.bytes()) buf_ = DeviceBuffer(bytes);
  }
  void* get() const { return buf_.get(); }

 private:
  DeviceBuffer buf_;
};

// Lossless re-layouts of the weights shared by the prepared methods of one Projection
// (wgmma_tma's k-block slabs, ledger E65: one copy of W per Projection however many of its
// methods read it). Made by the first method that asks, read-only afterwards; the methods hold
// the shared_ptr, so a layout lives as long as its last reader.
class SharedLayouts {
 public:
  // The layout named `name`: made with `make` (which allocates and fills it) on first use.
  template <class Make>
  const DeviceBuffer& get(const std::string& name, Make&& make) {
    for (auto& [n, b] : bufs_)
      if (n == name) return b;
    bufs_.emplace_back(name, make());
    return bufs_.back().second;
  }

 private:
  std::list<std::pair<std::string, DeviceBuffer>> bufs_;  // a list: references stay valid as it grows
};

// The layout `name` of the Projection's shared layouts (ctx.layouts; a set of the method's own when
// it is prepared alone), made with `make` on first use. `keep`, the method's member, holds the set
// as long as the method lives.
template <class Make>
const DeviceBuffer& shared_layout(const PrepareContext& ctx, std::shared_ptr<SharedLayouts>& keep,
                                  const std::string& name, Make&& make) {
  keep = ctx.layouts ? ctx.layouts : std::make_shared<SharedLayouts>();
  return keep->get(name, std::forward<Make>(make));
}

}  // namespace projkit
