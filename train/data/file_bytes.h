// Whole-file reading for the data sources: a plain or gzip-compressed file
// (told apart by its content, not its name) into memory.
//
// Example:
//
//   std::string bytes = ReadFileBytes("train-labels-idx1-ubyte.gz");
//
// The buffer grows with the bytes actually read, so a corrupt header that
// claims a huge size never causes a huge allocation; callers check what a
// header claims against bytes.size().
#ifndef UMBRA_TRAIN_DATA_FILE_BYTES_H_
#define UMBRA_TRAIN_DATA_FILE_BYTES_H_

#include <string>

namespace umbra {
namespace train {

// The (decompressed) content of the file at `path`. Throws DataError
// "cannot open 'path': No such file or directory", "cannot read 'path':
// <zlib message>" (e.g. a truncated gzip stream), ...
std::string ReadFileBytes(const std::string& path);

// Runs `read` and prefixes the message of any DataError it throws with
// "<what>: key '<key>': ", keeping `key` in the rethrown error.
template <typename Function>
auto WithKeyContext(const std::string& what, const std::string& key,
                    Function read) -> decltype(read());

}  // namespace train
}  // namespace umbra

#include "train/data/data_error.h"

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
