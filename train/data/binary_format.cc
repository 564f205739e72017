#include "train/data/binary_format.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tensor/tensor.h"
#include "train/data/data_error.h"
#include "train/data/dataset.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "The binary data format is read and written with memcpy; "
              "big-endian hosts need byte swapping here.");

namespace umbra {
namespace train {
namespace {

std::size_t DtypeSize(BinaryDtype dtype) {
  return dtype == BinaryDtype::kUint8 ? 1 : 4;
}

void PutUint32(unsigned char* out, std::uint32_t value) {
  std::memcpy(out, &value, 4);
}
void PutUint64(unsigned char* out, std::uint64_t value) {
  std::memcpy(out, &value, 8);
}
std::uint32_t GetUint32(const unsigned char* in) {
  std::uint32_t value;
  std::memcpy(&value, in, 4);
  return value;
}
std::uint64_t GetUint64(const unsigned char* in) {
  std::uint64_t value;
  std::memcpy(&value, in, 8);
  return value;
}

// A file descriptor closed on destruction.
class ScopedFd {
 public:
  explicit ScopedFd(int fd) : fd_(fd) {}
  ScopedFd(const ScopedFd&) = delete;
  ScopedFd& operator=(const ScopedFd&) = delete;
  ~ScopedFd() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }
  // Gives up ownership.
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

class BinaryFileDataset : public Dataset {
 public:
  // Takes ownership of `fd`.
  BinaryFileDataset(std::string path, int fd, const Shape<3>& shape,
                    index_t label_width, BinaryDtype dtype, index_t count)
      : path_(std::move(path)),
        fd_(fd),
        shape_(shape),
        label_width_(label_width),
        dtype_(dtype),
        count_(count),
        record_(shape.Size() * DtypeSize(dtype) + label_width * 4) {}
  ~BinaryFileDataset() override { close(fd_); }

  index_t size() const override { return count_; }
  Shape<3> instance_shape() const override { return shape_; }
  index_t label_width() const override { return label_width_; }
  std::string Describe() const override {
    return absl::StrCat("binary '", path_, "'");
  }

  void Read(index_t index, Tensor<cpu, 1, float> data,
            Tensor<cpu, 1, float> label) override {
    const off_t offset =
        kBinaryHeaderSize + static_cast<off_t>(index) * record_.size();
    std::size_t done = 0;
    while (done < record_.size()) {
      const ssize_t n = pread(fd_, record_.data() + done, record_.size() - done,
                              offset + done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        throw DataError(absl::StrFormat(
            "binary: cannot read record %d of '%s': %s", index, path_,
            n < 0 ? std::strerror(errno)
                  : "unexpected end of file (was "
                    "the file truncated?)"));
      }
      done += n;
    }
    const index_t elements = shape_.Size();
    if (dtype_ == BinaryDtype::kUint8) {
      for (index_t i = 0; i < elements; ++i) data.dptr_[i] = record_[i];
    } else {
      std::memcpy(data.dptr_, record_.data(), elements * 4);
    }
    std::memcpy(label.dptr_, record_.data() + elements * DtypeSize(dtype_),
                label_width_ * 4);
  }

  BinaryFileDataset(const BinaryFileDataset&) = delete;
  BinaryFileDataset& operator=(const BinaryFileDataset&) = delete;

