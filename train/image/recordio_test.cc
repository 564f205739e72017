#include "train/image/recordio.h"

#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "train/data/data_error.h"
#include "train/data/data_test_util.h"

namespace umbra {
namespace train {
namespace {

using data_test::DataErrorOf;
using data_test::NewTempDir;
using data_test::TestRng;
using data_test::WriteFile;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Little-endian bytes, built by hand so that the tests pin the format
// independently of the code under test.
std::string Le32(std::uint32_t value) {
  std::string out;
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<char>(value >> (8 * i)));
  return out;
}

std::string Le64(std::uint64_t value) {
  return Le32(static_cast<std::uint32_t>(value)) +
         Le32(static_cast<std::uint32_t>(value >> 32));
}

// The magic as it lies in a file: 0a 23 d7 ce.
const std::string kMagicBytes("\x0a\x23\xd7\xce", 4);

std::string Header(std::uint32_t cflag, std::uint32_t length) {
  return kMagicBytes + Le32(cflag << 29 | length);
}

std::string Written(const std::vector<std::string>& payloads,
                    std::vector<std::uint64_t>* offsets = nullptr) {
  std::ostringstream stream;
  RecordIOWriter writer(&stream, "memory");
  for (const std::string& payload : payloads) {
    const std::uint64_t offset = writer.WriteRecord(payload);
    if (offsets != nullptr) offsets->push_back(offset);
  }
  writer.Close();
  return stream.str();
}

TEST(RecordIOWriterTest, WholeRecordsMatchHandBuiltBytes) {
  EXPECT_EQ(kMagicBytes, Le32(kRecordIOMagic));
  std::vector<std::uint64_t> offsets;
  const std::string bytes = Written({"abcde", "", "wxyz"}, &offsets);
  const std::string expected = Header(0, 5) + "abcde" + std::string(3, '\0') +
                               Header(0, 0) + Header(0, 4) + "wxyz";
  EXPECT_EQ(bytes, expected);
  EXPECT_THAT(offsets, ElementsAre(0, 16, 24));
}

TEST(RecordIOWriterTest, SplitsAtAlignedMagicOnlyAsDmlcDoes) {
  // Aligned at 4: two pieces, the magic left out.
  EXPECT_EQ(Written({"ABCD" + kMagicBytes + "EF"}),
            Header(1, 4) + "ABCD" + Header(3, 2) + "EF" + std::string(2, '\0'));
  // Not aligned: one whole record.
  EXPECT_EQ(Written({"A" + kMagicBytes + "BC"}),
            Header(0, 7) + "A" + kMagicBytes + "BC" + std::string(1, '\0'));
  // The magic alone, twice, at the start, at the end.
  EXPECT_EQ(Written({kMagicBytes}), Header(1, 0) + Header(3, 0));
  EXPECT_EQ(Written({kMagicBytes + kMagicBytes}),
            Header(1, 0) + Header(2, 0) + Header(3, 0));
  EXPECT_EQ(Written({kMagicBytes + "xy"}),
            Header(1, 0) + Header(3, 2) + "xy" + std::string(2, '\0'));
  EXPECT_EQ(Written({"12345678" + kMagicBytes}),
            Header(1, 8) + "12345678" + Header(3, 0));
  // The magic in the unaligned tail is not split.
  EXPECT_EQ(Written({"12345" + kMagicBytes}),
            Header(0, 9) + "12345" + kMagicBytes + std::string(3, '\0'));
}

TEST(RecordIOWriterTest, OffsetsStartAtTheStreamPosition) {
  std::ostringstream stream;
  stream << "1234";
  RecordIOWriter writer(&stream, "memory");
  EXPECT_EQ(writer.WriteRecord("a"), 4u);
  EXPECT_EQ(writer.offset(), 16u);
  EXPECT_EQ(writer.WriteRecord(kMagicBytes), 16u);
  EXPECT_EQ(writer.offset(), 32u);
}

TEST(RecordIOWriterTest, CannotCreateNamesThePath) {
  const std::string path = NewTempDir() + "/missing/out.rec";
  EXPECT_EQ(DataErrorOf([&] { RecordIOWriter writer(path); }),
            "cannot create '" + path + "': No such file or directory");
}

TEST(RecordIOWriterTest, WriteAfterCloseIsAnError) {
  std::ostringstream stream;
  RecordIOWriter writer(&stream, "memory");
  writer.Close();
  EXPECT_THAT(DataErrorOf([&] { writer.WriteRecord("x"); }),
              AllOf(HasSubstr("'memory'"), HasSubstr("closed")));
}

TEST(RecordIOReaderTest, ReadsHandBuiltSplitRecord) {
  const std::string path = NewTempDir() + "/split.rec";
  WriteFile(path, Header(0, 3) + "abc" + std::string(1, '\0') +  //
                      Header(1, 4) + "ABCD" + Header(2, 0) + Header(3, 1) +
                      "Z" + std::string(3, '\0') + Header(0, 0));
  RecordIOReader reader(path);
  EXPECT_EQ(reader.file_size(), 52u);
  EXPECT_THAT(reader.ScanOffsets(), ElementsAre(0, 12, 44));
  std::string payload = "old content";
  EXPECT_EQ(reader.ReadRecordAt(0, &payload), 12u);
  EXPECT_EQ(payload, "abc");
  EXPECT_EQ(reader.ReadRecordAt(12, &payload), 44u);
  EXPECT_EQ(payload, "ABCD" + kMagicBytes + kMagicBytes + "Z");
  EXPECT_EQ(reader.ReadRecordAt(44, &payload), 52u);
  EXPECT_EQ(payload, "");
}

// A random payload of 0 to 40 bytes (lengths of every remainder mod 4), with
// the magic put at random places, aligned or not.
std::string RandomPayload(TestRng* rng) {
  const std::vector<unsigned char> bytes = rng->Bytes(rng->Int(0, 40));
  std::string payload(bytes.begin(), bytes.end());
  const int magics = rng->Int(0, 3);
  for (int i = 0; i < magics && payload.size() >= 4; ++i) {
    const int at = rng->Int(0, 1) == 0 ? 4 * rng->Int(0, payload.size() / 4 - 1)
                                       : rng->Int(0, payload.size() - 4);
    payload.replace(at, 4, kMagicBytes);
  }
  return payload;
}

class RecordIORoundTripTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = NewTempDir() + "/pack.rec";
    RecordIOWriter writer(path_);
    payloads_ = {"", kMagicBytes, kMagicBytes + kMagicBytes, "abc"};
    for (int i = 0; i < 300; ++i) payloads_.push_back(RandomPayload(&rng_));
    for (const std::string& payload : payloads_) {
      EXPECT_EQ(writer.offset() % 4, 0u);
      offsets_.push_back(writer.WriteRecord(payload));
    }
    end_ = writer.offset();
    writer.Close();
  }
  TestRng rng_;
  std::string path_;
  std::vector<std::string> payloads_;
  std::vector<std::uint64_t> offsets_;
  std::uint64_t end_ = 0;
};

