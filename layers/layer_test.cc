// Layer behaviour beyond gradients: weight names and per-tag settings,
// shape and binding errors, labels, train/test modes and forward values.
#include "layers/layer.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "layers/layer_registry.h"
#include "layers/standalone_layer.h"
#include "tensor/test_seed.h"

namespace umbra {
namespace layers {
namespace {

using ::testing::HasSubstr;

template <typename Fn>
std::string ErrorOf(Fn fn) {
  try {
    fn();
  } catch (const LayerError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(LayerTest, WeightNamesShapesAndSettings) {
  auto fc = CreateLayer<cpu, float>(
      "fullc", "fc1",
      {{"wmat:init_sigma", "0.5"},  // a tagged key wins whatever its place
       {"nhidden", "3"},
       {"init_sigma", "1"},
       {"bias:wd", "0"},
       {"lr", "0.1"},
       {"wmat:lr_mult", "2"}});
  fc->InferShapes({Shape4(4, 1, 1, 6)});
  std::vector<WeightRef<cpu, float>> weights = fc->Weights();
  ASSERT_EQ(weights.size(), 2u);
  EXPECT_EQ(weights[0].name, "fc1.wmat");
  EXPECT_EQ(weights[0].tag, "wmat");
  EXPECT_EQ(weights[0].shape, TShape({3, 6}));
  EXPECT_EQ(weights[0].data.size(0), 18);
  EXPECT_EQ(weights[1].name, "fc1.bias");
  EXPECT_EQ(weights[1].shape, TShape({3}));
  const WeightParam& wmat = *weights[0].settings;
  const WeightParam& bias = *weights[1].settings;
  EXPECT_FLOAT_EQ(wmat.init_sigma, 0.5f);
  EXPECT_FLOAT_EQ(bias.init_sigma, 1.0f);
  EXPECT_FLOAT_EQ(*wmat.lr, 0.1f);
  EXPECT_FLOAT_EQ(wmat.lr_mult, 2.0f);
  EXPECT_FLOAT_EQ(bias.lr_mult, 1.0f);
  EXPECT_FALSE(wmat.wd.has_value());
  EXPECT_FLOAT_EQ(*bias.wd, 0.0f);

  auto no_bias = CreateLayer<cpu, float>("fullc", "fc2",
                                         {{"nhidden", "3"}, {"no_bias", "1"}});
  no_bias->InferShapes({Shape4(4, 1, 1, 6)});
  ASSERT_EQ(no_bias->Weights().size(), 1u);
  EXPECT_EQ(no_bias->Weights()[0].name, "fc2.wmat");
}

// cxxnet's tag names: prelu's slope was `bias`, batch_norm's gamma and beta
// were `wmat` and `bias`. An alias sets the canonical tag's settings (the
// later of the two wins); weights keep their canonical names.
TEST(LayerTest, CxxnetWeightTagAliases) {
  auto prelu = CreateLayer<cpu, float>("prelu", "act1",
                                       {{"bias:wd", "0"}, {"bias:lr", "0.5"}});
  prelu->InferShapes({Shape4(2, 3, 2, 2)});
  ASSERT_EQ(prelu->Weights().size(), 1u);
  EXPECT_EQ(prelu->Weights()[0].name, "act1.slope");
  const WeightParam& slope = *prelu->Weights()[0].settings;
  EXPECT_FLOAT_EQ(slope.wd.value_or(-1.0f), 0.0f);
  EXPECT_FLOAT_EQ(slope.lr.value_or(-1.0f), 0.5f);

  auto bn = CreateLayer<cpu, float>(
      "batch_norm", "bn1",
      {{"wmat:lr", "0.25"}, {"bias:lr", "2"}, {"beta:wd", "0.125"}});
  bn->InferShapes({Shape4(2, 3, 2, 2)});
  std::vector<WeightRef<cpu, float>> weights = bn->Weights();
  ASSERT_EQ(weights.size(), 2u);
  EXPECT_EQ(weights[0].name, "bn1.gamma");
  EXPECT_EQ(weights[1].name, "bn1.beta");
  EXPECT_FLOAT_EQ(weights[0].settings->lr.value_or(-1.0f), 0.25f);
  EXPECT_FALSE(weights[0].settings->wd.has_value());
  EXPECT_FLOAT_EQ(weights[1].settings->lr.value_or(-1.0f), 2.0f);
  EXPECT_FLOAT_EQ(weights[1].settings->wd.value_or(-1.0f), 0.125f);

  // Canonical tag and alias name the same setting: the later one wins.
  for (const bool alias_last : {false, true}) {
    ParamKwargs kwargs = {{"slope:wd", "0.1"}, {"bias:wd", "0.2"}};
    if (!alias_last) std::swap(kwargs[0], kwargs[1]);
    auto layer = CreateLayer<cpu, float>("prelu", "p", kwargs);
    layer->InferShapes({Shape4(2, 3, 2, 2)});
    EXPECT_FLOAT_EQ(layer->Weights()[0].settings->wd.value_or(-1.0f),
                    alias_last ? 0.2f : 0.1f);
  }
}

TEST(LayerTest, WeightsSurviveABatchSizeChange) {
  auto fc = CreateLayer<cpu, float>("fullc", "fc1", {{"nhidden", "2"}});
  fc->InferShapes({Shape4(4, 1, 1, 3)});
  fc->Weights()[0].data = 1.5f;
  const float* before = fc->Weights()[0].data.dptr_;
  EXPECT_EQ(fc->InferShapes({Shape4(7, 1, 1, 3)})[0], Shape4(7, 1, 1, 2));
  EXPECT_EQ(fc->Weights()[0].data.dptr_, before);
  EXPECT_EQ(fc->Weights()[0].data[5], 1.5f);
}

// A layer sharing another's weights reads the same values, adds into the
// same gradients and leaves initialisation and zeroing to the owner.
TEST(LayerTest, SharedWeightsAreTheOwnersTensors) {
  StandaloneLayer<cpu, double> owner("fullc", {{"nhidden", "3"}},
                                     {Shape4(2, 1, 1, 4)});
  StandaloneLayer<cpu, double> user("fullc", {{"nhidden", "3"}},
                                    {Shape4(5, 1, 1, 4)});
  Random<cpu, double> rnd(7);
  owner.layer().InitWeights(&rnd);
  const std::vector<double> before(owner.layer().Weights()[0].data.dptr_,
                                   owner.layer().Weights()[0].data.dptr_ + 12);
  user.layer().ShareWeightsOf(owner.layer());
  user.layer().InitWeights(&rnd);
  for (size_t w = 0; w < 2; ++w) {
    EXPECT_EQ(user.layer().Weights()[w].data.dptr_,
              owner.layer().Weights()[w].data.dptr_);
    EXPECT_EQ(user.layer().Weights()[w].grad.dptr_,
              owner.layer().Weights()[w].grad.dptr_);
  }
  EXPECT_EQ(owner.layer().Weights()[0].data[5], before[5])
      << "the sharing layer re-initialised the owner's weights";

  // The bias gradient is the sum of the output gradients over both batches.
  owner.out(0).grad = 1.0;
  user.out(0).grad = 1.0;
  owner.layer().ZeroGradients();
  owner.layer().Backprop(false);
  user.layer().Backprop(false);
  user.layer().ZeroGradients();  // the owner's gradients are not its own
  EXPECT_EQ(owner.layer().Weights()[1].grad[0], 2.0 + 5.0);

  StandaloneLayer<cpu, double> wider("fullc", {{"nhidden", "3"}},
                                     {Shape4(2, 1, 1, 6)});
  const std::string e =
      ErrorOf([&] { wider.layer().ShareWeightsOf(owner.layer()); });
  EXPECT_THAT(e, HasSubstr("layer 'fullc0' (fullc)"));
  EXPECT_THAT(e, HasSubstr("its wmat is (3,4), this wmat is (3,6)"));
}

TEST(LayerTest, ShapeErrorsNameLayerShapesAndNeed) {
  auto fc = CreateLayer<cpu, float>("fullc", "fc1", {{"nhidden", "2"}});
  const std::string error =
      ErrorOf([&] { fc->InferShapes({Shape4(2, 3, 4, 5)}); });
  EXPECT_THAT(error, HasSubstr("layer 'fc1' (fullc)"));
  EXPECT_THAT(error, HasSubstr("[(2,3,4,5)]"));
  EXPECT_THAT(error, HasSubstr("flatten"));

  auto relu = CreateLayer<cpu, float>("relu", "r", {});
  EXPECT_THAT(ErrorOf([&] {
                relu->InferShapes({Shape4(1, 1, 1, 2), Shape4(1, 1, 1, 2)});
              }),
              HasSubstr("needs 1 input and 1 output"));
  auto concat = CreateLayer<cpu, float>("ch_concat", "cat", {});
  EXPECT_THAT(ErrorOf([&] {
                concat->InferShapes({Shape4(2, 1, 3, 3), Shape4(2, 1, 3, 4)});
              }),
              HasSubstr("dimension 3 differs"));
  EXPECT_THAT(ErrorOf([&] { concat->InferShapes({Shape4(2, 1, 3, 3)}); }),
              HasSubstr("two or more inputs"));
  auto softmax = CreateLayer<cpu, float>("softmax", "loss", {});
  EXPECT_THAT(
      ErrorOf([&] { softmax->InferShapes({Shape4(2, 3, 1, 1)}); }),
      HasSubstr("layer 'loss' (softmax): got input shapes [(2,3,1,1)]"));
}

TEST(LayerTest, EltwiseRefusesInputsOfOtherShapesAndCoeffCounts) {
  auto sum = CreateLayer<cpu, float>("eltwise_sum", "join", {});
  EXPECT_EQ(ErrorOf([&] {
              sum->InferShapes({Shape4(2, 16, 8, 8), Shape4(2, 32, 4, 4)});
            }),
            "layer 'join' (eltwise_sum): got input shapes "
            "[(2,16,8,8), (2,32,4,4)]; needs inputs of one shape");
  EXPECT_THAT(ErrorOf([&] { sum->InferShapes({Shape4(2, 16, 8, 8)}); }),
              HasSubstr("two or more inputs"));
  auto weighted =
      CreateLayer<cpu, float>("eltwise_sum", "diff", {{"coeff", "1,-1,2"}});
  EXPECT_THAT(ErrorOf([&] {
                weighted->InferShapes({Shape4(1, 1, 1, 3), Shape4(1, 1, 1, 3)});
              }),
              HasSubstr("coeff has 3 values for 2 inputs"));
}

TEST(LayerTest, GlobalPoolingTakesTheWholePlane) {
  auto gap =
      CreateLayer<cpu, float>("avg_pooling", "gap", {{"global_pool", "1"}});
  EXPECT_EQ(gap->InferShapes({Shape4(2, 3, 5, 6)}),
            std::vector<Shape<4>>{Shape4(2, 3, 1, 1)});
  // Another plane later (a net built again for other inputs).
  EXPECT_EQ(gap->InferShapes({Shape4(1, 8, 7, 7)}),
            std::vector<Shape<4>>{Shape4(1, 8, 1, 1)});
  EXPECT_EQ(ErrorOf([] {
              CreateLayer<cpu, float>(
                  "max_pooling", "gmp",
                  {{"global_pool", "1"}, {"kernel_size", "2"}});
            }),
            "layer 'gmp' (max_pooling): PoolingParam: key 'kernel_size' with "
            "global_pool = 1, whose window is the whole input plane; remove "
            "one of them");
}

TEST(LayerTest, SetupRefusesSelfLoopAndWrongNodes) {
  EXPECT_THAT(ErrorOf([] {
                StandaloneLayer<cpu, float>("fullc", {{"nhidden", "2"}},
                                            {Shape4(2, 1, 1, 2)}, 1, true);
              }),
              HasSubstr("cannot run in place"));
  auto relu = CreateLayer<cpu, float>("relu", "r", {});
  relu->InferShapes({Shape4(2, 1, 1, 3)});
  TensorContainer<cpu, 4> a(Shape4(2, 1, 1, 4), 0.0f, false);
  Node<cpu, float> node{a.view(), a.view()};
  EXPECT_THAT(ErrorOf([&] { relu->Setup({&node}, {&node}, {}); }),
              HasSubstr("must both have the inferred shape (2,1,1,3)"));
}

// Issue 6/7: a shape is refused when a dimension is not positive or its
// element count passes 2^40, counted without overflowing int64.
TEST(LayerTest, TensorSizeProblemCountsWithoutOverflow) {
  EXPECT_EQ(TensorSizeProblem(Shape4(8, 3, 28, 28)), "");
  EXPECT_EQ(TensorSizeProblem(Shape2(index_t{1} << 20, index_t{1} << 20)),
            "");  // exactly 2^40
  EXPECT_EQ(TensorSizeProblem(Shape4(2, 0, 3, 4)),
            "its dimension 1 is 0, not positive");
  EXPECT_EQ(TensorSizeProblem(Shape4(2, 3, -4, 4)),
            "its dimension 2 is -4, not positive");
  EXPECT_THAT(
      TensorSizeProblem(Shape2((index_t{1} << 20) + 1, index_t{1} << 20)),
      HasSubstr("more than the 2^40 (1099511627776)"));
  // 2^64 elements: more than Size() can count (calling it would be signed
  // overflow); the check counts without it.
  const Shape<4> wraps = Shape4(index_t{1} << 16, index_t{1} << 16,
                                index_t{1} << 16, index_t{1} << 16);
  EXPECT_THAT(TensorSizeProblem(wraps), HasSubstr("it has 1.84e+19 elements"));
  EXPECT_THAT(TensorSizeProblem(TShape({3000000000, 3000000000})),
              HasSubstr("it has 9e+18 elements"));
}

// Issue 6/7: the layer whose settings make an impossible shape is the one
// that says so, naming its inputs and the shape they would make, and
// nothing is allocated for it.
TEST(LayerTest, InferShapesRefusesShapesThatOverflow) {
  auto conv = CreateLayer<cpu, float>(
      "conv", "conv1",
      {{"kernel_size", "1"}, {"nchannel", "2"}, {"pad", "2147483647"}});
  std::string e = ErrorOf([&] { conv->InferShapes({Shape4(8, 1, 2, 2)}); });
  EXPECT_THAT(e, HasSubstr("layer 'conv1' (conv): input shapes [(8,1,2,2)] "
                           "would make the output shape "
                           "(8,2,4294967296,4294967296): it has 2.95e+20 "
                           "elements, more than the 2^40"));
  EXPECT_TRUE(conv->out_shapes().empty());  // Setup would refuse it

  auto fc =
      CreateLayer<cpu, float>("fullc", "fc1", {{"nhidden", "2000000000"}});
  e = ErrorOf([&] { fc->InferShapes({Shape4(1, 1, 1, 1000000)}); });
  EXPECT_THAT(e, HasSubstr("layer 'fc1' (fullc): input shapes "
                           "[(1,1,1,1000000)] would make weight 'wmat' "
                           "(2000000000,1000000): it has 2e+15 elements"));

  auto relu = CreateLayer<cpu, float>("relu", "r", {});
  e = ErrorOf([&] {
    relu->InferShapes(
        {Shape4(index_t{1} << 21, index_t{1} << 21, index_t{1} << 21, 1)});
  });
  EXPECT_THAT(e, HasSubstr("layer 'r' (relu): got input shapes "
                           "[(2097152,2097152,2097152,1)]; needs inputs of "
                           "positive dimensions and at most 2^40 elements; "
                           "input 0 (2097152,2097152,2097152,1): it has "
                           "9.22e+18 elements"));
  EXPECT_THAT(ErrorOf([&] { relu->InferShapes({Shape4(2, 0, 1, 1)}); }),
              HasSubstr("needs non-empty inputs"));
}

// Issue 6/7: InferShapes declares weights without allocating them, so a net
// can add up what it will need first; the allocation, when it fails, names
// the layer, the weight and its bytes.
TEST(LayerTest, WeightsAreAllocatedAfterInferShapes) {
  const index_t n = index_t{1} << 20;  // wmat (2^20, 2^20): 4 TiB of float
  auto fc =
      CreateLayer<cpu, float>("fullc", "fc1", {{"nhidden", std::to_string(n)}});
  fc->InferShapes({Shape4(2, 1, 1, n)});  // would die if it allocated
  const auto shapes = fc->WeightShapes();
  ASSERT_EQ(shapes.size(), 2u);
  EXPECT_EQ(shapes[0].first, "wmat");
  EXPECT_EQ(shapes[0].second, TShape({n, n}));
  EXPECT_EQ(shapes[1].second, TShape({n}));

  auto small = CreateLayer<cpu, float>("fullc", "fc2", {{"nhidden", "3"}});
  small->InferShapes({Shape4(2, 1, 1, 4)});
  std::vector<WeightRef<cpu, float>> weights = small->Weights();
  ASSERT_NE(weights[0].data.dptr_, nullptr);  // Weights() allocates
  EXPECT_EQ(weights[0].data.size(0), 12);
  EXPECT_EQ(weights[0].data[11], 0.0f);

  // Last, so that its skip hides no other assertion: under overcommit 1 the
  // kernel would grant fc1's 8 TiB.
  std::ifstream overcommit("/proc/sys/vm/overcommit_memory");
  int mode = 0;
  if (overcommit >> mode && mode == 1) {
    GTEST_SKIP() << "the kernel grants any allocation (overcommit 1)";
  }
  EXPECT_THAT(ErrorOf([&] { fc->Weights(); }),
              HasSubstr("layer 'fc1' (fullc): cannot allocate weight 'wmat' "
                        "(1048576,1048576) and its gradient (8796093022208 "
                        "bytes): out of memory"));
}

TEST(LayerTest, LossNeedsItsLabelField) {
  StandaloneLayer<cpu, float> loss("softmax", {{"target", "digit"}},
                                   {Shape4(2, 1, 1, 3)}, 1, true);
  loss.layer().Forward(true);  // prediction without labels is fine
  EXPECT_TRUE(std::isnan(loss.layer().Loss()));
  loss.AddLabel("label", Shape2(2, 1));
  EXPECT_THAT(ErrorOf([&] { loss.layer().Backprop(true); }),
              HasSubstr("needs the label field 'digit' (key target) for "
                        "Backprop; the LabelInfo has fields: label"));
  loss.AddLabel("digit", Shape2(2, 3));
  EXPECT_THAT(ErrorOf([&] { loss.layer().Backprop(true); }),
              HasSubstr("has shape (2,3); needs (2,1)"));
  Tensor<cpu, 2> digit = loss.AddLabel("digit", Shape2(2, 1));
  digit[1][0] = 3;
  EXPECT_THAT(ErrorOf([&] { loss.layer().Backprop(true); }),
              HasSubstr("label of row 1 is 3; needs a class index in [0, 3)"));
  try {
    loss.layer().Backprop(true);
    ADD_FAILURE() << "no LayerError";
  } catch (const LayerError& e) {
    EXPECT_EQ(e.row(), std::optional<index_t>(1));  // for the trainer to map
  }
  digit[1][0] = 2;
  EXPECT_EQ(ErrorOf([&] { loss.layer().Backprop(true); }), "(no error)");
}

TEST(LayerTest, L2LossValueAndGradient) {
  StandaloneLayer<cpu, double> loss("l2_loss", {}, {Shape4(2, 1, 1, 2)});
  Tensor<cpu, 2, double> y = loss.AddLabel("label", Shape2(2, 2));
  Tensor<cpu, 2, double> x = AsMatrix(loss.in(0).data);
  x[0][0] = 1;
  x[0][1] = 2;
  x[1][0] = -1;
  x[1][1] = 0;
  y[0][0] = 0;
  y[0][1] = 0;
  y[1][0] = 0;
  y[1][1] = 0;
  loss.layer().Forward(true);
  EXPECT_DOUBLE_EQ(loss.layer().Loss(), (1 + 4 + 1) / 2.0);
  loss.layer().Backprop(true);
  EXPECT_DOUBLE_EQ(AsMatrix(loss.in(0).grad)[0][1], 2 * 2 / 2.0);
}

TEST(LayerTest, DropoutMasksOnlyWhileTraining) {
  StandaloneLayer<cpu, float> drop("dropout", {{"threshold", "0.25"}},
                                   {Shape4(40, 1, 1, 100)});
  drop.in(0).data = 1.0f;
  drop.layer().Forward(false);
  Tensor<cpu, 2> out = AsMatrix(drop.out(0).data);
  for (index_t i = 0; i < 40; ++i) EXPECT_EQ(out[i][i], 1.0f);
  drop.layer().Forward(true);
  int kept = 0;
  for (index_t i = 0; i < 40; ++i) {
    for (index_t j = 0; j < 100; ++j) {
      ASSERT_TRUE(out[i][j] == 0.0f || std::fabs(out[i][j] - 1 / 0.75f) < 1e-6)
          << out[i][j];
      kept += out[i][j] != 0.0f;
    }
  }
  EXPECT_NEAR(kept / 4000.0, 0.75, 0.04);
}

TEST(LayerTest, FullcForwardMatchesNaive) {
  StandaloneLayer<cpu, double> fc(
      "fullc", {{"nhidden", "3"}, {"init_sigma", "1"}, {"init_bias", "0.5"}},
      {Shape4(2, 1, 1, 4)});
  Tensor<cpu, 2, double> x = AsMatrix(fc.in(0).data);
  for (index_t i = 0; i < 2; ++i) {
    for (index_t k = 0; k < 4; ++k) x[i][k] = 0.1 * (i + 1) * (k - 1.5);
  }
  fc.layer().Forward(true);
  std::vector<WeightRef<cpu, double>> w = fc.layer().Weights();
  Tensor<cpu, 2, double> y = AsMatrix(fc.out(0).data);
  for (index_t i = 0; i < 2; ++i) {
    for (index_t j = 0; j < 3; ++j) {
      double expect = w[1].data[j];
      EXPECT_EQ(w[1].data[j], 0.5);
      for (index_t k = 0; k < 4; ++k) expect += x[i][k] * w[0].data[j * 4 + k];
      EXPECT_NEAR(y[i][j], expect, 1e-12);
    }
  }
}

// fullc in float, whose forward pass and input gradient run on StridedGemm
// or OpenBLAS by the layer's shape (fullc_layer.h), with and without the
// relu after it fused, against sums in double: its output, input gradient,
// and weight and bias gradients (added to what they held).
TEST(LayerTest, FullcFloatMatchesDoubleSumsOnEveryPath) {
  test::ScopedTestSeed seed;
  std::mt19937 engine(seed.value());
  std::uniform_real_distribution<float> uniform(-1.f, 1.f);
  // Over all shapes, the fused relu zeroed part of the outputs, and kept
  // part.
  index_t relu_zeros = 0, relu_outputs = 0;
  // (batch, width, nhidden): the forward on StridedGemm (the first two),
  // on OpenBLAS (the next three, the third and fifth split over the threads
  // by columns); the input gradient on OpenBLAS past 256; the bias gradient
  // split over the threads by columns from 65536 outputs (the fifth).
  for (const auto& [batch, width, nhidden] :
       std::vector<std::tuple<index_t, index_t, index_t>>{{3, 90, 70},
                                                          {16, 400, 300},
                                                          {64, 600, 130},
                                                          {7, 5, 3},
                                                          {256, 100, 300},
                                                          {300, 20, 10}}) {
    for (const bool relu : {false, true}) {
      SCOPED_TRACE("batch " + std::to_string(batch) + ", " +
                   std::to_string(width) + " -> " + std::to_string(nhidden) +
                   (relu ? ", relu" : ""));
      StandaloneLayer<cpu, float> fc("fullc",
                                     {{"nhidden", std::to_string(nhidden)}},
                                     {Shape4(batch, 1, 1, width)});
      ASSERT_TRUE(!relu || fc.layer().FuseRelu());
      Tensor<cpu, 2, float> x = AsMatrix(fc.in(0).data);
      Tensor<cpu, 2, float> y_grad = AsMatrix(fc.out(0).grad);
      std::vector<WeightRef<cpu, float>> w = fc.layer().Weights();
      for (index_t i = 0; i < batch; ++i) {
        for (index_t k = 0; k < width; ++k) x[i][k] = uniform(engine);
        for (index_t j = 0; j < nhidden; ++j) y_grad[i][j] = uniform(engine);
      }
      for (index_t j = 0; j < nhidden; ++j) {
        w[1].data[j] = uniform(engine);
        w[1].grad[j] = uniform(engine);
      }
      for (index_t e = 0; e < nhidden * width; ++e) {
        w[0].grad[e] = uniform(engine);
      }
      const std::vector<float> wmat_grad_before(
          w[0].grad.dptr_, w[0].grad.dptr_ + nhidden * width);
      const std::vector<float> bias_grad_before(w[1].grad.dptr_,
                                                w[1].grad.dptr_ + nhidden);
      const std::vector<float> y_grad_given(
          y_grad.dptr_, y_grad.dptr_ + y_grad.shape_.Size());
      fc.layer().Forward(true);
      fc.layer().Backprop(true);
      const Tensor<cpu, 2, float> y = AsMatrix(fc.out(0).data);
      const Tensor<cpu, 2, float> x_grad = AsMatrix(fc.in(0).grad);
      const auto wmat = [&](index_t j, index_t k) {
        return double(w[0].data[j * width + k]);
      };
      // The output gradient the product sees: relu's where fused.
      std::vector<double> g(y_grad_given.size());
      index_t zeros = 0;
      for (index_t i = 0; i < batch; ++i) {
        for (index_t j = 0; j < nhidden; ++j) {
          double want = w[1].data[j];
          for (index_t k = 0; k < width; ++k) want += x[i][k] * wmat(j, k);
          if (relu) want = std::max(want, 0.0);
          ASSERT_NEAR(y[i][j], want, 1e-5 * width) << "out " << i << "," << j;
          const bool masked = relu && y[i][j] <= 0;
          zeros += masked;
          g[i * nhidden + j] = masked ? 0.0 : y_grad_given[i * nhidden + j];
        }
      }
      relu_zeros += zeros;
      relu_outputs += relu ? batch * nhidden : 0;
      for (index_t i = 0; i < batch; ++i) {
        for (index_t k = 0; k < width; ++k) {
          double want = 0;
          for (index_t j = 0; j < nhidden; ++j) {
            want += g[i * nhidden + j] * wmat(j, k);
          }
          ASSERT_NEAR(x_grad[i][k], want, 1e-5 * nhidden)
              << "in grad " << i << "," << k;
        }
      }
      for (index_t j = 0; j < nhidden; ++j) {
        double bias_want = bias_grad_before[j];
        for (index_t i = 0; i < batch; ++i) bias_want += g[i * nhidden + j];
        ASSERT_NEAR(w[1].grad[j], bias_want, 1e-5 * batch) << "bias grad " << j;
        for (index_t k = 0; k < width; ++k) {
          double want = wmat_grad_before[j * width + k];
          for (index_t i = 0; i < batch; ++i) {
            want += g[i * nhidden + j] * x[i][k];
          }
          ASSERT_NEAR(w[0].grad[j * width + k], want, 1e-5 * batch)
              << "wmat grad " << j << "," << k;
        }
      }
    }
  }
  EXPECT_GT(relu_zeros, relu_outputs / 10);
  EXPECT_LT(relu_zeros, relu_outputs * 9 / 10);
}

TEST(LayerTest, ConcatAndSplitMoveData) {
  StandaloneLayer<cpu, float> cat("ch_concat", {},
                                  {Shape4(2, 1, 1, 2), Shape4(2, 2, 1, 2)});
  EXPECT_EQ(cat.out(0).data.shape_, Shape4(2, 3, 1, 2));
  cat.in(0).data = 1.0f;
  cat.in(1).data = 2.0f;
  cat.layer().Forward(true);
  Tensor<cpu, 2> out = AsMatrix(cat.out(0).data);
  const float expect[6] = {1, 1, 2, 2, 2, 2};
  for (index_t i = 0; i < 2; ++i) {
    for (index_t k = 0; k < 6; ++k) EXPECT_EQ(out[i][k], expect[k]);
  }
  StandaloneLayer<cpu, float> split("split", {}, {Shape4(1, 1, 1, 3)}, 2);
  split.in(0).data = 4.0f;
  split.layer().Forward(true);
  EXPECT_EQ(split.out(1).data[0][0][0][2], 4.0f);
  split.out(0).grad = 1.0f;
  split.out(1).grad = 2.0f;
  split.layer().Backprop(true);
  EXPECT_EQ(split.in(0).grad[0][0][0][1], 3.0f);
}

}  // namespace
}  // namespace layers
}  // namespace umbra
