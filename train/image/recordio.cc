#include "train/image/recordio.h"

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "param/quote.h"
#include "train/data/data_error.h"
#include "train/data/file_bytes.h"
#include "train/image/image_list.h"

namespace umbra {
namespace train {
namespace {

constexpr std::size_t kRecordHeaderBytes = 8;
constexpr std::uint32_t kCflagWhole = 0;
constexpr std::uint32_t kCflagFirst = 1;
constexpr std::uint32_t kCflagMiddle = 2;
constexpr std::uint32_t kCflagLast = 3;

void PutLittleEndian32(std::uint32_t value, char* out) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>(value >> (8 * i));
}

void AppendLittleEndian32(std::uint32_t value, std::string* out) {
  char bytes[4];
  PutLittleEndian32(value, bytes);
  out->append(bytes, 4);
}

void AppendLittleEndian64(std::uint64_t value, std::string* out) {
  AppendLittleEndian32(static_cast<std::uint32_t>(value), out);
  AppendLittleEndian32(static_cast<std::uint32_t>(value >> 32), out);
}

std::uint32_t LittleEndian32(const char* in) {
  const auto* p = reinterpret_cast<const unsigned char*>(in);
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 |
         std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}

std::uint64_t LittleEndian64(const char* in) {
  return std::uint64_t{LittleEndian32(in)} |
         std::uint64_t{LittleEndian32(in + 4)} << 32;
}

float FloatFromBits(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

std::uint32_t BitsOfFloat(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

std::uint64_t PaddedLength(std::uint64_t length) { return (length + 3) & ~3u; }

const char* CflagName(std::uint32_t cflag) {
  switch (cflag) {
    case kCflagWhole:
      return "a whole record";
    case kCflagFirst:
      return "the first piece of a split record";
    case kCflagMiddle:
      return "a middle piece of a split record";
    case kCflagLast:
      return "the last piece of a split record";
    default:
      return "not a valid cflag";
  }
}

// The text of errno after a failed stream operation; streams do not always
// set it.
std::string StreamErrorText() {
  return errno != 0 ? std::strerror(errno) : "the stream failed";
}

// Parses a whole field as an unsigned decimal integer (no sign).
bool ParseUnsigned(absl::string_view field, std::uint64_t* value) {
  const char* end = field.data() + field.size();
  const std::from_chars_result result =
      std::from_chars(field.data(), end, *value);
  return !field.empty() && result.ec == std::errc() && result.ptr == end;
}

}  // namespace

// RecordIOWriter

RecordIOWriter::RecordIOWriter(const std::string& path)
    : file_(std::make_unique<std::ofstream>(
          path, std::ios::binary | std::ios::trunc)),
      stream_(file_.get()),
      name_(path) {
  if (!*file_) {
    throw DataError(
        absl::StrCat("cannot create '", path, "': ", std::strerror(errno)));
  }
}

RecordIOWriter::RecordIOWriter(std::ostream* stream, std::string name)
    : stream_(stream), name_(std::move(name)) {
  const std::streampos position = stream_->tellp();
  if (position != std::streampos(-1)) {
    offset_ = static_cast<std::uint64_t>(std::streamoff(position));
  }
}

RecordIOWriter::~RecordIOWriter() = default;

void RecordIOWriter::Write(const char* data, std::size_t size) {
  if (size == 0) return;
  errno = 0;
  stream_->write(data, static_cast<std::streamsize>(size));
  if (!*stream_) {
    throw DataError(absl::StrCat("cannot write '", name_, "' at offset ",
                                 offset_, ": ", StreamErrorText()));
  }
  offset_ += size;
}

std::uint64_t RecordIOWriter::WriteRecord(absl::string_view payload) {
  if (closed_) {
    throw DataError(absl::StrCat("cannot write '", name_,
                                 "': the RecordIO writer is closed"));
  }
  if (payload.size() > kRecordIOMaxLength) {
    throw DataError(absl::StrCat("cannot write '", name_, "': a record of ",
                                 payload.size(),
                                 " bytes is longer than RecordIO allows (",
                                 kRecordIOMaxLength, " bytes, 2^29 - 1)"));
  }
  const std::uint64_t start = offset_;
  const auto length = static_cast<std::uint32_t>(payload.size());
  char header[kRecordHeaderBytes];
  PutLittleEndian32(kRecordIOMagic, header);
  char magic[4];
  PutLittleEndian32(kRecordIOMagic, magic);
  // As dmlc::RecordIOWriter::WriteRecord: every aligned occurrence of the
  // magic ends a piece and is left out; the pieces before the last are
  // multiples of 4 bytes long, so need no padding.
  std::uint32_t piece_start = 0;
  const std::uint32_t aligned_end = length & ~3u;
  for (std::uint32_t i = 0; i < aligned_end; i += 4) {
    if (std::memcmp(payload.data() + i, magic, 4) != 0) continue;
    const std::uint32_t cflag = piece_start == 0 ? kCflagFirst : kCflagMiddle;
    PutLittleEndian32(cflag << 29 | (i - piece_start), header + 4);
    Write(header, kRecordHeaderBytes);
    Write(payload.data() + piece_start, i - piece_start);
    piece_start = i + 4;
  }
  const std::uint32_t cflag = piece_start == 0 ? kCflagWhole : kCflagLast;
  PutLittleEndian32(cflag << 29 | (length - piece_start), header + 4);
  Write(header, kRecordHeaderBytes);
  Write(payload.data() + piece_start, length - piece_start);
  static constexpr char kZeros[4] = {0, 0, 0, 0};
  Write(kZeros, PaddedLength(length) - length);
  return start;
}

void RecordIOWriter::Close() {
  if (closed_) return;
  closed_ = true;
  errno = 0;
  stream_->flush();
  if (file_ != nullptr) file_->close();
  if (!*stream_) {
    throw DataError(
        absl::StrCat("cannot write '", name_, "': ", StreamErrorText()));
  }
}

// RecordIOReader

RecordIOReader::RecordIOReader(const std::string& path)
    : file_(path, "a RecordIO pack") {}

void RecordIOReader::ThrowRecordError(RecordPlace place,
                                      const std::string& detail) const {
  const std::string record =
      place.number >= 0
          ? absl::StrCat("record ", place.number, " at offset ", place.offset)
          : absl::StrCat("record at offset ", place.offset);
  throw DataError(absl::StrCat("'", file_.path(), "': ", record, ": ", detail));
}

void RecordIOReader::ReadBytes(std::uint64_t offset, char* data,
                               std::size_t size, RecordPlace place) const {
  const std::string problem = file_.Read(offset, data, size);
  if (!problem.empty()) ThrowRecordError(place, problem);
}

std::uint64_t RecordIOReader::ReadRecord(RecordPlace place,
                                         std::string* payload) const {
  if (payload != nullptr) payload->clear();
  std::uint64_t position = place.offset;
  for (int piece = 0;; ++piece) {
    // The first piece's offset is the record's, named by ThrowRecordError.
    const std::string piece_name =
        piece == 0
            ? std::string()
            : absl::StrCat("piece ", piece + 1, " at offset ", position, ": ");
    if (position > file_size() || file_size() - position < kRecordHeaderBytes) {
      ThrowRecordError(
          place,
          absl::StrCat(piece_name,
                       "expected an 8-byte record header, the file has ",
                       position >= file_size() ? 0 : file_size() - position,
                       " bytes left (", file_size(), " bytes in all",
                       piece > 0 ? "; truncated pack?)" : ")"));
    }
    char header[kRecordHeaderBytes];
    ReadBytes(position, header, kRecordHeaderBytes, place);
    const std::uint32_t magic = LittleEndian32(header);
    if (magic != kRecordIOMagic) {
      ThrowRecordError(
          place,
          absl::StrFormat(
              "%sbad magic number 0x%08x, expected 0x%08x (%s)", piece_name,
              magic, kRecordIOMagic,
              position % 4 != 0 ? "the offset is not a multiple of 4, where "
                                  "records start: is the .idx of this pack?"
              : piece > 0       ? "a corrupt pack"
                                : "not a RecordIO pack, or the offset does not "
                                  "start a record: is the .idx of this pack?"));
    }
    const std::uint32_t lrecord = LittleEndian32(header + 4);
    const std::uint32_t cflag = lrecord >> 29;
    const std::uint32_t length = lrecord & kRecordIOMaxLength;
    if (cflag > kCflagLast) {
      ThrowRecordError(place,
                       absl::StrFormat("%sbad cflag %d in the length word "
                                       "0x%08x, expected 0-3",
                                       piece_name, cflag, lrecord));
    }
    if (piece == 0 && (cflag == kCflagMiddle || cflag == kCflagLast)) {
      ThrowRecordError(
          place, absl::StrCat("cflag ", cflag, " (", CflagName(cflag),
                              "), expected 0 (a whole record) or 1 (the "
                              "first piece of a split record): the offset "
                              "is inside a split record, not at its start"));
    }
    if (piece > 0 && (cflag == kCflagWhole || cflag == kCflagFirst)) {
      ThrowRecordError(
          place,
          absl::StrCat(piece_name, "cflag ", cflag, " (", CflagName(cflag),
                       "), expected 2 or 3 (the middle or last piece of the "
                       "split record): a corrupt pack"));
    }
    const std::uint64_t data_start = position + kRecordHeaderBytes;
    const std::uint64_t end = data_start + PaddedLength(length);
    if (end > file_size()) {
      ThrowRecordError(
          place, absl::StrCat(
                     piece_name, "length ", length, " (", PaddedLength(length),
                     " with padding) runs past the end of the file: the "
                     "record needs bytes up to offset ",
                     end, ", the file has ", file_size(),
                     " bytes (truncated pack, or not a record start?)"));
    }
    if (payload != nullptr) {
      std::size_t size = payload->size();
      if (piece > 0) {
        AppendLittleEndian32(kRecordIOMagic, payload);
        size += 4;
      }
      payload->resize(size + length);
      ReadBytes(data_start, &(*payload)[size], length, place);
    }
    position = end;
    if (cflag == kCflagWhole || cflag == kCflagLast) return position;
  }
}

std::uint64_t RecordIOReader::ReadRecordAt(std::uint64_t offset,
                                           std::string* payload) const {
  return ReadRecord({offset, -1}, payload);
}

std::vector<std::uint64_t> RecordIOReader::ScanOffsets() const {
  std::vector<std::uint64_t> offsets;
  std::uint64_t offset = 0;
  while (offset < file_size()) {
    const auto number = static_cast<std::int64_t>(offsets.size());
    offsets.push_back(offset);
    offset = ReadRecord({offset, number}, nullptr);
  }
  return offsets;
}

// The .idx file

std::vector<RecordIndexEntry> ParseRecordIndex(absl::string_view text,
                                               const std::string& path) {
  std::vector<RecordIndexEntry> entries;
  ForEachListLine(text, path, [&](int line_number, absl::string_view line) {
    const std::vector<absl::string_view> fields =
        absl::StrSplit(line, absl::ByAnyChar(" \t\r\f\v"), absl::SkipEmpty());
    RecordIndexEntry entry;
    if (fields.size() != 2 || !ParseUnsigned(fields[0], &entry.key) ||
        !ParseUnsigned(fields[1], &entry.offset)) {
      throw DataError(absl::StrCat(
          path, ":", line_number,
          ": expected 'key<TAB>offset' (two unsigned integers), got ",
          QuoteShort(line)));
    }
    entries.push_back(entry);
  });
  if (entries.empty()) {
    throw DataError(absl::StrCat("'", path,
                                 "' holds no records: the index is empty or "
                                 "only blank lines (expected lines of "
                                 "key<TAB>offset)"));
  }
  return entries;
}

std::string RecordIndexPathFor(const std::string& pack_path) {
  if (absl::EndsWith(pack_path, ".rec")) {
    return pack_path.substr(0, pack_path.size() - 4) + ".idx";
  }
  return pack_path + ".idx";
}

std::vector<RecordIndexEntry> ReadRecordIndex(const std::string& path) {
  return ParseRecordIndex(ReadFileBytes(path), path);
}

void WriteRecordIndex(const std::string& path,
                      const std::vector<RecordIndexEntry>& entries) {
  std::string text;
  for (const RecordIndexEntry& entry : entries) {
    absl::StrAppend(&text, entry.key, "\t", entry.offset, "\n");
  }
  WriteFileBytes(path, text);
}

// Image records

std::string PackImageRecord(const std::vector<float>& labels, std::uint64_t id,
                            absl::string_view image_bytes) {
  if (labels.empty()) {
    throw std::invalid_argument(
        "PackImageRecord: an image record needs at least one label");
  }
  const bool scalar = labels.size() == 1;
  std::string record;
  record.reserve(kImageRecordHeaderBytes + (scalar ? 0 : 4 * labels.size()) +
                 image_bytes.size());
  AppendLittleEndian32(scalar ? 0 : static_cast<std::uint32_t>(labels.size()),
                       &record);
  AppendLittleEndian32(BitsOfFloat(scalar ? labels[0] : 0.0f), &record);
  AppendLittleEndian64(id, &record);
  AppendLittleEndian64(0, &record);
  if (!scalar) {
    for (const float label : labels) {
      AppendLittleEndian32(BitsOfFloat(label), &record);
    }
  }
  record.append(image_bytes.data(), image_bytes.size());
  return record;
}

ImageRecord UnpackImageRecord(absl::string_view record,
                              absl::string_view where) {
  ImageRecord unpacked;
  UnpackImageRecord(record, where, &unpacked);
  return unpacked;
}

void UnpackImageRecord(absl::string_view record, absl::string_view where,
                       ImageRecord* unpacked) {
  const std::string prefix = where.empty() ? "" : absl::StrCat(where, ": ");
  if (record.size() < kImageRecordHeaderBytes) {
    throw DataError(absl::StrCat(
        prefix, "an image record of ", record.size(),
        " bytes, shorter than its ", kImageRecordHeaderBytes,
        "-byte header (flag, label, id, id2): not an image record pack?"));
  }
  ImageRecordHeader& header = unpacked->header;
  header.flag = LittleEndian32(record.data());
  header.label = FloatFromBits(LittleEndian32(record.data() + 4));
  header.id = LittleEndian64(record.data() + 8);
  header.id2 = LittleEndian64(record.data() + 16);
  absl::string_view rest = record.substr(kImageRecordHeaderBytes);
  if (header.flag == 0) {
    unpacked->labels.assign(1, header.label);
  } else {
    const std::uint64_t label_bytes = std::uint64_t{4} * header.flag;
    if (rest.size() < label_bytes) {
      throw DataError(absl::StrCat(
          prefix, "the header's flag ", header.flag, " says ", header.flag,
          " float labels (", label_bytes, " bytes) follow the ",
          kImageRecordHeaderBytes, "-byte header, but the record has ",
          rest.size(), " bytes after it"));
    }
    unpacked->labels.resize(header.flag);
    for (std::uint32_t i = 0; i < header.flag; ++i) {
      unpacked->labels[i] = FloatFromBits(LittleEndian32(rest.data() + 4 * i));
    }
    rest.remove_prefix(label_bytes);
  }
  unpacked->image = rest;
}

}  // namespace train
}  // namespace umbra
