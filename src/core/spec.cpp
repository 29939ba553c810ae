// Families, dtypes and status names.
#include <algorithm>

#include "projkit/projkit.hpp"

namespace projkit {

const char* status_code_name(StatusCode c) {
  switch (c) {
    case StatusCode::ok: return "ok";
    case StatusCode::invalid_argument: return "invalid_argument";
    case StatusCode::unsupported: return "unsupported";
    case StatusCode::plan_mismatch: return "plan_mismatch";
    case StatusCode::parse_error: return "parse_error";
    case StatusCode::cuda_error: return "cuda_error";
    case StatusCode::internal: return "internal";
  }
  return "unknown";
}

const char* dtype_name(DType d) { return d == DType::f32 ? "fp32" : "bf16"; }
std::size_t dtype_bytes(DType d) { return d == DType::f32 ? 4 : 2; }

DType parse_dtype(std::string_view s) {
  if (s == "bf16" || s == "bfloat16") return DType::bf16;
  if (s == "fp32" || s == "f32" || s == "float32") return DType::f32;
  throw Error(StatusCode::parse_error, "unknown dtype '" + std::string(s) + "' (expected bf16 or fp32)");
}

void ProjectionSpec::validate() const {
  auto fail = [&](const std::string& why) {
    throw Error(StatusCode::unsupported, "projection spec '" + name + "': " + why);
  };
  if (name.empty()) throw Error(StatusCode::invalid_argument, "projection spec: name is empty");
  if (n <= 0 || k <= 0) fail("N and K must be positive (N=" + std::to_string(n) + ", K=" + std::to_string(k) + ")");
  if (n > (int64_t(1) << 30) || k > (int64_t(1) << 30)) fail("N and K must be below 2^30");
  if (k % 8 != 0) fail("K must be a multiple of 8 (16-byte rows), K=" + std::to_string(k));
  if (x_dtype != DType::bf16) fail("activations must be bf16");
  if (weight_dtype == DType::bf16 && out_dtype != DType::bf16) fail("bf16 weights need a bf16 output");
  if (weight_dtype == DType::f32 && out_dtype != DType::f32) fail("fp32 weights need an fp32 output");
  if (slice_max_m < 0) fail("slice_max_m must be >= 0");
  if (slice_max_m > 0 && (slice_rows <= 0 || slice_rows > n))
    fail("slice_rows must be in [1, N] when slice_max_m > 0 (slice_rows=" + std::to_string(slice_rows) + ")");
  if (slice_max_m > 0 && slice_rows % 8 != 0) fail("slice_rows must be a multiple of 8");
  if (n % 8 != 0) fail("N must be a multiple of 8 (16-byte output rows), N=" + std::to_string(n));
}

const std::vector<ProjectionSpec>& builtin_specs() {
  static const std::vector<ProjectionSpec> specs = [] {
    std::vector<ProjectionSpec> v;
    auto dense = [](const char* name, int64_t n, int64_t k) {
      ProjectionSpec s;
      s.name = name;
      s.n = n;
      s.k = k;
      return s;
    };
    v.push_back(dense("qkv", 2304, 8192));      // fused QKV + gate
    v.push_back(dense("o", 8192, 1024));
    v.push_back(dense("pooler", 4096, 8192));
    ProjectionSpec unpooler = dense("unpooler", 8192, 4096);
    unpooler.slice_max_m = 8;                    // for M <= 8 only rows 0..1023
    unpooler.slice_rows = 1024;
    v.push_back(unpooler);
    ProjectionSpec router = dense("router", 256, 8192);
    router.weight_dtype = DType::f32;            // fp32 weights, bf16 x, fp32 out
    router.out_dtype = DType::f32;
    v.push_back(router);
    return v;
  }();
  return specs;
}

const ProjectionSpec& builtin_spec(std::string_view name) {
  for (const auto& s : builtin_specs())
    if (s.name == name) return s;
  throw Error(StatusCode::invalid_argument,
              "unknown projection family '" + std::string(name) + "' (built-in: qkv, o, pooler, unpooler, router)");
}

}  // namespace projkit
