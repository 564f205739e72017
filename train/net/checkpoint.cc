#include "train/net/checkpoint.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "param/quote.h"

// renameat2's flag (<linux/fs.h>): fail with EEXIST instead of replacing.
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

namespace umbra {
namespace train {

int RenameNoReplace(const std::string& from, const std::string& to) {
#ifdef SYS_renameat2
  if (syscall(SYS_renameat2, AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(),
              RENAME_NOREPLACE) == 0) {
    return 0;
  }
  // Other errors are the move's own; these say the kernel or the file
  // system lacks the flag, and link() does the same job.
  if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) return errno;
#endif
  if (link(from.c_str(), to.c_str()) != 0) return errno;
  unlink(from.c_str());
  return 0;
}

void NewFile::RefuseExisting(const std::string& path) {
  struct stat info;
  if (lstat(path.c_str(), &info) == 0) {
    throw FileExistsError(absl::StrCat(
        "'", path, "' exists", S_ISDIR(info.st_mode) ? " (a directory)" : "",
        ", and umbra does not overwrite files: remove it or name another "
        "file"));
  }
}

NewFile::NewFile(const std::string& path, const std::string& what)
    : path_(path), what_(what) {
  RefuseExisting(path);
  for (int attempt = 0;; ++attempt) {
    temp_path_ = absl::StrCat(path, ".tmp-", getpid());
    if (attempt > 0) absl::StrAppend(&temp_path_, "-", attempt);
    const int fd =
        open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      file_ = fdopen(fd, "wb");
      if (file_ != nullptr) return;
      const int fdopen_errno = errno;
      close(fd);
      unlink(temp_path_.c_str());
      errno = fdopen_errno;
    } else if (errno == EEXIST && attempt < 100) {
      continue;  // another writer's temporary file: never touch it
    }
    throw FileWriteError(absl::StrCat("cannot write ", what, " to '", path,
                                      "': ", std::strerror(errno)));
  }
}

NewFile::~NewFile() {
  if (file_ != nullptr) std::fclose(file_);
  if (!done_) unlink(temp_path_.c_str());
}

void NewFile::Write(absl::string_view bytes) {
  if (file_ == nullptr || write_errno_ != 0) return;
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    write_errno_ = errno != 0 ? errno : EIO;
  }
}

void NewFile::Commit() {
  if (file_ == nullptr) {
    throw FileWriteError(
        absl::StrCat("'", path_, "' is committed already; Commit() once"));
  }
  if ((std::fflush(file_) != 0 || fsync(fileno(file_)) != 0) &&
      write_errno_ == 0) {
    write_errno_ = errno;
  }
  if (std::fclose(file_) != 0 && write_errno_ == 0) write_errno_ = errno;
  file_ = nullptr;
  if (write_errno_ != 0) {
    throw FileWriteError(absl::StrCat("cannot write ", what_, " to '", path_,
                                      "': ", std::strerror(write_errno_)));
  }
  const int move_errno = RenameNoReplace(temp_path_, path_);
  // Moved, or complete but not movable: then it stays where it is, named.
  done_ = true;
  if (move_errno == 0) return;
  if (move_errno == EEXIST) {
    throw FileExistsError(
        absl::StrCat("'", path_, "' appeared while writing ", what_,
                     ", and umbra does not overwrite files: the output is in '",
                     temp_path_, "'"));
  }
  throw FileWriteError(absl::StrCat(
      "cannot move ", what_, " from '", temp_path_, "' to '", path_,
      "' without risking to replace a file there (", std::strerror(move_errno),
      "; this needs renameat2 with RENAME_NOREPLACE or hard links): the "
      "output is in '",
      temp_path_, "'"));
}

uint64_t Fnv1a64(absl::string_view bytes) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

void ReplaceFile(const std::string& path, absl::string_view bytes,
                 const std::string& what) {
  const std::string temp = absl::StrCat(path, ".tmp-", getpid());
  FILE* out = std::fopen(temp.c_str(), "wb");
  if (out == nullptr) {
    throw FileWriteError(absl::StrCat("cannot write ", what, " '", temp,
                                      "': ", std::strerror(errno)));
  }
  const bool written =
      std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size() &&
      std::fflush(out) == 0 && fsync(fileno(out)) == 0;
  const int write_errno = errno;
  const bool closed = std::fclose(out) == 0;
  if (!written || !closed) {
    std::remove(temp.c_str());
    throw FileWriteError(absl::StrCat("cannot write ", what, " '", temp,
                                      "': ", std::strerror(write_errno)));
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    std::remove(temp.c_str());
    throw FileWriteError(absl::StrCat("cannot rename '", temp, "' to '", path,
                                      "': ", std::strerror(rename_errno)));
  }
}

