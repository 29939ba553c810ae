// The C ABI without a GPU: every failure returns a code and a message; the family and plan-file
// lookups need no device.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "projkit/projkit.h"
#include "projkit/projkit.hpp"

TEST(CAbi, NullArgumentsAreRejectedWithMessages) {
  EXPECT_EQ(pk_projection_create(nullptr, "qkv", nullptr, nullptr, nullptr, 256, 0), PK_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(pk_last_error(), "out is null"), nullptr);
  pkProjection* p = reinterpret_cast<pkProjection*>(0x1);
  EXPECT_EQ(pk_projection_create(&p, nullptr, nullptr, nullptr, nullptr, 256, 0), PK_INVALID_ARGUMENT);
  EXPECT_EQ(p, nullptr);
  EXPECT_NE(std::strstr(pk_last_error(), "family is null"), nullptr);
  EXPECT_EQ(pk_projection_run(nullptr, nullptr, 1, nullptr, nullptr), PK_INVALID_ARGUMENT);
  EXPECT_EQ(pk_projection_shape(nullptr, 1, nullptr, nullptr, nullptr), PK_INVALID_ARGUMENT);
  char buf[8];
  EXPECT_EQ(pk_projection_method(nullptr, 1, buf, sizeof buf), PK_INVALID_ARGUMENT);
  EXPECT_EQ(pk_projection_destroy(nullptr), PK_OK);
}

TEST(CAbi, UnknownFamilyAndNullWeightsAreNamed) {
  pkProjection* p = nullptr;
  EXPECT_EQ(pk_projection_create(&p, "mlp", reinterpret_cast<void*>(16), nullptr, nullptr, 256, 0),
            PK_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(pk_last_error(), "mlp"), nullptr);
  EXPECT_EQ(pk_projection_create(&p, "qkv", nullptr, "safe", nullptr, 256, 0), PK_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(pk_last_error(), "null"), nullptr);
  EXPECT_EQ(pk_projection_create(&p, "qkv", reinterpret_cast<void*>(18), "safe", nullptr, 256, 0),
            PK_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(pk_last_error(), "16-byte"), nullptr);
  EXPECT_EQ(pk_projection_create(&p, "qkv", reinterpret_cast<void*>(16), "safe", nullptr, 0, 0), PK_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(pk_last_error(), "max_m"), nullptr);
  EXPECT_EQ(p, nullptr);
}

TEST(CAbi, UnknownFlagBitsAreNamed) {
  pkProjection* p = nullptr;
  EXPECT_EQ(pk_projection_create(&p, "qkv", reinterpret_cast<void*>(16), "safe", nullptr, 256, 4), PK_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(pk_last_error(), "unknown bits in flags 4"), nullptr);
  EXPECT_EQ(p, nullptr);
  // the known bits pass the flag check and fail later, on the weights pointer (no GPU here)
  EXPECT_EQ(pk_projection_create(&p, "qkv", nullptr, "safe", nullptr, 256, PK_STRICT_PLAN | PK_NO_WEIGHT_COPIES),
            PK_INVALID_ARGUMENT);
  EXPECT_EQ(std::strstr(pk_last_error(), "flags"), nullptr);
}

TEST(CAbi, StatusStrings) {
  EXPECT_STREQ(pk_status_string(PK_OK), "ok");
  EXPECT_STREQ(pk_status_string(PK_PLAN_MISMATCH), "plan_mismatch");
  EXPECT_STREQ(pk_version(), "0.1.0");
}

TEST(CAbi, FamilyInfoDescribesEachBuiltinFamilyWithoutADevice) {
  pkFamilyInfo f{};
  ASSERT_EQ(pk_family_info("qkv", &f), PK_OK);
  EXPECT_EQ(f.n, 2304);
  EXPECT_EQ(f.k, 8192);
  EXPECT_EQ(f.weight_dtype, PK_DTYPE_BF16);
  EXPECT_EQ(f.out_dtype, PK_DTYPE_BF16);
  EXPECT_EQ(f.slice_max_m, 0);
  ASSERT_EQ(pk_family_info("unpooler", &f), PK_OK);
  EXPECT_EQ(f.n, 8192);
  EXPECT_EQ(f.k, 4096);
  EXPECT_EQ(f.slice_max_m, 8);
  EXPECT_EQ(f.slice_rows, 1024);
  ASSERT_EQ(pk_family_info("router", &f), PK_OK);
  EXPECT_EQ(f.n, 256);
  EXPECT_EQ(f.weight_dtype, PK_DTYPE_F32);
  EXPECT_EQ(f.out_dtype, PK_DTYPE_F32);
  // Every built-in family agrees with the C++ spec it describes.
  for (const projkit::ProjectionSpec& s : projkit::builtin_specs()) {
    ASSERT_EQ(pk_family_info(s.name.c_str(), &f), PK_OK) << s.name;
    EXPECT_EQ(f.n, s.n) << s.name;
    EXPECT_EQ(f.k, s.k) << s.name;
    EXPECT_EQ(f.weight_dtype, s.weight_dtype == projkit::DType::f32 ? PK_DTYPE_F32 : PK_DTYPE_BF16) << s.name;
    EXPECT_EQ(f.out_dtype, s.out_dtype == projkit::DType::f32 ? PK_DTYPE_F32 : PK_DTYPE_BF16) << s.name;
    EXPECT_EQ(f.slice_max_m, s.slice_max_m) << s.name;
    EXPECT_EQ(f.slice_rows, s.slice_rows) << s.name;
  }
  EXPECT_EQ(pk_family_info("mlp", &f), PK_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(pk_last_error(), "mlp"), nullptr);
  EXPECT_EQ(pk_family_info(nullptr, &f), PK_INVALID_ARGUMENT);
  EXPECT_EQ(pk_family_info("qkv", nullptr), PK_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(pk_last_error(), "out is null"), nullptr);
}

