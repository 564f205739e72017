#include "train/data/data_test_util.h"

#include <stdlib.h>
#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "train/config/config.h"
#include "train/data/data_error.h"

namespace umbra {
namespace train {
namespace data_test {
namespace {

void AppendBigEndian32(std::string* out, std::uint32_t value) {
  out->push_back(static_cast<char>(value >> 24));
  out->push_back(static_cast<char>(value >> 16));
  out->push_back(static_cast<char>(value >> 8));
  out->push_back(static_cast<char>(value));
}

}  // namespace

std::vector<unsigned char> TestRng::Bytes(std::size_t count) {
  std::vector<unsigned char> bytes(count);
  for (unsigned char& b : bytes) b = static_cast<unsigned char>(Int(0, 255));
  return bytes;
}

std::string NewTempDir() {
  std::string pattern = ::testing::TempDir() + "/umbra_data_XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp failed for " << pattern;
  }
  return pattern;
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), bytes.size());
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

void WriteGzipFile(const std::string& path, const std::string& bytes) {
  gzFile file = gzopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr) << "cannot write " << path;
  if (!bytes.empty()) {
    ASSERT_EQ(gzwrite(file, bytes.data(), bytes.size()),
              static_cast<int>(bytes.size()));
  }
  ASSERT_EQ(gzclose(file), Z_OK);
}

std::string GzipBytes(const std::string& bytes) {
  const std::string path = NewTempDir() + "/gzip.gz";
  WriteGzipFile(path, bytes);
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string IdxHeader(std::uint32_t magic,
                      const std::vector<std::uint32_t>& dims) {
  std::string out;
  AppendBigEndian32(&out, magic);
  for (std::uint32_t dim : dims) AppendBigEndian32(&out, dim);
  return out;
}

std::string IdxImages(std::uint32_t count, std::uint32_t rows,
                      std::uint32_t cols,
                      const std::vector<unsigned char>& pixels) {
  std::string out = IdxHeader(0x00000803, {count, rows, cols});
  out.append(pixels.begin(), pixels.end());
  return out;
}

std::string IdxLabels(const std::vector<unsigned char>& labels) {
  std::string out =
      IdxHeader(0x00000801, {static_cast<std::uint32_t>(labels.size())});
  out.append(labels.begin(), labels.end());
  return out;
}

MnistFiles WriteRandomMnist(const std::string& dir, int count, int rows,
                            int cols, bool gzip, TestRng* rng) {
  MnistFiles files;
  files.count = count;
  files.rows = rows;
  files.cols = cols;
  files.pixels = rng->Bytes(static_cast<std::size_t>(count) * rows * cols);
  for (int i = 0; i < count; ++i) {
    files.labels.push_back(static_cast<unsigned char>(rng->Int(0, 9)));
  }
  const std::string suffix = gzip ? "-ubyte.gz" : "-ubyte";
  files.images_path = dir + "/images-idx3" + suffix;
  files.labels_path = dir + "/labels-idx1" + suffix;
  const std::string images = IdxImages(count, rows, cols, files.pixels);
  const std::string labels = IdxLabels(files.labels);
  if (gzip) {
    WriteGzipFile(files.images_path, images);
    WriteGzipFile(files.labels_path, labels);
  } else {
    WriteFile(files.images_path, images);
    WriteFile(files.labels_path, labels);
  }
  return files;
}

std::string DataErrorOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const DataError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a DataError";
  return "";
}

std::string ConfigErrorOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a ConfigError";
  return "";
}

std::vector<DataBatch> ReadPass(DataIterator* iterator) {
  std::vector<DataBatch> batches;
  while (iterator->Next()) {
    batches.emplace_back();
    batches.back().CopyFrom(iterator->Value());
  }
  return batches;
}

namespace {

// Whether `x` and `y` (of one shape) are equal element by element; else
// false with "<what> element i: x vs y" in *difference.
bool SameElements(const Tensor<cpu, 1, float>& x,
                  const Tensor<cpu, 1, float>& y, const std::string& what,
                  std::string* difference) {
  for (index_t i = 0; i < x.size(0); ++i) {
    if (x[i] != y[i]) {
      *difference =
          absl::StrCat(what, " element ", i, ": ", x[i], " vs ", y[i]);
      return false;
    }
  }
  return true;
}

}  // namespace

bool SameBatch(const DataBatch& a, const DataBatch& b,
               std::string* difference) {
  if (a.batch_size != b.batch_size || a.num_batch_padd != b.num_batch_padd ||
      a.inst_index != b.inst_index || a.data.shape_ != b.data.shape_ ||
      a.label.shape_ != b.label.shape_ ||
      a.extra_data.size() != b.extra_data.size()) {
    *difference = "batch size, padding, indices or shapes differ";
    return false;
  }
  if (!SameElements(a.data.FlatTo1D(), b.data.FlatTo1D(), "data", difference) ||
      !SameElements(a.label.FlatTo1D(), b.label.FlatTo1D(), "label",
                    difference)) {
    return false;
  }
  for (size_t k = 0; k < a.extra_data.size(); ++k) {
    const std::string what = absl::StrCat("extra input ", k + 1);
    if (a.extra_data[k].shape_ != b.extra_data[k].shape_) {
      *difference = what + ": shapes differ";
      return false;
    }
    if (!SameElements(a.extra_data[k].FlatTo1D(), b.extra_data[k].FlatTo1D(),
                      what, difference)) {
      return false;
    }
  }
  return true;
}

void ExpectSamePasses(DataIterator* a, DataIterator* b, int passes) {
  for (int pass = 0; pass < passes; ++pass) {
    a->BeforeFirst();
    b->BeforeFirst();
    const std::vector<DataBatch> x = ReadPass(a);
    const std::vector<DataBatch> y = ReadPass(b);
    ASSERT_EQ(x.size(), y.size()) << "pass " << pass;
    for (std::size_t i = 0; i < x.size(); ++i) {
      std::string difference;
      ASSERT_TRUE(SameBatch(x[i], y[i], &difference))
          << "pass " << pass << " batch " << i << ": " << difference;
    }
  }
}

}  // namespace data_test
}  // namespace train
}  // namespace umbra
