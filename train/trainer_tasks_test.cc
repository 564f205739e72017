// The pred and extract tasks write a new file and never another: an existing
// one (even the data they read) is refused at the `pred = FILE` line before
// the model is read, and a missing directory is named with the reason.
#include <dirent.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/config/config.h"
#include "train/net/checkpoint.h"
#include "train/trainer.h"
#include "train/trainer_test_util.h"

namespace umbra {
namespace train {
namespace {

using testing::BlobsConfig;
using ::testing::HasSubstr;
using testing::LineOf;
using testing::NewTestDir;
using testing::ReadText;
using testing::RunTrainer;
using testing::WriteText;

std::vector<std::string> FileNames(const std::string& dir) {
  std::vector<std::string> names;
  DIR* handle = opendir(dir.c_str());
  while (dirent* entry = readdir(handle)) names.push_back(entry->d_name);
  closedir(handle);
  return names;
}

// BlobsConfig(dir) with a `pred = <output>` block reading `input`; the
// block opens at line LineOf(config, "pred").
std::string PredConfig(const std::string& dir, const std::string& output,
                       const std::string& input) {
  return BlobsConfig(dir) +
         absl::StrCat("pred = \"", output, "\"\niter = csv\n  filename = \"",
                      input, "\"\n  silent = 1\niter = end\n");
}

// The ConfigError of running `config` with `overrides`.
ConfigError PredError(const std::string& dir, const std::string& config,
                      const std::vector<std::string>& overrides) {
  try {
    RunTrainer(dir, config, overrides);
  } catch (const ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << "expected a ConfigError";
  return ConfigError(SourceLocation(), "", "");
}

// No model is trained: the refusal comes before the model is looked for.
TEST(TrainerTasksTest, PredRefusesAnExistingFile) {
  const std::string dir = NewTestDir("pred_exists");
  const std::string output = dir + "/pred.txt";
  const std::string config = PredConfig(dir, output, dir + "/test.csv");
  WriteText(output, "keep\n");
  const std::vector<std::vector<std::string>> tasks = {
      {"task=pred"}, {"task=extract", "extract_node_name=h"}};
  for (const std::vector<std::string>& overrides : tasks) {
    const ConfigError error = PredError(dir, config, overrides);
    EXPECT_EQ(error.location(),
              SourceLocation::File(dir + "/net.conf", LineOf(config, "pred")));
    EXPECT_EQ(error.key(), "pred");
    EXPECT_EQ(error.detail(),
              absl::StrCat("'", output,
                           "' exists, and umbra does not overwrite files: "
                           "remove it or name another file"));
    EXPECT_EQ(ReadText(output), "keep\n");
  }
  for (const std::string& name : FileNames(dir)) {
    EXPECT_FALSE(absl::StrContains(name, ".tmp")) << name;
  }
  // Refused before the data is read: a missing data file is not reached.
  EXPECT_EQ(PredError(dir, PredConfig(dir, output, dir + "/missing.csv"),
                      {"task=pred"})
                .key(),
            "pred");
}

TEST(TrainerTasksTest, PredNeverOverwritesItsOwnData) {
  const std::string dir = NewTestDir("pred_own_data");
  const std::string data = dir + "/test.csv";
  const std::string config = PredConfig(dir, data, data);
  const std::string before = ReadText(data);
  RunTrainer(dir, config, {"num_round=1"});
  const ConfigError error = PredError(dir, config, {"task=pred"});
  EXPECT_NE(error.detail().find("exists"), std::string::npos) << error.what();
  EXPECT_EQ(ReadText(data), before);
}

TEST(TrainerTasksTest, PredIntoAMissingDirectoryNamesTheFile) {
  const std::string dir = NewTestDir("pred_missing_dir");
  const std::string output = dir + "/missing/pred.txt";
  const std::string config = PredConfig(dir, output, dir + "/test.csv");
  try {
    RunTrainer(dir, config, {"task=pred"});
    ADD_FAILURE() << "expected a FileWriteError";
  } catch (const FileWriteError& e) {
    EXPECT_EQ(std::string(e.what()),
              absl::StrCat("cannot write predictions to '", output,
                           "': No such file or directory"));
  }
}

TEST(TrainerTasksTest, PredWritesANewFile) {
  const std::string dir = NewTestDir("pred_new");
  const std::string output = dir + "/pred.txt";
  const std::string config = PredConfig(dir, output, dir + "/test.csv");
  RunTrainer(dir, config, {"num_round=1"});
  const std::string out = RunTrainer(dir, config, {"task=pred", "silent=0"});
  EXPECT_NE(out.find("predicted 90 instances to '" + output + "'"),
            std::string::npos)
      << out;
  const std::string lines = ReadText(output);
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 90);
}

// A checkpoint with a NaN (and a valid checksum) is refused by every task
// that would use it, naming the tensor; nothing is written.
TEST(TrainerTasksTest, EveryTaskRefusesANonFiniteCheckpoint) {
  const std::string dir = NewTestDir("nan_weights");
  const std::string output = dir + "/pred.txt";
  const std::string config = PredConfig(dir, output, dir + "/test.csv");
  RunTrainer(dir, config, {"num_round=1"});
  Checkpoint checkpoint = ReadCheckpoint(CheckpointPath(dir + "/models", 1));
  TensorProto* weight = checkpoint.mutable_weights(1);
  std::string data = weight->data();
  const float infinity = std::numeric_limits<float>::infinity();
  std::memcpy(&data[data.size() - sizeof(float)], &infinity, sizeof(float));
  weight->set_data(data);
  const std::string damaged = dir + "/inf.model";
  WriteCheckpoint(damaged, checkpoint);
  const std::string model_in = "model_in=" + damaged;
  for (const std::vector<std::string>& overrides :
       std::vector<std::vector<std::string>>{
           {"task=pred", model_in},
           {"task=extract", model_in, "extract_node_name=h"},
           {"task=eval", model_in},
           {"task=get_weight", model_in, "extract_layer_name=fc1",
            "weight_filename=" + dir + "/fc1.txt"},
           {"task=finetune", model_in, "model_dir=" + dir + "/tuned"},
           {"num_round=2", model_in, "model_dir=" + dir + "/again"}}) {
    try {
      RunTrainer(dir, config, overrides);
      ADD_FAILURE() << overrides[0] << ": no error";
    } catch (const CheckpointError& e) {
      EXPECT_NE(std::string(e.what()).find("'" + damaged +
                                           "' holds a NaN or an infinity in " +
                                           weight->name()),
                std::string::npos)
          << overrides[0] << ": " << e.what();
    }
  }
  EXPECT_FALSE(std::ifstream(output)) << "pred wrote " << output;
}

// extract as cxxnet: top[-N] counts nodes from the end, output_format = bin
// writes raw float32, FILE.meta the rows and one instance's shape.
TEST(TrainerTasksTest, ExtractTopNodesInTextOrBinaryWithMeta) {
  const std::string dir = NewTestDir("extract_forms");
  const std::string config = PredConfig(dir, dir + "/f.txt", dir + "/test.csv");
  RunTrainer(dir, config, {"num_round=1"});
  const std::string model_in = "model_in=" + CheckpointPath(dir + "/models", 1);
  const auto extract = [&](const std::string& file,
                           std::vector<std::string> overrides) {
    overrides.insert(overrides.end(), {"task=extract", model_in});
    RunTrainer(dir, PredConfig(dir, dir + "/" + file, dir + "/test.csv"),
               overrides);
    return ReadText(dir + "/" + file);
  };
  // Nodes in, h, d, out: top[-1] is out, top[-3] is h.
  EXPECT_EQ(extract("top1.txt", {"extract_node_name=top[-1]"}),
            extract("out.txt", {"extract_node_name=out"}));
  const std::string text = extract("h.txt", {"extract_node_name=top[-3]"});
  EXPECT_EQ(ReadText(dir + "/h.txt.meta"), "90,1,1,16\n");
  const std::string binary =
      extract("h.bin", {"extract_node_name=h", "output_format=bin"});
  EXPECT_EQ(ReadText(dir + "/h.bin.meta"), "90,1,1,16\n");
  ASSERT_EQ(binary.size(), 90u * 16 * sizeof(float));
  std::vector<float> from_text;
  for (absl::string_view value :
       absl::StrSplit(text, absl::ByAnyChar(" \n"), absl::SkipEmpty())) {
    float parsed = 0;
    ASSERT_TRUE(absl::SimpleAtof(value, &parsed)) << value;
    from_text.push_back(parsed);
  }
  std::vector<float> from_binary(90 * 16);
  std::memcpy(from_binary.data(), binary.data(), binary.size());
  EXPECT_EQ(from_binary, from_text);
  EXPECT_THAT(PredError(dir, PredConfig(dir, dir + "/x.txt", dir + "/test.csv"),
                        {"task=extract", model_in, "extract_node_name=top[-5]"})
                  .what(),
              HasSubstr("no node named 'top[-5]' in the net"));
}

// get_weight as cxxnet: a layer's wmat, one row per line (or raw float32),
// its dimensions in FILE.meta.
TEST(TrainerTasksTest, GetWeightWritesALayersWmat) {
  const std::string dir = NewTestDir("get_weight");
  const std::string config = BlobsConfig(dir);
  RunTrainer(dir, config, {"num_round=1"});
  const std::string checkpoint = CheckpointPath(dir + "/models", 1);
  const std::vector<float> wmat =
      testing::CheckpointWeights(checkpoint).at("fc1.wmat");
  ASSERT_EQ(wmat.size(), 16u * 8);
  const std::string out = RunTrainer(
      dir, config,
      {"task=get_weight", "model_in=" + checkpoint, "extract_layer_name=fc1",
       "weight_filename=" + dir + "/fc1.txt"});
  EXPECT_THAT(out, HasSubstr("wrote weight 'fc1.wmat' (16x8)"));
  EXPECT_EQ(ReadText(dir + "/fc1.txt.meta"), "16 8\n");
  const std::vector<std::string> rows =
      absl::StrSplit(ReadText(dir + "/fc1.txt"), '\n', absl::SkipEmpty());
  ASSERT_EQ(rows.size(), 16u);
  for (size_t r = 0; r < rows.size(); ++r) {
    const std::vector<std::string> values = absl::StrSplit(rows[r], ' ');
    ASSERT_EQ(values.size(), 8u);
    for (size_t c = 0; c < 8; ++c) {
      float parsed = 0;
      ASSERT_TRUE(absl::SimpleAtof(values[c], &parsed));
      EXPECT_EQ(parsed, wmat[r * 8 + c]) << r << "," << c;
    }
  }
  RunTrainer(
      dir, config,
      {"task=get_weight", "model_in=" + checkpoint, "extract_layer_name=fc2",
       "output_format=bin", "weight_filename=" + dir + "/fc2.bin"});
  const std::string binary = ReadText(dir + "/fc2.bin");
  const std::vector<float> fc2 =
      testing::CheckpointWeights(checkpoint).at("fc2.wmat");
  ASSERT_EQ(binary.size(), fc2.size() * sizeof(float));
  EXPECT_EQ(std::memcmp(binary.data(), fc2.data(), binary.size()), 0);
  // Errors name the key: an unknown layer, a layer without wmat, a file
  // that exists.
  EXPECT_THAT(PredError(dir, config,
                        {"task=get_weight", "extract_layer_name=fc3",
                         "weight_filename=" + dir + "/w.txt"})
                  .what(),
              HasSubstr("no layer named 'fc3' in the net"));
  EXPECT_THAT(PredError(dir, config,
                        {"task=get_weight", "extract_layer_name=fc1",
                         "weight_filename=" + dir + "/fc1.txt"})
                  .what(),
              HasSubstr("fc1.txt"));
}

TEST(TrainerTasksTest, AnUnknownNodeIsQuotedShort) {
  const std::string dir = NewTestDir("long_node");
  const std::string config =
      PredConfig(dir, dir + "/features.txt", dir + "/test.csv");
  RunTrainer(dir, config, {"num_round=1"});
  const std::string message =
      PredError(
          dir, config,
          {"task=extract", "model_in=" + CheckpointPath(dir + "/models", 1),
           "extract_node_name=" + std::string(10'000'000, 'h')})
          .what();
  EXPECT_LT(message.size(), 400u) << message.substr(0, 400);
  EXPECT_TRUE(absl::StrContains(message,
                                "... (10000000 bytes in all) in "
                                "the net. Nodes: in, h, d, out"))
      << message.substr(0, 400);
}

}  // namespace
}  // namespace train
}  // namespace umbra
