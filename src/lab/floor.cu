// stream_read: the floor probe's kernels.
// Regime: pure streaming read of `bytes` (no compute), as a memory-bound GEMV would.
// Mechanism: 16-byte loads, kUnroll independent loads in flight per thread, a grid of
//            (SM count x resident blocks per SM) from the device and the occupancy API,
//            grid-stride over the payload; L1 bypassed, optional L2 prefetch / evict-first.
// Constraints: the buffer is 16-byte aligned; bytes is rounded up to 16.
#include "lab/floor.hpp"

#include <algorithm>

#include "kernels/ptx.cuh"
#include "lab/stats.hpp"

namespace projkit::lab {
namespace {

enum class ReadHint : int { no_allocate = 0, prefetch256 = 1, evict_first = 2 };

constexpr int kThreads = 512;

// kUnroll: independent 16-byte loads in flight per thread per step.
// kHint: which load instruction (see ReadHint).
template <int kUnroll, ReadHint kHint>
__global__ void __launch_bounds__(kThreads) stream_read_kernel(const uint4* __restrict__ src, int64_t count,
                                                                unsigned* __restrict__ sink, unsigned magic) {
  static_assert(kUnroll >= 1 && kUnroll <= 16, "loads in flight per thread");
  uint64_t policy = 0;
  if constexpr (kHint == ReadHint::evict_first) policy = ptx::l2_evict_first_policy();
  const int64_t stride = int64_t(gridDim.x) * kThreads;
  unsigned acc = 0;
  for (int64_t base = int64_t(blockIdx.x) * kThreads + threadIdx.x; base < count; base += stride * kUnroll) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t i = base + u * stride;
      if (i < count) {
        if constexpr (kHint == ReadHint::no_allocate)
          v[u] = ptx::ld_stream(src + i);
        else if constexpr (kHint == ReadHint::prefetch256)
          v[u] = ptx::ld_stream_prefetch256(src + i);
        else
          v[u] = ptx::ld_stream_hint(src + i, policy);
      } else {
        v[u] = make_uint4(0, 0, 0, 0);
      }
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  if (acc == magic) *sink = acc;  // never true for the zeroed buffer; keeps the loads alive
}

struct Variant {
  const char* name;
  void (*kernel)(const uint4*, int64_t, unsigned*, unsigned);
};

const Variant kVariants[] = {
    // 4 loads in flight per thread: enough at full occupancy.
    {"stream_read.unroll4.no_allocate", stream_read_kernel<4, ReadHint::no_allocate>},
    // 8 in flight: more bytes in flight per SM when occupancy is limited.
    {"stream_read.unroll8.no_allocate", stream_read_kernel<8, ReadHint::no_allocate>},
    // L2 256-byte prefetch: fewer, larger DRAM requests.
    {"stream_read.unroll4.prefetch256", stream_read_kernel<4, ReadHint::prefetch256>},
    // Evict-first policy: what weight streaming kernels use.
    {"stream_read.unroll8.evict_first", stream_read_kernel<8, ReadHint::evict_first>},
};

}  // namespace

const FloorResult& FloorProbe::measure(std::size_t bytes) {
  auto it = cache_.find(bytes);
  if (it != cache_.end()) return it->second;
  const DeviceInfo& dev = timer_.device();
  const std::size_t padded = (std::max<std::size_t>(bytes, 16) + 15) / 16 * 16;
  const int copies = rotated_copies(padded, dev.l2_bytes, 8);
  DeviceBuffer buf(padded * std::size_t(copies));
  DeviceBuffer sink(sizeof(unsigned));
  cuda_check(cudaMemsetAsync(buf.get(), 0, buf.bytes(), timer_.stream()), "cudaMemsetAsync (floor buffer)");
  const int64_t count = int64_t(padded / 16);

  FloorResult r;
  r.bytes = bytes;
  r.model_us = floor_model_us(bytes);
  const double overhead = timer_.overhead_us();
  for (const Variant& v : kVariants) {
    int per_sm = 0;
    cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, v.kernel, kThreads, 0),
               "cudaOccupancyMaxActiveBlocksPerMultiprocessor (stream_read)");
    const unsigned grid = unsigned(std::max(1, per_sm) * std::max(1, dev.sm_count));
    std::vector<GraphExec> graphs;
    for (int c = 0; c < copies; ++c) {
      const uint4* src = reinterpret_cast<const uint4*>(buf.as<char>() + std::size_t(c) * padded);
      graphs.push_back(capture_graph(
          timer_.stream(),
          [&](cudaStream_t s) {
            v.kernel<<<grid, kThreads, 0, s>>>(src, count, sink.as<unsigned>(), 0xDEADBEEFu);
            return cuda_status(cudaGetLastError(), v.name);
          },
          v.name));
    }
    std::vector<cudaGraphExec_t> seq;
    for (int i = 0; i < std::max(reps_, copies); ++i) seq.push_back(graphs[std::size_t(i % copies)].get());
    timer_.time_sequence(std::vector<cudaGraphExec_t>(seq.begin(), seq.begin() + copies));  // warm-up
    std::vector<double> us = timer_.time_sequence(seq);
    for (double& u : us) u -= overhead;
    const double med = median(us);
    r.variants.push_back({v.name, med});
    if (r.best.empty() || med < r.floor_us) {
      r.floor_us = med;
      r.best = v.name;
    }
  }
  return cache_.emplace(bytes, std::move(r)).first->second;
}

}  // namespace projkit::lab
