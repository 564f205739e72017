// inspect on a small checkpoint written here: the report (against
// tools/testdata/small_checkpoint.inspect.txt), --dump as CSV, and the
// errors for a corrupted file, a directory, an unknown tensor, and an
// --output that exists or is in a missing directory.
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "tools/checkpoint_report.h"
#include "tools/tool_test_util.h"
#include "train/net/checkpoint.h"

namespace umbra {
namespace tools {
namespace {

using train::Checkpoint;

std::string WriteSmallCheckpoint() {
  Checkpoint checkpoint;
  checkpoint.set_config_text(
      "netconfig = start\nlayer[in->fc1] = fullc:fc1\n"
      "  nhidden = 2\nnetconfig = end\n");
  checkpoint.add_overrides("eta=0.1");
  checkpoint.set_round(3);
  checkpoint.set_num_update(30);
  train::LayerProto* layer = checkpoint.add_layers();
  layer->set_name("fc1");
  layer->set_type("fullc");
  const std::vector<float> wmat = {1, 2, 3, 4, 5, 6};
  const std::vector<float> bias = {-1, 1};
  const std::vector<float> momentum = {0, 0, 0, 0, 0, 0.5};
  *checkpoint.add_weights() =
      train::MakeTensorProto("fc1.wmat", {2, 3}, wmat.data(), wmat.size());
  *checkpoint.add_weights() =
      train::MakeTensorProto("fc1.bias", {2}, bias.data(), bias.size());
  checkpoint.mutable_updater()->set_type("sgd");
  checkpoint.mutable_updater()->set_num_update(30);
  checkpoint.mutable_updater()->set_round(3);
  *checkpoint.mutable_updater()->add_tensors() = train::MakeTensorProto(
      "fc1.wmat:momentum", {2, 3}, momentum.data(), momentum.size());
  const std::vector<float> mean = {0.25, 0.75};
  *checkpoint.add_states() =
      train::MakeTensorProto("bn1.moving_mean", {2}, mean.data(), mean.size());
  checkpoint.mutable_rng()->set_seed(7);
  checkpoint.mutable_rng()->set_data_passes(3);
  checkpoint.mutable_rng()->set_scheme("round-seeded");
  for (int round = 1; round <= 2; ++round) {
    train::RoundMetricsProto* metrics = checkpoint.add_metrics();
    metrics->set_round(round);
    train::MetricValueProto* value = metrics->add_values();
    value->set_label("train-error");
    value->set_value(0.5 / round);
  }
  const std::string path = TempPath("0003.model");
  train::WriteCheckpoint(path, checkpoint);
  return path;
}

TEST(InspectTest, Report) {
  const std::string path = WriteSmallCheckpoint();
  const ToolRun run = RunToolBinary("tools/inspect", {path});
  ASSERT_EQ(run.status, 0) << run.err;
  ExpectMatchesGolden(
      absl::StrReplaceAll(run.out, {{path, "CHECKPOINT"}}),
      "tools/testdata/small_checkpoint.inspect.txt",
      "bazel-bin/tools/inspect TEST_TMPDIR/0003.model (written by "
      "this test) | sed s,TEST_TMPDIR/0003.model,CHECKPOINT, > "
      "tools/testdata/small_checkpoint.inspect.txt");
}

TEST(InspectTest, DumpWritesCsv) {
  const std::string path = WriteSmallCheckpoint();
  const ToolRun wmat =
      RunToolBinary("tools/inspect", {path, "--dump", "fc1.wmat"});
  ASSERT_EQ(wmat.status, 0) << wmat.err;
  EXPECT_EQ(wmat.out, "1,2,3\n4,5,6\n");
  const std::string csv = TempPath("bias.csv");
  const ToolRun bias = RunToolBinary(
      "tools/inspect", {path, "--dump=fc1.bias", "--output=" + csv});
  ASSERT_EQ(bias.status, 0) << bias.err;
  EXPECT_EQ(ReadFileOrDie(csv), "-1\n1\n");
  const ToolRun state =
      RunToolBinary("tools/inspect", {path, "--dump=bn1.moving_mean"});
  EXPECT_EQ(state.out, "0.25\n0.75\n");
}

TEST(InspectTest, UnknownTensorSuggestsTheClosest) {
  const std::string path = WriteSmallCheckpoint();
  const ToolRun run = RunToolBinary("tools/inspect", {path, "--dump=fc1.wmta"});
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err,
            "error: the checkpoint has no tensor 'fc1.wmta'; did you mean "
            "'fc1.wmat'? Its tensors: fc1.wmat, fc1.bias, fc1.wmat:momentum, "
            "bn1.moving_mean\n");
}

TEST(InspectTest, CorruptedFileFailsTheChecksum) {
  const std::string path = WriteSmallCheckpoint();
  std::string bytes = ReadFileOrDie(path);
  // A byte of the config text, inside the payload.
  const size_t at = bytes.find("nhidden");
  ASSERT_NE(at, std::string::npos);
  bytes[at] = 'N';
  WriteFileOrDie(path, bytes);
  const ToolRun run = RunToolBinary("tools/inspect", {path});
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find("the checksum does not match"), std::string::npos)
      << run.err;
  const ToolRun missing = RunToolBinary("tools/inspect", {path + ".nope"});
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("cannot open checkpoint"), std::string::npos)
      << missing.err;
}

TEST(InspectTest, DumpNeverOverwritesAFile) {
  const std::string path = WriteSmallCheckpoint();
  const std::string csv = TempPath("existing.csv");
  WriteFileOrDie(csv, "keep\n");
  const ToolRun run = RunToolBinary(
      "tools/inspect", {path, "--dump=fc1.bias", "--output=" + csv});
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "error: '" + csv +
                         "' exists, and umbra does not overwrite files: "
                         "remove it or name another file\n");
  EXPECT_EQ(ReadFileOrDie(csv), "keep\n");
  // Not even the checkpoint it reads.
  const std::string bytes = ReadFileOrDie(path);
  const ToolRun itself = RunToolBinary(
      "tools/inspect", {path, "--dump=fc1.bias", "--output=" + path});
  EXPECT_EQ(itself.status, 1);
  EXPECT_NE(itself.err.find("exists"), std::string::npos) << itself.err;
  EXPECT_EQ(ReadFileOrDie(path), bytes);
}

TEST(InspectTest, DumpIntoAMissingDirectoryNamesTheFile) {
  const std::string path = WriteSmallCheckpoint();
  const std::string csv = TempPath("missing/bias.csv");
  const ToolRun run = RunToolBinary(
      "tools/inspect", {path, "--dump=fc1.bias", "--output=" + csv});
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "error: cannot write the CSV to '" + csv +
                         "': No such file or directory\n");
}

TEST(InspectTest, ADirectoryIsNotACheckpoint) {
  const std::string dir = TempPath("");
  const ToolRun run = RunToolBinary("tools/inspect", {dir});
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find("'" + dir + "' is a directory, not a checkpoint"),
            std::string::npos)
      << run.err;
}

TEST(CheckpointReportTest, Stats) {
  const TensorStats stats = ComputeStats({3, -4, 0, 1});
  EXPECT_EQ(stats.min, -4);
  EXPECT_EQ(stats.max, 3);
  EXPECT_EQ(stats.mean, 0);
  EXPECT_DOUBLE_EQ(stats.norm, std::sqrt(26.0));
}

}  // namespace
}  // namespace tools
}  // namespace umbra
