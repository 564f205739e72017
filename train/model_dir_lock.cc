#include "train/model_dir_lock.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
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
#include "absl/strings/str_split.h"
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

// "2026-11-26 12:00:03 UTC"
std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm utc;
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S UTC", &utc);
  return text;
}

// "pid 1234 on host a, started 2026-11-26 12:00:03 UTC"
std::string HolderText() {
  char host[256] = "";
  gethostname(host, sizeof(host) - 1);
  return absl::StrFormat("pid %d on host %s, started %s", getpid(), host,
                         UtcNow());
}

// The record's lines after the holder's.
constexpr char kSavesCheckpoints[] = "saves checkpoints";
constexpr char kSavesNoCheckpoints[] = "saves no checkpoints";
constexpr char kEnded[] = "ended";

// What the holder wrote into the lock file (at most a few lines).
LastRun ReadRecord(int fd) {
  char text[1024];
  const ssize_t got = pread(fd, text, sizeof(text), 0);
  LastRun record;
  if (got <= 0) return record;
  const std::vector<absl::string_view> lines =
      absl::StrSplit(absl::string_view(text, got), '\n');
  record.holder = std::string(absl::StripAsciiWhitespace(lines[0]));
  for (absl::string_view line : lines) {
    if (line == kSavesCheckpoints) record.saves_checkpoints = true;
    if (absl::StartsWith(line, kEnded)) record.ended = true;
  }
  return record;
}

// Writes `text` at `offset` of the file and syncs it; errno on failure.
bool WriteAt(int fd, const std::string& text, off_t offset) {
  return pwrite(fd, text.data(), text.size(), offset) ==
             static_cast<ssize_t>(text.size()) &&
         fsync(fd) == 0;
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

ModelDirLock::ModelDirLock(const std::string& dir, bool saves_checkpoints)
    : fd_(open(LockPath(dir).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
  if (fd_ < 0) ThrowCannotWrite(dir, errno);
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    const std::string holder = ReadRecord(fd_).holder;
    close(fd_);
    if (error != EWOULDBLOCK) ThrowCannotWrite(dir, error);
    throw ModelDirBusy(absl::StrCat(
        "model_dir '", dir, "' is in use by another run (",
        holder.empty() ? "which has not written its pid yet" : holder,
        "): two runs in one model_dir would overwrite each other's "
        "checkpoints; wait for it to end, or set another model_dir"));
  }
  const std::string record = absl::StrCat(
      HolderText(), "\n",
      saves_checkpoints ? kSavesCheckpoints : kSavesNoCheckpoints, "\n");
  if (ftruncate(fd_, 0) != 0 || !WriteAt(fd_, record, 0)) {
    const int error = errno;
    close(fd_);
    ThrowCannotWrite(dir, error);
  }
}

ModelDirLock::~ModelDirLock() {
  // Best effort: a run whose end is not recorded counts as killed.
  struct stat info;
  if (fstat(fd_, &info) == 0) {
    WriteAt(fd_, absl::StrCat(kEnded, " ", UtcNow(), "\n"), info.st_size);
  }
  close(fd_);
}

LastRun ReadLastRun(const std::string& dir) {
  const int fd = open(LockPath(dir).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  LastRun record = ReadRecord(fd);
  close(fd);
  return record;
}

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

std::string FreeSpaceWarning(const std::string& dir,
                             std::uint64_t checkpoint_bytes) {
  struct statvfs file_system;
  if (statvfs(dir.c_str(), &file_system) != 0) return "";
  const std::uint64_t free_bytes =
      std::uint64_t{file_system.f_bavail} * file_system.f_frsize;
  if (free_bytes >= checkpoint_bytes) return "";
  const auto mib = [](std::uint64_t bytes) {
    return absl::StrFormat("%.1f MiB", bytes / 1048576.0);
  };
  return absl::StrCat("model_dir '", dir, "' has ", mib(free_bytes),
                      " free, less than one checkpoint (",
                      mib(checkpoint_bytes),
                      "): saving it will fail unless space is freed; set "
                      "another model_dir, or save_model = 0 to save none");
}

}  // namespace train
}  // namespace umbra
