#include "tools/image_pack.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "tools/cli.h"
#include "train/data/data_error.h"
#include "train/image/image_codec.h"
#include "train/image/recordio.h"
#include "train/net/checkpoint.h"

namespace umbra {
namespace tools {

ImageCodec ParseImageCodec(const std::string& name) {
  const std::string lower = absl::AsciiStrToLower(absl::StripPrefix(name, "."));
  if (lower == "jpg" || lower == "jpeg") return ImageCodec::kJpeg;
  if (lower == "png") return ImageCodec::kPng;
  throw UsageError("--encoding: '" + name + "' is not jpg or png");
}

std::string EncodeImage(const train::Image& image,
                        const ImageEncoding& encoding) {
  return encoding.codec == ImageCodec::kPng
             ? train::EncodePng(image)
             : train::EncodeJpeg(image, encoding.quality);
}

void RefuseExisting(const std::string& path) {
  if (std::filesystem::exists(path)) {
    throw train::DataError(absl::StrFormat(
        "'%s' exists; remove it or choose another name (nothing is "
        "overwritten)",
        path));
  }
}

ImagePackWriter::ImagePackWriter(std::string pack_path)
    : pack_path_(std::move(pack_path)),
      index_path_(train::RecordIndexPathFor(pack_path_)) {
  RefuseExisting(pack_path_);
  RefuseExisting(index_path_);
  const std::string suffix = absl::StrFormat(".tmp-%d", getpid());
  temporary_pack_ = pack_path_ + suffix;
  temporary_index_ = index_path_ + suffix;
  writer_ = std::make_unique<train::RecordIOWriter>(temporary_pack_);
}

ImagePackWriter::~ImagePackWriter() {
  if (finished_) return;
  writer_.reset();
  std::remove(temporary_pack_.c_str());
  std::remove(temporary_index_.c_str());
}

void ImagePackWriter::Add(std::uint64_t id, const std::vector<float>& labels,
                          absl::string_view encoded) {
  index_.push_back(
      {id, writer_->WriteRecord(train::PackImageRecord(labels, id, encoded))});
}

namespace {

// Moves the temporary file `from` to `to` only where nothing is: a file that
// appeared at `to` meanwhile is kept and the move refused.
void MoveIntoPlace(const std::string& from, const std::string& to) {
  const int error = train::RenameNoReplace(from, to);
  if (error == EEXIST) RefuseExisting(to);
  if (error != 0) {
    throw train::DataError(absl::StrFormat("cannot move '%s' to '%s': %s", from,
                                           to, std::strerror(error)));
  }
}

}  // namespace

void ImagePackWriter::Finish() {
  writer_->Close();
  train::WriteRecordIndex(temporary_index_, index_);
  MoveIntoPlace(temporary_pack_, pack_path_);
  MoveIntoPlace(temporary_index_, index_path_);
  finished_ = true;
}

}  // namespace tools
}  // namespace umbra
