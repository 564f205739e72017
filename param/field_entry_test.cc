// Tests of every FieldEntry<T> kind through AllTypesParam (test_params.h), of
// declaration mistakes, of a wide struct and of concurrent first use.
#include "param/field_entry.h"

#include <atomic>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "param/param.h"
#include "param/test_params.h"
#include "param/test_util.h"

namespace umbra {
namespace param_test {

// A user type without UMBRA_DECLARE_TYPE_NAME gets its C++ name.
struct Unnamed {
  int value = 0;
};
std::istream& operator>>(std::istream& is, Unnamed& u) { return is >> u.value; }
std::ostream& operator<<(std::ostream& os, const Unnamed& u) {
  return os << u.value;
}

namespace {

// The value AllTypesParam ends up with for key=value, as text; or the error.
std::string Parse(const std::string& key, const std::string& value) {
  AllTypesParam param;
  try {
    param.Init({{key, value}}, param::kAllMatch);
  } catch (const ParamError& e) {
    return e.what();
  }
  return param.Dict().at(key);
}

TEST(FieldEntryTest, IntegersOfEveryWidth) {
  EXPECT_EQ(Parse("i8", "-128"), "-128");
  EXPECT_EQ(Parse("i8", "127"), "127");
  EXPECT_EQ(Parse("i8", "128"),
            "AllTypesParam: key 'i8': expected int8, got '128' (out of range "
            "for int8)");
  EXPECT_EQ(Parse("u8", "255"), "255");
  EXPECT_EQ(Parse("u8", "256"),
            "AllTypesParam: key 'u8': expected uint8, got '256' (out of range "
            "for uint8)");
  EXPECT_EQ(Parse("u8", "-1"),
            "AllTypesParam: key 'u8': expected uint8, got '-1'");
  EXPECT_EQ(Parse("i16", "-32768"), "-32768");
  EXPECT_EQ(Parse("i16", "32768"),
            "AllTypesParam: key 'i16': expected int16, got '32768' (out of "
            "range for int16)");
  EXPECT_EQ(Parse("u16", "65535"), "65535");
  EXPECT_EQ(Parse("i32", "-2147483648"), "-2147483648");
  EXPECT_EQ(Parse("i32", "+2147483647"), "2147483647");
  EXPECT_EQ(Parse("u32", "4294967295"), "4294967295");
  EXPECT_EQ(Parse("i64", "-9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(
      Parse("i64", "9223372036854775808"),
      "AllTypesParam: key 'i64': expected int64, got '9223372036854775808' "
      "(out of range for int64)");
  EXPECT_EQ(Parse("u64", "18446744073709551615"), "18446744073709551615");
  EXPECT_EQ(
      Parse("u64", "18446744073709551616"),
      "AllTypesParam: key 'u64': expected uint64, got '18446744073709551616' "
      "(out of range for uint64)");
  EXPECT_EQ(Parse("i32", "1e3"),
            "AllTypesParam: key 'i32': expected int, got '1e3'");
  EXPECT_EQ(Parse("i32", "-"),
            "AllTypesParam: key 'i32': expected int, got '-'");
  EXPECT_EQ(Parse("i32", "+"),
            "AllTypesParam: key 'i32': expected int, got '+'");
  EXPECT_EQ(Parse("i32", " 12 "), "12");
  EXPECT_EQ(Parse("i32", "007"), "7");
}

TEST(FieldEntryTest, FloatsAndDoubles) {
  EXPECT_EQ(Parse("f32", "1.5"), "1.5");
  EXPECT_EQ(Parse("f32", "-.5"), "-0.5");
  EXPECT_EQ(Parse("f32", "5."), "5");
  EXPECT_EQ(Parse("f32", "+2e3"), "2000");
  EXPECT_EQ(Parse("f32", "1e-50"), "0");
  EXPECT_EQ(Parse("f32", "1.5f"),
            "AllTypesParam: key 'f32': expected float, got '1.5f'");
  EXPECT_EQ(Parse("f32", "1,5"),
            "AllTypesParam: key 'f32': expected float, got '1,5'");
  EXPECT_EQ(Parse("f32", "e5"),
            "AllTypesParam: key 'f32': expected float, got 'e5'");
  EXPECT_EQ(Parse("f32", "1e"),
            "AllTypesParam: key 'f32': expected float, got '1e'");
  EXPECT_EQ(Parse("f32", "-1e999"),
            "AllTypesParam: key 'f32': expected float, got '-1e999' (out of "
            "range for float)");
  EXPECT_EQ(Parse("f64", "1e308"), "1e+308");
  EXPECT_EQ(Parse("f64", "1e309"),
            "AllTypesParam: key 'f64': expected double, got '1e309' (out of "
            "range for double)");
  EXPECT_EQ(Parse("f64", "-inf"),
            "AllTypesParam: key 'f64': expected double, got '-inf' "
            "(inf and nan are not allowed here)");
  EXPECT_EQ(Parse("f64", "0.30000000000000004"), "0.30000000000000004");
  // allow_inf_nan() lets them in, in any spelling from_chars knows.
  EXPECT_EQ(Parse("f32_any", "inf"), "inf");
  EXPECT_EQ(Parse("f32_any", "-Infinity"), "-inf");
  EXPECT_EQ(Parse("f32_any", "NAN"), "nan");
  EXPECT_EQ(Parse("f32_any", "1e999"),
            "AllTypesParam: key 'f32_any': expected float, got '1e999' "
            "(out of range for float)");
}

TEST(FieldEntryTest, StringsAreKeptAsGiven) {
  EXPECT_EQ(Parse("text", ""), "");
  EXPECT_EQ(Parse("text", "  two words \n"), "  two words \n");
  EXPECT_EQ(Parse("text", std::string("nul\0inside", 10)),
            std::string("nul\0inside", 10));
}

TEST(FieldEntryTest, EnumAndOptionalEnum) {
  EXPECT_EQ(Parse("mode", "b"), "b");
  EXPECT_EQ(Parse("mode", "c"),
            "AllTypesParam: key 'mode': expected {'a', 'b'}, got 'c'");
  EXPECT_EQ(Parse("maybe_mode", "valid"), "valid");
  EXPECT_EQ(Parse("maybe_mode", "None"), "None");
  EXPECT_EQ(Parse("maybe_mode", "vaild"),
            "AllTypesParam: key 'maybe_mode': expected {'same', 'valid'} or "
            "None, got "
            "'vaild' (did you mean 'valid'?)");
  EXPECT_EQ(Parse("maybe_float", "2.5"), "2.5");
  EXPECT_EQ(
      Parse("maybe_float", "inf"),
      "AllTypesParam: key 'maybe_float': expected float or None, got 'inf' "
      "(inf and nan are not allowed here)");
  EXPECT_EQ(Parse("maybe_int", " None "), "None");
}

TEST(FieldEntryTest, TuplesOfDoubles) {
  EXPECT_EQ(Parse("doubles", "(0.5, -1e3, 2)"), "(0.5,-1000,2)");
  EXPECT_EQ(
      Parse("doubles", "0.5,nan"),
      "AllTypesParam: key 'doubles': expected tuple of double, got '0.5,nan' "
      "(element 2 is 'nan': inf and nan are not allowed here)");
}

TEST(FieldEntryTest, UserTypeWithStreamOperators) {
  AllTypesParam param;
  param.Init({{"dims", "4x5x6"}});
  EXPECT_EQ(param.dims, (Dims{4, 5, 6}));
  EXPECT_EQ(param.Dict().at("dims"), "4x5x6");
  EXPECT_EQ(Parse("dims", " 7x8x9 "), "7x8x9");
  EXPECT_EQ(Parse("dims", "4x5"),
            "AllTypesParam: key 'dims': expected dims (AxBxC), got '4x5'");
  EXPECT_EQ(Parse("dims", "4x5x6x7"),
            "AllTypesParam: key 'dims': expected dims (AxBxC), got '4x5x6x7'");
  EXPECT_EQ(Parse("dims", "4y5x6"),
            "AllTypesParam: key 'dims': expected dims (AxBxC), got '4y5x6'");
  const std::vector<ParamFieldInfo> fields = AllTypesParam::Fields();
  EXPECT_EQ(fields.back().type_info_str,
            "dims (AxBxC), optional, default=1x2x3");
}

TEST(FieldEntryTest, TypeNames) {
  EXPECT_EQ(param::TypeName<bool>(), "boolean");
  EXPECT_EQ(param::TypeName<int>(), "int");
  EXPECT_EQ(param::TypeName<long long>(), "int64");
  EXPECT_EQ(param::TypeName<std::size_t>(), "uint64");
  EXPECT_EQ(param::TypeName<std::string>(), "string");
  EXPECT_EQ(param::TypeName<std::optional<double>>(), "double or None");
  EXPECT_EQ(param::TypeName<std::vector<float>>(), "tuple of float");
  EXPECT_EQ(param::TypeName<Dims>(), "dims (AxBxC)");
  EXPECT_EQ(param::TypeName<Unnamed>(), "umbra::param_test::Unnamed");
}

TEST(FieldEntryTest, StandaloneEntrySetCheckAndPrint) {
  int value = 5;
  param::FieldEntry<int> entry;
  entry.Init("count", &value, value);
  entry.set_range(0, 9);
  entry.Set(&value, "7");
  EXPECT_EQ(value, 7);
  EXPECT_EQ(entry.GetStringValue(&value), "7");
  EXPECT_EQ(ErrorOf([&] { entry.Set(&value, "10"); }),
            "key 'count': expected int in [0, 9], got '10'");
  EXPECT_EQ(value, 7);  // a refused value leaves the field alone
  value = 12;           // stored by hand, bypassing Set
  EXPECT_EQ(ErrorOf([&] { entry.Check(&value); }),
            "key 'count': expected int in [0, 9], got '12'");
  EXPECT_EQ(ErrorOf([&] { entry.SetDefault(&value); }),
            "key 'count': required value missing, expected int in [0, 9]");
  entry.set_struct_name("Counter");
  EXPECT_EQ(ErrorOf([&] { entry.Set(&value, "x"); }),
            "Counter: key 'count': expected int in [0, 9], got 'x'");
  EXPECT_EQ(ErrorOf([&] { entry.set_range(3, 1); }),
            "Counter: key 'count': set_range(3, 1) is an empty range");
}

TEST(FieldEntryTest, ExclusiveBoundsRefuseTheBoundItself) {
  float value = 0.5f;
  param::FieldEntry<float> entry;
  entry.Init("rate", &value, value);
  entry.set_lower_bound(0.0f, param::kExclusive)
      .set_upper_bound(1.0f, param::kExclusive);
  for (const char* inside : {"1e-30", "0.5", "0.99999"}) {
    entry.Set(&value, inside);
    EXPECT_EQ(value, std::stof(inside));
  }
  EXPECT_EQ(ErrorOf([&] { entry.Set(&value, "0"); }),
            "key 'rate': expected float in (0, 1), got '0'");
  EXPECT_EQ(ErrorOf([&] { entry.Set(&value, "1"); }),
            "key 'rate': expected float in (0, 1), got '1'");
  // Inclusive again: the bound is accepted, and the text says so.
  entry.set_lower_bound(0.0f);
  entry.Set(&value, "0");
  EXPECT_EQ(value, 0.0f);
  EXPECT_EQ(ErrorOf([&] { entry.Set(&value, "-0.1"); }),
            "key 'rate': expected float in [0, 1), got '-0.1'");
  param::FieldEntry<int> count;
  int n = 1;
  count.Init("count", &n, n);
  count.set_upper_bound(10, param::kExclusive);
  EXPECT_EQ(ErrorOf([&] { count.Set(&n, "10"); }),
            "key 'count': expected int in (-inf, 10), got '10'");
}

TEST(FieldEntryTest, EnumValueOutsideTheNamesPrintsAsANumber) {
  AllTypesParam param;
  param.Init(ParamKwargs{});
  param.mode = 7;
  EXPECT_EQ(param.Dict().at("mode"), "7");
  const param::FieldAccessEntry* entry = AllTypesParam::Manager()->Find("mode");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(ErrorOf([&] { entry->Check(&param); }),
            "AllTypesParam: key 'mode': expected {'a', 'b'}, got '7'");
}

// Declaration mistakes: each struct's manager is built on first use (not at
// start-up, which would abort the test binary), and must throw.
struct DuplicateKeyParam : public Parameter<DuplicateKeyParam> {
  int a;
  UMBRA_DECLARE_PARAMETER(DuplicateKeyParam) {
    UMBRA_DECLARE_FIELD(a);
    UMBRA_DECLARE_FIELD(a);
  }
};
UMBRA_DEFINE_PARAMETER_MANAGER_(DuplicateKeyParam)

struct AliasOfMissingParam : public Parameter<AliasOfMissingParam> {
  int a;
  UMBRA_DECLARE_PARAMETER(AliasOfMissingParam) {
    UMBRA_DECLARE_FIELD(a);
    UMBRA_DECLARE_ALIAS(b, c);
  }
};
UMBRA_DEFINE_PARAMETER_MANAGER_(AliasOfMissingParam)

struct AliasTakenParam : public Parameter<AliasTakenParam> {
  int a;
  int b;
  UMBRA_DECLARE_PARAMETER(AliasTakenParam) {
    UMBRA_DECLARE_FIELD(a);
    UMBRA_DECLARE_FIELD(b);
    UMBRA_DECLARE_ALIAS(a, b);
  }
};
UMBRA_DEFINE_PARAMETER_MANAGER_(AliasTakenParam)

struct DuplicateEnumNameParam : public Parameter<DuplicateEnumNameParam> {
  int mode;
  UMBRA_DECLARE_PARAMETER(DuplicateEnumNameParam) {
    UMBRA_DECLARE_FIELD(mode).add_enum("x", 0).add_enum("y", 1).add_enum("x",
                                                                         2);
  }
};
UMBRA_DEFINE_PARAMETER_MANAGER_(DuplicateEnumNameParam)

struct DuplicateEnumValueParam : public Parameter<DuplicateEnumValueParam> {
  int mode;
  UMBRA_DECLARE_PARAMETER(DuplicateEnumValueParam) {
    UMBRA_DECLARE_FIELD(mode).add_enum("x", 0).add_enum("y", 0);
  }
};
UMBRA_DEFINE_PARAMETER_MANAGER_(DuplicateEnumValueParam)

struct DefaultOutOfRangeParam : public Parameter<DefaultOutOfRangeParam> {
  float rate;
  UMBRA_DECLARE_PARAMETER(DefaultOutOfRangeParam) {
    UMBRA_DECLARE_FIELD(rate).set_range(0.0f, 1.0f).set_default(1.5f);
  }
};
UMBRA_DEFINE_PARAMETER_MANAGER_(DefaultOutOfRangeParam)

struct NoneEnumParam : public Parameter<NoneEnumParam> {
  std::optional<int> mode;
  UMBRA_DECLARE_PARAMETER(NoneEnumParam) {
    UMBRA_DECLARE_FIELD(mode).add_enum("None", 0);
  }
};
UMBRA_DEFINE_PARAMETER_MANAGER_(NoneEnumParam)

TEST(FieldEntryTest, DeclarationMistakesThrowWithTheStructAndKey) {
  EXPECT_EQ(ErrorOf([] { DuplicateKeyParam::Doc(); }),
            "DuplicateKeyParam: key 'a' is declared twice");
  EXPECT_EQ(ErrorOf([] { AliasOfMissingParam::Doc(); }),
            "AliasOfMissingParam: alias 'c' names 'b', which is not a declared "
            "field");
  EXPECT_EQ(ErrorOf([] { AliasTakenParam::Doc(); }),
            "AliasTakenParam: alias 'b' of 'a' is already a key");
  EXPECT_EQ(ErrorOf([] { DuplicateEnumNameParam::Doc(); }),
            "DuplicateEnumNameParam: key 'mode': enum name 'x' is declared "
            "twice; enums: "
            "{'x', 'y'}");
  EXPECT_EQ(ErrorOf([] { DuplicateEnumValueParam::Doc(); }),
            "DuplicateEnumValueParam: key 'mode': enum value 0 of 'y' is "
            "already the value "
            "of 'x'");
  EXPECT_EQ(ErrorOf([] { DefaultOutOfRangeParam::Doc(); }),
            "DefaultOutOfRangeParam: key 'rate': declared default '1.5' is not "
            "float in "
            "[0, 1]");
  EXPECT_EQ(
      ErrorOf([] { NoneEnumParam::Doc(); }),
      "NoneEnumParam: key 'mode': enum name 'None' is reserved for no value");
  // A failed declaration is not registered, and fails again on the next use.
  EXPECT_EQ(ErrorOf([] { DuplicateKeyParam::Doc(); }),
            "DuplicateKeyParam: key 'a' is declared twice");
}

TEST(FieldEntryDeathTest, RegistrationMistakeAbortsAtStartUpWithTheMessage) {
  EXPECT_DEATH(param::internal::RegisterAtStartup(&DuplicateKeyParam::Manager,
                                                  "DuplicateKeyParam"),
               "umbra: cannot register parameter struct DuplicateKeyParam: "
               "DuplicateKeyParam: key 'a' is declared twice");
}

// Thirty fields: offsets, order and defaults must all line up.
// clang-format off
#define UMBRA_TEST_FIELDS(X)                                            \
  X(f00) X(f01) X(f02) X(f03) X(f04) X(f05) X(f06) X(f07) X(f08) X(f09) \
  X(f10) X(f11) X(f12) X(f13) X(f14) X(f15) X(f16) X(f17) X(f18) X(f19) \
  X(f20) X(f21) X(f22) X(f23) X(f24) X(f25) X(f26) X(f27) X(f28) X(f29)
// clang-format on
#define UMBRA_TEST_MEMBER(name) double name;
#define UMBRA_TEST_DECLARE(name) UMBRA_DECLARE_FIELD(name).set_default(-1.0);

struct WideParam : public Parameter<WideParam> {
  UMBRA_TEST_FIELDS(UMBRA_TEST_MEMBER)
  char padding;  // not a field
  UMBRA_DECLARE_PARAMETER(WideParam) { UMBRA_TEST_FIELDS(UMBRA_TEST_DECLARE) }
};
UMBRA_REGISTER_PARAMETER(WideParam);

TEST(FieldEntryTest, StructWithThirtyFields) {
  const std::vector<ParamFieldInfo> fields = WideParam::Fields();
  ASSERT_EQ(fields.size(), 30u);
  ParamKwargs kwargs;
  for (int i = 0; i < 30; ++i) {
    const std::string key = (i < 10 ? "f0" : "f") + std::to_string(i);
    EXPECT_EQ(fields[i].name, key);
    if (i % 2 == 0) kwargs.emplace_back(key, std::to_string(i * 1.5));
  }
  WideParam param;
  param.Init(kwargs);
  const double* values = &param.f00;
  const double expected[30] = {0,  -1, 3,  -1, 6,  -1, 9,  -1, 12, -1,
                               15, -1, 18, -1, 21, -1, 24, -1, 27, -1,
                               30, -1, 33, -1, 36, -1, 39, -1, 42, -1};
  EXPECT_EQ(param.f00, 0.0);
  EXPECT_EQ(param.f29, -1.0);
  EXPECT_EQ(param.f28, 42.0);
  for (int i = 0; i < 30; ++i) {
    // The members are consecutive doubles, so they can be walked as an array.
    EXPECT_EQ(values[i], expected[i]) << "field " << i;
  }
  EXPECT_EQ(param.Dict().size(), 30u);
}

TEST(FieldEntryTest, InitLeavesMembersThatAreNotFieldsAlone) {
  WideParam param;
  param.padding = 'z';
  param.Init({{"f03", "3"}});
  EXPECT_EQ(param.padding, 'z');
  param.UpdateAllowUnknown({{"f04", "4"}});
  EXPECT_EQ(param.padding, 'z');
  EXPECT_EQ(param.f03, 3.0);
  EXPECT_EQ(param.f04, 4.0);
}

// Built on first use only, so that the threads below race to build it.
struct LazyParam : public Parameter<LazyParam> {
  int a;
  std::string b;
  UMBRA_DECLARE_PARAMETER(LazyParam) {
    UMBRA_DECLARE_FIELD(a).set_default(1).set_lower_bound(0);
    UMBRA_DECLARE_FIELD(b).set_default("x");
    UMBRA_DECLARE_ALIAS(a, alpha);
  }
};
UMBRA_DEFINE_PARAMETER_MANAGER_(LazyParam)

TEST(FieldEntryTest, ConcurrentFirstUseBuildsOneManager) {
  ASSERT_EQ(ErrorOf([] { GetParamStruct("LazyParam"); }),
            "unknown parameter struct 'LazyParam'. Registered: AllTypesParam, "
            "FullcParam, "
            "WideParam")
      << "LazyParam must not be built before this test";
  constexpr int kThreads = 8;
  std::atomic<int> ready{0};
  std::atomic<int> failures{0};
  std::vector<const param::ParamManager*> managers(kThreads, nullptr);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ++ready;
      while (ready.load() < kThreads) {
      }
      for (int i = 0; i < 200; ++i) {
        LazyParam param;
        param.Init({{"alpha", std::to_string(t * 1000 + i)},
                    {"b", std::to_string(t)}});
        if (param.a != t * 1000 + i || param.b != std::to_string(t)) ++failures;
        if (ErrorOf([&] {
              param.Init({{"a", "-1"}});
            }) != "LazyParam: key 'a': expected int in [0, inf), got '-1'") {
          ++failures;
        }
      }
      managers[t] = LazyParam::Manager();
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  for (int t = 1; t < kThreads; ++t) EXPECT_EQ(managers[t], managers[0]);
  EXPECT_EQ(GetParamStruct("LazyParam").fields.size(), 2u);
}

}  // namespace
}  // namespace param_test
}  // namespace umbra
