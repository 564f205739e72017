#include "train/trainer_test_util.h"

#include <sys/stat.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "train/config/config.h"
#include "train/net/checkpoint.h"
#include "train/trainer.h"

namespace umbra {
namespace train {
namespace testing {

void WriteBlobsCsv(const std::string& path, int rows, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0.0, 0.3);
  std::ostringstream csv;
  for (int i = 0; i < rows; ++i) {
    const int label = i % 3;
    csv << label;
    for (int j = 0; j < 8; ++j) {
      const double centre = (j % 3 == label) ? 1.5 : 0.0;
      csv << "," << centre + noise(rng);
    }
    csv << "\n";
  }
  WriteText(path, csv.str());
}

std::string BlobsConfig(const std::string& dir) {
  WriteBlobsCsv(dir + "/train.csv", 300, 1);
  WriteBlobsCsv(dir + "/test.csv", 90, 2);
  return absl::StrReplaceAll(R"(# synthetic blobs
data = train
iter = csv
  filename = "DIR/train.csv"
  shuffle = 1
  silent = 1
iter = end
eval = test
iter = csv
  filename = "DIR/test.csv"
  silent = 1
iter = end
netconfig = start
layer[in->h] = fullc:fc1
  nhidden = 16
layer[h->h] = relu
layer[h->d] = dropout
  threshold = 0.2
layer[d->out] = fullc:fc2
  nhidden = 3
layer[out->out] = softmax
netconfig = end
batch_size = 10
num_round = 4
seed = 3
random_type = xavier
eta = 0.1
momentum = 0.9
wd = 0.0001
metric = error
metric = logloss
model_dir = "DIR/models"
silent = 1
)",
                             {{"DIR", dir}});
}

std::string WithLayers(std::string config, const std::string& layers) {
  const size_t begin = config.find("netconfig = start\n") +
                       std::string("netconfig = start\n").size();
  const size_t end = config.find("netconfig = end");
  config.replace(begin, end - begin, layers);
  return config;
}

std::string RunTrainer(const std::string& dir, const std::string& config_text,
                       const std::vector<std::string>& overrides,
                       dist::Communicator* ranks) {
  const std::string path = dir + "/net.conf";
  WriteText(path, config_text);
  TrainerInputs inputs;
  inputs.config = LoadTrainConfig(path, overrides);
  inputs.config_text = config_text;
  inputs.overrides = overrides;
  std::ostringstream out;
  Trainer trainer(std::move(inputs), out, ranks);
  trainer.Run();
  return out.str();
}

double LastMetric(const std::string& output, const std::string& label) {
  double value = std::numeric_limits<double>::quiet_NaN();
  for (absl::string_view line : absl::StrSplit(output, '\n')) {
    if (line.empty() || line[0] != '[') continue;
    for (absl::string_view field : absl::StrSplit(line, '\t')) {
      std::pair<std::string, std::string> kv =
          absl::StrSplit(field, absl::MaxSplits(':', 1));
      double parsed;
      if (kv.first == label && absl::SimpleAtod(kv.second, &parsed)) {
        value = parsed;
      }
    }
  }
  return value;
}

std::vector<std::string> MetricRowsWithoutTimings(const std::string& path) {
  std::vector<std::string> rows;
  for (absl::string_view line :
       absl::StrSplit(ReadText(path), '\n', absl::SkipEmpty())) {
    std::vector<std::string> fields = absl::StrSplit(line, ',');
    fields.erase(fields.begin() + 1, fields.begin() + 3);
    rows.push_back(absl::StrJoin(fields, ","));
  }
  return rows;
}

std::map<std::string, std::vector<float>> CheckpointWeights(
    const std::string& path) {
  const Checkpoint checkpoint = ReadCheckpoint(path);
  std::map<std::string, std::vector<float>> weights;
  for (const TensorProto& proto : checkpoint.weights()) {
    std::vector<float>& values = weights[proto.name()];
    values.resize(proto.data().size() / sizeof(float));
    ReadTensorProto(proto, values.data(), values.size(), proto.name());
  }
  return weights;
}

void ExpectSameWeights(const std::string& want, const std::string& got) {
  const auto expected = CheckpointWeights(want);
  const auto actual = CheckpointWeights(got);
  ASSERT_EQ(expected.size(), actual.size()) << want << " vs " << got;
  float scale = 0;
  for (const auto& [name, values] : expected) {
    for (float v : values) scale = std::max(scale, std::fabs(v));
  }
  for (const auto& [name, values] : expected) {
    ASSERT_EQ(actual.count(name), 1u) << name;
    const std::vector<float>& other = actual.at(name);
    ASSERT_EQ(values.size(), other.size()) << name;
    for (size_t i = 0; i < values.size(); ++i) {
      if (std::fabs(values[i] - other[i]) > 1e-5 * scale) {
        ADD_FAILURE() << name << "[" << i << "] is " << other[i] << " in "
                      << got << ", " << values[i] << " in " << want
                      << " (tolerance " << 1e-5 * scale << ")";
        break;
      }
    }
  }
}

}  // namespace testing
}  // namespace train
}  // namespace umbra
