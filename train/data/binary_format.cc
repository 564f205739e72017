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

// The number of elements of every extra input together.
index_t ExtraElements(const std::vector<Shape<3>>& shapes) {
  index_t total = 0;
  for (const Shape<3>& shape : shapes) total += shape.Size();
  return total;
}

// Reads the extra input shapes of a version 2 header (after the first
// kBinaryHeaderSize bytes) of a file of `file_size` bytes; sets the whole
// header's size and the elements of all extra inputs together. Nothing is
// allocated before the count is checked against the file's size.
std::vector<Shape<3>> ReadExtraShapes(int fd, const std::string& path,
                                      std::uint64_t file_size,
                                      std::uint64_t* header_size,
                                      std::uint64_t* extra_elements) {
  unsigned char count_bytes[4];
  if (file_size < kBinaryHeaderSize + 4 ||
      pread(fd, count_bytes, 4, kBinaryHeaderSize) != 4) {
    throw DataError(absl::StrFormat(
        "'%s': truncated header: %d bytes, a version 2 header needs at least "
        "%d",
        path, file_size, kBinaryHeaderSize + 4));
  }
  const std::uint64_t count = GetUint32(count_bytes);
  *header_size = kBinaryHeaderSize + 4 + 12 * count;
  if (count == 0 || *header_size > file_size) {
    throw DataError(absl::StrFormat(
        "'%s': the header claims %d extra inputs, %s", path, count,
        count == 0 ? "expected at least 1 in a version 2 file"
                   : absl::StrFormat("whose shapes need a %d-byte header; the "
                                     "file has %d bytes",
                                     *header_size, file_size)));
  }
  std::vector<unsigned char> bytes(12 * count);
  if (pread(fd, bytes.data(), bytes.size(), kBinaryHeaderSize + 4) !=
      static_cast<ssize_t>(bytes.size())) {
    throw DataError(
        absl::StrCat("'", path, "': cannot read the extra input shapes"));
  }
  std::vector<Shape<3>> shapes;
  *extra_elements = 0;
  for (std::uint64_t k = 0; k < count; ++k) {
    const std::uint64_t dims[3] = {GetUint32(&bytes[12 * k]),
                                   GetUint32(&bytes[12 * k + 4]),
                                   GetUint32(&bytes[12 * k + 8])};
    // Every dimension is below 2^32, so no product below overflows; a
    // record holds 4 bytes per element, so more elements than the file has
    // bytes cannot be right.
    const std::uint64_t plane = dims[0] * dims[1];
    const std::uint64_t elements = plane > file_size ? 0 : plane * dims[2];
    if (elements == 0 || elements > file_size ||
        *extra_elements + elements > file_size) {
      throw DataError(absl::StrFormat(
          "'%s': extra input %d has shape (%d,%d,%d); expected positive "
          "dimensions whose records fit in the file's %d bytes",
          path, k + 1, dims[0], dims[1], dims[2], file_size));
    }
    *extra_elements += elements;
    shapes.push_back(Shape3(dims[0], dims[1], dims[2]));
  }
  return shapes;
}

class BinaryFileDataset : public Dataset {
 public:
  // Takes ownership of `fd`. Records start at `header_size`.
  BinaryFileDataset(std::string path, int fd, const Shape<3>& shape,
                    index_t label_width, BinaryDtype dtype,
                    std::vector<Shape<3>> extra_shapes, std::size_t header_size,
                    index_t count)
      : path_(std::move(path)),
        fd_(fd),
        shape_(shape),
        label_width_(label_width),
        dtype_(dtype),
        extra_shapes_(std::move(extra_shapes)),
        header_size_(header_size),
        count_(count),
        data_bytes_(shape.Size() * DtypeSize(dtype)),
        extra_bytes_(ExtraElements(extra_shapes_) * 4),
        record_(data_bytes_ + extra_bytes_ + label_width * 4) {}
  ~BinaryFileDataset() override { close(fd_); }