void WriteCheckpoint(const std::string& path, const Checkpoint& checkpoint) {
  CheckpointFile file;
  file.set_magic(std::string(kCheckpointMagic));
  file.set_format_version(kCheckpointFormatVersion);
  if (!checkpoint.SerializeToString(file.mutable_payload())) {
    throw CheckpointError(
        absl::StrCat("cannot serialize the checkpoint for '", path, "'"));
  }
  file.set_checksum(Fnv1a64(file.payload()));
  std::string bytes;
  file.SerializeToString(&bytes);

  try {
    ReplaceFile(path, bytes, "checkpoint");
  } catch (const FileWriteError& e) {
    throw CheckpointError(e.what());
  }
}

namespace {

// Protobuf parses messages of less than 2 GiB.
constexpr std::size_t kMaxCheckpointBytes = (std::size_t{1} << 31) - 1;

// Up to `count` bytes from `fd`, fewer at its end; errno is 0 unless a read
// failed.
std::string ReadAtMost(int fd, std::size_t count) {
  std::string bytes;
  char chunk[1 << 16];
  errno = 0;
  while (bytes.size() < count) {
    const ssize_t got =
        read(fd, chunk, std::min(sizeof(chunk), count - bytes.size()));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    errno = 0;
    bytes.append(chunk, got);
  }
  return bytes;
}

}  // namespace

Checkpoint ReadCheckpoint(const std::string& path) {
  struct stat info;
  if (stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    const std::optional<std::string> newest = NewestCheckpoint(path);
    throw CheckpointError(absl::StrCat(
        "'", path, "' is a directory, not a checkpoint",
        newest ? absl::StrCat("; its newest checkpoint is '", *newest, "'")
               : std::string(" (it has no NNNN.model file)")));
  }
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    throw CheckpointError(absl::StrCat("cannot open checkpoint '", path,
                                       "': ", std::strerror(errno)));
  }
  // Every checkpoint starts with its magic field (the lowest field number
  // is serialized first); a file cut inside it is still one of ours. It is
  // read first, so that another file (or an endless stream) is refused
  // having read a few bytes; the rest is read up to protobuf's limit.
  CheckpointFile file;
  file.set_magic(std::string(kCheckpointMagic));
  const std::string magic_field = file.SerializeAsString();
  std::string bytes = ReadAtMost(fd, magic_field.size());
  if (absl::StartsWith(bytes, magic_field)) {
    bytes += ReadAtMost(fd, kMaxCheckpointBytes + 1 - bytes.size());
  }
  const int read_error = errno;
  close(fd);
  const std::string prefix =
      absl::StrCat("checkpoint '", path, "' (", bytes.size(), " bytes): ");
  if (bytes.size() > kMaxCheckpointBytes) {
    throw CheckpointError(absl::StrCat(
        "checkpoint '", path, "' holds more than ", kMaxCheckpointBytes,
        " bytes, protobuf's limit: not a checkpoint umbra wrote"));
  }
  if (read_error != 0 && bytes.empty()) {
    throw CheckpointError(absl::StrCat("cannot read checkpoint '", path,
                                       "': ", std::strerror(read_error)));
  }
  if (bytes.empty()) {
    throw CheckpointError(prefix + "the file is empty");
  }
  if (!absl::StartsWith(bytes, magic_field)) {
    throw CheckpointError(prefix + (absl::StartsWith(magic_field, bytes)
                                        ? "the file is truncated (it ends "
                                          "inside the header)"
                                        : "not an umbra checkpoint"));
  }
  if (!file.ParseFromString(bytes)) {
    throw CheckpointError(prefix +
                          "the file is truncated or corrupted (it does not "
                          "parse as a checkpoint)");
  }
  if (file.payload().empty()) {
    throw CheckpointError(prefix + "the file is truncated (no payload)");
  }
  if (file.format_version() != kCheckpointFormatVersion) {
    throw CheckpointError(absl::StrCat(
        prefix, "format version ", file.format_version(),
        "; this trainer reads version ", kCheckpointFormatVersion));
  }
  const uint64_t checksum = Fnv1a64(file.payload());
  if (checksum != file.checksum()) {
    throw CheckpointError(absl::StrFormat(
        "%sthe checksum does not match (stored %016x, computed %016x): the "
        "file is truncated or corrupted",
        prefix, file.checksum(), checksum));
  }
  Checkpoint checkpoint;
  if (!checkpoint.ParseFromString(file.payload())) {
    throw CheckpointError(prefix + "the payload does not parse");
  }
  // Each round trained is one pass over the training data, which a resume
  // replays: counts beyond that are not a checkpoint umbra wrote (and would
  // have a resume skip passes without end).
  const int64_t passes = checkpoint.rng().data_passes();
  if (checkpoint.round() < 0 || checkpoint.num_update() < 0 || passes < 0 ||
      passes > checkpoint.round() || checkpoint.updater().round() < 0 ||
      checkpoint.updater().num_update() < 0) {
    throw CheckpointError(
        absl::StrCat(prefix, "impossible progress (round ", checkpoint.round(),
                     ", ", checkpoint.num_update(), " updates, ", passes,
                     " passes over the data): not a checkpoint umbra wrote"));
  }
  return checkpoint;
}

