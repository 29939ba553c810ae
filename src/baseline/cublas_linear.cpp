// baseline: cuBLAS exactly as torch's F.linear calls it, so projkit can always fall
// back to it and the lab can time it.
//   dense  : cublasGemmEx(OP_T, OP_N, n_out, m, K, W[bf16] ldK, x[bf16] ldK, y[bf16] ld n_out),
//            CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP, default math mode
//            (bf16 reduced-precision reduction allowed, torch's default).
//   router : x.float() (an elementwise kernel into a workspace sized for max_m), then
//            cublasSgemm with TF32 off (CUBLAS_DEFAULT_MATH).
// The handle gets a 32 MiB workspace after every cublasSetStream (cuBLAS resets the
// workspace on SetStream), as torch does, so capture never allocates.
#include <cublas_v2.h>

#include "baseline/convert.hpp"
#include "core/method.hpp"

namespace projkit {
namespace {

constexpr std::size_t kCublasWorkspaceBytes = 32u << 20;

std::string cublas_msg(cublasStatus_t s, const char* what) {
  return std::string(what) + ": " + cublasGetStatusName(s) + " (" + cublasGetStatusString(s) + ")";
}

class BaselineCublas final : public PreparedMethod {
 public:
  BaselineCublas(const PrepareContext& ctx)
      : spec_(ctx.spec), w_(ctx.w), workspace_(kCublasWorkspaceBytes) {
    cublasStatus_t s = cublasCreate(&handle_);
    if (s != CUBLAS_STATUS_SUCCESS) throw Error(StatusCode::cuda_error, cublas_msg(s, "cublasCreate"));
    cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH);
    if (spec_.weight_dtype == DType::f32)
      x_f32_ = DeviceBuffer(std::size_t(ctx.max_m) * std::size_t(spec_.k) * sizeof(float));
  }
  ~BaselineCublas() override {
    if (handle_) cublasDestroy(handle_);
  }

  Status run(const RunArgs& a) const override {
    cublasStatus_t s = cublasSetStream(handle_, a.stream);
    if (s == CUBLAS_STATUS_SUCCESS) s = cublasSetWorkspace(handle_, workspace_.get(), workspace_.bytes());
    if (s != CUBLAS_STATUS_SUCCESS) return {StatusCode::cuda_error, cublas_msg(s, "cublasSetStream/SetWorkspace")};
    const int n = int(a.n_out), k = int(spec_.k), m = a.m;
    const float alpha = 1.0f, beta = 0.0f;
    if (spec_.weight_dtype == DType::bf16) {
      s = cublasGemmEx(handle_, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, w_, CUDA_R_16BF, k, a.x, CUDA_R_16BF, k,
                       &beta, a.y, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
      if (s != CUBLAS_STATUS_SUCCESS) return {StatusCode::cuda_error, cublas_msg(s, "cublasGemmEx (baseline)")};
      return Status::Ok();
    }
    Status cs = launch_bf16_to_f32(a.x, x_f32_.as<float>(), std::size_t(m) * std::size_t(k), a.stream);
    if (!cs.ok()) return cs;
    s = cublasSgemm(handle_, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, static_cast<const float*>(w_), k,
                    x_f32_.as<float>(), k, &beta, static_cast<float*>(a.y), n);
    if (s != CUBLAS_STATUS_SUCCESS) return {StatusCode::cuda_error, cublas_msg(s, "cublasSgemm (baseline router)")};
    return Status::Ok();
  }

 private:
  ProjectionSpec spec_;
  const void* w_;
  mutable cublasHandle_t handle_ = nullptr;
  DeviceBuffer workspace_;
  DeviceBuffer x_f32_;
};

std::vector<Config> baseline_configs() { return {Config{"baseline", {}}}; }

std::string baseline_applicable(const ProjectionSpec& spec, const Config&, int, int, const DeviceInfo&) {
  if (spec.weight_dtype == DType::f32 && spec.out_dtype != DType::f32)
    return "baseline: fp32 weights need an fp32 output";
  if (spec.weight_dtype == DType::bf16 && spec.out_dtype != DType::bf16)
    return "baseline: bf16 weights need a bf16 output";
  return "";
}

std::unique_ptr<PreparedMethod> baseline_prepare(const PrepareContext& ctx, const Config&) {
  return std::make_unique<BaselineCublas>(ctx);
}

}  // namespace

extern const KernelFamily kBaselineCublas = {
    "baseline", "cuBLAS as torch F.linear calls it (GemmEx bf16 / Sgemm fp32, fp32 compute)",
    baseline_configs, baseline_applicable, baseline_prepare};

}  // namespace projkit
