// ModelOn<xpu>: the Model (model.h) of a BasicNetwork<xpu> and its updater.
// Included by the files that instantiate it: model.cc for the cpu,
// model_gpu.cc for the gpu.
#ifndef UMBRA_TRAIN_MODEL_IMPL_H_
#define UMBRA_TRAIN_MODEL_IMPL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "layers/layer.h"
#include "tensor/tensor.h"
#include "train/model.h"
#include "train/net/net_checkpoint.h"
#include "train/net/network.h"
#include "train/net_setup.h"

namespace umbra {
namespace train {

template <typename xpu>
class ModelOn : public Model {
 public:
  ModelOn(const CheckedConfig& checked,
          const std::vector<Shape<4>>& input_shapes, bool training)
      : built_(BuildNet<xpu>(checked, input_shapes, training)),
        label_fields_(checked.param.label_fields) {}

  // A ModelFactory.
  static std::unique_ptr<Model> Make(const CheckedConfig& checked,
                                     const std::vector<Shape<4>>& input_shapes,
                                     bool training) {
    return std::make_unique<ModelOn<xpu>>(checked, input_shapes, training);
  }

  std::string Summary() override { return net().Summary(); }
  void InitWeights(int seed) override { net().InitWeights(seed); }
  void SeedLayers(int seed) override { net().rnd().Seed(seed); }

  void Feed(const DataBatch& batch, bool with_labels) override {
    Copy(net().input(), batch.data);
    for (size_t k = 0; k < batch.extra_data.size(); ++k) {
      Copy(net().input(k + 1), batch.extra_data[k]);
    }
    net().ClearLabels();
    if (!with_labels) return;
    for (const auto& field :
         HostLabelFields(batch, label_fields_, batch.batch_size)) {
      if constexpr (std::is_same<xpu, cpu>::value) {
        net().SetLabel(field.first, field.second);
      } else {
        TensorContainer<xpu, 2, float>& device = device_labels_[field.first];
        device.Resize(field.second.shape_);
        Copy(device.view(), field.second);
        net().SetLabel(field.first, device.view());
      }
    }
  }
  void Forward(bool is_train) override { net().Forward(is_train); }
  double Loss() override { return net().Loss(); }
  void Backprop() override { net().Backprop(); }
  std::string TraceNonFinite(bool is_train) override {
    return net().TraceNonFinite(is_train);
  }

  Tensor<cpu, 2, float> HostRows(int node, index_t rows) override {
    const Tensor<xpu, 2, float> data =
        node == kNetOutput ? net().Output()
                           : layers::AsMatrix(net().NodeData(node));
    const Tensor<xpu, 2, float> first(data.dptr_, Shape2(rows, data.size(1)),
                                      data.stride_, data.stream_);
    if constexpr (std::is_same<xpu, cpu>::value) {
      return first;
    } else {
      TensorContainer<cpu, 2, float>& host = host_rows_[node];
      host.Resize(first.shape_);
      Copy(host.view(), first);
      return host.view();
    }
  }

  void StartRound(int round) override { built_.updater->StartRound(round); }
  void Update() override { built_.updater->Update(); }
  int64_t num_update() const override {
    return built_.updater->progress().num_update;
  }

  void SaveTo(Checkpoint* checkpoint) override {
    SaveNetWeights(&net(), checkpoint);
    if (built_.updater) SaveUpdater(*built_.updater, checkpoint);
  }
  void LoadWeights(const Checkpoint& checkpoint,
                   const std::string& path) override {
    LoadNetWeights(checkpoint, path, &net());
  }
  std::vector<std::string> LoadWeightsByName(const Checkpoint& checkpoint,
                                             const std::string& path) override {
    return train::LoadWeightsByName(checkpoint, path, &net());
  }
  void LoadUpdater(const Checkpoint& checkpoint,
                   const std::string& path) override {
    train::LoadUpdater(checkpoint, path, built_.updater.get());
  }

 private:
  BasicNetwork<xpu>& net() { return *built_.net; }

  BuiltNet<xpu> built_;
  std::vector<LabelField> label_fields_;
  // gpu: the device copies of the label fields, by name.
  std::map<std::string, TensorContainer<xpu, 2, float>> device_labels_;
  // gpu: the host copies HostRows returns, by node.
  std::map<int, TensorContainer<cpu, 2, float>> host_rows_;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_MODEL_IMPL_H_
