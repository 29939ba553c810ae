// The C++ API as a serving loop uses it (include/projkit/projkit.hpp): a Projection prepared once
// from the weights under the device's plan, then calls captured in a CUDA graph and replayed, at a
// decode size (m = 8) and a batched one (m = 128). Each replay's output is checked against a host
// fp64 reference on every 8th row (relative L2 <= 1e-2, the contract's dense bound).
//
// Build: CMake target projkit_example_graph. Run: build/projkit_example_graph.
// Exit 0: passed; 77: no sm_90 CUDA device (ctest counts it skipped); 1: a failure, printed.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "projkit/projkit.hpp"

namespace {

uint16_t bf16_from_float(float f) {  // round to nearest even (finite inputs)
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}
float float_from_bf16(uint16_t h) {
  const uint32_t u = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

bool ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIP: no CUDA device\n");
    return 77;
  }
  const projkit::DeviceInfo dev = projkit::DeviceInfo::query(0);
  if (!dev.is_hopper_sm90()) {
    std::printf("SKIP: %s is not an sm_90 GPU\n", dev.name.c_str());
    return 77;
  }
  void *dw = nullptr, *dx = nullptr, *dy = nullptr;  // freed after the Projection (it reads W while it lives)
  int rc = 0;
  try {
    const projkit::ProjectionSpec& spec = projkit::builtin_spec("qkv");  // bf16 [2304, 8192]
    const std::size_t nw = std::size_t(spec.n) * std::size_t(spec.k);
    constexpr int kMaxM = 128;
    std::mt19937 gen(61);
    std::normal_distribution<float> dist(0.0f, 1.0f);
    std::vector<uint16_t> w(nw), x(std::size_t(kMaxM) * std::size_t(spec.k));
    for (auto& v : w) v = bf16_from_float(0.02f * dist(gen));
    for (auto& v : x) v = bf16_from_float(dist(gen));
    if (!ok(cudaMalloc(&dw, nw * 2), "cudaMalloc W") || !ok(cudaMalloc(&dx, x.size() * 2), "cudaMalloc x") ||
        !ok(cudaMalloc(&dy, std::size_t(kMaxM) * std::size_t(spec.n) * 2), "cudaMalloc y") ||
        !ok(cudaMemcpy(dw, w.data(), nw * 2, cudaMemcpyHostToDevice), "copy W") ||
        !ok(cudaMemcpy(dx, x.data(), x.size() * 2, cudaMemcpyHostToDevice), "copy x"))
      return 1;

    // Prepared once: re-layouts of W and workspaces are made here, never in a call.
    const projkit::Plan plan = projkit::Plan::for_device(0);
    projkit::ProjectionOptions opts;
    opts.max_m = kMaxM;
    const projkit::Projection qkv(spec, dw, plan, opts);
    std::printf("%s, plan %s\n", dev.name.c_str(), plan.source.c_str());
    for (const std::string& warning : qkv.warnings()) std::printf("warning: %s\n", warning.c_str());

    cudaStream_t stream;
    if (!ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate")) return 1;
    for (int m : {8, 128}) {
      cudaGraph_t graph;
      cudaGraphExec_t exec;
      if (!ok(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "begin capture")) return 1;
      const projkit::Status st = qkv.run(dx, m, dy, stream);  // no allocation, no sync: capturable
      if (!ok(cudaStreamEndCapture(stream, &graph), "end capture")) return 1;
      if (!st.ok()) {
        std::fprintf(stderr, "run: %s\n", st.message.c_str());
        return 1;
      }
      if (!ok(cudaGraphInstantiate(&exec, graph, 0), "instantiate")) return 1;
      for (int replay = 0; replay < 2; ++replay) {
        if (!ok(cudaMemsetAsync(dy, 0xFF, std::size_t(m) * std::size_t(spec.n) * 2, stream), "poison y") ||
            !ok(cudaGraphLaunch(exec, stream), "replay") || !ok(cudaStreamSynchronize(stream), "sync"))
          return 1;
        std::vector<uint16_t> y(std::size_t(m) * std::size_t(spec.n));
        if (!ok(cudaMemcpy(y.data(), dy, y.size() * 2, cudaMemcpyDeviceToHost), "copy y")) return 1;
        double num = 0.0, den = 0.0;
        for (int t = 0; t < m; t += 8)
          for (int64_t n = 0; n < spec.n; ++n) {
            double ref = 0.0;
            for (int64_t k = 0; k < spec.k; ++k)
              ref += double(float_from_bf16(x[std::size_t(t) * std::size_t(spec.k) + std::size_t(k)])) *
                     double(float_from_bf16(w[std::size_t(n) * std::size_t(spec.k) + std::size_t(k)]));
            const double d = double(float_from_bf16(y[std::size_t(t) * std::size_t(spec.n) + std::size_t(n)])) - ref;
            num += d * d;
            den += ref * ref;
          }
        const double err = std::sqrt(num / den);
        std::printf("qkv m=%d via %s, replay %d: relative L2 error %.2e against fp64\n", m,
                    qkv.method_name(m).c_str(), replay, err);
        if (!(err <= 1e-2)) {
          std::fprintf(stderr, "FAIL: relative L2 error %.2e > 1e-2\n", err);
          return 1;
        }
      }
      cudaGraphExecDestroy(exec);
      cudaGraphDestroy(graph);
    }
    cudaStreamDestroy(stream);
  } catch (const projkit::Error& e) {  // preparation refuses loudly (a bad spec, pointer or plan)
    std::fprintf(stderr, "projkit: %s\n", e.what());
    rc = 1;
  }
  cudaFree(dw);
  cudaFree(dx);
  cudaFree(dy);
  if (rc == 0) std::printf("PASS\n");
  return rc;
}
