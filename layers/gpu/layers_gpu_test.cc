// Every layer type on the gpu against the same type on the CPU: for each
// case of the table, the two layers get the same weights, states, labels,
// inputs and output gradients (fresh random values each run; the seed is
// printed on failure), and their outputs, losses, states, input gradients
// and weight gradients must agree, in training and at test time, with
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
#include "layers/layer_registry.h"
#include "layers/standalone_layer.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {
namespace {

struct GpuCase {
  // Unique, a valid test name suffix.
  std::string name;
  std::string type;
  ParamKwargs kwargs;
  std::vector<Shape<4>> inputs;
  size_t num_outputs = 1;
  bool in_place = false;
  // Inputs drawn from {-1, -0.5, 0, 0.5, 1}: ties for max pooling.
  bool ties = false;
  // Forward(true) draws random numbers (dropout, rrelu): compare test time
  // only.
  bool random_training = false;
};

std::ostream& operator<<(std::ostream& os, const GpuCase& c) {
  return os << c.name;
}

std::vector<GpuCase> Cases() {
  const Shape<4> image = Shape4(3, 4, 5, 6);
  const Shape<4> matrix = Shape4(5, 1, 1, 7);
  std::vector<GpuCase> cases = {
      // conv: stride, padding, dilation, groups, no_bias, odd sizes.
      {"conv_3x3",
       "conv",
       {{"nchannel", "4"}, {"kernel_size", "3"}},
       {Shape4(2, 3, 7, 6)}},
      {"conv_5x5_pad2",
       "conv",
       {{"nchannel", "3"}, {"kernel_size", "5"}, {"pad", "2"}},
       {Shape4(3, 1, 9, 8)}},
      {"conv_stride2_groups2_no_bias",
       "conv",
       {{"nchannel", "4"},
        {"kernel_height", "3"},
        {"kernel_width", "2"},
        {"stride", "2"},
        {"pad_y", "1"},
        {"ngroup", "2"},
        {"no_bias", "true"}},
       {Shape4(2, 6, 7, 5)}},
      {"conv_dilate2",
       "conv",
       {{"nchannel", "2"}, {"kernel_size", "3"}, {"pad", "2"}, {"dilate", "2"}},
       {Shape4(1, 2, 6, 7)}},
      {"conv_1x1_stride3_groups3",
       "conv",
       {{"nchannel", "6"},
        {"kernel_size", "1"},
        {"stride", "3"},
        {"pad_x", "1"},
        {"ngroup", "3"}},
       {Shape4(2, 3, 4, 4)}},
      {"conv_lenet",
       "conv",
       {{"nchannel", "32"}, {"kernel_size", "5"}, {"pad", "2"}},
       {Shape4(4, 1, 28, 28)}},
      // Activations, in place and not, images and matrices.
      {"relu", "relu", {}, {image}},
      {"relu_in_place", "relu", {}, {matrix}, 1, true},
      {"sigmoid", "sigmoid", {}, {image}},
      {"sigmoid_in_place", "sigmoid", {}, {image}, 1, true},
      {"tanh", "tanh", {}, {matrix}},
      {"tanh_in_place", "tanh", {}, {image}, 1, true},
      {"softplus", "softplus", {}, {image}},
      {"softplus_in_place", "softplus", {}, {matrix}, 1, true},
      {"xelu", "xelu", {{"b", "3"}}, {image}},
      {"xelu_in_place", "xelu", {}, {matrix}, 1, true},
      {"prelu", "prelu", {}, {image}},
      {"prelu_matrix", "prelu", {{"init_slope", "0.1"}}, {matrix}},
      {"rrelu_fixed", "rrelu", {{"lb", "3"}, {"ub", "3"}}, {image}},
      {"rrelu_in_place", "rrelu", {}, {matrix}, 1, true, false, true},
      // lrn: on cuDNN, and outside its bounds on the expression engine.
      {"lrn_5", "lrn", {{"local_size", "5"}}, {Shape4(2, 7, 3, 4)}},
      {"lrn_3_constants",
       "lrn",
       {{"local_size", "3"}, {"alpha", "0.1"}, {"beta", "0.5"}, {"knorm", "2"}},
       {Shape4(2, 5, 3, 3)}},
      {"lrn_17_expression",
       "lrn",
       {{"local_size", "17"}, {"alpha", "0.5"}},
       {Shape4(1, 20, 2, 3)}},
      {"lrn_small_beta_expression",
       "lrn",
       {{"local_size", "3"}, {"beta", "0.005"}},
       {Shape4(2, 4, 2, 2)}},
      // batch_norm: images and matrices, in place and not.
      {"batch_norm", "batch_norm", {}, {image}},
      {"batch_norm_in_place",
       "batch_norm",
       {{"eps", "0.001"}, {"bn_momentum", "0.5"}},
       {image},
       1,
       true},
      {"batch_norm_matrix", "batch_norm", {{"init_slope", "0.5"}}, {matrix}},
      // Losses, in place and not.
      {"softmax", "softmax", {}, {Shape4(6, 1, 1, 10)}},
      {"softmax_in_place_scaled",
       "softmax",
       {{"grad_scale", "0.5"}, {"batch_size", "16"}},
       {Shape4(5, 1, 1, 3)},
       1,
       true},
      {"l2_loss", "l2_loss", {}, {matrix}},
      {"l2_loss_in_place", "l2_loss", {{"grad_scale", "2"}}, {matrix}, 1, true},
      {"lp_loss_3", "lp_loss", {{"p", "3"}}, {matrix}},
      {"lp_loss_1_5", "lp_loss", {{"p", "1.5"}}, {matrix}, 1, true},
      {"multi_logistic", "multi_logistic", {}, {matrix}},
      {"multi_logistic_in_place", "multi_logistic", {}, {matrix}, 1, true},
      // The other layers.
      {"fullc", "fullc", {{"nhidden", "5"}}, {Shape4(3, 1, 1, 7)}},
      {"fullc_no_bias",
       "fullc",
       {{"nhidden", "9"}, {"no_bias", "true"}},
       {Shape4(4, 1, 1, 13)}},
      {"flatten", "flatten", {}, {image}},
      {"concat", "concat", {}, {Shape4(2, 1, 1, 3), Shape4(2, 1, 1, 5)}},
      {"ch_concat",
       "ch_concat",
       {},
       {Shape4(2, 2, 3, 4), Shape4(2, 3, 3, 4), Shape4(2, 1, 3, 4)}},
      {"split", "split", {}, {image}, 3},
      {"bias", "bias", {}, {image}},
      {"bias_matrix_in_place", "bias", {}, {matrix}, 1, true},
      {"dropout_none", "dropout", {{"threshold", "0"}}, {image}},
      {"dropout_in_place", "dropout", {}, {matrix}, 1, true, false, true},
  };
  // Pooling: where cuDNN's floor size is cxxnet's ceil size (cuDNN) and
  // where it is not (expression engine), with padding, odd sizes and ties.
  struct Window {
    const char* name;
    ParamKwargs kwargs;
    Shape<4> input;
    bool ties = false;
  };
  const std::vector<Window> windows = {
      {"2x2", {{"kernel_size", "2"}, {"stride", "2"}}, Shape4(2, 3, 8, 8)},
      {"2x2_ties",
       {{"kernel_size", "2"}, {"stride", "2"}},
       Shape4(2, 3, 6, 4),
       true},
      {"3x3_stride2",
       {{"kernel_size", "3"}, {"stride", "2"}},
       Shape4(2, 3, 9, 9)},
      {"3x3_stride2_ceil",
       {{"kernel_size", "3"}, {"stride", "2"}},
       Shape4(2, 3, 8, 8)},
      {"3x3_pad1_ties",
       {{"kernel_size", "3"}, {"pad", "1"}},
       Shape4(2, 2, 5, 7),
       true},
      {"2x2_stride2_pad1",
       {{"kernel_size", "2"}, {"stride", "2"}, {"pad", "1"}},
       Shape4(1, 2, 5, 5)},
      {"3x2_stride3_ceil",
       {{"kernel_height", "3"}, {"kernel_width", "2"}, {"stride", "3"}},
       Shape4(2, 2, 7, 8)},
  };
  for (const char* type : {"max_pooling", "avg_pooling", "sum_pooling"}) {
    for (const Window& w : windows) {
      GpuCase c{std::string(type) + "_" + w.name, type, w.kwargs, {w.input}};
      c.ties = w.ties;
      cases.push_back(c);
    }
  }
  return cases;
}

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
  Pair(const GpuCase& c, unsigned seed)
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
  // softmax: a class index per row; the others: targets in [0, 1).
  void AddLabels() {
    const Shape<4>& s = case_.inputs[0];
    const bool index = case_.type == "softmax";
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

  GpuCase case_;
  std::mt19937 engine_;
  StandaloneLayer<cpu, DType> cpu_;
  StandaloneLayer<gpu, DType> gpu_;
};

class GpuLayerTest : public ::testing::TestWithParam<GpuCase> {
 protected:
  void SetUp() override {
    ASSERT_GT(GpuDeviceCount(), 0)
        << "this test is tagged gpu and needs a CUDA device";
  }

  template <typename DType>
  void Check() {
    const unsigned seed = std::random_device()();
    SCOPED_TRACE("seed " + std::to_string(seed));
    Pair<DType> pair(GetParam(), seed);
    pair.RandomWeightGradients();
    if (!GetParam().random_training) pair.Run(true);
    pair.Run(false);
  }
};

TEST_P(GpuLayerTest, FloatMatchesCpu) { Check<float>(); }
TEST_P(GpuLayerTest, DoubleMatchesCpu) { Check<double>(); }

INSTANTIATE_TEST_SUITE_P(Layers, GpuLayerTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<GpuCase>& info) {
                           return info.param.name;
                         });

// Every layer type has a case above.
TEST(GpuLayerCasesTest, CoverEveryType) {
  std::vector<std::string> covered;
  for (const GpuCase& c : Cases()) covered.push_back(c.type);
  for (const std::string& type : LayerRegistry::List()) {
    EXPECT_NE(std::find(covered.begin(), covered.end(), type), covered.end())
        << type;
  }
}

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
  std::mt19937 engine(std::random_device{}());
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
