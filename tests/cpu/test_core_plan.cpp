// Method config names, plan parsing, validation against a device, and fallback.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "../fake_device.hpp"
#include "core/method.hpp"

using namespace projkit;

namespace {
std::string plan_text(const std::string& device = "NVIDIA H200", int sms = 132, const std::string& families =
                          R"({"qkv":[{"m":[1,8],"method":"reference","ratio":1.2},{"m":[9,256],"method":"baseline"}]})") {
  return R"({"schema":"projkit.plan/1","header":{"projkit_version":")" + std::string(kVersion) +
         R"(","device":")" + device + R"(","sm_count":)" + std::to_string(sms) +
         R"(,"cuda_runtime":13000,"cublas":130100},"families":)" + families + "}";
}

// A listed variant `c` applies exactly where its listed base does: the same verdict (empty or the
// same refusal) for each family and each [lo, hi] of `ranges`.
void expect_applies_as_base(const std::string& c, const std::string& base, std::initializer_list<const char*> fams,
                            std::initializer_list<std::pair<int, int>> ranges, const DeviceInfo& d) {
  for (const char* fam : fams)
    for (auto [lo, hi] : ranges)
      EXPECT_EQ(method_applicability(builtin_spec(fam), c, lo, hi, d),
                method_applicability(builtin_spec(fam), base, lo, hi, d))
          << c << " " << fam << " " << lo << ".." << hi;
}
}  // namespace

TEST(Config, NameRoundTrips) {
  Config c = Config::parse("gemv_stream.rows2.warps8");
  EXPECT_EQ(c.kernel, "gemv_stream");
  ASSERT_EQ(c.params.size(), 2u);
  EXPECT_EQ(c.get("rows", 0), 2);
  EXPECT_EQ(c.get("warps", 0), 8);
  EXPECT_EQ(c.get("stages", 3), 3);
  EXPECT_TRUE(c.has("rows"));
  EXPECT_FALSE(c.has("split"));
  EXPECT_EQ(c.name(), "gemv_stream.rows2.warps8");
  EXPECT_EQ(Config::parse("baseline").name(), "baseline");
}

TEST(Config, MalformedNamesAreRejected) {
  EXPECT_THROW(Config::parse(""), Error);
  EXPECT_THROW(Config::parse("gemv.rows"), Error);
  EXPECT_THROW(Config::parse("gemv.8"), Error);
  EXPECT_THROW(Config::parse("gemv.rows8x"), Error);
  EXPECT_THROW(Config::parse("gemv..rows8"), Error);
}

TEST(Plan, SafePlanIsBaselineEverywhere) {
  Plan p = Plan::safe();
  EXPECT_EQ(p.method_for("qkv", 1), "baseline");
  EXPECT_EQ(p.method_for("router", 256), "baseline");
  EXPECT_TRUE(p.warnings.empty());
}

TEST(Plan, ParsesRangesInOrder) {
  Plan p = Plan::from_json_text(plan_text(), fake_h200(), true);
  EXPECT_TRUE(p.warnings.empty());
  EXPECT_EQ(p.method_for("qkv", 1), "reference");
  EXPECT_EQ(p.method_for("qkv", 8), "reference");
  EXPECT_EQ(p.method_for("qkv", 9), "baseline");
  EXPECT_EQ(p.method_for("o", 9), "baseline");  // unmapped family
  ASSERT_NE(p.ranges("qkv"), nullptr);
  EXPECT_DOUBLE_EQ((*p.ranges("qkv"))[0].ratio, 1.2);
  // round trip through to_json
  Plan q = Plan::from_json_text(p.to_json(), fake_h200(), true);
  EXPECT_EQ(q.method_for("qkv", 5), "reference");
}

TEST(Plan, DeviceMismatchFallsBackLoudlyOrThrowsInStrictMode) {
  Plan p = Plan::from_json_text(plan_text("NVIDIA H100 80GB HBM3"), fake_h200(), false);
  EXPECT_EQ(p.source, "builtin-safe");
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_NE(p.warnings[0].find("H100"), std::string::npos);
  EXPECT_EQ(p.method_for("qkv", 1), "baseline");
  try {
    Plan::from_json_text(plan_text("NVIDIA H100 80GB HBM3"), fake_h200(), true);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), StatusCode::plan_mismatch);
  }
  EXPECT_THROW(Plan::from_json_text(plan_text("NVIDIA H200", 114), fake_h200(), true), Error);
}

TEST(Plan, MalformedPlansFallBack) {
  const char* bad[] = {
      "{", R"({"schema":"other"})", R"({"schema":"projkit.plan/1"})",
  };
  for (const char* t : bad) {
    Plan p = Plan::from_json_text(t, fake_h200(), false);
    EXPECT_EQ(p.method_for("qkv", 1), "baseline") << t;
    EXPECT_FALSE(p.warnings.empty()) << t;
    EXPECT_THROW(Plan::from_json_text(t, fake_h200(), true), Error) << t;
  }
  // overlapping ranges, empty range, malformed method name
  EXPECT_THROW(Plan::from_json_text(plan_text("NVIDIA H200", 132,
                                              R"({"qkv":[{"m":[1,8],"method":"baseline"},{"m":[8,9],"method":"baseline"}]})"),
                                    fake_h200(), true),
               Error);
  EXPECT_THROW(Plan::from_json_text(plan_text("NVIDIA H200", 132, R"({"qkv":[{"m":[5,4],"method":"baseline"}]})"),
                                    fake_h200(), true),
               Error);
  EXPECT_THROW(Plan::from_json_text(plan_text("NVIDIA H200", 132, R"({"qkv":[{"m":[1,4],"method":"gemv.x"}]})"),
                                    fake_h200(), true),
               Error);
}

TEST(Plan, VersionMismatchIsDetected) {
  std::string t = plan_text();
  t.replace(t.find(kVersion), std::string(kVersion).size(), "9.9.0");
  EXPECT_THROW(Plan::from_json_text(t, fake_h200(), true), Error);
  EXPECT_FALSE(Plan::from_json_text(t, fake_h200(), false).warnings.empty());
}

TEST(Plan, DeviceSlug) {
  EXPECT_EQ(Plan::device_slug("NVIDIA H200"), "h200");
  EXPECT_EQ(Plan::device_slug("NVIDIA H100 80GB HBM3"), "h100-80gb-hbm3");
  EXPECT_EQ(Plan::device_slug(""), "unknown");
}

