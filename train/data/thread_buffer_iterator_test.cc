#include "train/data/thread_buffer_iterator.h"

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/data/batch_iterator.h"
#include "train/data/data_error.h"
#include "train/data/data_test_util.h"
#include "train/data/dataset.h"

namespace umbra {
namespace train {
namespace {

using data_test::DataErrorOf;
using data_test::ReadPass;
using data_test::SameBatch;
using data_test::TestRng;
using ::testing::HasSubstr;

ThreadBufferParam BufferParam(int size) {
  ThreadBufferParam param;
  param.Init({{"buffer_size", std::to_string(size)}});
  return param;
}

// Batch n of a pass has every element n; throws at batch `fail_at` (if not
// negative) and ends after `length` batches (never if negative).
class CountingIterator : public DataIterator {
 public:
  CountingIterator(int length, int fail_at)
      : length_(length), fail_at_(fail_at) {
    batch_.Resize(Shape4(2, 1, 1, 3), 1);
  }
  void BeforeFirst() override {
    next_ = 0;
    ++before_first_calls;
  }
  bool Next() override {
    if (next_ == fail_at_) {
      ++next_;
      throw std::out_of_range("disk on fire at batch " +
                              std::to_string(fail_at_));
    }
    if (length_ >= 0 && next_ >= length_) return false;
    batch_.data = float(next_);
    batch_.label = float(next_);
    batch_.inst_index = {next_ * 2, next_ * 2 + 1};
    ++next_;
    return true;
  }
  const DataBatch& Value() const override { return batch_; }
  Shape<4> data_shape() const override { return batch_.data.shape_; }
  index_t label_width() const override { return 1; }
  std::vector<Shape<4>> extra_data_shapes() const override { return {}; }

  std::atomic<int> before_first_calls{0};

