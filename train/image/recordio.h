// RecordIO: the pack format of dmlc-core and MXNet (.rec files written by
// im2rec), its index files (.idx) and the image records inside it.
//
// A pack is a sequence of records, each 4-byte aligned; all numbers are
// little-endian:
//
//   uint32 magic = 0xced7230a
//   uint32 lrecord: cflag = lrecord >> 29, length = lrecord & (2^29 - 1)
//   length bytes of payload, then zeros up to a multiple of 4 bytes
//
// cflag 0 is a whole payload. A payload that holds the magic number at an
// offset that is a multiple of 4 is split there, as dmlc-core does, so that
// a reader can find record starts by scanning for the magic: each piece is a
// record of its own (cflag 1 first, 2 middle, 3 last), the magic itself is
// left out of the pieces and put back between them on reading.
//
// An image record (MXNet's IRHeader) is a payload of its own format: a
// 24-byte header (uint32 flag, float32 label, uint64 id, uint64 id2); when
// flag > 0, flag float32 labels follow it and the header's label is not
// used; then the encoded image (JPEG, PNG, ...).
//
// The .idx file of a pack is text, one line per record: "key\toffset", the
// key (the image's index in the .lst) and the byte offset of its record.
//
// Example:
//
//   RecordIOWriter writer("train.rec");
//   std::vector<RecordIndexEntry> index;
//   index.push_back({7, writer.WriteRecord(
//                           PackImageRecord({3.0f}, 7, jpeg_bytes))});
//   writer.Close();
//   WriteRecordIndex("train.idx", index);
//
//   RecordIOReader reader("train.rec");
//   std::string payload;
//   reader.ReadRecordAt(ReadRecordIndex("train.idx")[0].offset, &payload);
//   ImageRecord record = UnpackImageRecord(payload, "'train.rec' record 0");
//   record.labels;  // {3.0f}
//   record.image;   // the JPEG bytes
//
// Errors are DataError naming the file, the record (index or offset), what
// was expected and what was found.
#ifndef UMBRA_TRAIN_IMAGE_RECORDIO_H_
#define UMBRA_TRAIN_IMAGE_RECORDIO_H_

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "train/image/positioned_file.h"

namespace umbra {
namespace train {

// The first word of every record.
inline constexpr std::uint32_t kRecordIOMagic = 0xced7230a;
// The largest payload piece a record can hold (its length has 29 bits).
inline constexpr std::uint32_t kRecordIOMaxLength = (1u << 29) - 1;

// Writes records in the RecordIO format, splitting payloads exactly as
// dmlc::RecordIOWriter does, so that the bytes are the same as MXNet's.
class RecordIOWriter {
 public:
  // Creates (or truncates) the file at `path`. Throws DataError "cannot
  // create 'path': ...".
  explicit RecordIOWriter(const std::string& path);
  // Writes to `stream`, which must outlive the writer; `name` names it in
  // messages. Offsets count from the stream's position now (tellp(), or 0
  // when the stream cannot tell), so that they are file offsets when the
  // stream is a file opened for writing at its start or end.
  RecordIOWriter(std::ostream* stream, std::string name);
  // Closes a file opened by the writer, ignoring errors; call Close() to
  // see them.
  ~RecordIOWriter();

  RecordIOWriter(const RecordIOWriter&) = delete;
  RecordIOWriter& operator=(const RecordIOWriter&) = delete;

  // Appends one record holding `payload` (any bytes, empty included) and
  // returns the offset where it starts, for the .idx. Throws DataError when
  // the payload is longer than kRecordIOMaxLength or the stream fails.
  std::uint64_t WriteRecord(absl::string_view payload);

  // The offset where the next record will start.
  std::uint64_t offset() const { return offset_; }

  // Flushes the stream (and closes the file the writer opened). Throws
  // DataError "cannot write 'name': ..." when anything failed. No record may
  // be written after it.
  void Close();

 private:
  void Write(const char* data, std::size_t size);

  std::unique_ptr<std::ofstream> file_;  // set when the writer opened it
  std::ostream* stream_;
  std::string name_;
  std::uint64_t offset_ = 0;
  bool closed_ = false;
};

// Random access to the records of one pack file by their offsets.
//
// The file's size is taken when it is opened; reads use pread on one file
// descriptor and keep no other state, so that ReadRecordAt and ScanOffsets
// may be called from several threads at once.
class RecordIOReader {
 public:
  // Opens `path`. Throws DataError "cannot open 'path': ...".
  explicit RecordIOReader(const std::string& path);

  const std::string& path() const { return file_.path(); }
  std::uint64_t file_size() const { return file_.size(); }