TEST(Methods, ApplicabilityNamesTheProblem) {
  const DeviceInfo d = fake_h200();
  EXPECT_EQ(method_applicability(builtin_spec("qkv"), "baseline", 1, 256, d), "");
  EXPECT_EQ(method_applicability(builtin_spec("router"), "reference", 1, 256, d), "");
  EXPECT_NE(method_applicability(builtin_spec("qkv"), "no_such_kernel.rows1", 1, 1, d).find("unknown method kernel"),
            std::string::npos);
  EXPECT_NE(method_applicability(builtin_spec("qkv"), "baseline.rows1", 1, 1, d).find("not one of the configs"),
            std::string::npos);
  EXPECT_NE(method_applicability(builtin_spec("qkv"), "bad..name", 1, 1, d), "");
}

TEST(Methods, EveryListedConfigNameParsesBackToItself) {
  auto names = list_method_configs();
  EXPECT_GE(names.size(), 2u);
  for (const auto& n : names) EXPECT_EQ(Config::parse(n).name(), n);
}

// The shipped plans must stay loadable when configs are added or dropped from a kernel's list:
// every range names a listed config that is applicable on the plan's device over the whole range.
// One table names each file in plans/ (the default set) and plans/serving/ (the serving set) and a
// fake of the device its header names. A set's files are found by the device's slug alone.
std::vector<std::pair<std::string, DeviceInfo>> shipped_plans() {
  return {{"h200.json", fake_h200()}, {"h100-80gb-hbm3.json", fake_h100()}, {"serving/h100-80gb-hbm3.json", fake_h100()}};
}

TEST(Plan, ShippedPlansNameOnlyListedApplicableConfigs) {
  for (const auto& [file, d] : shipped_plans()) {
    const std::string path = std::string(PROJKIT_TEST_DATA) + "/../../plans/" + file;
    std::ifstream f(path);
    ASSERT_TRUE(f) << "cannot open " << path;
    std::stringstream text;
    text << f.rdbuf();
    const Plan p = Plan::from_json_text(text.str(), d, true);  // strict: throws on any problem
    EXPECT_TRUE(p.warnings.empty()) << file;
    // Plan::for_device_info finds it by this name, in its set's directory
    EXPECT_EQ(Plan::device_slug(d.name) + ".json", std::filesystem::path(file).filename().string());
    ASSERT_FALSE(p.families.empty()) << file;
    int ranges = 0;
    for (const auto& [family, rs] : p.families)
      for (const PlanRange& r : rs) {
        ++ranges;
        EXPECT_EQ(method_applicability(builtin_spec(family), r.method, r.m_lo, r.m_hi, d), "")
            << file << ": " << family << " m=[" << r.m_lo << "," << r.m_hi << "] " << r.method;
      }
    EXPECT_GT(ranges, 0) << file;
  }
}

// No plan file goes untested: each one in plans/ and plans/serving/ is in shipped_plans(), and
// the plans dir holds no other set.
TEST(Plan, EveryPlanFileIsCovered) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(PROJKIT_TEST_DATA) / ".." / ".." / "plans";
  const auto table = shipped_plans();
  std::size_t files = 0;
  for (const fs::path& sub : {dir, dir / std::string(Plan::kServingSet)}) {
    if (!fs::is_directory(sub)) continue;
    for (const auto& e : fs::directory_iterator(sub)) {
      if (e.is_directory()) {
        const std::string n = e.path().filename().string();
        EXPECT_TRUE(sub == dir && (n == Plan::kServingSet || n == "tune-logs")) << "unknown plans dir " << e.path();
        continue;
      }
      if (e.path().extension() != ".json") continue;
      ++files;
      const std::string name = fs::relative(e.path(), dir).generic_string();
      EXPECT_TRUE(std::any_of(table.begin(), table.end(), [&](const auto& t) { return t.first == name; }))
          << "untested plan file " << name;
    }
  }
  EXPECT_EQ(files, table.size());
}

// Plan sets: a device's default plan is <dir>/<slug>.json, its serving plan <dir>/serving/<slug>.json;
// a missing serving plan falls back to the default one (or throws when strict), a missing default
// plan to safe(); names pick a set, "safe" or a file; an unknown set is refused by name.
namespace {
struct PlanDirEnv {  // PROJKIT_PLAN_DIR -> a fresh temporary plans dir for one test
  std::filesystem::path dir;
  explicit PlanDirEnv(const std::string& tag) {
    dir = std::filesystem::temp_directory_path() / ("projkit-plan-sets-" + tag + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "serving");
    ::setenv("PROJKIT_PLAN_DIR", dir.c_str(), 1);
  }
  ~PlanDirEnv() {
    ::unsetenv("PROJKIT_PLAN_DIR");
    std::filesystem::remove_all(dir);
  }
  void write(const std::string& rel, const std::string& text) const { std::ofstream(dir / rel) << text; }
};
DeviceInfo probe_device() {  // a name no shipped plan carries, so the source tree's plans/ never match
  DeviceInfo d = fake_h200();
  d.name = "NVIDIA Plan Set Probe";
  return d;
}
}  // namespace

TEST(PlanSets, EachSetIsFoundInItsOwnDirectory) {
  const PlanDirEnv env("found");
  const DeviceInfo d = probe_device();
  ASSERT_EQ(Plan::device_slug(d.name), "plan-set-probe");
  EXPECT_EQ(Plan::set_file(d, ""), "plan-set-probe.json");
  EXPECT_EQ(Plan::set_file(d, Plan::kServingSet), "serving/plan-set-probe.json");
  env.write("plan-set-probe.json", plan_text(d.name, 132, R"({"qkv":[{"m":[1,256],"method":"baseline"}]})"));
  env.write("serving/plan-set-probe.json", plan_text(d.name, 132, R"({"o":[{"m":[1,256],"method":"baseline"}]})"));
  const Plan def = Plan::for_device_info(d, true, "");
  const Plan srv = Plan::for_device_info(d, true, Plan::kServingSet);
  EXPECT_NE(def.source.find("plan-set-probe.json"), std::string::npos) << def.source;
  EXPECT_EQ(def.source.find("serving"), std::string::npos) << def.source;
  EXPECT_NE(srv.source.find("serving/plan-set-probe.json"), std::string::npos) << srv.source;
  EXPECT_NE(def.ranges("qkv"), nullptr);
  EXPECT_EQ(def.ranges("o"), nullptr);
  EXPECT_NE(srv.ranges("o"), nullptr);
  EXPECT_EQ(srv.ranges("qkv"), nullptr);
  // The same through the names a caller passes (the C ABI's plan_path, the CLI's --plan).
  EXPECT_EQ(Plan::named("serving", d, true).source, srv.source);
  EXPECT_EQ(Plan::named("", d, true).source, def.source);
  EXPECT_EQ(Plan::named("safe", d, true).source, "builtin-safe");
  EXPECT_EQ(Plan::named(srv.source, d, true).source, srv.source);  // a file path
}

