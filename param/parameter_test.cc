// Tests of Parameter<PType> through FullcParam (test_params.h): Init and its
// options, every error text, aliases, dict, docs, JSON and updates.
#include "param/parameter.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "param/param.h"
#include "param/test_params.h"
#include "param/test_util.h"

namespace umbra {
namespace param_test {
namespace {

// Init with nhidden set (it is required) plus one more pair.
std::string InitError(const std::string& key, const std::string& value) {
  FullcParam param;
  return ErrorOf([&] { param.Init({{"nhidden", "10"}, {key, value}}); });
}

TEST(ParameterTest, InitSetsGivenFieldsAndDefaultsTheRest) {
  FullcParam param;
  param.Init({{"nhidden", "128"}, {"lr", "0.5"}, {"name", "  My Net "}});
  EXPECT_EQ(param.nhidden, 128);
  EXPECT_DOUBLE_EQ(param.lr, 0.5);
  EXPECT_EQ(param.name, "  My Net ");  // strings are kept verbatim
  EXPECT_FLOAT_EQ(param.init_sigma, 0.01f);
  EXPECT_FALSE(param.no_bias);
  EXPECT_EQ(param.pool_type, kMaxPool);
  EXPECT_EQ(param.seed, std::nullopt);
  EXPECT_EQ(param.shape, (std::vector<int>{1, 28, 28}));
  EXPECT_EQ(param.num_group, 1u);
}

TEST(ParameterTest, InitTakesAMapOrAVectorAndTheLastRepeatedKeyWins) {
  FullcParam from_map;
  from_map.Init(
      std::map<std::string, std::string>{{"nhidden", "7"}, {"lr", "2"}});
  EXPECT_EQ(from_map.nhidden, 7);
  EXPECT_DOUBLE_EQ(from_map.lr, 2.0);

  FullcParam from_vector;
  from_vector.Init(
      std::vector<std::pair<std::string, std::string>>{{"nhidden", "1"},
                                                       {"nhidden", "2"},
                                                       {"num_hidden", "3"},
                                                       {"lr", "1"},
                                                       {"lr", "4"}});
  EXPECT_EQ(from_vector.nhidden, 3);
  EXPECT_DOUBLE_EQ(from_vector.lr, 4.0);

  FullcParam from_c_strings;
  from_c_strings.Init(
      std::vector<std::pair<const char*, const char*>>{{"nhidden", "9"}});
  EXPECT_EQ(from_c_strings.nhidden, 9);
}

TEST(ParameterTest, InitTwiceRestoresDefaults) {
  FullcParam param;
  param.Init(
      {{"nhidden", "5"}, {"lr", "3"}, {"no_bias", "true"}, {"seed", "42"}});
  ASSERT_TRUE(param.no_bias);
  param.Init({{"nhidden", "6"}});
  EXPECT_EQ(param.nhidden, 6);
  EXPECT_DOUBLE_EQ(param.lr, 0.1);
  EXPECT_FALSE(param.no_bias);
  EXPECT_EQ(param.seed, std::nullopt);
}

TEST(ParameterTest, UpdateAllowUnknownKeepsEarlierValues) {
  FullcParam param;
  param.Init({{"nhidden", "5"}, {"lr", "3"}, {"name", "first"}});
  ParamKwargs unknown =
      param.UpdateAllowUnknown({{"lr", "4"}, {"color", "red"}});
  EXPECT_EQ(unknown, (ParamKwargs{{"color", "red"}}));
  EXPECT_EQ(param.nhidden, 5);
  EXPECT_DOUBLE_EQ(param.lr, 4.0);
  EXPECT_EQ(param.name, "first");
}

TEST(ParameterTest, UpdateAllowUnknownStillChecksValues) {
  FullcParam param;
  param.Init({{"nhidden", "5"}});
  EXPECT_EQ(ErrorOf([&] {
              param.UpdateAllowUnknown({{"lr", "9"}, {"nhidden", "0"}});
            }),
            "FullcParam: key 'nhidden': expected int in [1, 1000], got '0'");
  EXPECT_DOUBLE_EQ(param.lr, 0.1);  // unchanged: the update failed as a whole
}

TEST(ParameterTest, InitAllowUnknownReturnsUnknownPairsInOrder) {
  FullcParam param;
  ParamKwargs unknown = param.InitAllowUnknown(
      {{"b", "1"}, {"nhidden", "3"}, {"__hidden__", "x"}, {"a", "2"}});
  EXPECT_EQ(unknown,
            (ParamKwargs{{"b", "1"}, {"__hidden__", "x"}, {"a", "2"}}));
  EXPECT_EQ(param.nhidden, 3);
}

TEST(ParameterTest, FailedInitLeavesTheStructUnchanged) {
  FullcParam param;
  param.Init({{"nhidden", "5"}, {"lr", "3"}});
  EXPECT_NE(ErrorOf([&] {
              param.Init({{"nhidden", "6"}, {"lr", "oops"}});
            }),
            "no error");
  EXPECT_EQ(param.nhidden, 5);
  EXPECT_DOUBLE_EQ(param.lr, 3.0);
}

TEST(ParameterTest, RequiredFieldMissing) {
  FullcParam param;
  EXPECT_EQ(ErrorOf([&] {
              param.Init({{"lr", "1"}});
            }),
            "FullcParam: key 'nhidden': required value missing, expected int "
            "in [1, 1000]");
  try {
    param.Init({{"lr", "1"}});
    FAIL() << "no ParamError";
  } catch (const ParamError& e) {
    EXPECT_EQ(e.struct_name(), "FullcParam");
    EXPECT_EQ(e.key(), "nhidden");
    EXPECT_EQ(e.value(), "");
  }
}

TEST(ParameterTest, ErrorKeepsTheRefusedValueUnderTheFieldName) {
  FullcParam param;
  try {
    // A later good value does not hide the earlier bad one.
    param.Init({{"nhidden", "2"}, {"num_hidden", "-3"}, {"nhidden", "4"}});
    FAIL() << "no ParamError";
  } catch (const ParamError& e) {
    EXPECT_EQ(e.key(), "nhidden");
    EXPECT_EQ(e.value(), "-3");
  }
}

TEST(ParameterTest, OutOfRangeOnBothSides) {
  EXPECT_EQ(InitError("nhidden", "0"),
            "FullcParam: key 'nhidden': expected int in [1, 1000], got '0'");
  EXPECT_EQ(InitError("nhidden", "1001"),
            "FullcParam: key 'nhidden': expected int in [1, 1000], got '1001'");
  EXPECT_EQ(InitError("nhidden", "1000"), "no error");
  EXPECT_EQ(InitError("nhidden", "1"), "no error");
  EXPECT_EQ(
      InitError("init_sigma", "-0.5"),
      "FullcParam: key 'init_sigma': expected float in [0, inf), got '-0.5'");
  EXPECT_EQ(InitError("init_sigma", "0"), "no error");
  EXPECT_EQ(InitError("lr", "10.5"),
            "FullcParam: key 'lr': expected double in (-inf, 10], got '10.5'");
  EXPECT_EQ(InitError("lr", "-1e300"), "no error");
}

TEST(ParameterTest, BadNumbers) {
  EXPECT_EQ(
      InitError("nhidden", "1.5abc"),
      "FullcParam: key 'nhidden': expected int in [1, 1000], got '1.5abc'");
  EXPECT_EQ(InitError("nhidden", ""),
            "FullcParam: key 'nhidden': expected int in [1, 1000], got ''");
  EXPECT_EQ(InitError("nhidden", "12 3"),
            "FullcParam: key 'nhidden': expected int in [1, 1000], got '12 3'");
  EXPECT_EQ(InitError("nhidden", "0x10"),
            "FullcParam: key 'nhidden': expected int in [1, 1000], got '0x10'");
  EXPECT_EQ(InitError("nhidden", "+-5"),
            "FullcParam: key 'nhidden': expected int in [1, 1000], got '+-5'");
  EXPECT_EQ(
      InitError("nhidden", "99999999999"),
      "FullcParam: key 'nhidden': expected int in [1, 1000], got '99999999999' "
      "(out of range for int)");
  EXPECT_EQ(
      InitError("init_sigma", "1e999"),
      "FullcParam: key 'init_sigma': expected float in [0, inf), got '1e999' "
      "(out of range for float)");
  EXPECT_EQ(
      InitError("init_sigma", "1e39"),
      "FullcParam: key 'init_sigma': expected float in [0, inf), got '1e39' "
      "(out of range for float)");
  EXPECT_EQ(
      InitError("init_sigma", "inf"),
      "FullcParam: key 'init_sigma': expected float in [0, inf), got 'inf' "
      "(inf and nan are not allowed here)");
  EXPECT_EQ(InitError("lr", "NaN"),
            "FullcParam: key 'lr': expected double in (-inf, 10], got 'NaN' "
            "(inf and nan are not allowed here)");
  EXPECT_EQ(InitError("lr", "1.5\n"),
            "no error");  // surrounding whitespace is fine
  EXPECT_EQ(InitError("lr", "1e-400"), "no error");  // underflow rounds to zero
  EXPECT_EQ(InitError("num_group", "-1"),
            "FullcParam: key 'num_group': expected uint32, got '-1'");
  EXPECT_EQ(InitError("num_group", "4294967296"),
            "FullcParam: key 'num_group': expected uint32, got '4294967296' "
            "(out of range for uint32)");
}

TEST(ParameterTest, ValuesWithOddBytesAreEscapedInMessages) {
  EXPECT_EQ(
      InitError("nhidden", std::string("1\0", 2)),
      "FullcParam: key 'nhidden': expected int in [1, 1000], got '1\\x00'");
  EXPECT_EQ(
      InitError("nhidden", "it's\n"),
      "FullcParam: key 'nhidden': expected int in [1, 1000], got 'it's\\n'");
  EXPECT_EQ(InitError("nhidden", std::string(200, '7')),
            "FullcParam: key 'nhidden': expected int in [1, 1000], got '" +
                std::string(80, '7') +
                "'... (200 bytes in all) (out of range for int)");
}

TEST(ParameterTest, HugeKeysAndValuesGiveShortMessages) {
  const std::string huge(10'000'000, 'x');
  const std::string unknown = InitError(huge, "1");
  EXPECT_LT(unknown.size(), 500u);
  EXPECT_EQ(unknown, "FullcParam: unknown key '" + std::string(80, 'x') +
                         "'... (10000000 bytes in all). Valid keys: 10 in "
                         "all; see tools/config_reference.md");
  // A typo of a key, padded to 10 MB, is not compared with the keys at all.
  EXPECT_LT(InitError("nhidde" + huge, "1").size(), 500u);
  EXPECT_LT(InitError("nhidden", huge).size(), 500u);
  EXPECT_LT(InitError("pool_type", huge).size(), 500u);  // an enum
  EXPECT_LT(InitError("shape", "1," + huge).size(), 500u);
  EXPECT_LT(InitError("seed", huge).size(), 500u);
}

TEST(ParameterTest, EnumsByNameAndBadName) {
  FullcParam param;
  param.Init({{"nhidden", "1"}, {"pool_type", "avg"}});
  EXPECT_EQ(param.pool_type, kAvgPool);
  EXPECT_EQ(param.Dict().at("pool_type"), "avg");
  param.Init({{"nhidden", "1"}, {"pool_type", " max "}});
  EXPECT_EQ(param.pool_type, kMaxPool);
  EXPECT_EQ(InitError("pool_type", "maxx"),
            "FullcParam: key 'pool_type': expected {'max', 'avg'}, got 'maxx' "
            "(did you mean 'max'?)");
  EXPECT_EQ(InitError("pool_type", "sum"),
            "FullcParam: key 'pool_type': expected {'max', 'avg'}, got 'sum'");
  EXPECT_EQ(InitError("pool_type", "1"),
            "FullcParam: key 'pool_type': expected {'max', 'avg'}, got '1'");
}

TEST(ParameterTest, BoolSpellings) {
  const std::vector<std::pair<std::string, bool>> good = {
      {"true", true},   {"TRUE", true},   {"True", true},   {"1", true},
      {" tRuE ", true}, {"false", false}, {"FALSE", false}, {"FaLsE", false},
      {"0", false},     {"0\t", false}};
  for (const auto& [text, expected] : good) {
    FullcParam param;
    param.Init({{"nhidden", "1"}, {"no_bias", text}});
    EXPECT_EQ(param.no_bias, expected) << "text '" << text << "'";
  }
  for (const std::string bad : {"yes", "no", "2", "", "t", "truee", "on"}) {
    EXPECT_EQ(InitError("no_bias", bad),
              "FullcParam: key 'no_bias': expected boolean, got '" + bad +
                  "' (use true, false, 1 or 0)");
  }
}

TEST(ParameterTest, OptionalTakesNoneOrAValueInRange) {
  FullcParam param;
  param.Init({{"nhidden", "1"}, {"seed", "7"}});
  EXPECT_EQ(param.seed, 7);
  EXPECT_EQ(param.Dict().at("seed"), "7");
  param.Init({{"nhidden", "1"}, {"seed", "None"}});
  EXPECT_EQ(param.seed, std::nullopt);
  EXPECT_EQ(param.Dict().at("seed"), "None");
  EXPECT_EQ(
      InitError("seed", "-1"),
      "FullcParam: key 'seed': expected int in [0, inf) or None, got '-1'");
  EXPECT_EQ(
      InitError("seed", "none"),
      "FullcParam: key 'seed': expected int in [0, inf) or None, got 'none'");
}

TEST(ParameterTest, ShapesWithAndWithoutBrackets) {
  const std::vector<std::pair<std::string, std::vector<int>>> good = {
      {"1,28,28", {1, 28, 28}},
      {"(1,28,28)", {1, 28, 28}},
      {" ( 3 , 4 ) ", {3, 4}},
      {"[2, 5]", {2, 5}},
      {"(3,)", {3}},
      {"7", {7}},
      {"()", {}},
      {"", {}}};
  for (const auto& [text, expected] : good) {
    FullcParam param;
    param.Init({{"nhidden", "1"}, {"shape", text}});
    EXPECT_EQ(param.shape, expected) << "text '" << text << "'";
  }
  FullcParam param;
  param.Init({{"nhidden", "1"}, {"shape", "1,28,28"}});
  EXPECT_EQ(param.Dict().at("shape"), "(1,28,28)");
  param.Init({{"nhidden", "1"}, {"shape", "5"}});
  EXPECT_EQ(param.Dict().at("shape"), "(5,)");
  param.Init({{"nhidden", "1"}, {"shape", "()"}});
  EXPECT_EQ(param.Dict().at("shape"), "()");

  EXPECT_EQ(
      InitError("shape", "1,0,3"),
      "FullcParam: key 'shape': expected tuple of int in [1, inf), got '1,0,3' "
      "(element 2 is '0')");
  EXPECT_EQ(
      InitError("shape", "1,x"),
      "FullcParam: key 'shape': expected tuple of int in [1, inf), got '1,x' "
      "(element 2 is 'x')");
  EXPECT_EQ(
      InitError("shape", "1,99999999999"),
      "FullcParam: key 'shape': expected tuple of int in [1, inf), got "
      "'1,99999999999' (element 2 is '99999999999': out of range for int)");
  for (const std::string bad : {"1,,2", "(1,2", "1,2)", "(1,2]", ",", "(,)",
                                "1,2,,", "((1,2))", "1,(2)"}) {
    EXPECT_EQ(
        InitError("shape", bad),
        "FullcParam: key 'shape': expected tuple of int in [1, inf), got '" +
            bad + "'");
  }
}

TEST(ParameterTest, UnknownKeySuggestsTheClosestAndListsValidKeys) {
  // FullcParam has 10 keys: more than a message lists, so only the closest
  // are, and where to find them all.
  const std::string all = " in all; see tools/config_reference.md";
  EXPECT_EQ(InitError("nhiden", "5"),
            "FullcParam: unknown key 'nhiden'; did you mean 'nhidden'? "
            "Valid keys: 10" +
                all);
  EXPECT_EQ(InitError("num_hiden", "5"),
            "FullcParam: unknown key 'num_hiden'; did you mean 'num_hidden'? "
            "Valid keys: 10" +
                all);
  EXPECT_EQ(
      InitError("LR", "5"),
      "FullcParam: unknown key 'LR'; did you mean 'lr'? Valid keys: 10" + all);
  EXPECT_EQ(InitError("nuhidden", "5"),
            "FullcParam: unknown key 'nuhidden'; did you mean 'nhidden'? "
            "Valid keys (2 closest of 10): nhidden, num_hidden; see "
            "tools/config_reference.md");
  EXPECT_EQ(InitError("color", "red"),
            "FullcParam: unknown key 'color'. Valid keys: 10 in all; see "
            "tools/config_reference.md");
  try {
    FullcParam param;
    param.Init({{"nhidden", "1"}, {"colour", "red"}});
    FAIL() << "no ParamError";
  } catch (const ParamError& e) {
    EXPECT_EQ(e.struct_name(), "FullcParam");
    EXPECT_EQ(e.key(), "colour");
  }
}

TEST(ParameterTest, HiddenKeysPerOption) {
  const ParamKwargs kwargs = {{"nhidden", "2"}, {"__layer_name__", "fc1"}};
  FullcParam param;
  param.Init(kwargs);  // kAllowHidden by default
  EXPECT_EQ(param.nhidden, 2);
  param.Init(kwargs, param::kAllowHidden);
  param.Init(kwargs, param::kAllowUnknown);
  EXPECT_EQ(
      ErrorOf([&] { param.Init(kwargs, param::kAllMatch); }).substr(0, 45),
      "FullcParam: unknown key '__layer_name__'. Val");
  // Only __name__ with something inside counts as hidden.
  for (const std::string not_hidden : {"__x", "x__", "____", "_x_"}) {
    EXPECT_NE(ErrorOf([&] {
                param.Init({{"nhidden", "1"}, {not_hidden, "1"}});
              }),
              "no error")
        << not_hidden;
  }
  // kAllowUnknown ignores any unknown key.
  param.Init({{"nhidden", "3"}, {"whatever", "1"}}, param::kAllowUnknown);
  EXPECT_EQ(param.nhidden, 3);
}

TEST(ParameterTest, AliasesSetTheFieldAndStayOutOfTheDict) {
  FullcParam param;
  param.Init({{"num_hidden", "64"}});
  EXPECT_EQ(param.nhidden, 64);
  std::map<std::string, std::string> dict = param.Dict();
  EXPECT_EQ(dict.at("nhidden"), "64");
  EXPECT_EQ(dict.count("num_hidden"), 0u);
  EXPECT_EQ(ErrorOf([&] {
              param.Init({{"num_hidden", "0"}});
            }),
            "FullcParam: key 'nhidden' (given as 'num_hidden'): expected int "
            "in [1, 1000], got '0'");
}

TEST(ParameterTest, DictHoldsEveryFieldAsText) {
  FullcParam param;
  param.Init({{"nhidden", "12"}, {"no_bias", "1"}, {"init_sigma", "0.5"}});
  const std::map<std::string, std::string> expected = {
      {"init_sigma", "0.5"}, {"lr", "0.1"},       {"name", "hello"},
      {"nhidden", "12"},     {"no_bias", "True"}, {"num_group", "1"},
      {"pool_type", "max"},  {"seed", "None"},    {"shape", "(1,28,28)"}};
  EXPECT_EQ(param.Dict(), expected);
  // The dict is valid input: Init from it gives the same struct.
  FullcParam copy;
  copy.Init(param.Dict(), param::kAllMatch);
  EXPECT_EQ(copy.Dict(), expected);
}

TEST(ParameterTest, FieldsDescribeTypesDefaultsAndAliases) {
  const std::vector<ParamFieldInfo> fields = FullcParam::Fields();
  ASSERT_EQ(fields.size(), 9u);
  EXPECT_EQ(fields[0].name, "nhidden");
  EXPECT_EQ(fields[0].type, "int");
  EXPECT_EQ(fields[0].accepted, "int in [1, 1000]");
  EXPECT_EQ(fields[0].type_info_str, "int in [1, 1000], required");
  EXPECT_TRUE(fields[0].required);
  EXPECT_EQ(fields[0].default_value, "");
  EXPECT_EQ(fields[0].aliases, std::vector<std::string>{"num_hidden"});
  EXPECT_EQ(fields[0].description, "Number of output units.");
  EXPECT_EQ(fields[1].type_info_str,
            "float in [0, inf), optional, default=0.01");
  EXPECT_EQ(fields[2].type_info_str,
            "double in (-inf, 10], optional, default=0.1");
  EXPECT_EQ(fields[3].type_info_str, "boolean, optional, default=False");
  EXPECT_EQ(fields[4].type_info_str, "string, optional, default='hello'");
  EXPECT_EQ(fields[5].type, "int");
  EXPECT_EQ(fields[5].type_info_str, "{'max', 'avg'}, optional, default='max'");
  EXPECT_EQ(fields[6].type, "int or None");
  EXPECT_EQ(fields[6].type_info_str,
            "int in [0, inf) or None, optional, default=None");
  EXPECT_EQ(fields[7].type, "tuple of int");
  EXPECT_EQ(fields[7].type_info_str,
            "tuple of int in [1, inf), optional, default=(1,28,28)");
  EXPECT_EQ(fields[8].type_info_str, "uint32, optional, default=1");
  EXPECT_FALSE(fields[8].required);
}

TEST(ParameterTest, DocReadsLikeAReference) {
  EXPECT_EQ(FullcParam::Doc(),
            "nhidden : int in [1, 1000], required\n"
            "    Number of output units.\n"
            "    Also accepted as: num_hidden\n"
            "init_sigma : float in [0, inf), optional, default=0.01\n"
            "    Standard deviation of the initial weights.\n"
            "lr : double in (-inf, 10], optional, default=0.1\n"
            "    Learning rate.\n"
            "no_bias : boolean, optional, default=False\n"
            "    Leave out the bias term.\n"
            "name : string, optional, default='hello'\n"
            "pool_type : {'max', 'avg'}, optional, default='max'\n"
            "    Pooling function.\n"
            "seed : int in [0, inf) or None, optional, default=None\n"
            "shape : tuple of int in [1, inf), optional, default=(1,28,28)\n"
            "    Input shape as channels,height,width.\n"
            "num_group : uint32, optional, default=1\n");
}

TEST(ParameterTest, SaveWritesSortedJsonAndLoadReadsItBack) {
  FullcParam param;
  param.Init({{"nhidden", "3"},
              {"name", "say \"hi\"\nback\\slash\ttab"},
              {"pool_type", "avg"},
              {"seed", "11"}});
  const std::string json = param.Save();
  EXPECT_EQ(
      json,
      "{\"init_sigma\": \"0.01\", \"lr\": \"0.1\", "
      "\"name\": \"say \\\"hi\\\"\\nback\\\\slash\\ttab\", \"nhidden\": \"3\", "
      "\"no_bias\": \"False\", \"num_group\": \"1\", \"pool_type\": \"avg\", "
      "\"seed\": \"11\", \"shape\": \"(1,28,28)\"}");
  FullcParam loaded;
  loaded.Load(json);
  EXPECT_EQ(loaded.Dict(), param.Dict());
  EXPECT_EQ(loaded.name, "say \"hi\"\nback\\slash\ttab");
  EXPECT_EQ(loaded.pool_type, kAvgPool);
  EXPECT_EQ(loaded.seed, 11);
}

TEST(ParameterTest, LoadRefusesBadJsonAndBadValues) {
  FullcParam param;
  param.Init({{"nhidden", "3"}});
  EXPECT_EQ(ErrorOf([&] { param.Load("{\"nhidden\": 5}"); }),
            "FullcParam: invalid JSON at byte 12: expected a '\"'-quoted "
            "string value");
  EXPECT_EQ(ErrorOf([&] { param.Load("{\"nhidden\": \"0\"}"); }),
            "FullcParam: key 'nhidden': expected int in [1, 1000], got '0'");
  EXPECT_EQ(ErrorOf([&] { param.Load("{\"nhiden\": \"4\"}"); }).substr(0, 61),
            "FullcParam: unknown key 'nhiden'; did you mean 'nhidden'? Val");
  EXPECT_EQ(param.nhidden, 3);
}

TEST(ParameterTest, FloatsPrintTheShortestTextThatReadsBack) {
  FullcParam param;
  for (const std::string text :
       {"0.1", "1e-07", "123456.79", "3.4028235e+38", "0"}) {
    param.Init({{"nhidden", "1"}, {"init_sigma", text}});
    EXPECT_EQ(param.Dict().at("init_sigma"), text);
  }
}

}  // namespace
}  // namespace param_test
}  // namespace umbra
