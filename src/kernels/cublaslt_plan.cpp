// cublaslt_plan: dense bf16 projections through cuBLASLt with an explicit, reproducible
// algorithm choice per m (a peer of, and fallback for, the custom dense families).
//
// Regime     : qkv / o / pooler / unpooler (incl. its M<=8 row slice), any m in 1..256.
// Mechanism  : cublasLtMatmul, bf16 A/B/D, CUBLAS_COMPUTE_32F, fp32 scale (alpha 1, beta 0),
//              with one of four layout descriptions of the same product ("orientations"),
//              all of which store y row-major [m, n_out] directly (no copy kernel):
//   orient0  D = W·xᵀ, column-major D[n_out, m] ld n_out (= y row-major).
//            A = W  col [K, n_out] ld K, op T;  B = x col [K, m] ld K, op N.   (torch's call)
//   orient1  D = x·Wᵀ, ORDER_ROW D[m, n_out] ld n_out.
//            A = x  row [m, K] ld K, op N;      B = W row [n_out, K] ld K, op T.
//   orient2  D = x·Wᵀ, ORDER_ROW D[m, n_out] ld n_out, operands column-major.
//            A = x  col [K, m] ld K, op T;      B = W col [K, n_out] ld K, op N.
//   orient3  D = W·xᵀ, column-major D[n_out, m] ld n_out, operands ORDER_ROW.
//            A = W  row [n_out, K] ld K, op N;  B = x row [m, K] ld K, op T.
//   No description of y has m as a leading dimension (y's row stride is n_out), so no
//   orientation here needs m % 8 == 0; applicable() still derives the 16-byte ld rule from
//   each orientation's ld list (K, n_out, or m), so an m-ld orientation would be refused
//   for ranges with m % 8 != 0 and the plan would fall back.
// Algorithm  : cublasLtMatmulAlgoGetHeuristic (16 requested) with fp32-only split-K
//              (reduction NONE or COMPUTE_TYPE; INPLACE and OUTPUT_TYPE accumulate in bf16
//              and are filtered out), no fp16 accumulators, workspace <= 32 MiB.
//              Config "rank r" = index r of that filtered list for each m; when the list
//              for some m is shorter than r+1, that m uses rank 0 (documented fallback).
//              (A forced-split-K config, SPLITK_NUM=S with COMPUTE_TYPE reduction, existed
//              until run E: in 1024 tune screens per config it never won; removed with the
//              rank-0 configs, see configs() and docs/experiments.md.)
// Prepare    : per m the method serves (the plan's ranges for it; every m in [1, max_m] when
//              prepared alone): layouts with that m (and n_out = out_cols(m)), and two
//              resolved algorithms: one for 256-byte-aligned x/y/W (cuBLASLt's default
//              alignment assumption) and one for 16-byte-aligned pointers (the API minimum).
//              run() only looks them up: no heuristic query, no allocation, capturable.
// Workspace  : 32 MiB of the Projection's SharedScratch (core/method.hpp), shared by all of
//              its cublaslt methods: one Projection runs one method per call on one stream at
//              a time, so split-K partials never race; distinct Projections own distinct ones.
// Constraints: bf16 W/x/y, K % 8 == 0 and n_out % 8 == 0 (16-byte leading dimensions),
//              compute capability >= 8.0 (bf16 tensor cores).
#include "kernels/cublaslt_plan.hpp"

#include <cublasLt.h>

#include <cstdint>
#include <cstdio>

