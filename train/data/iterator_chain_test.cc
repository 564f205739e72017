#include "train/data/iterator_chain.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "param/param.h"
#include "train/config/config.h"
#include "train/data/data_error.h"
#include "train/data/data_test_util.h"
#include "train/data/iterator_registry.h"
#include "train/data/thread_buffer_iterator.h"

namespace umbra {
namespace train {
namespace {

using data_test::ConfigErrorOf;
using data_test::DataErrorOf;
using data_test::MnistFiles;
using data_test::NewTempDir;
using data_test::ReadPass;
using data_test::SameBatch;
using data_test::TestRng;
using data_test::WriteFile;
using data_test::WriteRandomMnist;
using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(IteratorRegistryTest, ListsEveryBuiltInType) {
  EXPECT_EQ(IteratorRegistry::List(),
            (std::vector<std::string>{"attachtxt", "binary", "csv", "membuffer",
                                      "mnist", "threadbuffer"}));
  EXPECT_EQ(
      IteratorRegistry::Get("mnist").param_structs,
      (std::vector<std::string>{"MnistIteratorParam", "BatchIteratorParam",
                                "AugmentIteratorParam"}));
  EXPECT_EQ(IteratorRegistry::Get("threadbuffer").kind, IteratorKind::kWrapper);
  EXPECT_EQ(IteratorTypeKeys("threadbuffer"),
            (std::vector<std::string>{"buffer_size"}));
  const std::vector<std::string> keys = IteratorTypeKeys("mnist");
  for (const char* key :
       {"path_img", "path_label", "input_flat", "batch_size", "round_batch",
        "shuffle", "seed", "input_shape", "rand_crop", "rand_mirror", "mirror",
        "divideby", "scale", "mean_value", "index_offset", "silent"}) {
    EXPECT_THAT(keys, ::testing::Contains(key));
  }
}

TEST(IteratorRegistryTest, EveryParamStructIsRegistered) {
  const std::vector<std::string> structs = ListParamStructs();
  for (const char* name :
       {"AugmentIteratorParam", "BatchIteratorParam", "BinaryIteratorParam",
        "CsvIteratorParam", "MnistIteratorParam", "ThreadBufferParam"}) {
    EXPECT_THAT(structs, ::testing::Contains(name));
  }
  for (const std::string& type : IteratorRegistry::List()) {
    for (const std::string& name : IteratorRegistry::Get(type).param_structs) {
      EXPECT_THAT(structs, ::testing::Contains(name)) << type;
    }
  }
}

TEST(IteratorRegistryTest, UnknownTypeSuggestsAndLists) {
  EXPECT_EQ(DataErrorOf([] { IteratorRegistry::Get("mnsit"); }),
            "unknown iterator type 'mnsit'; did you mean 'mnist'? Known "
            "types: 6 in all; see tools/config_reference.md");
  EXPECT_EQ(DataErrorOf([] { IteratorRegistry::Get("zzzzzzzz"); }),
            "unknown iterator type 'zzzzzzzz'. Known types: 6 in all; see "
            "tools/config_reference.md");
}

TEST(IteratorRegistryTest, CreateIteratorChecksKeysAndKinds) {
  EXPECT_THAT(DataErrorOf([] {
                CreateIterator("csv", {{"filenme", "x.csv"}}, nullptr);
              }),
              HasSubstr("iterator csv: unknown key 'filenme'; did you mean "
                        "'filename'? Valid keys: "));
  EXPECT_THAT(DataErrorOf([] { CreateIterator("threadbuffer", {}, nullptr); }),
              HasSubstr("iterator threadbuffer wraps another iterator"));
}

class IteratorChainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    files_ = WriteRandomMnist(dir_, 23, 4, 5, true, &rng_);
  }
  // A config with the data block `block` after globals; $IMG and $LBL are
  // replaced by the test files' paths.
  TrainConfig Config(const std::string& text) {
    return ParseTrainConfigText(
        absl::StrReplaceAll(text, {{"$IMG", files_.images_path},
                                   {"$LBL", files_.labels_path},
                                   {"$DIR", dir_}}),
        "t.conf");
  }
  std::unique_ptr<DataIterator> Build(const std::string& text) {
    const TrainConfig config = Config(text);
    return CreateIteratorChain(config, *config.TrainIterator());
  }
  std::string BuildError(const std::string& text) {
    const TrainConfig config = Config(text);
    return ConfigErrorOf(
        [&] { CreateIteratorChain(config, *config.TrainIterator()); });
  }