 private:
  int length_;
  int fail_at_;
  index_t next_ = 0;
  DataBatch batch_;
};

std::unique_ptr<DataIterator> MakeSource(const ParamKwargs& kwargs, int size,
                                         unsigned data_seed) {
  std::mt19937 engine(data_seed);
  auto set = std::make_unique<MemoryDataset>(Shape3(2, 6, 7), 2, size);
  Tensor<cpu, 1, float> data = set->data().FlatTo1D();
  for (index_t i = 0; i < data.size(0); ++i) data[i] = engine() % 1000;
  for (index_t i = 0; i < size; ++i) {
    set->labels()[i][0] = i;
    set->labels()[i][1] = engine() % 10;
  }
  BatchIteratorParam batch;
  batch.InitAllowUnknown(kwargs);
  AugmentIteratorParam augment;
  augment.InitAllowUnknown(kwargs);
  return std::make_unique<BatchIterator>(std::move(set), batch, augment);
}

// Expects `got` and `expected` to hold equal batches, and at least one.
void ExpectSamePass(const std::vector<DataBatch>& got,
                    const std::vector<DataBatch>& expected) {
  ASSERT_EQ(got.size(), expected.size());
  ASSERT_FALSE(got.empty());
  for (std::size_t b = 0; b < got.size(); ++b) {
    std::string difference;
    EXPECT_TRUE(SameBatch(got[b], expected[b], &difference))
        << "batch " << b << ": " << difference;
  }
}

// Settings that use every generator: shuffle, random crop and mirror, and
// (at random) round_batch, whose passes start inside the last batch.
ParamKwargs RandomSourceSettings(TestRng& rng) {
  return {{"batch_size", std::to_string(rng.Int(1, 5))},
          {"label_width", "2"},
          {"shuffle", "1"},
          {"round_batch", std::to_string(rng.Int(0, 1))},
          {"seed", std::to_string(rng.Int(0, 100000))},
          {"input_shape", "2,5,5"},
          {"rand_crop", "1"},
          {"rand_mirror", "1"},
          {"divideby", "255"},
          {"silent", "1"}};
}

TEST(ThreadBufferIteratorTest, YieldsExactlyTheUnbufferedSequence) {
  TestRng rng;
  const int size = rng.Int(5, 60);
  const ParamKwargs kwargs = RandomSourceSettings(rng);
  const unsigned data_seed = rng.seed();
  std::unique_ptr<DataIterator> plain = MakeSource(kwargs, size, data_seed);
  ThreadBufferIterator buffered(MakeSource(kwargs, size, data_seed),
                                BufferParam(rng.Int(1, 4)));
  EXPECT_EQ(buffered.data_shape(), plain->data_shape());
  EXPECT_EQ(buffered.label_width(), 2);
  for (int pass = 0; pass < 4; ++pass) {
    SCOPED_TRACE("pass " + std::to_string(pass));
    plain->BeforeFirst();
    buffered.BeforeFirst();
    ExpectSamePass(ReadPass(&buffered), ReadPass(plain.get()));
  }
}

// What a resumed training run relies on: skipping passes leaves the order
// and the augmentation where reading them would, buffered or not.
TEST(ThreadBufferIteratorTest, SkippedPassesLeaveTheStateReadingWould) {
  TestRng rng;
  const int size = rng.Int(5, 60);
  const ParamKwargs kwargs = RandomSourceSettings(rng);
  const unsigned data_seed = rng.seed();
  const int skipped = rng.Int(1, 4);
  std::unique_ptr<DataIterator> read = MakeSource(kwargs, size, data_seed);
  std::unique_ptr<DataIterator> skipping = MakeSource(kwargs, size, data_seed);
  ThreadBufferIterator buffered(MakeSource(kwargs, size, data_seed),
                                BufferParam(rng.Int(1, 4)));
  for (int pass = 0; pass < skipped; ++pass) {
    read->BeforeFirst();
    ReadPass(read.get());
    skipping->SkipPass();
    buffered.SkipPass();
  }
  EXPECT_FALSE(buffered.Next()) << "a skipped pass is finished";
  for (int pass = 0; pass < 2; ++pass) {
    SCOPED_TRACE("pass " + std::to_string(skipped + pass));
    read->BeforeFirst();
    skipping->BeforeFirst();
    buffered.BeforeFirst();
    const std::vector<DataBatch> expected = ReadPass(read.get());
    ExpectSamePass(ReadPass(skipping.get()), expected);
    ExpectSamePass(ReadPass(&buffered), expected);
  }
}

TEST(ThreadBufferIteratorTest, BeforeFirstInTheMiddleOfAPass) {
  TestRng rng;
  const ParamKwargs kwargs = {{"batch_size", "3"},
                              {"label_width", "2"},
                              {"shuffle", "1"},
                              {"silent", "1"}};
  std::unique_ptr<DataIterator> plain = MakeSource(kwargs, 30, rng.seed());
  ThreadBufferIterator buffered(MakeSource(kwargs, 30, rng.seed()),
                                BufferParam(3));
  for (int round = 0; round < 3; ++round) {
    const int take = rng.Int(0, 9);
    for (int i = 0; i < take; ++i) {
      ASSERT_TRUE(plain->Next());
      ASSERT_TRUE(buffered.Next());
      std::string difference;
      ASSERT_TRUE(SameBatch(buffered.Value(), plain->Value(), &difference))
          << difference;
    }
    plain->BeforeFirst();
    buffered.BeforeFirst();
  }
}

TEST(ThreadBufferIteratorTest, ProducerErrorsReachTheConsumer) {
  auto source = std::make_unique<CountingIterator>(-1, 4);
  CountingIterator* counting = source.get();
  ThreadBufferIterator buffered(std::move(source), BufferParam(2));
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(buffered.Next());
    EXPECT_EQ(buffered.Value().data[0][0][0][0], float(i));
  }
  // Rethrown unchanged (type and message) on the consumer thread.
  EXPECT_THROW(
      {
        try {
          buffered.Next();
        } catch (const std::out_of_range& e) {
          EXPECT_STREQ(e.what(), "disk on fire at batch 4");
          throw;
        }
      },
      std::out_of_range);
  EXPECT_FALSE(buffered.Next()) << "the pass ended with the error";
  // A new pass works again.
  buffered.BeforeFirst();
  EXPECT_EQ(counting->before_first_calls, 1);
  ASSERT_TRUE(buffered.Next());
  EXPECT_EQ(buffered.Value().data[1][0][0][2], 0.0f);
}

TEST(ThreadBufferIteratorTest, ErrorOnTheFirstBatch) {
  ThreadBufferIterator buffered(std::make_unique<CountingIterator>(-1, 0),
                                BufferParam(1));
  EXPECT_THROW(buffered.Next(), std::out_of_range);
}

TEST(ThreadBufferIteratorTest, EndsAndRestarts) {
  ThreadBufferIterator buffered(std::make_unique<CountingIterator>(5, -1),
                                BufferParam(2));
  for (int pass = 0; pass < 3; ++pass) {
    std::vector<DataBatch> batches = ReadPass(&buffered);
    ASSERT_EQ(batches.size(), 5u);
    for (int i = 0; i < 5; ++i) {
      EXPECT_EQ(batches[i].label[1][0], float(i));
      EXPECT_EQ(batches[i].inst_index[1], 2 * i + 1);
    }
    EXPECT_FALSE(buffered.Next());
    buffered.BeforeFirst();
  }
}

TEST(ThreadBufferIteratorTest, DestroyedWhileTheProducerWaits) {
  // An endless source fills the buffer; the destructor must stop and join
  // the blocked producer (a hang here times the test out).
  for (int buffer_size : {1, 2, 8}) {
    ThreadBufferIterator buffered(std::make_unique<CountingIterator>(-1, -1),
                                  BufferParam(buffer_size));
    ASSERT_TRUE(buffered.Next());
    ASSERT_TRUE(buffered.Next());
    EXPECT_EQ(buffered.Value().data[0][0][0][1], 1.0f);
  }
  // Destroyed before it ever started.
  ThreadBufferIterator unused(std::make_unique<CountingIterator>(-1, -1),
                              BufferParam(2));
}

TEST(ThreadBufferIteratorTest, ValueBeforeNext) {
  ThreadBufferIterator buffered(std::make_unique<CountingIterator>(1, -1),
                                BufferParam(2));
  EXPECT_THAT(DataErrorOf([&] { buffered.Value(); }),
              HasSubstr("Value() called without a batch"));
}

}  // namespace
}  // namespace train
}  // namespace umbra
