#include "train/data/dataset.h"

#include <string>
#include <utility>

#include "tensor/tensor.h"

namespace umbra {
namespace train {

MemoryDataset::MemoryDataset(const Shape<3>& instance_shape,
                             index_t label_width, index_t size,
                             std::string description)
    : instance_shape_(instance_shape),
      data_(Shape2(size, instance_shape.Size())),
      labels_(Shape2(size, label_width)),
      description_(std::move(description)) {}

void MemoryDataset::Read(index_t index, Tensor<cpu, 1, float> data,
                         Tensor<cpu, 1, float> label) {
  Copy(data, data_[index]);
  Copy(label, labels_[index]);
}

}  // namespace train
}  // namespace umbra