namespace projkit {
namespace {

constexpr std::size_t kLtWorkspaceBytes = 32u << 20;  // split-K partials (fp32) fit easily
constexpr int kHeuristicRequest = 16;                  // proposals asked per (orient, m)
constexpr int kMaxRank = kHeuristicRequest - 1;

std::string lt_msg(cublasStatus_t s, const char* what) {
  return std::string(what) + ": " + cublasGetStatusName(s) + " (" + cublasGetStatusString(s) + ")";
}
void lt_check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw Error(StatusCode::cuda_error, lt_msg(s, what));
}

// ---------------------------------------------------------------- orientations
// Which extent a leading dimension equals (for the 16-byte ld rule in applicable()).
enum class Ld { k, n_out, m };

struct MatDesc {
  cublasLtOrder_t order;
  bool rows_are_k;  // col-major operand [K, *] (true) or row-major operand [*, K] (false)
};

struct Orientation {
  const char* what;
  bool a_is_w;              // A operand is W (else x)
  cublasOperation_t ta, tb;
  MatDesc a, b;
  cublasLtOrder_t d_order;  // COL: D [n_out, m] ld n_out;  ROW: D [m, n_out] ld n_out
  Ld lds[3];                // leading dimensions of A, B, D
};

constexpr Orientation kOrient[cublaslt_plan::kOrientations] = {
    {"W·xT, col-major (torch)", true, CUBLAS_OP_T, CUBLAS_OP_N, {CUBLASLT_ORDER_COL, true},
     {CUBLASLT_ORDER_COL, true}, CUBLASLT_ORDER_COL, {Ld::k, Ld::k, Ld::n_out}},
    {"x·WT, ORDER_ROW everywhere", false, CUBLAS_OP_N, CUBLAS_OP_T, {CUBLASLT_ORDER_ROW, false},
     {CUBLASLT_ORDER_ROW, false}, CUBLASLT_ORDER_ROW, {Ld::k, Ld::k, Ld::n_out}},
    {"x·WT, col-major operands, ORDER_ROW D", false, CUBLAS_OP_T, CUBLAS_OP_N, {CUBLASLT_ORDER_COL, true},
     {CUBLASLT_ORDER_COL, true}, CUBLASLT_ORDER_ROW, {Ld::k, Ld::k, Ld::n_out}},
    {"W·xT, ORDER_ROW operands, col-major D", true, CUBLAS_OP_N, CUBLAS_OP_T, {CUBLASLT_ORDER_ROW, false},
     {CUBLASLT_ORDER_ROW, false}, CUBLASLT_ORDER_COL, {Ld::k, Ld::k, Ld::n_out}},
};

// ---------------------------------------------------------------- RAII handles
struct LtHandle {
  cublasLtHandle_t h = nullptr;
  LtHandle() { lt_check(cublasLtCreate(&h), "cublasLtCreate"); }
  ~LtHandle() { if (h) cublasLtDestroy(h); }
  LtHandle(const LtHandle&) = delete;
  LtHandle& operator=(const LtHandle&) = delete;
};

struct Layout {
  cublasLtMatrixLayout_t l = nullptr;
  Layout() = default;
  Layout(uint64_t rows, uint64_t cols, int64_t ld, cublasLtOrder_t order) {
    lt_check(cublasLtMatrixLayoutCreate(&l, CUDA_R_16BF, rows, cols, ld), "cublasLtMatrixLayoutCreate");
    int32_t o = order;
    lt_check(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ORDER, &o, sizeof(o)),
             "cublasLtMatrixLayoutSetAttribute(ORDER)");
  }
  ~Layout() { if (l) cublasLtMatrixLayoutDestroy(l); }
  Layout(Layout&& o) noexcept : l(o.l) { o.l = nullptr; }
  Layout& operator=(Layout&& o) noexcept {
    if (this != &o) { if (l) cublasLtMatrixLayoutDestroy(l); l = o.l; o.l = nullptr; }
    return *this;
  }
};

struct MatmulDesc {
  cublasLtMatmulDesc_t d = nullptr;
  explicit MatmulDesc(const Orientation& o) {
    lt_check(cublasLtMatmulDescCreate(&d, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
    int32_t ta = o.ta, tb = o.tb;
    lt_check(cublasLtMatmulDescSetAttribute(d, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta)), "set TRANSA");
    lt_check(cublasLtMatmulDescSetAttribute(d, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb)), "set TRANSB");
  }
  ~MatmulDesc() { if (d) cublasLtMatmulDescDestroy(d); }
  MatmulDesc(const MatmulDesc&) = delete;
  MatmulDesc& operator=(const MatmulDesc&) = delete;
};

