// Every layer type on the gpu against the same type on the CPU: for each
// gpu case of the layer table (layers/layer_cases.h), the two layers get the
// same weights, states, labels, inputs and output gradients (fresh random
// values each run; the seed is printed on failure and UMBRA_TEST_SEED
// replays it), and their outputs, losses, states, input gradients and
// weight gradients must agree, in training and at test time, with
// Backprop(true) and Backprop(false), in float and double. The weight
// gradients start from random values, so a layer that writes them instead
// of adding fails. dropout and rrelu draw different random numbers on the
// two devices: their training passes are checked on their own.
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "layers/layer.h"
#include "layers/layer_cases.h"
#include "layers/standalone_layer.h"
#include "tensor/tensor.h"
#include "tensor/test_seed.h"

namespace umbra {
namespace layers {
namespace {

// |gpu - cpu| <= kTolerance * (1 + the largest |cpu| of the tensor).
template <typename DType>
struct Tolerance;
template <>
struct Tolerance<float> {
  static constexpr double kValue = 1e-4;
};
template <>
struct Tolerance<double> {
  static constexpr double kValue = 1e-9;
};

template <typename DType>
TensorContainer<cpu, 1, DType> ToHost(const Tensor<gpu, 1, DType>& t) {
  TensorContainer<cpu, 1, DType> host(t.shape_, false);
  Copy(host.view(), t);
  return host;
}

template <int dim, typename DType>
Tensor<cpu, 1, DType> Flat(const Tensor<cpu, dim, DType>& t) {
  return Tensor<cpu, 1, DType>(t.dptr_, Shape1(t.shape_.Size()));
}
template <int dim, typename DType>
Tensor<gpu, 1, DType> Flat(const Tensor<gpu, dim, DType>& t) {
  return Tensor<gpu, 1, DType>(t.dptr_, Shape1(t.shape_.Size()), t.stream_);
}

template <typename DType>
::testing::AssertionResult Agree(const std::string& what,
                                 Tensor<cpu, 1, DType> want,
                                 Tensor<gpu, 1, DType> got_on_gpu) {
  if (want.shape_ != got_on_gpu.shape_) {
    return ::testing::AssertionFailure()
           << what << ": cpu shape " << want.shape_ << ", gpu shape "
           << got_on_gpu.shape_;
  }
  TensorContainer<cpu, 1, DType> got = ToHost(got_on_gpu);
  double largest = 0;
  for (index_t i = 0; i < want.size(0); ++i) {
    largest = std::max(largest, std::fabs(double(want[i])));
  }
  const double tol = Tolerance<DType>::kValue * (1 + largest);
  int wrong = 0;
  std::ostringstream report;
  for (index_t i = 0; i < want.size(0); ++i) {
    if (!(std::fabs(double(got[i]) - double(want[i])) <= tol)) {
      if (++wrong <= 8) {
        report << "\n  element " << i << ": cpu " << want[i] << ", gpu "
               << got[i];
      }
    }
  }
  if (wrong == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << what << ": " << wrong << " of " << want.size(0)
         << " elements differ by more than " << tol << report.str();
}

// One case on both devices, from the same values.
template <typename DType>
class Pair {
 public:
  Pair(const LayerCase& c, unsigned seed)
      : case_(c),
        engine_(seed),
        cpu_(c.type, c.kwargs, c.inputs, c.num_outputs, c.in_place),
        gpu_(c.type, c.kwargs, c.inputs, c.num_outputs, c.in_place) {
    std::vector<WeightRef<cpu, DType>> cw = cpu_.layer().Weights();
    std::vector<WeightRef<gpu, DType>> gw = gpu_.layer().Weights();
    EXPECT_EQ(cw.size(), gw.size());
    for (size_t i = 0; i < cw.size() && i < gw.size(); ++i) {
      Same(cw[i].data, gw[i].data, -1, 1);
    }
    std::vector<StateRef<cpu, DType>> cs = cpu_.layer().States();
    std::vector<StateRef<gpu, DType>> gs = gpu_.layer().States();
    EXPECT_EQ(cs.size(), gs.size());
    for (size_t i = 0; i < cs.size() && i < gs.size(); ++i) {
      Same(cs[i].data, gs[i].data, 0.5, 1.5);  // a variance must be > 0
    }
    if (cpu_.layer().is_loss()) AddLabels();
  }

  // Forward, Backprop(true) and Backprop(false), each compared.
  void Run(bool is_train) {
    SCOPED_TRACE(is_train ? "training" : "test time");
    for (size_t i = 0; i < cpu_.num_in(); ++i) {
      if (case_.ties) {
        SameTies(cpu_.in(i).data, gpu_.in(i).data);
      } else {
        Same(cpu_.in(i).data, gpu_.in(i).data, -1, 1);
      }
    }
    cpu_.layer().Forward(is_train);
    gpu_.layer().Forward(is_train);
    for (size_t j = 0; j < cpu_.num_out(); ++j) {
      EXPECT_TRUE(Agree("output " + std::to_string(j), Flat(cpu_.out(j).data),
                        Flat(gpu_.out(j).data)));
    }
    if (cpu_.layer().is_loss()) {
      const double want = cpu_.layer().Loss(), got = gpu_.layer().Loss();
      EXPECT_NEAR(got, want, Tolerance<DType>::kValue * (1 + std::fabs(want)))
          << "loss";
    }
    std::vector<StateRef<cpu, DType>> cs = cpu_.layer().States();
    std::vector<StateRef<gpu, DType>> gs = gpu_.layer().States();
    for (size_t i = 0; i < cs.size() && i < gs.size(); ++i) {
      EXPECT_TRUE(Agree("state " + cs[i].name, cs[i].data, gs[i].data));
    }
    for (bool prop_grad : {true, false}) {
      SCOPED_TRACE(prop_grad ? "Backprop(true)" : "Backprop(false)");
      // Garbage where Backprop(true) must write and Backprop(false) must not.
      if (!case_.in_place) {
        for (size_t i = 0; i < cpu_.num_in(); ++i) {
          Tensor<cpu, 4, DType> cpu_grad = cpu_.in(i).grad;
          cpu_grad = DType(7);
          Copy(gpu_.in(i).grad, cpu_grad);
        }
      }
      if (!cpu_.layer().is_loss()) {
        for (size_t j = 0; j < cpu_.num_out(); ++j) {
          Same(cpu_.out(j).grad, gpu_.out(j).grad, -1, 1);
        }
      }
      cpu_.layer().Backprop(prop_grad);
      gpu_.layer().Backprop(prop_grad);
      for (size_t i = 0; i < cpu_.num_in(); ++i) {
        EXPECT_TRUE(Agree("input gradient " + std::to_string(i),
                          Flat(cpu_.in(i).grad), Flat(gpu_.in(i).grad)));
      }
      std::vector<WeightRef<cpu, DType>> cw = cpu_.layer().Weights();
      std::vector<WeightRef<gpu, DType>> gw = gpu_.layer().Weights();
      for (size_t i = 0; i < cw.size() && i < gw.size(); ++i) {
        EXPECT_TRUE(Agree("gradient of " + cw[i].name, cw[i].grad, gw[i].grad));
      }
    }
  }

  // Random gradients to add to, the same on both devices.
  void RandomWeightGradients() {
    std::vector<WeightRef<cpu, DType>> cw = cpu_.layer().Weights();
    std::vector<WeightRef<gpu, DType>> gw = gpu_.layer().Weights();
    for (size_t i = 0; i < cw.size() && i < gw.size(); ++i) {
      Same(cw[i].grad, gw[i].grad, -1, 1);
    }
  }

 private:
  // Fills the cpu tensor with U(lo, hi) and copies it to the gpu one.
  template <int dim>
  void Same(Tensor<cpu, dim, DType> host, Tensor<gpu, dim, DType> device,
            double lo, double hi) {
    std::uniform_real_distribution<double> dist(lo, hi);
    Tensor<cpu, 1, DType> flat = Flat(host);
    for (index_t i = 0; i < flat.size(0); ++i) flat[i] = DType(dist(engine_));
    Copy(device, host);
  }
  void SameTies(Tensor<cpu, 4, DType> host, Tensor<gpu, 4, DType> device) {
    std::uniform_int_distribution<int> dist(-2, 2);
    Tensor<cpu, 1, DType> flat = Flat(host);
    for (index_t i = 0; i < flat.size(0); ++i) {
      flat[i] = DType(dist(engine_) * 0.5);
    }
    Copy(device, host);
  }
  // A class index per row, or targets in [0, 1), as the case says.
  void AddLabels() {
    const Shape<4>& s = case_.inputs[0];
    const bool index = case_.labels == LayerCase::Labels::kClassIndex;
    const Shape<2> shape = Shape2(s[0], index ? 1 : s[3]);
    Tensor<cpu, 2, DType> cpu_label = cpu_.AddLabel("label", shape);
    Tensor<gpu, 2, DType> gpu_label = gpu_.AddLabel("label", shape);
    std::uniform_int_distribution<int> classes(0, int(s[3]) - 1);
    std::uniform_real_distribution<double> targets(0, 1);
    for (index_t i = 0; i < shape[0]; ++i) {
      for (index_t k = 0; k < shape[1]; ++k) {
        cpu_label[i][k] = DType(index ? classes(engine_) : targets(engine_));
      }
    }
    Copy(gpu_label, cpu_label);
  }

  LayerCase case_;
  std::mt19937 engine_;
  StandaloneLayer<cpu, DType> cpu_;
  StandaloneLayer<gpu, DType> gpu_;
};

class GpuLayerTest : public ::testing::TestWithParam<LayerCase> {
 protected:
  void SetUp() override {
    ASSERT_GT(GpuDeviceCount(), 0)
        << "this test is tagged gpu and needs a CUDA device";
  }

  template <typename DType>
  void Check() {
    const test::ScopedTestSeed seed;
    Pair<DType> pair(GetParam(), seed.value());
    pair.RandomWeightGradients();
    if (!GetParam().random_training) pair.Run(true);
    pair.Run(false);
  }
};

TEST_P(GpuLayerTest, FloatMatchesCpu) { Check<float>(); }
TEST_P(GpuLayerTest, DoubleMatchesCpu) { Check<double>(); }

INSTANTIATE_TEST_SUITE_P(Layers, GpuLayerTest,
                         ::testing::ValuesIn(LayerCases(LayerCase::kGpu)),
                         ::testing::PrintToStringParamName());

// An element of a dropout or rrelu output while training: its input and
// r = out / in.
struct Scaled {
  double in;
  double r;
};

// Runs `type` while training on the gpu on U(-1, 1) inputs, checks
// in.grad = out.grad * r for every element, and returns them all.
std::vector<Scaled> TrainingScales(const std::string& type,
                                   const ParamKwargs& kwargs) {
  const Shape<4> shape = Shape4(16, 1, 1, 500);
  StandaloneLayer<gpu, float> net(type, kwargs, {shape});
  const test::ScopedTestSeed seed;
  std::mt19937 engine(seed.value());
  std::uniform_real_distribution<float> dist(-1, 1);
  TensorContainer<cpu, 4, float> in(shape, false), grad(shape, false);
  for (index_t i = 0; i < shape.Size(); ++i) {
    in.dptr_[i] = dist(engine);
    grad.dptr_[i] = dist(engine);
  }
  Copy(net.in(0).data, in.view());
  Copy(net.out(0).grad, grad.view());
  net.layer().Forward(true);
  net.layer().Backprop(true);
  TensorContainer<cpu, 4, float> out(shape, false), in_grad(shape, false);
  Copy(out.view(), net.out(0).data);
  Copy(in_grad.view(), net.in(0).grad);
  std::vector<Scaled> scaled;
  int bad = 0;
  for (index_t i = 0; i < shape.Size(); ++i) {
    const double r = double(out.dptr_[i]) / in.dptr_[i];
    scaled.push_back({in.dptr_[i], r});
    if (std::fabs(in_grad.dptr_[i] - grad.dptr_[i] * r) > 1e-5 * (1 + r) &&
        ++bad <= 5) {
      ADD_FAILURE() << type << " element " << i << ": in " << in.dptr_[i]
                    << ", out " << out.dptr_[i] << ", out.grad "
                    << grad.dptr_[i] << ", in.grad " << in_grad.dptr_[i];
    }
  }
  return scaled;
}

TEST(GpuRandomLayerTest, DropoutZeroesAFractionAndScalesTheRest) {
  ASSERT_GT(GpuDeviceCount(), 0);
  const double keep = 0.75;
  int dropped = 0, total = 0;
  for (const Scaled& e : TrainingScales("dropout", {{"threshold", "0.25"}})) {
    ++total;
    if (std::fabs(e.r) < 1e-6) {
      ++dropped;
    } else {
      EXPECT_NEAR(e.r, 1 / keep, 1e-5) << "input " << e.in;
    }
  }
  EXPECT_NEAR(double(dropped) / total, 1 - keep, 0.03);
}

TEST(GpuRandomLayerTest, RreluDividesNegativesByUniformDraws) {
  ASSERT_GT(GpuDeviceCount(), 0);
  const double lb = 3, ub = 8;
  double r_low = 1, r_high = 0;
  for (const Scaled& e : TrainingScales("rrelu", {{"lb", "3"}, {"ub", "8"}})) {
    if (e.in > 0) {
      EXPECT_NEAR(e.r, 1, 1e-6) << "input " << e.in;
      continue;
    }
    EXPECT_GE(e.r, 1 / ub - 1e-6) << "input " << e.in;
    EXPECT_LE(e.r, 1 / lb + 1e-6) << "input " << e.in;
    r_low = std::min(r_low, e.r);
    r_high = std::max(r_high, e.r);
  }
  // The divisors spread over [lb, ub].
  EXPECT_LT(r_low, 1 / ub + 0.1 * (1 / lb - 1 / ub));
  EXPECT_GT(r_high, 1 / lb - 0.1 * (1 / lb - 1 / ub));
}

}  // namespace
}  // namespace layers
}  // namespace umbra