TEST(PlanSets, MissingServingPlanFallsBackToTheDefaultOrThrowsWhenStrict) {
  const PlanDirEnv env("fallback");
  const DeviceInfo d = probe_device();
  env.write("plan-set-probe.json", plan_text(d.name, 132, R"({"qkv":[{"m":[1,256],"method":"baseline"}]})"));
  EXPECT_EQ(Plan::find_file(d, Plan::kServingSet), "");
  const Plan p = Plan::for_device_info(d, false, Plan::kServingSet);
  EXPECT_NE(p.source.find("plan-set-probe.json"), std::string::npos) << p.source;
  ASSERT_FALSE(p.warnings.empty());
  EXPECT_NE(p.warnings[0].find("serving/plan-set-probe.json"), std::string::npos) << p.warnings[0];
  try {
    Plan::named("serving", d, true);
    ADD_FAILURE() << "a strict request for a missing serving plan must throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), StatusCode::plan_mismatch);
    EXPECT_NE(std::string(e.what()).find("serving/plan-set-probe.json"), std::string::npos) << e.what();
  }
  // No plan of either set: safe(), with a warning naming the dirs looked in ($PROJKIT_PLAN_DIR
  // first); strict throws, naming them too.
  std::filesystem::remove(env.dir / "plan-set-probe.json");
  const Plan q = Plan::for_device_info(d, false, Plan::kServingSet);
  EXPECT_EQ(q.source, "builtin-safe");
  EXPECT_GE(q.warnings.size(), 2u);
  const std::vector<std::string> dirs = Plan::search_dirs();
  ASSERT_FALSE(dirs.empty());
  EXPECT_EQ(std::filesystem::path(dirs[0]), env.dir.lexically_normal());
  EXPECT_NE(q.warnings.back().find("looked in " + dirs[0]), std::string::npos) << q.warnings.back();
  try {
    Plan::for_device_info(d, true, "");
    ADD_FAILURE() << "a strict request for a missing plan must throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), StatusCode::plan_mismatch);
    EXPECT_NE(std::string(e.what()).find("looked in " + dirs[0]), std::string::npos) << e.what();
  }
}

TEST(PlanSets, UnknownSetIsRefusedByName) {
  try {
    Plan::find_file(fake_h200(), "judge2");
    ADD_FAILURE() << "an unknown plan set must throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), StatusCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("judge2"), std::string::npos) << e.what();
  }
}

// wgmma_tma red5 (split-K by atomics, cooperative launch: every CTA resident, one per SM) is
// applicable exactly where its grid fits the SMs: qkv bm128.split7 = 18 N tiles x 7 = 126 CTAs
// for one token tile (M <= 128), 252 for two (M >= 129); and it names the violated limit.
TEST(Methods, Red5GridMustFitTheSms) {
  const DeviceInfo d = fake_h200();
  const std::string qkv7 = "wgmma_tma.bn128.bm128.split7.mc1.stages6.xfit1.red5";
  EXPECT_EQ(method_applicability(builtin_spec("qkv"), qkv7, 1, 128, d), "");
  const std::string why = method_applicability(builtin_spec("qkv"), qkv7, 100, 129, d);
  EXPECT_NE(why.find("m=129"), std::string::npos) << why;
  EXPECT_NE(why.find("252 CTAs"), std::string::npos) << why;
  // The same grid on a device with fewer SMs is refused at M <= 128 too (126 > 100).
  DeviceInfo small = d;
  small.sm_count = 100;
  EXPECT_NE(method_applicability(builtin_spec("qkv"), qkv7, 1, 1, small), "");
  // pooler bm256.split4 = 32 x 4 = 128 CTAs at every M up to 256.
  EXPECT_EQ(method_applicability(builtin_spec("pooler"), "wgmma_tma.bn128.bm256.split4.mc1.stages4.xfit1.red5", 1, 256, d),
            "");
}

// wgmma_tma's own applicability rule for a config name (unlisted names included, which
// method_applicability refuses as unlisted first), on a fake H200.
std::string wgmma_tma_refusal(const char* family, const char* name, int m_lo, int m_hi) {
  const KernelFamily* fam = find_kernel_family("wgmma_tma");
  EXPECT_NE(fam, nullptr);
  return fam ? fam->applicable(builtin_spec(family), Config::parse(name), m_lo, m_hi, fake_h200()) : "no wgmma_tma";
}

// rk1 (E59: red5's own entry point) is listed as a twin of every equal-split red5 config and of
// nothing else; it is applicable where its red5 twin is, and refused by name with another red
// mode, another rk value or together with the work table (wt1).
TEST(Methods, WgmmaTmaRk1Twins) {
  const DeviceInfo d = fake_h200();
  int twins = 0;
  const std::vector<std::string> listed = list_method_configs();
  for (const std::string& c : listed) {
    if (!c.starts_with("wgmma_tma.") || !c.ends_with(".rk1")) continue;
    ++twins;
    const std::string base = c.substr(0, c.size() - 4);  // the name without ".rk1"
    EXPECT_NE(base.find(".red5"), std::string::npos) << c;
    EXPECT_NE(std::find(listed.begin(), listed.end(), base), listed.end()) << c << ": no listed red5 twin";
    EXPECT_EQ(method_applicability(builtin_spec("pooler"), c, 1, 64, d),
              method_applicability(builtin_spec("pooler"), base, 1, 64, d)) << c;
  }
  EXPECT_EQ(twins, 12);
  auto why = [](const char* name, int hi) { return wgmma_tma_refusal("pooler", name, 1, hi); };
  EXPECT_NE(why("wgmma_tma.bn128.bm64.split2.mc1.stages8.xfit1.red4.rk1", 64).find("rk must be"), std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm64.split2.mc1.stages8.xfit1.red5.rk2", 64).find("rk must be"), std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm64.split2.mc1.stages8.xfit1.red5.wt1.rk1", 32).find("two entry points"),
            std::string::npos);
}