TEST_F(RecordIORoundTripTest, ReadsEveryPayloadBackByOffset) {
  RecordIOReader reader(path_);
  EXPECT_EQ(reader.file_size(), end_);
  EXPECT_EQ(reader.ScanOffsets(), offsets_);
  std::string payload;
  for (std::size_t i = 0; i < payloads_.size(); ++i) {
    const std::uint64_t next = reader.ReadRecordAt(offsets_[i], &payload);
    ASSERT_EQ(payload, payloads_[i]) << "record " << i;
    EXPECT_EQ(next, i + 1 < offsets_.size() ? offsets_[i + 1] : end_);
  }
}

TEST_F(RecordIORoundTripTest, ConcurrentReadsFromSeveralThreads) {
  RecordIOReader reader(path_);
  std::vector<std::vector<std::size_t>> orders(4);
  for (auto& order : orders) {
    for (int i = 0; i < 500; ++i) {
      order.push_back(rng_.Int(0, payloads_.size() - 1));
    }
  }
  std::vector<int> mismatches(orders.size(), 0);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < orders.size(); ++t) {
    threads.emplace_back([&, t] {
      std::string payload;
      for (const std::size_t i : orders[t]) {
        reader.ReadRecordAt(offsets_[i], &payload);
        if (payload != payloads_[i]) ++mismatches[t];
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_THAT(mismatches, ::testing::Each(0));
}

class RecordIOReaderErrorTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& bytes) {
    const std::string path = dir_ + "/bad.rec";
    WriteFile(path, bytes);
    return path;
  }
  std::string ReadError(const std::string& path, std::uint64_t offset) {
    return DataErrorOf([&] {
      std::string payload;
      RecordIOReader(path).ReadRecordAt(offset, &payload);
    });
  }
  std::string ScanError(const std::string& path) {
    return DataErrorOf([&] { RecordIOReader(path).ScanOffsets(); });
  }
  std::string dir_ = NewTempDir();
};

TEST_F(RecordIOReaderErrorTest, MissingFile) {
  const std::string path = dir_ + "/nope.rec";
  EXPECT_EQ(DataErrorOf([&] { RecordIOReader reader(path); }),
            "cannot open '" + path + "': No such file or directory");
}

TEST_F(RecordIOReaderErrorTest, BadMagic) {
  const std::string path = Write(Header(0, 4) + "abcd" + "not a record");
  EXPECT_EQ(ScanError(path),
            "'" + path +
                "': record 1 at offset 12: bad magic number 0x20746f6e, "
                "expected 0xced7230a (not a RecordIO pack, or the offset does "
                "not start a record: is the .idx of this pack?)");
  EXPECT_THAT(ReadError(path, 12),
              HasSubstr("'" + path +
                        "': record at offset 12: bad magic number "
                        "0x20746f6e, expected 0xced7230a (not a RecordIO "
                        "pack"));
  EXPECT_THAT(ReadError(path, 2),
              AllOf(HasSubstr("'" + path + "': record at offset 2: "),
                    HasSubstr("bad magic"), HasSubstr("not a multiple of 4")));
}

TEST_F(RecordIOReaderErrorTest, LengthPastTheEnd) {
  const std::string path = Write(Header(0, 4) + "abcd" + Header(0, 10) + "ab");
  const std::string expected =
      "length 10 (12 with padding) runs past the end of the file: the record "
      "needs bytes up to offset 32, the file has 22 bytes";
  EXPECT_THAT(ScanError(path),
              AllOf(HasSubstr("'" + path + "': record 1 at offset 12: "),
                    HasSubstr(expected)));
  EXPECT_THAT(ReadError(path, 12), HasSubstr(expected));
}

TEST_F(RecordIOReaderErrorTest, TruncatedHeader) {
  const std::string path = Write(Header(0, 1) + "a" + std::string(3, '\0') +
                                 kMagicBytes.substr(0, 3));
  EXPECT_EQ(ScanError(path),
            "'" + path +
                "': record 1 at offset 12: expected an 8-byte record header, "
                "the file has 3 bytes left (15 bytes in all)");
  EXPECT_EQ(ReadError(path, 100),
            "'" + path +
                "': record at offset 100: expected an 8-byte record header, "
                "the file has 0 bytes left (15 bytes in all)");
}

TEST_F(RecordIOReaderErrorTest, SplitRecordCutShort) {
  const std::string path = Write(Header(1, 4) + "ABCD");
  EXPECT_EQ(ScanError(path),
            "'" + path +
                "': record 0 at offset 0: piece 2 at offset 12: expected an "
                "8-byte record header, the file has 0 bytes left (12 bytes in "
                "all; truncated pack?)");
}

TEST_F(RecordIOReaderErrorTest, OffsetInsideSplitRecord) {
  const std::string path = Write(Header(1, 4) + "ABCD" + Header(3, 0));
  EXPECT_EQ(ReadError(path, 12),
            "'" + path +
                "': record at offset 12: cflag 3 (the last piece of a split "
                "record), expected 0 (a whole record) or 1 (the first piece "
                "of a split record): the offset is inside a split record, not "
                "at its start");
}

TEST_F(RecordIOReaderErrorTest, WholeRecordWhereAPieceShouldFollow) {
  const std::string path = Write(Header(1, 4) + "ABCD" + Header(0, 0));
  EXPECT_EQ(ScanError(path),
            "'" + path +
                "': record 0 at offset 0: piece 2 at offset 12: cflag 0 (a "
                "whole record), expected 2 or 3 (the middle or last piece of "
                "the split record): a corrupt pack");
}

TEST_F(RecordIOReaderErrorTest, CflagOutOfRange) {
  const std::string path = Write(Header(5, 0));
  EXPECT_EQ(ScanError(path), "'" + path +
                                 "': record 0 at offset 0: bad cflag 5 in the "
                                 "length word 0xa0000000, expected 0-3");
}

TEST(RecordIndexTest, WritesMxnetLinesAndReadsThemBack) {
  TestRng rng;
  const std::string path = NewTempDir() + "/pack.idx";
  WriteRecordIndex(path, {{0, 0}, {5, 16}});
  std::ifstream in(path, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}),
            "0\t0\n5\t16\n");
  std::vector<RecordIndexEntry> entries;
  for (int i = 0; i < 50; ++i) {
    entries.push_back({static_cast<std::uint64_t>(rng.Int(0, 1 << 30)) << 20,
                       static_cast<std::uint64_t>(rng.Int(0, 1 << 30)) * 4});
  }
  entries.push_back({~std::uint64_t{0}, ~std::uint64_t{3}});
  WriteRecordIndex(path, entries);
  const std::vector<RecordIndexEntry> read = ReadRecordIndex(path);
  ASSERT_EQ(read.size(), entries.size());
  for (std::size_t i = 0; i < read.size(); ++i) {
    EXPECT_EQ(read[i].key, entries[i].key) << "line " << i + 1;
    EXPECT_EQ(read[i].offset, entries[i].offset) << "line " << i + 1;
  }
}

