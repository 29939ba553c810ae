// C ABI error paths that need no GPU: every failure returns a code and a message.
#include <gtest/gtest.h>

#include <cstring>

#include "projkit/projkit.h"

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