  // Reads the payload of the record that starts at `offset` into *payload
  // (its content replaced, its capacity reused), joining the pieces of a
  // split payload. Returns the offset just past the record: where the next
  // one starts, or file_size() after the last. Throws DataError naming the
  // file and offset: a bad magic number, a piece that runs past the end of
  // the file, a bad cflag sequence (e.g. an offset inside a split record).
  std::uint64_t ReadRecordAt(std::uint64_t offset, std::string* payload) const;

  // The offsets of all records, in file order, found by reading the record
  // headers from the start of the file to its end (the payloads are skipped,
  // not read); for a pack without an .idx. Throws DataError naming the file,
  // the record's number (from 0) and its offset, as ReadRecordAt does, and
  // for bytes after the last record that are too few for a header.
  std::vector<std::uint64_t> ScanOffsets() const;

 private:
  // Where a record starts, its number when known (-1 when not), for
  // messages.
  struct RecordPlace {
    std::uint64_t offset;
    std::int64_t number;
  };

  // Reads the pieces of the record at `place` into *payload when payload is
  // not null, else only checks their headers; returns the end offset.
  std::uint64_t ReadRecord(RecordPlace place, std::string* payload) const;
  void ReadBytes(std::uint64_t offset, char* data, std::size_t size,
                 RecordPlace place) const;
  [[noreturn]] void ThrowRecordError(RecordPlace place,
                                     const std::string& detail) const;

  PositionedFile file_;
};

// Where a pack's index goes, as MXNet names it: the pack's path with its
// .rec extension replaced by .idx ("train.rec" -> "train.idx"), or .idx
// appended when it has no .rec extension.
std::string RecordIndexPathFor(const std::string& pack_path);

// One line of an .idx file.
struct RecordIndexEntry {
  // The record's key: the image's index in the .lst.
  std::uint64_t key = 0;
  // The byte offset of the record in the pack.
  std::uint64_t offset = 0;
};

// The entries of the .idx file at `path`, in file order (duplicate keys are
// kept, as they are in the file). The two fields are separated by a tab (or
// other whitespace, as MXNet's C++ reader accepts); blank lines are skipped.
// Throws DataError: a missing file, "path:N: expected 'key<TAB>offset' ..."
// for a line that is not two unsigned integers, an empty index.
std::vector<RecordIndexEntry> ReadRecordIndex(const std::string& path);

// As ReadRecordIndex, on `text`, the content of the file named `path`.
std::vector<RecordIndexEntry> ParseRecordIndex(absl::string_view text,
                                               const std::string& path);

// Writes `entries` to `path` (created or truncated) as MXIndexedRecordIO
// does: "key\toffset\n" per entry. Throws DataError "cannot write 'path':
// ...".
void WriteRecordIndex(const std::string& path,
                      const std::vector<RecordIndexEntry>& entries);

// The size of MXNet's IRHeader in an image record.
inline constexpr std::size_t kImageRecordHeaderBytes = 24;

// The header of an image record, as stored.
struct ImageRecordHeader {
  // 0: one label, in `label`; n > 0: n float labels follow the header.
  std::uint32_t flag = 0;
  float label = 0.0f;
  // The image's index (its key in the .idx, its index in the .lst).
  std::uint64_t id = 0;
  // The high bits of a 128-bit id; 0 as MXNet writes it.
  std::uint64_t id2 = 0;
};

// An unpacked image record: its labels and a view of its image bytes.
struct ImageRecord {
  ImageRecordHeader header;
  // header.label when header.flag is 0, else the header.flag labels that
  // follow the header.
  std::vector<float> labels;
  // The encoded image: a view into the record passed to UnpackImageRecord.
  absl::string_view image;
};

// The payload of an image record holding `labels` and `image_bytes`, as
// mxnet.recordio.pack makes it: one label is stored in the header (flag 0,
// as pack does for a scalar label), several follow it (flag = their count);
// id2 is 0. Throws std::invalid_argument when `labels` is empty.
std::string PackImageRecord(const std::vector<float>& labels, std::uint64_t id,
                            absl::string_view image_bytes);

// The header, labels and image of the image record `record`. `where` names
// the record in messages (e.g. "'train.rec' record 5"). Throws DataError
// when the record is shorter than its header, or than the labels its flag
// announces.
ImageRecord UnpackImageRecord(absl::string_view record,
                              absl::string_view where);
// As above, into *unpacked, reusing its labels' capacity (no allocation once
// it has held the most labels); an empty `where` leaves the messages
// without it, for a caller that says where itself.
void UnpackImageRecord(absl::string_view record, absl::string_view where,
                       ImageRecord* unpacked);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_IMAGE_RECORDIO_H_