  index_t size() const override { return count_; }
  Shape<3> instance_shape() const override { return shape_; }
  index_t label_width() const override { return label_width_; }
  std::vector<Shape<3>> extra_shapes() const override { return extra_shapes_; }
  std::string Describe() const override {
    return absl::StrCat("binary '", path_, "'");
  }

  void Read(index_t index, Tensor<cpu, 1, float> data,
            Tensor<cpu, 1, float> label) override {
    ReadRecord(index);
    const index_t elements = shape_.Size();
    if (dtype_ == BinaryDtype::kUint8) {
      for (index_t i = 0; i < elements; ++i) data.dptr_[i] = record_[i];
    } else {
      std::memcpy(data.dptr_, record_.data(), data_bytes_);
    }
    std::memcpy(label.dptr_, record_.data() + data_bytes_ + extra_bytes_,
                label_width_ * 4);
  }

  void ReadExtras(index_t index,
                  const std::vector<Tensor<cpu, 1, float>>& extras) override {
    if (index != record_index_) ReadRecord(index);
    std::size_t offset = data_bytes_;
    for (std::size_t k = 0; k < extra_shapes_.size(); ++k) {
      const std::size_t bytes = extra_shapes_[k].Size() * 4;
      std::memcpy(extras[k].dptr_, record_.data() + offset, bytes);
      offset += bytes;
    }
  }

  BinaryFileDataset(const BinaryFileDataset&) = delete;
  BinaryFileDataset& operator=(const BinaryFileDataset&) = delete;

 private:
  // Reads record `index` into record_.
  void ReadRecord(index_t index) {
    record_index_ = -1;
    const off_t offset =
        header_size_ + static_cast<off_t>(index) * record_.size();
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
    record_index_ = index;
  }

  std::string path_;
  int fd_;
  Shape<3> shape_;
  index_t label_width_;
  BinaryDtype dtype_;
  std::vector<Shape<3>> extra_shapes_;
  std::size_t header_size_;
  index_t count_;
  std::size_t data_bytes_;
  std::size_t extra_bytes_;
  std::vector<unsigned char> record_;
  // The record record_ holds, or -1.
  index_t record_index_ = -1;
};

}  // namespace

