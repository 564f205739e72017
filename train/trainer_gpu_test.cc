// The trainer on the gpu (tag gpu: needs a CUDA device): from the same
// checkpoint, training on the gpu reaches what training on the cpu
// reaches, weight by weight within float tolerance.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "train/net/checkpoint.h"
#include "train/trainer_test_util.h"

namespace umbra {
namespace train {
namespace {

using testing::BlobsConfig;
using testing::LastMetric;
using testing::NewTestDir;
using testing::ReadText;
using testing::RunTrainer;

// The blobs net without dropout (the gpu draws other random numbers), with
// a shared layer, and a second label column scored through label_vec.
std::string GpuConfig(const std::string& dir) {
  std::string config = BlobsConfig(dir);
  config = testing::WithLayers(config,
                               "layer[in->h] = fullc:fc1\n"
                               "  nhidden = 8\n"
                               "layer[h->h] = relu\n"
                               "layer[h->g] = share[fc1]\n"
                               "layer[g->g] = tanh\n"
                               "layer[g->out] = fullc:fc2\n"
                               "  nhidden = 3\n"
                               "layer[out->out] = softmax\n");
  return config + "label_vec[0,1) = class\nmetric[class,out] = rmse\n";
}

std::vector<float> Values(const TensorProto& tensor) {
  std::vector<float> values(tensor.data().size() / sizeof(float));
  std::memcpy(values.data(), tensor.data().data(), tensor.data().size());
  return values;
}

TEST(TrainerGpuTest, TrainsAsOnTheCpu) {
  const std::string dir = NewTestDir("gpu_vs_cpu");
  const std::string config = GpuConfig(dir);
  // One round on the cpu: the start both devices resume from.
  RunTrainer(dir, config, {"num_round=1", "model_dir=" + dir + "/start"});
  const std::string start = "model_in=" + dir + "/start/0001.model";
  const std::string cpu = RunTrainer(
      dir, config, {start, "num_round=4", "model_dir=" + dir + "/cpu"});
  const std::string gpu = RunTrainer(
      dir, config,
      {start, "num_round=4", "model_dir=" + dir + "/gpu", "dev=gpu"});
  EXPECT_LE(LastMetric(gpu, "test-error"), 0.05) << gpu;
  EXPECT_NEAR(LastMetric(gpu, "test-logloss"), LastMetric(cpu, "test-logloss"),
              1e-3)
      << cpu << gpu;
  EXPECT_NEAR(LastMetric(gpu, "test-rmse[class]"),
              LastMetric(cpu, "test-rmse[class]"), 1e-3)
      << cpu << gpu;

  const Checkpoint a = ReadCheckpoint(dir + "/cpu/0004.model");
  const Checkpoint b = ReadCheckpoint(dir + "/gpu/0004.model");
  EXPECT_EQ(a.num_update(), b.num_update());
  ASSERT_EQ(a.weights_size(), 4);
  ASSERT_EQ(b.weights_size(), 4);
  for (int i = 0; i < a.weights_size(); ++i) {
    const std::vector<float> x = Values(a.weights(i)), y = Values(b.weights(i));
    ASSERT_EQ(x.size(), y.size()) << a.weights(i).name();
    double largest = 0;
    for (size_t j = 0; j < x.size(); ++j) {
      EXPECT_NEAR(y[j], x[j], 1e-3 + 1e-3 * std::abs(x[j]))
          << a.weights(i).name() << " element " << j;
      largest = std::max(largest, std::abs(double(x[j])));
    }
    EXPECT_GT(largest, 0.0) << a.weights(i).name();
  }
}

TEST(TrainerGpuTest, PredictsAsOnTheCpu) {
  const std::string dir = NewTestDir("gpu_pred");
  const std::string config =
      GpuConfig(dir) +
      absl::StrCat("pred = \"", dir, "/pred.txt\"\niter = csv\n  filename = \"",
                   dir, "/test.csv\"\n  silent = 1\niter = end\n");
  RunTrainer(dir, config, {});
  const std::string cpu = RunTrainer(dir, config, {"task=eval"});
  const std::string gpu = RunTrainer(dir, config, {"task=eval", "dev=gpu"});
  EXPECT_NEAR(LastMetric(gpu, "test-logloss"), LastMetric(cpu, "test-logloss"),
              1e-4)
      << cpu << gpu;
  // The predictions themselves, written by each device (pred never
  // replaces a file, so the first is moved aside).
  const std::string pred = dir + "/pred.txt";
  RunTrainer(dir, config, {"task=pred"});
  const std::string cpu_pred = ReadText(pred);
  ASSERT_EQ(std::remove(pred.c_str()), 0);
  RunTrainer(dir, config, {"task=pred", "dev=gpu"});
  EXPECT_FALSE(cpu_pred.empty());
  EXPECT_EQ(ReadText(pred), cpu_pred);
}

}  // namespace
}  // namespace train
}  // namespace umbra
