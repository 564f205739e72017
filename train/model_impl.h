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
#include "train/dist/gradient_reducer.h"
#include "train/dist/rank_sum.h"
#include "train/model.h"
#include "train/net/net_checkpoint.h"
#include "train/net/network.h"
#include "train/net_setup.h"

namespace umbra {
namespace train {

// The allreduce of gradient buckets in the device's memory: MPI's on the
// cpu (model.cc), NCCL's on the gpu (model_gpu.cc).
std::unique_ptr<dist::AsyncAllreduce> NewGradientAllreduce(
    cpu*, dist::Communicator& ranks);
std::unique_ptr<dist::AsyncAllreduce> NewGradientAllreduce(
    gpu*, dist::Communicator& ranks);

template <typename xpu>
class ModelOn : public Model {
 public:
  ModelOn(const CheckedConfig& checked,
          const std::vector<Shape<4>>& input_shapes, bool training,
          dist::Communicator& ranks)
      : rank_sum_(ranks),
        built_(BuildNet<xpu>(checked, input_shapes, training,
                             Split(ranks, input_shapes[0][0]))),
        label_fields_(checked.param.label_fields) {
    if (!training || ranks.size() == 1) return;
    allreduce_ = NewGradientAllreduce(static_cast<xpu*>(nullptr), ranks);
    reducer_ = std::make_unique<dist::GradientReducer<xpu>>(
        net().WeightsByLayer(), allreduce_.get(),
        static_cast<size_t>(checked.param.dist_bucket_mb * (1 << 20)),
        checked.param.dist_overlap);
  }

  // ModelTypeInfo::make.
  static std::unique_ptr<Model> Make(const CheckedConfig& checked,
                                     const std::vector<Shape<4>>& input_shapes,
                                     bool training, dist::Communicator& ranks) {
    return std::make_unique<ModelOn<xpu>>(checked, input_shapes, training,
                                          ranks);
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
  void Backprop(bool sum_over_ranks) override {
    if (!reducer_ || !sum_over_ranks) return net().Backprop();
    net().Backprop([&](size_t layer) { reducer_->LayerDone(layer); });
    reducer_->Finish();
  }
  void SumGradientsOverRanks() override {
    if (reducer_) reducer_->Finish();
  }
  double TakeCommWaitSeconds() override {
    return reducer_ ? reducer_->TakeWaitSeconds() : 0.0;
  }
  std::string TraceNonFinite(bool is_train) override {
    return net().TraceNonFinite(is_train);
  }

  Shape<4> NodeShape(int node) override {
    if (node != kNetOutput) return net().NodeData(node).shape_;
    const Tensor<xpu, 2, float> output = net().Output();
    return Shape4(output.size(0), 1, 1, output.size(1));
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
  void Update(double gradient_scale) override {
    if (gradient_scale != 1.0) {
      for (const auto& weight : built_.updater->weights()) {
        weight->grad *= static_cast<float>(gradient_scale);
      }
    }
    built_.updater->Update();
  }
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

  // A rank's rows of each global batch of local_rows * ranks.size() rows;
  // nothing when there is one rank.
  NetSplit<xpu> Split(const dist::Communicator& ranks, index_t local_rows) {
    if (ranks.size() == 1) return {};
    return {{local_rows * ranks.rank(), local_rows * ranks.size()}, &rank_sum_};
  }

  dist::CommunicatorRankSum<xpu> rank_sum_;
  BuiltNet<xpu> built_;
  // With several ranks and training: how the gradients are summed (the
  // allreduce goes first: it waits for what it started on the reducer's
  // buffers).
  std::unique_ptr<dist::GradientReducer<xpu>> reducer_;
  std::unique_ptr<dist::AsyncAllreduce> allreduce_;
  std::vector<LabelField> label_fields_;
  // gpu: the device copies of the label fields, by name.
  std::map<std::string, TensorContainer<xpu, 2, float>> device_labels_;
  // gpu: the host copies HostRows returns, by node.
  std::map<int, TensorContainer<cpu, 2, float>> host_rows_;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_MODEL_IMPL_H_
