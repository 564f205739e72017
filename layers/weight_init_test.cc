// Weight initialisation: each random_type draws from the right
// distribution, biases and constants are exact, and per-tag settings reach
// the weight they name.
#include "layers/weight_init.h"

#include <cmath>

#include "gtest/gtest.h"
#include "layers/layer_registry.h"
#include "layers/standalone_layer.h"

namespace umbra {
namespace layers {
namespace {

struct Moments {
  double mean = 0, sd = 0, max_abs = 0;
};

Moments Measure(Tensor<cpu, 1, double> t) {
  Moments m;
  const index_t n = t.size(0);
  for (index_t i = 0; i < n; ++i) m.mean += t[i];
  m.mean /= n;
  for (index_t i = 0; i < n; ++i) {
    m.sd += (t[i] - m.mean) * (t[i] - m.mean);
    m.max_abs = std::max(m.max_abs, std::fabs(t[i]));
  }
  m.sd = std::sqrt(m.sd / n);
  return m;
}

Moments Draw(const ParamKwargs& kwargs, const WeightFans& fans) {
  WeightParam settings;
  settings.Init(kwargs);
  Random<cpu, double> rnd(7);
  TensorContainer<cpu, 1, double> w(Shape1(40000), false);
  InitWeight(WeightFill::kRandom, settings, fans, 0.0, &rnd, w.view());
  return Measure(w.view());
}

// A range U(-a, a): every draw inside, the extremes near a.
void ExpectUniformRange(const Moments& m, double a) {
  EXPECT_LE(m.max_abs, a);
  EXPECT_GT(m.max_abs, 0.999 * a);
  EXPECT_NEAR(m.sd, a / std::sqrt(3.0), 0.01 * a);
}

TEST(WeightInitTest, Gaussian) {
  const Moments m = Draw({{"init_sigma", "0.2"}}, {});
  EXPECT_NEAR(m.mean, 0, 0.005);
  EXPECT_NEAR(m.sd, 0.2, 0.005);
}

// cxxnet's values, worked by hand from layer/param.h's RandInitWeight with
// the fans that its fullc and conv layers pass.
TEST(WeightInitTest, FansAreCxxnets) {
  const WeightFans fc = FullyConnectedFans(784, 100);
  EXPECT_EQ(fc.in, 784u);
  EXPECT_EQ(fc.out, 100u);
  EXPECT_EQ(fc.reach, 100u);
  // 64 input channels, 32 outputs in 4 groups, 3x3 kernel.
  const WeightFans conv = ConvolutionFans(64, 32, 4, 9);
  EXPECT_EQ(conv.in, 16u * 9);
  EXPECT_EQ(conv.out, 8u);
  EXPECT_EQ(conv.reach, 32u * 9);
}

TEST(WeightInitTest, XavierAndUniformAreCxxnetsRange) {
  // fullc 784 -> 100: sqrt(3 / 884).
  for (const char* type : {"xavier", "uniform"}) {
    ExpectUniformRange(
        Draw({{"random_type", type}}, FullyConnectedFans(784, 100)), 0.0582552);
  }
  // conv of 1 channel, 3x3, 32 outputs: sqrt(3 / (9 + 32)).
  ExpectUniformRange(
      Draw({{"random_type", "xavier"}}, ConvolutionFans(1, 32, 1, 9)),
      0.2705009);
  // init_uniform sets the range of both, as in cxxnet.
  for (const char* type : {"xavier", "uniform"}) {
    ExpectUniformRange(Draw({{"random_type", type}, {"init_uniform", "0.3"}},
                            FullyConnectedFans(784, 100)),
                       0.3);
  }
}

TEST(WeightInitTest, KaimingIsCxxnetsFanOut) {
  // fullc 784 -> 100: sqrt(2 / 100).
  EXPECT_NEAR(
      Draw({{"random_type", "kaiming"}}, FullyConnectedFans(784, 100)).sd,
      0.1414214, 0.003);
  // conv of 1 channel, 3x3, 32 outputs: sqrt(2 / (32 * 9)).
  EXPECT_NEAR(
      Draw({{"random_type", "kaiming"}}, ConvolutionFans(1, 32, 1, 9)).sd,
      0.0833333, 0.002);
}

TEST(WeightInitTest, HeIsTheFanInForm) {
  EXPECT_NEAR(Draw({{"random_type", "he"}}, FullyConnectedFans(784, 100)).sd,
              std::sqrt(2.0 / 784), 0.001);
  EXPECT_NEAR(Draw({{"random_type", "he"}}, ConvolutionFans(8, 32, 2, 9)).sd,
              std::sqrt(2.0 / 36), 0.003);
}

// The layers declare their weights with those fans.
TEST(WeightInitTest, LayersDrawFromTheirFans) {
  StandaloneLayer<cpu, double> fc(
      "fullc", {{"nhidden", "100"}, {"random_type", "xavier"}},
      {Shape4(1, 1, 1, 784)});
  ExpectUniformRange(Measure(fc.layer().Weights()[0].data), 0.0582552);
  StandaloneLayer<cpu, double> conv("conv",
                                    {{"nchannel", "32"},
                                     {"kernel_size", "3"},
                                     {"ngroup", "2"},
                                     {"random_type", "kaiming"}},
                                    {Shape4(1, 64, 5, 5)});
  // 32 * 32 * 9 = 9216 draws, sd sqrt(2 / 288).
  EXPECT_NEAR(Measure(conv.layer().Weights()[0].data).sd, 0.0833333, 0.003);
}

TEST(WeightInitTest, LayerAppliesPerTagSettings) {
  StandaloneLayer<cpu, double> fc("fullc",
                                  {{"nhidden", "200"},
                                   {"init_sigma", "5"},
                                   {"wmat:init_sigma", "0.1"},
                                   {"bias:init_bias", "0.25"}},
                                  {Shape4(1, 1, 1, 300)});
  std::vector<WeightRef<cpu, double>> w = fc.layer().Weights();
  EXPECT_NEAR(Measure(w[0].data).sd, 0.1, 0.003);
  for (index_t i = 0; i < 200; ++i) ASSERT_EQ(w[1].data[i], 0.25);
  StandaloneLayer<cpu, double> prelu("prelu", {{"init_slope", "0.125"}},
                                     {Shape4(1, 4, 2, 2)});
  std::vector<WeightRef<cpu, double>> slope = prelu.layer().Weights();
  ASSERT_EQ(slope.size(), 1u);
  EXPECT_EQ(slope[0].name, "prelu0.slope");
  EXPECT_EQ(slope[0].shape, TShape({4}));
  for (index_t i = 0; i < 4; ++i) EXPECT_EQ(slope[0].data[i], 0.125);
}

// cxxnet's random_slope: each channel's slope starts at init_slope * U(0, 1)
// (any value but 0 turns it on, as cxxnet read it); 0 keeps init_slope.
TEST(WeightInitTest, PReluRandomSlope) {
  for (const char* on : {"1", "2"}) {
    StandaloneLayer<cpu, double> prelu(
        "prelu", {{"init_slope", "0.5"}, {"random_slope", on}},
        {Shape4(1, 20000, 1, 1)});
    const Tensor<cpu, 1, double> slope = prelu.layer().Weights()[0].data;
    const Moments m = Measure(slope);
    EXPECT_NEAR(m.mean, 0.25, 0.005) << on;  // 0.5 * 1/2
    EXPECT_NEAR(m.sd, 0.5 / std::sqrt(12.0), 0.005) << on;
    for (index_t i = 0; i < slope.size(0); ++i) {
      ASSERT_GE(slope[i], 0.0) << on;
      ASSERT_LE(slope[i], 0.5) << on;
    }
  }
  StandaloneLayer<cpu, double> negative(
      "prelu", {{"init_slope", "-0.5"}, {"random_slope", "1"}},
      {Shape4(1, 100, 1, 1)});
  const Tensor<cpu, 1, double> below = negative.layer().Weights()[0].data;
  for (index_t i = 0; i < 100; ++i) {
    ASSERT_LE(below[i], 0.0);
    ASSERT_GE(below[i], -0.5);
  }
  StandaloneLayer<cpu, double> fixed(
      "prelu", {{"init_slope", "0.5"}, {"random_slope", "0"}},
      {Shape4(1, 8, 1, 1)});
  for (index_t i = 0; i < 8; ++i) {
    EXPECT_EQ(fixed.layer().Weights()[0].data[i], 0.5);
  }
}

}  // namespace
}  // namespace layers
}  // namespace umbra
