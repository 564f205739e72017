// Every updater on the gpu against the same updater on the cpu (tag gpu:
// needs a CUDA device): several steps on random weights and gradients,
// with weight decay and clipping, then every weight and state tensor
// compared.
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "layers/layer.h"
#include "tensor/tensor.h"
#include "tensor/test_seed.h"
#include "train/optim/updater.h"
#include "train/optim/updater_registry.h"

namespace umbra {
namespace optim {
namespace {

// A weight on device xpu with views for the updater.
template <typename xpu>
struct DeviceWeight {
  explicit DeviceWeight(index_t size)
      : data(Shape1(size), 0.0f, false), grad(Shape1(size), 0.0f, false) {}
  layers::WeightRef<xpu, float> Ref() {
    layers::WeightRef<xpu, float> ref;
    ref.name = "fc1.wmat";
    ref.tag = "wmat";
    ref.shape = TShape(Shape1(data.size(0)));
    ref.data = data.view();
    ref.grad = grad.view();
    return ref;
  }
  TensorContainer<xpu, 1, float> data;
  TensorContainer<xpu, 1, float> grad;
};

std::vector<float> HostOf(const Tensor<gpu, 1, float>& t) {
  std::vector<float> values(t.size(0));
  Copy(Tensor<cpu, 1, float>(values.data(), t.shape_), t);
  return values;
}

class UpdaterGpuTest : public ::testing::TestWithParam<std::string> {};

TEST_P(UpdaterGpuTest, StepsAsOnTheCpu) {
  InitTensorEngine<gpu>(0);
  const test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const index_t size = 1000 + rng() % 3000;
  const ParamKwargs kwargs = {
      {"eta", "0.05"}, {"wd", "0.01"}, {"clip_gradient", "1.5"}};
  auto on_cpu = CreateUpdater<cpu, float>(GetParam(), kwargs);
  auto on_gpu = CreateUpdater<gpu, float>(GetParam(), kwargs);
  DeviceWeight<cpu> w_cpu(size);
  DeviceWeight<gpu> w_gpu(size);
  for (index_t i = 0; i < size; ++i) w_cpu.data[i] = normal(rng);
  Copy(w_gpu.data.view(), w_cpu.data.view());
  on_cpu->AddWeight(w_cpu.Ref());
  on_gpu->AddWeight(w_gpu.Ref());
  for (int step = 0; step < 5; ++step) {
    for (index_t i = 0; i < size; ++i) w_cpu.grad[i] = 2.0f * normal(rng);
    Copy(w_gpu.grad.view(), w_cpu.grad.view());
    on_cpu->Update();
    on_gpu->Update();
  }
  std::vector<Tensor<cpu, 1, float>> want = {w_cpu.data.view()};
  std::vector<std::vector<float>> got = {HostOf(w_gpu.data.view())};
  for (const auto& t : on_cpu->StateTensors()) want.push_back(t.data);
  for (const auto& t : on_gpu->StateTensors()) got.push_back(HostOf(t.data));
  ASSERT_EQ(want.size(), got.size());
  for (size_t k = 0; k < want.size(); ++k) {
    for (index_t i = 0; i < size; ++i) {
      ASSERT_NEAR(got[k][i], want[k][i], 1e-5f + 1e-4f * std::abs(want[k][i]))
          << "tensor " << k << " element " << i;
    }
  }
  EXPECT_EQ(HostOf(w_gpu.grad.view())[0], 0.0f) << "the gradient is cleared";
}

INSTANTIATE_TEST_SUITE_P(Every, UpdaterGpuTest,
                         ::testing::Values("sgd", "nag", "adam", "adamw",
                                           "rmsprop"));

}  // namespace
}  // namespace optim
}  // namespace umbra
