#include "train/image/cifar_file.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/data/data_error.h"
#include "train/data/data_test_util.h"
#include "train/data/dataset.h"

namespace umbra {
namespace train {
namespace {

using data_test::DataErrorOf;
using data_test::NewTempDir;
using data_test::TestRng;
using data_test::WriteFile;
using data_test::WriteGzipFile;
using ::testing::HasSubstr;

// Random records of `format`: label bytes in range, random pixels.
std::string RandomRecords(CifarFormat format, int count, TestRng* rng) {
  std::string bytes;
  for (int i = 0; i < count; ++i) {
    if (format == CifarFormat::kCifar10) {
      bytes.push_back(static_cast<char>(rng->Int(0, 9)));
    } else {
      bytes.push_back(static_cast<char>(rng->Int(0, 19)));
      bytes.push_back(static_cast<char>(rng->Int(0, 99)));
    }
    const std::vector<unsigned char> pixels = rng->Bytes(3072);
    bytes.append(pixels.begin(), pixels.end());
  }
  return bytes;
}

// Checks the data set against the records, read independently of the code
// under test: label bytes first, pixels as they are.
void ExpectRecords(MemoryDataset& set, const std::string& bytes,
                   CifarFormat format) {
  const std::size_t label_bytes = format == CifarFormat::kCifar10 ? 1 : 2;
  const std::size_t record = label_bytes + 3072;
  ASSERT_EQ(set.size() * record, bytes.size());
  ASSERT_EQ(set.instance_shape(), Shape3(3, 32, 32));
  const auto byte = [&](std::size_t i) {
    return static_cast<float>(static_cast<unsigned char>(bytes[i]));
  };
  for (index_t i = 0; i < set.size(); ++i) {
    const std::size_t start = i * record;
    switch (format) {
      case CifarFormat::kCifar10:
      case CifarFormat::kCifar100Coarse:
        ASSERT_EQ(set.label_width(), 1);
        EXPECT_EQ(set.labels()[i][0], byte(start)) << "instance " << i;
        break;
      case CifarFormat::kCifar100Fine:
        ASSERT_EQ(set.label_width(), 1);
        EXPECT_EQ(set.labels()[i][0], byte(start + 1)) << "instance " << i;
        break;
      case CifarFormat::kCifar100Both:
        ASSERT_EQ(set.label_width(), 2);
        EXPECT_EQ(set.labels()[i][0], byte(start)) << "instance " << i;
        EXPECT_EQ(set.labels()[i][1], byte(start + 1)) << "instance " << i;
        break;
    }
    for (std::size_t j = 0; j < 3072; ++j) {
      ASSERT_EQ(set.data()[i][j], byte(start + label_bytes + j))
          << "instance " << i << " pixel " << j;
    }
  }
}

TEST(CifarFileTest, ReadsCifar10FilesInOrder) {
  TestRng rng;
  const std::string dir = NewTempDir();
  const std::string first = RandomRecords(CifarFormat::kCifar10, 3, &rng);
  const std::string second = RandomRecords(CifarFormat::kCifar10, 2, &rng);
  WriteFile(dir + "/data_batch_1.bin", first);
  WriteGzipFile(dir + "/data_batch_2.bin.gz", second);
  std::unique_ptr<MemoryDataset> set =
      LoadCifar({dir + "/data_batch_1.bin", dir + "/data_batch_2.bin.gz"},
                CifarFormat::kCifar10);
  ExpectRecords(*set, first + second, CifarFormat::kCifar10);
  EXPECT_EQ(set->Describe(),
            "cifar10 '" + dir + "/data_batch_1.bin' and 1 more file");
}

TEST(CifarFileTest, ReadsCifar100WithEachLabelChoice) {
  TestRng rng;
  const std::string path = NewTempDir() + "/train.bin";
  const std::string bytes = RandomRecords(CifarFormat::kCifar100Fine, 4, &rng);
  WriteFile(path, bytes);
  for (const CifarFormat format :
       {CifarFormat::kCifar100Fine, CifarFormat::kCifar100Coarse,
        CifarFormat::kCifar100Both}) {
    SCOPED_TRACE(static_cast<int>(format));
    ExpectRecords(*LoadCifar({path}, format), bytes, format);
  }
  EXPECT_EQ(LoadCifar({path}, CifarFormat::kCifar100Fine)->Describe(),
            "cifar100 '" + path + "'");
}

TEST(CifarFileTest, PlanesAreChannelsRowMajor) {
  // Red plane all 10, green 20, blue 30, except green at row 1, column 2.
  std::string record(1, '\x07');
  record += std::string(1024, '\x0a') + std::string(1024, '\x14') +
            std::string(1024, '\x1e');
  record[1 + 1024 + 1 * 32 + 2] = '\xff';
  const std::string path = NewTempDir() + "/one.bin";
  WriteFile(path, record);
  std::unique_ptr<MemoryDataset> set = LoadCifar({path}, CifarFormat::kCifar10);
  TensorContainer<cpu, 1, float> data(Shape1(3072)), label(Shape1(1));
  set->Read(0, data, label);
  EXPECT_EQ(label[0], 7.0f);
  EXPECT_EQ(data[0], 10.0f);
  EXPECT_EQ(data[1023], 10.0f);
  EXPECT_EQ(data[1024], 20.0f);
  EXPECT_EQ(data[1024 + 34], 255.0f);
  EXPECT_EQ(data[2048], 30.0f);
  EXPECT_EQ(data[3071], 30.0f);
  EXPECT_EQ(CifarRecordBytes(CifarFormat::kCifar10), 3073u);
  EXPECT_EQ(CifarRecordBytes(CifarFormat::kCifar100Both), 3074u);
  EXPECT_EQ(CifarLabelWidth(CifarFormat::kCifar100Both), 2);
  EXPECT_EQ(CifarLabelWidth(CifarFormat::kCifar100Coarse), 1);
}

class CifarErrorTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = dir_ + "/" + name;
    WriteFile(path, bytes);
    return path;
  }
  std::string LoadError(const std::vector<std::string>& paths,
                        CifarFormat format) {
    return DataErrorOf([&] { LoadCifar(paths, format); });
  }
  TestRng rng_;
  std::string dir_ = NewTempDir();
};

TEST_F(CifarErrorTest, SizeNotAWholeNumberOfRecords) {
  const std::string path = Write(
      "cut.bin", RandomRecords(CifarFormat::kCifar10, 2, &rng_) + "12345");
  EXPECT_EQ(LoadError({path}, CifarFormat::kCifar10),
            "'" + path +
                "': 6151 bytes is not a whole number of CIFAR-10 records of "
                "3073 bytes (1 label byte + 3072 pixel bytes): a truncated "
                "file, or not a CIFAR file?");
}

TEST_F(CifarErrorTest, FileOfTheOtherFormat) {
  const std::string cifar100 =
      Write("c100.bin", RandomRecords(CifarFormat::kCifar100Fine, 2, &rng_));
  EXPECT_EQ(LoadError({cifar100}, CifarFormat::kCifar10),
            "'" + cifar100 +
                "': 6148 bytes is not a whole number of CIFAR-10 records of "
                "3073 bytes (1 label byte + 3072 pixel bytes): it holds "
                "3074-byte records: a CIFAR-100 file?");
  const std::string cifar10 =
      Write("c10.bin", RandomRecords(CifarFormat::kCifar10, 2, &rng_));
  EXPECT_THAT(LoadError({cifar10}, CifarFormat::kCifar100Coarse),
              HasSubstr("'" + cifar10 +
                        "': 6146 bytes is not a whole number of CIFAR-100 "
                        "records of 3074 bytes (1 coarse label byte + 1 fine "
                        "label byte + 3072 pixel bytes): it holds 3073-byte "
                        "records: a CIFAR-10 file?"));
}

TEST_F(CifarErrorTest, LabelOutOfRange) {
  std::string bytes = RandomRecords(CifarFormat::kCifar10, 3, &rng_);
  bytes[3073] = 10;
  const std::string path = Write("label.bin", bytes);
  EXPECT_EQ(LoadError({path}, CifarFormat::kCifar10),
            "'" + path +
                "': record 1 (offset 3073): label 10 is out of range 0..9 (a "
                "CIFAR-100 file read as CIFAR-10?)");
  std::string coarse = RandomRecords(CifarFormat::kCifar100Fine, 2, &rng_);
  coarse[0] = 20;
  const std::string coarse_path = Write("coarse.bin", coarse);
  EXPECT_EQ(LoadError({coarse_path}, CifarFormat::kCifar100Fine),
            "'" + coarse_path +
                "': record 0 (offset 0): coarse label 20 is out of range "
                "0..19 (a CIFAR-10 file read as CIFAR-100?)");
  std::string fine = RandomRecords(CifarFormat::kCifar100Fine, 2, &rng_);
  fine[3074 + 1] = static_cast<char>(200);
  const std::string fine_path = Write("fine.bin", fine);
  EXPECT_EQ(LoadError({fine_path}, CifarFormat::kCifar100Coarse),
            "'" + fine_path +
                "': record 1 (offset 3074): fine label 200 is out of range "
                "0..99 (a CIFAR-10 file read as CIFAR-100?)");
}

TEST_F(CifarErrorTest, EmptyMissingAndNoFiles) {
  const std::string good =
      Write("good.bin", RandomRecords(CifarFormat::kCifar10, 1, &rng_));
  const std::string empty = Write("empty.bin", "");
  EXPECT_EQ(LoadError({good, empty}, CifarFormat::kCifar10),
            "'" + empty +
                "': the file is empty, expected CIFAR-10 records of 3073 "
                "bytes (1 label byte + 3072 pixel bytes)");
  const std::string missing = dir_ + "/nope.bin";
  EXPECT_EQ(LoadError({good, missing}, CifarFormat::kCifar10),
            "cannot open '" + missing + "': No such file or directory");
  EXPECT_EQ(LoadError({}, CifarFormat::kCifar100Both),
            "CIFAR-100: no files given (expected the paths of one or more "
            ".bin files)");
}

}  // namespace
}  // namespace train
}  // namespace umbra