struct Preference {
  cublasLtMatmulPreference_t p = nullptr;
  // masked: ask cuBLASLt itself for fp32-reduction configs only (the results are filtered
  // again in query(); the unmasked preference is the fallback when the mask leaves nothing).
  Preference(bool align16, bool masked) {
    lt_check(cublasLtMatmulPreferenceCreate(&p), "cublasLtMatmulPreferenceCreate");
    uint64_t ws = kLtWorkspaceBytes;
    lt_check(cublasLtMatmulPreferenceSetAttribute(p, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws)),
             "pref MAX_WORKSPACE_BYTES");
    // fp32 split-K only: partials kept in the compute type (or no split at all).
    uint32_t red = CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE;
    if (masked)
      lt_check(cublasLtMatmulPreferenceSetAttribute(p, CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, &red, sizeof(red)),
               "pref REDUCTION_SCHEME_MASK");
    // Never an fp16 accumulator (the contract is fp32 accumulation).
    uint64_t impl = ~uint64_t(CUBLASLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_16F);
    lt_check(cublasLtMatmulPreferenceSetAttribute(p, CUBLASLT_MATMUL_PREF_IMPL_MASK, &impl, sizeof(impl)),
             "pref IMPL_MASK");
    if (align16) {
      uint32_t a = 16;
      for (auto attr : {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
                        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES})
        lt_check(cublasLtMatmulPreferenceSetAttribute(p, attr, &a, sizeof(a)), "pref MIN_ALIGNMENT");
    }
  }
  ~Preference() { if (p) cublasLtMatmulPreferenceDestroy(p); }
  Preference(const Preference&) = delete;
  Preference& operator=(const Preference&) = delete;
};

// The three layouts of one (orientation, m): A, B and D (C = D, beta = 0).
struct Layouts {
  Layout a, b, d;
};

Layouts make_layouts(const Orientation& o, int64_t m, int64_t n_out, int64_t k) {
  auto operand = [&](const MatDesc& md, int64_t rows_other) {
    // Column-major [K, rows_other] ld K, or row-major [rows_other, K] ld K: same bytes.
    return md.rows_are_k ? Layout(uint64_t(k), uint64_t(rows_other), k, md.order)
                         : Layout(uint64_t(rows_other), uint64_t(k), k, md.order);
  };
  Layouts l;
  l.a = operand(o.a, o.a_is_w ? n_out : m);
  l.b = operand(o.b, o.a_is_w ? m : n_out);
  l.d = o.d_order == CUBLASLT_ORDER_COL ? Layout(uint64_t(n_out), uint64_t(m), n_out, CUBLASLT_ORDER_COL)
                                        : Layout(uint64_t(m), uint64_t(n_out), n_out, CUBLASLT_ORDER_ROW);
  return l;
}

template <class T>
T algo_attr(const cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoConfigAttributes_t attr) {
  T v{};
  std::size_t written = 0;
  cublasLtMatmulAlgoConfigGetAttribute(&algo, attr, &v, sizeof(v), &written);
  return v;
}

cublaslt_plan::HeuristicEntry entry_of(const cublasLtMatmulAlgo_t& algo, std::size_t ws, float waves) {
  cublaslt_plan::HeuristicEntry e;
  e.algo_id = algo_attr<int32_t>(algo, CUBLASLT_ALGO_CONFIG_ID);
  e.tile = algo_attr<uint32_t>(algo, CUBLASLT_ALGO_CONFIG_TILE_ID);
  e.splitk = algo_attr<int32_t>(algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM);
  e.reduction = algo_attr<uint32_t>(algo, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME);
  e.swizzle = algo_attr<uint32_t>(algo, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING);
  e.custom = algo_attr<uint32_t>(algo, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION);
  e.stages = algo_attr<uint32_t>(algo, CUBLASLT_ALGO_CONFIG_STAGES_ID);
  e.inner = algo_attr<uint16_t>(algo, CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID);
  e.cluster = algo_attr<uint16_t>(algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID);
  e.workspace = ws;
  e.waves = waves;
  return e;
}

// The two preferences of one alignment class: reduction-masked first, unmasked fallback.
struct Preferences {
  Preference masked, unmasked;
  explicit Preferences(bool align16) : masked(align16, true), unmasked(align16, false) {}
};

