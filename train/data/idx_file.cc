#include "train/data/idx_file.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "train/data/data_error.h"
#include "train/data/dataset.h"
#include "train/data/file_bytes.h"

namespace umbra {
namespace train {
namespace {

std::uint32_t ReadBigEndian32(absl::string_view bytes, std::size_t offset) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data()) + offset;
  return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 |
         std::uint32_t{p[2]} << 8 | std::uint32_t{p[3]};
}

}  // namespace

IdxArray ParseIdx(absl::string_view bytes, std::uint32_t expected_magic,
                  const std::string& path) {
  const std::size_t rank = expected_magic & 0xff;
  const std::size_t header = 4 + 4 * rank;
  if (bytes.size() < 4) {
    throw DataError(absl::StrFormat(
        "'%s' is not an IDX file: %d bytes, too short for a header", path,
        bytes.size()));
  }
  const std::uint32_t magic = ReadBigEndian32(bytes, 0);
  if (magic != expected_magic) {
    throw DataError(absl::StrFormat(
        "'%s': bad magic number 0x%08x, expected 0x%08x (an IDX file of "
        "unsigned bytes with %d dimension%s)",
        path, magic, expected_magic, rank, rank == 1 ? "" : "s"));
  }
  if (bytes.size() < header) {
    throw DataError(
        absl::StrFormat("'%s': truncated header: %d bytes, the header needs %d",
                        path, bytes.size(), header));
  }
  IdxArray array;
  // The product is checked for overflow as it is formed; nothing is
  // allocated from it, it is only compared with the file's size.
  std::uint64_t expected = 1;
  const std::uint64_t available = bytes.size() - header;
  bool overflow = false;
  for (std::size_t i = 0; i < rank; ++i) {
    const std::uint32_t dim = ReadBigEndian32(bytes, 4 + 4 * i);
    array.dims.push_back(dim);
    if (dim != 0 &&
        expected > std::numeric_limits<std::uint64_t>::max() / dim) {
      overflow = true;
    }
    if (!overflow) expected *= dim;
  }
  if (overflow || expected > available) {
    throw DataError(absl::StrFormat(
        "'%s': the header's sizes (%s) need %s bytes of data, the file has "
        "%d (truncated or corrupt header)",
        path, absl::StrJoin(array.dims, " x "),
        overflow ? "more than 2^64" : std::to_string(expected), available));
  }
  if (expected < available) {
    throw DataError(absl::StrFormat(
        "'%s': the header's sizes (%s) need %d bytes of data, the file has "
        "more (trailing bytes)",
        path, absl::StrJoin(array.dims, " x "), expected));
  }
  array.elements = bytes.substr(header);
  return array;
}

std::string ReadIdxBytes(const std::string& path,
                         std::uint32_t expected_magic) {
  const std::size_t header = 4 + 4 * (expected_magic & 0xff);
  const std::string head = ReadFilePrefix(path, header);
  // ParseIdx says what is wrong with a header that does not parse.
  if (head.size() < header || ReadBigEndian32(head, 0) != expected_magic) {
    return head;
  }
  // The size the header claims (saturating), and one byte more, so that
  // ParseIdx sees trailing bytes; reading stops there.
  constexpr std::uint64_t kMost = std::numeric_limits<std::uint64_t>::max() / 2;
  std::uint64_t limit = 1;
  for (std::size_t offset = 4; offset < header; offset += 4) {
    const std::uint64_t dim = ReadBigEndian32(head, offset);
    limit = dim != 0 && limit > kMost / dim ? kMost : limit * dim;
  }
  return ReadFilePrefix(path, limit + header + 1);
}

std::unique_ptr<MemoryDataset> LoadMnist(const std::string& path_img,
                                         const std::string& path_label,
                                         bool input_flat) {
  const std::string image_bytes = WithKeyContext("mnist", "path_img", [&] {
    return ReadIdxBytes(path_img, kIdxImageMagic);
  });
  const IdxArray images = WithKeyContext("mnist", "path_img", [&] {
    return ParseIdx(image_bytes, kIdxImageMagic, path_img);
  });
  const std::string label_bytes = WithKeyContext("mnist", "path_label", [&] {
    return ReadIdxBytes(path_label, kIdxLabelMagic);
  });
  const IdxArray labels = WithKeyContext("mnist", "path_label", [&] {
    return ParseIdx(label_bytes, kIdxLabelMagic, path_label);
  });
  const index_t count = images.dims[0];
  const index_t rows = images.dims[1];
  const index_t cols = images.dims[2];
  if (labels.dims[0] != images.dims[0]) {
    throw DataError(
        absl::StrFormat("mnist: key 'path_label': '%s' has %d labels but "
                        "'%s' has %d images",
                        path_label, labels.dims[0], path_img, count),
        "path_label");
  }
  if (count == 0 || rows == 0 || cols == 0) {
    throw DataError(absl::StrFormat("mnist: key 'path_img': '%s' holds no "
                                    "pixels (%d images of %d x %d)",
                                    path_img, count, rows, cols),
                    "path_img");
  }
  const Shape<3> shape =
      input_flat ? Shape3(1, 1, rows * cols) : Shape3(1, rows, cols);
  auto set = std::make_unique<MemoryDataset>(
      shape, 1, count, absl::StrCat("mnist '", path_img, "'"));
  Tensor<cpu, 2, float> data = set->data();
  Tensor<cpu, 2, float> label = set->labels();
  const auto* pixels =
      reinterpret_cast<const unsigned char*>(images.elements.data());
  const auto* classes =
      reinterpret_cast<const unsigned char*>(labels.elements.data());
  const index_t pixels_per_image = rows * cols;
  for (index_t i = 0; i < count; ++i) {
    float* row = data[i].dptr_;
    for (index_t j = 0; j < pixels_per_image; ++j) {
      row[j] = pixels[i * pixels_per_image + j] * (1.0f / 256.0f);
    }
    label[i][0] = classes[i];
  }
  return set;
}

}  // namespace train
}  // namespace umbra
