// GradientReducer: buckets in the order backward finishes the weights,
// each started as soon as its earliest layer is done (or all in Finish
// without overlap), large weights alone in their own memory, and every
// gradient summed exactly once per pass.
#include "train/dist/gradient_reducer.h"

#include <memory>
#include <random>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "tensor/tensor.h"
#include "tensor/test_seed.h"

namespace umbra {
namespace dist {
namespace {

// Stands in for the other ranks: "sums" a buffer to 2 * value + 1 when
// waited for, so a value summed twice, or never, shows.
class FakeAllreduce : public AsyncAllreduce {
 public:
  void Start(float* values, size_t count) override {
    started.push_back({values, count});
  }
  void Progress() override { ++progressed; }
  void WaitAll() override {
    for (const auto& [values, count] : started) {
      for (size_t i = 0; i < count; ++i) values[i] = 2 * values[i] + 1;
    }
    finished += started.size();
    started.clear();
  }

  std::vector<std::pair<float*, size_t>> started;
  size_t finished = 0;
  int progressed = 0;
};

// How a net's weights go into buckets, and when each bucket starts.
struct Layout {
  size_t bucket_bytes;
  // Weights per bucket, in the order they start.
  std::vector<size_t> bucket_sizes;
  // Buckets started once layers 3, 2, 1 and 0 are done, with overlap.
  std::vector<size_t> started_after;
};

class GradientReducerTest
    : public ::testing::TestWithParam<std::tuple<Layout, bool>> {
 protected:
  // Layer 0: w0 (300 floats) and b0 (10); layer 1: a weight of 70000
  // floats, more than kPackBelowBytes; layer 2: w2 (1000) and b2 (5);
  // layer 3: w3 (600).
  GradientReducerTest() {
    for (index_t size : {300, 10, 70000, 1000, 5, 600}) {
      grads_.push_back(
          std::make_unique<TensorContainer<cpu, 1, float>>(Shape1(size)));
    }
    const auto weight = [&](int k) {
      layers::WeightRef<cpu, float> ref;
      ref.grad = grads_[k]->view();
      return ref;
    };
    by_layer_ = {{weight(0), weight(1)},
                 {weight(2)},
                 {weight(3), weight(4)},
                 {weight(5)}};
  }

  // Fresh random gradients; returns what summing should make of them.
  std::vector<std::vector<float>> FillGradients(std::mt19937* rng) {
    std::normal_distribution<float> normal;
    std::vector<std::vector<float>> want;
    for (auto& grad : grads_) {
      want.emplace_back();
      for (index_t i = 0; i < grad->size(0); ++i) {
        (*grad)[i] = normal(*rng);
        want.back().push_back(2 * (*grad)[i] + 1);
      }
    }
    return want;
  }

  std::vector<std::unique_ptr<TensorContainer<cpu, 1, float>>> grads_;
  std::vector<std::vector<layers::WeightRef<cpu, float>>> by_layer_;
};

TEST_P(GradientReducerTest, SumsEveryGradientOncePerPass) {
  const auto& [layout, overlap] = GetParam();
  const test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  FakeAllreduce allreduce;
  GradientReducer<cpu> reducer(by_layer_, &allreduce, layout.bucket_bytes,
                               overlap);
  EXPECT_EQ(reducer.BucketSizes(), layout.bucket_sizes);
  for (int pass = 0; pass < 2; ++pass) {
    const std::vector<std::vector<float>> want = FillGradients(&rng);
    for (int layer = 3; layer >= 0; --layer) {
      reducer.LayerDone(layer);
      EXPECT_EQ(allreduce.started.size(),
                overlap ? layout.started_after[3 - layer] : 0u)
          << "after layer " << layer;
    }
    reducer.Finish();
    EXPECT_EQ(allreduce.finished, layout.bucket_sizes.size() * (pass + 1));
    for (size_t k = 0; k < grads_.size(); ++k) {
      for (index_t i = 0; i < grads_[k]->size(0); ++i) {
        ASSERT_EQ((*grads_[k])[i], want[k][i])
            << "weight " << k << "[" << i << "] in pass " << pass;
      }
    }
  }
  reducer.TakeWaitSeconds();
  EXPECT_EQ(reducer.TakeWaitSeconds(), 0.0);  // taken: counts from zero
}

TEST(GradientReducerTest, SumsALargeWeightInItsOwnMemory) {
  TensorContainer<cpu, 1, float> small1(Shape1(10), 1.0f);
  TensorContainer<cpu, 1, float> small2(Shape1(20), 1.0f);
  TensorContainer<cpu, 1, float> large(
      Shape1(GradientReducer<cpu>::kPackBelowBytes / sizeof(float)), 1.0f);
  std::vector<layers::WeightRef<cpu, float>> weights(3);
  weights[0].grad = small1.view();
  weights[1].grad = large.view();
  weights[2].grad = small2.view();
  FakeAllreduce allreduce;
  GradientReducer<cpu> reducer({weights}, &allreduce, 1 << 30, true);
  reducer.LayerDone(0);
  ASSERT_EQ(allreduce.started.size(), 2u);
  EXPECT_EQ(allreduce.started[0].first, large.dptr_);
  // The small ones, packed: a buffer of their 30 floats.
  EXPECT_NE(allreduce.started[1].first, small1.dptr_);
  EXPECT_NE(allreduce.started[1].first, small2.dptr_);
  EXPECT_EQ(allreduce.started[1].second, 30u);
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, GradientReducerTest,
    ::testing::Combine(
        ::testing::Values(
            // w3 fills a bucket alone; {b2, w2} another; the large weight
            // goes alone; {b0, w0} is what is left.
            Layout{2000, {1, 2, 1, 2}, {1, 2, 3, 4}},
            // One packed bucket of all the small weights, which starts
            // only with layer 0, after the large weight's.
            Layout{8000, {1, 5}, {0, 0, 1, 2}}),
        ::testing::Bool()));

}  // namespace
}  // namespace dist
}  // namespace umbra
