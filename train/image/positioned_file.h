// PositionedFile: a regular file opened for reading at given offsets
// (pread), from any number of threads at once; the file packs of the image
// iterators (RecordIO, cxxnet's image pages) read their pictures with it.
//
// Example:
//
//   PositionedFile pack("train.rec", "a RecordIO pack");
//   std::string bytes(16, '\0');
//   std::string problem = pack.Read(0, bytes.data(), bytes.size());
//   if (!problem.empty()) throw DataError("'train.rec': " + problem);
#ifndef UMBRA_TRAIN_IMAGE_POSITIONED_FILE_H_
#define UMBRA_TRAIN_IMAGE_POSITIONED_FILE_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace umbra {
namespace train {

class PositionedFile {
 public:
  // Opens `path`. Throws DataError "cannot open 'path': ..." (missing,
  // unreadable, or not a regular file: "not a regular file" names it as
  // `what`, e.g. "a RecordIO pack").
  PositionedFile(const std::string& path, const std::string& what);
  ~PositionedFile();

  PositionedFile(const PositionedFile&) = delete;
  PositionedFile& operator=(const PositionedFile&) = delete;

  const std::string& path() const { return path_; }
  // The size when opened.
  std::uint64_t size() const { return size_; }

  // Reads `count` bytes at `offset` into `data`. Returns "" or, when they
  // cannot all be read, what went wrong ("the file ended at offset ...",
  // "cannot read N bytes at offset M: ..."), for the caller to say where.
  std::string Read(std::uint64_t offset, char* data, std::size_t count) const;

 private:
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_IMAGE_POSITIONED_FILE_H_
