// The kernel families this library is built with. To add one: define a
// `const KernelFamily kX` in src/kernels/<mechanism>.cu and list it here.
#include "core/method.hpp"

namespace projkit {

extern const KernelFamily kBaselineCublas;    // src/baseline/cublas_linear.cpp
extern const KernelFamily kCublasLtPlan;      // src/kernels/cublaslt_plan.cpp
extern const KernelFamily kReferenceSimt;     // src/kernels/reference_simt.cu
// kernel families added by the kernel issues are declared below this line
// (router) extern const KernelFamily kRouterHiloSplitk;
// (dense small M) extern const KernelFamily kGemvStream;
// (dense small M) extern const KernelFamily kSplitkMmaCluster;
// (dense large M) extern const KernelFamily kWgmmaTma;

const std::vector<const KernelFamily*>& kernel_families() {
  static const std::vector<const KernelFamily*> all = {
      &kBaselineCublas,
      &kCublasLtPlan,
      &kReferenceSimt,
      // (router) &kRouterHiloSplitk,
      // (dense small M) &kGemvStream,
      // (dense small M) &kSplitkMmaCluster,
      // (dense large M) &kWgmmaTma,
  };
  return all;
}

const KernelFamily* find_kernel_family(std::string_view name) {
  for (const KernelFamily* f : kernel_families())
    if (name == f->name) return f;
  return nullptr;
}

}  // namespace projkit
