#include "param/get_env.h"

#include <stdlib.h>

#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "param/param_error.h"
#include "param/test_util.h"

namespace umbra {
namespace {

// The error of reading UMBRA_PARAM_TEST_VAR=value as an int, or "no error".
std::string EnvError(const char* value) {
  setenv("UMBRA_PARAM_TEST_VAR", value, 1);
  return param_test::ErrorOf([] { GetEnv("UMBRA_PARAM_TEST_VAR", 0); });
}

TEST(GetEnvTest, DefaultWhenUnset) {
  unsetenv("UMBRA_PARAM_TEST_UNSET");
  EXPECT_EQ(GetEnv("UMBRA_PARAM_TEST_UNSET", 4), 4);
  EXPECT_EQ(GetEnv("UMBRA_PARAM_TEST_UNSET", "text"), "text");
  EXPECT_EQ(GetEnv<std::optional<int>>("UMBRA_PARAM_TEST_UNSET", std::nullopt),
            std::nullopt);
}

TEST(GetEnvTest, ParsesWithFieldRules) {
  setenv("UMBRA_PARAM_TEST_VAR", " 8 ", 1);
  EXPECT_EQ(GetEnv("UMBRA_PARAM_TEST_VAR", 4), 8);
  setenv("UMBRA_PARAM_TEST_VAR", "TRUE", 1);
  EXPECT_TRUE(GetEnv("UMBRA_PARAM_TEST_VAR", false));
  setenv("UMBRA_PARAM_TEST_VAR", "2.5", 1);
  EXPECT_DOUBLE_EQ(GetEnv("UMBRA_PARAM_TEST_VAR", 1.0), 2.5);
  setenv("UMBRA_PARAM_TEST_VAR", " spaced ", 1);
  EXPECT_EQ(GetEnv("UMBRA_PARAM_TEST_VAR", "x"), " spaced ");
  setenv("UMBRA_PARAM_TEST_VAR", "(1,2,3)", 1);
  EXPECT_EQ(GetEnv("UMBRA_PARAM_TEST_VAR", std::vector<int>{}),
            (std::vector<int>{1, 2, 3}));
  setenv("UMBRA_PARAM_TEST_VAR", "None", 1);
  EXPECT_EQ(GetEnv<std::optional<int>>("UMBRA_PARAM_TEST_VAR", 3),
            std::nullopt);
}

TEST(GetEnvTest, BadValuesNameTheVariable) {
  EXPECT_EQ(
      EnvError("eight"),
      "environment: key 'UMBRA_PARAM_TEST_VAR': expected int, got 'eight'");
  EXPECT_EQ(EnvError(""),
            "environment: key 'UMBRA_PARAM_TEST_VAR': expected int, got ''");
  EXPECT_EQ(
      EnvError("1.5abc"),
      "environment: key 'UMBRA_PARAM_TEST_VAR': expected int, got '1.5abc'");
  setenv("UMBRA_PARAM_TEST_VAR", "1e999", 1);
  try {
    GetEnv("UMBRA_PARAM_TEST_VAR", 1.0f);
    FAIL() << "no ParamError";
  } catch (const ParamError& e) {
    EXPECT_STREQ(e.what(),
                 "environment: key 'UMBRA_PARAM_TEST_VAR': expected float, got "
                 "'1e999' (out "
                 "of range for float)");
    EXPECT_EQ(e.struct_name(), "environment");
    EXPECT_EQ(e.key(), "UMBRA_PARAM_TEST_VAR");
  }
}

}  // namespace
}  // namespace umbra