TEST(CAbi, FamilyNamesListTheBuiltinFamiliesInOrder) {
  // The test's own list, not the library's: a family dropped or renamed must fail here.
  const char* expect[] = {"qkv", "o", "pooler", "unpooler", "router"};
  ASSERT_EQ(pk_family_count(), 5);
  for (int i = 0; i < pk_family_count(); ++i) {
    const char* name = pk_family_name(i);
    ASSERT_NE(name, nullptr) << i;
    EXPECT_STREQ(name, expect[i]);
    EXPECT_STREQ(pk_last_error(), "") << i;
    pkFamilyInfo f{};
    EXPECT_EQ(pk_family_info(name, &f), PK_OK) << name;  // each listed name is accepted
  }
  EXPECT_EQ(pk_family_name(5), nullptr);
  EXPECT_NE(std::strstr(pk_last_error(), "index 5 is outside [0, 5)"), nullptr) << pk_last_error();
  EXPECT_EQ(pk_family_name(-1), nullptr);
  EXPECT_NE(std::strstr(pk_last_error(), "index -1"), nullptr) << pk_last_error();
}

// pk_plan_file finds a device's plan as a projection would, with no device: PROJKIT_PLAN_DIR first,
// and the shipped files (here next to this executable or the source tree) otherwise.
TEST(CAbi, PlanFileIsFoundByDeviceNameWithoutADevice) {
  char buf[4096];
  ASSERT_EQ(pk_plan_file("NVIDIA H200", nullptr, buf, sizeof buf), PK_OK) << pk_last_error();
  EXPECT_TRUE(std::string(buf).ends_with("/h200.json")) << buf;
  ASSERT_EQ(pk_plan_file("NVIDIA H100 80GB HBM3", "serving", buf, sizeof buf), PK_OK) << pk_last_error();
  EXPECT_TRUE(std::string(buf).ends_with("/serving/h100-80gb-hbm3.json")) << buf;
  // No plan for this name: PK_PLAN_MISMATCH, an empty buffer, and the error names the file looked for.
  EXPECT_EQ(pk_plan_file("NVIDIA B200", nullptr, buf, sizeof buf), PK_PLAN_MISMATCH);
  EXPECT_STREQ(buf, "");
  EXPECT_NE(std::string(pk_last_error()).find("'b200.json'"), std::string::npos) << pk_last_error();
  for (const std::string& d : projkit::Plan::search_dirs())  // and where it looked
    EXPECT_NE(std::string(pk_last_error()).find(d), std::string::npos) << d << " not in: " << pk_last_error();
  EXPECT_EQ(pk_plan_file("NVIDIA H200", "nightly", buf, sizeof buf), PK_INVALID_ARGUMENT);
  EXPECT_NE(std::string(pk_last_error()).find("plan set 'nightly' is unknown"), std::string::npos) << pk_last_error();
  EXPECT_EQ(pk_plan_file(nullptr, nullptr, buf, sizeof buf), PK_INVALID_ARGUMENT);
  EXPECT_NE(std::string(pk_last_error()).find("device_name is null"), std::string::npos);
  char small[4];
  EXPECT_EQ(pk_plan_file("NVIDIA H200", nullptr, small, sizeof small), PK_INVALID_ARGUMENT);
  EXPECT_NE(std::string(pk_last_error()).find("buffer too small"), std::string::npos) << pk_last_error();
  EXPECT_EQ(pk_plan_file("NVIDIA H200", nullptr, nullptr, 0), PK_INVALID_ARGUMENT);
  // $PROJKIT_PLAN_DIR comes first.
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("pk_plan_dir_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "h200.json") << "{}";
  ASSERT_EQ(setenv("PROJKIT_PLAN_DIR", dir.c_str(), 1), 0);
  const pkStatus st = pk_plan_file("NVIDIA H200", nullptr, buf, sizeof buf);
  unsetenv("PROJKIT_PLAN_DIR");
  std::filesystem::remove_all(dir);
  EXPECT_EQ(st, PK_OK);
  EXPECT_EQ(std::string(buf), std::filesystem::weakly_canonical(dir / "h200.json").string());
}

TEST(CAbi, ProjectionWarningsOfANullProjection) {
  EXPECT_EQ(pk_projection_warning_count(nullptr), 0);
  EXPECT_EQ(pk_projection_warning(nullptr, 0), nullptr);
  EXPECT_NE(std::string(pk_last_error()).find("projection is null"), std::string::npos);
}
