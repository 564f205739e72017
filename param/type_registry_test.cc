// TypeRegistry: names and creators of a registry of its own (shapes of a
// toy kind), the messages for unknown names, and the aborts for
// registration mistakes.
#include "param/type_registry.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace umbra {

// Devices of the toy registry: the real ones live in tensor/.
struct cpu {};
struct gpu {};

namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class ShapeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ShapeTypeInfo {
  static constexpr char kKind[] = "shape";
  static constexpr char kKnownAs[] = "shapes";
  static constexpr char kLibrary[] = "//param:shapes";
  using Error = ShapeError;

  std::string type;
  int corners = 0;
  std::string Problem() const {
    return corners < 0 ? "corners must be at least 0" : "";
  }
};

template <typename xpu, typename DType>
class Shape {
 public:
  virtual ~Shape() = default;
  virtual DType Area() const = 0;
};

template <typename xpu, typename DType>
class Square : public Shape<xpu, DType> {
 public:
  static ShapeTypeInfo Describe() { return {"", 4}; }
  DType Area() const override { return DType(1); }
};

template <typename xpu, typename DType>
class Circle : public Shape<xpu, DType> {
 public:
  static ShapeTypeInfo Describe() { return {"", 0}; }
  DType Area() const override { return DType(3.14159); }
};

using ShapeRegistry = TypeRegistry<ShapeTypeInfo, Shape>;
UMBRA_REGISTER_TYPE(ShapeRegistry, cpu, "square", Square, float, double);
UMBRA_REGISTER_TYPE(ShapeRegistry, cpu, "circle", Circle, float);
UMBRA_REGISTER_TYPE_DEVICE(ShapeRegistry, gpu, "square", Square, float);

std::string ErrorOf(absl::string_view name) {
  try {
    ShapeRegistry::Get(name);
  } catch (const ShapeError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ShapeError for " << name;
  return "";
}

TEST(TypeRegistryTest, ListsAndFindsWhatWasRegistered) {
  EXPECT_THAT(ShapeRegistry::List(), ElementsAre("circle", "square"));
  EXPECT_EQ(ShapeRegistry::Get("square").corners, 4);
  EXPECT_EQ(ShapeRegistry::Get("square").type, "square");
  EXPECT_EQ(ShapeRegistry::Find("triangle"), nullptr);
  ASSERT_NE(ShapeRegistry::Find("circle"), nullptr);
  EXPECT_EQ(ShapeRegistry::Find("circle")->corners, 0);
}

TEST(TypeRegistryTest, CreatesPerDeviceAndPrecision) {
  EXPECT_THAT((ShapeRegistry::ListCreators<cpu, float>()),
              ElementsAre("circle", "square"));
  EXPECT_THAT((ShapeRegistry::ListCreators<cpu, double>()),
              ElementsAre("square"));
  EXPECT_THAT((ShapeRegistry::ListCreators<gpu, float>()),
              ElementsAre("square"));
  EXPECT_TRUE((ShapeRegistry::ListCreators<gpu, double>().empty()));

  auto create = ShapeRegistry::FindCreator<cpu, float>("circle");
  ASSERT_NE(create, nullptr);
  std::unique_ptr<Shape<cpu, float>> circle = create();
  EXPECT_FLOAT_EQ(circle->Area(), 3.14159f);
  EXPECT_EQ((ShapeRegistry::FindCreator<cpu, double>("circle")), nullptr);
  EXPECT_EQ((ShapeRegistry::FindCreator<gpu, float>("circle")), nullptr);
}

TEST(TypeRegistryTest, AnUnknownNameSuggestsTheClosestAndListsAll) {
  EXPECT_EQ(ErrorOf("sqare"),
            "unknown shape 'sqare'; did you mean 'square'? Known shapes: "
            "circle, square");
  EXPECT_EQ(ErrorOf("hexagon"),
            "unknown shape 'hexagon'. Known shapes: circle, square");
}

TEST(TypeRegistryTest, ManyNamesAreNotAllListed) {
  const std::vector<std::string> layers = {
      "avg_pooling", "batch_norm",  "bias", "conv",    "dropout",
      "fullc",       "max_pooling", "relu", "sigmoid", "softmax"};
  EXPECT_EQ(
      UnknownNameMessage("layer type", "types", "//layers", "fulc", layers),
      "unknown layer type 'fulc'; did you mean 'fullc'? Known types: 10 "
      "in all; see tools/config_reference.md");
  EXPECT_EQ(UnknownNameMessage("layer type", "types", "//layers", "bax_pooling",
                               layers),
            "unknown layer type 'bax_pooling'; did you mean 'max_pooling'? "
            "Known types (2 closest of 10): max_pooling, avg_pooling; see "
            "tools/config_reference.md");
  EXPECT_EQ(
      UnknownNameMessage("layer type", "types", "//layers", "lstm", layers),
      "unknown layer type 'lstm'. Known types: 10 in all; "
      "see tools/config_reference.md");
}

TEST(TypeRegistryTest, AHugeNameIsQuotedShort) {
  const std::string huge(10'000'000, 's');
  const std::string message = ErrorOf(huge);
  EXPECT_LT(message.size(), 500u);
  EXPECT_EQ(message, "unknown shape '" + std::string(80, 's') +
                         "'... (10000000 bytes in all). Known shapes: circle, "
                         "square");
  EXPECT_LT(
      UnknownNameMessage("layer type", "types", "//layers", huge, {}).size(),
      500u);
}

TEST(TypeRegistryTest, AnEmptyRegistrySaysWhatToLink) {
  EXPECT_EQ(UnknownNameMessage("layer type", "types", "//layers", "fullc", {}),
            "unknown layer type 'fullc': this program has no layer types "
            "registered (link //layers)");
}

TEST(TypeRegistryDeathTest, RegistrationMistakesAbortAtStartUp) {
  EXPECT_DEATH(ShapeRegistry::Add({"square", 4}),
               "umbra: shape 'square': registered twice");
  EXPECT_DEATH(ShapeRegistry::Add({"", 3}), "umbra: shape '': empty name");
  EXPECT_DEATH(ShapeRegistry::Add({"star", -1}),
               "umbra: shape 'star': corners must be at least 0");
  EXPECT_DEATH((internal::AddCreators<ShapeRegistry, gpu, Square, float>(
                   "square", "gpu")),
               "umbra: shape 'square': has two gpu implementations");
}

}  // namespace
}  // namespace umbra
