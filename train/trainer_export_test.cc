// task = export: the model of a checkpoint as an ONNX file at onnx_path;
// every mistake (no onnx_path, a directory that is not there, a damaged,
// foreign or non-finite checkpoint) refused with nothing written.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "gtest/gtest.h"
#include "onnx/onnx.pb.h"
#include "train/config/config.h"
#include "train/net/checkpoint.h"
#include "train/trainer.h"
#include "train/trainer_test_util.h"

namespace umbra {
namespace train {
namespace {

using testing::BlobsConfig;
using testing::NewTestDir;
using testing::ReadText;
using testing::RunTrainer;
using testing::WriteText;

// A directory with a BlobsConfig trained one round (models/0001.model).
std::string TrainedDir(const std::string& name) {
  const std::string dir = NewTestDir(name);
  RunTrainer(dir, BlobsConfig(dir), {"num_round=1", "silent=1"});
  return dir;
}

TEST(TrainerExportTest, WritesTheNewestCheckpointAsAnOnnxModel) {
  const std::string dir = TrainedDir("export_newest");
  const std::string path = dir + "/blobs.onnx";
  WriteText(path, "an older export");
  const std::string out =
      RunTrainer(dir, BlobsConfig(dir), {"task=export", "onnx_path=" + path});
  EXPECT_NE(out.find("exported '" + dir + "/models/0001.model' to '" + path +
                     "': ONNX opset 13"),
            std::string::npos)
      << out;
  onnx::ModelProto model;
  ASSERT_TRUE(model.ParseFromString(ReadText(path)));
  ASSERT_EQ(model.graph().input_size(), 1);
  const auto& dims = model.graph().input(0).type().tensor_type().shape().dim();
  ASSERT_EQ(dims.size(), 4);
  EXPECT_EQ(dims[0].dim_param(), "batch");
  EXPECT_EQ(dims[3].dim_value(), 8);
  EXPECT_EQ(model.graph().node(model.graph().node_size() - 1).op_type(),
            "Softmax");
}

TEST(TrainerExportTest, NeedsOnnxPath) {
  const std::string dir = NewTestDir("export_no_path");
  try {
    RunTrainer(dir, BlobsConfig(dir), {"task=export"});
    ADD_FAILURE() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "onnx_path");
    EXPECT_NE(std::string(e.what()).find("task = export needs onnx_path"),
              std::string::npos)
        << e.what();
  }
}

// Before any model is looked for: there is none in this directory.
TEST(TrainerExportTest, RefusesADirectoryThatIsNotThereFirst) {
  const std::string dir = NewTestDir("export_missing_dir");
  const std::string path = dir + "/missing/model.onnx";
  try {
    RunTrainer(dir, BlobsConfig(dir), {"task=export", "onnx_path=" + path});
    ADD_FAILURE() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "onnx_path");
    EXPECT_NE(std::string(e.what()).find("cannot write the ONNX model to '" +
                                         path + "'"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file or directory"),
              std::string::npos)
        << e.what();
  }
}

// The CheckpointError of exporting `model_in` from `dir`; nothing is
// written at onnx_path.
std::string ExportError(const std::string& dir, const std::string& config,
                        const std::string& model_in) {
  const std::string path = dir + "/refused.onnx";
  std::string message;
  try {
    RunTrainer(dir, config,
               {"task=export", "model_in=" + model_in, "onnx_path=" + path});
    ADD_FAILURE() << "expected a CheckpointError";
  } catch (const CheckpointError& e) {
    message = e.what();
  }
  EXPECT_EQ(ReadText(path), "") << "an ONNX file was written";
  return message;
}

TEST(TrainerExportTest, RefusesATruncatedCheckpoint) {
  const std::string dir = TrainedDir("export_truncated");
  const std::string bytes = ReadText(dir + "/models/0001.model");
  const std::string truncated = dir + "/truncated.model";
  WriteText(truncated, bytes.substr(0, bytes.size() / 2));
  const std::string message = ExportError(dir, BlobsConfig(dir), truncated);
  EXPECT_NE(message.find(truncated), std::string::npos) << message;
}

TEST(TrainerExportTest, RefusesTheCheckpointOfAnotherNet) {
  const std::string dir = TrainedDir("export_other_net");
  const std::string other = testing::WithLayers(
      BlobsConfig(dir),
      "layer[in->h] = fullc:fc1\n  nhidden = 5\nlayer[h->o] = fullc:fc2\n"
      "  nhidden = 3\nlayer[o->o] = softmax\n");
  const std::string message =
      ExportError(dir, other, dir + "/models/0001.model");
  EXPECT_NE(message.find("fc1"), std::string::npos) << message;
}

TEST(TrainerExportTest, RefusesACheckpointWithANonFiniteWeight) {
  const std::string dir = TrainedDir("export_nan");
  Checkpoint checkpoint = ReadCheckpoint(dir + "/models/0001.model");
  TensorProto* weight = checkpoint.mutable_weights(0);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::string data = weight->data();
  std::memcpy(&data[0], &nan, sizeof nan);
  weight->set_data(data);
  const std::string damaged = dir + "/nan.model";
  WriteCheckpoint(damaged, checkpoint);
  const std::string message = ExportError(dir, BlobsConfig(dir), damaged);
  EXPECT_NE(message.find("NaN or an infinity in " + weight->name()),
            std::string::npos)
      << message;
}

}  // namespace
}  // namespace train
}  // namespace umbra
