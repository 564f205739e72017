// An LD_PRELOAD library for crash-safety tests: it kills its process with
// SIGKILL at one chosen moment of its file output, as a power cut or the
// OOM killer would, with no chance to clean up. The moment is
//
//   UMBRA_KILL_AT=CALL:PATTERN:N
//
// the N-th call (from 1) of CALL on a file whose path contains PATTERN:
//
//   open          fopen, before the file is opened
//   write         fwrite or write, before any byte is written
//   write-half    fwrite or write: half the bytes written (and flushed),
//                 then killed
//   fsync         before the data is synced
//   rename        before the rename (PATTERN matches the old path)
//   rename-after  after the rename is done
//
// Example: kill in the middle of writing the second checkpoint:
//
//   export UMBRA_KILL_AT=write-half:0002.model.tmp-:1
//   LD_PRELOAD=bazel-bin/train/kill_at_preload.so bazel-bin/train/train my.conf
//
// Only calls that cross into the C library are seen (umbra's own calls,
// and libstdc++'s writes for std::ofstream), which are every output the
// trainer makes.
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

struct KillPoint {
  std::string call;
  std::string pattern;
  long count = 0;  // 0: no kill point set
};

const KillPoint& Point() {
  static const KillPoint point = [] {
    KillPoint parsed;
    const char* spec = std::getenv("UMBRA_KILL_AT");
    if (spec == nullptr) return parsed;
    const std::string text = spec;
    const size_t first = text.find(':');
    const size_t last = text.rfind(':');
    if (first == std::string::npos || first == last) {
      std::fprintf(stderr,
                   "kill_at: UMBRA_KILL_AT='%s' is not CALL:PATTERN:N\n", spec);
      std::abort();
    }
    parsed.call = text.substr(0, first);
    parsed.pattern = text.substr(first + 1, last - first - 1);
    parsed.count = std::atol(text.c_str() + last + 1);
    return parsed;
  }();
  return point;
}

// Whether this is the call to kill at: the N-th of `call` on a matching
// path. Counts every matching call.
bool IsKillPoint(const char* call, const std::string& path) {
  static long seen = 0;
  const KillPoint& point = Point();
  if (point.count == 0 || point.call != call ||
      path.find(point.pattern) == std::string::npos) {
    return false;
  }
  return ++seen == point.count;
}

std::string PathOfFd(int fd) {
  char link[64];
  std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  char target[4096];
  const ssize_t size = readlink(link, target, sizeof target - 1);
  return size > 0 ? std::string(target, size) : std::string();
}

[[noreturn]] void Die() {
  kill(getpid(), SIGKILL);
  _exit(137);  // not reached
}

template <typename Function>
Function Next(const char* name) {
  return reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" {

FILE* fopen(const char* path, const char* mode) {
  static auto real = Next<FILE* (*)(const char*, const char*)>("fopen");
  if (IsKillPoint("open", path)) Die();
  return real(path, mode);
}

FILE* fopen64(const char* path, const char* mode) {
  static auto real = Next<FILE* (*)(const char*, const char*)>("fopen64");
  if (IsKillPoint("open", path)) Die();
  return real(path, mode);
}

size_t fwrite(const void* data, size_t size, size_t count, FILE* file) {
  static auto real =
      Next<size_t (*)(const void*, size_t, size_t, FILE*)>("fwrite");
  const std::string path = PathOfFd(fileno(file));
  if (IsKillPoint("write", path)) Die();
  if (IsKillPoint("write-half", path)) {
    real(data, 1, size * count / 2, file);
    fflush(file);
    Die();
  }
  return real(data, size, count, file);
}

ssize_t write(int fd, const void* data, size_t size) {
  static auto real = Next<ssize_t (*)(int, const void*, size_t)>("write");
  const std::string path = PathOfFd(fd);
  if (IsKillPoint("write", path)) Die();
  if (IsKillPoint("write-half", path)) {
    real(fd, data, size / 2);
    Die();
  }
  return real(fd, data, size);
}

int fsync(int fd) {
  static auto real = Next<int (*)(int)>("fsync");
  if (IsKillPoint("fsync", PathOfFd(fd))) Die();
  return real(fd);
}

int rename(const char* from, const char* to) {
  static auto real = Next<int (*)(const char*, const char*)>("rename");
  if (IsKillPoint("rename", from)) Die();
  const bool after = IsKillPoint("rename-after", from);
  const int result = real(from, to);
  if (after) Die();
  return result;
}

}  // extern "C"
