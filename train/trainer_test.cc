// End-to-end tests of the Trainer on a small separable data set: training
// reaches near-zero error, a resumed run is bit-identical to an
// uninterrupted one, and the pred, eval and finetune tasks work.
#include "train/trainer.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "train/config/config.h"
#include "train/data/binary_format.h"
#include "train/device.h"
#include "train/net/checkpoint.h"
#include "train/trainer_test_util.h"

namespace umbra {
namespace train {
namespace {

using testing::BlobsConfig;
using testing::ExpectSameWeights;
using testing::LastMetric;
using testing::LineOf;
using testing::NewTestDir;
using testing::ReadText;
using testing::RunTrainer;
using testing::WriteText;

TEST(TrainerTest, LearnsSeparableBlobs) {
  const std::string dir = NewTestDir("blobs");
  const std::string out = RunTrainer(dir, BlobsConfig(dir), {});
  EXPECT_LE(LastMetric(out, "test-error"), 0.02) << out;
  EXPECT_LE(LastMetric(out, "train-error"), 0.05) << out;
  // Confident and right: well below log(2), the loss of a coin toss.
  const double logloss = LastMetric(out, "test-logloss");
  EXPECT_GT(logloss, 0.0) << out;
  EXPECT_LT(logloss, 0.1) << out;
  // Round lines as cxxnet printed them: "[4]" then tab-separated
  // NAME:NUMBER fields, which scripts for cxxnet's logs parse.
  int round_lines = 0;
  for (absl::string_view line : absl::StrSplit(out, '\n')) {
    if (!absl::StartsWith(line, "[")) continue;
    ++round_lines;
    const std::vector<std::string> fields = absl::StrSplit(line, '\t');
    ASSERT_EQ(fields.size(), 7u) << line;
    EXPECT_EQ(fields[0], absl::StrCat("[", round_lines, "]"));
    const std::vector<std::string> names = {"elapsed",     "images/s",
                                            "train-error", "train-logloss",
                                            "test-error",  "test-logloss"};
    for (size_t i = 1; i < fields.size(); ++i) {
      const std::pair<std::string, std::string> kv =
          absl::StrSplit(fields[i], absl::MaxSplits(':', 1));
      EXPECT_EQ(kv.first, names[i - 1]) << line;
      double value;
      EXPECT_TRUE(absl::SimpleAtod(kv.second, &value)) << line;
    }
  }
  EXPECT_EQ(round_lines, 4) << out;
  const std::vector<std::string> csv = absl::StrSplit(
      ReadText(dir + "/models/metrics.csv"), '\n', absl::SkipEmpty());
  ASSERT_EQ(csv.size(), 5u);
  EXPECT_EQ(csv[0],
            "round,elapsed_s,images_per_s,train-error,train-logloss,"
            "test-error,test-logloss");
  EXPECT_EQ(NewestCheckpoint(dir + "/models"), dir + "/models/0004.model");
}

// The weights and updater state of a checkpoint, as bytes by name.
std::vector<std::string> StateBytes(const Checkpoint& checkpoint) {
  std::vector<std::string> bytes;
  for (const TensorProto& t : checkpoint.weights()) {
    bytes.push_back(t.name() + "=" + t.data());
  }
  for (const TensorProto& t : checkpoint.states()) {
    bytes.push_back(t.name() + "=" + t.data());
  }
  for (const TensorProto& t : checkpoint.updater().tensors()) {
    bytes.push_back(t.name() + "=" + t.data());
  }
  return bytes;
}

// The blobs net with a batch_norm layer (moving averages to save).
std::string BatchNormConfig(const std::string& dir) {
  std::string config = BlobsConfig(dir);
  config.replace(config.find("layer[h->h] = relu"), 18,
                 "layer[h->h] = batch_norm:bn1\nlayer[h->h] = relu");
  return config;
}

class ResumeTest : public ::testing::TestWithParam<bool> {};

TEST_P(ResumeTest, IsBitIdentical) {
  const bool batch_norm = GetParam();
  auto config = [&](const std::string& dir) {
    return batch_norm ? BatchNormConfig(dir) : BlobsConfig(dir);
  };
  const std::string whole = NewTestDir("resume_whole");
  const std::string whole_out = RunTrainer(whole, config(whole), {});

  const std::string split = NewTestDir("resume_split");
  RunTrainer(split, config(split), {"num_round=2"});
  const std::string resumed_out =
      RunTrainer(split, config(split), {"continue=1"});
  EXPECT_NE(resumed_out.find("[3]"), std::string::npos) << resumed_out;
  EXPECT_EQ(resumed_out.find("[2]"), std::string::npos) << resumed_out;

  const Checkpoint a = ReadCheckpoint(whole + "/models/0004.model");
  const Checkpoint b = ReadCheckpoint(split + "/models/0004.model");
  EXPECT_EQ(a.num_update(), b.num_update());
  EXPECT_EQ(a.rng().data_passes(), 4);
  EXPECT_EQ(b.rng().data_passes(), 4);
  EXPECT_EQ(b.metrics_size(), 4);
  EXPECT_EQ(b.states_size(), batch_norm ? 2 : 0);
  const std::vector<std::string> wa = StateBytes(a), wb = StateBytes(b);
  ASSERT_EQ(wa.size(), wb.size());
  ASSERT_FALSE(wa.empty());
  for (size_t i = 0; i < wa.size(); ++i) {
    EXPECT_TRUE(wa[i] == wb[i]) << "tensor " << i << " differs";
  }
  EXPECT_EQ(LastMetric(whole_out, "test-logloss"),
            LastMetric(resumed_out, "test-logloss"));
  EXPECT_LE(LastMetric(resumed_out, "test-error"), 0.02) << resumed_out;
}

INSTANTIATE_TEST_SUITE_P(PlainAndBatchNorm, ResumeTest, ::testing::Bool());

TEST(TrainerTest, PredEvalAndFinetune) {
  const std::string dir = NewTestDir("tasks");
  const std::string config =
      BlobsConfig(dir) +
      absl::StrCat("pred = \"", dir, "/pred.txt\"\niter = csv\n  filename = \"",
                   dir, "/test.csv\"\n  silent = 1\niter = end\n");
  RunTrainer(dir, config, {});

  RunTrainer(dir, config, {"task=pred"});
  std::vector<std::string> lines =
      absl::StrSplit(ReadText(dir + "/pred.txt"), '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 90u);
  int right = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    right += lines[i] == std::to_string(i % 3);
  }
  EXPECT_GE(right, 88);

  std::remove((dir + "/pred.txt").c_str());  // pred never overwrites a file
  RunTrainer(dir, config, {"task=pred", "output_prob=1"});
  const std::string probabilities = ReadText(dir + "/pred.txt");
  lines = absl::StrSplit(probabilities, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 90u);
  EXPECT_EQ(std::vector<std::string>(absl::StrSplit(lines[0], ' ')).size(), 3u);
  // cxxnet's name for it.
  std::remove((dir + "/pred.txt").c_str());
  RunTrainer(dir, config, {"task=pred_raw"});
  EXPECT_EQ(ReadText(dir + "/pred.txt"), probabilities);

  std::remove((dir + "/pred.txt").c_str());
  RunTrainer(dir, config, {"task=extract", "extract_node=h"});
  lines = absl::StrSplit(ReadText(dir + "/pred.txt"), '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 90u);
  EXPECT_EQ(std::vector<std::string>(absl::StrSplit(lines[0], ' ')).size(),
            16u);

  const std::string eval = RunTrainer(dir, config, {"task=eval"});
  EXPECT_NE(eval.find("[eval]\ttest-error:"), std::string::npos) << eval;

  const std::string tuned =
      RunTrainer(dir, config,
                 {"task=finetune", "num_round=1",
                  absl::StrCat("model_in=", dir, "/models/0004.model"),
                  absl::StrCat("model_dir=", dir, "/tuned"), "silent=0"});
  EXPECT_NE(tuned.find("finetune: loaded 4 weights"), std::string::npos)
      << tuned;
  EXPECT_LE(LastMetric(tuned, "test-error"), 0.02) << tuned;
}

TEST(TrainerTest, SharedLayerTrainsAndIsSavedOnce) {
  const std::string dir = NewTestDir("share");
  std::string config = BlobsConfig(dir);
  config = testing::WithLayers(config,
                               "layer[in->h] = fullc:fc1\n"
                               "  nhidden = 8\n"
                               "layer[h->h] = relu\n"
                               "layer[h->g] = share[fc1]\n"
                               "layer[g->g] = relu\n"
                               "layer[g->out] = fullc:fc2\n"
                               "  nhidden = 3\n"
                               "layer[out->out] = softmax\n");
  const std::string out = RunTrainer(dir, config, {"silent=0"});
  EXPECT_NE(out.find("share_2          share[fc1]"), std::string::npos) << out;
  EXPECT_LE(LastMetric(out, "test-error"), 0.05) << out;
  const Checkpoint checkpoint = ReadCheckpoint(dir + "/models/0004.model");
  std::vector<std::string> names;
  for (const TensorProto& t : checkpoint.weights()) names.push_back(t.name());
  EXPECT_EQ(names, (std::vector<std::string>{"fc1.wmat", "fc1.bias", "fc2.wmat",
                                             "fc2.bias"}));
  std::vector<std::string> updater_tensors;
  for (const TensorProto& t : checkpoint.updater().tensors()) {
    updater_tensors.push_back(t.name());
  }
  EXPECT_EQ(updater_tensors.size(), 4u);  // one momentum per weight
  // The resumed run loads the one copy back into both uses.
  const std::string resumed =
      RunTrainer(dir, config, {"continue=1", "num_round=5", "silent=0"});
  EXPECT_NE(resumed.find("resumed from"), std::string::npos) << resumed;
  EXPECT_LE(LastMetric(resumed, "test-error"), 0.05) << resumed;
}

// `rows` instances whose data (1,1,8) is noise and whose one extra input
// (1,1,3) holds the class: 1.5 at the label's position, plus noise.
void WriteExtraInputSet(const std::string& path, int rows, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> noise(0.0f, 0.3f);
  BinaryDatasetWriter writer(path, Shape3(1, 1, 8), 1, BinaryDtype::kFloat32,
                             {Shape3(1, 1, 3)});
  TensorContainer<cpu, 1, float> data(Shape1(8)), extra(Shape1(3));
  for (int i = 0; i < rows; ++i) {
    const int label = i % 3;
    for (index_t j = 0; j < 8; ++j) data[j] = noise(rng);
    for (index_t j = 0; j < 3; ++j)
      extra[j] = (j == label ? 1.5f : 0.0f) + noise(rng);
    writer.Append(data, {float(label)}, {extra});
  }
  writer.Finish();
}

std::string ExtraInputConfig(const std::string& dir) {
  WriteExtraInputSet(dir + "/train.umbra", 300, 1);
  WriteExtraInputSet(dir + "/test.umbra", 90, 2);
  return absl::StrReplaceAll(R"(extra_data_num = 1
extra_data_shape[1] = 1,1,3
data = train
iter = binary
  path_data = "DIR/train.umbra"
  shuffle = 1
  silent = 1
iter = threadbuffer
iter = end
eval = test
iter = binary
  path_data = "DIR/test.umbra"
  silent = 1
iter = end
netconfig = start
layer[in,in_1->x] = concat
layer[x->h] = fullc:fc1
  nhidden = 16
layer[h->h] = relu
layer[h->out] = fullc:fc2
  nhidden = 3
layer[out->out] = softmax
netconfig = end
batch_size = 10
num_round = 4
random_type = xavier
eta = 0.1
momentum = 0.9
model_dir = "DIR/models"
silent = 1
)",
                             {{"DIR", dir}});
}

TEST(TrainerTest, ExtraInputsAreFedFromTheData) {
  const std::string dir = NewTestDir("extra");
  const std::string config = ExtraInputConfig(dir);
  // The data is noise: only the extra input tells the classes apart.
  const std::string out = RunTrainer(dir, config, {"silent=0"});
  EXPECT_NE(out.find("in_1             (input)        (10,1,1,3)"),
            std::string::npos)
      << out;
  EXPECT_LE(LastMetric(out, "test-error"), 0.05) << out;

  RunTrainer(dir,
             config + "pred = \"" + dir +
                 "/pred.txt\"\niter = binary\n"
                 "  path_data = \"" +
                 dir +
                 "/test.umbra\"\n  silent = 1\n"
                 "iter = end\n",
             {"task=pred"});
  std::ifstream pred(dir + "/pred.txt");
  int right = 0, rows = 0;
  for (std::string line; std::getline(pred, line); ++rows) {
    right += line == std::to_string(rows % 3);
  }
  EXPECT_EQ(rows, 90);
  EXPECT_GE(right, 85);
}

TEST(TrainerTest, ExtraInputErrors) {
  const std::string dir = NewTestDir("extra_errors");
  const std::string config = ExtraInputConfig(dir);
  auto error_of = [&](const std::string& text,
                      const std::vector<std::string>& overrides) {
    try {
      RunTrainer(dir, text, overrides);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    ADD_FAILURE() << "no ConfigError";
    return std::string();
  };
  const std::string wrong_shape =
      error_of(config, {"extra_data_shape[1]=1,1,4"});
  EXPECT_NE(wrong_shape.find("command line: argument 2: extra input 1 of data "
                             "train is (10,1,1,3) per batch"),
            std::string::npos)
      << wrong_shape;
  std::string csv = BlobsConfig(dir);
  csv = "extra_data_num = 1\n" + csv;
  const std::string no_extras = error_of(csv, {});
  EXPECT_NE(no_extras.find("net.conf:1: extra_data_num = 1 but data train "
                           "gives 0 extra inputs per instance; extra inputs "
                           "come from iter = binary"),
            std::string::npos)
      << no_extras;
  std::string unread = config;
  unread.replace(0, unread.find("data = train"), "");
  unread = absl::StrReplaceAll(
      unread, {{"layer[in,in_1->x] = concat", "layer[in->x] = sigmoid"}});
  const std::string unread_error = error_of(unread, {});
  EXPECT_NE(unread_error.find("data train gives 1 extra inputs per instance; "
                              "set extra_data_num = 1"),
            std::string::npos)
      << unread_error;
  EXPECT_NE(error_of(config, {"extra_data_shape[2]=1,1,3"})
                .find("expected extra_data_shape[I] with I in 1..1 "
                      "(extra_data_num), for node in_I"),
            std::string::npos);
  EXPECT_NE(error_of(config, {"extra_data_shape[1]=1,3"})
                .find("expected the shape of node in_1 as "
                      "channel,height,width"),
            std::string::npos);
}

// Blobs with two label columns, the class and (class + 1) % 3, learnt by
// two heads that each read one column (label_vec) and are each scored by a
// metric[FIELD,NODE] line.
std::string TwoHeadConfig(const std::string& dir) {
  std::string config = BlobsConfig(dir);
  for (const char* name : {"/train.csv", "/test.csv"}) {
    std::ifstream in(dir + name);
    std::string text;
    for (std::string line; std::getline(in, line);) {
      const int label = line[0] - '0';
      text += line.substr(0, 1) + "," + std::to_string((label + 1) % 3) +
              line.substr(1) + "\n";
    }
    WriteText(dir + name, text);
  }
  config = absl::StrReplaceAll(config, {{"  silent = 1\niter = end",
                                         "  silent = 1\n  label_width = 2\n"
                                         "iter = end"}});
  config = testing::WithLayers(config,
                               "layer[in->h] = fullc:fc1\n"
                               "  nhidden = 16\n"
                               "layer[h->h] = relu\n"
                               "layer[h->h1,h2] = split\n"
                               "layer[h1->first] = fullc:head1\n"
                               "  nhidden = 3\n"
                               "layer[first->first] = softmax\n"
                               "  target = class\n"
                               "layer[h2->second] = fullc:head2\n"
                               "  nhidden = 3\n"
                               "layer[second->second] = softmax\n"
                               "  target = next\n");
  config = absl::StrReplaceAll(
      config, {{"metric = error\nmetric = logloss\n",
                "label_vec[0,1) = class\nlabel_vec[1,2) = next\n"
                "metric[class,first] = error\nmetric[next,second] = error\n"
                "metric[next] = logloss\n"}});
  return config;
}

TEST(TrainerTest, MetricsOfLabelFieldsAndNodes) {
  const std::string dir = NewTestDir("fields");
  const std::string out = RunTrainer(dir, TwoHeadConfig(dir), {});
  EXPECT_NE(out.find("\ttrain-error[class]:"), std::string::npos) << out;
  EXPECT_LE(LastMetric(out, "test-error[class]"), 0.05) << out;
  // metric[next] reads the net's output: the second head's, the last.
  const double logloss = LastMetric(out, "test-logloss[next]");
  EXPECT_GE(logloss, 0.0) << out;
  EXPECT_LE(logloss, 0.3) << out;
  std::ifstream csv(dir + "/models/metrics.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header,
            "round,elapsed_s,images_per_s,train-error[class],train-error[next],"
            "train-logloss[next],test-error[class],test-error[next],"
            "test-logloss[next]");
}

TEST(TrainerTest, MetricLineErrors) {
  const std::string dir = NewTestDir("metric_errors");
  const std::string config = TwoHeadConfig(dir);
  auto error_of = [&](const std::string& line) {
    try {
      RunTrainer(dir, config + line + "\n", {});
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    ADD_FAILURE() << "no ConfigError for " << line;
    return std::string();
  };
  const std::string line = absl::StrCat(
      dir, "/net.conf:", std::count(config.begin(), config.end(), '\n') + 1,
      ": ");
  EXPECT_EQ(error_of("metric[class,secnd] = rmse"),
            line +
                "metric 'rmse': the net has no node 'secnd'; did you mean "
                "'second'? Nodes: 6 in all; see the netconfig");
  EXPECT_EQ(error_of("metric[clas,first] = rmse"),
            line +
                "metric 'rmse': no label field 'clas'; did you mean "
                "'class'? Fields: label, class, next (name more with "
                "label_vec[BEGIN,END) = NAME)");
  EXPECT_EQ(error_of("metric[class,first,x] = rmse"),
            line +
                "key 'metric[class,first,x]': expected metric[FIELD,NODE] "
                "(a label field and a node of the net) or metric[FIELD]");
  EXPECT_EQ(error_of("metric[class,h2] = eror"),
            line +
                "unknown metric 'eror'; did you mean 'error'? Known "
                "metrics: error, logloss, rec@k, rmse");
  EXPECT_NE(error_of("metric[class,h2] = error")
                .find("metric 'error' of label field 'class' is already "
                      "asked for at line"),
            std::string::npos);
  EXPECT_EQ(error_of("label_vec[0,3) = wide"),
            line +
                "label field 'wide' is columns 0 to 2, but the data has 2 "
                "label columns (label_width)");
  EXPECT_EQ(error_of("label_vec[2,1) = x"),
            line +
                "key 'label_vec[2,1)': expected label_vec[BEGIN,END) with "
                "label columns 0 <= BEGIN < END, e.g. label_vec[1,3)");
  EXPECT_NE(error_of("metrc[class,first] = error")
                .find("unknown key 'metrc[class,first]' in the global "
                      "settings; did you mean 'metric[class,first]'?"),
            std::string::npos);
}

TEST(TrainerTest, NonFiniteLossNamesTheLayer) {
  const std::string dir = NewTestDir("nan");
  try {
    RunTrainer(dir, BlobsConfig(dir), {"eta=1e30", "momentum=0"});
    FAIL() << "expected a TrainingError";
  } catch (const TrainingError& e) {
    EXPECT_NE(std::string(e.what()).find("the loss is"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("layer fc2 (fullc) is the first "
                                         "layer whose output holds"),
              std::string::npos)
        << e.what();
  }
}

TEST(TrainerTest, GpuWithoutCudaSaysHowToRebuild) {
  const std::string dir = NewTestDir("gpu");
  if (BuiltWithCuda()) GTEST_SKIP() << "a CUDA build";
  try {
    RunTrainer(dir, BlobsConfig(dir), {"dev=gpu:1"});
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("--config=cuda"), std::string::npos)
        << e.what();
    EXPECT_EQ(e.location().argument, 2) << e.what();
  }
}

TEST(TrainerTest, ErrorsNoLineSaysPointAtTheFileOrARelatedLine) {
  const std::string dir = NewTestDir("noline");
  const std::string no_data =
      "netconfig = start\n"
      "layer[in->out] = fullc:fc1\n"
      "  nhidden = 3\n"
      "layer[out->out] = softmax\n"
      "netconfig = end\n"
      "batch_size = 10\n"
      "input_shape = 1,1,8\n";
  try {
    RunTrainer(dir, no_data, {});
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              dir +
                  "/net.conf: training needs a `data = train` block with "
                  "the training iterator");
  }
  // A schedule's missing key is reported where the schedule is chosen.
  try {
    RunTrainer(dir, BlobsConfig(dir), {"num_round=1", "lr:schedule=cosine"});
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.location().argument, 3) << e.what();
    EXPECT_NE(std::string(e.what()).find("'lr:max_step'"), std::string::npos)
        << e.what();
  }
}

TEST(TrainerTest, NeverOverwritesAnEarlierRun) {
  const std::string dir = NewTestDir("earlier");
  RunTrainer(dir, BlobsConfig(dir), {"num_round=2"});
  const std::string models = dir + "/models";
  const std::string first = ReadText(CheckpointPath(models, 2));
  const std::string metrics = ReadText(models + "/metrics.csv");
  const auto refusal = [&](const std::vector<std::string>& overrides) {
    try {
      RunTrainer(dir, BlobsConfig(dir), overrides);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("(trained)");
  };
  // A fresh run into the same model_dir.
  EXPECT_EQ(refusal({"num_round=2"}),
            dir + "/net.conf:" +
                std::to_string(LineOf(BlobsConfig(dir), "model_dir")) +
                ": model_dir '" + models +
                "' already holds metrics.csv of an earlier run, which this "
                "run would overwrite: resume that run with continue = 1 (from "
                "its newest checkpoint), or set another model_dir");
  // Resuming from an earlier checkpoint would write over a later one.
  EXPECT_NE(
      refusal({"num_round=2", "model_in=" + CheckpointPath(models, 1)})
          .find("already holds the checkpoint " + CheckpointPath(models, 2)),
      std::string::npos);
  EXPECT_EQ(ReadText(CheckpointPath(models, 2)), first);
  EXPECT_EQ(ReadText(models + "/metrics.csv"), metrics);
  // Resuming the newest checkpoint goes on.
  EXPECT_EQ(refusal({"num_round=3", "continue=1"}), "(trained)");
  EXPECT_EQ(NewestCheckpoint(models), CheckpointPath(models, 3));
  // A run stopped between its metrics row and its checkpoint: the resumed
  // run trains round 3 again, and its row comes once.
  std::remove(CheckpointPath(models, 3).c_str());
  EXPECT_EQ(refusal({"num_round=4", "continue=1"}), "(trained)");
  std::vector<std::string> rounds;
  for (absl::string_view row : absl::StrSplit(ReadText(models + "/metrics.csv"),
                                              '\n', absl::SkipEmpty())) {
    rounds.emplace_back(row.substr(0, row.find(',')));
  }
  EXPECT_EQ(rounds, (std::vector<std::string>{"round", "1", "2", "3", "4"}));
  // A model_dir that is a file is refused before any training.
  WriteText(dir + "/afile", "notes");
  EXPECT_NE(refusal({"num_round=1", "model_dir=" + dir + "/afile"})
                .find("model_dir '" + dir +
                      "/afile' is a file, not a "
                      "directory"),
            std::string::npos);
  EXPECT_EQ(ReadText(dir + "/afile"), "notes");
}

// max_round bounds the rounds of one run (cxxnet's meaning); num_round is
// where training ends.
TEST(TrainerTest, MaxRoundCountsTheRoundsOfThisRun) {
  const std::string dir = NewTestDir("max_round");
  const std::string models = dir + "/models";
  RunTrainer(dir, BlobsConfig(dir), {"num_round=5", "max_round=2"});
  EXPECT_EQ(NewestCheckpoint(models), CheckpointPath(models, 2));
  const std::string third =
      RunTrainer(dir, BlobsConfig(dir),
                 {"continue=1", "num_round=5", "max_round=1", "silent=0"});
  EXPECT_EQ(NewestCheckpoint(models), CheckpointPath(models, 3)) << third;
  EXPECT_NE(third.find("[3]"), std::string::npos) << third;
  EXPECT_EQ(third.find("[4]"), std::string::npos) << third;
  // num_round still ends training: 3 + 4 would pass round 5.
  RunTrainer(dir, BlobsConfig(dir),
             {"continue=1", "num_round=5", "max_round=4"});
  EXPECT_EQ(NewestCheckpoint(models), CheckpointPath(models, 5));
  // The message names the key that stopped the run.
  EXPECT_NE(RunTrainer(dir, BlobsConfig(dir),
                       {"continue=1", "num_round=5", "silent=0"})
                .find("nothing to train: 5 rounds done, num_round = 5"),
            std::string::npos);
  EXPECT_NE(RunTrainer(dir, BlobsConfig(dir),
                       {"continue=1", "num_round=6", "max_round=0", "silent=0"})
                .find("nothing to train: 5 rounds done, max_round = 0"),
            std::string::npos);
}

// start_counter: a fresh run starts after that many rounds, as cxxnet's
// (rounds and checkpoints numbered from start_counter + 1); a resumed run
// starts where its checkpoint ended and says that start_counter did nothing.
TEST(TrainerTest, StartCounterNumbersAFreshRunsRounds) {
  const std::string dir = NewTestDir("start_counter");
  const std::string models = dir + "/models";
  const std::string fresh = RunTrainer(
      dir, BlobsConfig(dir), {"num_round=4", "start_counter=2", "silent=0"});
  EXPECT_EQ(NewestCheckpoint(models), CheckpointPath(models, 4));
  EXPECT_FALSE(std::filesystem::exists(CheckpointPath(models, 2)));
  EXPECT_NE(fresh.find("[3]"), std::string::npos) << fresh;
  EXPECT_EQ(fresh.find("[2]"), std::string::npos) << fresh;
  const std::string resumed =
      RunTrainer(dir, BlobsConfig(dir),
                 {"continue=1", "num_round=5", "start_counter=1", "silent=0"});
  EXPECT_EQ(NewestCheckpoint(models), CheckpointPath(models, 5));
  EXPECT_NE(resumed.find("note: start_counter = 1 has no effect: the run "
                         "starts where its checkpoint"),
            std::string::npos)
      << resumed;
}

// print_step: cxxnet's progress line every N training batches.
TEST(TrainerTest, PrintStepPrintsProgressLines) {
  const std::string dir = NewTestDir("print_step");
  // 300 instances in batches of 10: 30 batches a round, a line after 7,
  // 14, 21 and 28.
  const std::string out = RunTrainer(
      dir, BlobsConfig(dir), {"num_round=2", "print_step=7", "silent=0"});
  std::vector<std::string> progress;
  for (absl::string_view line : absl::StrSplit(out, '\n')) {
    if (absl::StartsWith(line, "round ")) {
      progress.emplace_back(line.substr(0, line.find(']') + 1));
      EXPECT_TRUE(absl::StrContains(line, " sec elapsed, ")) << line;
      EXPECT_TRUE(absl::EndsWith(line, " images/s")) << line;
    }
  }
  EXPECT_EQ(progress,
            (std::vector<std::string>{
                "round        1:[       7]", "round        1:[      14]",
                "round        1:[      21]", "round        1:[      28]",
                "round        2:[       7]", "round        2:[      14]",
                "round        2:[      21]", "round        2:[      28]"}))
      << out;
  // silent = 1 prints none.
  const std::string quiet_dir = NewTestDir("print_step_silent");
  const std::string quiet = RunTrainer(quiet_dir, BlobsConfig(quiet_dir),
                                       {"num_round=1", "print_step=7"});
  EXPECT_EQ(quiet.find("round "), std::string::npos) << quiet;
}

// test_io = 1: passes over the data with their speed, nothing trained or
// written.
TEST(TrainerTest, TestIoOnlyReadsTheData) {
  const std::string dir = NewTestDir("test_io");
  const std::string out =
      RunTrainer(dir, BlobsConfig(dir), {"test_io=1", "num_round=2"});
  std::vector<std::string> rounds;
  for (absl::string_view line : absl::StrSplit(out, '\n')) {
    if (absl::StartsWith(line, "[")) {
      rounds.emplace_back(line.substr(0, line.find('\t')));
      EXPECT_TRUE(absl::StrContains(line, "images/s:")) << line;
      EXPECT_FALSE(absl::StrContains(line, "error")) << line;
    }
  }
  EXPECT_EQ(rounds, (std::vector<std::string>{"[1]", "[2]"})) << out;
  EXPECT_FALSE(std::ifstream(dir + "/models/metrics.csv"));
  EXPECT_FALSE(std::ifstream(CheckpointPath(dir + "/models", 1)));
}

// update_period: the gradients of K batches add up to one update, so
// batches of 15 with update_period = 2 train the weights of batches of 30
// (a net without dropout or batch_norm, the data in one order).
TEST(TrainerTest, UpdatePeriodAccumulatesGradients) {
  const auto config = [](const std::string& dir) {
    return testing::WithLayers(
        absl::StrReplaceAll(BlobsConfig(dir), {{"shuffle = 1", "shuffle = 0"}}),
        "layer[in->h] = fullc:fc1\n  nhidden = 16\nlayer[h->h] = relu\n"
        "layer[h->out] = fullc:fc2\n  nhidden = 3\n"
        "layer[out->out] = softmax\n");
  };
  const std::string whole = NewTestDir("batch_30");
  RunTrainer(whole, config(whole), {"num_round=2", "batch_size=30"});
  const std::string halves = NewTestDir("batch_15_twice");
  RunTrainer(halves, config(halves),
             {"num_round=2", "batch_size=15", "update_period=2"});
  ExpectSameWeights(whole + "/models/0002.model",
                    halves + "/models/0002.model");
  // As cxxnet read it, under the loss layer too.
  const std::string under_loss = NewTestDir("update_period_under_loss");
  RunTrainer(
      under_loss,
      absl::StrReplaceAll(config(under_loss), {{"layer[out->out] = softmax\n",
                                                "layer[out->out] = softmax\n  "
                                                "update_period = 2\n"}}),
      {"num_round=2", "batch_size=15"});
  ExpectSameWeights(whole + "/models/0002.model",
                    under_loss + "/models/0002.model");
  // Without it the batches of 15 train other weights: the test can fail.
  const std::string plain = NewTestDir("batch_15");
  RunTrainer(plain, config(plain), {"num_round=2", "batch_size=15"});
  EXPECT_NE(testing::CheckpointWeights(whole + "/models/0002.model"),
            testing::CheckpointWeights(plain + "/models/0002.model"));
}

// Checkpoints keep the config and names as bytes: a Latin-1 config trains
// and its checkpoints read back.
TEST(TrainerTest, ALatin1ConfigWritesReadableCheckpoints) {
  const std::string dir = NewTestDir("latin1_run");
  std::string config = BlobsConfig(dir) + "# caf\xe9\n";
  config = absl::StrReplaceAll(
      config, {{"fullc:fc1", "fullc:fc\xe9"}, {"/models", "/mod\xe9ls"}});
  RunTrainer(dir, config, {"num_round=1"});
  const Checkpoint back = ReadCheckpoint(CheckpointPath(dir + "/mod\xe9ls", 1));
  EXPECT_EQ(back.config_text(), config);
  ASSERT_GE(back.weights_size(), 1);
  EXPECT_EQ(back.weights(0).name(), "fc\xe9.wmat");
}

// A checkpoint of another net is refused on resume; finetuning matches
// weights by name and refuses one of another shape.
TEST(TrainerTest, RefusesACheckpointOfAnotherNet) {
  const std::string dir = NewTestDir("another_net");
  RunTrainer(dir, BlobsConfig(dir), {"num_round=1"});
  std::string wider = BlobsConfig(dir);
  wider.replace(wider.find("nhidden = 16"), 12, "nhidden = 17");
  try {
    RunTrainer(dir, wider, {"continue=1", "num_round=2"});
    ADD_FAILURE() << "expected a CheckpointError";
  } catch (const CheckpointError& e) {
    // fc1 has 17 outputs now.
    const std::string error = e.what();
    EXPECT_NE(error.find("0001.model"), std::string::npos) << error;
    EXPECT_NE(error.find("another net"), std::string::npos) << error;
  }
  // Finetuning matches by name and refuses a weight of another shape.
  try {
    RunTrainer(dir, wider,
               {"task=finetune", "model_in=" + dir + "/models/0001.model"});
    ADD_FAILURE() << "expected a CheckpointError";
  } catch (const CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("rename the layer"), std::string::npos)
        << e.what();
  }
}

TEST(TrainerTest, ABadLabelNamesItsInstance) {
  const std::string dir = NewTestDir("badlabel");
  const std::string config = BlobsConfig(dir);  // writes test.csv
  std::vector<std::string> lines =
      absl::StrSplit(ReadText(dir + "/test.csv"), '\n', absl::SkipEmpty());
  lines[37][0] = '7';  // instance 37: row 7 of the 4th batch of 10
  WriteText(dir + "/test.csv", absl::StrJoin(lines, "\n") + "\n");
  try {
    RunTrainer(dir, config, {"num_round=1"});
    FAIL() << "expected a TrainingError";
  } catch (const TrainingError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "eval test: layer 'softmax_4' (softmax): label of row 7 is "
                  "7; needs a class index in [0, 3) (row 7 holds instance 37"),
              std::string::npos)
        << e.what();
  }
}

TEST(TrainerTest, BadKeysNeverStartTraining) {
  const std::string dir = NewTestDir("badkey");
  std::string config = BlobsConfig(dir);
  config.replace(config.find("nhidden = 16"), 12, "nhiden = 16");
  try {
    RunTrainer(dir, config, {});
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.location().line, 15) << e.what();
    EXPECT_NE(std::string(e.what()).find("did you mean 'nhidden'"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(NewestCheckpoint(dir + "/models").has_value());
}

}  // namespace
}  // namespace train
}  // namespace umbra