 private:
  std::string path_;
  int fd_;
  Shape<3> shape_;
  index_t label_width_;
  BinaryDtype dtype_;
  index_t count_;
  std::vector<unsigned char> record_;
};

}  // namespace

BinaryDatasetWriter::BinaryDatasetWriter(std::string path,
                                         const Shape<3>& instance_shape,
                                         index_t label_width, BinaryDtype dtype)
    : path_(std::move(path)),
      temp_path_(path_ + ".tmp"),
      shape_(instance_shape),
      label_width_(label_width),
      dtype_(dtype) {
  if (instance_shape.Size() <= 0 || label_width <= 0) {
    throw DataError(absl::StrFormat(
        "binary writer '%s': the instance shape (%d,%d,%d) and label_width "
        "%d must be positive",
        path_, instance_shape[0], instance_shape[1], instance_shape[2],
        label_width));
  }
  file_ = std::fopen(temp_path_.c_str(), "wb");
  if (file_ == nullptr) {
    throw DataError(absl::StrCat("binary writer: cannot create '", temp_path_,
                                 "': ", std::strerror(errno)));
  }
  unsigned char header[kBinaryHeaderSize] = {};
  std::memcpy(header, kBinaryMagic, 8);
  PutUint32(header + 8, kBinaryVersion);
  PutUint32(header + 12, static_cast<std::uint32_t>(dtype));
  PutUint32(header + 16, instance_shape[0]);
  PutUint32(header + 20, instance_shape[1]);
  PutUint32(header + 24, instance_shape[2]);
  PutUint32(header + 28, label_width);
  PutUint64(header + 32, 0);  // the count, written by Finish()
  WriteBytes(header, sizeof(header));
  record_.resize(instance_shape.Size() * DtypeSize(dtype) + label_width * 4);
}

BinaryDatasetWriter::~BinaryDatasetWriter() {
  if (file_ != nullptr) {
    std::fclose(file_);
    std::remove(temp_path_.c_str());
  }
}

void BinaryDatasetWriter::WriteBytes(const void* bytes, std::size_t size) {
  if (file_ == nullptr) {
    throw DataError("binary writer '" + path_ + "': already finished");
  }
  if (std::fwrite(bytes, 1, size, file_) != size) {
    throw DataError(absl::StrCat("binary writer: cannot write '", temp_path_,
                                 "': ", std::strerror(errno)));
  }
}

void BinaryDatasetWriter::Append(Tensor<cpu, 1, float> data,
                                 const std::vector<float>& label) {
  const index_t elements = shape_.Size();
  if (data.size(0) != elements ||
      static_cast<index_t>(label.size()) != label_width_) {
    throw DataError(absl::StrFormat(
        "binary writer '%s': record %d has %d data and %d label values, "
        "expected %d and %d",
        path_, count_, data.size(0), label.size(), elements, label_width_));
  }
  if (dtype_ == BinaryDtype::kUint8) {
    for (index_t i = 0; i < elements; ++i) {
      const float value = data[i];
      if (!(value >= 0 && value <= 255 && value == std::floor(value))) {
        throw DataError(absl::StrFormat(
            "binary writer '%s': record %d, element %d is %g; uint8 data must "
            "be integers in 0..255",
            path_, count_, i, value));
      }
      record_[i] = static_cast<unsigned char>(value);
    }
  } else {
    std::memcpy(record_.data(), data.dptr_, elements * 4);
  }
  std::memcpy(record_.data() + elements * DtypeSize(dtype_), label.data(),
              label_width_ * 4);
  WriteBytes(record_.data(), record_.size());
  ++count_;
}

void BinaryDatasetWriter::Finish() {
  unsigned char count[8];
  PutUint64(count, count_);
  if (file_ == nullptr) {
    throw DataError("binary writer '" + path_ + "': already finished");
  }
  if (std::fseek(file_, 32, SEEK_SET) != 0) {
    throw DataError(absl::StrCat("binary writer: cannot seek in '", temp_path_,
                                 "': ", std::strerror(errno)));
  }
  WriteBytes(count, sizeof(count));
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!closed || std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(temp_path_.c_str());
    throw DataError(
        absl::StrCat("binary writer: cannot finish '", path_, "': ", reason));
  }
}

std::unique_ptr<Dataset> OpenBinaryDataset(const std::string& path) {
  ScopedFd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    throw DataError(
        absl::StrCat("cannot open '", path, "': ", std::strerror(errno)));
  }
  struct stat info;
  if (fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode)) {
    throw DataError(absl::StrCat("'", path, "' is not a regular file"));
  }
  const std::uint64_t file_size = info.st_size;
  unsigned char header[kBinaryHeaderSize];
  if (file_size < kBinaryHeaderSize ||
      pread(fd.get(), header, sizeof(header), 0) !=
          static_cast<ssize_t>(sizeof(header))) {
    throw DataError(
        absl::StrFormat("'%s': truncated header: %d bytes, the header needs %d",
                        path, file_size, kBinaryHeaderSize));
  }
  if (std::memcmp(header, kBinaryMagic, 8) != 0) {
    throw DataError(absl::StrCat("'", path,
                                 "': bad magic number, expected \"UMBRADAT\" "
                                 "(not an umbra binary data file)"));
  }
  const std::uint32_t version = GetUint32(header + 8);
  if (version != kBinaryVersion) {
    throw DataError(
        absl::StrFormat("'%s': format version %d, this reader knows version %d",
                        path, version, kBinaryVersion));
  }
  const std::uint32_t dtype_code = GetUint32(header + 12);
  if (dtype_code != static_cast<std::uint32_t>(BinaryDtype::kUint8) &&
      dtype_code != static_cast<std::uint32_t>(BinaryDtype::kFloat32)) {
    throw DataError(absl::StrFormat(
        "'%s': unknown dtype %d, expected 1 (uint8) or 2 (float32)", path,
        dtype_code));
  }
  const auto dtype = static_cast<BinaryDtype>(dtype_code);
  const std::uint64_t dims[4] = {GetUint32(header + 16), GetUint32(header + 20),
                                 GetUint32(header + 24),
                                 GetUint32(header + 28)};
  const std::uint64_t count = GetUint64(header + 32);
  const std::uint64_t available = file_size - kBinaryHeaderSize;
  for (int i = 0; i < 4; ++i) {
    if (dims[i] == 0) {
      throw DataError(absl::StrFormat(
          "'%s': the header's shape (%d,%d,%d) and label_width %d must be "
          "positive",
          path, dims[0], dims[1], dims[2], dims[3]));
    }
  }
  // The products are checked for overflow as they are formed; nothing is
  // allocated from them, they are only compared with the file's size.
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  bool overflow = false;
  auto multiply = [&](std::uint64_t a, std::uint64_t b) {
    if (b != 0 && a > kMax / b) overflow = true;
    return overflow ? 0 : a * b;
  };
  const std::uint64_t elements = multiply(multiply(dims[0], dims[1]), dims[2]);
  const std::uint64_t data_bytes = multiply(elements, DtypeSize(dtype));
  const std::uint64_t record = data_bytes + dims[3] * 4;
  if (record < data_bytes) overflow = true;
  const std::uint64_t needed = multiply(record, count);
  if (overflow || needed != available) {
    throw DataError(absl::StrFormat(
        "'%s': the header claims %d records of shape (%d,%d,%d) with %d "
        "labels, which need %s bytes after the header; the file has %d (%s)",
        path, count, dims[0], dims[1], dims[2], dims[3],
        overflow ? "more than 2^64" : std::to_string(needed), available,
        overflow || needed > available ? "truncated file or corrupt header"
                                       : "trailing bytes"));
  }
  if (count == 0) {
    throw DataError(absl::StrCat("'", path, "' holds no records"));
  }
  return std::make_unique<BinaryFileDataset>(path, fd.release(),
                                             Shape3(dims[0], dims[1], dims[2]),
                                             dims[3], dtype, count);
}

}  // namespace train
}  // namespace umbra
