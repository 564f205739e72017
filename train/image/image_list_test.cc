#include "train/image/image_list.h"

#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
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
using data_test::WriteGzipFile;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string ParseError(const std::string& text, int label_width = 1) {
  return DataErrorOf(
      [&] { ParseImageListText(text, "list.lst", label_width); });
}

TEST(ImageListTest, ParsesIndexLabelsAndPathWithSpaces) {
  const std::vector<ImageListEntry> list = ParseImageListText(
      "0\t3\tcat/a b.jpg\n\n  \n12\t5.5\tdog/x.jpg\r\n7\t-1e3\t  c.png \n",
      "list.lst", 1);
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0].index, 0u);
  EXPECT_THAT(list[0].labels, ElementsAre(3.0f));
  EXPECT_EQ(list[0].path, "cat/a b.jpg");
  EXPECT_EQ(list[0].line, 1);
  EXPECT_EQ(list[1].index, 12u);
  EXPECT_THAT(list[1].labels, ElementsAre(5.5f));
  EXPECT_EQ(list[1].path, "dog/x.jpg");
  EXPECT_EQ(list[1].line, 4);
  EXPECT_EQ(list[2].index, 7u);
  EXPECT_THAT(list[2].labels, ElementsAre(-1000.0f));
  EXPECT_EQ(list[2].path, "c.png");
  EXPECT_EQ(list[2].line, 5);
}

TEST(ImageListTest, SeveralLabelsAndGzip) {
  const std::string path = NewTempDir() + "/multi.lst.gz";
  WriteGzipFile(path, "18446744073709551615\t1\t0.25\t2\tx.jpg\n");
  const std::vector<ImageListEntry> list = ParseImageList(path, 3);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].index, std::numeric_limits<std::uint64_t>::max());
  EXPECT_THAT(list[0].labels, ElementsAre(1.0f, 0.25f, 2.0f));
  EXPECT_EQ(list[0].path, "x.jpg");
}

TEST(ImageListTest, WritesTheIm2recFormat) {
  const std::string path = NewTempDir() + "/out.lst";
  WriteImageList(path, {{7, {1.0f, 0.5f}, "a b/c.jpg", 0},
                        {8, {-3.0f, 0.1f}, "d.png", 0}});
  EXPECT_EQ(ReadText(path), "7\t1\t0.5\ta b/c.jpg\n8\t-3\t0.1\td.png\n");
}

TEST(ImageListTest, RoundTripsRandomEntries) {
  TestRng rng;
  const int label_width = rng.Int(1, 4);
  std::vector<ImageListEntry> entries;
  for (int i = 0; i < 100; ++i) {
    ImageListEntry entry;
    entry.index = static_cast<std::uint64_t>(rng.Int(0, 1 << 30))
                  << rng.Int(0, 33);
    for (int j = 0; j < label_width; ++j) {
      entry.labels.push_back(rng.Int(0, 1) == 0
                                 ? static_cast<float>(rng.Int(0, 999))
                                 : rng.Uniform(-1e6f, 1e6f) /
                                       static_cast<float>(rng.Int(1, 1000)));
    }
    entry.path = absl::StrCat("dir ", rng.Int(0, 9), "/image ", i, ".jpg");
    entry.line = i + 1;
    entries.push_back(entry);
  }
  const std::string path = NewTempDir() + "/round.lst";
  WriteImageList(path, entries);
  const std::vector<ImageListEntry> read = ParseImageList(path, label_width);
  ASSERT_EQ(read.size(), entries.size());
  for (std::size_t i = 0; i < read.size(); ++i) {
    EXPECT_EQ(read[i].index, entries[i].index) << "entry " << i;
    EXPECT_EQ(read[i].labels, entries[i].labels) << "entry " << i;
    EXPECT_EQ(read[i].path, entries[i].path) << "entry " << i;
    EXPECT_EQ(read[i].line, entries[i].line) << "entry " << i;
  }
}

TEST(ImageListErrorTest, WrongLabelCountNamesLineAndWidth) {
  EXPECT_EQ(ParseError("0\t1\ta.jpg\n\n\n\n\n\n7\t1\t2\tb.jpg\n"),
            "list.lst:7: expected 1 label (label_width = 1), got 2: "
            "'7\\t1\\t2\\tb.jpg'");
  EXPECT_EQ(ParseError("0\ta.jpg\n", 2),
            "list.lst:1: expected 2 labels (label_width = 2), got 0: "
            "'0\\ta.jpg'");
}