std::string FirstNonFiniteTensor(const Checkpoint& checkpoint) {
  const auto finite = [](const TensorProto& tensor) {
    const std::string& data = tensor.data();
    for (std::size_t at = 0; at + sizeof(float) <= data.size();
         at += sizeof(float)) {
      float value;
      std::memcpy(&value, data.data() + at, sizeof(float));
      if (!std::isfinite(value)) return false;
    }
    return true;
  };
  for (const auto* tensors : {&checkpoint.weights(), &checkpoint.states(),
                              &checkpoint.updater().tensors()}) {
    for (const TensorProto& tensor : *tensors) {
      if (!finite(tensor)) return tensor.name();
    }
  }
  return "";
}

void MakeDirectories(const std::string& dir) {
  // Too long a path fails only deep down; say so before making anything.
  if (dir.size() >= PATH_MAX) {
    throw CheckpointError(absl::StrFormat(
        "cannot create directory %s: the path has %d bytes, the limit is %d",
        QuoteShort(dir), dir.size(), PATH_MAX - 1));
  }
  for (absl::string_view part : absl::StrSplit(dir, '/')) {
    if (part.size() > NAME_MAX) {
      throw CheckpointError(absl::StrFormat(
          "cannot create directory %s: its part %s has %d bytes, the limit "
          "is %d",
          QuoteShort(dir), QuoteShort(part), part.size(), NAME_MAX));
    }
  }
  std::vector<std::string> made;
  for (size_t i = 1; i <= dir.size(); ++i) {
    if (i < dir.size() && dir[i] != '/') continue;
    const std::string prefix = dir.substr(0, i);
    if (mkdir(prefix.c_str(), 0777) == 0) {
      made.push_back(prefix);
    } else if (errno != EEXIST) {
      const int error = errno;
      // Leave nothing of a failed start behind.
      for (auto it = made.rbegin(); it != made.rend(); ++it) rmdir(it->c_str());
      throw CheckpointError(absl::StrCat("cannot create directory ",
                                         QuoteShort(prefix), ": ",
                                         std::strerror(error)));
    }
  }
}

std::string CheckpointPath(const std::string& dir, int round) {
  return absl::StrFormat("%s/%04d.model", dir, round);
}

std::optional<std::string> NewestCheckpoint(const std::string& dir) {
  DIR* handle = opendir(dir.c_str());
  if (handle == nullptr) return std::nullopt;
  int best = -1;
  std::string best_name;
  while (dirent* entry = readdir(handle)) {
    absl::string_view name = entry->d_name;
    if (!absl::ConsumeSuffix(&name, ".model")) continue;
    int round = 0;
    if (name.empty() || !absl::SimpleAtoi(name, &round) || round < 0) continue;
    if (round > best) {
      best = round;
      best_name = entry->d_name;
    }
  }
  closedir(handle);
  if (best < 0) return std::nullopt;
  return absl::StrCat(dir, "/", best_name);
}

TensorProto MakeTensorProto(const std::string& name,
                            const std::vector<int64_t>& shape,
                            const float* values, size_t count) {
  TensorProto proto;
  proto.set_name(name);
  for (int64_t d : shape) proto.add_shape(d);
  proto.set_dtype("float32");
  proto.set_data(std::string(reinterpret_cast<const char*>(values),
                             count * sizeof(float)));
  return proto;
}

void ReadTensorProto(const TensorProto& proto, float* out, size_t count,
                     const std::string& what) {
  if (proto.dtype() != "float32") {
    throw CheckpointError(absl::StrCat(what, " has dtype '", proto.dtype(),
                                       "'; expected float32"));
  }
  if (proto.data().size() != count * sizeof(float)) {
    throw CheckpointError(
        absl::StrCat(what, " has ", proto.data().size(), " bytes; expected ",
                     count * sizeof(float), " (", count, " floats)"));
  }
  // An empty tensor may come with no memory at all (memcpy takes no null).
  if (count > 0) std::memcpy(out, proto.data().data(), proto.data().size());
}

}  // namespace train
}  // namespace umbra
