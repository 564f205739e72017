// Reads the real Fashion-MNIST files of Debian's dataset-fashion-mnist
// package when they are installed; skipped otherwise.
#include <sys/stat.h>

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "train/data/data_batch.h"
#include "train/data/idx_file.h"
#include "train/data/iterator_registry.h"

namespace umbra {
namespace train {
namespace {

const char kDir[] = "/usr/share/datasets/fashion-mnist/";

bool Exists(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0;
}

class FashionMnistTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    images_ = std::string(kDir) + GetParam() + "-images-idx3-ubyte.gz";
    labels_ = std::string(kDir) + GetParam() + "-labels-idx1-ubyte.gz";
    if (!Exists(images_) || !Exists(labels_)) {
      GTEST_SKIP() << images_ << " is absent; apt-get install "
                   << "dataset-fashion-mnist to run this test";
    }
  }
  std::string images_;
  std::string labels_;
};

TEST_P(FashionMnistTest, CountsLabelsAndPixelScale) {
  const index_t expected = std::string(GetParam()) == "train" ? 60000 : 10000;
  std::unique_ptr<DataIterator> it = CreateIterator("mnist",
                                                    {{"path_img", images_},
                                                     {"path_label", labels_},
                                                     {"input_flat", "0"},
                                                     {"batch_size", "1000"},
                                                     {"silent", "1"}},
                                                    nullptr);
  EXPECT_EQ(it->data_shape(), Shape4(1000, 1, 28, 28));
  index_t count = 0;
  std::vector<index_t> per_class(10, 0);
  float min_pixel = 1, max_pixel = 0;
  while (it->Next()) {
    const DataBatch& batch = it->Value();
    ASSERT_EQ(batch.num_batch_padd, 0);
    for (index_t r = 0; r < batch.batch_size; ++r) {
      const float label = batch.label[r][0];
      ASSERT_TRUE(label >= 0 && label <= 9 && label == int(label)) << label;
      ++per_class[int(label)];
      ASSERT_EQ(batch.inst_index[r], count);
      ++count;
    }
    const Tensor<cpu, 1, float> pixels = batch.data.FlatTo1D();
    for (index_t i = 0; i < pixels.size(0); ++i) {
      min_pixel = std::min(min_pixel, pixels[i]);
      max_pixel = std::max(max_pixel, pixels[i]);
      // Scaled bytes: k / 256.
      ASSERT_EQ(pixels[i] * 256.0f, float(int(pixels[i] * 256.0f)));
    }
  }
  EXPECT_EQ(count, expected);
  EXPECT_EQ(min_pixel, 0.0f);
  EXPECT_EQ(max_pixel, 255.0f / 256.0f);
  // Fashion-MNIST is balanced: every class has a tenth of the images.
  for (int c = 0; c < 10; ++c) {
    EXPECT_EQ(per_class[c], expected / 10) << "class " << c;
  }
}

INSTANTIATE_TEST_SUITE_P(TrainAndTest, FashionMnistTest,
                         ::testing::Values("train", "t10k"));

}  // namespace
}  // namespace train
}  // namespace umbra
