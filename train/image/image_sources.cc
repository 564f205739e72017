#include "train/image/image_sources.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "param/quote.h"
#include "train/data/data_error.h"
#include "train/image/image_list.h"
#include "train/image/recordio.h"

namespace umbra {
namespace train {
namespace {

std::string JoinRoot(const std::string& root, const std::string& path) {
  if (root.empty() || path.front() == '/') return path;
  return root.back() == '/' ? root + path : root + "/" + path;
}

}  // namespace

void ReadFileInto(const std::string& path, std::string* bytes) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    throw DataError(
        absl::StrFormat("cannot open '%s': %s", path, std::strerror(errno)));
  }
  struct stat status;
  std::string problem;
  if (fstat(fd, &status) != 0) {
    problem = std::strerror(errno);
  } else if (!S_ISREG(status.st_mode)) {
    problem = "not a regular file";
  } else if (static_cast<std::uint64_t>(status.st_size) >
             kMaxEncodedImageBytes) {
    problem = absl::StrFormat("%d bytes, more than the %d a picture may have",
                              status.st_size, kMaxEncodedImageBytes);
  } else {
    bytes->resize(status.st_size);
    std::size_t done = 0;
    while (done < bytes->size()) {
      const ssize_t got = read(fd, &(*bytes)[done], bytes->size() - done);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        problem = got < 0 ? std::strerror(errno) : "the file got shorter";
        break;
      }
      done += got;
    }
  }
  close(fd);
  if (!problem.empty()) {
    throw DataError(absl::StrFormat("cannot read '%s': %s", path, problem));
  }
}

ImageListSource::ImageListSource(const std::string& list_path,
                                 const std::string& root, int label_width)
    : list_path_(list_path),
      root_(root),
      label_width_(label_width),
      entries_(ParseImageList(list_path, label_width)) {}

void ImageListSource::Read(index_t index, std::string* bytes,
                           float* labels) const {
  const ImageListEntry& entry = entries_[index];
  std::copy(entry.labels.begin(), entry.labels.end(), labels);
  ReadFileInto(JoinRoot(root_, entry.path), bytes);
}

std::string ImageListSource::Where(index_t index) const {
  const ImageListEntry& entry = entries_[index];
  return absl::StrFormat("%s:%d %s", list_path_, entry.line,
                         QuoteShort(entry.path));
}

std::string ImageListSource::Describe() const {
  return absl::StrFormat("img '%s'%s", list_path_,
                         root_.empty() ? "" : " under '" + root_ + "'");
}

RecordPackSource::RecordPackSource(const std::string& pack_path,
                                   const std::string& index_path,
                                   int label_width,
                                   const std::string& label_list)
    : pack_(pack_path),
      index_path_(index_path),
      label_width_(label_width),
      label_list_(label_list) {
  if (!label_list.empty()) {
    for (ImageListEntry& entry : ParseImageList(label_list, label_width)) {
      const auto [at, added] = listed_.emplace(entry.index, entry);
      if (!added) {
        throw DataError(absl::StrFormat(
            "%s:%d: index %d is listed twice (first at line %d)", label_list,
            entry.line, entry.index, at->second.line));
      }
    }
  }
  if (index_path.empty()) {
    offsets_ = pack_.ScanOffsets();
  } else {
    for (const RecordIndexEntry& entry : ReadRecordIndex(index_path)) {
      if (entry.offset >= pack_.file_size()) {
        throw DataError(absl::StrFormat(
            "'%s': key %d is at offset %d, past the end of '%s' (%d bytes)",
            index_path, entry.key, entry.offset, pack_path, pack_.file_size()));
      }
      offsets_.push_back(entry.offset);
    }
  }
  if (offsets_.empty()) {
    throw DataError(absl::StrFormat("'%s' holds no records", pack_path));
  }
}

void RecordPackSource::Read(index_t index, std::string* bytes,
                            float* labels) const {
  // One per decode thread, so that reading allocates nothing.
  thread_local ImageRecord image;
  pack_.ReadRecordAt(offsets_[index], bytes);
  UnpackImageRecord(*bytes, /*where=*/"", &image);
  if (!listed_.empty()) {
    const auto entry = listed_.find(image.header.id);
    if (entry == listed_.end()) {
      throw DataError(absl::StrFormat("the record's id %d is not in '%s'",
                                      image.header.id, label_list_));
    }
    std::copy(entry->second.labels.begin(), entry->second.labels.end(), labels);
  } else if (static_cast<int>(image.labels.size()) != label_width_) {
    throw DataError(absl::StrFormat(
        "the record holds %d label%s, label_width is %d", image.labels.size(),
        image.labels.size() == 1 ? "" : "s", label_width_));
  } else {
    std::copy(image.labels.begin(), image.labels.end(), labels);
  }
  // Keep only the picture.
  bytes->erase(0, image.image.data() - bytes->data());
}

std::string RecordPackSource::Where(index_t index) const {
  return absl::StrFormat("'%s' record %d (offset %d)", pack_.path(), index,
                         offsets_[index]);
}

std::string RecordPackSource::Describe() const {
  return absl::StrFormat("imgrec '%s'%s", pack_.path(),
                         index_path_.empty() ? "" : " + '" + index_path_ + "'");
}

}  // namespace train
}  // namespace umbra
