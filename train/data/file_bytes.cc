#include "train/data/file_bytes.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "train/data/data_error.h"

namespace umbra {
namespace train {
namespace {

// Closes the gzFile on every path out.
class GzFileCloser {
 public:
  explicit GzFileCloser(gzFile file) : file_(file) {}
  GzFileCloser(const GzFileCloser&) = delete;
  GzFileCloser& operator=(const GzFileCloser&) = delete;
  ~GzFileCloser() { gzclose(file_); }

 private:
  gzFile file_;
};

}  // namespace

std::string ReadFileBytes(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    throw DataError("cannot open '" + path + "': " + std::strerror(errno));
  }
  // gzdopen owns fd from here on (gzclose closes it); it reads plain files
  // as they are.
  gzFile file = gzdopen(fd, "rb");
  if (file == nullptr) {
    close(fd);
    throw DataError("cannot open '" + path + "': out of memory");
  }
  GzFileCloser closer(file);
  std::string bytes;
  char chunk[1 << 16];
  while (true) {
    const int n = gzread(file, chunk, sizeof(chunk));
    if (n < 0) break;
    bytes.append(chunk, n);
    if (n < static_cast<int>(sizeof(chunk))) break;
  }
  int errnum = Z_OK;
  const char* message = gzerror(file, &errnum);
  if (errnum == Z_ERRNO) {
    throw DataError("cannot read '" + path + "': " + std::strerror(errno));
  }
  if (errnum != Z_OK && errnum != Z_STREAM_END) {
    throw DataError("cannot read '" + path + "': " + message +
                    " (a truncated or corrupt gzip file?)");
  }
  return bytes;
}

}  // namespace train
}  // namespace umbra
