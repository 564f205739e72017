// The definitions of net_checkpoint.h's templates; included by the files
// that instantiate them: net_checkpoint.cc for the cpu, model_gpu.cc for
// the gpu.
#ifndef UMBRA_TRAIN_NET_NET_CHECKPOINT_IMPL_H_
#define UMBRA_TRAIN_NET_NET_CHECKPOINT_IMPL_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "train/net/net_checkpoint.h"
#include "train/optim/optim_error.h"
#include "train/optim/updater_state.h"

namespace umbra {
namespace train {
namespace internal {

inline std::vector<int64_t> Dims(const TShape& shape) {
  std::vector<int64_t> dims;
  for (size_t i = 0; i < shape.ndim(); ++i) dims.push_back(shape[i]);
  return dims;
}

inline std::string DimsText(const std::vector<int64_t>& dims) {
  return absl::StrCat("(", absl::StrJoin(dims, ","), ")");
}

inline std::vector<int64_t> ProtoDims(const TensorProto& proto) {
  return std::vector<int64_t>(proto.shape().begin(), proto.shape().end());
}

inline std::string Prefix(const std::string& path) {
  return absl::StrCat("checkpoint '", path, "': ");
}

// The values of `t` in host memory.
template <typename xpu>
std::vector<float> HostValues(const Tensor<xpu, 1, float>& t) {
  std::vector<float> values(t.shape_[0]);
  Copy(Tensor<cpu, 1, float>(values.data(), t.shape_), t);
  return values;
}

// A tensor of `ref` (a WeightRef or StateRef) for a checkpoint.
template <typename Ref>
TensorProto MakeProto(const Ref& ref) {
  const std::vector<float> values = HostValues(ref.data);
  return MakeTensorProto(ref.name, Dims(ref.shape), values.data(),
                         values.size());
}

// Copies `proto` into `weight` (a WeightRef or StateRef) after checking
// the shape.
template <typename Ref>
void LoadWeight(const TensorProto& proto, const std::string& path,
                const Ref& weight) {
  const std::vector<int64_t> want = Dims(weight.shape);
  if (ProtoDims(proto) != want) {
    throw CheckpointError(
        absl::StrCat(Prefix(path), "weight '", weight.name, "' has shape ",
                     DimsText(ProtoDims(proto)), " there but ", DimsText(want),
                     " in this net: the checkpoint is of another net"));
  }
  std::vector<float> values(weight.data.shape_[0]);
  ReadTensorProto(proto, values.data(), values.size(),
                  Prefix(path) + "weight '" + weight.name + "'");
  Copy(weight.data, Tensor<cpu, 1, float>(values.data(), weight.data.shape_));
}

// Loads every one of `refs` from `protos`, which must hold exactly them.
template <typename Ref>
void LoadExactly(const google::protobuf::RepeatedPtrField<TensorProto>& protos,
                 const std::vector<Ref>& refs, const std::string& what,
                 const std::string& path) {
  std::map<std::string, const TensorProto*> saved;
  for (const TensorProto& proto : protos) saved[proto.name()] = &proto;
  for (const Ref& ref : refs) {
    auto it = saved.find(ref.name);
    if (it == saved.end()) {
      throw CheckpointError(
          absl::StrCat(Prefix(path), "it has no ", what, " '", ref.name,
                       "': the checkpoint is of another net"));
    }
    LoadWeight(*it->second, path, ref);
  }
  if (saved.size() != refs.size()) {
    throw CheckpointError(absl::StrCat(
        Prefix(path), "it has ", saved.size(), " ", what, "s; this net has ",
        refs.size(), ": the checkpoint is of another net"));
  }
}

}  // namespace internal

template <typename xpu>
void SaveNetWeights(BasicNetwork<xpu>* net, Checkpoint* checkpoint) {
  const NetConfig& config = net->net_config();
  for (const LayerDeclaration& layer : config.layers) {
    LayerProto* proto = checkpoint->add_layers();
    proto->set_name(layer.name);
    proto->set_type(layer.type);
  }
  for (const auto& weight : net->Weights()) {
    *checkpoint->add_weights() = internal::MakeProto(weight);
  }
  for (const auto& state : net->States()) {
    *checkpoint->add_states() = internal::MakeProto(state);
  }
}

template <typename xpu>
void LoadNetWeights(const Checkpoint& checkpoint, const std::string& path,
                    BasicNetwork<xpu>* net) {
  const NetConfig& config = net->net_config();
  std::vector<std::string> saved_layers, layers;
  for (const LayerProto& layer : checkpoint.layers()) {
    saved_layers.push_back(absl::StrCat(layer.name(), ":", layer.type()));
  }
  for (const LayerDeclaration& layer : config.layers) {
    layers.push_back(absl::StrCat(layer.name, ":", layer.type));
  }
  if (saved_layers != layers) {
    throw CheckpointError(absl::StrCat(
        internal::Prefix(path),
        "the checkpoint is of another net: its layers (name:type) are ",
        absl::StrJoin(saved_layers, " "), "; this net's are ",
        absl::StrJoin(layers, " ")));
  }
  internal::LoadExactly(checkpoint.weights(), net->Weights(), "weight", path);
  internal::LoadExactly(checkpoint.states(), net->States(), "state", path);
}

template <typename xpu>
std::vector<std::string> LoadWeightsByName(const Checkpoint& checkpoint,
                                           const std::string& path,
                                           BasicNetwork<xpu>* net) {
  std::map<std::string, const TensorProto*> saved;
  for (const TensorProto& proto : checkpoint.weights()) {
    saved[proto.name()] = &proto;
  }
  std::vector<std::string> loaded;
  for (const auto& weight : net->Weights()) {
    auto it = saved.find(weight.name);
    if (it == saved.end()) continue;
    if (internal::ProtoDims(*it->second) != internal::Dims(weight.shape)) {
      throw CheckpointError(absl::StrCat(
          internal::Prefix(path), "weight '", weight.name, "' has shape ",
          internal::DimsText(internal::ProtoDims(*it->second)), " there but ",
          internal::DimsText(internal::Dims(weight.shape)),
          " in this net; rename the layer to train it from scratch"));
    }
    internal::LoadWeight(*it->second, path, weight);
    loaded.push_back(weight.name);
  }
  for (const TensorProto& proto : checkpoint.states())
    saved[proto.name()] = &proto;
  for (const auto& state : net->States()) {
    auto it = saved.find(state.name);
    if (it != saved.end() &&
        internal::ProtoDims(*it->second) == internal::Dims(state.shape)) {
      internal::LoadWeight(*it->second, path, state);
    }
  }
  return loaded;
}

template <typename xpu>
void SaveUpdater(const optim::Updater<xpu, float>& updater,
                 Checkpoint* checkpoint) {
  const optim::UpdaterState<float> state = optim::SaveUpdaterState(updater);
  UpdaterStateProto* proto = checkpoint->mutable_updater();
  proto->set_type(state.type);
  proto->set_num_update(state.progress.num_update);
  proto->set_round(state.progress.round);
  for (const auto& tensor : state.tensors) {
    *proto->add_tensors() = MakeTensorProto(
        tensor.first, {static_cast<int64_t>(tensor.second.size())},
        tensor.second.data(), tensor.second.size());
  }
}

template <typename xpu>
void LoadUpdater(const Checkpoint& checkpoint, const std::string& path,
                 optim::Updater<xpu, float>* updater) {
  const UpdaterStateProto& proto = checkpoint.updater();
  optim::UpdaterState<float> state;
  state.type = proto.type();
  state.progress.num_update = proto.num_update();
  state.progress.round = proto.round();
  for (const TensorProto& tensor : proto.tensors()) {
    const size_t count = tensor.data().size() / sizeof(float);
    std::vector<float> values(count);
    ReadTensorProto(
        tensor, values.data(), count,
        internal::Prefix(path) + "updater tensor '" + tensor.name() + "'");
    state.tensors.emplace_back(tensor.name(), std::move(values));
  }
  try {
    optim::LoadUpdaterState(state, updater);
  } catch (const optim::OptimError& e) {
    throw CheckpointError(internal::Prefix(path) + e.what() +
                          " (was it saved with another updater or net?)");
  }
}

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_NET_NET_CHECKPOINT_IMPL_H_