// ki1 (E63: the K splits interleaved) is listed for the rk1 configs of the 128..256-token tiles,
// alone and with ko1 (E64: K-split-major block order), as the last keys; each variant is
// applicable where its rk1 base is; ki / ko are refused by name out of range or where no kernel
// is instantiated (off rk1, bm 64, ko1 without ki1).
TEST(Methods, WgmmaTmaKiKoVariants) {
  const DeviceInfo d = fake_h200();
  int ki1 = 0, ko1 = 0;
  const std::vector<std::string> listed = list_method_configs();
  for (const std::string& c : listed) {
    if (c.rfind("wgmma_tma.", 0) != 0 || c.find(".wsl") != std::string::npos ||
        c.ends_with(".wmc1") || c.ends_with(".xsh1"))
      continue;  // wsl1 / wsl2, wmc1 (E87) and xsh1 (E99): their own tests below
    const std::size_t at = c.find(".ki");
    if (at == std::string::npos) {
      EXPECT_EQ(c.find(".ko"), std::string::npos) << c << ": ko1 only with ki1";
      continue;
    }
    const bool ko = c.ends_with(".ko1");
    (ko ? ko1 : ki1) += 1;
    EXPECT_EQ(c.substr(at, ko ? 8 : 4), ko ? ".ki1.ko1" : ".ki1") << c << ": ki1 (and ko1) are the last keys";
    EXPECT_EQ(at + (ko ? 8 : 4), c.size()) << c;
    const std::string base = c.substr(0, at);
    EXPECT_TRUE(base.ends_with(".rk1")) << c;
    EXPECT_EQ(base.find(".bm64."), std::string::npos) << c << ": not listed for the 64-token tile";
    EXPECT_NE(std::find(listed.begin(), listed.end(), base), listed.end()) << c << ": no listed base";
    EXPECT_EQ(method_applicability(builtin_spec("pooler"), c, 65, 128, d),
              method_applicability(builtin_spec("pooler"), base, 65, 128, d)) << c;
  }
  EXPECT_EQ(ki1, 9);  // the rk1 configs of bm 128 / 192 / 256
  EXPECT_EQ(ko1, 9);
  auto why = [](const char* name) { return wgmma_tma_refusal("pooler", name, 65, 128); };
  EXPECT_NE(why("wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red4.ki1").find("instantiated for rk1"), std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red5.ki1").find("instantiated for rk1"), std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red5.rk1.ki2").find("ki must be"), std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red5.rk1.ko1").find("ko1 needs ki1"), std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1").find("bm 128, 192, 256"), std::string::npos);
  EXPECT_EQ(why("wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red5.rk1.ki1.ko1"), "");
}

// W's k-block slabs (wsl1, E65) are listed as the last key of rk1 configs (with or without ki1, at
// every token tile) and of the wt1 config; each applies where its base does, and the host refuses
// the combinations that have no instantiation by name.
TEST(Methods, WgmmaTmaKSlabVariants) {
  const DeviceInfo d = fake_h200();
  int rk = 0, rk_ki = 0, wt = 0;
  const std::vector<std::string> listed = list_method_configs();
  for (const std::string& c : listed) {
    if (c.rfind("wgmma_tma.", 0) != 0) continue;
    const std::size_t at = c.find(".wsl1");
    if (at == std::string::npos || c.ends_with(".ls1")) continue;  // ls1 / wsl2 (E85): their own test
    EXPECT_EQ(at + 5, c.size()) << c << ": wsl1 is the last key";
    std::string base = c.substr(0, at);
    const bool ki = base.ends_with(".ki1");
    if (ki) base = base.substr(0, base.size() - 4);
    const bool table = base.ends_with(".wt1");
    EXPECT_TRUE(table || base.ends_with(".rk1")) << c << ": rk1 or wt1";
    EXPECT_FALSE(table && ki) << c << ": the work table gives the K ranges";
    (table ? wt : ki ? rk_ki : rk) += 1;
    EXPECT_NE(std::find(listed.begin(), listed.end(), base), listed.end()) << c << ": no listed base";
    expect_applies_as_base(c, base, {"qkv", "pooler", "unpooler"},
                           {std::pair{1, 8}, std::pair{9, 64}, std::pair{65, 128}, std::pair{129, 256}}, d);
  }
  EXPECT_EQ(rk, 8);
  EXPECT_EQ(rk_ki, 8);
  EXPECT_EQ(wt, 1);
  auto why = [](const char* name) { return wgmma_tma_refusal("pooler", name, 65, 128); };
  EXPECT_NE(why("wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red5.wsl1").find("rk1 and wt1 only"), std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red5.rk1.wsl3").find("wsl must be"), std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red5.rk1.ki1.ko1.wsl1").find("not instantiated with ko1"),
            std::string::npos);
  EXPECT_EQ(why("wgmma_tma.bn128.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl1"), "");
}

// E85's variants of the small-M slab configs (bm64.split4 / split2 .rk1.ki1): the lean start
// (.wsl1.ls1), the pre-swizzled slabs by bulk copy (.wsl2) and both (.wsl2.ls1), six configs, each
// applicable where its ki1.wsl1 base is; ls1 and wsl2 are refused by name off rk1.ki1 at bm 64 or
// without the slabs, and out-of-range values are named.
TEST(Methods, WgmmaTmaLeanStartBulkSlabVariants) {
  const DeviceInfo d = fake_h200();
  int n = 0;
  const std::vector<std::string> listed = list_method_configs();
  for (const std::string& c : listed) {
    if (c.rfind("wgmma_tma.", 0) != 0 || (!c.ends_with(".ls1") && !c.ends_with(".wsl2"))) continue;
    ++n;
    const std::size_t at = c.find(".wsl");
    ASSERT_NE(at, std::string::npos) << c;
    const std::string base = c.substr(0, at) + ".wsl1";
    EXPECT_TRUE(base.ends_with(".bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl1") ||
                base.ends_with(".bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl1") ||
                base.ends_with(".bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1.wsl1"))  // E89c: wsl2.ls1 only
        << c;
    EXPECT_NE(std::find(listed.begin(), listed.end(), base), listed.end()) << c << ": no listed base";
    expect_applies_as_base(c, base, {"qkv", "pooler", "unpooler"},
                           {std::pair{1, 8}, std::pair{9, 64}, std::pair{65, 128}}, d);
  }
  EXPECT_EQ(n, 7);
  auto why = [](const char* name) { return wgmma_tma_refusal("pooler", name, 9, 64); };
  const std::string inst = "instantiated for rk1.ki1 at bm 64 with W's slabs";
  EXPECT_NE(why("wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red5.rk1.ki1.wsl2").find(inst), std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red5.rk1.ki1.wsl1.ls1").find(inst), std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm192.split4.mc1.stages5.xfit1.red5.rk1.ki1.wsl2.ls1").find(inst), std::string::npos);
  // E89c: bm 128 has wsl2.ls1 (qkv M 65..83 on the same pre-swizzled slab copy as M 2..64)
  EXPECT_EQ(why("wgmma_tma.bn128.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1.wsl2.ls1"), "");
  EXPECT_NE(why("wgmma_tma.bn128.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.ls1").find(inst), std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm64.split2.mc1.stages8.xfit1.red5.rk1.wsl2").find(inst), std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl1.ls2").find("ls must be 0 or 1"),
            std::string::npos);
  EXPECT_EQ(why("wgmma_tma.bn128.bm64.split2.mc1.stages8.xfit1.red5.rk1.ki1.wsl2.ls1"), "");
  // the copy-free twin (weight_copies = false) drops the slabs and the lean start
  EXPECT_EQ(copy_free_method(builtin_spec("qkv"), "wgmma_tma.bn128.bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl2.ls1",
                             2, 64, d),
            "wgmma_tma.bn128.bm64.split4.mc1.stages8.xfit1.red5.rk1");
  EXPECT_EQ(copy_free_method(builtin_spec("qkv"), "wgmma_tma.bn128.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1.wsl2.ls1",
                             65, 83, d),
            "wgmma_tma.bn128.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1");
}