  TestRng rng_;
  std::string dir_ = NewTempDir();
  MnistFiles files_;
};

TEST_F(IteratorChainTest, MnistWithGlobalsAndThreadBuffer) {
  std::unique_ptr<DataIterator> it = Build(R"(batch_size = 5
input_shape = 1,4,5
eta = 0.1
data = train
iter = mnist
  path_img = "$IMG"
  path_label = "$LBL"
  input_flat = 0
  silent = 1
iter = threadbuffer
  buffer_size = 3
iter = end
)");
  ASSERT_NE(dynamic_cast<ThreadBufferIterator*>(it.get()), nullptr);
  EXPECT_EQ(it->data_shape(), Shape4(5, 1, 4, 5));
  it->BeforeFirst();
  const std::vector<DataBatch> pass = ReadPass(it.get());
  ASSERT_EQ(pass.size(), 5u);  // 23 instances
  EXPECT_EQ(pass[4].num_batch_padd, 2);
  for (int i = 0; i < 23; ++i) {
    const DataBatch& b = pass[i / 5];
    EXPECT_EQ(b.inst_index[i % 5], i);
    EXPECT_EQ(b.label[i % 5][0], files_.labels[i]);
    EXPECT_EQ(b.data[i % 5][0][3][4], files_.pixels[i * 20 + 19] / 256.0f);
  }
}

TEST_F(IteratorChainTest, StageSettingsOverrideGlobalsAndPassDown) {
  // batch_size under the stage wins over the global one; shuffle and seed
  // written under threadbuffer reach mnist (cxxnet's pass-down).
  const std::string text = R"(batch_size = 100
data = train
iter = mnist
  path_img = "$IMG"
  path_label = "$LBL"
  batch_size = 4
  silent = 1
iter = threadbuffer
  shuffle = 1
  seed = SEED
iter = end
)";
  auto order = [&](int seed) {
    std::unique_ptr<DataIterator> it =
        Build(absl::StrReplaceAll(text, {{"SEED", std::to_string(seed)}}));
    EXPECT_EQ(it->data_shape(), Shape4(4, 1, 1, 20));
    std::vector<index_t> indices;
    for (const DataBatch& b : ReadPass(it.get())) {
      indices.insert(indices.end(), b.inst_index.begin(),
                     b.inst_index.end() - b.num_batch_padd);
    }
    return indices;
  };
  const int seed = rng_.Int(0, 10000);
  const std::vector<index_t> a = order(seed);
  EXPECT_EQ(a.size(), 23u);
  EXPECT_EQ(a, order(seed));
  EXPECT_NE(a, order(seed + 1));
  std::vector<index_t> identity(23);
  for (int i = 0; i < 23; ++i) identity[i] = i;
  EXPECT_NE(a, identity);
}

// A key a later stage declares itself stays with it: attachtxt's filename
// does not reach the csv source before it, whose own filename it is not.
TEST_F(IteratorChainTest, ALaterStagesOwnKeyStaysWithIt) {
  WriteFile(dir_ + "/data.csv", "1,0.5,0.25\n0,2,4\n");
  WriteFile(dir_ + "/extra.txt", "1\n0 7\n1 9\n");
  std::unique_ptr<DataIterator> it = Build(R"(data = train
iter = csv
  filename = "$DIR/data.csv"
  batch_size = 2
  input_shape = 1,1,2
  silent = 1
iter = attachtxt
  filename = "$DIR/extra.txt"
iter = end
)");
  it->BeforeFirst();
  ASSERT_TRUE(it->Next());
  const DataBatch& batch = it->Value();
  EXPECT_EQ(batch.label[0][0], 1.0f);
  EXPECT_EQ(batch.data[1][0][0][1], 4.0f);
  ASSERT_EQ(batch.extra_data.size(), 1u);
  EXPECT_EQ(batch.extra_data[0][0][0][0][0], 7.0f);
  EXPECT_EQ(batch.extra_data[0][1][0][0][0], 9.0f);
}

TEST_F(IteratorChainTest, ThreadBufferMatchesThePlainChain) {
  const std::string plain = R"(batch_size = 3
seed = 11
data = train
iter = mnist
  path_img = "$IMG"
  path_label = "$LBL"
  input_flat = 0
  input_shape = 1,3,3
  rand_crop = 1
  rand_mirror = 1
  shuffle = 1
  round_batch = 1
  silent = 1
)";
  std::unique_ptr<DataIterator> a = Build(plain + "iter = end\n");
  std::unique_ptr<DataIterator> b =
      Build(plain + "iter = threadbuffer\niter = end\n");
  for (int pass = 0; pass < 3; ++pass) {
    a->BeforeFirst();
    b->BeforeFirst();
    const std::vector<DataBatch> x = ReadPass(a.get()), y = ReadPass(b.get());
    ASSERT_EQ(x.size(), y.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      std::string difference;
      EXPECT_TRUE(SameBatch(x[i], y[i], &difference))
          << "pass " << pass << " batch " << i << ": " << difference;
    }
  }
}