TEST(ImageListErrorTest, SpacesInsteadOfTabs) {
  EXPECT_EQ(ParseError("0 1 a.jpg\n"),
            "list.lst:1: expected 3 tab-separated fields (index, 1 label, "
            "path), got 1 (the fields must be separated by tabs, not "
            "spaces): '0 1 a.jpg'");
  EXPECT_THAT(ParseError("a.jpg\n"), Not(HasSubstr("not spaces")));
}

TEST(ImageListErrorTest, BadIndex) {
  for (const std::string index :
       {"x1", "-1", "1.0", "0x10", "99999999999999999999"}) {
    EXPECT_EQ(ParseError(index + "\t1\ta.jpg"),
              "list.lst:1: field 1 (index): expected an unsigned integer, "
              "got '" +
                  index + "'");
  }
}

TEST(ImageListErrorTest, BadLabel) {
  for (const std::string label : {"abc", "nan", "inf", "1e99", "0x1", ""}) {
    EXPECT_EQ(ParseError("0\t1\t" + label + "\ta.jpg", 2),
              "list.lst:1: field 3 (label 2): expected a finite number, got '" +
                  label + "'");
  }
}

TEST(ImageListErrorTest, EmptyPath) {
  EXPECT_EQ(ParseError("0\t1\t \n"),
            "list.lst:1: field 3 (path): expected an image path, got "
            "nothing: '0\\t1\\t '");
}

TEST(ImageListErrorTest, EmptyListAndMissingFile) {
  EXPECT_EQ(ParseError("\n \r\n"),
            "'list.lst' holds no images: the list is empty or only blank "
            "lines (expected lines of index, 1 label, path, separated by "
            "tabs)");
  const std::string path = NewTempDir() + "/nope.lst";
  EXPECT_EQ(DataErrorOf([&] { ParseImageList(path, 1); }),
            "cannot open '" + path + "': No such file or directory");
}

TEST(ImageListErrorTest, LabelWidthBelowOne) {
  try {
    ParseImageListText("0\ta.jpg\n", "list.lst", 0);
    ADD_FAILURE() << "expected a DataError";
  } catch (const DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              "'list.lst': label_width must be at least 1, got 0");
    EXPECT_EQ(e.key(), "label_width");
  }
}

TEST(ImageListErrorTest, QuotesAtMost80Characters) {
  const std::string long_label(500, 'y');
  const std::string message = ParseError("0\t" + long_label + "\ta.jpg");
  EXPECT_THAT(message, AllOf(HasSubstr("got '" + std::string(80, 'y') + "'..."),
                             Not(HasSubstr(std::string(81, 'y')))));
}

TEST(ImageListErrorTest, OverlongLine) {
  const std::string line = "0\t1\t" + std::string(70000, 'p');
  const std::string message = ParseError("0\t1\ta.jpg\n" + line + "\n");
  EXPECT_EQ(message,
            "list.lst:2: line of 70004 bytes, longer than the limit of 65536 "
            "bytes (not a text list file?): starts with '0\\t1\\t" +
                std::string(76, 'p') + "'... (70004 bytes in all)");
}

TEST(ImageListErrorTest, WriteRefusesWhatWouldNotReadBack) {
  const std::string path = NewTempDir() + "/out.lst";
  const auto write_error = [&](const ImageListEntry& entry) {
    return DataErrorOf([&] {
      WriteImageList(path, {{1, {0}, "ok.jpg", 0}, entry});
    });
  };
  EXPECT_EQ(write_error({3, {1}, "a\tb.jpg", 0}),
            "cannot write '" + path +
                "': entry 2 (index 3): the path 'a\\tb.jpg' would not read "
                "back: it must be non-empty, hold no tab or line break, and "
                "not start or end with whitespace");
  EXPECT_THAT(write_error({3, {1}, " a.jpg", 0}), HasSubstr("' a.jpg'"));
  EXPECT_THAT(write_error({3, {1}, "", 0}), HasSubstr("the path ''"));
  EXPECT_THAT(write_error({3, {1}, "a\nb", 0}), HasSubstr("'a\\nb'"));
  EXPECT_EQ(write_error({4, {1, NAN}, "a.jpg", 0}),
            "cannot write '" + path +
                "': entry 2 (index 4): label 2 is nan, expected a finite "
                "number");
  EXPECT_EQ(write_error({5, {}, "a.jpg", 0}),
            "cannot write '" + path +
                "': entry 2 (index 5): no labels (a .lst line needs at least "
                "one)");
  const std::string bad_dir = NewTempDir() + "/missing/out.lst";
  EXPECT_EQ(DataErrorOf([&] { WriteImageList(bad_dir, {}); }),
            "cannot create '" + bad_dir + "': No such file or directory");
}

}  // namespace
}  // namespace train
}  // namespace umbra
