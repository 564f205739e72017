#include "train/data/data_batch.h"

#include "tensor/tensor.h"

namespace umbra {
namespace train {

void DataBatch::Resize(const Shape<4>& shape, index_t label_width,
                       const std::vector<Shape<3>>& extra_shapes) {
  data.Resize(shape);
  label.Resize(Shape2(shape[0], label_width));
  extra_data.resize(extra_shapes.size());
  for (size_t k = 0; k < extra_shapes.size(); ++k) {
    extra_data[k].Resize(Shape4(shape[0], extra_shapes[k][0],
                                extra_shapes[k][1], extra_shapes[k][2]));
  }
  inst_index.resize(shape[0]);
  batch_size = shape[0];
  num_batch_padd = 0;
}

void DataBatch::CopyFrom(const DataBatch& other) {
  data = other.data;
  label = other.label;
  extra_data = other.extra_data;
  inst_index = other.inst_index;
  batch_size = other.batch_size;
  num_batch_padd = other.num_batch_padd;
}

}  // namespace train
}  // namespace umbra