// Heuristic proposals from one preference, filtered to what the contract allows.
int query_one(cublasLtHandle_t h, const MatmulDesc& desc, const Layouts& l, const Preference& pref,
              cublasLtMatmulHeuristicResult_t (&out)[kHeuristicRequest], std::string* why) {
  cublasLtMatmulHeuristicResult_t res[kHeuristicRequest] = {};
  int count = 0;
  cublasStatus_t s = cublasLtMatmulAlgoGetHeuristic(h, desc.d, l.a.l, l.b.l, l.d.l, l.d.l, pref.p, kHeuristicRequest,
                                                    res, &count);
  if (s != CUBLAS_STATUS_SUCCESS) {
    if (why) *why = lt_msg(s, "cublasLtMatmulAlgoGetHeuristic");
    return 0;
  }
  int kept = 0;
  for (int i = 0; i < count; ++i) {
    if (res[i].state != CUBLAS_STATUS_SUCCESS || res[i].workspaceSize > kLtWorkspaceBytes) continue;
    uint32_t red = algo_attr<uint32_t>(res[i].algo, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME);
    int32_t splits = algo_attr<int32_t>(res[i].algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM);
    // Split-K must reduce in fp32 (COMPUTE_TYPE); INPLACE / OUTPUT_TYPE sum bf16 partials.
    if (splits > 1 && red != CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE) continue;
    if (red != CUBLASLT_REDUCTION_SCHEME_NONE && red != CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE) continue;
    out[kept++] = res[i];
  }
  if (kept == 0 && why) *why = "cublasLtMatmulAlgoGetHeuristic: no proposal within the fp32-reduction contract";
  return kept;
}

// The list ranks index: the reduction-masked query, or the filtered unmasked one when the
// mask leaves nothing. Returns the count kept (0 and *why when cuBLASLt rejects the layout).
int query(cublasLtHandle_t h, const MatmulDesc& desc, const Layouts& l, const Preferences& prefs,
          cublasLtMatmulHeuristicResult_t (&out)[kHeuristicRequest], std::string* why) {
  const int kept = query_one(h, desc, l, prefs.masked, out, why);
  return kept > 0 ? kept : query_one(h, desc, l, prefs.unmasked, out, why);
}

// ---------------------------------------------------------------- prepared method
class CublasLtPlan final : public PreparedMethod {
 public:
  CublasLtPlan(const PrepareContext& ctx, const Config& cfg)
      : spec_(ctx.spec),
        w_(ctx.w),
        max_m_(ctx.max_m),
        orient_(cfg.get("orient", 0)),
        rank_(cfg.get("rank", 0)),
        o_(kOrient[orient_]),
        desc_(o_),
        scratch_(ctx.scratch ? ctx.scratch : std::make_shared<SharedScratch>()) {
    scratch_->reserve(kLtWorkspaceBytes);
    w_aligned256_ = (reinterpret_cast<uintptr_t>(w_) & 255u) == 0;
    Preferences pref256(false), pref16(true);
    auto serves = [&](int m) {
      if (ctx.m_ranges.empty()) return true;
      for (const auto& [lo, hi] : ctx.m_ranges)
        if (m >= lo && m <= hi) return true;
      return false;
    };
    table_.reserve(std::size_t(max_m_));
    for (int m = 1; m <= max_m_; ++m) {
      PerM e;
      if (serves(m)) {  // only the plan's m: 2 heuristic queries each
        e.layouts = make_layouts(o_, m, spec_.out_cols(m), spec_.k);
        resolve(e, 0, pref256, m);
        resolve(e, 1, pref16, m);
        e.resolved = true;
      }
      table_.push_back(std::move(e));
    }
  }

  Status run(const RunArgs& a) const override {
    if (a.m < 1 || a.m > max_m_)
      return {StatusCode::invalid_argument, "cublaslt: m=" + std::to_string(a.m) + " outside [1, max_m=" +
                                                std::to_string(max_m_) + "]"};
    if (a.n_out != spec_.out_cols(a.m))
      return {StatusCode::invalid_argument, "cublaslt: n_out does not match spec.out_cols(m)"};
    const uintptr_t px = reinterpret_cast<uintptr_t>(a.x), py = reinterpret_cast<uintptr_t>(a.y);
    if (!a.x || !a.y || ((px | py) & 15u))
      return {StatusCode::invalid_argument, "cublaslt: x and y must be non-null and 16-byte aligned"};
    const PerM& e = table_[std::size_t(a.m - 1)];
    if (!e.resolved)
      return {StatusCode::invalid_argument,
              "cublaslt: m=" + std::to_string(a.m) + " is outside the M ranges this method was prepared for"};
    const int t = (w_aligned256_ && ((px | py) & 255u) == 0) ? 0 : 1;
    const void* A = o_.a_is_w ? w_ : a.x;
    const void* B = o_.a_is_w ? a.x : w_;
    cublasStatus_t s = cublasLtMatmul(handle_.h, desc_.d, &kAlpha, A, e.layouts.a.l, B, e.layouts.b.l, &kBeta, a.y,
                                      e.layouts.d.l, a.y, e.layouts.d.l, &e.algo[t], scratch_->get(),
                                      kLtWorkspaceBytes, a.stream);
    if (s != CUBLAS_STATUS_SUCCESS) return {StatusCode::cuda_error, lt_msg(s, "cublasLtMatmul (cublaslt)")};
    return Status::Ok();
  }

