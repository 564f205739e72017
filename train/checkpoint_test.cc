// Checkpoint files: a round trip, and refusals of truncated, corrupted,
// foreign and other-net files with messages that say what is wrong.
#include "train/checkpoint.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "train/trainer_test_util.h"

namespace umbra {
namespace train {
namespace {

using testing::BlobsConfig;
using testing::NewTestDir;
using testing::RunTrainer;
using testing::WriteText;

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

std::string ReadError(const std::string& path) {
  try {
    ReadCheckpoint(path);
  } catch (const CheckpointError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a CheckpointError for " << path;
  return "";
}

Checkpoint SmallCheckpoint() {
  Checkpoint checkpoint;
  checkpoint.set_config_text("num_round = 3\n");
  checkpoint.set_round(3);
  checkpoint.set_num_update(300);
  const float values[] = {1.5f, -2.0f, 0.25f, 1e-30f, 7.0f, 8.0f};
  *checkpoint.add_weights() = MakeTensorProto("fc1.wmat", {2, 3}, values, 6);
  return checkpoint;
}

TEST(CheckpointTest, RoundTrip) {
  const std::string dir = NewTestDir("roundtrip");
  const std::string path = CheckpointPath(dir, 3);
  EXPECT_EQ(path, dir + "/0003.model");
  WriteCheckpoint(path, SmallCheckpoint());
  const Checkpoint back = ReadCheckpoint(path);
  EXPECT_EQ(back.round(), 3);
  EXPECT_EQ(back.num_update(), 300);
  ASSERT_EQ(back.weights_size(), 1);
  float values[6];
  ReadTensorProto(back.weights(0), values, 6, "fc1.wmat");
  EXPECT_EQ(values[3], 1e-30f);
  // No temporary file is left behind.
  WriteCheckpoint(CheckpointPath(dir, 12), SmallCheckpoint());
  EXPECT_EQ(NewestCheckpoint(dir), dir + "/0012.model");
  EXPECT_EQ(ReadBytes(path + ".tmp-" + std::to_string(getpid())), "");
}

TEST(CheckpointTest, RefusesTruncatedFiles) {
  const std::string dir = NewTestDir("cut");
  const std::string path = CheckpointPath(dir, 1);
  WriteCheckpoint(path, SmallCheckpoint());
  const std::string bytes = ReadBytes(path);
  // Cut anywhere: in the magic, the version, the payload or the checksum.
  for (size_t keep = 1; keep < bytes.size(); ++keep) {
    WriteText(path, bytes.substr(0, keep));
    const std::string error = ReadError(path);
    const std::string prefix =
        absl::StrCat("checkpoint '", path, "' (", keep, " bytes): ");
    ASSERT_EQ(error.substr(0, prefix.size()), prefix) << error;
    EXPECT_NE(error.find("truncated", prefix.size()), std::string::npos)
        << error;
  }
  WriteText(path, "");
  EXPECT_NE(ReadError(path).find("the file is empty"), std::string::npos);
}

TEST(CheckpointTest, RefusesCorruptedFiles) {
  const std::string dir = NewTestDir("corrupted");
  const std::string path = CheckpointPath(dir, 1);
  WriteCheckpoint(path, SmallCheckpoint());
  std::string bytes = ReadBytes(path);
  bytes[bytes.size() - 20] ^= 0x10;  // inside the weight's values
  WriteText(path, bytes);
  const std::string error = ReadError(path);
  EXPECT_NE(error.find("checksum does not match"), std::string::npos) << error;
}

TEST(CheckpointTest, RefusesOtherFiles) {
  const std::string dir = NewTestDir("other");
  WriteText(dir + "/notes.model", "num_round = 3\n");
  EXPECT_NE(ReadError(dir + "/notes.model").find("not an umbra checkpoint"),
            std::string::npos);
  EXPECT_NE(ReadError(dir + "/missing.model").find("cannot open"),
            std::string::npos);
}

TEST(CheckpointTest, RefusesACheckpointOfAnotherNet) {
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

}  // namespace
}  // namespace train
}  // namespace umbra
