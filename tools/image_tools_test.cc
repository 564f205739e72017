// The image tools end to end: idx2img writes Fashion-MNIST's test set as PNG
// files, a PNG pack and a JPEG pack; the example configs'
// fashion_mnist_lenet_{png,rec}.conf data blocks then give batches
// bit-identical to fashion_mnist_lenet.conf's IDX block (same seed, same
// shuffle), and _jpeg.conf's within JPEG's error. im2list and im2rec turn a
// folder per class into a pack that reads back the same pictures, and
// every tool refuses to overwrite a file. Skips without Fashion-MNIST.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tools/tool_test_util.h"
#include "train/config/config.h"
#include "train/data/data.h"
#include "train/data/data_test_util.h"
#include "train/image/image.h"
#include "train/image/image_codec.h"

namespace umbra {
namespace tools {
namespace {

using ::testing::HasSubstr;

const char kFashionMnist[] = "/usr/share/datasets/fashion-mnist";
// Where the example configs expect tools/fashion_mnist_images.sh's output.
const char kConfigImages[] = "/tmp/umbra-fashion-mnist";

// The first pass of the test block of config `name` (an example config),
// its image paths moved from kConfigImages to `images`, its shuffle on.
std::vector<train::DataBatch> TestPass(const std::string& name,
                                       const std::string& images) {
  std::string text = absl::StrReplaceAll(ReadFileOrDie("train/configs/" + name),
                                         {{kConfigImages, images}});
  // After the block's `iter = TYPE` line.
  const std::size_t source_line =
      text.find('\n', text.find("eval = test\n") + 12) + 1;
  text.insert(source_line, "    shuffle = 1\n    seed = 7\n");
  const std::string path = TempPath(name);
  WriteFileOrDie(path, text);
  const train::TrainConfig config = train::LoadTrainConfig(path, {});
  std::unique_ptr<train::DataIterator> it =
      train::CreateIteratorChain(config, *config.EvalIterators().at(0));
  it->BeforeFirst();
  return train::data_test::ReadPass(it.get());
}

class ImageToolsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(std::string(kFashionMnist) +
                                 "/t10k-images-idx3-ubyte.gz")) {
      GTEST_SKIP() << "no Fashion-MNIST at " << kFashionMnist;
    }
  }
};

TEST_F(ImageToolsTest, ExampleConfigsReadTheSameBatchesAsTheIdxFiles) {
  const std::string images = TempPath("fashion");
  for (const char* encoding : {"png", "jpeg"}) {
    std::filesystem::create_directories(images + "/" + encoding);
    const ToolRun run = RunToolBinary(
        "tools/idx2img",
        {std::string(kFashionMnist) + "/t10k-images-idx3-ubyte.gz",
         std::string(kFashionMnist) + "/t10k-labels-idx1-ubyte.gz",
         images + "/" + encoding + "/test",
         std::string("--encoding=") + (encoding[0] == 'p' ? "png" : "jpg"),
         "--quality=95"});
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_THAT(run.err, HasSubstr("10000 28x28 images"));
  }
  const std::vector<train::DataBatch> idx =
      TestPass("fashion_mnist_lenet.conf", images);
  ASSERT_EQ(idx.size(), 157u);  // 10000 / 64, the last padded
  for (const char* name :
       {"fashion_mnist_lenet_png.conf", "fashion_mnist_lenet_rec.conf"}) {
    const std::vector<train::DataBatch> png = TestPass(name, images);
    ASSERT_EQ(png.size(), idx.size()) << name;
    for (std::size_t b = 0; b < idx.size(); ++b) {
      std::string difference;
      ASSERT_TRUE(train::data_test::SameBatch(png[b], idx[b], &difference))
          << name << " batch " << b << ": " << difference;
    }
  }
  const std::vector<train::DataBatch> jpeg =
      TestPass("fashion_mnist_lenet_jpeg.conf", images);
  ASSERT_EQ(jpeg.size(), idx.size());
  double total = 0, largest = 0;
  std::size_t count = 0;
  for (std::size_t b = 0; b < idx.size(); ++b) {
    ASSERT_EQ(jpeg[b].inst_index, idx[b].inst_index);
    const auto x = jpeg[b].data.FlatTo1D(), y = idx[b].data.FlatTo1D();
    for (index_t i = 0; i < x.size(0); ++i, ++count) {
      const double error = std::abs(x[i] - y[i]);
      total += error;
      largest = std::max(largest, error);
    }
  }
  // Quality 95 on 28x28 grey pictures: about one level in 256 on average.
  EXPECT_LT(total / count, 2.0 / 256);
  EXPECT_LT(largest, 64.0 / 256);
}

