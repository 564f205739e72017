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

Moments Draw(const ParamKwargs& kwargs, index_t fan_in, index_t fan_out) {
  WeightParam settings;
  settings.Init(kwargs);
  Random<cpu, double> rnd(7);
  TensorContainer<cpu, 1, double> w(Shape1(40000), false);
  InitWeight(WeightFill::kRandom, settings, fan_in, fan_out, 0.0, &rnd,
             w.view());
  return Measure(w.view());
}

TEST(WeightInitTest, Gaussian) {
  const Moments m = Draw({{"init_sigma", "0.2"}}, 10, 10);
  EXPECT_NEAR(m.mean, 0, 0.005);
  EXPECT_NEAR(m.sd, 0.2, 0.005);
}

TEST(WeightInitTest, UniformWithAndWithoutRange) {
  Moments m = Draw({{"random_type", "uniform"}, {"init_uniform", "0.3"}}, 1, 1);
  EXPECT_LE(m.max_abs, 0.3);
  EXPECT_NEAR(m.sd, 0.3 / std::sqrt(3.0), 0.005);
  m = Draw({{"random_type", "uniform"}}, 100, 50);  // the xavier range
  EXPECT_LE(m.max_abs, std::sqrt(6.0 / 150));
  EXPECT_GT(m.max_abs, 0.99 * std::sqrt(6.0 / 150));
}

TEST(WeightInitTest, Xavier) {
  const Moments m = Draw({{"random_type", "xavier"}}, 300, 100);
  const double a = std::sqrt(6.0 / 400);
  EXPECT_LE(m.max_abs, a);
  EXPECT_NEAR(m.sd, a / std::sqrt(3.0), 0.002);
}

TEST(WeightInitTest, Kaiming) {
  const Moments m = Draw({{"random_type", "kaiming"}}, 50, 7);
  EXPECT_NEAR(m.sd, std::sqrt(2.0 / 50), 0.003);
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