TEST(RecordIndexTest, AcceptsSpacesCrlfAndBlankLines) {
  const std::vector<RecordIndexEntry> entries =
      ParseRecordIndex("3\t0\r\n\n  7   16 \n\n", "a.idx");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].key, 3u);
  EXPECT_EQ(entries[0].offset, 0u);
  EXPECT_EQ(entries[1].key, 7u);
  EXPECT_EQ(entries[1].offset, 16u);
}

TEST(RecordIndexTest, MalformedLinesNamePathAndLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"x\t16", "'x\\t16'"},
      {"1\t16\t3", "'1\\t16\\t3'"},
      {"1", "'1'"},
      {"-1\t16", "'-1\\t16'"},
      {"1\t1.5", "'1\\t1.5'"},
      {"1 0x10", "'1 0x10'"}};
  for (const auto& test_case : cases) {
    EXPECT_EQ(DataErrorOf([&] {
                ParseRecordIndex("0\t0\n\n" + test_case.first, "a.idx");
              }),
              "a.idx:3: expected 'key<TAB>offset' (two unsigned integers), "
              "got " +
                  test_case.second);
  }
}

TEST(RecordIndexTest, EmptyAndMissingFiles) {
  EXPECT_THAT(DataErrorOf([] { ParseRecordIndex("\n \n", "e.idx"); }),
              AllOf(HasSubstr("'e.idx' holds no records"),
                    HasSubstr("key<TAB>offset")));
  const std::string path = NewTempDir() + "/nope.idx";
  EXPECT_EQ(DataErrorOf([&] { ReadRecordIndex(path); }),
            "cannot open '" + path + "': No such file or directory");
}

