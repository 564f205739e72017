// cxxnet's image pages (iter = imgbin / imginst): pages written here as
// cxxnet's im2bin writes them give the same batches as the same pictures
// read as files (iter = img), over one part or several (image_list and
// image_bin repeated, or image_conf_prefix + image_conf_ids); a damaged page
// or a list that does not match its bin is named.
#include "train/image/image_pages.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/data/data.h"
#include "train/data/data_test_util.h"
#include "train/image/image.h"
#include "train/image/image_codec.h"
#include "train/image/image_list.h"
#include "train/image/image_pages_test_util.h"

namespace umbra {
namespace train {
namespace {

using data_test::DataErrorOf;
using data_test::ExpectSamePasses;
using data_test::NewTempDir;
using data_test::TestRng;
using data_test::WriteFile;
using ::testing::HasSubstr;

// `count` random PNG pictures as files with a .lst for iter = img, and as
// parts tr_0, tr_1, ... of `per_part` pictures for iter = imgbin.
struct PagedPictures {
  std::string dir;
  std::string list;
  std::vector<ImagePagePart> parts;
};

PagedPictures WritePagedPictures(TestRng& rng, int count, int per_part) {
  PagedPictures set;
  set.dir = NewTempDir();
  std::vector<ImageListEntry> all;
  for (int first = 0; first < count; first += per_part) {
    std::vector<ImageListEntry> entries;
    std::vector<std::string> pngs;
    for (int i = first; i < std::min(count, first + per_part); ++i) {
      Image image;
      image.Resize(rng.Int(8, 12), rng.Int(8, 12), 3);
      for (std::uint8_t& sample : image.pixels) sample = rng.Int(0, 255);
      pngs.push_back(EncodePng(image));
      const std::string name = absl::StrFormat("p%d.png", i);
      WriteFile(set.dir + "/" + name, pngs.back());
      entries.push_back({static_cast<std::uint64_t>(i),
                         {static_cast<float>(rng.Int(0, 9))},
                         name});
      all.push_back(entries.back());
    }
    const std::string part =
        absl::StrFormat("%s/tr_%02d", set.dir, set.parts.size());
    set.parts.push_back({part + ".lst", part + ".bin"});
    WriteImageList(set.parts.back().list, entries);
    image_test::WriteImagePages(set.parts.back().bin, pngs, rng.Int(1, 3));
  }
  set.list = set.dir + "/all.lst";
  WriteImageList(set.list, all);
  return set;
}

ParamKwargs CommonKeys(TestRng& rng) {
  return {{"batch_size", std::to_string(rng.Int(2, 5))},
          {"input_shape", "3,7,7"},
          {"shuffle", "1"},
          {"seed", std::to_string(rng.Int(0, 999))},
          {"rand_crop", "1"},
          {"rand_mirror", "1"},
          {"divideby", "255"},
          {"silent", "1"}};
}

TEST(ImagePagesTest, ImgBinGivesTheBatchesOfTheSamePicturesAsFiles) {
  TestRng rng;
  const PagedPictures set = WritePagedPictures(rng, rng.Int(5, 12), 4);
  const ParamKwargs keys = CommonKeys(rng);
  ParamKwargs files = keys;
  files.push_back({"image_list", set.list});
  files.push_back({"image_root", set.dir});
  ParamKwargs pages = keys;
  for (const ImagePagePart& part : set.parts) {
    pages.push_back({"image_list", part.list});
    pages.push_back({"image_bin", part.bin});
  }
  ParamKwargs conf = keys;
  conf.push_back({"image_conf_prefix", set.dir + "/tr_%02d"});
  conf.push_back(
      {"image_conf_ids", absl::StrFormat("0-%d", set.parts.size() - 1)});
  ExpectSamePasses(CreateIterator("img", files, nullptr).get(),
                   CreateIterator("imgbin", pages, nullptr).get(), 2);
  ExpectSamePasses(CreateIterator("img", files, nullptr).get(),
                   CreateIterator("imginst", conf, nullptr).get(), 2);
}

TEST(ImagePagesTest, ConfPrefixTakesOneIntegerConversion) {
  const std::vector<ImagePagePart> parts =
      ImagePagePartsOf("a/tr_%-3d%%", "9-10");
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].list, "a/tr_9  %.lst");
  EXPECT_EQ(parts[1].bin, "a/tr_10 %.bin");
  EXPECT_EQ(ImagePagePartsOf("tr_%03i", "7-7")[0].bin, "tr_007.bin");
  EXPECT_THAT(DataErrorOf([] { ImagePagePartsOf("tr_%s", "0-1"); }),
              HasSubstr("not an integer's"));
  EXPECT_THAT(DataErrorOf([] { ImagePagePartsOf("tr_%d_%d", "0-1"); }),
              HasSubstr("more than one conversion"));
  EXPECT_THAT(DataErrorOf([] { ImagePagePartsOf("tr", "0-1"); }),
              HasSubstr("no conversion"));
  EXPECT_THAT(DataErrorOf([] { ImagePagePartsOf("tr_%d", "3-1"); }),
              HasSubstr("key 'image_conf_ids': '3-1' is not a range"));
  EXPECT_THAT(DataErrorOf([] { ImagePagePartsOf("tr_%d", "0,1"); }),
              HasSubstr("is not a range"));
}

TEST(ImagePagesTest, ABinThatDoesNotMatchItsListOrIsDamagedIsNamed) {
  TestRng rng;
  const PagedPictures set = WritePagedPictures(rng, 6, 3);
  const ImagePagePart& part = set.parts[0];
  const auto open = [&] { ImagePageSource source({part}, 1); };
  EXPECT_NO_THROW(open());
  // One picture more in the list than in the bin.
  WriteImageList(part.list, {{0, {1}, "a.png"},
                             {1, {1}, "b.png"},
                             {2, {1}, "c.png"},
                             {3, {1}, "d.png"}});
  EXPECT_THAT(DataErrorOf(open),
              HasSubstr(absl::StrFormat("'%s' lists 4 pictures, '%s' holds 3",
                                        part.list, part.bin)));
  // A picture that ends past the page's header: a damaged page.
  {
    std::fstream bin(part.bin, std::ios::in | std::ios::out | std::ios::binary);
    bin.seekp(2 * sizeof(std::int32_t));
    const std::int32_t end = kImagePageBytes;
    bin.write(reinterpret_cast<const char*>(&end), sizeof(end));
  }
  EXPECT_THAT(DataErrorOf(open), HasSubstr("page 0: picture 0 ends"));
  std::filesystem::resize_file(part.bin, kImagePageBytes - 1);
  EXPECT_THAT(DataErrorOf(open),
              HasSubstr("not a whole number of cxxnet's 64 MiB image pages"));
  EXPECT_THAT(DataErrorOf([&] {
                CreateIterator("imgbin",
                               {{"batch_size", "1"},
                                {"input_shape", "3,7,7"},
                                {"image_list", part.list}},
                               nullptr);
              }),
              HasSubstr("1 image_list and 0 image_bin lines"));
}

}  // namespace
}  // namespace train
}  // namespace umbra
