#include "train/net_checkpoint.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "train/optim/optim_error.h"
#include "train/optim/updater_state.h"

namespace umbra {
namespace train {
namespace {

std::vector<int64_t> Dims(const TShape& shape) {
  std::vector<int64_t> dims;
  for (size_t i = 0; i < shape.ndim(); ++i) dims.push_back(shape[i]);
  return dims;
}

std::string DimsText(const std::vector<int64_t>& dims) {
  return absl::StrCat("(", absl::StrJoin(dims, ","), ")");
}

std::vector<int64_t> ProtoDims(const TensorProto& proto) {
  return std::vector<int64_t>(proto.shape().begin(), proto.shape().end());
}

std::string Prefix(const std::string& path) {
  return absl::StrCat("checkpoint '", path, "': ");
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
  ReadTensorProto(proto, weight.data.dptr_, weight.data.shape_[0],
                  Prefix(path) + "weight '" + weight.name + "'");
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

}  // namespace

void SaveNetWeights(Network* net, Checkpoint* checkpoint) {
  const NetConfig& config = net->net_config();
  for (const LayerDeclaration& layer : config.layers) {
    LayerProto* proto = checkpoint->add_layers();
    proto->set_name(layer.name);
    proto->set_type(layer.type);
  }
  for (const auto& weight : net->Weights()) {
    *checkpoint->add_weights() =
        MakeTensorProto(weight.name, Dims(weight.shape), weight.data.dptr_,
                        weight.data.shape_[0]);
  }
  for (const auto& state : net->States()) {
    *checkpoint->add_states() = MakeTensorProto(
        state.name, Dims(state.shape), state.data.dptr_, state.data.shape_[0]);
  }
}

void LoadNetWeights(const Checkpoint& checkpoint, const std::string& path,
                    Network* net) {
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
        Prefix(path),
        "the checkpoint is of another net: its layers (name:type) are ",
        absl::StrJoin(saved_layers, " "), "; this net's are ",
        absl::StrJoin(layers, " ")));
  }
  LoadExactly(checkpoint.weights(), net->Weights(), "weight", path);
  LoadExactly(checkpoint.states(), net->States(), "state", path);
}

std::vector<std::string> LoadWeightsByName(const Checkpoint& checkpoint,
                                           const std::string& path,
                                           Network* net) {
  std::map<std::string, const TensorProto*> saved;
  for (const TensorProto& proto : checkpoint.weights()) {
    saved[proto.name()] = &proto;
  }
  std::vector<std::string> loaded;
  for (const auto& weight : net->Weights()) {
    auto it = saved.find(weight.name);
    if (it == saved.end()) continue;
    if (ProtoDims(*it->second) != Dims(weight.shape)) {
      throw CheckpointError(absl::StrCat(
          Prefix(path), "weight '", weight.name, "' has shape ",
          DimsText(ProtoDims(*it->second)), " there but ",
          DimsText(Dims(weight.shape)),
          " in this net; rename the layer to train it from scratch"));
    }
    LoadWeight(*it->second, path, weight);
    loaded.push_back(weight.name);
  }
  for (const TensorProto& proto : checkpoint.states())
    saved[proto.name()] = &proto;
  for (const auto& state : net->States()) {
    auto it = saved.find(state.name);
    if (it != saved.end() && ProtoDims(*it->second) == Dims(state.shape)) {
      LoadWeight(*it->second, path, state);
    }
  }
  return loaded;
}

void SaveUpdater(const optim::Updater<cpu, float>& updater,
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

void LoadUpdater(const Checkpoint& checkpoint, const std::string& path,
                 optim::Updater<cpu, float>* updater) {
  const UpdaterStateProto& proto = checkpoint.updater();
  optim::UpdaterState<float> state;
  state.type = proto.type();
  state.progress.num_update = proto.num_update();
  state.progress.round = proto.round();
  for (const TensorProto& tensor : proto.tensors()) {
    const size_t count = tensor.data().size() / sizeof(float);
    std::vector<float> values(count);
    ReadTensorProto(tensor, values.data(), count,
                    Prefix(path) + "updater tensor '" + tensor.name() + "'");
    state.tensors.emplace_back(tensor.name(), std::move(values));
  }
  try {
    optim::LoadUpdaterState(state, updater);
  } catch (const optim::OptimError& e) {
    throw CheckpointError(Prefix(path) + e.what() +
                          " (was it saved with another updater or net?)");
  }
}

}  // namespace train
}  // namespace umbra
