// train/configs/cxxnet/: cxxnet's own MNIST examples, with only their data
// paths changed (to Fashion-MNIST), and configs of cxxnet's keys that umbra
// reads as cxxnet did (its image data forms among them), each trained for
// one round by the trainer: they run, say what has no effect, and learn.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "train/data/idx_file.h"
#include "train/image/image.h"
#include "train/image/image_codec.h"
#include "train/image/image_list.h"
#include "train/image/image_pages_test_util.h"
#include "train/image/recordio.h"
#include "train/trainer_test_util.h"

namespace umbra {
namespace train {
namespace {

using testing::LastMetric;
using testing::NewTestDir;
using testing::ReadText;
using testing::RunTrainer;
using testing::WriteText;

constexpr char kFashionMnist[] = "/usr/share/datasets/fashion-mnist/";

// The first `count` items of Fashion-MNIST's IDX file `name` (images or
// labels, by `magic`), written as a plain IDX file into `dir`: a round of
// a test-sized share of the data. Returns its path.
std::string FirstItems(const std::string& name, std::uint32_t magic,
                       std::uint32_t count, const std::string& dir) {
  const std::string bytes =
      ReadIdxBytes(absl::StrCat(kFashionMnist, name, ".gz"), magic);
  const IdxArray idx = ParseIdx(bytes, magic, name);
  const size_t item_bytes = idx.elements.size() / idx.dims[0];
  std::string out = bytes.substr(0, bytes.size() - idx.elements.size());
  for (int shift = 24, at = 4; shift >= 0; shift -= 8, ++at) {
    out[at] = static_cast<char>((count >> shift) & 0xff);  // big-endian count
  }
  out.append(idx.elements.data(), count * item_bytes);
  const std::string path = absl::StrCat(dir, "/", name);
  WriteText(path, out);
  return path;
}

// One round of the config at `path` (relative to the workspace) with
// `overrides`, its data paths pointed at the first 12000 training and 2000
// test images of Fashion-MNIST; returns what the trainer printed.
std::string TrainOneRound(const std::string& path,
                          std::vector<std::string> overrides) {
  std::string name = path.substr(path.rfind('/') + 1);
  const std::string dir = NewTestDir(name.substr(0, name.find('.')));
  std::string config = ReadText(path);
  for (const auto& [file, magic, count] :
       {std::tuple<const char*, std::uint32_t, std::uint32_t>{
            "train-images-idx3-ubyte", kIdxImageMagic, 12000},
        {"train-labels-idx1-ubyte", kIdxLabelMagic, 12000},
        {"t10k-images-idx3-ubyte", kIdxImageMagic, 2000},
        {"t10k-labels-idx1-ubyte", kIdxLabelMagic, 2000}}) {
    const std::string full = absl::StrCat(kFashionMnist, file, ".gz");
    EXPECT_TRUE(absl::StrContains(config, full)) << path << " reads " << full;
    absl::StrReplaceAll({{full, FirstItems(file, magic, count, dir)}}, &config);
  }
  overrides.insert(overrides.end(),
                   {"num_round=1", "silent=0", "model_dir=" + dir + "/models"});
  return RunTrainer(dir, config, overrides);
}

TEST(CxxnetConfigsTest, MnistMlpAsCxxnetWroteIt) {
  const std::string out = TrainOneRound("train/configs/cxxnet/MNIST.conf", {});
  EXPECT_TRUE(absl::StrContains(
      out, "net.conf:36: 'train_eval' has no effect: cxxnet read it only"))
      << out;
  // metric[label] = error: the net's output against field label.
  EXPECT_LT(LastMetric(out, "test-error"), 0.4) << out;
}

TEST(CxxnetConfigsTest, MnistConvAsCxxnetWroteIt) {
  // cxxnet's file says dev = gpu; this test runs wherever CI does.
  const std::string out =
      TrainOneRound("train/configs/cxxnet/MNIST_CONV.conf", {"dev=cpu"});
  EXPECT_TRUE(absl::StrContains(out, "'train_eval' has no effect")) << out;
  EXPECT_LT(LastMetric(out, "test-error"), 0.4) << out;
}

TEST(CxxnetConfigsTest, CxxnetKeysAsCxxnetReadThem) {
  const std::string out =
      TrainOneRound("train/configs/cxxnet/cxxnet_keys.conf", {"print_step=40"});
  for (const char* key :
       {"init_sparse", "silent", "train_eval", "sync", "calm_start"}) {
    EXPECT_TRUE(
        absl::StrContains(out, absl::StrCat("'", key, "' has no effect")))
        << key << "\n"
        << out;
  }
  // 12000 images in batches of 50, a progress line every 40 batches.
  for (int batches = 40; batches <= 240; batches += 40) {
    EXPECT_TRUE(
        absl::StrContains(out, absl::StrFormat("round %8d:[%8d]", 1, batches)))
        << batches << "\n"
        << out;
  }
  EXPECT_TRUE(absl::StrContains(out, "fc2_again        share[fc2]")) << out;
  EXPECT_LT(LastMetric(out, "test-error"), 0.4) << out;
}

// Fashion-MNIST's pictures `first` .. `first + count` of `images` as PNG.
std::vector<std::string> Pngs(const IdxArray& images, int first, int count) {
  std::vector<std::string> pngs;
  for (int i = first; i < first + count; ++i) {
    Image picture;
    picture.Resize(28, 28, 1);
    std::copy_n(
        reinterpret_cast<const std::uint8_t*>(&images.elements[i * 784]), 784,
        picture.pixels.begin());
    pngs.push_back(EncodePng(picture));
  }
  return pngs;
}

TEST(CxxnetConfigsTest, CxxnetImageKeysAsCxxnetReadThem) {
  const std::string dir = NewTestDir("cxxnet_images");
  // ParseIdx's arrays view these bytes.
  const std::string image_bytes =
      ReadIdxBytes(absl::StrCat(kFashionMnist, "train-images-idx3-ubyte.gz"),
                   kIdxImageMagic);
  const std::string label_bytes =
      ReadIdxBytes(absl::StrCat(kFashionMnist, "train-labels-idx1-ubyte.gz"),
                   kIdxLabelMagic);
  const IdxArray train_images =
      ParseIdx(image_bytes, kIdxImageMagic, "train images");
  const IdxArray train_labels =
      ParseIdx(label_bytes, kIdxLabelMagic, "train labels");
  // Training: 2 x 3000 pictures in image pages (tr_0, tr_1) with their lists.
  constexpr int kPart = 3000;
  for (int part = 0; part < 2; ++part) {
    std::vector<ImageListEntry> entries;
    for (int i = part * kPart; i < (part + 1) * kPart; ++i) {
      entries.push_back({static_cast<std::uint64_t>(i),
                         {static_cast<float>(train_labels.elements[i])},
                         absl::StrCat(i, ".png")});
    }
    const std::string prefix = absl::StrCat(dir, "/tr_", part);
    WriteImageList(prefix + ".lst", entries);
    image_test::WriteImagePages(prefix + ".bin",
                                Pngs(train_images, part * kPart, kPart), 1000);
  }
  // Test: the next 1000 pictures in a RecordIO pack whose records say label
  // 0; their labels are in va.lst, by record id.
  std::vector<ImageListEntry> test_labels;
  RecordIOWriter pack(dir + "/va.rec");
  const std::vector<std::string> test_pngs =
      Pngs(train_images, 2 * kPart, 1000);
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t id = 2 * kPart + i;
    pack.WriteRecord(PackImageRecord({0.0f}, id, test_pngs[i]));
    test_labels.push_back(
        {id, {static_cast<float>(train_labels.elements[id])}, "unused.png"});
  }
  pack.Close();
  WriteImageList(dir + "/va.lst", test_labels);
  // fixconn's weights: a sparse random projection of the 16 x 12 x 12
  // pooled features to 128, a quarter of the entries set.
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 0.1f);
  std::string projection;
  int entries = 0;
  for (int row = 0; row < 128; ++row) {
    for (int col = 0; col < 16 * 12 * 12; col += 4) {
      absl::StrAppend(&projection, row, " ", col + row % 4, " ", normal(rng),
                      "\n");
      ++entries;
    }
  }
  WriteText(dir + "/proj.txt",
            absl::StrCat("128 2304 ", entries, "\n", projection));

  std::string config = ReadText("train/configs/cxxnet/cxxnet_images.conf");
  absl::StrReplaceAll({{"DATA", dir}}, &config);
  const std::string out =
      RunTrainer(dir, config, {"silent=0", "model_dir=" + dir + "/models"});
  EXPECT_TRUE(std::filesystem::exists(dir + "/models/image_mean.bin"));
  // Learned: the labels of va.lst, not the records' zeros.
  EXPECT_LT(LastMetric(out, "test-error"), 0.5) << out;
}

}  // namespace
}  // namespace train
}  // namespace umbra
