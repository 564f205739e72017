#include "train/model_dir_lock.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"

namespace umbra {
namespace train {
namespace {

std::string LockPath(const std::string& dir) {
  return absl::StrCat(dir, "/", ModelDirLock::kFileName);
}

[[noreturn]] void ThrowCannotWrite(const std::string& dir, int error) {
  throw std::runtime_error(absl::StrCat("cannot write model_dir '", dir,
                                        "': ", std::strerror(error)));
}

// "pid 1234 on host a, started 2026-11-26 12:00:03 UTC"
std::string HolderText() {
  char host[256] = "";
  gethostname(host, sizeof(host) - 1);
  const std::time_t now = std::time(nullptr);
  std::tm utc;
  gmtime_r(&now, &utc);
  char started[32];
  std::strftime(started, sizeof(started), "%Y-%m-%d %H:%M:%S UTC", &utc);
  return absl::StrFormat("pid %d on host %s, started %s", getpid(), host,
                         started);
}

// What the holder wrote into the lock file (at most a line).
std::string ReadHolder(int fd) {
  char text[512];
  const ssize_t got = pread(fd, text, sizeof(text) - 1, 0);
  if (got <= 0) return "";
  std::string holder(text, got);
  return std::string(absl::StripAsciiWhitespace(
      absl::string_view(holder).substr(0, holder.find('\n'))));
}

// NAME.tmp-PID
bool IsTemporaryName(absl::string_view name) {
  const std::size_t mark = name.rfind(".tmp-");
  if (mark == absl::string_view::npos || mark == 0) return false;
  const absl::string_view pid = name.substr(mark + 5);
  return !pid.empty() &&
         std::all_of(pid.begin(), pid.end(), absl::ascii_isdigit);
}

}  // namespace

ModelDirLock::ModelDirLock(const std::string& dir)
    : fd_(open(LockPath(dir).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
  if (fd_ < 0) ThrowCannotWrite(dir, errno);
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    const std::string holder = ReadHolder(fd_);
    close(fd_);
    if (error != EWOULDBLOCK) ThrowCannotWrite(dir, error);
    throw ModelDirBusy(absl::StrCat(
        "model_dir '", dir, "' is in use by another run (",
        holder.empty() ? "which has not written its pid yet" : holder,
        "): two runs in one model_dir would overwrite each other's "
        "checkpoints; wait for it to end, or set another model_dir"));
  }
  const std::string holder = HolderText() + "\n";
  if (ftruncate(fd_, 0) != 0 ||
      pwrite(fd_, holder.data(), holder.size(), 0) !=
          static_cast<ssize_t>(holder.size()) ||
      fsync(fd_) != 0) {
    const int error = errno;
    close(fd_);
    ThrowCannotWrite(dir, error);
  }
}

ModelDirLock::~ModelDirLock() { close(fd_); }

std::vector<std::string> RemoveStaleTemporaries(const std::string& dir) {
  std::vector<std::string> removed;
  DIR* handle = opendir(dir.c_str());
  if (handle == nullptr) return removed;
  while (const dirent* entry = readdir(handle)) {
    const std::string name = entry->d_name;
    if (!IsTemporaryName(name)) continue;
    if (std::remove(absl::StrCat(dir, "/", name).c_str()) == 0) {
      removed.push_back(name);
    }
  }
  closedir(handle);
  std::sort(removed.begin(), removed.end());
  return removed;
}

}  // namespace train
}  // namespace umbra
