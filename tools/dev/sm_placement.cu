// sm_placement: is a streaming CTA's speed set by the GPC its SM sits in? (ledger P10, session 14)
//
// P4 (session 11) and E57 (session 14) found the split-K dense kernels' last CTAs 1-2.2 us behind
// the median, on the same SMs in every launch. The hypothesis to test: a GPC's link to L2 is
// shared by its enabled SMs, so SMs in larger GPCs stream slower when every SM streams.
// Two measurements, one program:
//   1. GPC groups. Every cluster's CTAs are co-scheduled on one GPC, so SMs that ever host CTAs
//      of one cluster share a GPC. Many launches of 4-, 8- and 16-CTA clusters (16: the
//      non-portable size, skipped where refused; one CTA per SM: the dynamic smem takes more
//      than half of an SM) record each CTA's %smid; union-find joins the SMs of each cluster;
//      the components are GPCs (or parts of one, if some SMs never met).
//   2. Per-SM stream time. One CTA per SM streams its own `--mb` MB (16-byte no-allocate loads,
//      8 per thread in flight, 64 KB per SM; fresh addresses every launch, so L2 does not serve
//      them) while every other SM does the same; thread 0 records %smid and globaltimer after a start barrier and after the end
//      barrier.
// Prints, per group: its SMs, their mean stream time and the spread; then the rank correlation
// between a group's size and its SMs' mean time. Exits non-zero on a CUDA error.
//
//   build/projkit_dev_sm_placement [--launches 40] [--mb 2] [--reps 20]   (~10 s)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "kernels/ptx.cuh"  // ld_stream (16-byte no-allocate load), sm_id, globaltimer_ns

namespace {

namespace ptx = projkit::ptx;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "sm_placement: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

using ptx::globaltimer_ns;

// (1) One record per CTA: its SM and its cluster (blockIdx.x / cluster size along x).
__global__ void cluster_probe_kernel(unsigned* out) {
  if (threadIdx.x == 0) out[blockIdx.x] = ptx::sm_id();
}

// (2) CTA b streams `n16` 16-byte words from src + b * n16 (+ the launch's offset); thread 0
// records [smid, t_start, t_end]. `sink` keeps the loads alive (never written in practice).
__global__ void __launch_bounds__(512) stream_probe_kernel(const uint4* __restrict__ src, int64_t n16,
                                                          unsigned long long* rec, unsigned* sink) {
  __syncthreads();
  const unsigned long long t0 = globaltimer_ns();
  const uint4* p = src + int64_t(blockIdx.x) * n16;
  unsigned acc = 0;
  for (int64_t i = threadIdx.x; i < n16; i += 8 * int64_t(blockDim.x)) {
    uint4 v[8];
#pragma unroll
    for (int u = 0; u < 8; ++u) v[u] = i + u * blockDim.x < n16 ? ptx::ld_stream(p + i + u * blockDim.x) : uint4{};
#pragma unroll
    for (int u = 0; u < 8; ++u) acc ^= v[u].x ^ v[u].w;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    rec[3 * blockIdx.x] = ptx::sm_id();
    rec[3 * blockIdx.x + 1] = t0;
    rec[3 * blockIdx.x + 2] = globaltimer_ns();
  }
  if (acc == 0x9e3779b9u) *sink = acc;
}

int find(std::vector<int>& p, int a) { return p[a] == a ? a : p[a] = find(p, p[a]); }

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  auto ranks = [](const std::vector<double>& v) {
    std::vector<int> idx(v.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::sort(idx.begin(), idx.end(), [&](int i, int j) { return v[i] < v[j]; });
    std::vector<double> r(v.size());
    for (std::size_t k = 0; k < idx.size();) {  // average ranks over ties
      std::size_t e = k;
      while (e + 1 < idx.size() && v[idx[e + 1]] == v[idx[k]]) ++e;
      for (std::size_t q = k; q <= e; ++q) r[idx[q]] = 0.5 * double(k + e);
      k = e + 1;
    }
    return r;
  };
  const auto ra = ranks(a), rb = ranks(b);
  const double ma = std::accumulate(ra.begin(), ra.end(), 0.0) / ra.size();
  const double mb = std::accumulate(rb.begin(), rb.end(), 0.0) / rb.size();
  double num = 0, da = 0, db = 0;
  for (std::size_t i = 0; i < ra.size(); ++i) {
    num += (ra[i] - ma) * (rb[i] - mb);
    da += (ra[i] - ma) * (ra[i] - ma);
    db += (rb[i] - mb) * (rb[i] - mb);
  }
  return num / std::sqrt(da * db);
}

}  // namespace

