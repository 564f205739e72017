// The trainer on pictures: a small net learns dark from bright PNGs read
// with iter = img through a threadbuffer, and with skip_bad_images a
// truncated picture is replaced and reported on every round line.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/data/data_test_util.h"
#include "train/image/image.h"
#include "train/image/image_codec.h"
#include "train/image/image_list.h"
#include "train/trainer_test_util.h"

namespace umbra {
namespace train {
namespace {

using ::testing::HasSubstr;

TEST(ImageTrainingTest, LearnsFromPicturesAndReportsBadOnes) {
  data_test::TestRng rng;
  const std::string dir = data_test::NewTempDir();
  std::vector<ImageListEntry> entries;
  for (int i = 0; i < 60; ++i) {
    const int label = i % 2;
    Image image;
    image.Resize(10, 10, 3);
    // Class 0 dark, class 1 bright, with noise.
    for (std::uint8_t& sample : image.pixels) {
      sample = label * 128 + rng.Int(0, 127);
    }
    std::string png = EncodePng(image);
    if (i == 7) png.resize(png.size() / 2);  // truncated
    const std::string name = absl::StrCat(i, ".png");
    data_test::WriteFile(dir + "/" + name, png);
    entries.push_back(
        {static_cast<std::uint64_t>(i), {static_cast<float>(label)}, name});
  }
  WriteImageList(dir + "/all.lst", entries);
  const std::string config = absl::StrReplaceAll(R"(
data = train
iter = img
  image_list = "DIR/all.lst"
  image_root = "DIR"
  input_shape = 3,8,8
  rand_crop = 1
  rand_mirror = 1
  divideby = 255
  skip_bad_images = 1
  decode_threads = 2
  shuffle = 1
iter = threadbuffer
iter = end
netconfig = start
layer[in->f] = flatten
layer[f->out] = fullc:fc
  nhidden = 2
layer[out->out] = softmax
netconfig = end
batch_size = 10
num_round = 6
eta = 0.1
metric = error
model_dir = "DIR/models"
silent = 1
)",
                                                 {{"DIR", dir}});
  const std::string out = testing::RunTrainer(dir, config, {});
  EXPECT_LE(testing::LastMetric(out, "train-error"), 0.1) << out;
  for (const char* round : {"[1]", "[3]", "[6]"}) {
    const std::size_t line = out.find(round);
    ASSERT_NE(line, std::string::npos) << out;
    EXPECT_THAT(out.substr(line, out.find('\n', line) - line),
                HasSubstr("\tbad-images:1\t"));
  }
}

}  // namespace
}  // namespace train
}  // namespace umbra
