// The image iterator types end to end, on pictures the test makes: img and
// imgrec give the pixels that were encoded (PNG is lossless), the same
// batches as each other and whatever decode_threads is; bad pictures are
// named or, with skip_bad_images, replaced and counted; mean_img is made
// once and read after; cifar reads its records.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/data/data.h"
#include "train/data/data_test_util.h"
#include "train/data/file_bytes.h"
#include "train/image/image.h"
#include "train/image/image_codec.h"
#include "train/image/image_list.h"
#include "train/image/image_resize.h"
#include "train/image/recordio.h"

namespace umbra {
namespace train {
namespace {

using data_test::DataErrorOf;
using data_test::ExpectSamePasses;
using data_test::NewTempDir;
using data_test::ReadPass;
using data_test::SameBatch;
using data_test::TestRng;
using data_test::WriteFile;
using ::testing::HasSubstr;

// `count` random RGB pictures of height x width written as PNG files with a
// .lst, and as a .rec + .idx pack, labelled i % 5.
struct PictureSet {
  std::string dir;
  std::vector<Image> images;
  std::string list_path;
  std::string rec_path;
};

PictureSet WritePictures(TestRng& rng, int count, int height, int width) {
  PictureSet set;
  set.dir = NewTempDir();
  std::vector<ImageListEntry> entries;
  std::vector<RecordIndexEntry> index;
  set.rec_path = set.dir + "/pictures.rec";
  RecordIOWriter pack(set.rec_path);
  for (int i = 0; i < count; ++i) {
    Image image;
    image.Resize(height, width, 3);
    for (std::uint8_t& sample : image.pixels) sample = rng.Int(0, 255);
    const std::string png = EncodePng(image);
    const std::string name = "p" + std::to_string(i) + ".png";
    WriteFile(set.dir + "/" + name, png);
    entries.push_back(
        {static_cast<std::uint64_t>(i), {static_cast<float>(i % 5)}, name});
    index.push_back({static_cast<std::uint64_t>(i),
                     pack.WriteRecord(PackImageRecord(
                         {static_cast<float>(i % 5)}, i, png))});
    set.images.push_back(std::move(image));
  }
  pack.Close();
  WriteRecordIndex(set.dir + "/pictures.idx", index);
  set.list_path = set.dir + "/pictures.lst";
  WriteImageList(set.list_path, entries);
  return set;
}

std::unique_ptr<DataIterator> Img(const PictureSet& set, ParamKwargs keys) {
  keys.push_back({"image_list", set.list_path});
  keys.push_back({"image_root", set.dir});
  keys.push_back({"silent", "1"});
  return CreateIterator("img", keys, nullptr);
}

std::unique_ptr<DataIterator> ImgRec(const PictureSet& set, ParamKwargs keys) {
  keys.push_back({"image_rec", set.rec_path});
  keys.push_back({"silent", "1"});
  return CreateIterator("imgrec", keys, nullptr);
}

TEST(ImageIteratorsTest, ImgGivesTheCentreCropOfTheEncodedPixels) {
  TestRng rng;
  const int count = rng.Int(3, 9);
  const PictureSet set = WritePictures(rng, count, 12, 10);
  const float mean = rng.Uniform(0, 100), divideby = rng.Uniform(1, 300);
  auto it = Img(set, {{"batch_size", std::to_string(count)},
                      {"input_shape", "3,8,6"},
                      {"mean_value", std::to_string(mean)},
                      {"divideby", std::to_string(divideby)}});
  ASSERT_TRUE(it->Next());
  const DataBatch& batch = it->Value();
  const float multiplier = 1.0f / std::stof(std::to_string(divideby));
  const float mean_used = std::stof(std::to_string(mean));
  for (int i = 0; i < count; ++i) {
    EXPECT_EQ(batch.label[i][0], i % 5);
    for (int c = 0; c < 3; ++c) {
      for (int y = 0; y < 8; ++y) {
        for (int x = 0; x < 6; ++x) {
          const float want =
              (set.images[i].at(y + 2, x + 2, c) - mean_used) * multiplier;
          ASSERT_NEAR(batch.data[i][c][y][x], want,
                      1e-5f * (1 + std::abs(want)))
              << "picture " << i << " at " << c << "," << y << "," << x;
        }
      }
    }
  }
}

TEST(ImageIteratorsTest,
     ImgRecAndImgGiveTheSameBatchesForAnyThreadCountAndCache) {
  TestRng rng;
  const PictureSet set = WritePictures(rng, rng.Int(10, 30), 14, 15);
  const ParamKwargs keys = {{"batch_size", std::to_string(rng.Int(2, 7))},
                            {"input_shape", "3,9,11"},
                            {"shuffle", "1"},
                            {"seed", std::to_string(rng.Int(0, 999))},
                            {"rand_crop", "1"},
                            {"rand_mirror", "1"},
                            {"max_rotate_angle", "10"},
                            {"divideby", "255"}};
  // One decodes every read, the other decodes once into memory.
  ParamKwargs one = keys, three = keys;
  one.push_back({"decode_threads", "1"});
  one.push_back({"decoded_cache_mb", "0"});
  three.push_back({"decode_threads", "3"});
  auto img = Img(set, one);
  auto rec = ImgRec(set, three);
  ExpectSamePasses(img.get(), rec.get(), 2);
}

// resize: the shorter side to `resize` pixels before the crop; a large JPEG
// is decoded at a smaller scale, which a smooth picture hardly shows.
TEST(ImageIteratorsTest, ResizeScalesTheShorterSideFirst) {
  TestRng rng;
  const std::string dir = NewTempDir();
  Image image;
  image.Resize(128, 192, 3);
  const int base = rng.Int(0, 60);
  for (int y = 0; y < 128; ++y) {
    for (int x = 0; x < 192; ++x) {
      for (int c = 0; c < 3; ++c) image.at(y, x, c) = base + x / 2 + 30 * c;
    }
  }
  WriteFile(dir + "/big.jpg", EncodeJpeg(image, 95));
  WriteImageList(dir + "/big.lst", {{0, {1.0f}, "big.jpg"}});
  auto it = CreateIterator("img",
                           {{"image_list", dir + "/big.lst"},
                            {"image_root", dir},
                            {"resize", "32"},
                            {"input_shape", "3,32,48"},
                            {"batch_size", "1"},
                            {"silent", "1"}},
                           nullptr);
  ASSERT_TRUE(it->Next());
  Image expected;
  ResizeImage(image, 32, 48, &expected);
  for (int c = 0; c < 3; ++c) {
    for (int y = 0; y < 32; ++y) {
      for (int x = 0; x < 48; ++x) {
        ASSERT_NEAR(it->Value().data[0][c][y][x], expected.at(y, x, c), 4)
            << c << "," << y << "," << x;
      }
    }
  }
}

TEST(ImageIteratorsTest, RandomChoicesDifferBetweenPasses) {
  TestRng rng;
  const PictureSet set = WritePictures(rng, 4, 16, 16);
  auto it = Img(set, {{"batch_size", "4"},
                      {"input_shape", "3,8,8"},
                      {"rand_crop", "1"},
                      {"seed", std::to_string(rng.Int(0, 999))}});
  const std::vector<DataBatch> first = ReadPass(it.get());
  it->BeforeFirst();
  const std::vector<DataBatch> second = ReadPass(it.get());
  std::string difference;
  EXPECT_FALSE(SameBatch(first[0], second[0], &difference));
}

TEST(ImageIteratorsTest, ABadPictureIsNamedOrSkippedAndCounted) {
  TestRng rng;
  const PictureSet set = WritePictures(rng, 6, 8, 8);
  const int bad = rng.Int(0, 5);
  const std::string bad_path = set.dir + "/p" + std::to_string(bad) + ".png";
  const std::string png = EncodePng(set.images[bad]);
  WriteFile(bad_path, png.substr(0, png.size() / 2));
  const ParamKwargs keys = {
      {"batch_size", "6"},
      {"input_shape", "3,8,8"},
      {"decoded_cache_mb", std::to_string(rng.Int(0, 1))}};
  EXPECT_THAT(DataErrorOf([&] { Img(set, keys)->Next(); }),
              HasSubstr(absl::StrFormat("pictures.lst:%d 'p%d.png': corrupt "
                                        "or truncated PNG",
                                        bad + 1, bad)));

  ParamKwargs skip = keys;
  skip.push_back({"skip_bad_images", "1"});
  auto it = Img(set, skip);
  ASSERT_TRUE(it->Next());
  // The next good picture takes the bad one's place, labels and all.
  const int next = (bad + 1) % 6;
  EXPECT_EQ(it->Value().label[bad][0], next % 5);
  EXPECT_EQ(it->Value().data[bad][1][2][3],
            static_cast<float>(set.images[next].at(2, 3, 1)));
  EXPECT_EQ(it->bad_instances(), 1);
  // Counted once, however often it is met.
  it->BeforeFirst();
  ASSERT_TRUE(it->Next());
  EXPECT_EQ(it->bad_instances(), 1);

  std::remove(bad_path.c_str());
  EXPECT_THAT(DataErrorOf([&] { Img(set, keys)->Next(); }),
              HasSubstr("No such file or directory"));
}

TEST(ImageIteratorsTest, AWrongLabelCountOrABadMagicIsNamed) {
  TestRng rng;
  const PictureSet set = WritePictures(rng, 3, 8, 8);
  EXPECT_THAT(DataErrorOf([&] {
                ImgRec(set, {{"batch_size", "3"},
                             {"input_shape", "3,8,8"},
                             {"label_width", "2"}})
                    ->Next();
              }),
              HasSubstr("record 0"));
  std::string bytes = ReadFileBytes(set.rec_path);
  bytes[0] ^= 0x55;
  WriteFile(set.rec_path, bytes);
  EXPECT_THAT(
      DataErrorOf([&] {
        ImgRec(set, {{"batch_size", "3"}, {"input_shape", "3,8,8"}})->Next();
      }),
      HasSubstr("pictures.rec"));
}

TEST(ImageIteratorsTest, MeanImageIsMadeOnceAndReadAfter) {
  TestRng rng;
  const PictureSet set = WritePictures(rng, rng.Int(2, 6), 6, 6);
  const std::string mean_path = set.dir + "/mean.bin";
  const ParamKwargs keys = {
      {"batch_size", "1"}, {"input_shape", "3,4,4"}, {"mean_img", mean_path}};
  auto made = Img(set, keys);
  ASSERT_TRUE(made->Next());
  // The first picture minus the mean of all centre crops.
  double mean = 0;
  for (const Image& image : set.images) mean += image.at(1 + 1, 1 + 2, 2);
  mean /= set.images.size();
  EXPECT_NEAR(made->Value().data[0][2][1][2], set.images[0].at(2, 3, 2) - mean,
              1e-4);
  // Read back, not made again: a changed picture does not change the mean.
  auto read = Img(set, keys);
  ASSERT_TRUE(read->Next());
  std::string difference;
  EXPECT_TRUE(SameBatch(made->Value(), read->Value(), &difference))
      << difference;
  EXPECT_THAT(DataErrorOf([&] {
                Img(set, {{"batch_size", "1"},
                          {"input_shape", "3,2,2"},
                          {"mean_img", mean_path}});
              }),
              HasSubstr("holds 1 image of 3,4,4; input_shape needs one of "
                        "3,2,2"));
}

// cxxnet's mean image file: mshadow's SaveBinary of a 3-d tensor, its shape
// as `Dim` integers.
template <typename Dim>
std::string CxxnetMeanFile(const std::vector<float>& mean, Dim c, Dim h,
                           Dim w) {
  const Dim shape[3] = {c, h, w};
  std::string bytes(reinterpret_cast<const char*>(shape), sizeof(shape));
  bytes.append(reinterpret_cast<const char*>(mean.data()),
               mean.size() * sizeof(float));
  return bytes;
}

TEST(ImageIteratorsTest, ImageMeanReadsCxxnetsMeanFile) {
  TestRng rng;
  const PictureSet set = WritePictures(rng, 2, 6, 6);
  std::vector<float> mean(3 * 4 * 4);
  for (float& value : mean) value = rng.Uniform(0, 255);
  const std::string path = set.dir + "/image_mean.bin";
  const ParamKwargs keys = {
      {"batch_size", "1"}, {"input_shape", "3,4,4"}, {"image_mean", path}};
  for (const std::string& file :
       {CxxnetMeanFile<std::uint32_t>(mean, 3, 4, 4),
        CxxnetMeanFile<std::uint64_t>(mean, 3, 4, 4)}) {
    WriteFile(path, file);
    auto iterator = ImgRec(set, keys);
    ASSERT_TRUE(iterator->Next());
    // Channel 1, row 2, column 3 of the centre crop (offset 1, 1).
    EXPECT_NEAR(iterator->Value().data[0][1][2][3],
                set.images[0].at(3, 4, 1) - mean[(1 * 4 + 2) * 4 + 3], 1e-4);
  }
  WriteFile(path, CxxnetMeanFile<std::uint32_t>(std::vector<float>(3 * 5 * 5),
                                                3, 5, 5));
  EXPECT_THAT(DataErrorOf([&] { ImgRec(set, keys); }),
              HasSubstr("a cxxnet (mshadow) mean image of 3,5,5; input_shape "
                        "needs one of 3,4,4"));
  WriteFile(path, "not a mean image");
  EXPECT_THAT(DataErrorOf([&] { ImgRec(set, keys); }),
              HasSubstr("is no mean image"));
  // A missing file is made, with its folder, as cxxnet's models/ example.
  const std::string made = set.dir + "/models/image_mean.bin";
  ImgRec(set,
         {{"batch_size", "1"}, {"input_shape", "3,4,4"}, {"image_mean", made}});
  EXPECT_EQ(ReadFilePrefix(made, 8), "UMBRADAT");
}

TEST(ImageIteratorsTest, ImgRecTakesItsLabelsFromAnImageListByRecordId) {
  TestRng rng;
  const int count = rng.Int(3, 8);
  const PictureSet set = WritePictures(rng, count, 4, 4);
  // Two labels per picture, listed in reverse order of the pack.
  std::vector<ImageListEntry> entries;
  for (int i = count - 1; i >= 0; --i) {
    entries.push_back({static_cast<std::uint64_t>(i),
                       {rng.Uniform(-5, 5), rng.Uniform(-5, 5)},
                       "unused.jpg"});
  }
  const std::string list = set.dir + "/labels.lst";
  WriteImageList(list, entries);
  auto iterator = ImgRec(set, {{"batch_size", std::to_string(count)},
                               {"input_shape", "3,4,4"},
                               {"label_width", "2"},
                               {"image_list", list}});
  ASSERT_TRUE(iterator->Next());
  for (int i = 0; i < count; ++i) {
    const ImageListEntry& entry = entries[count - 1 - i];
    EXPECT_EQ(iterator->Value().label[i][0], entry.labels[0]) << i;
    EXPECT_EQ(iterator->Value().label[i][1], entry.labels[1]) << i;
  }
  entries.erase(entries.begin());  // the last record's id
  WriteImageList(list, entries);
  EXPECT_THAT(DataErrorOf([&] {
                ImgRec(set, {{"batch_size", std::to_string(count)},
                             {"input_shape", "3,4,4"},
                             {"label_width", "2"},
                             {"image_list", list}})
                    ->Next();
              }),
              HasSubstr(absl::StrFormat("the record's id %d is not in '%s'",
                                        count - 1, list)));
  entries.push_back(entries.front());
  WriteImageList(list, entries);
  EXPECT_THAT(DataErrorOf([&] {
                ImgRec(set, {{"batch_size", "1"},
                             {"input_shape", "3,4,4"},
                             {"label_width", "2"},
                             {"image_list", list}});
              }),
              HasSubstr(absl::StrFormat("index %d is listed twice (first at "
                                        "line 1)",
                                        count - 2)));
}

TEST(ImageIteratorsTest, InputShapeMustGiveOneOrThreeChannels) {
  TestRng rng;
  const PictureSet set = WritePictures(rng, 2, 6, 6);
  EXPECT_THAT(DataErrorOf([&] {
                Img(set, {{"batch_size", "1"}});
              }),
              HasSubstr("key 'input_shape'"));
  EXPECT_THAT(DataErrorOf([&] {
                Img(set, {{"batch_size", "1"}, {"input_shape", "4,6,6"}});
              }),
              HasSubstr("1 (grey) or 3 (RGB)"));
}

TEST(ImageIteratorsTest, CifarReadsItsRecords) {
  TestRng rng;
  const std::string dir = NewTempDir();
  const int count = rng.Int(1, 5);
  std::string file;
  for (int i = 0; i < count; ++i) {
    file.push_back(static_cast<char>(i));
    for (unsigned char byte : rng.Bytes(3072)) file.push_back(byte);
  }
  WriteFile(dir + "/data_batch_1.bin", file);
  auto it = CreateIterator("cifar",
                           {{"path_data", dir + "/data_batch_1.bin"},
                            {"batch_size", std::to_string(count)},
                            {"silent", "1"}},
                           nullptr);
  ASSERT_TRUE(it->Next());
  for (int i = 0; i < count; ++i) {
    EXPECT_EQ(it->Value().label[i][0], i);
    const int c = rng.Int(0, 2), y = rng.Int(0, 31), x = rng.Int(0, 31);
    EXPECT_EQ(
        it->Value().data[i][c][y][x],
        static_cast<unsigned char>(file[i * 3073 + 1 + (c * 32 + y) * 32 + x]));
  }
}

}  // namespace
}  // namespace train
}  // namespace umbra
