#include "train/data/idx_file.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/data/data_error.h"
#include "train/data/data_test_util.h"

namespace umbra {
namespace train {
namespace {

using data_test::DataErrorOf;
using data_test::GzipBytes;
using data_test::IdxHeader;
using data_test::IdxImages;
using data_test::IdxLabels;
using data_test::MnistFiles;
using data_test::NewTempDir;
using data_test::TestRng;
using data_test::WriteFile;
using data_test::WriteGzipFile;
using data_test::WriteRandomMnist;
using ::testing::AllOf;
using ::testing::HasSubstr;

void ExpectMatchesFiles(MemoryDataset& set, const MnistFiles& files) {
  ASSERT_EQ(set.size(), files.count);
  const index_t pixels = files.rows * files.cols;
  for (int i = 0; i < files.count; ++i) {
    EXPECT_EQ(set.labels()[i][0], files.labels[i]) << "instance " << i;
    for (index_t j = 0; j < pixels; ++j) {
      ASSERT_EQ(set.data()[i][j], files.pixels[i * pixels + j] / 256.0f)
          << "instance " << i << " pixel " << j;
    }
  }
}

class IdxFileTest : public ::testing::TestWithParam<bool> {};

TEST_P(IdxFileTest, ReadsPixelsScaledAndLabels) {
  TestRng rng;
  const int rows = rng.Int(1, 9), cols = rng.Int(1, 9), count = rng.Int(1, 30);
  const MnistFiles files =
      WriteRandomMnist(NewTempDir(), count, rows, cols, GetParam(), &rng);
  auto flat = LoadMnist(files.images_path, files.labels_path, true);
  EXPECT_EQ(flat->instance_shape(), Shape3(1, 1, rows * cols));
  EXPECT_EQ(flat->label_width(), 1);
  ExpectMatchesFiles(*flat, files);
  auto images = LoadMnist(files.images_path, files.labels_path, false);
  EXPECT_EQ(images->instance_shape(), Shape3(1, rows, cols));
  ExpectMatchesFiles(*images, files);
}

INSTANTIATE_TEST_SUITE_P(PlainAndGzip, IdxFileTest, ::testing::Bool(),
                         [](const auto& info) {
                           return info.param ? "gzip" : "plain";
                         });

class IdxErrorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = NewTempDir();
    files_ = WriteRandomMnist(dir_, 6, 3, 4, false, &rng_);
  }
  std::string LoadError(const std::string& images, const std::string& labels) {
    return DataErrorOf([&] { LoadMnist(images, labels, true); });
  }
  TestRng rng_;
  std::string dir_;
  MnistFiles files_;
};

// Reading stops where the header says: an endless stream is refused at
// its header, and a file far longer than its header says is not read to
// its end.
TEST_F(IdxErrorTest, ReadingIsBoundedByTheHeader) {
  EXPECT_THAT(LoadError("/dev/zero", files_.labels_path),
              HasSubstr("bad magic number 0x00000000"));
  const std::string path = dir_ + "/long";
  WriteFile(path, IdxImages(6, 3, 4, files_.pixels) + std::string(1 << 20, 0));
  EXPECT_EQ(ReadIdxBytes(path, kIdxImageMagic).size(), 16u + 72u + 1u);
  EXPECT_THAT(LoadError(path, files_.labels_path),
              HasSubstr("the file has more (trailing bytes)"));
}

TEST_F(IdxErrorTest, MissingFileNamesKeyAndPath) {
  const std::string missing = dir_ + "/nope-idx3-ubyte.gz";
  EXPECT_EQ(LoadError(missing, files_.labels_path),
            "mnist: key 'path_img': cannot open '" + missing +
                "': No such file or directory");
  EXPECT_EQ(LoadError(files_.images_path, missing),
            "mnist: key 'path_label': cannot open '" + missing +
                "': No such file or directory");
}

TEST_F(IdxErrorTest, BadMagic) {
  // Image and label files swapped.
  EXPECT_EQ(LoadError(files_.labels_path, files_.images_path),
            "mnist: key 'path_img': '" + files_.labels_path +
                "': bad magic number 0x00000801, expected 0x00000803 (an IDX "
                "file of unsigned bytes with 3 dimensions)");
  const std::string text = dir_ + "/text";
  WriteFile(text, "hello world, not an idx file");
  EXPECT_THAT(LoadError(text, files_.labels_path),
              HasSubstr("bad magic number 0x68656c6c"));
}

TEST_F(IdxErrorTest, LabelCountMismatch) {
  std::vector<unsigned char> labels(files_.labels);
  labels.push_back(3);
  const std::string path = dir_ + "/labels7";
  WriteFile(path, IdxLabels(labels));
  EXPECT_EQ(LoadError(files_.images_path, path),
            "mnist: key 'path_label': '" + path + "' has 7 labels but '" +
                files_.images_path + "' has 6 images");
}

TEST_F(IdxErrorTest, HugeDimensionsAreRefusedWithoutAllocating) {
  // 4e9 x 4e9 x 4e9 images on a file of a few bytes: the product overflows
  // 64 bits; it must be an error, not an allocation or a wrap-around.
  const std::string path = dir_ + "/huge";
  WriteFile(path,
            IdxHeader(0x00000803, {0xffffffffu, 0xffffffffu, 0xffffffffu}) +
                "abcdef");
  EXPECT_THAT(LoadError(path, files_.labels_path),
              AllOf(HasSubstr("key 'path_img'"),
                    HasSubstr("4294967295 x 4294967295 x 4294967295"),
                    HasSubstr("need more than 2^64 bytes"),
                    HasSubstr("truncated or corrupt header")));
  // A product that wraps to exactly the file's size must not pass either:
  // 2^22 * 2^21 * 2^21 wraps to 0 in 64 bits - 0 bytes after the header.
  WriteFile(path, IdxHeader(0x00000803, {1u << 22, 1u << 21, 1u << 21}));
  EXPECT_THAT(LoadError(path, files_.labels_path),
              HasSubstr("truncated or corrupt header"));
}

TEST_F(IdxErrorTest, TruncatedAndTrailingBytes) {
  const std::string images = IdxImages(6, 3, 4, files_.pixels);
  const std::string path = dir_ + "/cut";
  WriteFile(path, images.substr(0, images.size() - 5));
  EXPECT_EQ(LoadError(path, files_.labels_path),
            "mnist: key 'path_img': '" + path +
                "': the header's sizes (6 x 3 x 4) need 72 bytes of data, "
                "the file has 67 (truncated or corrupt header)");
  WriteFile(path, images + "xx");
  EXPECT_THAT(LoadError(path, files_.labels_path),
              HasSubstr("need 72 bytes of data, the file has more (trailing "
                        "bytes)"));
  WriteFile(path, images.substr(0, 9));
  EXPECT_THAT(LoadError(path, files_.labels_path),
              HasSubstr("truncated header: 9 bytes, the header needs 16"));
  WriteFile(path, "");
  EXPECT_THAT(LoadError(path, files_.labels_path),
              HasSubstr("too short for a header"));
}

TEST_F(IdxErrorTest, TruncatedGzipStream) {
  const std::string gz = GzipBytes(IdxImages(6, 3, 4, files_.pixels));
  const std::string path = dir_ + "/cut.gz";
  WriteFile(path, gz.substr(0, gz.size() - 12));
  EXPECT_THAT(LoadError(path, files_.labels_path),
              AllOf(HasSubstr("mnist: key 'path_img': cannot read '" + path),
                    HasSubstr("truncated or corrupt gzip")));
}

TEST_F(IdxErrorTest, EmptyImages) {
  const std::string images = dir_ + "/empty-images";
  const std::string labels = dir_ + "/empty-labels";
  WriteFile(images, IdxImages(0, 28, 28, {}));
  WriteFile(labels, IdxLabels({}));
  EXPECT_THAT(LoadError(images, labels), HasSubstr("holds no pixels"));
}

TEST(IdxParseTest, ParsesDimsAndElements) {
  const std::string bytes = IdxImages(2, 1, 3, {1, 2, 3, 4, 5, 6});
  const IdxArray array = ParseIdx(bytes, kIdxImageMagic, "x");
  EXPECT_EQ(array.dims, (std::vector<std::uint32_t>{2, 1, 3}));
  EXPECT_EQ(array.elements, std::string("\1\2\3\4\5\6"));
}

}  // namespace
}  // namespace train
}  // namespace umbra