  std::string describe(int m) const {
    if (m < 1 || m > max_m_) return "";
    const PerM& e = table_[std::size_t(m - 1)];
    if (!e.resolved) return "";
    std::string s;
    for (int t = 0; t < 2; ++t) {
      s += t == 0 ? "a256[" : " a16[";
      s += "rank";
      s += std::to_string(rank_);
      if (e.rank_used[t] != rank_) {
        s += "->";
        s += std::to_string(e.rank_used[t]);
      }
      s += ' ';
      s += e.entry[t].str();
      s += "]";
    }
    return s;
  }

 private:
  struct PerM {
    Layouts layouts;
    cublasLtMatmulAlgo_t algo[2] = {};  // [0]: 256-byte-aligned pointers, [1]: 16-byte
    int rank_used[2] = {0, 0};
    bool resolved = false;  // false: m outside the prepared M ranges (no layouts, no algorithm)
    cublaslt_plan::HeuristicEntry entry[2];
  };

  void resolve(PerM& e, int t, const Preferences& pref, int m) {
    cublasLtMatmulHeuristicResult_t res[kHeuristicRequest];
    std::string why;
    const int kept = query(handle_.h, desc_, e.layouts, pref, res, &why);
    if (kept == 0)
      throw Error(StatusCode::unsupported, "cublaslt.orient" + std::to_string(orient_) + " m=" + std::to_string(m) +
                                               " (" + spec_.name + "): " + why);
    // Documented fallback: a rank missing for this m resolves to rank 0.
    const int r = rank_ < kept ? rank_ : 0;
    e.rank_used[t] = r;
    e.algo[t] = res[r].algo;
    e.entry[t] = entry_of(res[r].algo, res[r].workspaceSize, res[r].wavesCount);
  }

  static constexpr float kAlpha = 1.0f, kBeta = 0.0f;
  ProjectionSpec spec_;
  const void* w_;
  int max_m_;
  int orient_, rank_;
  const Orientation& o_;
  LtHandle handle_;
  MatmulDesc desc_;
  std::shared_ptr<SharedScratch> scratch_;  // cuBLASLt workspace, shared by the Projection's cublaslt methods
  bool w_aligned256_ = false;
  std::vector<PerM> table_;
};

// ---------------------------------------------------------------- family
std::vector<Config> cublaslt_configs() {
  std::vector<Config> c;
  // Every orientation x heuristic ranks 1..3: the runner-ups of cuBLASLt's own pick for the
  // layout description, which the worklog found faster in places (pooler large M, qkv ~32,
  // unpooler large M) and which run E's tune chose in 33 ranges (qkv M 193..199 at 1.27-1.31).
  // orient1..3 exist because cuBLASLt's heuristics key on the description, so the same
  // product described differently can select a different kernel.
  // Dropped after run E (docs/experiments.md, "cuBLASLt plans"): rank 0 of every orientation
  // (cuBLASLt's own pick = the baseline's algorithm: median screen ratio 1.000 over 1024
  // (family, M) each, so every range it won was noise that passed the margin once, and each
  // such range cost the Projection a prepared method with a 32 MiB workspace) and the forced
  // fp32 split-K configs orient{0,1}.rank0.splitk{2,4} (screen medians 0.76-0.84, never chosen).
  for (int o = 0; o < cublaslt_plan::kOrientations; ++o)
    for (int r = 1; r <= 3; ++r) c.push_back(Config{"cublaslt", {{"orient", o}, {"rank", r}}});
  return c;
}