TEST(RecordIndexTest, OverlongLineIsRefusedWithAShortQuote) {
  const std::string message = DataErrorOf(
      [] { ParseRecordIndex("1\t0\n" + std::string(70000, '7'), "l.idx"); });
  EXPECT_THAT(message, AllOf(HasSubstr("l.idx:2: line of 70000 bytes, longer "
                                       "than the limit of 65536 bytes"),
                             HasSubstr("'" + std::string(80, '7') + "'...")));
  EXPECT_LT(message.size(), 250u);
}

TEST(ImageRecordTest, OneLabelMatchesHandBuiltBytes) {
  // 3.5f is 0x40600000.
  EXPECT_EQ(PackImageRecord({3.5f}, 0x0102030405060708, "JPEG"),
            Le32(0) + std::string("\x00\x00\x60\x40", 4) +
                std::string("\x08\x07\x06\x05\x04\x03\x02\x01", 8) + Le64(0) +
                "JPEG");
}

TEST(ImageRecordTest, SeveralLabelsMatchHandBuiltBytes) {
  // 1.0f is 0x3f800000, -2.0f 0xc0000000.
  EXPECT_EQ(PackImageRecord({1.0f, -2.0f}, 9, "img"),
            Le32(2) + Le32(0) + Le64(9) + Le64(0) + Le32(0x3f800000) +
                Le32(0xc0000000) + "img");
}

