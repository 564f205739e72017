#include "train/image/positioned_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "train/data/data_error.h"

namespace umbra {
namespace train {

PositionedFile::PositionedFile(const std::string& path, const std::string& what)
    : path_(path) {
  fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) {
    throw DataError(
        absl::StrCat("cannot open '", path, "': ", std::strerror(errno)));
  }
  struct stat info;
  if (fstat(fd_, &info) != 0) {
    const int error = errno;
    close(fd_);
    throw DataError(
        absl::StrCat("cannot open '", path, "': ", std::strerror(error)));
  }
  if (!S_ISREG(info.st_mode)) {
    close(fd_);
    throw DataError(absl::StrCat("cannot open '", path, "' as ", what,
                                 ": not a regular file"));
  }
  size_ = static_cast<std::uint64_t>(info.st_size);
}

PositionedFile::~PositionedFile() { close(fd_); }

std::string PositionedFile::Read(std::uint64_t offset, char* data,
                                 std::size_t count) const {
  std::size_t done = 0;
  while (done < count) {
    const ssize_t n = pread(fd_, data + done, count - done,
                            static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return absl::StrCat("cannot read ", count, " bytes at offset ", offset,
                          ": ", std::strerror(errno));
    }
    if (n == 0) {
      return absl::StrCat("the file ended at offset ", offset + done,
                          " while reading ", count, " bytes at offset ", offset,
                          " (it was ", size_,
                          " bytes when opened; truncated since?)");
    }
    done += static_cast<std::size_t>(n);
  }
  return "";
}

}  // namespace train
}  // namespace umbra
