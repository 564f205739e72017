#include "tools/fuzz/read_dataset.h"

#include <vector>

#include "tensor/tensor.h"

namespace umbra {
namespace tools {

void ReadEveryInstance(train::Dataset* set) {
  TensorContainer<cpu, 1, float> data(Shape1(set->instance_shape().Size()));
  TensorContainer<cpu, 1, float> label(Shape1(set->label_width()));
  std::vector<TensorContainer<cpu, 1, float>> extra_storage;
  std::vector<Tensor<cpu, 1, float>> extras;
  for (const Shape<3>& shape : set->extra_shapes()) {
    extra_storage.emplace_back(Shape1(shape.Size()));
  }
  for (auto& storage : extra_storage) extras.push_back(storage);
  for (index_t i = 0; i < set->size(); ++i) {
    set->Read(i, data, label);
    if (!extras.empty()) set->ReadExtras(i, extras);
  }
}

}  // namespace tools
}  // namespace umbra
