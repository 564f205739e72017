// Every layer type, in several configurations, checked against finite
// differences: in double (tight) and in float (loose).
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "layers/gradient_checker.h"
#include "layers/layer_registry.h"

namespace umbra {
namespace layers {
namespace {

using Labels = GradientCase::Labels;

std::vector<GradientCase> Cases() {
  const Shape<4> image = Shape4(2, 3, 2, 3);
  const Shape<4> matrix = Shape4(3, 1, 1, 5);
  std::vector<GradientCase> cases = {
      {"fullc",
       "fullc",
       {{"nhidden", "5"}, {"init_sigma", "0.5"}},
       {Shape4(3, 1, 1, 7)}},
      {"fullc_no_bias",
       "fullc",
       {{"nhidden", "4"}, {"no_bias", "1"}, {"random_type", "xavier"}},
       {Shape4(2, 1, 1, 3)}},
      {"fullc_one",
       "fullc",
       {{"nhidden", "1"}, {"random_type", "kaiming"}, {"init_bias", "0.3"}},
       {Shape4(1, 1, 1, 1)}},
      {"fullc_tagged",
       "fullc",
       {{"nhidden", "3"},
        {"wmat:random_type", "uniform"},
        {"wmat:init_uniform", "0.7"},
        {"bias:init_bias", "-0.2"}},
       {Shape4(4, 1, 1, 6)}},
      {"bias_image", "bias", {{"init_bias", "0.1"}}, {image}},
      {"bias_matrix", "bias", {}, {matrix}},
      {"bias_in_place", "bias", {}, {image}, 1, true},
      {"prelu_image", "prelu", {}, {image}},
      {"prelu_matrix", "prelu", {{"init_slope", "-0.3"}}, {matrix}},
      {"xelu", "xelu", {{"b", "3"}}, {image}},
      {"xelu_in_place", "xelu", {}, {matrix}, 1, true},
      {"rrelu", "rrelu", {{"lb", "2"}, {"ub", "4"}}, {image}},
      {"rrelu_in_place", "rrelu", {}, {matrix}, 1, true},
      {"dropout", "dropout", {{"threshold", "0.5"}}, {image}},
      {"dropout_in_place",
       "dropout",
       {{"threshold", "0.3"}},
       {matrix},
       1,
       true},
      {"dropout_off", "dropout", {{"threshold", "0"}}, {matrix}},
      {"flatten", "flatten", {}, {Shape4(2, 3, 4, 5)}},
      {"concat",
       "concat",
       {},
       {Shape4(2, 1, 1, 3), Shape4(2, 1, 1, 4), Shape4(2, 1, 1, 1)}},
      {"concat_image", "concat", {}, {Shape4(2, 2, 3, 1), Shape4(2, 2, 3, 2)}},
      {"ch_concat", "ch_concat", {}, {Shape4(2, 2, 3, 3), Shape4(2, 1, 3, 3)}},
      {"split", "split", {}, {image}, 3},
      {"softmax",
       "softmax",
       {{"grad_scale", "2"}},
       {Shape4(4, 1, 1, 5)},
       1,
       false,
       Labels::kClassIndex},
      {"softmax_in_place",
       "softmax",
       {},
       {Shape4(1, 1, 1, 3)},
       1,
       true,
       Labels::kClassIndex},
      {"l2_loss",
       "l2_loss",
       {},
       {Shape4(3, 1, 1, 4)},
       1,
       false,
       Labels::kTargets},
      {"l2_loss_odd_in_place",
       "l2_loss",
       {{"grad_scale", "3"}},
       {Shape4(5, 1, 1, 3)},
       1,
       true,
       Labels::kTargets},
      {"lp_loss",
       "lp_loss",
       {{"p", "3"}},
       {Shape4(3, 1, 1, 2)},
       1,
       true,
       Labels::kTargets},
      // p < 2: the checker keeps every target 0.1 from its input, clear of
      // the kink at p = 1 and of the infinite curvature at p = 1.5.
      {"lp_loss_p1_5",
       "lp_loss",
       {{"p", "1.5"}},
       {Shape4(4, 1, 1, 3)},
       1,
       false,
       Labels::kTargets},
      {"lp_loss_p1",
       "lp_loss",
       {{"p", "1"}, {"grad_scale", "2"}},
       {Shape4(2, 1, 1, 5)},
       1,
       true,
       Labels::kTargets},
      {"multi_logistic",
       "multi_logistic",
       {{"grad_scale", "0.5"}},
       {Shape4(3, 1, 1, 4)},
       1,
       false,
       Labels::kTargets},
      {"multi_logistic_odd_in_place",
       "multi_logistic",
       {},
       {Shape4(2, 1, 1, 7)},
       1,
       true,
       Labels::kTargets},
  };
  // conv: stride, padding, groups, no_bias, dilation, odd sizes, chunks.
  const std::vector<GradientCase> conv = {
      {"conv",
       "conv",
       {{"nchannel", "3"}, {"kernel_size", "3"}, {"init_sigma", "0.5"}},
       {Shape4(2, 2, 5, 5)}},
      {"conv_stride_pad",
       "conv",
       {{"nchannel", "2"},
        {"kernel_size", "3"},
        {"stride", "2"},
        {"pad", "1"},
        {"init_sigma", "0.5"},
        {"init_bias", "0.2"}},
       {Shape4(2, 3, 6, 5)}},
      {"conv_group_no_bias",
       "conv",
       {{"nchannel", "4"},
        {"kernel_height", "2"},
        {"kernel_width", "3"},
        {"pad_y", "1"},
        {"ngroup", "2"},
        {"no_bias", "1"},
        {"random_type", "xavier"}},
       {Shape4(1, 4, 4, 4)}},
      {"conv_dilate",
       "conv",
       {{"nchannel", "2"},
        {"kernel_size", "2"},
        {"dilate", "2"},
        {"pad", "1"},
        {"init_sigma", "0.5"}},
       {Shape4(2, 1, 5, 6)}},
      {"conv_one_image_at_a_time",
       "conv",
       {{"nchannel", "3"},
        {"kernel_size", "3"},
        {"pad", "1"},
        {"ngroup", "3"},
        {"temp_col_max", "0"},
        {"init_sigma", "0.5"}},
       {Shape4(3, 3, 3, 4)}},
      {"conv_all",
       "conv",
       {{"nchannel", "4"},
        {"kernel_height", "3"},
        {"kernel_width", "2"},
        {"stride", "2"},
        {"pad_y", "2"},
        {"pad_x", "1"},
        {"dilate", "2"},
        {"ngroup", "2"},
        {"no_bias", "1"},
        {"temp_col_max", "0"},
        {"init_sigma", "0.5"}},
       {Shape4(3, 2, 7, 5)}},
      {"conv_odd",
       "conv",
       {{"nchannel", "1"},
        {"kernel_size", "1"},
        {"stride", "2"},
        {"pad_x", "2"},
        {"random_type", "kaiming"}},
       {Shape4(1, 3, 3, 1)}},
  };
  cases.insert(cases.end(), conv.begin(), conv.end());
  // Pooling: non-overlapping, overlapping with a ceil-mode edge, padding,
  // rectangular windows, gaps between windows (stride > kernel, with and
  // without padding, whose last window would start in the padding).
  for (const char* type : {"max_pooling", "avg_pooling", "sum_pooling"}) {
    const std::string t = type;
    const size_t first = cases.size();
    cases.push_back({t + "_2x2",
                     t,
                     {{"kernel_size", "2"}, {"stride", "2"}},
                     {Shape4(2, 2, 4, 4)}});
    cases.push_back({t + "_3x3_s2_ceil",
                     t,
                     {{"kernel_size", "3"}, {"stride", "2"}},
                     {Shape4(1, 2, 6, 5)}});
    cases.push_back({t + "_pad",
                     t,
                     {{"kernel_size", "3"}, {"stride", "2"}, {"pad", "1"}},
                     {Shape4(2, 1, 5, 5)}});
    cases.push_back({t + "_rect",
                     t,
                     {{"kernel_height", "2"}, {"kernel_width", "3"}},
                     {Shape4(1, 2, 3, 4)}});
    cases.push_back({t + "_2x2_s3",
                     t,
                     {{"kernel_size", "2"}, {"stride", "3"}},
                     {Shape4(2, 2, 7, 8)}});
    cases.push_back({t + "_2x2_s3_pad",
                     t,
                     {{"kernel_size", "2"}, {"stride", "3"}, {"pad", "1"}},
                     {Shape4(1, 2, 5, 7)}});
    for (size_t i = first; i < cases.size(); ++i) {
      cases[i].check_float = t != "max_pooling";
    }
  }
  const std::vector<GradientCase> norm = {
      {"lrn",
       "lrn",
       {{"local_size", "3"}, {"alpha", "0.5"}, {"beta", "0.75"}},
       {Shape4(2, 5, 2, 3)}},
      {"lrn_wide",
       "lrn",
       {{"local_size", "5"}, {"alpha", "2"}, {"knorm", "2"}, {"beta", "0.5"}},
       {Shape4(1, 3, 2, 2)}},
      {"batch_norm",
       "batch_norm",
       {{"init_slope", "1.5"}, {"init_bias", "0.2"}},
       {Shape4(3, 2, 2, 3)}},
      {"batch_norm_matrix",
       "batch_norm",
       {{"eps", "0.01"}},
       {Shape4(4, 1, 1, 3)}},
      {"batch_norm_in_place",
       "batch_norm",
       {{"beta:init_bias", "-0.3"}},
       {Shape4(2, 3, 1, 2)},
       1,
       true},
  };
  cases.insert(cases.end(), norm.begin(), norm.end());
  for (const char* type : {"relu", "sigmoid", "tanh", "softplus"}) {
    cases.push_back({type, type, {}, {image}});
    cases.push_back(
        {std::string(type) + "_in_place", type, {}, {matrix}, 1, true});
    cases.push_back(
        {std::string(type) + "_odd", type, {}, {Shape4(1, 1, 1, 7)}});
  }
  return cases;
}

class GradientCheckTest : public ::testing::TestWithParam<GradientCase> {
 protected:
  static unsigned Seed() { return std::random_device{}(); }
};

TEST_P(GradientCheckTest, Double) {
  EXPECT_TRUE(GradientChecker<double>(GetParam(), Seed()).Run());
}

TEST_P(GradientCheckTest, Float) {
  if (!GetParam().check_float) GTEST_SKIP() << "checked in double only";
  EXPECT_TRUE(GradientChecker<float>(GetParam(), Seed()).Run());
}

INSTANTIATE_TEST_SUITE_P(
    Layers, GradientCheckTest, ::testing::ValuesIn(Cases()),
    [](const ::testing::TestParamInfo<GradientCase>& info) {
      return info.param.name;
    });

// Every registered type has at least one case above.
TEST(GradientCheckCoverage, EveryTypeIsChecked) {
  std::set<std::string> checked;
  for (const GradientCase& c : Cases()) checked.insert(c.type);
  for (const std::string& type : LayerRegistry::List()) {
    if (type.rfind("test_", 0) == 0) continue;
    EXPECT_EQ(checked.count(type), 1u) << "no gradient case for " << type;
  }
}

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
  GradientCase c{"lp_loss_kink",       "lp_loss", {{"p", "1"}},
                 {Shape4(4, 1, 1, 5)}, 1,         false,
                 Labels::kTargets};
  for (unsigned seed = 0; seed < 200; ++seed) {
    ASSERT_TRUE(GradientChecker<float>(c, seed).Run()) << "seed " << seed;
  }
}

TEST(GradientCheckerTest, CatchesWrongGradients) {
  for (const char* type : {"test_forgetful", "test_accumulating"}) {
    GradientCase c{type, type, {}, {Shape4(2, 1, 1, 3)}};
    EXPECT_FALSE(GradientChecker<double>(c, 1).Run()) << type;
    EXPECT_FALSE(GradientChecker<float>(c, 1).Run()) << type;
  }
}

}  // namespace
}  // namespace layers
}  // namespace umbra
