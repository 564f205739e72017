// Parameter structs shared by the param tests; registered in test_params.cc.
#ifndef UMBRA_PARAM_TEST_PARAMS_H_
#define UMBRA_PARAM_TEST_PARAMS_H_

#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "param/param.h"

namespace umbra {
namespace param_test {

enum PoolType { kMaxPool = 0, kAvgPool = 1 };

// A layer-like struct with one field of each common kind.
struct FullcParam : public Parameter<FullcParam> {
  int nhidden;
  float init_sigma;
  double lr;
  bool no_bias;
  std::string name;
  int pool_type;
  std::optional<int> seed;
  std::vector<int> shape;
  std::uint32_t num_group;

  UMBRA_DECLARE_PARAMETER(FullcParam) {
    UMBRA_DECLARE_FIELD(nhidden).set_range(1, 1000).describe(
        "Number of output units.");
    UMBRA_DECLARE_FIELD(init_sigma)
        .set_default(0.01f)
        .set_lower_bound(0.0f)
        .describe("Standard deviation of the initial weights.");
    UMBRA_DECLARE_FIELD(lr).set_default(0.1).set_upper_bound(10.0).describe(
        "Learning rate.");
    UMBRA_DECLARE_FIELD(no_bias).set_default(false).describe(
        "Leave out the bias term.");
    UMBRA_DECLARE_FIELD(name).set_default("hello");
    UMBRA_DECLARE_FIELD(pool_type)
        .add_enum("max", kMaxPool)
        .add_enum("avg", kAvgPool)
        .set_default(kMaxPool)
        .describe("Pooling function.");
    UMBRA_DECLARE_FIELD(seed).set_default(std::nullopt).set_lower_bound(0);
    UMBRA_DECLARE_FIELD(shape)
        .set_default(std::vector<int>{1, 28, 28})
        .set_lower_bound(1)
        .describe("Input shape as channels,height,width.");
    UMBRA_DECLARE_FIELD(num_group).set_default(1u);
    UMBRA_DECLARE_ALIAS(nhidden, num_hidden);
  }
};

// A user type read and written through its stream operators: "AxBxC".
struct Dims {
  int a = 0;
  int b = 0;
  int c = 0;
  bool operator==(const Dims& other) const {
    return a == other.a && b == other.b && c == other.c;
  }
};
std::istream& operator>>(std::istream& is, Dims& dims);
std::ostream& operator<<(std::ostream& os, const Dims& dims);

// One field of every supported type, for the width and fuzz tests.
struct AllTypesParam : public Parameter<AllTypesParam> {
  std::int8_t i8;
  std::uint8_t u8;
  std::int16_t i16;
  std::uint16_t u16;
  std::int32_t i32;
  std::uint32_t u32;
  std::int64_t i64;
  std::uint64_t u64;
  float f32;
  double f64;
  float f32_any;
  bool flag;
  std::string text;
  int mode;
  std::optional<int> maybe_int;
  std::optional<float> maybe_float;
  std::optional<int> maybe_mode;
  std::vector<int> ints;
  std::vector<double> doubles;
  Dims dims;

  UMBRA_DECLARE_PARAMETER(AllTypesParam) {
    UMBRA_DECLARE_FIELD(i8).set_default(0);
    UMBRA_DECLARE_FIELD(u8).set_default(0);
    UMBRA_DECLARE_FIELD(i16).set_default(0);
    UMBRA_DECLARE_FIELD(u16).set_default(0);
    UMBRA_DECLARE_FIELD(i32).set_default(0);
    UMBRA_DECLARE_FIELD(u32).set_default(0);
    UMBRA_DECLARE_FIELD(i64).set_default(0);
    UMBRA_DECLARE_FIELD(u64).set_default(0);
    UMBRA_DECLARE_FIELD(f32).set_default(0.0f);
    UMBRA_DECLARE_FIELD(f64).set_default(0.0);
    UMBRA_DECLARE_FIELD(f32_any).set_default(0.0f).allow_inf_nan();
    UMBRA_DECLARE_FIELD(flag).set_default(false);
    UMBRA_DECLARE_FIELD(text).set_default("");
    UMBRA_DECLARE_FIELD(mode).add_enum("a", 0).add_enum("b", 1).set_default(0);
    UMBRA_DECLARE_FIELD(maybe_int).set_default(std::nullopt);
    UMBRA_DECLARE_FIELD(maybe_float).set_default(std::nullopt);
    UMBRA_DECLARE_FIELD(maybe_mode)
        .add_enum("same", 0)
        .add_enum("valid", 1)
        .set_default(std::nullopt);
    UMBRA_DECLARE_FIELD(ints).set_default(std::vector<int>{});
    UMBRA_DECLARE_FIELD(doubles).set_default(std::vector<double>{});
    UMBRA_DECLARE_FIELD(dims).set_default(Dims{1, 2, 3});
  }
};

}  // namespace param_test
}  // namespace umbra

UMBRA_DECLARE_TYPE_NAME(umbra::param_test::Dims, "dims (AxBxC)");

#endif  // UMBRA_PARAM_TEST_PARAMS_H_
