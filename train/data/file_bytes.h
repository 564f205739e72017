// File reading (and writing) for the data sources and their tools: a plain or
// gzip-compressed file (told apart by its content, not its name), read whole up
// to a limit, read as a prefix (a header), or streamed line by line. No read is
// unbounded: an endless stream (/dev/zero) or a file far larger than it claims
// stops at the limit with an error that names the file.
//
// Example:
//
//   std::string head = ReadFilePrefix("train-images.gz", 16);  // the header
//   std::string bytes = ReadFileBytes("train-images.gz", 47040016);
//   ForEachFileLine("train.csv", kMaxLineBytes,
//                   [](int line, absl::string_view text) { ... });
//
// Buffers grow with the bytes actually read, so a header that claims a huge
// size never causes a huge allocation.
#ifndef UMBRA_TRAIN_DATA_FILE_BYTES_H_
#define UMBRA_TRAIN_DATA_FILE_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "absl/strings/string_view.h"
#include "train/data/data_error.h"

namespace umbra {
namespace train {

// The most ReadFileBytes reads when its caller knows no better bound: the
// lists and indexes of the image iterators, CIFAR files (1 GiB).
inline constexpr std::uint64_t kMaxFileBytes = std::uint64_t{1} << 30;

// The (decompressed) content of the file at `path`. Throws DataError
// "cannot open 'path': No such file or directory", "cannot read 'path':
// <zlib message>" (e.g. a truncated gzip stream), or "'path' holds more than
// N bytes, ..." when it holds more than `max_bytes` (read no further).
std::string ReadFileBytes(const std::string& path,
                          std::uint64_t max_bytes = kMaxFileBytes);

// The first `count` (decompressed) bytes of the file at `path`, fewer when
// it is shorter (memory grows with what is read, not with `count`). Throws
// DataError as ReadFileBytes.
std::string ReadFilePrefix(const std::string& path, std::uint64_t count);

// Calls visit(line_number, line) for every line of the (decompressed) file
// at `path`, numbered from 1, without its '\n', reading a chunk at a time:
// memory holds one line, never the file. Throws DataError as ReadFileBytes,
// and "path:N: a line of more than M bytes (not a text file?)" for a line
// longer than `max_line_bytes`.
void ForEachFileLine(
    const std::string& path, std::size_t max_line_bytes,
    const std::function<void(int line_number, absl::string_view line)>& visit);

// Writes `bytes` to the file at `path`, created or truncated. Throws
// DataError "cannot create 'path': ..." or "cannot write 'path': ...".
void WriteFileBytes(const std::string& path, absl::string_view bytes);

// Runs `read` and prefixes the message of any DataError it throws with
// "<what>: key '<key>': ", keeping `key` in the rethrown error.
template <typename Function>
auto WithKeyContext(const std::string& what, const std::string& key,
                    Function read) -> decltype(read());

}  // namespace train
}  // namespace umbra

namespace umbra {
namespace train {

template <typename Function>
auto WithKeyContext(const std::string& what, const std::string& key,
                    Function read) -> decltype(read()) {
  try {
    return read();
  } catch (const DataError& e) {
    throw DataError(what + ": key '" + key + "': " + e.what(), key);
  }
}

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_DATA_FILE_BYTES_H_