// E87's W multicast pairs over the two token tiles (wmc1, red5.rk1.ki1 at bm 64 / 128, splits 1..3):
// six configs, applicable wherever the red5 grid with its token tiles padded to pairs (N tiles x
// split x 2 * ceil(tiles / 2)) is resident at every m of the range; refused by name off rk1.ki1 /
// mc1 / bm <= 128.
TEST(Methods, WgmmaTmaWMulticastPairs) {
  const DeviceInfo d = fake_h200();
  int n = 0;
  for (const std::string& c : list_method_configs()) {
    if (c.rfind("wgmma_tma.", 0) != 0 || !c.ends_with(".wmc1")) continue;
    ++n;
    EXPECT_NE(c.find(".red5.rk1.ki1.wmc1"), std::string::npos) << c;
    const int bm = c.find(".bm64.") != std::string::npos ? 64 : 128;
    const int split = c[c.find(".split") + 6] - '0';
    for (const char* fam : {"qkv", "o", "pooler", "unpooler"}) {
      const ProjectionSpec s = builtin_spec(fam);
      for (auto [lo, hi] : {std::pair{1, bm}, std::pair{bm + 1, 2 * bm}, std::pair{bm + 1, std::min(3 * bm, 256)}}) {
        const int64_t pairs = ((hi + bm - 1) / bm + 1) / 2;
        const bool fits = (s.out_cols(hi) / 128) * split * 2 * pairs <= d.sm_count;
        EXPECT_EQ(method_applicability(s, c, lo, hi, d).empty(), fits) << c << " " << fam << " " << lo << ".." << hi;
      }
    }
  }
  EXPECT_EQ(n, 6);
  auto why = [](const char* name) { return wgmma_tma_refusal("pooler", name, 129, 256); };
  const std::string inst = "wmc1 is instantiated for red5.rk1.ki1";
  EXPECT_NE(why("wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red5.rk1.wmc1").find(inst), std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red4.ki1.wmc1").find(inst), std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm192.split2.mc1.stages5.xfit1.red5.rk1.ki1.wmc1").find(inst), std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red5.rk1.ki1.wmc2").find("wmc must be"),
            std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm128.split3.mc1.stages6.xfit1.red5.rk1.ki1.wmc1").find("exceeds the 132 SMs"),
            std::string::npos);
  EXPECT_EQ(why("wgmma_tma.bn128.bm128.split2.mc1.stages6.xfit1.red5.rk1.ki1.wmc1"), "");
  // E86's x multicast pair (red5 with mc2) was removed: refused by name
  EXPECT_NE(why("wgmma_tma.bn128.bm256.split4.mc2.stages4.xfit1.red5.rk1.ki1").find("red5 needs mc = 1"),
            std::string::npos);
}

// splitk_mma_l2's two warps per slab (wk2, E80) are compiled for rows 64 only: the listed wk2
// configs apply to o wherever their wk1 twins do, and another rows or wk value is refused by name.
TEST(Methods, SplitkMmaL2TwoWarpsPerSlab) {
  const DeviceInfo d = fake_h200();
  const ProjectionSpec o = builtin_spec("o");
  for (const char* c : {"splitk_mma_l2.rows64.split1.wk2", "splitk_mma_l2.rows64.split1.stages8.wk2"}) {
    const std::string twin = std::string(c).substr(0, std::string(c).size() - 4);  // without ".wk2"
    for (auto [lo, hi] : {std::pair{1, 8}, std::pair{9, 16}, std::pair{17, 32}, std::pair{33, 64}})
      EXPECT_EQ(method_applicability(o, c, lo, hi, d), method_applicability(o, twin, lo, hi, d)) << c << " " << lo;
    EXPECT_EQ(method_applicability(o, c, 9, 16, d), "") << c;
  }
  const KernelFamily* fam = find_kernel_family("splitk_mma_l2");
  ASSERT_NE(fam, nullptr);
  for (const char* bad : {"splitk_mma_l2.rows128.split1.wk2", "splitk_mma_l2.rows64.split1.wk3"})
    EXPECT_NE(fam->applicable(o, Config::parse(bad), 9, 16, d).find("wk must be 1, or 2 with rows 64"), std::string::npos)
        << bad;
}

// A Projection with weight_copies = false runs each wsl1 method as its copy-free twin: without
// wsl1, and without ki1 too where ki1 alone has no instantiation (the 64-token tile); methods
// that keep no copy pass through unchanged.
TEST(Methods, CopyFreeTwinsOfKSlabMethods) {
  const DeviceInfo d = fake_h200();
  const std::string p = "wgmma_tma.bn128.";
  EXPECT_EQ(copy_free_method(builtin_spec("qkv"), p + "bm64.split4.mc1.stages8.xfit1.red5.rk1.ki1.wsl1", 2, 64, d),
            p + "bm64.split4.mc1.stages8.xfit1.red5.rk1");
  EXPECT_EQ(copy_free_method(builtin_spec("qkv"), p + "bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1.wsl1", 65, 128, d),
            p + "bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1");
  EXPECT_EQ(copy_free_method(builtin_spec("pooler"), p + "bm64.split2.mc1.stages8.xfit1.red5.wt1.wsl1", 6, 32, d),
            p + "bm64.split2.mc1.stages8.xfit1.red5.wt1");
  // fragment_stream_zw's packed rows (E95): the slice's earlier stream over W in place where the plan
  // runs it (unpooler M 3..8); the baseline where that does not apply (kperm_splitk_zw is bf16 only)
  EXPECT_EQ(copy_free_method(builtin_spec("unpooler"), "fragment_stream_zw.kw16.wn4", 3, 8, d),
            "kperm_splitk_zw.wr4.wk2.u8");
  EXPECT_EQ(copy_free_method(builtin_spec("router"), "fragment_stream_zw.kw16.wn4", 1, 8, d), "baseline");
  for (const char* keep : {"gemv_stream.rows2.warps8", "wgmma_tma.bn128.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1",
                           "baseline", "not a config"})
    EXPECT_EQ(copy_free_method(builtin_spec("pooler"), keep, 65, 128, d), keep);
  // every listed wsl1 config has a copy-free twin that applies wherever it does
  for (const std::string& c : list_method_configs())
    if (c.find(".wsl") != std::string::npos)
      for (const char* fam : {"qkv", "pooler", "unpooler"})
        for (auto [lo, hi] : {std::pair{2, 64}, std::pair{65, 128}})
          if (method_applicability(builtin_spec(fam), c, lo, hi, d).empty())
            EXPECT_EQ(method_applicability(builtin_spec(fam), copy_free_method(builtin_spec(fam), c, lo, hi, d), lo, hi, d),
                      "")
                << c << " " << fam << " " << lo << ".." << hi;
}

