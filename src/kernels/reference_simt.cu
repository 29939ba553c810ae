// reference_simt: a plain, obviously correct kernel for tests.
// Regime: any M, any shape; speed is not a goal.
// Mechanism: one warp per output element y[i, j]; lanes stride over K, fp32 accumulate,
//            warp-shuffle sum, one store. Weights bf16 or fp32 (read as stored).
// Constraints: none beyond the spec (K any size, pointers any alignment).
#include <cuda_bf16.h>

#include "core/method.hpp"

namespace projkit {
namespace {

__device__ __forceinline__ float to_f32(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ __forceinline__ float to_f32(float v) { return v; }
__device__ __forceinline__ void store_out(__nv_bfloat16* p, float v) { *p = __float2bfloat16_rn(v); }
__device__ __forceinline__ void store_out(float* p, float v) { *p = v; }

constexpr int kWarpsPerBlock = 8;

// grid = (ceil(n_out / 8), m); block = 8 warps; warp w computes y[blockIdx.y, blockIdx.x*8 + w].
template <class TW, class TY>
__global__ void reference_simt_kernel(const __nv_bfloat16* __restrict__ x, const TW* __restrict__ w, TY* __restrict__ y,
                                      int64_t n_out, int64_t k) {
  const int lane = threadIdx.x & 31;
  const int64_t col = int64_t(blockIdx.x) * kWarpsPerBlock + (threadIdx.x >> 5);
  const int64_t row = blockIdx.y;
  if (col >= n_out) return;
  const __nv_bfloat16* xr = x + row * k;
  const TW* wr = w + col * k;
  float acc = 0.0f;
  for (int64_t i = lane; i < k; i += 32) acc += to_f32(xr[i]) * to_f32(wr[i]);
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, off);
  if (lane == 0) store_out(y + row * n_out + col, acc);
}

class ReferenceSimt final : public PreparedMethod {
 public:
  explicit ReferenceSimt(const PrepareContext& ctx) : spec_(ctx.spec), w_(ctx.w) {}
  Status run(const RunArgs& a) const override {
    dim3 grid(unsigned((a.n_out + kWarpsPerBlock - 1) / kWarpsPerBlock), unsigned(a.m));
    const auto* x = static_cast<const __nv_bfloat16*>(a.x);
    if (spec_.weight_dtype == DType::f32)
      reference_simt_kernel<<<grid, kWarpsPerBlock * 32, 0, a.stream>>>(x, static_cast<const float*>(w_),
                                                                         static_cast<float*>(a.y), a.n_out, spec_.k);
    else
      reference_simt_kernel<<<grid, kWarpsPerBlock * 32, 0, a.stream>>>(
          x, static_cast<const __nv_bfloat16*>(w_), static_cast<__nv_bfloat16*>(a.y), a.n_out, spec_.k);
    return cuda_status(cudaGetLastError(), "reference_simt_kernel launch");
  }

 private:
  ProjectionSpec spec_;
  const void* w_;
};

std::vector<Config> reference_configs() { return {Config{"reference", {}}}; }

std::string reference_applicable(const ProjectionSpec& spec, const Config&, int, int, const DeviceInfo&) {
  if ((spec.weight_dtype == DType::f32) != (spec.out_dtype == DType::f32))
    return "reference: output dtype must match weight dtype (bf16->bf16, fp32->fp32)";
  return "";
}

std::unique_ptr<PreparedMethod> reference_prepare(const PrepareContext& ctx, const Config&) {
  return std::make_unique<ReferenceSimt>(ctx);
}

}  // namespace

extern const KernelFamily kReferenceSimt = {"reference", "one warp per output, fp32 accumulation (tests only)",
                                            reference_configs, reference_applicable, reference_prepare};

}  // namespace projkit