TEST_F(ImageToolsTest, ToolsNeverOverwrite) {
  const std::string prefix = TempPath("again");
  const std::vector<std::string> args = {
      std::string(kFashionMnist) + "/t10k-images-idx3-ubyte.gz",
      std::string(kFashionMnist) + "/t10k-labels-idx1-ubyte.gz", prefix};
  ASSERT_EQ(RunToolBinary("tools/idx2img", args).status, 0);
  const std::string before = ReadFileOrDie(prefix + ".rec");
  const ToolRun again = RunToolBinary("tools/idx2img", args);
  EXPECT_EQ(again.status, 1);
  EXPECT_THAT(again.err, HasSubstr("exists; remove it or choose another"));
  EXPECT_EQ(ReadFileOrDie(prefix + ".rec"), before);
}

// A folder per class -> im2list -> im2rec (resized, PNG) -> iter = imgrec
// gives back each picture, resized, with its class.
TEST(ImageToolsFolderTest, FolderToListToPackReadsBack) {
  train::data_test::TestRng rng;
  const std::string root = TempPath("photos");
  const std::vector<std::string> classes = {"cat", "dog", "emu"};
  std::vector<train::Image> pictures;
  for (std::size_t label = 0; label < classes.size(); ++label) {
    std::filesystem::create_directories(root + "/" + classes[label]);
    for (int i = 0; i < 3; ++i) {
      train::Image image;
      image.Resize(20, 30, 3);
      // A constant colour per picture: resizing keeps it exactly.
      const int colour = rng.Int(0, 255);
      std::fill(image.pixels.begin(), image.pixels.end(), colour);
      WriteFileOrDie(
          root + "/" + classes[label] + "/" + std::to_string(i) + ".png",
          train::EncodePng(image));
      pictures.push_back(image);
    }
  }
  const std::string prefix = TempPath("photos_list");
  const ToolRun list = RunToolBinary(
      "tools/im2list", {root, prefix, "--train_ratio=0.5", "--seed=3"});
  ASSERT_EQ(list.status, 0) << list.err;
  EXPECT_EQ(list.out, "0\tcat\n1\tdog\n2\temu\n");
  const std::string train_list = ReadFileOrDie(prefix + "_train.lst");
  const std::string val_list = ReadFileOrDie(prefix + "_val.lst");
  EXPECT_EQ(std::count(train_list.begin(), train_list.end(), '\n') +
                std::count(val_list.begin(), val_list.end(), '\n'),
            9);

  const ToolRun pack = RunToolBinary(
      "tools/im2rec", {prefix + "_train.lst", root, prefix + ".rec",
                       "--resize=10", "--encoding=png", "--threads=2"});
  ASSERT_EQ(pack.status, 0) << pack.err;
  std::unique_ptr<train::DataIterator> it =
      train::CreateIterator("imgrec",
                            {{"image_rec", prefix + ".rec"},
                             {"input_shape", "3,10,15"},
                             {"batch_size", "1"},
                             {"silent", "1"}},
                            nullptr);
  int read = 0;
  for (; it->Next(); ++read) {
    const train::DataBatch& batch = it->Value();
    const int label = static_cast<int>(batch.label[0][0]);
    ASSERT_GE(label, 0);
    ASSERT_LT(label, 3);
    // Its colour is one of its class's pictures'.
    bool found = false;
    for (int i = 0; i < 3; ++i) {
      found |= batch.data[0][1][9][14] == pictures[label * 3 + i].pixels[0];
    }
    EXPECT_TRUE(found) << "record " << read;
  }
  EXPECT_EQ(read, 4);  // 9 * 0.5, rounded down

  const ToolRun again = RunToolBinary(
      "tools/im2rec", {prefix + "_train.lst", root, prefix + ".rec"});
  EXPECT_EQ(again.status, 1);
  EXPECT_THAT(again.err, HasSubstr("exists"));
}

}  // namespace
}  // namespace tools
}  // namespace umbra
