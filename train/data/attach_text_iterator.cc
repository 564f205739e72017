#include "train/data/attach_text_iterator.h"

#include <cmath>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "param/quote.h"
#include "train/data/data_error.h"
#include "train/data/file_bytes.h"

namespace umbra {
namespace train {
namespace {

// The longest line read (a longer one is not a text file of numbers).
constexpr std::size_t kMaxLineBytes = std::size_t{16} << 20;

}  // namespace

AttachTextIterator::AttachTextIterator(std::unique_ptr<DataIterator> base,
                                       const AttachTextParam& param)
    : base_(std::move(base)), path_(param.filename) {
  // Tokens in order: dim, then index and dim values per instance, which may
  // span lines.
  bool have_dim = false;
  std::size_t values_left = 0;
  index_t index = 0;
  int index_line = 0;
  ForEachFileLine(path_, kMaxLineBytes, [&](int line, absl::string_view text) {
    const auto fail = [&](const std::string& what) {
      return DataError(absl::StrFormat("%s:%d: %s", path_, line, what),
                       "filename");
    };
    for (absl::string_view token : absl::StrSplit(
             text, absl::ByAnyChar(" \t\r\f\v"), absl::SkipEmpty())) {
      if (!have_dim) {
        std::int64_t dim = 0;
        if (!absl::SimpleAtoi(token, &dim) || dim < 1 || dim > (1 << 24)) {
          throw fail(absl::StrFormat(
              "the file starts with %s; expected dim, the numbers per "
              "instance (1 to 16777216)",
              QuoteShort(token)));
        }
        dim_ = static_cast<index_t>(dim);
        have_dim = true;
      } else if (values_left == 0) {
        std::int64_t value = 0;
        if (!absl::SimpleAtoi(token, &value) || value < 0) {
          throw fail(absl::StrFormat(
              "expected an instance index (a whole number, 0 or more), got %s",
              QuoteShort(token)));
        }
        index = static_cast<index_t>(value);
        index_line = line;
        if (!row_of_.emplace(index, rows_.size()).second) {
          throw fail(absl::StrFormat("instance %d is listed twice", value));
        }
        values_left = dim_;
      } else {
        float value = 0;
        if (!absl::SimpleAtof(token, &value) || !std::isfinite(value)) {
          throw fail(absl::StrFormat(
              "value %d of instance %d is %s, not a finite number",
              dim_ - values_left + 1, index, QuoteShort(token)));
        }
        rows_.push_back(value);
        --values_left;
      }
    }
  });
  if (!have_dim) {
    throw DataError(absl::StrFormat("'%s' is empty; expected dim, then an "
                                    "index and dim numbers per instance",
                                    path_),
                    "filename");
  }
  if (values_left != 0) {
    throw DataError(
        absl::StrFormat("%s:%d: instance %d has %d of its %d numbers when the "
                        "file ends",
                        path_, index_line, index, dim_ - values_left, dim_),
        "filename");
  }
}

std::vector<Shape<4>> AttachTextIterator::extra_data_shapes() const {
  std::vector<Shape<4>> shapes = base_->extra_data_shapes();
  shapes.push_back(Shape4(base_->data_shape()[0], 1, 1, dim_));
  return shapes;
}

bool AttachTextIterator::Next() {
  if (!base_->Next()) return false;
  batch_ = base_->Value();
  TensorContainer<cpu, 4, float> attached(Shape4(batch_.batch_size, 1, 1, dim_),
                                          0.0f, false);
  for (index_t row = 0; row < batch_.batch_size; ++row) {
    const index_t index = batch_.inst_index[row];
    if (index == kPaddingIndex) continue;
    const auto found = row_of_.find(index);
    if (found == row_of_.end()) {
      throw DataError(
          absl::StrFormat("attachtxt: '%s' has no line for instance %d (row "
                          "%d of the batch)",
                          path_, index, row),
          "filename");
    }
    std::copy_n(&rows_[found->second], dim_, attached[row].dptr_);
  }
  batch_.extra_data.push_back(std::move(attached));
  return true;
}

}  // namespace train
}  // namespace umbra