std::string cublaslt_applicable(const ProjectionSpec& spec, const Config& cfg, int m_lo, int m_hi,
                                const DeviceInfo& dev) {
  if (spec.weight_dtype != DType::bf16 || spec.x_dtype != DType::bf16 || spec.out_dtype != DType::bf16)
    return "cublaslt: needs bf16 W, x and y (fp32 router weights are not served)";
  const int orient = cfg.get("orient", -1), rank = cfg.get("rank", -1);
  if (orient < 0 || orient >= cublaslt_plan::kOrientations)
    return "cublaslt: orient must be in [0, " + std::to_string(cublaslt_plan::kOrientations - 1) + "]";
  if (rank < 0 || rank > kMaxRank) return "cublaslt: rank must be in [0, " + std::to_string(kMaxRank) + "]";
  for (const auto& [key, v] : cfg.params) {
    (void)v;
    if (key != "orient" && key != "rank") return "cublaslt: unknown config key '" + key + "'";
  }
  if (dev.cc_major < 8) return "cublaslt: bf16 tensor-core matmul needs compute capability >= 8.0";
  if (m_lo < 1 || m_hi < m_lo) return "cublaslt: empty or non-positive M range";
  // 16-byte leading dimensions (8 bf16) for every m in the range, per orientation.
  for (Ld ld : kOrient[orient].lds) {
    if (ld == Ld::k && spec.k % 8 != 0) return "cublaslt: K % 8 != 0 (16-byte leading dimension)";
    if (ld == Ld::n_out) {
      if (spec.n % 8 != 0 && m_hi > spec.slice_max_m) return "cublaslt: N % 8 != 0 (16-byte leading dimension)";
      if (spec.slice_max_m > 0 && m_lo <= spec.slice_max_m && spec.slice_rows % 8 != 0)
        return "cublaslt: slice_rows % 8 != 0 (16-byte leading dimension)";
    }
    if (ld == Ld::m && !(m_lo == m_hi && m_lo % 8 == 0))
      return "cublaslt.orient" + std::to_string(orient) + ": leading dimension is m, needs every m % 8 == 0";
  }
  return "";
}

std::unique_ptr<PreparedMethod> cublaslt_prepare(const PrepareContext& ctx, const Config& cfg) {
  std::string why = cublaslt_applicable(ctx.spec, cfg, 1, ctx.max_m, ctx.dev);
  if (!why.empty()) throw Error(StatusCode::unsupported, why);
  return std::make_unique<CublasLtPlan>(ctx, cfg);
}

}  // namespace

namespace cublaslt_plan {

std::string HeuristicEntry::str() const {
  char buf[128];
  std::snprintf(buf, sizeof(buf), "id%d.t%u.s%u.k%d.r%u.w%u.c%u.i%u.cl%u(ws%zuK,wv%.2f)", algo_id, tile, stages,
                splitk, reduction, swizzle, custom, inner, cluster, workspace >> 10, double(waves));
  return buf;
}

std::vector<HeuristicEntry> heuristic_list(const ProjectionSpec& spec, int orient, int m, bool align16,
                                           std::string* why, bool raw) {
  std::vector<HeuristicEntry> out;
  if (orient < 0 || orient >= kOrientations) {
    if (why) *why = "orient out of range";
    return out;
  }
  LtHandle h;
  MatmulDesc desc(kOrient[orient]);
  Preferences pref(align16);
  Layouts l = make_layouts(kOrient[orient], m, spec.out_cols(m), spec.k);
  cublasLtMatmulHeuristicResult_t res[kHeuristicRequest] = {};
  int kept = 0;
  if (raw) {  // unmasked and unfiltered: what cuBLASLt proposes before the contract filter
    cublasStatus_t s = cublasLtMatmulAlgoGetHeuristic(h.h, desc.d, l.a.l, l.b.l, l.d.l, l.d.l, pref.unmasked.p,
                                                      kHeuristicRequest, res, &kept);
    if (s != CUBLAS_STATUS_SUCCESS) {
      if (why) *why = lt_msg(s, "cublasLtMatmulAlgoGetHeuristic");
      kept = 0;
    }
  } else {
    kept = query(h.h, desc, l, pref, res, why);
  }
  for (int i = 0; i < kept; ++i) out.push_back(entry_of(res[i].algo, res[i].workspaceSize, res[i].wavesCount));
  return out;
}

std::string describe_prepared(const PreparedMethod& pm, int m) {
  const auto* p = dynamic_cast<const CublasLtPlan*>(&pm);
  return p ? p->describe(m) : "";
}

}  // namespace cublaslt_plan

extern const KernelFamily kCublasLtPlan = {
    "cublaslt",
    "cuBLASLt bf16 matmul, fp32 compute, 4 layout descriptions x heuristic rank, per-m algo table, fp32 split-K",
    cublaslt_configs, cublaslt_applicable, cublaslt_prepare};

}  // namespace projkit
