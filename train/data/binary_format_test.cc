#include "train/data/binary_format.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/data/data_error.h"
#include "train/data/data_test_util.h"

namespace umbra {
namespace train {
namespace {

using data_test::DataErrorOf;
using data_test::NewTempDir;
using data_test::TestRng;
using data_test::WriteFile;
using ::testing::HasSubstr;

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool Exists(const std::string& path) { return std::ifstream(path).good(); }

class BinaryFormatTest : public ::testing::TestWithParam<BinaryDtype> {};

TEST_P(BinaryFormatTest, RoundTripsRandomRecords) {
  TestRng rng;
  const BinaryDtype dtype = GetParam();
  const Shape<3> shape = Shape3(rng.Int(1, 3), rng.Int(1, 6), rng.Int(1, 6));
  const index_t label_width = rng.Int(1, 3);
  const int count = rng.Int(1, 20);
  const std::string path = NewTempDir() + "/set.umbra";
  std::vector<TensorContainer<cpu, 1, float>> data;
  std::vector<std::vector<float>> labels;
  {
    BinaryDatasetWriter writer(path, shape, label_width, dtype);
    for (int i = 0; i < count; ++i) {
      data.emplace_back(Shape1(shape.Size()));
      for (index_t j = 0; j < shape.Size(); ++j) {
        data.back()[j] =
            dtype == BinaryDtype::kUint8 ? rng.Int(0, 255) : rng.Uniform(-3, 3);
      }
      labels.emplace_back();
      for (index_t j = 0; j < label_width; ++j) {
        labels.back().push_back(rng.Uniform(-10, 10));
      }
      writer.Append(data.back(), labels.back());
    }
    EXPECT_FALSE(Exists(path)) << "visible before Finish()";
    writer.Finish();
  }
  EXPECT_FALSE(Exists(path + ".tmp"));
  const std::string bytes = ReadBytes(path);
  EXPECT_EQ(bytes.substr(0, 8), "UMBRADAT");
  EXPECT_EQ(bytes.size(),
            kBinaryHeaderSize +
                count * (shape.Size() * (dtype == BinaryDtype::kUint8 ? 1 : 4) +
                         label_width * 4));

  std::unique_ptr<Dataset> set = OpenBinaryDataset(path);
  ASSERT_EQ(set->size(), count);
  EXPECT_EQ(set->instance_shape(), shape);
  EXPECT_EQ(set->label_width(), label_width);
  TensorContainer<cpu, 1, float> x(Shape1(shape.Size()));
  TensorContainer<cpu, 1, float> y(Shape1(label_width));
  // Random access, in reverse.
  for (int i = count - 1; i >= 0; --i) {
    set->Read(i, x, y);
    for (index_t j = 0; j < shape.Size(); ++j) {
      ASSERT_EQ(x[j], data[i][j]) << "record " << i << " element " << j;
    }
    for (index_t j = 0; j < label_width; ++j) {
      ASSERT_EQ(y[j], labels[i][j]) << "record " << i << " label " << j;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, BinaryFormatTest,
                         ::testing::Values(BinaryDtype::kUint8,
                                           BinaryDtype::kFloat32),
                         [](const auto& info) {
                           return info.param == BinaryDtype::kUint8 ? "uint8"
                                                                    : "float32";
                         });

TEST(BinaryExtraInputsTest, RoundTripRandomRecords) {
  TestRng rng;
  const std::vector<Shape<3>> extras = {
      Shape3(1, 1, rng.Int(1, 5)), Shape3(rng.Int(1, 2), rng.Int(1, 3), 2)};
  const Shape<3> shape = Shape3(1, rng.Int(1, 4), rng.Int(1, 4));
  const int count = rng.Int(1, 12);
  const std::string path = NewTempDir() + "/extra.umbra";
  std::vector<std::vector<TensorContainer<cpu, 1, float>>> values(count);
  {
    BinaryDatasetWriter writer(path, shape, 2, BinaryDtype::kUint8, extras);
    for (int i = 0; i < count; ++i) {
      values[i].emplace_back(Shape1(shape.Size()));
      for (index_t j = 0; j < shape.Size(); ++j) {
        values[i][0][j] = rng.Int(0, 255);
      }
      for (const Shape<3>& extra : extras) {
        values[i].emplace_back(Shape1(extra.Size()));
        for (index_t j = 0; j < extra.Size(); ++j) {
          values[i].back()[j] = rng.Uniform(-5, 5);
        }
      }
      writer.Append(values[i][0], {float(i), -float(i)},
                    {values[i][1], values[i][2]});
    }
    writer.Finish();
  }
  const std::size_t record =
      shape.Size() + 4 * (extras[0].Size() + extras[1].Size()) + 4 * 2;
  EXPECT_EQ(ReadBytes(path).size(), 40 + 4 + 12 * 2 + count * record);

  std::unique_ptr<Dataset> set = OpenBinaryDataset(path);
  ASSERT_EQ(set->size(), count);
  ASSERT_EQ(set->extra_shapes(), extras);
  TensorContainer<cpu, 1, float> x(Shape1(shape.Size())), y(Shape1(2));
  TensorContainer<cpu, 1, float> e0(Shape1(extras[0].Size()));
  TensorContainer<cpu, 1, float> e1(Shape1(extras[1].Size()));
  for (int i = count - 1; i >= 0; --i) {
    set->Read(i, x, y);
    // Extras of another record than the last read are read as well.
    const int other = (i + 1) % count;
    set->ReadExtras(other, {e0, e1});
    for (index_t j = 0; j < e0.size(0); ++j) {
      ASSERT_EQ(e0[j], values[other][1][j]) << "record " << other;
    }
    set->Read(i, x, y);
    set->ReadExtras(i, {e0, e1});
    EXPECT_EQ(y[0], float(i));
    EXPECT_EQ(y[1], -float(i));
    for (index_t j = 0; j < x.size(0); ++j) ASSERT_EQ(x[j], values[i][0][j]);
    for (index_t j = 0; j < e0.size(0); ++j) ASSERT_EQ(e0[j], values[i][1][j]);
    for (index_t j = 0; j < e1.size(0); ++j) ASSERT_EQ(e1[j], values[i][2][j]);
  }
}

TEST(BinaryExtraInputsTest, BadExtraHeaders) {
  const std::string dir = NewTempDir();
  const std::string path = dir + "/extra.umbra";
  {
    BinaryDatasetWriter writer(path, Shape3(1, 1, 1), 1, BinaryDtype::kFloat32,
                               {Shape3(1, 1, 2)});
    TensorContainer<cpu, 1, float> x(Shape1(1), 1.0f), e(Shape1(2), 2.0f);
    EXPECT_THAT(DataErrorOf([&] { writer.Append(x, {0.0f}); }),
                HasSubstr("record 0 has 0 extra inputs, expected 1"));
    TensorContainer<cpu, 1, float> wrong(Shape1(3), 2.0f);
    EXPECT_THAT(DataErrorOf([&] { writer.Append(x, {0.0f}, {wrong}); }),
                HasSubstr("extra input 1 has 3 values, expected 2"));
    writer.Append(x, {0.0f}, {e});
    writer.Finish();
  }
  const std::string good = ReadBytes(path);
  ASSERT_EQ(good.size(), 56u + 4 * (1 + 2 + 1));
  auto open_error = [&](std::size_t offset, std::uint32_t value) {
    std::string bytes = good;
    std::memcpy(bytes.data() + offset, &value, 4);
    WriteFile(dir + "/bad.umbra", bytes);
    return DataErrorOf([&] { OpenBinaryDataset(dir + "/bad.umbra"); });
  };
  EXPECT_THAT(open_error(40, 0),
              HasSubstr("claims 0 extra inputs, expected at least 1"));
  EXPECT_THAT(open_error(40, 0xffffffffu),
              HasSubstr("claims 4294967295 extra inputs, whose shapes need a "
                        "51539607584-byte header; the file has 72 bytes"));
  EXPECT_THAT(open_error(48, 0), HasSubstr("extra input 1 has shape (1,0,2)"));
  EXPECT_THAT(open_error(44, 0xffffffffu),
              HasSubstr("extra input 1 has shape (4294967295,1,2); expected "
                        "positive dimensions whose records fit in the file's "
                        "72 bytes"));
  EXPECT_THAT(open_error(52, 3),
              HasSubstr("with 1 labels and 3 extra values, which need 20 "
                        "bytes after the header; the file has 16"));
}

class BinaryErrorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_ + "/good.umbra";
    BinaryDatasetWriter writer(path_, Shape3(1, 2, 3), 1, BinaryDtype::kUint8);
    TensorContainer<cpu, 1, float> x(Shape1(6), 7.0f);
    for (int i = 0; i < 4; ++i) writer.Append(x, {float(i)});
    writer.Finish();
    good_ = ReadBytes(path_);
  }
  // The error of opening `bytes` as a file.
  std::string OpenError(const std::string& bytes) {
    const std::string path = dir_ + "/bad.umbra";
    WriteFile(path, bytes);
    return DataErrorOf([&] { OpenBinaryDataset(path); });
  }
  std::string WithField(std::size_t offset, const void* value,
                        std::size_t size) {
    std::string bytes = good_;
    std::memcpy(bytes.data() + offset, value, size);
    return bytes;
  }
  std::string dir_ = NewTempDir();
  std::string path_;
  std::string good_;
};

TEST_F(BinaryErrorTest, GoodFileOpens) {
  EXPECT_EQ(good_.size(), 40u + 4 * (6 + 4));
  EXPECT_EQ(OpenBinaryDataset(path_)->size(), 4);
}

TEST_F(BinaryErrorTest, HeaderFields) {
  EXPECT_THAT(OpenError("XMBRADAT" + good_.substr(8)),
              HasSubstr("bad magic number, expected \"UMBRADAT\""));
  const std::uint32_t three = 3, nine = 9, zero = 0;
  EXPECT_THAT(OpenError(WithField(8, &three, 4)),
              HasSubstr("format version 3, this reader knows versions 1 and "
                        "2"));
  EXPECT_THAT(OpenError(WithField(12, &nine, 4)),
              HasSubstr("unknown dtype 9, expected 1 (uint8) or 2 (float32)"));
  EXPECT_THAT(OpenError(WithField(20, &zero, 4)),
              HasSubstr("shape (1,0,3) and label_width 1 must be positive"));
  EXPECT_THAT(OpenError(good_.substr(0, 30)),
              HasSubstr("truncated header: 30 bytes, the header needs 40"));
}

TEST_F(BinaryErrorTest, SizeMustMatchTheHeader) {
  EXPECT_THAT(OpenError(good_.substr(0, good_.size() - 1)),
              HasSubstr("claims 4 records of shape (1,2,3) with 1 labels, "
                        "which need 40 bytes after the header; the file has "
                        "39 (truncated file or corrupt header)"));
  EXPECT_THAT(OpenError(good_ + "x"),
              HasSubstr("the file has 41 (trailing bytes)"));
  const std::uint64_t no_records = 0;
  EXPECT_THAT(OpenError(WithField(32, &no_records, 8).substr(0, 40)),
              HasSubstr("holds no records"));
}

TEST_F(BinaryErrorTest, HugeHeaderIsRefusedWithoutAllocating) {
  const std::uint32_t huge = 0xffffffffu;
  std::string bytes = WithField(16, &huge, 4);
  bytes =
      std::string(bytes.data(), 20) + std::string(8, '\xff') + bytes.substr(28);
  EXPECT_THAT(OpenError(bytes),
              HasSubstr("need more than 2^64 bytes after the header"));
  const std::uint64_t many = std::uint64_t{1} << 62;
  EXPECT_THAT(OpenError(WithField(32, &many, 8)),
              HasSubstr("truncated file or corrupt header"));
}

TEST_F(BinaryErrorTest, MissingFile) {
  EXPECT_EQ(DataErrorOf([&] { OpenBinaryDataset(dir_ + "/none"); }),
            "cannot open '" + dir_ + "/none': No such file or directory");
  EXPECT_THAT(DataErrorOf([&] { OpenBinaryDataset(dir_); }),
              HasSubstr("is not a regular file"));
}

TEST_F(BinaryErrorTest, WriterChecksItsInput) {
  const std::string path = dir_ + "/w.umbra";
  {
    BinaryDatasetWriter writer(path, Shape3(1, 1, 2), 1, BinaryDtype::kUint8);
    TensorContainer<cpu, 1, float> x(Shape1(2), 0.0f);
    x[1] = 256.0f;
    EXPECT_THAT(DataErrorOf([&] { writer.Append(x, {0.0f}); }),
                HasSubstr("element 1 is 256; uint8 data must be integers in "
                          "0..255"));
    x[1] = 1.5f;
    EXPECT_THAT(DataErrorOf([&] { writer.Append(x, {0.0f}); }),
                HasSubstr("element 1 is 1.5"));
    EXPECT_THAT(DataErrorOf([&] {
                  writer.Append(x, {0.0f, 1.0f});
                }),
                HasSubstr("has 2 data and 2 label values, expected 2 and 1"));
    EXPECT_TRUE(Exists(path + ".tmp"));
    // Destroyed without Finish(): nothing is left behind.
  }
  EXPECT_FALSE(Exists(path + ".tmp"));
  EXPECT_FALSE(Exists(path));
  EXPECT_THAT(DataErrorOf([&] {
                BinaryDatasetWriter(dir_ + "/no/such/dir/x", Shape3(1, 1, 1), 1,
                                    BinaryDtype::kFloat32);
              }),
              HasSubstr("cannot create"));
}

}  // namespace
}  // namespace train
}  // namespace umbra
