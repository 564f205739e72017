#include "train/data/data_batch.h"

#include "tensor/tensor.h"

namespace umbra {
namespace train {

void DataBatch::Resize(const Shape<4>& shape, index_t label_width) {
  data.Resize(shape);
  label.Resize(Shape2(shape[0], label_width));
  inst_index.resize(shape[0]);
  batch_size = shape[0];
  num_batch_padd = 0;
}

void DataBatch::CopyFrom(const DataBatch& other) {
  data = other.data;
  label = other.label;
  inst_index = other.inst_index;
  batch_size = other.batch_size;
  num_batch_padd = other.num_batch_padd;
}

}  // namespace train
}  // namespace umbra
