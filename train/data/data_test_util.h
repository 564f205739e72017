// Helpers for the data tests: a seeded generator whose seed is printed on
// failure, temporary files, IDX/CSV file contents, and reading whole passes.
//
// Example:
//   TestRng rng;                       // failures print "random seed N ..."
//   const std::string dir = NewTempDir();
//   MnistFiles files = WriteRandomMnist(dir, 10, 4, 5, /*gzip=*/true, &rng);
//   std::vector<DataBatch> pass = ReadPass(iterator.get());
#ifndef UMBRA_TRAIN_DATA_DATA_TEST_UTIL_H_
#define UMBRA_TRAIN_DATA_DATA_TEST_UTIL_H_

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tensor/tensor.h"
#include "tensor/test_seed.h"
#include "train/data/data_batch.h"

namespace umbra {
namespace train {
namespace data_test {

// A generator seeded with a ScopedTestSeed (tensor/test_seed.h): the seed
// is attached to every failure of the test that constructs it.
class TestRng {
 public:
  TestRng() : engine_(seed_.value()) {}
  unsigned seed() const { return seed_.value(); }
  int Int(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(engine_);
  }
  float Uniform(float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(engine_);
  }
  std::vector<unsigned char> Bytes(std::size_t count);

 private:
  test::ScopedTestSeed seed_;
  std::mt19937 engine_;
};

// A new empty directory under the test's temporary directory.
std::string NewTempDir();
void WriteFile(const std::string& path, const std::string& bytes);
void WriteGzipFile(const std::string& path, const std::string& bytes);
// The bytes of a gzip file holding `bytes`.
std::string GzipBytes(const std::string& bytes);

// IDX file contents (big-endian header, unsigned bytes).
std::string IdxImages(std::uint32_t count, std::uint32_t rows,
                      std::uint32_t cols,
                      const std::vector<unsigned char>& pixels);
std::string IdxLabels(const std::vector<unsigned char>& labels);
// A raw header: magic then the given sizes, no data.
std::string IdxHeader(std::uint32_t magic,
                      const std::vector<std::uint32_t>& dims);

// A random MNIST-like pair of files in `dir`.
struct MnistFiles {
  std::string images_path;
  std::string labels_path;
  int count = 0;
  int rows = 0;
  int cols = 0;
  std::vector<unsigned char> pixels;  // count * rows * cols
  std::vector<unsigned char> labels;  // count, each 0..9
};
MnistFiles WriteRandomMnist(const std::string& dir, int count, int rows,
                            int cols, bool gzip, TestRng* rng);

// what() of the exception of type E that `fn` throws; fails the test and
// returns "" when it throws nothing.
std::string DataErrorOf(const std::function<void()>& fn);
std::string ConfigErrorOf(const std::function<void()>& fn);

// Copies of every batch of one pass (Next() until false), without calling
// BeforeFirst().
std::vector<DataBatch> ReadPass(DataIterator* iterator);

// True when the two batches are equal in every field; otherwise false with a
// description in *difference.
bool SameBatch(const DataBatch& a, const DataBatch& b, std::string* difference);

// Reads `passes` passes of both iterators (BeforeFirst() before each) and
// fails the test at the first batch where they differ.
void ExpectSamePasses(DataIterator* a, DataIterator* b, int passes);

}  // namespace data_test
}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_DATA_DATA_TEST_UTIL_H_
