// cxxnet's wrapper iterators: membuffer gives the first max_nbatch batches
// of the stage before on every pass; attachtxt adds an extra input read per
// instance from a text file, and names what the file lacks.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/data/data.h"
#include "train/data/data_test_util.h"

namespace umbra {
namespace train {
namespace {

using data_test::DataErrorOf;
using data_test::NewTempDir;
using data_test::ReadPass;
using data_test::SameBatch;
using data_test::TestRng;
using data_test::WriteFile;
using ::testing::HasSubstr;

// A CSV of `rows` instances: label i, then 3 values i * 10 + j.
std::string WriteCounting(const std::string& dir, int rows) {
  std::string csv;
  for (int i = 0; i < rows; ++i) {
    absl::StrAppend(&csv, i, ",", i * 10, ",", i * 10 + 1, ",", i * 10 + 2,
                    "\n");
  }
  WriteFile(dir + "/data.csv", csv);
  return dir + "/data.csv";
}

std::unique_ptr<DataIterator> Csv(const std::string& path, int batch_size,
                                  bool shuffle) {
  return CreateIterator("csv",
                        {{"filename", path},
                         {"batch_size", std::to_string(batch_size)},
                         {"input_shape", "1,1,3"},
                         {"shuffle", shuffle ? "1" : "0"},
                         {"silent", "1"}},
                        nullptr);
}

TEST(CxxnetWrappersTest, MembufferGivesTheFirstBatchesOnEveryPass) {
  TestRng rng;
  const std::string csv = WriteCounting(NewTempDir(), rng.Int(20, 40));
  const int max_nbatch = rng.Int(1, 4);
  auto reference = Csv(csv, 5, /*shuffle=*/true);
  reference->BeforeFirst();
  const std::vector<DataBatch> first_pass = ReadPass(reference.get());
  auto buffered =
      CreateIterator("membuffer", {{"max_nbatch", std::to_string(max_nbatch)}},
                     Csv(csv, 5, /*shuffle=*/true));
  for (int pass = 0; pass < 3; ++pass) {
    buffered->BeforeFirst();
    const std::vector<DataBatch> batches = ReadPass(buffered.get());
    ASSERT_EQ(batches.size(), static_cast<std::size_t>(max_nbatch));
    for (int i = 0; i < max_nbatch; ++i) {
      std::string difference;
      EXPECT_TRUE(SameBatch(batches[i], first_pass[i], &difference))
          << "pass " << pass << " batch " << i << ": " << difference;
    }
  }
}

TEST(CxxnetWrappersTest, AttachtxtAddsEachInstancesLineAsAnExtraInput) {
  TestRng rng;
  const std::string dir = NewTempDir();
  const int rows = rng.Int(6, 15);
  const std::string csv = WriteCounting(dir, rows);
  // dim 2; instance i: -i and i / 4, listed in reverse, one over two lines.
  std::string text = "2\n";
  for (int i = rows - 1; i >= 0; --i) {
    absl::StrAppend(&text, i, " ", -i, i % 2 ? "\n" : " ", i / 4.0, "\n");
  }
  WriteFile(dir + "/extra.txt", text);
  auto attached =
      CreateIterator("attachtxt", {{"filename", dir + "/extra.txt"}},
                     Csv(csv, 4, /*shuffle=*/true));
  EXPECT_EQ(attached->extra_data_shapes(),
            (std::vector<Shape<4>>{Shape4(4, 1, 1, 2)}));
  attached->BeforeFirst();
  int seen = 0;
  for (const DataBatch& batch : ReadPass(attached.get())) {
    ASSERT_EQ(batch.extra_data.size(), 1u);
    for (index_t row = 0; row < batch.batch_size; ++row) {
      const index_t i = batch.inst_index[row];
      const bool padding = row >= batch.batch_size - batch.num_batch_padd;
      EXPECT_EQ(batch.extra_data[0][row][0][0][0], padding ? 0.0f : -float(i));
      EXPECT_EQ(batch.extra_data[0][row][0][0][1], padding ? 0.0f : i / 4.0f);
      seen += !padding;
    }
  }
  EXPECT_EQ(seen, rows);
  // An instance the file does not list, and bad files.
  WriteFile(dir + "/short.txt", "2\n0 1 2\n");
  EXPECT_THAT(DataErrorOf([&] {
                auto it = CreateIterator("attachtxt",
                                         {{"filename", dir + "/short.txt"}},
                                         Csv(csv, rows, /*shuffle=*/false));
                it->BeforeFirst();
                it->Next();
              }),
              HasSubstr("short.txt' has no line for instance 1 (row 1"));
  for (const auto& [file, message] :
       std::vector<std::pair<std::string, std::string>>{
           {"0\n", ":1: the file starts with '0'"},
           {"2\n0 1\n", ":2: instance 0 has 1 of its 2 numbers"},
           {"1\n0 1\n0 2\n", ":3: instance 0 is listed twice"},
           {"1\n0 nan\n", ":2: value 1 of instance 0 is 'nan'"},
           {"1\n-1 3\n", ":2: expected an instance index"}}) {
    WriteFile(dir + "/bad.txt", file);
    EXPECT_THAT(DataErrorOf([&] {
                  CreateIterator("attachtxt", {{"filename", dir + "/bad.txt"}},
                                 Csv(csv, 4, /*shuffle=*/false));
                }),
                HasSubstr(message))
        << file;
  }
}

}  // namespace
}  // namespace train
}  // namespace umbra
