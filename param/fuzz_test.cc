// Feeds random strings to every field type, to keys and to the JSON reader:
// nothing may crash, read outside its input (run under --config=asan) or
// throw anything but ParamError, and every accepted value must print as text
// that reads back to the same value.
//
// Each test draws its seed from tensor/test_seed.h: printed on failure,
// replayed with UMBRA_TEST_SEED=<seed>.
#include <cstdint>
#include <exception>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "gtest/gtest.h"
#include "param/param.h"
#include "param/test_params.h"
#include "tensor/test_seed.h"

namespace umbra {
namespace param_test {
namespace {

// Pieces that reach the interesting branches of the parsers.
const std::vector<std::string>& Tokens() {
  static const std::vector<std::string>* tokens =
      new std::vector<std::string>{"0",
                                   "1",
                                   "7",
                                   "9",
                                   "-",
                                   "+",
                                   ".",
                                   "e",
                                   "E",
                                   "x",
                                   "inf",
                                   "nan",
                                   "NaN",
                                   "None",
                                   "(",
                                   ")",
                                   "[",
                                   "]",
                                   ",",
                                   " ",
                                   "\t",
                                   "\n",
                                   "0x",
                                   "1e999",
                                   "1e-999",
                                   "true",
                                   "FALSE",
                                   "max",
                                   "avg",
                                   "a",
                                   "b",
                                   "same",
                                   "valid",
                                   "\\",
                                   "\"",
                                   "'",
                                   "\xff",
                                   "\x80",
                                   "\xc3",
                                   "{",
                                   "}",
                                   ":",
                                   "\\u",
                                   "d800",
                                   "00",
                                   "99999999999999999999",
                                   "18446744073709551616",
                                   "-9223372036854775809",
                                   "3x4x5",
                                   std::string(1, '\0')};
  return *tokens;
}

std::string RandomText(std::mt19937_64& rng) {
  std::string text;
  const int mode = static_cast<int>(rng() % 3);
  const int pieces = static_cast<int>(rng() % 8);
  for (int i = 0; i < pieces; ++i) {
    if (mode == 0) {  // random bytes
      const int length = static_cast<int>(rng() % 6);
      for (int j = 0; j < length; ++j)
        text.push_back(static_cast<char>(rng() % 256));
    } else if (mode == 1) {  // tokens
      text += Tokens()[rng() % Tokens().size()];
    } else {  // tokens with a random byte now and then
      text += Tokens()[rng() % Tokens().size()];
      if (rng() % 4 == 0) text.push_back(static_cast<char>(rng() % 256));
    }
  }
  return text;
}

// Init `param` from kwargs; true when accepted, false on ParamError. Any
// other exception fails the test.
template <typename PType>
bool TryInit(PType* param, const ParamKwargs& kwargs,
             param::ParamInitOption option, const std::string& what) {
  try {
    param->Init(kwargs, option);
    return true;
  } catch (const ParamError& e) {
    if (std::string(e.what()).empty())
      ADD_FAILURE() << "empty ParamError for " << what;
    return false;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "non-ParamError exception '" << e.what() << "' for "
                  << what;
  } catch (...) {
    ADD_FAILURE() << "unknown exception for " << what;
  }
  return false;
}

template <typename PType>
void FuzzFields(const ParamKwargs& base, std::mt19937_64& rng, int rounds) {
  const std::vector<ParamFieldInfo> fields = PType::Fields();
  int accepted = 0;
  for (int round = 0; round < rounds; ++round) {
    const std::string text = RandomText(rng);
    for (const ParamFieldInfo& field : fields) {
      ParamKwargs kwargs = base;
      kwargs.emplace_back(field.name, text);
      const std::string what =
          "key '" + field.name + "' value '" + absl::CHexEscape(text) + "'";
      PType param;
      if (!TryInit(&param, kwargs, param::kAllMatch, what)) continue;
      ++accepted;
      // What was accepted prints as text that reads back the same.
      const std::map<std::string, std::string> dict = param.Dict();
      PType again;
      ASSERT_TRUE(TryInit(&again, ParamKwargs(dict.begin(), dict.end()),
                          param::kAllMatch, "dict of " + what))
          << what;
      ASSERT_EQ(again.Dict(), dict) << what;
      // And so does its JSON.
      PType loaded;
      loaded.Load(param.Save());
      ASSERT_EQ(loaded.Dict(), dict) << what;
    }
  }
  EXPECT_GT(accepted, 0);
}

class FuzzTest : public ::testing::Test {
 protected:
  const test::ScopedTestSeed seed_;
  std::mt19937_64 rng_{seed_.value()};
};

TEST_F(FuzzTest, EveryFieldTypeOnlyThrowsParamError) {
  FuzzFields<AllTypesParam>({}, rng_, 1500);
  FuzzFields<FullcParam>({{"nhidden", "1"}}, rng_, 1500);
}

TEST_F(FuzzTest, RandomKeysOnlyThrowParamError) {
  for (int round = 0; round < 3000; ++round) {
    const std::string key = RandomText(rng_);
    FullcParam param;
    const std::string what = "key '" + absl::CHexEscape(key) + "'";
    for (param::ParamInitOption option :
         {param::kAllMatch, param::kAllowHidden, param::kAllowUnknown}) {
      TryInit(&param, {{"nhidden", "1"}, {key, "1"}}, option, what);
    }
    try {
      param.UpdateAllowUnknown({{key, RandomText(rng_)}});
    } catch (const ParamError&) {
    }
  }
}

TEST_F(FuzzTest, JsonReaderOnlyThrowsParamError) {
  const std::string valid = param::WriteJsonObject(
      {{"a", "x\"y\\z\n"}, {"b", std::string("\x01\xff", 2)}, {"c", ""}});
  for (int round = 0; round < 20000; ++round) {
    std::string json;
    if (round % 2 == 0) {
      json = RandomText(rng_);
    } else {  // a valid document with a few bytes changed, cut or added
      json = valid;
      const int edits = 1 + static_cast<int>(rng_() % 3);
      for (int i = 0; i < edits && !json.empty(); ++i) {
        const std::size_t at = rng_() % json.size();
        switch (rng_() % 3) {
          case 0:
            json[at] = static_cast<char>(rng_() % 256);
            break;
          case 1:
            json.erase(at, 1 + rng_() % 3);
            break;
          default:
            json.insert(at, Tokens()[rng_() % Tokens().size()]);
        }
      }
    }
    try {
      const ParamKwargs kwargs = param::ReadJsonObject(json, "Fuzz");
      // Whatever it reads, it writes back as JSON that reads the same.
      ASSERT_EQ(param::ReadJsonObject(param::WriteJsonObject(kwargs), "Fuzz"),
                kwargs)
          << absl::CHexEscape(json);
    } catch (const ParamError&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "non-ParamError exception '" << e.what() << "' for '"
                    << absl::CHexEscape(json) << "'";
    }
  }
}

TEST_F(FuzzTest, RandomStringsRoundTripThroughSaveAndLoad) {
  for (int round = 0; round < 2000; ++round) {
    AllTypesParam param;
    param.Init({{"text", RandomText(rng_)}});
    AllTypesParam loaded;
    loaded.Load(param.Save());
    ASSERT_EQ(loaded.text, param.text) << absl::CHexEscape(param.text);
  }
}

}  // namespace
}  // namespace param_test
}  // namespace umbra