// kperm_stream_mma (no split across CTAs, register accumulators for <= 32 tokens) names each
// violated limit: token count, whole chunk rounds per warp (o's K = 1024 is too short for
// 16 warps x 8 chunks of 32), row tiles of the output (the unpooler's 1024-row slice at M <= 8).
TEST(Methods, KpermStreamMmaLimits) {
  const DeviceInfo d = fake_h200();
  const std::string deep = "kperm_stream_mma.rt1.wr1.wk16.u8", wide = "kperm_stream_mma.rt4.wr1.wk8.u2";
  for (const char* f : {"qkv", "pooler", "unpooler"}) EXPECT_EQ(method_applicability(builtin_spec(f), deep, 1, 32, d), "") << f;
  EXPECT_NE(method_applicability(builtin_spec("qkv"), deep, 1, 33, d).find("m must be in 1..32"), std::string::npos);
  EXPECT_NE(method_applicability(builtin_spec("o"), deep, 1, 8, d).find("K % (32 * wk * u)"), std::string::npos);
  EXPECT_EQ(method_applicability(builtin_spec("o"), wide, 1, 32, d), "");
  EXPECT_NE(method_applicability(builtin_spec("qkv"), "kperm_stream_mma.rt3.wr1.wk8.u2", 1, 8, d).find("not"),
            std::string::npos);
  for (const std::string& c : list_method_configs())
    if (c.rfind("kperm_stream_mma.", 0) == 0)
      EXPECT_EQ(method_applicability(builtin_spec("unpooler"), c, 1, 32, d), "") << c;
}

// kperm_splitk_zw (K split over a one-wave cooperative grid of two CTAs per SM, bf16 adds) names
// each violated limit: the token tile (16), the split that must exist (2, 4 or 8 K splits of whole
// load rounds whose grid fits 2 x sm_count: the unpooler's full 8192 rows at M 9 and qkv's 288
// row blocks of 8 do not), bf16 only, sm_90 only, listed shapes only. Every listed config takes
// the unpooler's 1024-row slice (M <= 8), the range it exists for (ledger E72).
TEST(Methods, KpermSplitkZwLimits) {
  const DeviceInfo d = fake_h200();
  const std::string wide = "kperm_splitk_zw.wr4.wk2.u8", narrow = "kperm_splitk_zw.wr1.wk8.u8";
  int listed = 0;
  for (const std::string& c : list_method_configs())
    if (c.rfind("kperm_splitk_zw.", 0) == 0) {
      ++listed;
      EXPECT_EQ(method_applicability(builtin_spec("unpooler"), c, 1, 8, d), "") << c;
    }
  EXPECT_EQ(listed, 5);
  EXPECT_EQ(method_applicability(builtin_spec("o"), "kperm_splitk_zw.wr8.wk1.u8", 1, 16, d), "");
  EXPECT_NE(method_applicability(builtin_spec("unpooler"), wide, 1, 9, d).find("no K split"), std::string::npos);
  EXPECT_EQ(method_applicability(builtin_spec("qkv"), wide, 1, 16, d), "");
  EXPECT_EQ(method_applicability(builtin_spec("pooler"), wide, 1, 16, d), "");
  EXPECT_NE(method_applicability(builtin_spec("qkv"), narrow, 1, 8, d).find("no K split"), std::string::npos);
  EXPECT_NE(method_applicability(builtin_spec("o"), wide, 1, 1, d).find("no K split"), std::string::npos);
  EXPECT_NE(method_applicability(builtin_spec("qkv"), wide, 1, 17, d).find("m must be in 1..16"), std::string::npos);
  EXPECT_NE(method_applicability(builtin_spec("router"), wide, 1, 1, d).find("bf16"), std::string::npos);
  EXPECT_NE(method_applicability(builtin_spec("qkv"), "kperm_splitk_zw.wr3.wk2.u8", 1, 1, d).find("not one of the configs"),
            std::string::npos);
  DeviceInfo ampere = d;
  ampere.cc_major = 8;
  EXPECT_NE(method_applicability(builtin_spec("unpooler"), wide, 1, 8, ampere).find("sm_90"), std::string::npos);
}

// fragment_stream_zw (a packed copy of the returned rows streamed into registers, K split over a
// one-wave cooperative grid, bf16 adds; E95) names each violated limit: the 16-token cap, at most 8
// K splits (qkv / pooler's K = 8192 at kw16.wn4's BK 512 would be 16), a grid of one wave (the unpooler's
// full 8192 rows at M 9), bf16 only, sm_90 only, listed tiles only. Every listed tile takes the
// unpooler's 1024-row slice (M <= 8), the range it exists for.
TEST(Methods, FragmentStreamZwLimits) {
  const DeviceInfo d = fake_h200();
  const std::string t = "fragment_stream_zw.kw16.wn2", eight = "fragment_stream_zw.kw16.wn4";
  int listed = 0;
  for (const std::string& c : list_method_configs())
    if (c.rfind("fragment_stream_zw.", 0) == 0) {
      ++listed;
      EXPECT_EQ(method_applicability(builtin_spec("unpooler"), c, 1, 8, d), "") << c;
    }
  EXPECT_EQ(listed, 2);
  EXPECT_NE(method_applicability(builtin_spec("unpooler"), t, 1, 9, d).find("exceeds one wave"), std::string::npos);
  EXPECT_NE(method_applicability(builtin_spec("pooler"), eight, 1, 1, d).find("> 8 bf16 adds"), std::string::npos);
  EXPECT_NE(method_applicability(builtin_spec("unpooler"), t, 17, 17, d).find("m must be in 1..16"), std::string::npos);
  EXPECT_NE(method_applicability(builtin_spec("router"), t, 1, 1, d).find("bf16"), std::string::npos);
  EXPECT_NE(method_applicability(builtin_spec("unpooler"), "fragment_stream_zw.kw8.wn2", 1, 1, d).find("not one of the configs"),
            std::string::npos);
  DeviceInfo ampere = d;
  ampere.cc_major = 8;
  EXPECT_NE(method_applicability(builtin_spec("unpooler"), t, 1, 8, ampere).find("sm_90"), std::string::npos);
}

