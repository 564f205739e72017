#include "train/data/batch_iterator.h"

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/data/binary_format.h"
#include "train/data/data_error.h"
#include "train/data/data_test_util.h"
#include "train/data/dataset.h"

namespace umbra {
namespace train {
namespace {

using data_test::DataErrorOf;
using data_test::ReadPass;
using data_test::TestRng;
using ::testing::HasSubstr;
using ::testing::Not;

// A data set whose instance i holds values i*100 + j and label i, so every
// row of a batch tells which instance it is.
std::unique_ptr<MemoryDataset> CountingDataset(index_t size,
                                               const Shape<3>& shape) {
  auto set = std::make_unique<MemoryDataset>(shape, 1, size, "counting");
  for (index_t i = 0; i < size; ++i) {
    for (index_t j = 0; j < shape.Size(); ++j) {
      set->data()[i][j] = i * 100.0f + j;
    }
    set->labels()[i][0] = i;
  }
  return set;
}

// CountingDataset's instances, augmented by themselves: element 0 of each
// row holds the read's seed (its low 20 bits), the rest the counting values.
class SeedRecordingDataset : public AugmentingDataset {
 public:
  SeedRecordingDataset(index_t size, const Shape<3>& shape)
      : counting_(CountingDataset(size, shape)) {}

  index_t size() const override { return counting_->size(); }
  Shape<3> instance_shape() const override {
    return counting_->instance_shape();
  }
  index_t label_width() const override { return 1; }
  void Read(index_t index, Tensor<cpu, 1, float> data,
            Tensor<cpu, 1, float> label) override {
    counting_->Read(index, data, label);
  }
  void ReadBatch(const std::vector<InstanceRead>& reads,
                 Tensor<cpu, 2, float> data,
                 Tensor<cpu, 2, float> labels) override {
    for (const InstanceRead& read : reads) {
      Read(read.index, data[read.row], labels[read.row]);
      data[read.row][0] = static_cast<float>(read.seed & 0xFFFFF);
    }
  }
  std::string Describe() const override { return "seed recording"; }

