// Every gradient case of the layer table (layers/layer_cases.h) checked
// against finite differences: in double (tight) and in float (loose), each
// with a fresh seed (UMBRA_TEST_SEED replays one).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "layers/gradient_checker.h"
#include "layers/layer_cases.h"
#include "layers/layer_registry.h"
#include "tensor/test_seed.h"

namespace umbra {
namespace layers {
namespace {

// Each case checked in double, and in float where it applies (see
// LayerCase::kGradientFloat).
template <typename DType>
class GradientCheckTest : public ::testing::TestWithParam<LayerCase> {
 protected:
  void Check() {
    const test::ScopedTestSeed seed;
    EXPECT_TRUE(GradientChecker<DType>(GetParam(), seed.value()).Run());
  }
};
using GradientCheckDoubleTest = GradientCheckTest<double>;
using GradientCheckFloatTest = GradientCheckTest<float>;

TEST_P(GradientCheckDoubleTest, MatchesFiniteDifferences) { Check(); }
TEST_P(GradientCheckFloatTest, MatchesFiniteDifferences) { Check(); }

INSTANTIATE_TEST_SUITE_P(
    Layers, GradientCheckDoubleTest,
    ::testing::ValuesIn(LayerCases(LayerCase::kGradientDouble)),
    ::testing::PrintToStringParamName());
INSTANTIATE_TEST_SUITE_P(
    Layers, GradientCheckFloatTest,
    ::testing::ValuesIn(LayerCases(LayerCase::kGradientFloat)),
    ::testing::PrintToStringParamName());

// out = 2 * in, with a Backprop that is wrong as `kMistake` says: the checker
// must notice.
enum Mistake { kForgetsTheFactor, kAddsToTheInputGradient };
template <typename xpu, typename DType, Mistake kMistake>
class BrokenLayer : public Layer<xpu, DType> {
 public:
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description = "out = 2 in, with a wrong Backprop (tests only).";
    return info;
  }
  void Forward(bool is_train) override {
    this->out(0).data = this->in(0).data * scalar<DType>(2);
  }
  void Backprop(bool prop_grad) override {
    if (kMistake == kForgetsTheFactor) {
      this->in(0).grad = F<::umbra::op::identity>(this->out(0).grad);
    } else {
      this->in(0).grad += this->out(0).grad * scalar<DType>(2);
    }
  }

 protected:
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    return in_shapes;
  }
};
template <typename xpu, typename DType>
using ForgetfulLayer = BrokenLayer<xpu, DType, kForgetsTheFactor>;
template <typename xpu, typename DType>
using AccumulatingLayer = BrokenLayer<xpu, DType, kAddsToTheInputGradient>;
UMBRA_REGISTER_LAYER("test_forgetful", ForgetfulLayer);
UMBRA_REGISTER_LAYER("test_accumulating", AccumulatingLayer);

// Targets keep clear of their input (see GradientChecker), so lp_loss at
// p = 1 passes in float (step 1e-2) for every seed; were a target within
// the step of its input, about 1 element in 100 would fail.
TEST(GradientCheckerTest, TargetsStayClearOfTheLpKink) {
  LayerCase c{"lp_loss_kink", "lp_loss", {{"p", "1"}}, {Shape4(4, 1, 1, 5)}};
  c.labels = LayerCase::Labels::kTargets;
  for (unsigned seed = 0; seed < 200; ++seed) {
    ASSERT_TRUE(GradientChecker<float>(c, seed).Run()) << "seed " << seed;
  }
}

TEST(GradientCheckerTest, CatchesWrongGradients) {
  for (const char* type : {"test_forgetful", "test_accumulating"}) {
    const LayerCase c{type, type, {}, {Shape4(2, 1, 1, 3)}};
    EXPECT_FALSE(GradientChecker<double>(c, 1).Run()) << type;
    EXPECT_FALSE(GradientChecker<float>(c, 1).Run()) << type;
  }
}

}  // namespace
}  // namespace layers
}  // namespace umbra