// gemv_stream rows4.warps8 (E51: a block's whole 32 KB of W in flight; the plan's unpooler
// slice at M 1..2) is a compiled, listed config for every bf16 family at M 1..8, refused past
// the 8 register accumulators and for the fp32 router, and an uncompiled pair is refused by name.
TEST(Methods, GemvStreamRows4Warps8) {
  const DeviceInfo d = fake_h200();
  const std::string c = "gemv_stream.rows4.warps8";
  for (const char* f : {"qkv", "o", "pooler", "unpooler"}) EXPECT_EQ(method_applicability(builtin_spec(f), c, 1, 8, d), "") << f;
  EXPECT_NE(method_applicability(builtin_spec("unpooler"), c, 1, 9, d).find("m must be in 1..8"), std::string::npos);
  EXPECT_NE(method_applicability(builtin_spec("router"), c, 1, 1, d).find("bf16"), std::string::npos);
  EXPECT_NE(method_applicability(builtin_spec("unpooler"), "gemv_stream.rows4.warps16", 1, 1, d), "");
}

// gemv_stream eq1 (E67: equal rounds, a grid choice) and mb4 (E69: registers capped for 4 blocks
// per SM) are listed for rows2.warps8; eq1 applies where its base does, mb4 at M = 1 only (it
// spills from M = 2); other values of either key, or either on an unlisted shape, are refused.
TEST(Methods, GemvStreamEqualRoundsAndResidency) {
  const DeviceInfo d = fake_h200();
  for (const char* f : {"qkv", "pooler", "unpooler"}) {
    EXPECT_EQ(method_applicability(builtin_spec(f), "gemv_stream.rows2.warps8.eq1", 1, 8, d), "") << f;
    for (const char* c : {"gemv_stream.rows2.warps8.mb4", "gemv_stream.rows2.warps8.eq1.mb4"}) {
      EXPECT_EQ(method_applicability(builtin_spec(f), c, 1, 1, d), "") << c;
      EXPECT_NE(method_applicability(builtin_spec(f), c, 1, 2, d).find("mb4 is for m = 1"), std::string::npos) << c;
    }
  }
  for (const char* c : {"gemv_stream.rows4.warps8.eq1", "gemv_stream.rows2.warps8.eq2", "gemv_stream.rows4.warps8.mb4",
                        "gemv_stream.rows2.warps8.mb3"})
    EXPECT_NE(method_applicability(builtin_spec("qkv"), c, 1, 1, d).find("not one of the configs"), std::string::npos)
        << c;
}

// gemv_stream lp1 (E90: the lean prologue) is listed on rows4.warps8, rows2.warps8 and
// rows2.warps8.eq1.mb4; it needs whole batches (K / 8 a multiple of threads x unroll), so the
// 1024-chunk batch of rows2.warps8 refuses the unpooler's K = 4096 by name, and other values of
// the key or other shapes are refused.
TEST(Methods, GemvStreamLeanPrologue) {
  const DeviceInfo d = fake_h200();
  for (const char* f : {"qkv", "pooler", "unpooler"})
    EXPECT_EQ(method_applicability(builtin_spec(f), "gemv_stream.rows4.warps8.lp1", 1, 8, d), "") << f;
  for (const char* f : {"qkv", "pooler"}) {
    EXPECT_EQ(method_applicability(builtin_spec(f), "gemv_stream.rows2.warps8.lp1", 1, 8, d), "") << f;
    EXPECT_EQ(method_applicability(builtin_spec(f), "gemv_stream.rows2.warps8.eq1.mb4.lp1", 1, 1, d), "") << f;
  }
  EXPECT_NE(method_applicability(builtin_spec("unpooler"), "gemv_stream.rows2.warps8.lp1", 1, 1, d).find("whole batches"),
            std::string::npos);
  EXPECT_NE(method_applicability(builtin_spec("o"), "gemv_stream.rows4.warps8.lp1", 1, 1, d).find("whole batches"),
            std::string::npos);
  EXPECT_NE(method_applicability(builtin_spec("qkv"), "gemv_stream.rows2.warps8.eq1.mb4.lp1", 1, 2, d).find("mb4"),
            std::string::npos);
  for (const char* c : {"gemv_stream.rows4.warps8.lp2", "gemv_stream.rows8.warps4.lp1", "gemv_stream.rows2.warps8.mb4.lp1"})
    EXPECT_NE(method_applicability(builtin_spec("qkv"), c, 1, 1, d).find("not one of the configs"), std::string::npos)
        << c;
}

// splitk_mma_l2 lp1 (E90: the lean prologue) is listed on the plan's three o configs; it needs
// split 1 (its K slice is all of K) and the rows-64 kernels it is compiled for.
TEST(Methods, SplitkMmaL2LeanPrologue) {
  const DeviceInfo d = fake_h200();
  for (const char* c : {"splitk_mma_l2.rows64.split1.lp1", "splitk_mma_l2.rows64.split1.wk2.lp1",
                        "splitk_mma_l2.rows64.split1.stages8.lp1"})
    EXPECT_EQ(method_applicability(builtin_spec("o"), c, 1, 32, d), "") << c;
  EXPECT_NE(method_applicability(builtin_spec("o"), "splitk_mma_l2.rows64.split2.lp1", 1, 8, d), "");
  for (const char* c : {"splitk_mma_l2.rows64.split1.lp2", "splitk_mma_l2.rows128.split1.lp1"})
    EXPECT_NE(method_applicability(builtin_spec("o"), c, 1, 8, d), "") << c;
}

// router_hilo_ring lf (E101: the first k-blocks of the multicast ring's fill loaded locally) is
// listed on wmc1.early1 only, applicable over the ring's M range; other lf values are refused; and
// lf1's lean start (ls1, E102) likewise.
TEST(Methods, RouterRingLocalFirstBlocks) {
  const DeviceInfo d = fake_h200();
  const ProjectionSpec& r = builtin_spec("router");
  for (const char* c : {"router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1",
                        "router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf2"})
    EXPECT_EQ(method_applicability(r, c, 65, 256, d), "") << c;
  EXPECT_NE(method_applicability(r, "router_hilo_ring.split16.wgn1.ts2.zw1.early1.lf1", 65, 256, d)
                .find("not one of the configs"),
            std::string::npos);
  const KernelFamily* ring = find_kernel_family("router_hilo_ring");
  ASSERT_NE(ring, nullptr);
  EXPECT_NE(ring->applicable(r, Config::parse("router_hilo_ring.split16.wgn1.ts2.zw1.early1.lf1"), 65, 256, d)
                .find("needs wmc1 and early1"),
            std::string::npos);
  EXPECT_NE(ring->applicable(r, Config::parse("router_hilo_ring.split16.wgn1.ts2.zw1.wmc1.lf1"), 65, 256, d)
                .find("needs wmc1 and early1"),
            std::string::npos);
  EXPECT_NE(ring->applicable(r, Config::parse("router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf3"), 65, 256, d)
                .find("lf must be 0, 1 or 2"),
            std::string::npos);
  // E102: lf1's lean start (ls1) applies over the router's whole M range, like lf1; refused by name
  // without lf1 or with another value (E103's ls2 was refuted and removed)
  EXPECT_EQ(method_applicability(r, "router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1.ls1", 1, 256, d), "");
  for (const char* bad : {"router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.ls1",
                          "router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf2.ls1",
                          "router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1.lf1.ls2"})
    EXPECT_NE(ring->applicable(r, Config::parse(bad), 65, 256, d).find("ls must be 0, or 1 with lf1"),
              std::string::npos)
        << bad;
}

