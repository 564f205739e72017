// The definitions of BasicNetwork's members (network.h); included by the
// files that instantiate it: network.cc for the cpu, model_gpu.cc for the
// gpu.
#ifndef UMBRA_TRAIN_NETWORK_IMPL_H_
#define UMBRA_TRAIN_NETWORK_IMPL_H_

#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "layers/layer_error.h"
#include "layers/layer_registry.h"
#include "train/config_schema.h"
#include "train/network.h"

namespace umbra {
namespace train {
namespace internal {

// The config line a layer's error is about: the setting that gave the
// refused value, else the last setting whose key the message quotes, else the
// layer line.
inline const ConfigEntry& LocateLayerError(
    const layers::LayerError& error, const std::vector<ConfigEntry>& settings,
    const LayerDeclaration& layer) {
  if (error.cause()) {
    const ConfigEntry* at = FindEntryOfParamError(*error.cause(), settings);
    if (at != nullptr) return *at;
  }
  const std::string message = error.what();
  for (auto it = settings.rbegin(); it != settings.rend(); ++it) {
    std::string key = it->key;
    const size_t colon = key.find(':');
    if (absl::StrContains(message, absl::StrCat("'", key, "'")) ||
        (colon != std::string::npos &&
         absl::StrContains(message,
                           absl::StrCat("'", key.substr(colon + 1), "'")))) {
      return *it;
    }
  }
  return layer.declaration;
}

inline ConfigError LayerConfigError(const LayerDeclaration& layer,
                                    const std::string& detail) {
  return ConfigError(layer.declaration.location, layer.declaration.key,
                     absl::StrCat(layer.Describe(), ": ", detail));
}

// How messages name a node: layer[+1] nodes by the layer that writes them.
inline std::string NodeLabel(const NetConfig& net, int node) {
  const NodeInfo& info = net.nodes[node];
  if (!info.name.empty() && info.name[0] == '!' && info.producer >= 0) {
    return absl::StrCat("the output of ", net.layers[info.producer].Describe());
  }
  return absl::StrCat("node '", info.name, "'");
}

// Whether every element of `t` is finite (a gpu tensor is copied to the
// host first).
template <typename xpu>
bool AllFinite(const Tensor<xpu, 4, float>& t) {
  if constexpr (std::is_same<xpu, cpu>::value) {
    const size_t n = t.shape_.Size();
    for (size_t i = 0; i < n; ++i) {
      if (!std::isfinite(t.dptr_[i])) return false;
    }
    return true;
  } else {
    TensorContainer<cpu, 4, float> host(t.shape_);
    Copy(host.view(), t);
    return AllFinite<cpu>(host.view());
  }
}

}  // namespace internal

template <typename xpu>
struct BasicNetwork<xpu>::OwnedNode {
  TensorContainer<xpu, 4, float> data{false};
  TensorContainer<xpu, 4, float> grad{false};
  NodeType node;
};

template <typename xpu>
BasicNetwork<xpu>::BasicNetwork(const TrainConfig& config,
                                const ConfigSchema& schema,
                                const std::vector<Shape<4>>& input_shapes)
    : config_(config.net) {
  const NetConfig& net = config_;
  if (net.layers.empty()) {
    throw ConfigError(SourceLocation::File(config.source, 0), "netconfig",
                      "the config describes no network: add a `netconfig = "
                      "start` ... `netconfig = end` block with layers");
  }
  const size_t num_nodes = net.nodes.size();
  std::vector<bool> known(num_nodes, false);
  // Whether a layer wrote the node (its gradient then matters).
  std::vector<bool> written(num_nodes, false);
  // Per node: the layer that read its current value, or -1.
  std::vector<int> reader(num_nodes, -1);
  // Per node: the layer that wrote it other than in place, or -1.
  std::vector<int> writer(num_nodes, -1);
  shapes_.assign(num_nodes, Shape4(0, 0, 0, 0));
  // The parser adds in_1 ... in_N right after `in`, before any layer.
  while (num_inputs_ < num_nodes && net.nodes[num_inputs_].producer < 0) {
    ++num_inputs_;
  }
  if (input_shapes.size() != num_inputs_) {
    const ConfigEntry* count = config.FindGlobal("extra_data_num");
    throw ConfigError(
        count != nullptr ? count->location
                         : SourceLocation::File(config.source, 0),
        "extra_data_num",
        absl::StrCat("the net has ", num_inputs_ - 1,
                     " extra input nodes (extra_data_num) but is given ",
                     input_shapes.size() - 1, " extra input shapes"));
  }
  for (size_t n = 0; n < num_inputs_; ++n) {
    if (input_shapes[n][0] != input_shapes[0][0]) {
      throw ConfigError(
          SourceLocation::File(config.source, 0), "extra_data_num",
          absl::StrCat("input node '", net.NodeName(n), "' gets batches of ",
                       input_shapes[n][0], " instances but node 'in' of ",
                       input_shapes[0][0]));
    }
    shapes_[n] = input_shapes[n];
    known[n] = true;
  }

  for (const LayerDeclaration& layer : net.layers) {
    std::vector<Shape<4>> in_shapes;
    bool prop_grad = false;
    for (int node : layer.inputs) {
      if (!known[node]) {
        throw internal::LayerConfigError(
            layer, absl::StrCat("reads ", internal::NodeLabel(net, node),
                                ", which no earlier layer writes"));
      }
      if (reader[node] >= 0) {
        throw internal::LayerConfigError(
            layer,
            absl::StrCat("reads ", internal::NodeLabel(net, node), ", which ",
                         net.layers[reader[node]].Describe(),
                         " reads too; their gradients would overwrite each "
                         "other: give the node to a split layer "
                         "(layer[a->b,c] = split) and read b and c"));
      }
      reader[node] = layer.index;
      in_shapes.push_back(shapes_[node]);
      prop_grad = prop_grad || written[node];
    }
    const std::vector<ConfigEntry> settings =
        LayerSettings(config, layer, schema);
    std::unique_ptr<LayerType> created;
    std::vector<Shape<4>> out_shapes;
    try {
      // A share[...] layer is made as the layer it shares.
      const std::string& type = layer.shared_with >= 0
                                    ? net.layers[layer.shared_with].type
                                    : layer.type;
      created = layers::CreateLayer<xpu, float>(type, layer.name,
                                                ToParamKwargs(settings));
    } catch (const layers::LayerError& e) {
      const ConfigEntry& at = internal::LocateLayerError(e, settings, layer);
      throw ConfigError(at.location, at.key, e.what());
    }
    try {
      out_shapes = created->InferShapes(in_shapes, layer.outputs.size());
    } catch (const layers::LayerError& e) {
      throw ConfigError(layer.declaration.location, layer.declaration.key,
                        e.what());
    }
    for (size_t j = 0; j < layer.outputs.size(); ++j) {
      const int node = layer.outputs[j];
      bool in_place = false;
      for (size_t i = 0; i < layer.inputs.size(); ++i) {
        if (layer.inputs[i] != node) continue;
        in_place = true;
        if (!(out_shapes[j] == in_shapes[i])) {
          throw internal::LayerConfigError(
              layer, absl::StrCat("writes ", internal::NodeLabel(net, node),
                                  " in place but changes its shape from ",
                                  ShapeText(in_shapes[i]), " to ",
                                  ShapeText(out_shapes[j]),
                                  "; write a new node instead"));
        }
      }
      if (!in_place) {
        if (known[node]) {
          const std::string first = writer[node] >= 0
                                        ? net.layers[writer[node]].Describe()
                                        : std::string("the input");
          throw internal::LayerConfigError(
              layer, absl::StrCat("writes ", internal::NodeLabel(net, node),
                                  ", which ", first, " already writes"));
        }
        writer[node] = layer.index;
      }
      known[node] = true;
      written[node] = true;
      reader[node] = -1;
      shapes_[node] = out_shapes[j];
    }
    prop_grad_.push_back(prop_grad);
    layers_.push_back(std::move(created));
    if (layer.shared_with >= 0) ShareWeights(layer.index);
  }

  nodes_.assign(num_nodes, nullptr);
  for (size_t n = 0; n < num_nodes; ++n) {
    if (!known[n]) continue;
    storage_.push_back(std::make_unique<OwnedNode>());
    OwnedNode& owned = *storage_.back();
    owned.data.Resize(shapes_[n], 0.0f);
    owned.grad.Resize(shapes_[n], 0.0f);
    owned.node.data = owned.data.view();
    owned.node.grad = owned.grad.view();
    nodes_[n] = &owned.node;
  }
  layers::LayerContext<xpu, float> context;
  context.rnd = &rnd_;
  context.labels = &labels_;
  for (size_t i = 0; i < layers_.size(); ++i) {
    const LayerDeclaration& layer = net.layers[i];
    std::vector<NodeType*> in, out;
    for (int node : layer.inputs) in.push_back(nodes_[node]);
    for (int node : layer.outputs) out.push_back(nodes_[node]);
    try {
      layers_[i]->Setup(in, out, context);
    } catch (const layers::LayerError& e) {
      throw ConfigError(layer.declaration.location, layer.declaration.key,
                        e.what());
    }
  }
}

template <typename xpu>
BasicNetwork<xpu>::~BasicNetwork() = default;

template <typename xpu>
void BasicNetwork<xpu>::ShareWeights(size_t index) {
  const LayerDeclaration& layer = config_.layers[index];
  const LayerDeclaration& primary = config_.layers[layer.shared_with];
  const std::vector<layers::WeightRef<xpu, float>> own =
      layers_[index]->Weights();
  const std::vector<layers::WeightRef<xpu, float>> shared =
      layers_[layer.shared_with]->Weights();
  std::vector<std::string> differences;
  for (size_t i = 0; i < own.size(); ++i) {
    if (own[i].shape != shared[i].shape) {
      std::ostringstream os;
      os << own[i].tag << " " << own[i].shape << " here, " << shared[i].shape
         << " in " << primary.name;
      differences.push_back(os.str());
    }
  }
  if (!differences.empty()) {
    std::string inputs;
    for (const Shape<4>& shape : layers_[index]->in_shapes()) {
      absl::StrAppend(&inputs, inputs.empty() ? "" : ", ", ShapeText(shape));
    }
    throw internal::LayerConfigError(
        layer,
        absl::StrCat("shares the weights of ", primary.Describe(), " (line ",
                     primary.declaration.location.line, "), but its input ",
                     inputs, " needs weights of other shapes: ",
                     absl::StrJoin(differences, "; "),
                     ". A share[...] layer needs an input that gives the "
                     "shared layer's weight shapes"));
  }
  layers_[index]->ShareWeightsOf(*layers_[layer.shared_with]);
}

template <typename xpu>
void BasicNetwork<xpu>::InitWeights(int seed) {
  rnd_.Seed(seed);
  for (auto& layer : layers_) layer->InitWeights(&rnd_);
}

template <typename xpu>
void BasicNetwork<xpu>::SetLabel(const std::string& field,
                                 const Tensor<xpu, 2, float>& label) {
  labels_.fields[field] = label;
}

template <typename xpu>
void BasicNetwork<xpu>::Forward(bool is_train) {
  for (auto& layer : layers_) layer->Forward(is_train);
}

template <typename xpu>
void BasicNetwork<xpu>::Backprop() {
  for (size_t i = layers_.size(); i-- > 0;) {
    layers_[i]->Backprop(prop_grad_[i]);
  }
}

template <typename xpu>
std::string BasicNetwork<xpu>::TraceNonFinite(bool is_train) {
  const NetConfig& net = config_;
  for (size_t n = 0; n < num_inputs_; ++n) {
    if (!internal::AllFinite(input(n))) {
      return absl::StrCat("the input batch (node '", net.NodeName(n),
                          "') holds a NaN or infinity");
    }
  }
  for (size_t i = 0; i < layers_.size(); ++i) {
    layers_[i]->Forward(is_train);
    for (int node : net.layers[i].outputs) {
      if (!internal::AllFinite(nodes_[node]->data)) {
        return absl::StrCat(net.layers[i].Describe(),
                            " is the first layer whose output holds a NaN "
                            "or infinity (",
                            internal::NodeLabel(net, node), ")");
      }
    }
    if (layers_[i]->is_loss() && !std::isfinite(layers_[i]->Loss())) {
      return absl::StrCat("the loss of ", net.layers[i].Describe(),
                          " is not finite, though its input is");
    }
  }
  return "";
}

template <typename xpu>
double BasicNetwork<xpu>::Loss() const {
  double sum = 0.0;
  bool any = false;
  for (const auto& layer : layers_) {
    if (!layer->is_loss()) continue;
    sum += layer->Loss();
    any = true;
  }
  return any ? sum : std::numeric_limits<double>::quiet_NaN();
}

template <typename xpu>
bool BasicNetwork<xpu>::has_loss() const {
  for (const auto& layer : layers_) {
    if (layer->is_loss()) return true;
  }
  return false;
}

template <typename xpu>
Tensor<xpu, 2, float> BasicNetwork<xpu>::Output() const {
  return layers::AsMatrix(nodes_[config_.layers.back().outputs[0]]->data);
}

template <typename xpu>
std::vector<layers::WeightRef<xpu, float>> BasicNetwork<xpu>::Weights() {
  std::vector<layers::WeightRef<xpu, float>> all;
  for (size_t i = 0; i < layers_.size(); ++i) {
    if (config_.layers[i].shared_with >= 0) continue;
    for (auto& weight : layers_[i]->Weights()) all.push_back(weight);
  }
  return all;
}

template <typename xpu>
std::vector<layers::StateRef<xpu, float>> BasicNetwork<xpu>::States() {
  std::vector<layers::StateRef<xpu, float>> all;
  for (auto& layer : layers_) {
    for (auto& state : layer->States()) all.push_back(state);
  }
  return all;
}

template <typename xpu>
int64_t BasicNetwork<xpu>::NumParameters() {
  int64_t total = 0;
  for (const auto& weight : Weights()) total += weight.shape.Size();
  return total;
}

template <typename xpu>
std::string BasicNetwork<xpu>::Summary() {
  std::string out = absl::StrFormat("%-16s %-14s %-20s %12s\n", "layer", "type",
                                    "output shape", "parameters");
  for (size_t n = 0; n < num_inputs_; ++n) {
    out += absl::StrFormat("%-16s %-14s %-20s %12s\n", config_.NodeName(n),
                           "(input)", ShapeText(shapes_[n]), "");
  }
  for (size_t i = 0; i < layers_.size(); ++i) {
    const LayerDeclaration& layer = config_.layers[i];
    int64_t count = 0;
    if (layer.shared_with < 0) {
      for (const auto& weight : layers_[i]->Weights()) {
        count += weight.shape.Size();
      }
    }
    out += absl::StrFormat(
        "%-16s %-14s %-20s %12d\n", layer.name,
        layer.shared_with >= 0 ? layer.declaration.value : layer.type,
        ShapeText(shapes_[layer.outputs[0]]), count);
  }
  out += absl::StrFormat("total parameters: %d\n", NumParameters());
  return out;
}

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_NETWORK_IMPL_H_
