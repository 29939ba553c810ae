// Specs, dtypes, workloads (built-in and JSON, including malformed files).
#include <gtest/gtest.h>

#include <fstream>

#include "projkit/projkit.hpp"

using namespace projkit;

TEST(Spec, CallBufferBytesFollowDtypesAndTheSlice) {
  const auto& unpooler = builtin_spec("unpooler");
  EXPECT_EQ(unpooler.x_bytes(8), 8u * 4096 * 2);
  EXPECT_EQ(unpooler.y_bytes(8), 8u * 1024 * 2);  // the slice: rows 0..1023 only
  EXPECT_EQ(unpooler.y_bytes(9), 9u * 8192 * 2);
  const auto& router = builtin_spec("router");
  EXPECT_EQ(router.x_bytes(3), 3u * 8192 * 2);  // x bf16
  EXPECT_EQ(router.y_bytes(3), 3u * 256 * 4);   // y fp32
}

TEST(Spec, BuiltinFamiliesHaveTheWorkloadShapes) {
  EXPECT_EQ(builtin_specs().size(), 5u);
  const auto& qkv = builtin_spec("qkv");
  EXPECT_EQ(qkv.n, 2304);
  EXPECT_EQ(qkv.k, 8192);
  EXPECT_EQ(builtin_spec("o").n, 8192);
  EXPECT_EQ(builtin_spec("o").k, 1024);
  EXPECT_EQ(builtin_spec("pooler").n, 4096);
  const auto& router = builtin_spec("router");
  EXPECT_EQ(router.weight_dtype, DType::f32);
  EXPECT_EQ(router.out_dtype, DType::f32);
  EXPECT_EQ(router.x_dtype, DType::bf16);
  EXPECT_EQ(router.weight_bytes(), 256u * 8192u * 4u);
}

TEST(Spec, UnpoolerSliceAppliesOnlyUpToEight) {
  const auto& u = builtin_spec("unpooler");
  EXPECT_EQ(u.out_cols(1), 1024);
  EXPECT_EQ(u.out_cols(8), 1024);
  EXPECT_EQ(u.out_cols(9), 8192);
  EXPECT_EQ(u.weight_bytes_read(8), 1024u * 4096u * 2u);
  EXPECT_EQ(u.weight_bytes_read(9), 8192u * 4096u * 2u);
  EXPECT_EQ(builtin_spec("qkv").out_cols(1), 2304);
}

TEST(Spec, UnknownFamilyNamesTheChoices) {
  try {
    builtin_spec("mlp");
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), StatusCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("mlp"), std::string::npos);
  }
}

TEST(Spec, ValidateNamesTheViolatedConstraint) {
  ProjectionSpec s = builtin_spec("qkv");
  s.k = 1001;
  try {
    s.validate();
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("K must be a multiple of 8"), std::string::npos) << e.what();
  }
  s = builtin_spec("qkv");
  s.out_dtype = DType::f32;
  EXPECT_THROW(s.validate(), Error);
  s = builtin_spec("unpooler");
  s.slice_rows = 9000;
  EXPECT_THROW(s.validate(), Error);
}

TEST(DType, ParseAndNames) {
  EXPECT_EQ(parse_dtype("bf16"), DType::bf16);
  EXPECT_EQ(parse_dtype("fp32"), DType::f32);
  EXPECT_THROW(parse_dtype("fp8"), Error);
  EXPECT_EQ(dtype_bytes(DType::f32), 4u);
  EXPECT_STREQ(dtype_name(DType::bf16), "bf16");
}

TEST(Workload, BuiltinDefaultIsFiveFamiliesTimesSixLoadsWeighted62) {
  Workload w = Workload::builtin_default();
  EXPECT_EQ(w.families.size(), 5u);
  EXPECT_EQ(w.loads, (std::vector<int>{1, 8, 16, 32, 128, 256}));
  ASSERT_EQ(w.cases.size(), 30u);
  for (const auto& c : w.cases) EXPECT_DOUBLE_EQ(c.weight, 62.0);
}

TEST(Workload, JsonWithBuiltinAndCustomFamilies) {
  Workload w = Workload::from_json_text(R"({"name":"t","families":["qkv",
      {"name":"small","n":64,"k":128},{"base":"router","name":"router2"}],
      "loads":[1,3],"weight":2,"weights":{"qkv":5}})");
  EXPECT_EQ(w.name, "t");
  ASSERT_EQ(w.families.size(), 3u);
  EXPECT_EQ(w.spec("small").n, 64);
  EXPECT_EQ(w.spec("router2").weight_dtype, DType::f32);
  ASSERT_EQ(w.cases.size(), 6u);
  EXPECT_DOUBLE_EQ(w.cases[0].weight, 5.0);  // qkv, m=1
  EXPECT_DOUBLE_EQ(w.cases[1].weight, 2.0);  // small, m=1
  EXPECT_THROW(w.spec("nope"), Error);
}

static std::string parse_error_of(const std::string& text) {
  try {
    Workload::from_json_text(text);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), StatusCode::parse_error) << e.what();
    return e.what();
  }
  return "";
}

TEST(Workload, MalformedFilesGiveClearErrors) {
  EXPECT_NE(parse_error_of("{not json").find("malformed JSON"), std::string::npos);
  EXPECT_NE(parse_error_of(R"({"loads":[1]})").find("'families'"), std::string::npos);
  EXPECT_NE(parse_error_of(R"({"families":["qkv"]})").find("'loads'"), std::string::npos);
  EXPECT_NE(parse_error_of(R"({"families":["qkv"],"loads":[0]})").find("[1, 4096]"), std::string::npos);
  EXPECT_NE(parse_error_of(R"({"families":["qkv","qkv"],"loads":[1]})").find("twice"), std::string::npos);
  EXPECT_NE(parse_error_of(R"({"families":[{"name":"x","n":64,"k":100}],"loads":[1]})").find("multiple of 8"),
            std::string::npos);
  EXPECT_NE(parse_error_of(R"({"families":[{"name":"x","n":64,"k":128,"bogus":1}],"loads":[1]})").find("bogus"),
            std::string::npos);
  EXPECT_NE(parse_error_of(R"({"families":["qkv"],"loads":[1],"weights":{"zzz":1}})").find("zzz"), std::string::npos);
  EXPECT_NE(parse_error_of(R"({"families":["qkv"],"loads":[1],"weight":-1})").find("> 0"), std::string::npos);
  EXPECT_NE(parse_error_of(R"({"families":[{"name":"x","n":"64","k":128}],"loads":[1]})").find("type"),
            std::string::npos);
}

TEST(Workload, FileErrorsNameThePath) {
  try {
    Workload::from_file("/nonexistent/w.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/w.json"), std::string::npos);
  }
  const std::string path = ::testing::TempDir() + "/bad_workload.json";
  std::ofstream(path) << "[1,2";
  try {
    Workload::from_file(path);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos);
  }
}
