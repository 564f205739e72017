// AttachTextIterator (`iter = attachtxt`, cxxnet's): adds to every batch of
// the iterator it wraps one more extra input, (batch, 1, 1, dim), whose row
// for an instance is that instance's line of a text file. The file holds
// dim, then for each instance its index (inst_index, index_offset
// included) and dim numbers, all separated by white space (one instance a
// line by custom). With `extra_data_num = 1` the net reads it at node in_1
// (extra_data_shape[1] = 1,1,dim).
//
// Differences from cxxnet's: the extra input is added after the wrapped
// iterator's own (cxxnet replaced them); an instance the file does not list
// is an error (cxxnet kept the row of an earlier batch), and so is an index
// listed twice; padding rows are 0.
//
// Example:
//
//   AttachTextParam param;
//   param.Init({{"filename", "boxes.txt"}});
//   AttachTextIterator it(std::move(imgrec_iterator), param);
#ifndef UMBRA_TRAIN_DATA_ATTACH_TEXT_ITERATOR_H_
#define UMBRA_TRAIN_DATA_ATTACH_TEXT_ITERATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "param/param.h"
#include "train/data/data_batch.h"

namespace umbra {
namespace train {

struct AttachTextParam : public Parameter<AttachTextParam> {
  std::string filename;
  UMBRA_DECLARE_PARAMETER(AttachTextParam) {
    UMBRA_DECLARE_FIELD(filename).describe(
        "Text file: dim, then per instance its index and dim numbers.");
  }
};

class AttachTextIterator : public DataIterator {
 public:
  // Reads the file. Throws DataError naming it and the line: not numbers,
  // a dim below 1, an instance with fewer than dim numbers, an index that
  // is not a whole number of 0 or more or is listed twice, a value that is
  // not finite.
  AttachTextIterator(std::unique_ptr<DataIterator> base,
                     const AttachTextParam& param);

  void BeforeFirst() override { base_->BeforeFirst(); }
  // Throws DataError naming an instance the file does not list.
  bool Next() override;
  void SkipPass() override { base_->SkipPass(); }
  const DataBatch& Value() const override { return batch_; }
  Shape<4> data_shape() const override { return base_->data_shape(); }
  index_t label_width() const override { return base_->label_width(); }
  std::vector<Shape<4>> extra_data_shapes() const override;
  std::int64_t bad_instances() const override { return base_->bad_instances(); }

 private:
  std::unique_ptr<DataIterator> base_;
  std::string path_;
  index_t dim_ = 0;
  // Each listed index and the offset of its row in rows_.
  std::unordered_map<index_t, std::size_t> row_of_;
  std::vector<float> rows_;
  DataBatch batch_;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_DATA_ATTACH_TEXT_ITERATOR_H_
