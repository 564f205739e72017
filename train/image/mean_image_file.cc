#include "train/image/mean_image_file.h"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <system_error>

#include "absl/strings/str_format.h"
#include "train/data/binary_format.h"
#include "train/data/data_error.h"
#include "train/data/file_bytes.h"

namespace umbra {
namespace train {
namespace {

std::string ShapeText(const std::uint64_t dims[3]) {
  return absl::StrFormat("%d,%d,%d", dims[0], dims[1], dims[2]);
}

DataError OtherShape(const std::string& path, const std::string& holds,
                     Shape<3> shape) {
  return DataError(absl::StrFormat(
      "'%s' holds %s; input_shape needs one of %d,%d,%d (delete the file to "
      "make it again)",
      path, holds, shape[0], shape[1], shape[2]));
}

std::uint64_t FileSize(const std::string& path) {
  std::error_code error;
  const std::uint64_t size = std::filesystem::file_size(path, error);
  if (error) {
    throw DataError(
        absl::StrFormat("cannot read '%s': %s", path, error.message()));
  }
  return size;
}

std::vector<float> ReadUmbraFormat(const std::string& path, Shape<3> shape) {
  const std::unique_ptr<Dataset> file = OpenBinaryDataset(path);
  if (file->size() != 1 || file->instance_shape() != shape) {
    const Shape<3> got = file->instance_shape();
    const std::uint64_t dims[3] = {static_cast<std::uint64_t>(got[0]),
                                   static_cast<std::uint64_t>(got[1]),
                                   static_cast<std::uint64_t>(got[2])};
    throw OtherShape(
        path,
        absl::StrFormat("%d image%s of %s", file->size(),
                        file->size() == 1 ? "" : "s", ShapeText(dims)),
        shape);
  }
  std::vector<float> mean(shape.Size());
  TensorContainer<cpu, 1, float> count(Shape1(file->label_width()));
  file->Read(0, Tensor<cpu, 1, float>(mean.data(), Shape1(mean.size())), count);
  return mean;
}

// mshadow's SaveBinary of a 3-d float tensor: the shape as three integers
// of `dim_bytes` (4 or 8) each, then the floats. False when the file (of
// `file_bytes` bytes, starting with `head`) is not such a tensor; throws
// when it is one of another shape.
bool ReadMshadowFormat(const std::string& path, std::uint64_t file_bytes,
                       const std::string& head, std::size_t dim_bytes,
                       Shape<3> shape, std::vector<float>* mean) {
  const std::size_t header = 3 * dim_bytes;
  if (head.size() < header || file_bytes < header) return false;
  std::uint64_t dims[3] = {0, 0, 0};
  // Each at most 2^32 - 1: the product cannot wrap around.
  std::uint64_t values = 1;
  for (int d = 0; d < 3; ++d) {
    std::memcpy(&dims[d], head.data() + d * dim_bytes, dim_bytes);
    if (dims[d] >> 32 != 0) return false;
    values *= dims[d];
  }
  if (values > (file_bytes - header) / sizeof(float) ||
      header + values * sizeof(float) != file_bytes) {
    return false;
  }
  if (dims[0] != shape[0] || dims[1] != shape[1] || dims[2] != shape[2]) {
    throw OtherShape(
        path, "a cxxnet (mshadow) mean image of " + ShapeText(dims), shape);
  }
  const std::string bytes = ReadFileBytes(path, file_bytes);
  mean->resize(values);
  std::memcpy(mean->data(), bytes.data() + header, values * sizeof(float));
  return true;
}

}  // namespace

std::vector<float> ReadMeanImage(const std::string& path, Shape<3> shape) {
  const std::string head = ReadFilePrefix(path, 3 * sizeof(std::uint64_t));
  if (head.size() >= sizeof(kBinaryMagic) &&
      std::memcmp(head.data(), kBinaryMagic, sizeof(kBinaryMagic)) == 0) {
    return ReadUmbraFormat(path, shape);
  }
  const std::uint64_t file_bytes = FileSize(path);
  std::vector<float> mean;
  for (const std::size_t dim_bytes :
       {sizeof(std::uint32_t), sizeof(std::uint64_t)}) {
    if (ReadMshadowFormat(path, file_bytes, head, dim_bytes, shape, &mean)) {
      return mean;
    }
  }
  throw DataError(absl::StrFormat(
      "'%s' (%d bytes) is no mean image: neither umbra's binary format (it "
      "starts with \"UMBRADAT\") nor cxxnet's (a shape of 3 integers, then "
      "%d floats for input_shape %d,%d,%d)",
      path, file_bytes, shape.Size(), shape[0], shape[1], shape[2]));
}

void WriteMeanImage(const std::string& path, Shape<3> shape, const float* mean,
                    index_t count) {
  const std::filesystem::path folder =
      std::filesystem::path(path).parent_path();
  std::error_code error;
  if (!folder.empty() && !std::filesystem::exists(folder)) {
    std::filesystem::create_directories(folder, error);
    if (error) {
      throw DataError(
          absl::StrFormat("cannot create the folder '%s' of '%s': %s",
                          folder.string(), path, error.message()));
    }
  }
  BinaryDatasetWriter writer(path, shape, /*label_width=*/1,
                             BinaryDtype::kFloat32);
  writer.Append(
      Tensor<cpu, 1, float>(const_cast<float*>(mean), Shape1(shape.Size())),
      {static_cast<float>(count)});
  writer.Finish();
}

}  // namespace train
}  // namespace umbra
