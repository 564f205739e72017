// Where the image iterators' encoded pictures come from: a .lst list of
// files under an image root (iter = img), or a RecordIO pack of MXNet image
// records (iter = imgrec). Both give random access by instance number and
// may be read from many decode threads at once.
//
// Example:
//
//   ImageListSource list("train.lst", "images/", /*label_width=*/1);
//   std::string bytes;                  // reused: capacity kept
//   float label;
//   list.Read(0, &bytes, &label);       // images/<path of line 1>
//   list.Where(0);                      // "train.lst:1 'cat/1.jpg'"
//
//   RecordPackSource pack("train.rec", "train.idx", 1);  // "" : scan
#ifndef UMBRA_TRAIN_IMAGE_IMAGE_SOURCES_H_
#define UMBRA_TRAIN_IMAGE_IMAGE_SOURCES_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "tensor/tensor.h"
#include "train/image/image_list.h"
#include "train/image/recordio.h"

namespace umbra {
namespace train {

// The largest encoded picture read (a file or record claiming more is an
// error, not an allocation).
inline constexpr std::uint64_t kMaxEncodedImageBytes = 256ull << 20;

class EncodedImageSource {
 public:
  virtual ~EncodedImageSource() = default;
  virtual index_t size() const = 0;
  virtual index_t label_width() const = 0;
  // Replaces *bytes with instance `index`'s encoded picture and writes its
  // label_width() labels to `labels`. Safe to call from several threads at
  // once. Throws DataError saying what is wrong (not where: see Where).
  virtual void Read(index_t index, std::string* bytes, float* labels) const = 0;
  // Where instance `index` comes from, for messages.
  virtual std::string Where(index_t index) const = 0;
  // What the source is, for messages: "img 'train.lst'".
  virtual std::string Describe() const = 0;
};

// The files a .lst names, under `root` ("" : the list's paths as they are).
class ImageListSource : public EncodedImageSource {
 public:
  // Throws DataError for a list ParseImageList refuses.
  ImageListSource(const std::string& list_path, const std::string& root,
                  int label_width);

  index_t size() const override { return entries_.size(); }
  index_t label_width() const override { return label_width_; }
  void Read(index_t index, std::string* bytes, float* labels) const override;
  std::string Where(index_t index) const override;
  std::string Describe() const override;

  // The list's lines, in order: instance i is entries()[i].
  const std::vector<ImageListEntry>& entries() const { return entries_; }

 private:
  std::string list_path_;
  std::string root_;
  int label_width_;
  std::vector<ImageListEntry> entries_;
};

// The image records of a RecordIO pack, at the offsets its .idx gives (in
// the .idx's order) or, without one, found by scanning the pack. Labels are
// the records' own or, with a label list (cxxnet's imgrec `image_list`),
// the list's line whose index is the record's id.
class RecordPackSource : public EncodedImageSource {
 public:
  // Throws DataError for a missing pack or index, a malformed index, or a
  // label list ParseImageList refuses or that lists an index twice.
  RecordPackSource(const std::string& pack_path, const std::string& index_path,
                   int label_width, const std::string& label_list = "");

  index_t size() const override { return offsets_.size(); }
  index_t label_width() const override { return label_width_; }
  // Also throws DataError when the record holds another number of labels
  // than label_width, or its id is not in the label list.
  void Read(index_t index, std::string* bytes, float* labels) const override;
  std::string Where(index_t index) const override;
  std::string Describe() const override;

 private:
  RecordIOReader pack_;
  std::string index_path_;
  int label_width_;
  std::vector<std::uint64_t> offsets_;
  std::string label_list_;
  // The label list's lines, by their index.
  std::unordered_map<std::uint64_t, ImageListEntry> listed_;
};

// Replaces *bytes with the content of the file at `path` (at most
// kMaxEncodedImageBytes), reusing its capacity. Throws DataError "cannot
// open 'path': No such file or directory", ...
void ReadFileInto(const std::string& path, std::string* bytes);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_IMAGE_IMAGE_SOURCES_H_
