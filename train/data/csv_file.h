// CSV files as data sets: one instance per row, the first `label_width`
// columns are its labels and the rest its data (cxxnet's csv iterator).
//
//   label,pixel0,pixel1,pixel2,pixel3     <- header, skipped if has_header
//   3,0.5,0.25,0,1
//   1,0,0,0.75,1
//
// Example:
//
//   std::unique_ptr<MemoryDataset> set =
//       LoadCsv("train.csv", /*has_header=*/true, /*label_width=*/1,
//               /*input_shape=*/{1, 2, 2});  // or {} for (1, 1, columns)
//
// Rules: fields are separated by ',' and may have spaces around them; lines
// end in LF or CRLF; blank lines are skipped; a gzip-compressed file is read
// as well. Every field must be a finite number. With an input_shape the row
// must have label_width + channel*height*width columns; without one, every
// row must have as many columns as the first. Errors are DataError with key
// "filename" and say "<path>:<line>: ..." with the column.
#ifndef UMBRA_TRAIN_DATA_CSV_FILE_H_
#define UMBRA_TRAIN_DATA_CSV_FILE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "train/data/dataset.h"

namespace umbra {
namespace train {

// Parses the whole of `field` as a finite decimal float (no hex, no
// surrounding text, whatever the locale) into *value; false otherwise. CSV
// values and list labels are read with it.
bool ParseFiniteFloat(absl::string_view field, float* value);

std::unique_ptr<MemoryDataset> LoadCsv(const std::string& path, bool has_header,
                                       index_t label_width,
                                       const std::vector<int>& input_shape);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_DATA_CSV_FILE_H_