 private:
  std::unique_ptr<MemoryDataset> counting_;
};

enum class Source { kCounting, kSeedRecording };

std::unique_ptr<BatchIterator> MakeIterator(index_t size, const ParamKwargs& kw,
                                            const Shape<3>& shape = Shape3(1, 2,
                                                                           3),
                                            BatchPart part = {},
                                            Source source = Source::kCounting) {
  BatchIteratorParam batch;
  batch.InitAllowUnknown(kw);
  AugmentIteratorParam augment;
  augment.InitAllowUnknown(kw);
  std::unique_ptr<Dataset> dataset;
  if (source == Source::kCounting) {
    dataset = CountingDataset(size, shape);
  } else {
    dataset = std::make_unique<SeedRecordingDataset>(size, shape);
  }
  return std::make_unique<BatchIterator>(std::move(dataset), batch, augment,
                                         part);
}

// The instance of every real (not padding) row of a pass, checking that
// each row's data and label belong to its inst_index.
std::vector<index_t> Instances(const std::vector<DataBatch>& pass,
                               bool include_padding = false) {
  std::vector<index_t> out;
  for (const DataBatch& b : pass) {
    const index_t rows =
        include_padding ? b.batch_size : b.batch_size - b.num_batch_padd;
    for (index_t r = 0; r < rows; ++r) {
      const index_t i = b.inst_index[r];
      EXPECT_EQ(b.label[r][0], float(i));
      const Tensor<cpu, 1, float> row = b.data[r].FlatTo1D();
      for (index_t j = 0; j < row.size(0); ++j) {
        EXPECT_EQ(row[j], i * 100.0f + j) << "row " << r << " element " << j;
      }
      out.push_back(i);
    }
  }
  return out;
}

std::vector<index_t> Range(index_t n) {
  std::vector<index_t> v(n);
  for (index_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

TEST(BatchIteratorTest, InOrderWithZeroPadding) {
  TestRng rng;
  const index_t size = rng.Int(5, 40);
  const index_t batch_size = rng.Int(1, size);
  auto it = MakeIterator(
      size, {{"batch_size", std::to_string(batch_size)}, {"silent", "1"}});
  EXPECT_EQ(it->data_shape(), Shape4(batch_size, 1, 2, 3));
  EXPECT_EQ(it->label_width(), 1);
  const std::vector<DataBatch> pass = ReadPass(it.get());
  ASSERT_EQ(index_t(pass.size()), (size + batch_size - 1) / batch_size);
  EXPECT_EQ(Instances(pass), Range(size));
  const DataBatch& last = pass.back();
  EXPECT_EQ(last.num_batch_padd, pass.size() * batch_size - size);
  for (index_t r = last.batch_size - last.num_batch_padd; r < last.batch_size;
       ++r) {
    EXPECT_EQ(last.inst_index[r], kPaddingIndex);
    EXPECT_EQ(last.label[r][0], 0.0f);
    EXPECT_EQ(last.data[r][0][1][2], 0.0f);
  }
  for (std::size_t b = 0; b + 1 < pass.size(); ++b) {
    EXPECT_EQ(pass[b].num_batch_padd, 0);
  }
  // The pass is over until BeforeFirst(); then it repeats exactly.
  EXPECT_FALSE(it->Next());
  it->BeforeFirst();
  EXPECT_EQ(Instances(ReadPass(it.get())), Range(size));
}

TEST(BatchIteratorTest, RoundBatchWrapsAroundAndContinues) {
  // 10 instances, batches of 4: cxxnet's round_batch fills the third batch
  // with instances 0 and 1 and the next pass starts at 2.
  auto it = MakeIterator(
      10, {{"batch_size", "4"}, {"round_batch", "1"}, {"silent", "1"}});
  std::vector<DataBatch> pass = ReadPass(it.get());
  ASSERT_EQ(pass.size(), 3u);
  EXPECT_EQ(pass[2].num_batch_padd, 2);
  EXPECT_EQ(Instances(pass, true),
            (std::vector<index_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1}));
  it->BeforeFirst();
  pass = ReadPass(it.get());
  ASSERT_EQ(pass.size(), 2u);
  EXPECT_EQ(pass[1].num_batch_padd, 0);
  EXPECT_EQ(Instances(pass, true),
            (std::vector<index_t>{2, 3, 4, 5, 6, 7, 8, 9}));
  it->BeforeFirst();
  pass = ReadPass(it.get());
  EXPECT_EQ(Instances(pass, true),
            (std::vector<index_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1}));
  EXPECT_EQ(pass.back().num_batch_padd, 2);
}

TEST(BatchIteratorTest, RoundBatchCoversEveryInstanceOverPasses) {
  TestRng rng;
  const index_t size = rng.Int(3, 30);
  const index_t batch_size = rng.Int(1, size);
  auto it = MakeIterator(size, {{"batch_size", std::to_string(batch_size)},
                                {"round_batch", "1"},
                                {"shuffle", "1"},
                                {"seed", std::to_string(rng.Int(0, 1000))},
                                {"silent", "1"}});
  std::vector<index_t> counts(size, 0);
  index_t rows = 0;
  for (int p = 0; p < 5; ++p) {
    it->BeforeFirst();
    for (index_t i : Instances(ReadPass(it.get()), true)) {
      ++counts[i];
      ++rows;
    }
  }
  // Rows are a stream of whole shuffled passes: each instance appears
  // rows / size times, give or take the pass in progress.
  for (index_t i = 0; i < size; ++i) {
    EXPECT_GE(counts[i], rows / size) << "instance " << i;
    EXPECT_LE(counts[i], rows / size + 1) << "instance " << i;
  }
}

TEST(BatchIteratorTest, ShuffleIsSeededAndNewEveryPass) {
  TestRng rng;
  const index_t size = 50;
  const int seed = rng.Int(0, 1 << 20);
  auto order = [&](int s, int passes) {
    auto it = MakeIterator(size, {{"batch_size", "7"},
                                  {"shuffle", "1"},
                                  {"seed", std::to_string(s)},
                                  {"silent", "1"}});
    std::vector<std::vector<index_t>> orders;
    for (int p = 0; p < passes; ++p) {
      it->BeforeFirst();
      orders.push_back(Instances(ReadPass(it.get())));
    }
    return orders;
  };
  const auto a = order(seed, 3);
  EXPECT_EQ(a, order(seed, 3)) << "same seed, same orders";
  EXPECT_NE(a, order(seed + 1, 3)) << "another seed, other orders";
  for (const auto& pass : a) {
    std::vector<index_t> sorted = pass;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, Range(size)) << "a pass is a permutation";
    EXPECT_NE(pass, Range(size)) << "and not the identity";
  }
  EXPECT_NE(a[0], a[1]) << "reshuffled for the next pass";
  EXPECT_NE(a[1], a[2]);
}

TEST(BatchIteratorTest, BeforeFirstWithoutNextKeepsTheOrder) {
  auto it = MakeIterator(
      20, {{"batch_size", "5"}, {"shuffle", "1"}, {"silent", "1"}});
  auto again = MakeIterator(
      20, {{"batch_size", "5"}, {"shuffle", "1"}, {"silent", "1"}});
  it->BeforeFirst();
  it->BeforeFirst();
  EXPECT_EQ(Instances(ReadPass(it.get())), Instances(ReadPass(again.get())));
}

// test_skipread: each pass has its usual number of batches, all of them the
// pass's first (read once); the next pass reads its own first batch.
TEST(BatchIteratorTest, TestSkipReadRepeatsEachPassesFirstBatch) {
  TestRng rng;
  const index_t size = rng.Int(10, 40);
  const ParamKwargs keys = {{"batch_size", std::to_string(rng.Int(2, 6))},
                            {"shuffle", "1"},
                            {"seed", std::to_string(rng.Int(0, 999))},
                            {"silent", "1"}};
  auto reading = MakeIterator(size, keys);
  ParamKwargs skipping_keys = keys;
  skipping_keys.push_back({"test_skipread", "1"});
  auto skipping = MakeIterator(size, skipping_keys);
  for (int pass = 0; pass < 2; ++pass) {
    reading->BeforeFirst();
    skipping->BeforeFirst();
    const std::vector<DataBatch> read = ReadPass(reading.get());
    const std::vector<DataBatch> skipped = ReadPass(skipping.get());
    ASSERT_EQ(read.size(), skipped.size());
    const std::vector<index_t> first = Instances({read[0]});
    for (const DataBatch& batch : skipped) {
      EXPECT_EQ(Instances({batch}, /*include_padding=*/true), first);
    }
  }
}

TEST(BatchIteratorTest, IndexOffset) {
  auto it = MakeIterator(
      3, {{"batch_size", "3"}, {"index_offset", "1000"}, {"silent", "1"}});
  ASSERT_TRUE(it->Next());
  EXPECT_EQ(it->Value().inst_index, (std::vector<index_t>{1000, 1001, 1002}));
}

// Split over `count` ranks, part p of every batch is rows [p, p + 1) *
// batch_size / count of the whole batch: the same instances, the same
// augmentation (random crops and mirrors), the same padding, over shuffled
// passes with and without round_batch.
// For an AugmentingDataset this also says that every instance's seed is
// the same whichever rank reads it.
class BatchIteratorPartsTest : public ::testing::TestWithParam<Source> {};

TEST_P(BatchIteratorPartsTest, PartsTogetherAreTheWholeBatch) {
  TestRng rng;
  const Source source = GetParam();
  for (int count = 1; count <= 4; ++count) {
    const index_t size = rng.Int(3, 40);
    const index_t batch_size = count * rng.Int(1, 5);
    const bool round_batch = rng.Int(0, 1) == 1 && size >= batch_size;
    const ParamKwargs kw = {{"batch_size", std::to_string(batch_size)},
                            {"round_batch", round_batch ? "1" : "0"},
                            {"shuffle", "1"},
                            {"seed", std::to_string(rng.Int(0, 1000))},
                            {"rand_crop", "1"},
                            {"rand_mirror", "1"},
                            {"input_shape", "1,3,3"},
                            {"silent", "1"}};
    SCOPED_TRACE(::testing::Message()
                 << count << " parts of batches of " << batch_size << " from "
                 << size << (round_batch ? ", round_batch" : ""));
    // An augmenting source gives instances of the input shape.
    const Shape<3> shape =
        source == Source::kCounting ? Shape3(1, 4, 5) : Shape3(1, 3, 3);
    auto whole = MakeIterator(size, kw, shape, {}, source);
    std::vector<std::unique_ptr<BatchIterator>> parts;
    for (int p = 0; p < count; ++p) {
      parts.push_back(MakeIterator(size, kw, shape, {p, count}, source));
    }
    const index_t rows = batch_size / count;
    for (int pass = 0; pass < 3; ++pass) {
      const std::vector<DataBatch> batches = ReadPass(whole.get());
      for (int p = 0; p < count; ++p) {
        const std::vector<DataBatch> part_batches = ReadPass(parts[p].get());
        ASSERT_EQ(part_batches.size(), batches.size()) << "part " << p;
        for (size_t b = 0; b < batches.size(); ++b) {
          const DataBatch& all = batches[b];
          const DataBatch& mine = part_batches[b];
          ASSERT_EQ(mine.batch_size, rows);
          const index_t first = p * rows;
          const index_t real = all.batch_size - all.num_batch_padd;
          EXPECT_EQ(mine.num_batch_padd,
                    std::clamp<index_t>(first + rows - real, 0, rows))
              << "part " << p << " batch " << b;
          for (index_t r = 0; r < rows; ++r) {
            ASSERT_EQ(mine.inst_index[r], all.inst_index[first + r]);
            ASSERT_EQ(mine.label[r][0], all.label[first + r][0]);
            const Tensor<cpu, 1, float> got = mine.data[r].FlatTo1D();
            const Tensor<cpu, 1, float> want = all.data[first + r].FlatTo1D();
            for (index_t j = 0; j < got.size(0); ++j) {
              ASSERT_EQ(got[j], want[j]) << "pass " << pass << " part " << p
                                         << " batch " << b << " row " << r;
            }
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(BothKindsOfSource, BatchIteratorPartsTest,
                         ::testing::Values(Source::kCounting,
                                           Source::kSeedRecording));

// The seed of each read depends on the iterator's seed and how many
// instances came before it: new for every instance and pass, and the same
// after SkipPass as after reading the pass.
TEST(BatchIteratorTest, AugmentingSourceGetsASeedPerInstanceAndPass) {
  TestRng rng;
  const index_t size = rng.Int(5, 30);
  const ParamKwargs kw = {{"batch_size", std::to_string(rng.Int(1, 6))},
                          {"shuffle", "1"},
                          {"seed", std::to_string(rng.Int(0, 1000))},
                          {"silent", "1"}};
  auto reader =
      MakeIterator(size, kw, Shape3(1, 1, 2), {}, Source::kSeedRecording);
  auto skipper =
      MakeIterator(size, kw, Shape3(1, 1, 2), {}, Source::kSeedRecording);
  std::set<float> seeds;
  std::vector<DataBatch> second;
  for (int pass = 0; pass < 2; ++pass) {
    reader->BeforeFirst();
    second = ReadPass(reader.get());
    for (const DataBatch& batch : second) {
      for (index_t r = 0; r < batch.batch_size - batch.num_batch_padd; ++r) {
        seeds.insert(batch.data[r][0][0][0]);
        EXPECT_EQ(batch.data[r][0][0][1], batch.inst_index[r] * 100.0f + 1);
      }
    }
  }
  // 20-bit views of 2 * size distinct seeds: a collision is possible but
  // rare; allow one.
  EXPECT_GE(seeds.size(), static_cast<std::size_t>(2 * size - 1));
  skipper->SkipPass();
  skipper->BeforeFirst();
  const std::vector<DataBatch> after_skip = ReadPass(skipper.get());
  ASSERT_EQ(after_skip.size(), second.size());
  for (std::size_t b = 0; b < second.size(); ++b) {
    std::string difference;
    EXPECT_TRUE(data_test::SameBatch(after_skip[b], second[b], &difference))
        << "batch " << b << ": " << difference;
  }
}

// Instances larger than input_shape are cropped, and the data line says so.
TEST(BatchIteratorTest, TheDataLineSaysInstancesAreCropped) {
  for (const bool random : {false, true}) {
    ::testing::internal::CaptureStderr();
    MakeIterator(4,
                 {{"batch_size", "2"},
                  {"input_shape", "1,3,3"},
                  {"rand_crop", random ? "1" : "0"}},
                 Shape3(1, 4, 5));
    EXPECT_THAT(::testing::internal::GetCapturedStderr(),
                HasSubstr(std::string("batch 2,1,3,3 (instances of 1,4,5 "
                                      "cropped ") +
                          (random ? "at random" : "at the centre") + ")"));
  }
  ::testing::internal::CaptureStderr();
  MakeIterator(4, {{"batch_size", "2"}}, Shape3(1, 4, 5));
  EXPECT_THAT(::testing::internal::GetCapturedStderr(),
              Not(HasSubstr("cropped")));
}

TEST(BatchIteratorTest, RefusesABatchThePartsDoNotDivide) {
  EXPECT_THAT(DataErrorOf([] {
                MakeIterator(20, {{"batch_size", "10"}, {"silent", "1"}},
                             Shape3(1, 2, 3), {0, 4});
              }),
              HasSubstr("key 'batch_size': 10 is the global batch, split over "
                        "4 ranks, and 4 does not divide it"));
}

TEST(BatchIteratorTest, Errors) {
  EXPECT_THAT(
      DataErrorOf([] {
        MakeIterator(3, {{"batch_size", "4"}, {"round_batch", "1"}});
      }),
      HasSubstr("key 'batch_size': round_batch needs at least batch_size = 4 "
                "instances, counting has 3"));
  EXPECT_THAT(DataErrorOf([] {
                MakeIterator(3, {{"batch_size", "1"}, {"label_width", "2"}});
              }),
              HasSubstr("key 'label_width': 2, but counting has 1 label per "
                        "instance"));
  auto it = MakeIterator(2, {{"batch_size", "2"}, {"silent", "1"}});
  EXPECT_THAT(DataErrorOf([&] { it->Value(); }),
              HasSubstr("Value() called without a batch"));
  ASSERT_TRUE(it->Next());
  EXPECT_FALSE(it->Next());
  EXPECT_THAT(DataErrorOf([&] { it->Value(); }),
              HasSubstr("Value() called without a batch"));
}

TEST(BatchIteratorTest, ExtraInputsFollowTheirInstances) {
  TestRng rng;
  const int count = rng.Int(5, 23);
  const index_t width = rng.Int(1, 4);
  const std::string path = data_test::NewTempDir() + "/extra.umbra";
  {
    BinaryDatasetWriter writer(path, Shape3(1, 3, 3), 1, BinaryDtype::kFloat32,
                               {Shape3(1, 1, width)});
    TensorContainer<cpu, 1, float> x(Shape1(9)), e(Shape1(width));
    for (int i = 0; i < count; ++i) {
      x = float(i);
      for (index_t j = 0; j < width; ++j) e[j] = i * 10.0f + j + 1;
      writer.Append(x, {float(i)}, {e});
    }
    writer.Finish();
  }
  BatchIteratorParam batch;
  batch.Init({{"batch_size", "4"},
              {"shuffle", "1"},
              {"seed", std::to_string(rng.Int(0, 1000))}});
  AugmentIteratorParam augment;
  augment.Init({{"input_shape", "1,2,2"}, {"rand_crop", "1"}});
  BatchIterator it(OpenBinaryDataset(path), batch, augment);
  ASSERT_EQ(it.extra_data_shapes(),
            (std::vector<Shape<4>>{Shape4(4, 1, 1, width)}));
  std::set<index_t> seen;
  for (const DataBatch& b : ReadPass(&it)) {
    ASSERT_EQ(b.extra_data.size(), 1u);
    for (index_t r = 0; r < b.batch_size; ++r) {
      const index_t i = b.inst_index[r];
      for (index_t j = 0; j < width; ++j) {
        // Not cropped, and zero in padding rows.
        EXPECT_EQ(b.extra_data[0][r][0][0][j],
                  i == kPaddingIndex ? 0.0f : i * 10.0f + j + 1)
            << "row " << r << " instance " << i;
      }
      if (i != kPaddingIndex) seen.insert(i);
    }
  }
  EXPECT_EQ(seen.size(), static_cast<size_t>(count));
}

}  // namespace
}  // namespace train
}  // namespace umbra
