#include "tools/fuzz/fuzz_input_file.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace umbra {
namespace tools {
namespace {

[[noreturn]] void Die(const char* what) {
  std::fprintf(stderr, "FuzzInputFile: %s: %s\n", what, std::strerror(errno));
  std::abort();
}

}  // namespace

FuzzInputFile::FuzzInputFile(const char* name)
    : fd_(memfd_create(name, MFD_CLOEXEC)) {
  if (fd_ < 0) Die("memfd_create");
  path_ = absl::StrCat("/proc/self/fd/", fd_);
}

FuzzInputFile::~FuzzInputFile() { close(fd_); }

void FuzzInputFile::Set(absl::string_view bytes) {
  if (ftruncate(fd_, 0) != 0) Die("ftruncate");
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n =
        pwrite(fd_, bytes.data() + written, bytes.size() - written, written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) Die("pwrite");
    written += n;
  }
}

void FuzzInputFile::Set(const std::uint8_t* data, std::size_t size) {
  Set(absl::string_view(reinterpret_cast<const char*>(data), size));
}

}  // namespace tools
}  // namespace umbra