int main(int argc, char** argv) {
  int launches = 40, reps = 20;
  double mb = 2.0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--launches")) launches = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--reps")) reps = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--mb")) mb = std::atof(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: %s [--launches N] [--reps N] [--mb MB]\n", argv[0]);
      return 2;
    }
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  const int sms = prop.multiProcessorCount;
  std::printf("device %s, %d SMs\n", prop.name, sms);

  // ---- (1) GPC groups from 4-, 8- and 16-CTA clusters, one CTA per SM
  const std::size_t big_smem = prop.sharedMemPerBlockOptin / 2 + 1024;  // > half an SM: one CTA per SM
  check(cudaFuncSetAttribute(cluster_probe_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(big_smem)),
        "cudaFuncSetAttribute");
  check(cudaFuncSetAttribute(cluster_probe_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
        "cudaFuncSetAttribute(non-portable cluster size)");
  const int max_ctas = 4 * sms;  // ~4 waves of clusters per launch
  unsigned* d_sm = nullptr;
  check(cudaMalloc(&d_sm, max_ctas * sizeof(unsigned)), "cudaMalloc");
  std::vector<int> parent(sms);
  std::iota(parent.begin(), parent.end(), 0);
  std::vector<unsigned> h_sm(max_ctas);
  for (int cluster : {4, 8, 16}) {
    const int ctas = cluster * (max_ctas / cluster);
    int done = 0;
    for (int l = 0; l < launches; ++l) {
      cudaLaunchAttribute attr{};
      attr.id = cudaLaunchAttributeClusterDimension;
      attr.val.clusterDim.x = unsigned(cluster);
      attr.val.clusterDim.y = 1;
      attr.val.clusterDim.z = 1;
      cudaLaunchConfig_t lc{};
      lc.gridDim = dim3(unsigned(ctas));
      lc.blockDim = dim3(32);
      lc.dynamicSmemBytes = big_smem;
      lc.attrs = &attr;
      lc.numAttrs = 1;
      const cudaError_t e = cudaLaunchKernelEx(&lc, cluster_probe_kernel, d_sm);
      if (e != cudaSuccess) {
        std::printf("clusters of %d: launch refused (%s); skipped\n", cluster, cudaGetErrorString(e));
        (void)cudaGetLastError();
        break;
      }
      check(cudaMemcpy(h_sm.data(), d_sm, ctas * sizeof(unsigned), cudaMemcpyDeviceToHost), "copy");
      for (int c = 0; c < ctas; c += cluster)
        for (int r = 1; r < cluster; ++r) {
          const int a = find(parent, int(h_sm[c])), b = find(parent, int(h_sm[c + r]));
          if (a != b) parent[a] = b;
        }
      ++done;
    }
    std::printf("clusters of %d: %d launches of %d CTAs\n", cluster, done, ctas);
  }
  std::map<int, std::vector<int>> groups;
  for (int s = 0; s < sms; ++s) groups[find(parent, s)].push_back(s);

  // ---- (2) per-SM stream time, every SM streaming at once
  const int64_t n16 = int64_t(mb * 1024 * 1024) / 16;
  const std::size_t per_launch = std::size_t(sms) * std::size_t(n16) * 16;
  const int slots = 4;  // rotate over 4 disjoint buffers' worth of addresses (> 4x the 60 MB L2)
  uint4* src = nullptr;
  unsigned long long* d_rec = nullptr;
  unsigned* sink = nullptr;
  check(cudaMalloc(&src, per_launch * slots), "cudaMalloc src");
  check(cudaMemset(src, 0, per_launch * slots), "cudaMemset src");
  check(cudaMalloc(&d_rec, 3 * sms * sizeof(unsigned long long)), "cudaMalloc rec");
  check(cudaMalloc(&sink, sizeof(unsigned)), "cudaMalloc sink");
  std::vector<double> sum_us(sms, 0.0);
  std::vector<int> count(sms, 0);
  std::vector<unsigned long long> h_rec(3 * sms);
  for (int r = 0; r < reps + 2; ++r) {  // the first two launches are warm-up
    const uint4* base = src + std::size_t(r % slots) * (per_launch / 16);
    stream_probe_kernel<<<sms, 512>>>(base, n16, d_rec, sink);
    check(cudaGetLastError(), "stream_probe_kernel");
    check(cudaMemcpy(h_rec.data(), d_rec, h_rec.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost), "copy");
    if (r < 2) continue;
    for (int b = 0; b < sms; ++b) {
      const int s = int(h_rec[3 * b]);
      if (s < 0 || s >= sms) continue;
      const double us = double(h_rec[3 * b + 2] - h_rec[3 * b + 1]) / 1e3;
      sum_us[s] += us;
      ++count[s];
    }
  }

  // ---- report
  std::printf("%zu groups; stream: %.1f MB per SM, %d launches\n", groups.size(), mb, reps);
  std::printf("group  SMs  mean us  min us  max us  | SM ids\n");
  std::vector<double> g_size, g_mean, sm_size, sm_mean;
  int gi = 0;
  for (const auto& [root, members] : groups) {
    double mn = 1e30, mx = 0, tot = 0;
    int n = 0;
    for (int s : members) {
      if (!count[s]) continue;
      const double m = sum_us[s] / count[s];
      mn = std::min(mn, m);
      mx = std::max(mx, m);
      tot += m;
      ++n;
      sm_size.push_back(double(members.size()));
      sm_mean.push_back(m);
    }
    if (!n) continue;
    g_size.push_back(double(members.size()));
    g_mean.push_back(tot / n);
    std::string ids;
    for (int s : members) ids += std::to_string(s) + " ";
    std::printf("%5d  %3zu  %7.2f  %6.2f  %6.2f  | %s\n", gi++, members.size(), tot / n, mn, mx, ids.c_str());
  }
  if (g_size.size() > 2)
    std::printf("Spearman(group size, group mean time) = %.2f over %zu groups; over SMs = %.2f\n",
                spearman(g_size, g_mean), g_size.size(), spearman(sm_size, sm_mean));
  std::printf("per-SM mean stream time: min %.2f, max %.2f us\n", *std::min_element(sm_mean.begin(), sm_mean.end()),
              *std::max_element(sm_mean.begin(), sm_mean.end()));
  std::printf("per SM (id: mean us):");
  for (int sm = 0; sm < sms; ++sm)
    if (count[sm]) std::printf("%s%d: %.2f", sm % 8 ? "  " : "\n  ", sm, sum_us[sm] / count[sm]);
  std::printf("\n");
  check(cudaDeviceSynchronize(), "sync");
  return 0;
}
