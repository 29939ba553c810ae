// The kernel families this library is built with. To add one: define a
// `const KernelFamily kX` in src/kernels/<mechanism>.cu and list it here.
#include "core/method.hpp"

namespace projkit {

extern const KernelFamily kBaselineCublas;    // src/baseline/cublas_linear.cpp
extern const KernelFamily kCublasLtPlan;      // src/kernels/cublaslt_plan.cpp
extern const KernelFamily kReferenceSimt;     // src/kernels/reference_simt.cu
extern const KernelFamily kRouterHiloStream;  // src/kernels/router_hilo_stream.cu
extern const KernelFamily kGemvStream;        // src/kernels/gemv_stream.cu
extern const KernelFamily kSplitkMmaCluster;  // src/kernels/splitk_mma_cluster.cu
extern const KernelFamily kSplitkMmaL2;       // src/kernels/splitk_mma_l2.cu
extern const KernelFamily kFragmentStreamMma; // src/kernels/fragment_stream_mma.cu
extern const KernelFamily kWgmmaTma;          // src/kernels/wgmma_tma.cu
extern const KernelFamily kRouterHiloWgmma;   // src/kernels/router_hilo_wgmma.cu
extern const KernelFamily kRouterHiloRing;    // src/kernels/router_hilo_ring.cu
extern const KernelFamily kRouterGemvF32;     // src/kernels/router_gemv_f32.cu
extern const KernelFamily kKpermStreamMma;    // src/kernels/kperm_stream_mma.cu
extern const KernelFamily kKpermSplitkZw;     // src/kernels/kperm_splitk_zw.cu
extern const KernelFamily kFragmentStreamZw;  // src/kernels/fragment_stream_zw.cu

const std::vector<const KernelFamily*>& kernel_families() {
  static const std::vector<const KernelFamily*> all = {
      &kBaselineCublas,
      &kCublasLtPlan,
      &kReferenceSimt,
      &kRouterHiloStream,
      &kGemvStream,
      &kSplitkMmaCluster,
      &kSplitkMmaL2,
      &kFragmentStreamMma,
      &kWgmmaTma,
      &kRouterHiloWgmma,
      &kRouterHiloRing,
      &kRouterGemvF32,
      &kKpermStreamMma,
      &kKpermSplitkZw,
      &kFragmentStreamZw,
  };
  return all;
}

const KernelFamily* find_kernel_family(std::string_view name) {
  for (const KernelFamily* f : kernel_families())
    if (name == f->name) return f;
  return nullptr;
}

}  // namespace projkit