BinaryDatasetWriter::BinaryDatasetWriter(std::string path,
                                         const Shape<3>& instance_shape,
                                         index_t label_width, BinaryDtype dtype,
                                         std::vector<Shape<3>> extra_shapes)
    : path_(std::move(path)),
      temp_path_(path_ + ".tmp"),
      shape_(instance_shape),
      label_width_(label_width),
      dtype_(dtype),
      extra_shapes_(std::move(extra_shapes)) {
  if (instance_shape.Size() <= 0 || label_width <= 0) {
    throw DataError(absl::StrFormat(
        "binary writer '%s': the instance shape (%d,%d,%d) and label_width "
        "%d must be positive",
        path_, instance_shape[0], instance_shape[1], instance_shape[2],
        label_width));
  }
  for (const Shape<3>& extra : extra_shapes_) {
    if (extra.Size() <= 0) {
      throw DataError(absl::StrFormat(
          "binary writer '%s': the extra input shape (%d,%d,%d) must be "
          "positive",
          path_, extra[0], extra[1], extra[2]));
    }
  }
  file_ = std::fopen(temp_path_.c_str(), "wb");
  if (file_ == nullptr) {
    throw DataError(absl::StrCat("binary writer: cannot create '", temp_path_,
                                 "': ", std::strerror(errno)));
  }
  std::vector<unsigned char> header(
      kBinaryHeaderSize +
      (extra_shapes_.empty() ? 0 : 4 + 12 * extra_shapes_.size()));
  std::memcpy(header.data(), kBinaryMagic, 8);
  PutUint32(header.data() + 8,
            extra_shapes_.empty() ? kBinaryVersion : kBinaryVersionExtra);
  PutUint32(header.data() + 12, static_cast<std::uint32_t>(dtype));
  PutUint32(header.data() + 16, instance_shape[0]);
  PutUint32(header.data() + 20, instance_shape[1]);
  PutUint32(header.data() + 24, instance_shape[2]);
  PutUint32(header.data() + 28, label_width);
  PutUint64(header.data() + 32, 0);  // the count, written by Finish()
  if (!extra_shapes_.empty()) {
    PutUint32(header.data() + 40, extra_shapes_.size());
    for (std::size_t k = 0; k < extra_shapes_.size(); ++k) {
      for (int d = 0; d < 3; ++d) {
        PutUint32(header.data() + 44 + 12 * k + 4 * d, extra_shapes_[k][d]);
      }
    }
  }
  WriteBytes(header.data(), header.size());
  record_.resize(instance_shape.Size() * DtypeSize(dtype) +
                 ExtraElements(extra_shapes_) * 4 + label_width * 4);
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

void BinaryDatasetWriter::Append(
    Tensor<cpu, 1, float> data, const std::vector<float>& label,
    const std::vector<Tensor<cpu, 1, float>>& extras) {
  const index_t elements = shape_.Size();
  if (data.size(0) != elements ||
      static_cast<index_t>(label.size()) != label_width_) {
    throw DataError(absl::StrFormat(
        "binary writer '%s': record %d has %d data and %d label values, "
        "expected %d and %d",
        path_, count_, data.size(0), label.size(), elements, label_width_));
  }
  if (extras.size() != extra_shapes_.size()) {
    throw DataError(absl::StrFormat(
        "binary writer '%s': record %d has %d extra inputs, expected %d", path_,
        count_, extras.size(), extra_shapes_.size()));
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
  std::size_t offset = elements * DtypeSize(dtype_);
  for (std::size_t k = 0; k < extras.size(); ++k) {
    if (extras[k].size(0) != extra_shapes_[k].Size()) {
      throw DataError(absl::StrFormat(
          "binary writer '%s': record %d, extra input %d has %d values, "
          "expected %d",
          path_, count_, k + 1, extras[k].size(0), extra_shapes_[k].Size()));
    }
    std::memcpy(record_.data() + offset, extras[k].dptr_,
                extras[k].size(0) * 4);
    offset += extras[k].size(0) * 4;
  }
  std::memcpy(record_.data() + offset, label.data(), label_width_ * 4);
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
  if (version != kBinaryVersion && version != kBinaryVersionExtra) {
    throw DataError(absl::StrFormat(
        "'%s': format version %d, this reader knows versions %d and %d", path,
        version, kBinaryVersion, kBinaryVersionExtra));
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
  std::vector<Shape<3>> extra_shapes;
  std::uint64_t extra_elements = 0;
  std::uint64_t header_size = kBinaryHeaderSize;
  if (version == kBinaryVersionExtra) {
    extra_shapes = ReadExtraShapes(fd.get(), path, file_size, &header_size,
                                   &extra_elements);
  }
  const std::uint64_t available = file_size - header_size;
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
  const std::uint64_t record =
      data_bytes + multiply(extra_elements + dims[3], 4);
  if (record < data_bytes) overflow = true;
  const std::uint64_t needed = multiply(record, count);
  if (overflow || needed != available) {
    throw DataError(absl::StrFormat(
        "'%s': the header claims %d records of shape (%d,%d,%d) with %d "
        "labels%s, which need %s bytes after the header; the file has %d "
        "(%s)",
        path, count, dims[0], dims[1], dims[2], dims[3],
        extra_shapes.empty()
            ? std::string()
            : absl::StrFormat(" and %d extra values", extra_elements),
        overflow ? "more than 2^64" : std::to_string(needed), available,
        overflow || needed > available ? "truncated file or corrupt header"
                                       : "trailing bytes"));
  }
  if (count == 0) {
    throw DataError(absl::StrCat("'", path, "' holds no records"));
  }
  return std::make_unique<BinaryFileDataset>(
      path, fd.release(), Shape3(dims[0], dims[1], dims[2]), dims[3], dtype,
      std::move(extra_shapes), header_size, count);
}

}  // namespace train
}  // namespace umbra
