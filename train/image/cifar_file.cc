#include "train/image/cifar_file.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "train/data/data_error.h"
#include "train/data/dataset.h"
#include "train/data/file_bytes.h"

namespace umbra {
namespace train {
namespace {

bool IsCifar100(CifarFormat format) { return format != CifarFormat::kCifar10; }

const char* FormatName(CifarFormat format) {
  return IsCifar100(format) ? "CIFAR-100" : "CIFAR-10";
}

const char* RecordLayout(CifarFormat format) {
  return IsCifar100(format)
             ? "1 coarse label byte + 1 fine label byte + 3072 pixel bytes"
             : "1 label byte + 3072 pixel bytes";
}

// The other of CIFAR-10 and CIFAR-100, for hints.
CifarFormat OtherFormat(CifarFormat format) {
  return IsCifar100(format) ? CifarFormat::kCifar10
                            : CifarFormat::kCifar100Fine;
}

// Checks that every label byte of `bytes` (whole records of `format`) is in
// range.
void CheckLabels(const std::string& bytes, const std::string& path,
                 CifarFormat format) {
  const std::size_t record_bytes = CifarRecordBytes(format);
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t count = bytes.size() / record_bytes;
  for (std::size_t i = 0; i < count; ++i) {
    const unsigned char* record = data + i * record_bytes;
    const unsigned label_limit = IsCifar100(format) ? 20 : 10;
    const unsigned fine_limit = 100;
    const bool bad_first = record[0] >= label_limit;
    const bool bad_fine = IsCifar100(format) && record[1] >= fine_limit;
    if (bad_first || bad_fine) {
      const char* which = !IsCifar100(format) ? "label"
                          : bad_first         ? "coarse label"
                                              : "fine label";
      throw DataError(absl::StrCat(
          "'", path, "': record ", i, " (offset ", i * record_bytes, "): ",
          which, " ", static_cast<int>(bad_first ? record[0] : record[1]),
          " is out of range 0..", (bad_first ? label_limit : fine_limit) - 1,
          " (a ", FormatName(OtherFormat(format)), " file read as ",
          FormatName(format), "?)"));
    }
  }
}

}  // namespace

int CifarLabelWidth(CifarFormat format) {
  return format == CifarFormat::kCifar100Both ? 2 : 1;
}

std::size_t CifarRecordBytes(CifarFormat format) {
  return kCifarImageBytes + (IsCifar100(format) ? 2 : 1);
}

std::unique_ptr<MemoryDataset> LoadCifar(const std::vector<std::string>& paths,
                                         CifarFormat format) {
  if (paths.empty()) {
    throw DataError(absl::StrCat(FormatName(format),
                                 ": no files given (expected the paths of "
                                 "one or more .bin files)"));
  }
  const std::size_t record_bytes = CifarRecordBytes(format);
  std::vector<std::string> files;
  std::size_t count = 0;
  for (const std::string& path : paths) {
    std::string bytes = ReadFileBytes(path);
    const std::string expected =
        absl::StrCat(FormatName(format), " records of ", record_bytes,
                     " bytes (", RecordLayout(format), ")");
    if (bytes.empty()) {
      throw DataError(
          absl::StrCat("'", path, "': the file is empty, expected ", expected));
    }
    if (bytes.size() % record_bytes != 0) {
      const CifarFormat other = OtherFormat(format);
      const std::string hint =
          bytes.size() % CifarRecordBytes(other) == 0
              ? absl::StrCat("it holds ", CifarRecordBytes(other),
                             "-byte records: a ", FormatName(other), " file?")
              : "a truncated file, or not a CIFAR file?";
      throw DataError(absl::StrCat("'", path, "': ", bytes.size(),
                                   " bytes is not a whole number of ", expected,
                                   ": ", hint));
    }
    CheckLabels(bytes, path, format);
    count += bytes.size() / record_bytes;
    files.push_back(std::move(bytes));
  }
  const std::string description = absl::StrCat(
      IsCifar100(format) ? "cifar100" : "cifar10", " '", paths[0], "'",
      paths.size() > 1 ? absl::StrCat(" and ", paths.size() - 1, " more file",
                                      paths.size() > 2 ? "s" : "")
                       : "");
  const int label_width = CifarLabelWidth(format);
  auto set = std::make_unique<MemoryDataset>(Shape3(3, 32, 32), label_width,
                                             count, description);
  Tensor<cpu, 2, float> data = set->data();
  Tensor<cpu, 2, float> labels = set->labels();
  const std::size_t label_bytes = record_bytes - kCifarImageBytes;
  index_t row = 0;
  for (const std::string& bytes : files) {
    const auto* records = reinterpret_cast<const unsigned char*>(bytes.data());
    for (std::size_t offset = 0; offset < bytes.size();
         offset += record_bytes, ++row) {
      const unsigned char* record = records + offset;
      switch (format) {
        case CifarFormat::kCifar10:
        case CifarFormat::kCifar100Coarse:
          labels[row][0] = record[0];
          break;
        case CifarFormat::kCifar100Fine:
          labels[row][0] = record[1];
          break;
        case CifarFormat::kCifar100Both:
          labels[row][0] = record[0];
          labels[row][1] = record[1];
          break;
      }
      const unsigned char* pixels = record + label_bytes;
      float* out = data[row].dptr_;
      for (std::size_t j = 0; j < kCifarImageBytes; ++j) out[j] = pixels[j];
    }
  }
  return set;
}

}  // namespace train
}  // namespace umbra
