#include "train/data/csv_file.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/data/data_test_util.h"

namespace umbra {
namespace train {
namespace {

using data_test::DataErrorOf;
using data_test::NewTempDir;
using data_test::TestRng;
using data_test::WriteFile;
using data_test::WriteGzipFile;
using ::testing::HasSubstr;

class CsvFileTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& text) {
    const std::string path = dir_ + "/data" + std::to_string(++files_) + ".csv";
    WriteFile(path, text);
    return path;
  }
  std::string LoadError(const std::string& text, index_t label_width = 1,
                        const std::vector<int>& shape = {}) {
    const std::string path = Write(text);
    return DataErrorOf([&] { LoadCsv(path, false, label_width, shape); });
  }
  std::string dir_ = NewTempDir();
  int files_ = 0;
};

TEST_F(CsvFileTest, ReadsRandomRowsWithAndWithoutHeader) {
  TestRng rng;
  const int rows = rng.Int(1, 20), width = rng.Int(1, 12);
  const int label_width = rng.Int(1, 3);
  std::vector<float> values;
  std::string body;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < label_width + width; ++c) {
      // Values that print exactly.
      const float v = rng.Int(-5000, 5000) / 8.0f;
      values.push_back(v);
      absl::StrAppend(&body, c == 0 ? "" : (rng.Int(0, 1) ? "," : " , "),
                      absl::StrFormat("%g", v));
    }
    absl::StrAppend(&body, rng.Int(0, 1) ? "\r\n" : "\n");
  }
  for (bool header : {false, true}) {
    SCOPED_TRACE(header ? "with header" : "without header");
    const std::string path =
        Write(header ? "label,a,b,c,whatever\n" + body : body);
    auto set = LoadCsv(path, header, label_width, {});
    ASSERT_EQ(set->size(), rows);
    EXPECT_EQ(set->instance_shape(), Shape3(1, 1, width));
    EXPECT_EQ(set->label_width(), label_width);
    for (int r = 0; r < rows; ++r) {
      const float* row = values.data() + r * (label_width + width);
      for (int j = 0; j < label_width; ++j) {
        EXPECT_EQ(set->labels()[r][j], row[j]) << r << "," << j;
      }
      for (int j = 0; j < width; ++j) {
        EXPECT_EQ(set->data()[r][j], row[label_width + j]) << r << "," << j;
      }
    }
  }
}

TEST_F(CsvFileTest, HeaderIsNotReadAsData) {
  // Without has_header the header row is an error, not silently data.
  EXPECT_THAT(LoadError("label,x\n1,2\n"),
              HasSubstr(":1: column 1: expected a finite number, got 'label'"));
}

TEST_F(CsvFileTest, InputShapeGivesTheInstanceShape) {
  const std::string path = Write("\n7,1,2,3,4,5,6\n\n8,6,5,4,3,2,1\n");
  auto set = LoadCsv(path, false, 1, {1, 2, 3});
  EXPECT_EQ(set->instance_shape(), Shape3(1, 2, 3));
  EXPECT_EQ(set->size(), 2);
  EXPECT_EQ(set->labels()[1][0], 8.0f);
  EXPECT_EQ(set->data()[1][5], 1.0f);
  EXPECT_THAT(DataErrorOf([&] {
                LoadCsv(path, false, 1, {1, 2, 2});
              }),
              HasSubstr(":2: expected 5 columns (1 label + 4 data from "
                        "input_shape), got 7"));
}

TEST_F(CsvFileTest, GzipIsRead) {
  const std::string path = dir_ + "/data.csv.gz";
  WriteGzipFile(path, "1,0.5\n0,0.25\n");
  auto set = LoadCsv(path, false, 1, {});
  EXPECT_EQ(set->size(), 2);
  EXPECT_EQ(set->data()[1][0], 0.25f);
}

TEST_F(CsvFileTest, WrongColumnCountNamesFileAndLine) {
  const std::string path = Write("1,2,3\n4,5,6\n\n7,8\n");
  EXPECT_EQ(DataErrorOf([&] { LoadCsv(path, false, 1, {}); }),
            "csv: key 'filename': " + path +
                ":4: expected 3 columns (1 label + 2 data, as in the first "
                "row), got 2");
  EXPECT_THAT(LoadError("1,2,3\n4,5,6,7\n"), HasSubstr(":2: expected 3"));
  EXPECT_THAT(LoadError("1,2\n", 2),
              HasSubstr(":1: expected more than label_width = 2 columns, "
                        "got 2"));
}

TEST_F(CsvFileTest, NonNumbersNameFileLineAndColumn) {
  EXPECT_THAT(LoadError("1,2,3\n4,x5,6\n"),
              HasSubstr(".csv:2: column 2: expected a finite number, got "
                        "'x5'"));
  EXPECT_THAT(LoadError("1,2,3\n4,5,\n"),
              HasSubstr(":2: column 3: expected a finite number, got ''"));
  EXPECT_THAT(LoadError("1,2,3\n4,5,6abc\n"), HasSubstr("got '6abc'"));
  EXPECT_THAT(LoadError("1,nan,3\n"), HasSubstr(":1: column 2"));
  EXPECT_THAT(LoadError("1,2,inf\n"), HasSubstr(":1: column 3"));
  EXPECT_THAT(LoadError("1,2,1e99\n"), HasSubstr(":1: column 3"));
  EXPECT_THAT(LoadError("1,2,0x10\n"), HasSubstr("got '0x10'"));
  EXPECT_THAT(LoadError("1;2;3\n"), HasSubstr("expected more than"));
}

// Read as a stream: an endless one stops at the line limit, not at the
// end of memory; a long bad field is quoted short.
TEST_F(CsvFileTest, EndlessStreamsAndHugeFieldsAreBounded) {
  EXPECT_THAT(DataErrorOf([&] { LoadCsv("/dev/zero", false, 1, {}); }),
              HasSubstr("/dev/zero:1: a line of more than 67108864 bytes"));
  const std::string message =
      LoadError("1,2," + std::string(1 << 20, 'z') + "\n");
  EXPECT_THAT(message, HasSubstr("(1048576 bytes in all)"));
  EXPECT_LT(message.size(), 500u);
}

TEST_F(CsvFileTest, EmptyAndMissingFiles) {
  EXPECT_THAT(LoadError("\n\n"), HasSubstr("has no data rows"));
  const std::string path = Write("only,a,header\n");
  EXPECT_THAT(DataErrorOf([&] { LoadCsv(path, true, 1, {}); }),
              HasSubstr("has no data rows"));
  EXPECT_EQ(DataErrorOf([&] { LoadCsv(dir_ + "/none.csv", false, 1, {}); }),
            "csv: key 'filename': cannot open '" + dir_ +
                "/none.csv': No such file or directory");
}

}  // namespace
}  // namespace train
}  // namespace umbra
