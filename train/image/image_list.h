// The image list file (.lst) of cxxnet and MXNet's im2rec: one image per
// line, its index, its labels and its path relative to the image root, the
// fields separated by tabs:
//
//   0\t3\tcat/cat.0001.jpg
//   1\t5\tdog/my dog 2.jpg
//
// With label_width = 2 each line has two labels between the index and the
// path. The path is the last field and may contain spaces (not tabs); each
// field is stripped of surrounding whitespace as im2rec.py does, so a CRLF
// file reads as well. Blank lines are skipped; a file may be gzip-compressed.
//
// Example:
//
//   std::vector<ImageListEntry> list =
//       ParseImageList("train.lst", /*label_width=*/1);
//   list[0].path;       // "cat/cat.0001.jpg"
//   list[0].labels[0];  // 3.0f
//
// Errors are DataError naming path:line and what is wrong, expected vs got:
//
//   train.lst:7: expected 1 label (label_width = 1), got 2: '7\t1\t2\ta.jpg'
//
// The same line reading (limits, quoting) serves the RecordIO index files
// (recordio.h), through ForEachListLine below; user text is quoted with
// QuoteShort (param/quote.h).
#ifndef UMBRA_TRAIN_IMAGE_IMAGE_LIST_H_
#define UMBRA_TRAIN_IMAGE_IMAGE_LIST_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace umbra {
namespace train {

// The longest line the list files may have (64 KiB); a longer one is an
// error (most likely not a text list at all).
inline constexpr std::size_t kMaxListLineBytes = 64 * 1024;

// One line of a .lst file.
struct ImageListEntry {
  // The image's index: the key of its record in a .rec/.idx pair.
  std::uint64_t index = 0;
  // label_width labels, finite.
  std::vector<float> labels;
  // Relative to the image root; never empty.
  std::string path;
  // The 1-based line of the file the entry came from (0 when built in code).
  int line = 0;
};

// The entries of the list file at `path`, in file order. `label_width`
// (at least 1) is the number of labels every line must have. Throws
// DataError: a missing or unreadable file, a line with the wrong number of
// fields, an index that is not an unsigned integer, a label that is not a
// finite number, an empty path, a line longer than kMaxListLineBytes, or a
// file with no entries at all.
std::vector<ImageListEntry> ParseImageList(const std::string& path,
                                           int label_width);

// As ParseImageList, on `text`, the content of the file named `path` (used
// only in messages).
std::vector<ImageListEntry> ParseImageListText(absl::string_view text,
                                               const std::string& path,
                                               int label_width);

// Writes `entries` to `path` (created or truncated) in the format above,
// labels printed with enough digits to read back exactly (1.0f as "1").
// Throws DataError naming the file: it cannot be written, or an entry cannot
// be read back as written (a path that is empty, holds a tab or a line
// break, or starts or ends with whitespace; a label that is not finite).
void WriteImageList(const std::string& path,
                    const std::vector<ImageListEntry>& entries);

// Calls visit(line_number, line) for each line of `text` (the content of the
// file `path`) that is not blank, line numbers from 1, the line without its
// line break (a trailing '\r' included). Throws DataError "path:N: line of M
// bytes, longer than the limit of 65536 bytes (not a text list file?)".
void ForEachListLine(
    absl::string_view text, const std::string& path,
    const std::function<void(int line_number, absl::string_view line)>& visit);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_IMAGE_IMAGE_LIST_H_
