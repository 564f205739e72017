// cxxnet's image page files (`iter = imgbin`, made by cxxnet's im2bin): a
// .bin of 64 MiB pages holding encoded pictures, and the .lst that gives
// their labels, one line per picture in the order of the pages.
//
// A page is 2^24 little-endian int32 words (64 MiB). Word 0 is the number n
// of pictures in the page, word 1 is 0 and word r + 2 the end e_r of
// picture r, counted in bytes from the end of the page: picture r is the
// e_r - e_(r-1) bytes that start e_r bytes before the page's end (the
// pictures fill the page backwards from its end, the words forwards).
//
// Example:
//
//   ImagePageSource pages({{"tr_0.lst", "tr_0.bin"}, {"tr_1.lst",
//                          "tr_1.bin"}}, /*label_width=*/1);
//   pages.Read(7, &bytes, &label);   // the 8th picture of tr_0 + tr_1
#ifndef UMBRA_TRAIN_IMAGE_IMAGE_PAGES_H_
#define UMBRA_TRAIN_IMAGE_IMAGE_PAGES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "train/image/image_list.h"
#include "train/image/image_sources.h"
#include "train/image/positioned_file.h"

namespace umbra {
namespace train {

// The bytes of one page.
inline constexpr std::uint64_t kImagePageBytes = std::uint64_t{64} << 20;

// A .lst and the .bin of its pictures.
struct ImagePagePart {
  std::string list;
  std::string bin;
};

// cxxnet's image_conf_prefix and image_conf_ids: the parts
// PREFIX(i).lst / PREFIX(i).bin for every i of the range "FIRST-LAST", where
// PREFIX(i) is `prefix` with its one printf conversion of an integer (%d,
// with the flags '0' and '-' and a width: "tr_%02d") replaced by i; %% is a
// percent sign. Throws DataError naming the key for a prefix without exactly
// one such conversion, or ids that are not a range of at most 100000
// numbers of 0 or more.
std::vector<ImagePagePart> ImagePagePartsOf(const std::string& prefix,
                                            const std::string& ids);

class ImagePageSource : public EncodedImageSource {
 public:
  // Reads every list and the page headers of every bin. Throws DataError
  // naming the file: a list ParseImageList refuses, a bin that is not a
  // whole number of pages or whose page header is inconsistent, a list
  // with another number of lines than its bin has pictures.
  ImagePageSource(const std::vector<ImagePagePart>& parts, int label_width);

  index_t size() const override { return pictures_.size(); }
  index_t label_width() const override { return label_width_; }
  void Read(index_t index, std::string* bytes, float* labels) const override;
  std::string Where(index_t index) const override;
  std::string Describe() const override;

 private:
  struct Picture {
    int part;
    std::uint64_t offset;
    std::uint32_t bytes;
  };
  struct OpenPart {
    std::string list;
    std::unique_ptr<PositionedFile> bin;
    std::vector<ImageListEntry> entries;
  };

  // Appends the pictures of `part`'s pages to pictures_.
  void ReadPageHeaders(int part);

  int label_width_;
  std::vector<OpenPart> parts_;
  std::vector<Picture> pictures_;
  // pictures_[first_of_part_[k]] is part k's first picture.
  std::vector<index_t> first_of_part_;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_IMAGE_IMAGE_PAGES_H_
