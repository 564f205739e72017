// GradientReducer: buckets in the order backward finishes the weights,
// each started as soon as its earliest layer is done (or all in Finish
// without overlap), and every gradient averaged exactly once per pass.
#include "train/dist/gradient_reducer.h"

#include <memory>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "tensor/tensor.h"
#include "tensor/test_seed.h"

namespace umbra {
namespace dist {
namespace {

// Stands in for the other ranks: "averages" a buffer to 2 * value + 1 when
// waited for, so a value averaged twice, or never, shows.
class FakeAverager : public AsyncAverager {
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

class GradientReducerTest : public ::testing::TestWithParam<bool> {
 protected:
  // Layer 0: w0 (300) and b0 (10); layer 1: none; layer 2: w2 (1000) and
  // b2 (5); layer 3: w3 (600): buckets of 2000 bytes are {w3} (alone, in
  // place), {b2, w2} and {b0, w0}.
  GradientReducerTest() {
    for (index_t size : {300, 10, 1000, 5, 600}) {
      grads_.push_back(std::make_unique<TensorContainer<cpu, 1, float>>(
          Shape1(size)));
    }
    const auto weight = [&](int k) {
      layers::WeightRef<cpu, float> ref;
      ref.grad = grads_[k]->view();
      return ref;
    };
    by_layer_ = {{weight(0), weight(1)}, {}, {weight(2), weight(3)},
                 {weight(4)}};
  }

  // Fresh random gradients; returns what averaging should make of them.
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

TEST_P(GradientReducerTest, AveragesEveryGradientOncePerPass) {
  const bool overlap = GetParam();
  const test::ScopedTestSeed seed;
  std::mt19937 rng(seed.value());
  FakeAverager averager;
  GradientReducer<cpu> reducer(by_layer_, &averager, 2000, overlap);
  EXPECT_EQ(reducer.BucketSizes(), (std::vector<size_t>{1, 2, 2}));
  for (int pass = 0; pass < 2; ++pass) {
    const std::vector<std::vector<float>> want = FillGradients(&rng);
    // Buckets started after each layer's backward (layers 3, 2, 1, 0).
    const std::vector<size_t> started_after =
        overlap ? std::vector<size_t>{1, 2, 2, 3}
                : std::vector<size_t>{0, 0, 0, 0};
    for (int layer = 3; layer >= 0; --layer) {
      reducer.LayerDone(layer);
      EXPECT_EQ(averager.started.size(), started_after[3 - layer])
          << "after layer " << layer;
    }
    if (overlap) {
      // The lone w3 is averaged in its own memory.
      EXPECT_EQ(averager.started[0].first, grads_[4]->dptr_);
      EXPECT_EQ(averager.started[0].second, 600u);
    }
    reducer.Finish();
    EXPECT_EQ(averager.finished, 3u * (pass + 1));
    for (size_t k = 0; k < grads_.size(); ++k) {
      for (index_t i = 0; i < grads_[k]->size(0); ++i) {
        ASSERT_EQ((*grads_[k])[i], want[k][i]) << "weight " << k << "[" << i
                                                << "] in pass " << pass;
      }
    }
  }
  reducer.TakeWaitSeconds();
  EXPECT_EQ(reducer.TakeWaitSeconds(), 0.0);  // taken: counts from zero
}

INSTANTIATE_TEST_SUITE_P(Overlap, GradientReducerTest, ::testing::Bool());

}  // namespace
}  // namespace dist
}  // namespace umbra