TEST(ImageRecordTest, RoundTripsRandomRecords) {
  TestRng rng;
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<float> labels(rng.Int(1, 5));
    for (float& label : labels) label = rng.Uniform(-1000, 1000);
    const std::uint64_t id = static_cast<std::uint64_t>(rng.Int(0, 1 << 30))
                             << rng.Int(0, 33);
    const std::vector<unsigned char> bytes = rng.Bytes(rng.Int(0, 50));
    const std::string image(bytes.begin(), bytes.end());
    const std::string packed = PackImageRecord(labels, id, image);
    ASSERT_EQ(packed.size(),
              24 + (labels.size() > 1 ? 4 * labels.size() : 0) + image.size());
    const ImageRecord record = UnpackImageRecord(packed, "record");
    EXPECT_EQ(record.labels, labels);
    EXPECT_EQ(record.header.flag, labels.size() > 1 ? labels.size() : 0);
    EXPECT_EQ(record.header.id, id);
    EXPECT_EQ(record.header.id2, 0u);
    EXPECT_EQ(record.image, image);
    EXPECT_EQ(record.image.data(),
              packed.data() + packed.size() - image.size());
  }
}

TEST(ImageRecordTest, UnpacksFlagOneAndIgnoresTheHeaderLabel) {
  // What mxnet.recordio.pack makes of a one-element label array.
  const std::string record =
      Le32(1) + Le32(0x3f800000) + Le64(4) + Le64(2) + Le32(0x40000000) + "png";
  const ImageRecord unpacked = UnpackImageRecord(record, "r");
  EXPECT_THAT(unpacked.labels, ElementsAre(2.0f));
  EXPECT_EQ(unpacked.header.label, 1.0f);
  EXPECT_EQ(unpacked.header.id, 4u);
  EXPECT_EQ(unpacked.header.id2, 2u);
  EXPECT_EQ(unpacked.image, "png");
}

TEST(ImageRecordTest, ShortRecordsAreErrors) {
  EXPECT_EQ(DataErrorOf([] {
              UnpackImageRecord(std::string(10, 'x'), "'a.rec' record 4");
            }),
            "'a.rec' record 4: an image record of 10 bytes, shorter than its "
            "24-byte header (flag, label, id, id2): not an image record pack?");
  const std::string three_labels_short =
      Le32(3) + Le32(0) + Le64(1) + Le64(0) + Le32(0) + Le32(0);
  EXPECT_EQ(DataErrorOf([&] {
              UnpackImageRecord(three_labels_short, "'a.rec' record 5");
            }),
            "'a.rec' record 5: the header's flag 3 says 3 float labels (12 "
            "bytes) follow the 24-byte header, but the record has 8 bytes "
            "after it");
  const std::string huge_flag = Le32(0xffffffff) + std::string(20, '\0');
  EXPECT_THAT(DataErrorOf([&] { UnpackImageRecord(huge_flag, "r"); }),
              HasSubstr("flag 4294967295"));
  EXPECT_THROW(PackImageRecord({}, 1, "x"), std::invalid_argument);
}

TEST(ImageRecordTest, PackIndexAndReadBack) {
  TestRng rng;
  const std::string dir = NewTempDir();
  std::vector<RecordIndexEntry> index;
  std::vector<std::string> images;
  {
    RecordIOWriter writer(dir + "/img.rec");
    for (int i = 0; i < 20; ++i) {
      const std::vector<unsigned char> bytes = rng.Bytes(rng.Int(0, 30));
      // Images that hold the magic make split records.
      images.push_back(std::string(bytes.begin(), bytes.end()) +
                       (i % 3 == 0 ? kMagicBytes : ""));
      const std::uint64_t key = 100 + i;
      index.push_back({key, writer.WriteRecord(PackImageRecord(
                                {static_cast<float>(i)}, key, images[i]))});
    }
    writer.Close();
  }
  WriteRecordIndex(dir + "/img.idx", index);
  RecordIOReader reader(dir + "/img.rec");
  std::string payload;
  const std::vector<RecordIndexEntry> read = ReadRecordIndex(dir + "/img.idx");
  ASSERT_EQ(read.size(), 20u);
  for (int i = 19; i >= 0; --i) {
    reader.ReadRecordAt(read[i].offset, &payload);
    const ImageRecord record = UnpackImageRecord(payload, "r");
    EXPECT_EQ(record.header.id, read[i].key);
    EXPECT_THAT(record.labels, ElementsAre(static_cast<float>(i)));
    EXPECT_EQ(record.image, images[i]);
  }
}

}  // namespace
}  // namespace train
}  // namespace umbra