TEST_F(IteratorChainTest, CsvAndBinarySources) {
  WriteFile(dir_ + "/d.csv", "y,a,b\n1,2,3\n4,5,6\n");
  std::unique_ptr<DataIterator> csv = Build(R"(data = train
iter = csv
  filename = "$DIR/d.csv"
  has_header = 1
  batch_size = 2
  divideby = 2
  silent = 1
iter = end
)");
  ASSERT_TRUE(csv->Next());
  EXPECT_EQ(csv->Value().data[1][0][0][1], 3.0f);
  EXPECT_EQ(csv->Value().label[1][0], 4.0f);
  EXPECT_THAT(BuildError(R"(data = train
iter = binary
  path_data = "$DIR/none.umbra"
  batch_size = 2
iter = end
)"),
              StartsWith("t.conf:3: in data train, iterator binary: binary: "
                         "key 'path_data': cannot open '"));
}

TEST_F(IteratorChainTest, ErrorsPointAtTheLine) {
  EXPECT_EQ(BuildError("data = train\niter = mnsit\niter = end\n"),
            "t.conf:2: in data train: unknown iterator type 'mnsit'; did you "
            "mean 'mnist'? Known types: 6 in all; see "
            "tools/config_reference.md");
  EXPECT_THAT(BuildError("data = train\niter = threadbuffer\niter = end\n"),
              StartsWith("t.conf:2: in data train: iterator 'threadbuffer' "
                         "wraps the stage before it and cannot come first"));
  EXPECT_THAT(BuildError(R"(batch_size = 2
data = train
iter = mnist
  path_img = "$IMG"
  path_label = "$LBL"
iter = csv
iter = end
)"),
              StartsWith("t.conf:6: in data train: iterator 'csv' reads its "
                         "own data and cannot wrap"));
  EXPECT_THAT(
      BuildError(R"(data = train
iter = mnist
  path_img = "$IMG"
  path_label = "$LBL"
  shufle = 1
iter = end
)"),
      StartsWith("t.conf:5: unknown key 'shufle' in data train, "
                 "iterator mnist; did you mean 'shuffle'? Valid keys:"));
  // buffer_size belongs to threadbuffer, not to the mnist before it.
  EXPECT_THAT(BuildError(R"(data = train
iter = mnist
  buffer_size = 4
iter = threadbuffer
iter = end
)"),
              StartsWith("t.conf:3: unknown key 'buffer_size' in data train, "
                         "iterator mnist"));
}

TEST_F(IteratorChainTest, BadValuesAndFilesPointAtTheirLine) {
  EXPECT_THAT(BuildError(R"(batch_size = 0
data = train
iter = mnist
  path_img = "$IMG"
  path_label = "$LBL"
iter = end
)"),
              StartsWith("t.conf:1: in data train, iterator mnist: "));
  EXPECT_THAT(BuildError(R"(batch_size = 2
data = train
iter = mnist
  path_img = "$IMG"
  path_label = "$DIR/missing-labels.gz"
iter = end
)"),
              StartsWith("t.conf:5: in data train, iterator mnist: mnist: key "
                         "'path_label': cannot open '" +
                         dir_ + "/missing-labels.gz': No such file"));
  // A required key that is missing: at the iter line.
  EXPECT_THAT(BuildError(R"(batch_size = 2
data = train
iter = mnist
  path_img = "$IMG"
iter = end
)"),
              StartsWith("t.conf:3: in data train, iterator mnist: "));
  EXPECT_THAT(BuildError(R"(batch_size = 2
input_shape = 1,28,28
data = train
iter = mnist
  path_img = "$IMG"
  path_label = "$LBL"
iter = end
)"),
              StartsWith("t.conf:2: in data train, iterator mnist: mnist: key "
                         "'input_shape': 1,28,28 does not fit"));
  EXPECT_THAT(BuildError(R"(batch_size = 2
data = train
iter = mnist
  path_img = "$IMG"
  path_label = "$LBL"
iter = threadbuffer
  buffer_size = 0
iter = end
)"),
              StartsWith("t.conf:7: in data train, iterator threadbuffer: "));
}

TEST_F(IteratorChainTest, SchemaValidatesIteratorKeys) {
  KeySchema schema;
  schema.AddGlobalKeys({"eta"});
  AddIteratorSchema(&schema);
  ValidateTrainConfig(Config(R"(batch_size = 2
eta = 0.1
data = train
iter = mnist
  path_img = "$IMG"
  path_label = "$LBL"
iter = threadbuffer
iter = end
)"),
                      schema);
  EXPECT_THAT(ConfigErrorOf([&] {
                ValidateTrainConfig(Config(R"(data = train
iter = mnist
  path_imag = x
iter = end
)"),
                                    schema);
              }),
              HasSubstr("did you mean 'path_img'?"));
}

}  // namespace
}  // namespace train
}  // namespace umbra
