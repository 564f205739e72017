#include "train/model.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "train/model_impl.h"

namespace umbra {
namespace train {

std::unique_ptr<dist::AsyncAllreduce> NewGradientAllreduce(
    cpu*, dist::Communicator& ranks) {
  return ranks.NewAllreduce();
}

template class ModelOn<cpu>;

[[maybe_unused]] static const bool kCpuModelRegistered =
    ModelRegistry::Add({"cpu", &ModelOn<cpu>::Make});

std::map<std::string, Tensor<cpu, 2, float>> HostLabelFields(
    const DataBatch& batch, const std::vector<LabelField>& fields,
    index_t rows) {
  // Tensor has no read-only form; the views are only read.
  float* labels = const_cast<float*>(batch.label.dptr_);
  const index_t width = batch.label.size(1);
  std::map<std::string, Tensor<cpu, 2, float>> views;
  views["label"] = Tensor<cpu, 2, float>(labels, Shape2(rows, width));
  for (const LabelField& field : fields) {
    views[field.name] = Tensor<cpu, 2, float>(
        labels + field.begin, Shape2(rows, field.end - field.begin), width,
        nullptr);
  }
  return views;
}

std::unique_ptr<Model> CreateModel(const CheckedConfig& checked,
                                   const std::vector<Shape<4>>& input_shapes,
                                   bool training, dist::Communicator& ranks) {
  const DeviceChoice device = ParseDevice(checked.param.dev);
  const ModelTypeInfo* model = ModelRegistry::Find(device.name());
  if (model == nullptr) {
    throw GlobalError(checked.config, "dev",
                      "dev = " + checked.param.dev +
                          ": this program has no gpu trainer linked (it "
                          "needs //train:trainer_gpu, which the //train "
                          "binary links under --config=cuda)");
  }
  return model->make(checked, input_shapes, training, ranks);
}

}  // namespace train
}  // namespace umbra
