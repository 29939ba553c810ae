// cublaslt_plan: introspection of the cuBLASLt plan family for the lab / dev drivers
// (which algorithms cuBLASLt proposes per orientation and m, and which one a prepared
// method resolved). Not needed to run the family; see cublaslt_plan.cpp for the mechanism.
#pragma once

#include <string>
#include <vector>

#include "core/method.hpp"

namespace projkit::cublaslt_plan {

// Number of operand/output layout descriptions ("orientations") the family knows.
inline constexpr int kOrientations = 4;

// One filtered heuristic proposal, as its algo config attributes.
struct HeuristicEntry {
  int algo_id = -1;
  unsigned tile = 0, stages = 0, reduction = 0, swizzle = 0, custom = 0, inner = 0, cluster = 0;
  int splitk = 1;
  std::size_t workspace = 0;
  float waves = 0.f;
  std::string str() const;  // "id21.t15.s8.k1.r0.w0.c0.cl0"
};

// The filtered heuristic list that ranks index, for spec at m in orientation `orient`,
// on the current device. align16: the list for 16-byte-aligned pointers (else 256).
// Empty with *why set when cuBLASLt rejects the layout description. raw: cuBLASLt's own
// list without the reduction mask and without the fp32-reduction filter (exploration).
std::vector<HeuristicEntry> heuristic_list(const ProjectionSpec& spec, int orient, int m, bool align16,
                                           std::string* why, bool raw = false);

// What a prepared cublaslt method resolved for m: "rank<r>[->0] <algo>"
// for the 256-byte-aligned table and the 16-byte table. "" if pm is not a cublaslt method.
std::string describe_prepared(const PreparedMethod& pm, int m);

}  // namespace projkit::cublaslt_plan