// router_hilo_stream's lean x loader (E93, config key xl): listed on the plan's two tiles only,
// applicable over their whole M range; the refuted bulk loaders (xl2, xl3) are not listed.
TEST(Methods, RouterStreamXLoaders) {
  const DeviceInfo d = fake_h200();
  const ProjectionSpec& r = builtin_spec("router");
  for (const char* c : {"router_hilo_stream.kw8.wn2.zw1.xl1", "router_hilo_stream.kw8.wn4.zw1.xl1"})
    EXPECT_EQ(method_applicability(r, c, 1, 256, d), "") << c;
  for (const char* c : {"router_hilo_stream.kw8.wn2.zw1.xl2", "router_hilo_stream.kw8.wn4.zw1.xl3",
                        "router_hilo_stream.kw8.wn1.zw1.xl1"})
    EXPECT_NE(method_applicability(r, c, 1, 8, d), "") << c;
  EXPECT_NE(method_applicability(builtin_spec("qkv"), "router_hilo_stream.kw8.wn2.zw1.xl1", 1, 8, d), "");
}

// router_hilo_ring's early1 (E48: the first ring fill issued by thread 0 right after the mbarrier
// init) is a listed config like zw1, applicable where the plan uses it (router M 65..256 on an
// H200); an unlisted value of the key (early2: E53, refuted) is refused by name, and the kernel
// stays router-only.
TEST(Methods, RouterRingEarlyFillConfig) {
  const DeviceInfo d = fake_h200();
  const std::string early = "router_hilo_ring.split16.wgn1.ts2.zw1.early1";
  EXPECT_EQ(method_applicability(builtin_spec("router"), early, 65, 256, d), "");
  EXPECT_NE(method_applicability(builtin_spec("router"), "router_hilo_ring.split16.wgn1.ts2.zw1.early2", 65, 256, d)
                .find("not one of the configs"),
            std::string::npos);
  EXPECT_NE(method_applicability(builtin_spec("qkv"), early, 65, 256, d).find("fp32 weights"), std::string::npos);
  DeviceInfo ampere = d;
  ampere.cc_major = 8;
  EXPECT_NE(method_applicability(builtin_spec("router"), early, 65, 256, ampere), "");
}

// E99's shifted x box (xsh1) is listed as the last key of three W pair configs; each applies
// exactly where its wmc1 base does, and the host refuses xsh1 without wmc1, or any other value, by name.
TEST(Methods, WgmmaTmaShiftedXBoxVariants) {
  const DeviceInfo d = fake_h200();
  const std::vector<std::string> listed = list_method_configs();
  int n = 0;
  for (const std::string& c : listed) {
    if (c.rfind("wgmma_tma.", 0) != 0 || c.find(".xsh") == std::string::npos) continue;
    ++n;
    ASSERT_TRUE(c.ends_with(".wmc1.xsh1")) << c << ": xsh1 is the last key, after wmc1";
    const std::string base = c.substr(0, c.size() - 5);
    EXPECT_NE(std::find(listed.begin(), listed.end(), base), listed.end()) << c << ": no listed base";
    expect_applies_as_base(c, base, {"qkv", "pooler", "unpooler", "o"},
                           {std::pair{1, 64}, std::pair{65, 128}, std::pair{129, 256}, std::pair{193, 223}}, d);
  }
  EXPECT_EQ(n, 3);
  auto why = [](const char* name) { return wgmma_tma_refusal("unpooler", name, 193, 223); };
  const std::string rule = "xsh must be 0, or 1 with wmc1";
  EXPECT_NE(wgmma_tma_refusal("pooler", "wgmma_tma.bn128.bm128.split4.mc1.stages6.xfit1.red5.rk1.ki1.xsh1", 65, 128)
                .find(rule),
            std::string::npos);
  EXPECT_NE(why("wgmma_tma.bn128.bm128.split1.mc1.stages6.xfit1.red5.rk1.ki1.wmc1.xsh2").find(rule), std::string::npos);
  EXPECT_EQ(why("wgmma_tma.bn128.bm128.split1.mc1.stages6.xfit1.red5.rk1.ki1.wmc1.xsh1"), "");
}

// router_hilo_ring's wmc1 (E83: the two token slices of a K split share W by multicast, clusters
// of 2 along z) is listed on zw1.early1 and applicable over the router's whole M range on an H200
// (an empty second slice at m = 1 still streams its half of W); the family's own rule refuses it
// by name without two token slices or without the zero warps, and an unlisted wmc value.
TEST(Methods, RouterRingWMulticastConfig) {
  const DeviceInfo d = fake_h200();
  const std::string wmc = "router_hilo_ring.split16.wgn1.ts2.zw1.early1.wmc1";
  EXPECT_EQ(method_applicability(builtin_spec("router"), wmc, 1, 256, d), "");
  EXPECT_NE(method_applicability(builtin_spec("qkv"), wmc, 65, 256, d).find("fp32 weights"), std::string::npos);
  const KernelFamily* fam = find_kernel_family("router_hilo_ring");
  ASSERT_NE(fam, nullptr);
  const ProjectionSpec& router = builtin_spec("router");
  for (const char* bad : {"router_hilo_ring.split16.wgn1.ts3.zw1.wmc1", "router_hilo_ring.split16.wgn1.ts2.wmc1",
                          "router_hilo_ring.split16.wgn1.ts1.zw1.wmc1"})
    EXPECT_NE(fam->applicable(router, Config::parse(bad), 65, 256, d).find("wmc1 (W multicast over the token "
                                                                           "slices) needs ts = 2 or 4 and zw = 1"),
              std::string::npos)
        << bad;
  // E109: wmc1 over four token slices (two pairs) is the lean-start kernel only, listed at split 8
  EXPECT_EQ(method_applicability(router, "router_hilo_ring.split8.wgn1.ts4.zw1.early1.wmc1.lf1.ls1", 1, 256, d), "");
  for (const char* bad : {"router_hilo_ring.split8.wgn1.ts4.zw1.early1.wmc1", "router_hilo_ring.split8.wgn1.ts4.zw1.early1.wmc1.lf1"})
    EXPECT_NE(fam->applicable(router, Config::parse(bad), 65, 256, d).find("wmc1 over four token slices (E109) needs lf1 and ls1"),
              std::string::npos)
        << bad;
  EXPECT_NE(fam->applicable(router, Config::parse("router_hilo_ring.split16.wgn1.ts2.zw1.wmc2"), 65, 256, d)
                .find("wmc must be 0 or 1"),
            std::string::npos);
}
