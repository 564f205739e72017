// Checkpoint files: a round trip (bytes that are not UTF-8 included), files
// written when the text fields were proto `string`s, and refusals of
// truncated, corrupted, foreign and other-net files and of directories with
// messages that say what is wrong. NewFile: a new file, never one written
// over another.
#include "train/net/checkpoint.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "train/config/config_test_util.h"

namespace umbra {
namespace train {
namespace {

using testing::NewTestDir;
using testing::ReadText;
using testing::WriteText;

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
  EXPECT_EQ(ReadText(path + ".tmp-" + std::to_string(getpid())), "");
}

TEST(CheckpointTest, RefusesTruncatedFiles) {
  const std::string dir = NewTestDir("cut");
  const std::string path = CheckpointPath(dir, 1);
  WriteCheckpoint(path, SmallCheckpoint());
  const std::string bytes = ReadText(path);
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
  std::string bytes = ReadText(path);
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

// Counters no training run writes: a resume would replay 2^60 passes.
TEST(CheckpointTest, RefusesImpossibleProgress) {
  const std::string dir = NewTestDir("progress");
  const std::string path = CheckpointPath(dir, 3);
  Checkpoint checkpoint = SmallCheckpoint();
  checkpoint.mutable_rng()->set_data_passes(3);
  WriteCheckpoint(path, checkpoint);
  EXPECT_EQ(ReadCheckpoint(path).rng().data_passes(), 3);
  for (const auto& [round, updates, passes] :
       {std::tuple<int, long, long>{3, 300, int64_t{1} << 60},
        {3, 300, -1},
        {-1, 300, 0},
        {3, -5, 3}}) {
    checkpoint.set_round(round);
    checkpoint.set_num_update(updates);
    checkpoint.mutable_rng()->set_data_passes(passes);
    std::remove(path.c_str());
    WriteCheckpoint(path, checkpoint);
    EXPECT_NE(
        ReadError(path).find(absl::StrCat(
            "impossible progress (round ", round, ", ", updates, " updates, ",
            passes, " passes over the data): not a checkpoint umbra wrote")),
        std::string::npos)
        << ReadError(path);
  }
}

// An endless stream is refused having read a few bytes, not all of it.
TEST(CheckpointTest, RefusesAnEndlessStream) {
  EXPECT_NE(ReadError("/dev/zero").find("not an umbra checkpoint"),
            std::string::npos);
}

TEST(CheckpointTest, RefusesADirectory) {
  const std::string dir = NewTestDir("directory");
  EXPECT_EQ(ReadError(dir), absl::StrCat("'", dir,
                                         "' is a directory, not a checkpoint "
                                         "(it has no NNNN.model file)"));
  WriteCheckpoint(CheckpointPath(dir, 3), SmallCheckpoint());
  EXPECT_EQ(ReadError(dir),
            absl::StrCat("'", dir,
                         "' is a directory, not a checkpoint; its newest "
                         "checkpoint is '",
                         dir, "/0003.model'"));
}

// A config may hold any bytes: a Latin-1 comment, or such a byte in a path
// or a layer name. None of it makes a checkpoint unreadable.
TEST(CheckpointTest, RoundTripsTextThatIsNotUtf8) {
  const std::string dir = NewTestDir("latin1");
  Checkpoint checkpoint = SmallCheckpoint();
  checkpoint.set_config_text("# caf\xe9\nnum_round = 3\n");
  checkpoint.add_overrides("model_dir=/tmp/caf\xe9");
  LayerProto* layer = checkpoint.add_layers();
  layer->set_name("caf\xe9");
  layer->set_type("fullc");
  checkpoint.mutable_weights(0)->set_name("caf\xe9.wmat");
  checkpoint.add_metrics()->add_values()->set_label("caf\xe9-error");
  const std::string path = CheckpointPath(dir, 3);
  WriteCheckpoint(path, checkpoint);
  const Checkpoint back = ReadCheckpoint(path);
  EXPECT_EQ(back.config_text(), "# caf\xe9\nnum_round = 3\n");
  ASSERT_EQ(back.overrides_size(), 1);
  EXPECT_EQ(back.overrides(0), "model_dir=/tmp/caf\xe9");
  ASSERT_EQ(back.layers_size(), 1);
  EXPECT_EQ(back.layers(0).name(), "caf\xe9");
  EXPECT_EQ(back.weights(0).name(), "caf\xe9.wmat");
  EXPECT_EQ(back.metrics(0).values(0).label(), "caf\xe9-error");
}

// protobuf's wire encoding, to write a payload as it was written when the
// text fields were `string`: those and `bytes` share wire type 2.
std::string Varint(uint64_t value) {
  std::string out;
  for (; value >= 0x80; value >>= 7) out += static_cast<char>(value | 0x80);
  return out + static_cast<char>(value);
}
std::string LengthField(int number, const std::string& value) {
  return Varint(number << 3 | 2) + Varint(value.size()) + value;
}
std::string VarintField(int number, uint64_t value) {
  return Varint(number << 3) + Varint(value);
}

TEST(CheckpointTest, ReadsFilesWrittenWithStringFields) {
  const float values[] = {1.5f, -2.0f};
  const std::string data(reinterpret_cast<const char*>(values), sizeof(values));
  const std::string payload =
      LengthField(1, "num_round = 3\n") + LengthField(2, "eta=0.1") +
      VarintField(3, 3) +
      LengthField(5, LengthField(1, "fc1") + LengthField(2, "fullc")) +
      LengthField(6, LengthField(1, "fc1.bias") +
                         LengthField(2, Varint(2)) +  // shape, packed
                         LengthField(3, "float32") + LengthField(4, data)) +
      LengthField(7, LengthField(1, "sgd")) +
      LengthField(8, LengthField(3, "round-seeded")) +
      LengthField(
          9, VarintField(1, 1) + LengthField(2, LengthField(1, "train-error")));
  std::string file = LengthField(1, std::string(kCheckpointMagic)) +
                     VarintField(2, kCheckpointFormatVersion) +
                     LengthField(3, payload) + Varint(4 << 3 | 1);
  const uint64_t checksum = Fnv1a64(payload);
  for (int i = 0; i < 8; ++i) file += static_cast<char>(checksum >> (8 * i));
  const std::string dir = NewTestDir("string_fields");
  const std::string path = CheckpointPath(dir, 3);
  WriteText(path, file);

  const Checkpoint back = ReadCheckpoint(path);
  EXPECT_EQ(back.config_text(), "num_round = 3\n");
  ASSERT_EQ(back.overrides_size(), 1);
  EXPECT_EQ(back.overrides(0), "eta=0.1");
  EXPECT_EQ(back.round(), 3);
  ASSERT_EQ(back.layers_size(), 1);
  EXPECT_EQ(back.layers(0).name(), "fc1");
  EXPECT_EQ(back.layers(0).type(), "fullc");
  ASSERT_EQ(back.weights_size(), 1);
  EXPECT_EQ(back.weights(0).name(), "fc1.bias");
  float read[2];
  ReadTensorProto(back.weights(0), read, 2, "fc1.bias");
  EXPECT_EQ(read[1], -2.0f);
  EXPECT_EQ(back.updater().type(), "sgd");
  EXPECT_EQ(back.rng().scheme(), "round-seeded");
  EXPECT_EQ(back.metrics(0).values(0).label(), "train-error");
  // And the writer still writes those bytes.
  EXPECT_EQ(back.SerializeAsString(), payload);
}

bool Exists(const std::string& path) {
  struct stat info;
  return lstat(path.c_str(), &info) == 0;
}

std::string NewFileError(const std::string& path) {
  try {
    NewFile file(path, "the CSV");
  } catch (const FileWriteError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a FileWriteError for " << path;
  return "";
}

TEST(NewFileTest, AppearsWhenComplete) {
  const std::string path = NewTestDir("new_file") + "/out.txt";
  NewFile file(path, "the CSV");
  file.Write("1,2\n");
  file.Write("3,4\n");
  EXPECT_FALSE(Exists(path));
  EXPECT_TRUE(Exists(file.temp_path()));
  file.Commit();
  EXPECT_EQ(ReadText(path), "1,2\n3,4\n");
  EXPECT_FALSE(Exists(file.temp_path()));
}

TEST(NewFileTest, LeavesNothingWhenNotCommitted) {
  const std::string path = NewTestDir("new_file_dropped") + "/out.txt";
  std::string temp;
  {
    NewFile file(path, "the CSV");
    file.Write("1\n");
    temp = file.temp_path();
  }
  EXPECT_FALSE(Exists(path));
  EXPECT_FALSE(Exists(temp));
}

TEST(NewFileTest, RefusesAnExistingFile) {
  const std::string dir = NewTestDir("new_file_exists");
  const std::string path = dir + "/out.txt";
  WriteText(path, "keep\n");
  EXPECT_EQ(NewFileError(path),
            absl::StrCat("'", path,
                         "' exists, and umbra does not overwrite files: "
                         "remove it or name another file"));
  EXPECT_EQ(ReadText(path), "keep\n");
  EXPECT_EQ(NewFileError(dir),
            absl::StrCat("'", dir,
                         "' exists (a directory), and umbra does not "
                         "overwrite files: remove it or name another file"));
}

TEST(NewFileTest, NamesTheFileAndTheReason) {
  const std::string path = NewTestDir("new_file_missing") + "/missing/out.csv";
  EXPECT_EQ(NewFileError(path), absl::StrCat("cannot write the CSV to '", path,
                                             "': No such file or directory"));
}

TEST(NewFileTest, KeepsAFileThatAppearedMeanwhile) {
  const std::string path = NewTestDir("new_file_race") + "/out.txt";
  NewFile file(path, "the CSV");
  file.Write("ours\n");
  WriteText(path, "theirs\n");
  try {
    file.Commit();
    ADD_FAILURE() << "expected a FileExistsError";
  } catch (const FileExistsError& e) {
    EXPECT_EQ(std::string(e.what()),
              absl::StrCat("'", path,
                           "' appeared while writing the CSV, and umbra does "
                           "not overwrite files: the output is in '",
                           file.temp_path(), "'"));
  }
  EXPECT_EQ(ReadText(path), "theirs\n");
  EXPECT_EQ(ReadText(file.temp_path()), "ours\n");
}

}  // namespace
}  // namespace train
}  // namespace umbra
