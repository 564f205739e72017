// What //tools:im2rec and //tools:idx2img share: encoding a picture as the
// user asked, and writing a RecordIO pack of image records with its .idx,
// whole or not at all.
//
// Example:
//
//   ImagePackWriter pack("train.rec");     // refuses an existing pack/index
//   pack.Add(/*id=*/0, {3.0f}, EncodeImage(image, {ImageCodec::kPng, 0}));
//   pack.Finish();                         // train.rec and train.idx appear
//
// Until Finish() the pack and its index are written under temporary names
// beside them; a writer destroyed without Finish() (an error, Ctrl-C
// unwinding) removes them, so a half-written pack never looks whole.
#ifndef UMBRA_TOOLS_IMAGE_PACK_H_
#define UMBRA_TOOLS_IMAGE_PACK_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "train/image/image.h"
#include "train/image/recordio.h"

namespace umbra {
namespace tools {

enum class ImageCodec { kJpeg, kPng };

struct ImageEncoding {
  ImageCodec codec = ImageCodec::kJpeg;
  int quality = 95;  // JPEG only, 1..100
};

// Parses "jpg" / "jpeg" / "png" (as MXNet's --encoding '.jpg' / '.png',
// the dot optional). Throws UsageError.
ImageCodec ParseImageCodec(const std::string& name);

std::string EncodeImage(const train::Image& image,
                        const ImageEncoding& encoding);

class ImagePackWriter {
 public:
  // Throws train::DataError when the pack or its index
  // (RecordIndexPathFor) already exists, or cannot be created.
  explicit ImagePackWriter(std::string pack_path);
  ~ImagePackWriter();

  // Appends one image record (PackImageRecord) with key `id`.
  void Add(std::uint64_t id, const std::vector<float>& labels,
           absl::string_view encoded);
  // Writes the index and gives both files their names.
  void Finish();

  const std::string& pack_path() const { return pack_path_; }
  const std::string& index_path() const { return index_path_; }
  std::size_t count() const { return index_.size(); }

 private:
  std::string pack_path_;
  std::string index_path_;
  std::string temporary_pack_;
  std::string temporary_index_;
  std::unique_ptr<train::RecordIOWriter> writer_;
  std::vector<train::RecordIndexEntry> index_;
  bool finished_ = false;
};

// Refuses (train::DataError) to go on when `path` exists: the tools never
// overwrite what the user has.
void RefuseExisting(const std::string& path);

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_IMAGE_PACK_H_
