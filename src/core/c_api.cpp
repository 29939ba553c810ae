// The C ABI over the C++ API: every entry point catches and reports through pk_last_error().
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "projkit/projkit.h"
#include "projkit/projkit.hpp"

struct pkProjection {
  explicit pkProjection(projkit::Projection p) : proj(std::move(p)), warnings(proj.warnings()) {}
  projkit::Projection proj;
  std::vector<std::string> warnings;  // proj.warnings(), kept so that pk_projection_warning's strings live with p
};

namespace {
thread_local std::string g_last_error;

pkStatus fail(pkStatus s, const std::string& msg) {
  g_last_error = msg;
  return s;
}
pkStatus from(const projkit::Status& s) {
  if (s.ok()) return PK_OK;
  return fail(static_cast<pkStatus>(s.code), s.message);
}
template <class F>
pkStatus guarded(F&& f) {
  try {
    return f();
  } catch (const projkit::Error& e) {
    return fail(static_cast<pkStatus>(e.code()), e.what());
  } catch (const std::exception& e) {
    return fail(PK_INTERNAL, e.what());
  }
}
}  // namespace

extern "C" {

const char* pk_status_string(pkStatus s) { return projkit::status_code_name(static_cast<projkit::StatusCode>(s)); }
const char* pk_last_error(void) { return g_last_error.c_str(); }
const char* pk_version(void) { return projkit::kVersion; }

pkStatus pk_family_info(const char* family, pkFamilyInfo* out) {
  g_last_error.clear();
  if (!out) return fail(PK_INVALID_ARGUMENT, "pk_family_info: out is null");
  if (!family) return fail(PK_INVALID_ARGUMENT, "pk_family_info: family is null");
  return guarded([&]() -> pkStatus {
    const projkit::ProjectionSpec& spec = projkit::builtin_spec(family);
    auto code = [](projkit::DType d) { return d == projkit::DType::f32 ? PK_DTYPE_F32 : PK_DTYPE_BF16; };
    *out = pkFamilyInfo{spec.n, spec.k, code(spec.weight_dtype), code(spec.out_dtype), spec.slice_max_m,
                        spec.slice_rows};
    return PK_OK;
  });
}

int pk_family_count(void) { return static_cast<int>(projkit::builtin_specs().size()); }

const char* pk_family_name(int index) {
  g_last_error.clear();
  const auto& specs = projkit::builtin_specs();
  if (index < 0 || index >= static_cast<int>(specs.size())) {
    fail(PK_INVALID_ARGUMENT, "pk_family_name: index " + std::to_string(index) + " is outside [0, " +
                                  std::to_string(specs.size()) + ")");
    return nullptr;
  }
  return specs[static_cast<std::size_t>(index)].name.c_str();
}

pkStatus pk_plan_file(const char* device_name, const char* set, char* buf, size_t buf_len) {
  g_last_error.clear();
  if (!device_name) return fail(PK_INVALID_ARGUMENT, "pk_plan_file: device_name is null");
  if (!buf || buf_len == 0) return fail(PK_INVALID_ARGUMENT, "pk_plan_file: buffer is null or empty");
  buf[0] = '\0';
  return guarded([&]() -> pkStatus {
    projkit::DeviceInfo dev;
    dev.name = device_name;
    const std::string_view s = set ? set : "";
    const std::string path = projkit::Plan::find_file(dev, s);  // an unknown set throws invalid_argument
    if (path.empty()) projkit::Plan::for_device_info(dev, true, s);  // throws plan_mismatch: the file, the dirs
    if (path.size() + 1 > buf_len)
      return fail(PK_INVALID_ARGUMENT, "pk_plan_file: buffer too small (" + std::to_string(buf_len) + " bytes for a " +
                                           std::to_string(path.size()) + "-character path)");
    std::memcpy(buf, path.c_str(), path.size() + 1);
    return PK_OK;
  });
}

pkStatus pk_projection_create(pkProjection** out, const char* family, const void* d_weights, const char* plan_path,
                              const char* method, int max_m, int flags) {
  g_last_error.clear();
  if (!out) return fail(PK_INVALID_ARGUMENT, "pk_projection_create: out is null");
  *out = nullptr;
  if (!family) return fail(PK_INVALID_ARGUMENT, "pk_projection_create: family is null");
  return guarded([&]() -> pkStatus {
    const projkit::ProjectionSpec& spec = projkit::builtin_spec(family);
    projkit::ProjectionOptions opts;
    opts.max_m = max_m;
    if ((flags & ~(PK_STRICT_PLAN | PK_NO_WEIGHT_COPIES)) != 0)
      return fail(PK_INVALID_ARGUMENT, "pk_projection_create: unknown bits in flags " + std::to_string(flags));
    opts.strict_plan = (flags & PK_STRICT_PLAN) != 0;
    opts.weight_copies = (flags & PK_NO_WEIGHT_COPIES) == 0;
    if (method) {
      *out = new pkProjection(projkit::make_single_method_projection(spec, d_weights, method, opts));
      return PK_OK;
    }
    projkit::Plan plan;
    if (!plan_path) plan = projkit::Plan::for_device(-1, opts.strict_plan);
    else if (std::string(plan_path) == "safe") plan = projkit::Plan::safe();  // no device query
    else plan = projkit::Plan::named(plan_path, projkit::DeviceInfo::query(-1), opts.strict_plan);
    *out = new pkProjection(projkit::Projection(spec, d_weights, plan, opts));
    return PK_OK;
  });
}

pkStatus pk_projection_run(const pkProjection* p, const void* d_x, int m, void* d_y, void* stream) {
  if (!p) return fail(PK_INVALID_ARGUMENT, "pk_projection_run: projection is null");
  return from(p->proj.run(d_x, m, d_y, static_cast<cudaStream_t>(stream)));
}

pkStatus pk_projection_shape(const pkProjection* p, int m, int64_t* out_cols, int64_t* n, int64_t* k) {
  if (!p) return fail(PK_INVALID_ARGUMENT, "pk_projection_shape: projection is null");
  if (m < 1 || m > p->proj.max_m())
    return fail(PK_INVALID_ARGUMENT, "pk_projection_shape: m must be in [1, max_m=" + std::to_string(p->proj.max_m()) + "]");
  if (out_cols) *out_cols = p->proj.spec().out_cols(m);
  if (n) *n = p->proj.spec().n;
  if (k) *k = p->proj.spec().k;
  return PK_OK;
}

pkStatus pk_projection_method(const pkProjection* p, int m, char* buf, size_t buf_len) {
  if (!p) return fail(PK_INVALID_ARGUMENT, "pk_projection_method: projection is null");
  if (!buf || buf_len == 0) return fail(PK_INVALID_ARGUMENT, "pk_projection_method: buffer is null or empty");
  std::string name = p->proj.method_name(m);
  if (name.empty()) return fail(PK_INVALID_ARGUMENT, "pk_projection_method: m out of range");
  if (name.size() + 1 > buf_len) return fail(PK_INVALID_ARGUMENT, "pk_projection_method: buffer too small");
  std::memcpy(buf, name.c_str(), name.size() + 1);
  return PK_OK;
}

int pk_projection_warning_count(const pkProjection* p) { return p ? static_cast<int>(p->warnings.size()) : 0; }

const char* pk_projection_warning(const pkProjection* p, int index) {
  g_last_error.clear();
  if (!p) {
    fail(PK_INVALID_ARGUMENT, "pk_projection_warning: projection is null");
    return nullptr;
  }
  if (index < 0 || index >= static_cast<int>(p->warnings.size())) {
    fail(PK_INVALID_ARGUMENT, "pk_projection_warning: index " + std::to_string(index) + " is outside [0, " +
                                  std::to_string(p->warnings.size()) + ")");
    return nullptr;
  }
  return p->warnings[static_cast<std::size_t>(index)].c_str();
}

pkStatus pk_projection_destroy(pkProjection* p) {
  delete p;
  return PK_OK;
}

}  // extern "C"
