// Graph capture, L2 flush and event timing for the lab (see timing.hpp).
#include "lab/timing.hpp"

#include <algorithm>

#include "lab/stats.hpp"

namespace projkit::lab {
namespace {

// Streaming 16-byte stores over the flush buffer: evicts every L2 line.
__global__ void l2_flush_kernel(uint4* __restrict__ buf, std::size_t count, unsigned value) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count; i += std::size_t(gridDim.x) * blockDim.x)
    buf[i] = make_uint4(value, value, value, value);
}

// Streaming 16-byte loads over the flush buffer: evicts every L2 line and leaves clean
// ones. The sum is stored only if it equals a value the buffer never holds, so the
// loads cannot be dropped.
__global__ void l2_flush_read_kernel(const uint4* __restrict__ buf, std::size_t count, unsigned* sink) {
  unsigned acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count; i += std::size_t(gridDim.x) * blockDim.x) {
    const uint4 v = buf[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0xdeadbeefu) *sink = acc;
}

// The replay-overhead probe: a graph holding one kernel that does nothing.
__global__ void empty_kernel() {}

constexpr int kFlushThreads = 512;

}  // namespace

Stream::Stream() { cuda_check(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags"); }
Stream::~Stream() {
  if (s_) cudaStreamDestroy(s_);
}
void Stream::sync() const { cuda_check(cudaStreamSynchronize(s_), "cudaStreamSynchronize"); }

GraphExec::~GraphExec() {
  if (e_) cudaGraphExecDestroy(e_);
}
GraphExec& GraphExec::operator=(GraphExec&& o) noexcept {
  if (this != &o) {
    if (e_) cudaGraphExecDestroy(e_);
    e_ = o.e_;
    o.e_ = nullptr;
  }
  return *this;
}
void GraphExec::launch(cudaStream_t s) const { cuda_check(cudaGraphLaunch(e_, s), "cudaGraphLaunch"); }

GraphExec capture_graph(cudaStream_t stream, const std::function<Status(cudaStream_t)>& body, const char* what) {
  cuda_check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  Status st;
  try {
    st = body(stream);
  } catch (const std::exception& e) {
    st = {StatusCode::internal, e.what()};
  }
  cudaGraph_t graph = nullptr;
  const cudaError_t end = cudaStreamEndCapture(stream, &graph);
  if (!st.ok()) {
    if (graph) cudaGraphDestroy(graph);
    throw Error(st.code, std::string(what) + ": " + st.message);
  }
  cuda_check(end, "cudaStreamEndCapture");
  cudaGraphExec_t exec = nullptr;
  const cudaError_t inst = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  cuda_check(inst, "cudaGraphInstantiate");
  GraphExec g(exec);
  cuda_check(cudaGraphUpload(exec, stream), "cudaGraphUpload");
  return g;
}

FlushMode parse_flush_mode(std::string_view s) {
  if (s == "write") return FlushMode::write;
  if (s == "read") return FlushMode::read;
  throw Error(StatusCode::invalid_argument, "flush mode must be 'write' or 'read', got '" + std::string(s) + "'");
}

const char* flush_mode_name(FlushMode m) { return m == FlushMode::read ? "read" : "write"; }

L2Flusher::L2Flusher(const DeviceInfo& dev, FlushMode mode) : mode_(mode) {
  constexpr std::size_t kMiB = std::size_t(1) << 20;
  const std::size_t l2 = std::max<std::size_t>(dev.l2_bytes, kMiB);
  buf_ = DeviceBuffer((2 * l2 + 2 * kMiB - 1) / kMiB * kMiB);  // >= 2x L2, whole MiB
  blocks_ = unsigned(std::max(dev.sm_count, 1) * 4);
  if (mode_ == FlushMode::read) {
    sink_ = DeviceBuffer(sizeof(unsigned));
    cuda_check(cudaMemset(buf_.get(), 0, buf_.bytes()), "cudaMemset (flush buffer)");
  }
}

void L2Flusher::enqueue(cudaStream_t stream) const {
  const std::size_t count = buf_.bytes() / sizeof(uint4);
  if (mode_ == FlushMode::read)
    l2_flush_read_kernel<<<blocks_, kFlushThreads, 0, stream>>>(buf_.as<uint4>(), count, sink_.as<unsigned>());
  else
    l2_flush_kernel<<<blocks_, kFlushThreads, 0, stream>>>(buf_.as<uint4>(), count, ++counter_);
  cuda_check(cudaGetLastError(), "l2_flush_kernel launch");
}

GraphTimer::GraphTimer(const DeviceInfo& dev, FlushMode flush) : dev_(dev), flush_mode_(flush), flusher_(dev, flush) {
  start_.resize(kChunk);
  stop_.resize(kChunk);
  for (int i = 0; i < kChunk; ++i) {
    cuda_check(cudaEventCreate(&start_[i]), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop_[i]), "cudaEventCreate");
  }
}

GraphTimer::~GraphTimer() {
  for (cudaEvent_t e : start_) cudaEventDestroy(e);
  for (cudaEvent_t e : stop_) cudaEventDestroy(e);
}

std::vector<double> GraphTimer::time_sequence(const std::vector<cudaGraphExec_t>& seq) {
  std::vector<double> us(seq.size());
  cudaStream_t s = stream_.get();
  for (std::size_t base = 0; base < seq.size(); base += kChunk) {
    const std::size_t n = std::min<std::size_t>(kChunk, seq.size() - base);
    for (std::size_t i = 0; i < n; ++i) {
      flusher_.enqueue(s);
      cuda_check(cudaEventRecord(start_[i], s), "cudaEventRecord");
      cuda_check(cudaGraphLaunch(seq[base + i], s), "cudaGraphLaunch");
      cuda_check(cudaEventRecord(stop_[i], s), "cudaEventRecord");
    }
    stream_.sync();
    for (std::size_t i = 0; i < n; ++i) {
      float ms = 0.0f;
      cuda_check(cudaEventElapsedTime(&ms, start_[i], stop_[i]), "cudaEventElapsedTime");
      us[base + i] = double(ms) * 1e3;
    }
  }
  return us;
}

double GraphTimer::overhead_us() {
  if (overhead_us_ >= 0.0) return overhead_us_;
  GraphExec g = capture_graph(
      stream_.get(),
      [](cudaStream_t s) {
        empty_kernel<<<1, 1, 0, s>>>();
        return cuda_status(cudaGetLastError(), "empty_kernel launch");
      },
      "overhead probe");
  constexpr int kReps = 200;
  std::vector<cudaGraphExec_t> seq(kReps, g.get());
  time_sequence(std::vector<cudaGraphExec_t>(8, g.get()));  // warm-up
  overhead_us_ = median(time_sequence(seq));
  return overhead_us_;
}

PairedSamples time_paired(GraphTimer& timer, const std::vector<GraphExec>& base, const std::vector<GraphExec>& cand,
                          int pairs) {
  if (base.empty() || base.size() != cand.size())
    throw Error(StatusCode::invalid_argument, "time_paired: baseline and candidate need the same, nonzero copy count");
  const double overhead = timer.overhead_us();
  std::vector<cudaGraphExec_t> seq;
  seq.reserve(2 * std::size_t(pairs));
  for (int i = 0; i < pairs; ++i) {
    const std::size_t c = std::size_t(i) % base.size();
    if (i % 2 == 0) {
      seq.push_back(base[c].get());
      seq.push_back(cand[c].get());
    } else {
      seq.push_back(cand[c].get());
      seq.push_back(base[c].get());
    }
  }
  // Warm-up: every graph once, untimed by the caller.
  std::vector<cudaGraphExec_t> warm;
  for (std::size_t c = 0; c < base.size(); ++c) {
    warm.push_back(base[c].get());
    warm.push_back(cand[c].get());
  }
  timer.time_sequence(warm);
  const std::vector<double> us = timer.time_sequence(seq);
  PairedSamples out;
  for (int i = 0; i < pairs; ++i) {
    const double first = us[2 * std::size_t(i)] - overhead, second = us[2 * std::size_t(i) + 1] - overhead;
    out.base_us.push_back(i % 2 == 0 ? first : second);
    out.cand_us.push_back(i % 2 == 0 ? second : first);
    out.base_first.push_back(i % 2 == 0);
  }
  return out;
}

int rotated_copies(std::size_t bytes_per_copy, std::size_t l2_bytes, int min_copies) {
  int copies = std::max(min_copies, 1);
  if (bytes_per_copy == 0) return copies;
  while (std::size_t(copies) * bytes_per_copy <= 2 * l2_bytes) ++copies;
  return copies;
}

}  // namespace projkit::lab
