#include "train/data/file_bytes.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "train/data/data_error.h"

namespace umbra {
namespace train {
namespace {

// A plain or gzip file open for reading in chunks; closes it on every path
// out.
class GzReader {
 public:
  explicit GzReader(const std::string& path) : path_(path) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      throw DataError("cannot open '" + path + "': " + std::strerror(errno));
    }
    // gzdopen owns fd from here on (gzclose closes it); it reads plain
    // files as they are.
    file_ = gzdopen(fd, "rb");
    if (file_ == nullptr) {
      close(fd);
      throw DataError("cannot open '" + path + "': out of memory");
    }
  }
  GzReader(const GzReader&) = delete;
  GzReader& operator=(const GzReader&) = delete;
  ~GzReader() { gzclose(file_); }

  // Reads up to `size` bytes into `data`; returns how many (0 at the end).
  // Throws DataError for a read error or a corrupt gzip stream.
  std::size_t Read(char* data, std::size_t size) {
    const int got = gzread(file_, data, static_cast<unsigned>(size));
    int errnum = Z_OK;
    const char* message = gzerror(file_, &errnum);
    if (errnum == Z_ERRNO) {
      throw DataError("cannot read '" + path_ + "': " + std::strerror(errno));
    }
    if (got < 0 || (errnum != Z_OK && errnum != Z_STREAM_END)) {
      throw DataError("cannot read '" + path_ + "': " + message +
                      " (a truncated or corrupt gzip file?)");
    }
    return static_cast<std::size_t>(got);
  }

 private:
  std::string path_;
  gzFile file_;
};

constexpr std::size_t kChunkBytes = 1 << 16;

}  // namespace

std::string ReadFilePrefix(const std::string& path, std::uint64_t count) {
  GzReader reader(path);
  // Grows with what is read, whatever `count` claims.
  std::string bytes;
  char chunk[kChunkBytes];
  while (bytes.size() < count) {
    const std::size_t got =
        reader.Read(chunk, static_cast<std::size_t>(std::min<std::uint64_t>(
                               sizeof(chunk), count - bytes.size())));
    if (got == 0) break;
    bytes.append(chunk, got);
  }
  return bytes;
}

std::string ReadFileBytes(const std::string& path, std::uint64_t max_bytes) {
  std::string bytes = ReadFilePrefix(path, max_bytes + 1);
  if (bytes.size() > max_bytes) {
    throw DataError(absl::StrCat("'", path, "' holds more than ", max_bytes,
                                 " bytes, the most expected of it"));
  }
  return bytes;
}

void ForEachFileLine(
    const std::string& path, std::size_t max_line_bytes,
    const std::function<void(int line_number, absl::string_view line)>& visit) {
  GzReader reader(path);
  std::string pending;  // the start of a line that goes on in the next chunk
  char chunk[kChunkBytes];
  int line_number = 0;
  const auto check_length = [&](std::size_t length) {
    if (length > max_line_bytes) {
      throw DataError(absl::StrCat(path, ":", line_number + 1,
                                   ": a line of more than ", max_line_bytes,
                                   " bytes (not a text file?)"));
    }
  };
  while (std::size_t got = reader.Read(chunk, sizeof(chunk))) {
    absl::string_view rest(chunk, got);
    for (std::size_t end; (end = rest.find('\n')) != absl::string_view::npos;
         rest.remove_prefix(end + 1)) {
      check_length(pending.size() + end);
      ++line_number;
      if (pending.empty()) {
        visit(line_number, rest.substr(0, end));
      } else {
        pending.append(rest.data(), end);
        visit(line_number, pending);
        pending.clear();
      }
    }
    check_length(pending.size() + rest.size());
    pending.append(rest.data(), rest.size());
  }
  if (!pending.empty()) visit(++line_number, pending);
}

void WriteFileBytes(const std::string& path, absl::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    throw DataError(
        absl::StrCat("cannot create '", path, "': ", std::strerror(errno)));
  }
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) {
    throw DataError(
        absl::StrCat("cannot write '", path, "': ", std::strerror(errno)));
  }
}

}  // namespace train
}  // namespace umbra
