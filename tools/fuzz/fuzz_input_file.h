// A fuzz input as a file, for readers that take a path: the bytes live in
// an anonymous in-memory file (memfd) reached as /proc/self/fd/N, reused
// from one input to the next, so a fuzzer runs at memory speed and leaves
// nothing on disk.
//
// Example:
//
//   extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
//     static FuzzInputFile file("idx");
//     file.Set(data, size);
//     ReadIdxBytes(file.path(), kIdxImageMagic);
//     ...
#ifndef UMBRA_TOOLS_FUZZ_FUZZ_INPUT_FILE_H_
#define UMBRA_TOOLS_FUZZ_FUZZ_INPUT_FILE_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace umbra {
namespace tools {

class FuzzInputFile {
 public:
  // `name` shows in /proc/self/fd's link (memfd:NAME). Aborts when the
  // kernel gives no memfd: a fuzzer cannot run without its input.
  explicit FuzzInputFile(const char* name);
  FuzzInputFile(const FuzzInputFile&) = delete;
  FuzzInputFile& operator=(const FuzzInputFile&) = delete;
  ~FuzzInputFile();

  // Makes the file hold exactly these bytes.
  void Set(absl::string_view bytes);
  void Set(const std::uint8_t* data, std::size_t size);

  // The path that opens the file.
  const std::string& path() const { return path_; }

 private:
  int fd_;
  std::string path_;
};

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_FUZZ_FUZZ_INPUT_FILE_H_
