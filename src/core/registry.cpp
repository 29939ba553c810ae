// The kernel families this library is built with. To add one: define a
// `const KernelFamily kX` in src/kernels/<mechanism>.cu and list it here.
#include "core/method.hpp"

namespace projkit {

extern const KernelFamily kBaselineCublas;    // src/baseline/cublas_linear.cpp
extern const KernelFamily kReferenceSimt;     // src/kernels/reference_simt.cu
// kernel families added by the kernel issues are declared below this line
// (router) extern const KernelFamily kRouterHiloSplitk;
// (dense small M) extern const KernelFamily kGemvStream;
// (dense small M) extern const KernelFamily kSplitkMmaCluster;
extern const KernelFamily kWgmmaTma;          // src/kernels/wgmma_tma.cu

const std::vector<const KernelFamily*>& kernel_families() {
  static const std::vector<const KernelFamily*> all = {
      &kBaselineCublas,
      &kReferenceSimt,
      // (router) &kRouterHiloSplitk,
      // (dense small M) &kGemvStream,
      // (dense small M) &kSplitkMmaCluster,
      &kWgmmaTma,
  };
  return all;
}

const KernelFamily* find_kernel_family(std::string_view name) {
  for (const KernelFamily* f : kernel_families())
    if (name == f->name) return f;
  return nullptr;
}

}  // namespace projkit
