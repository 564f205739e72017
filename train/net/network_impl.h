// The definitions of BasicNetwork's members (network.h); included by the
// files that instantiate it: network.cc for the cpu, model_gpu.cc for the
// gpu.
#ifndef UMBRA_TRAIN_NET_NETWORK_IMPL_H_
#define UMBRA_TRAIN_NET_NETWORK_IMPL_H_

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <new>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "layers/layer_error.h"
#include "layers/layer_registry.h"
#include "train/config/config_schema.h"
#include "train/net/network.h"

#ifdef UMBRA_USE_CUDA
// The gpu instantiation (model_gpu.cc) asks the runtime for the memory.
#include <cuda_runtime_api.h>
#endif

namespace umbra {
namespace train {
namespace internal {

// The ConfigError for `error`, a LayerError of `layer` configured from
// `settings`: at the setting that gave the refused value, else at the last
// setting whose key the message quotes, else at the layer line.
inline ConfigError ConfigErrorOfLayer(const layers::LayerError& error,
                                      const std::vector<ConfigEntry>& settings,
                                      const LayerDeclaration& layer) {
  if (error.cause()) {
    const ConfigEntry* at = FindEntryOfParamError(*error.cause(), settings);
    if (at != nullptr) return at->Error(error.what());
  }
  const std::string message = error.what();
  for (auto it = settings.rbegin(); it != settings.rend(); ++it) {
    std::string key = it->key;
    const size_t colon = key.find(':');
    if (absl::StrContains(message, absl::StrCat("'", key, "'")) ||
        (colon != std::string::npos &&
         absl::StrContains(message,
                           absl::StrCat("'", key.substr(colon + 1), "'")))) {
      return it->Error(message);
    }
  }
  return layer.declaration.Error(message);
}

// How messages name a node: layer[+1] nodes by the layer that writes them.
inline std::string NodeLabel(const NetConfig& net, int node) {
  const NodeInfo& info = net.nodes[node];
  if (!info.name.empty() && info.name[0] == '!' && info.producer >= 0) {
    return absl::StrCat("the output of ", net.layers[info.producer].Describe());
  }
  return absl::StrCat("node '", info.name, "'");
}

// What BasicNetwork::DeviceMemory says for each device (0: unknown), and
// how messages name that memory.
inline int64_t DeviceMemoryBytes(cpu*) {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<int64_t>(pages) * page_size;
}
inline const char* DeviceMemoryName(cpu*) { return "physical memory"; }
#ifdef UMBRA_USE_CUDA
inline int64_t DeviceMemoryBytes(gpu*) {
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
    cudaGetLastError();  // clears the error, which is not sticky
    return 0;
  }
  return static_cast<int64_t>(total_bytes);
}
inline const char* DeviceMemoryName(gpu*) { return "GPU memory"; }
#endif

// The setting of `layer` (its own lines; a share[...] layer's are its
// primary's) with the largest whole-number value, the likeliest size to
// reduce; nullptr when none has one.
inline const ConfigEntry* LargestSizeSetting(const NetConfig& net,
                                             const LayerDeclaration& layer) {
  const LayerDeclaration& own =
      layer.shared_with >= 0 ? net.layers[layer.shared_with] : layer;
  const ConfigEntry* largest = nullptr;
  int64_t largest_value = 1;
  for (const ConfigEntry& entry : own.settings) {
    int64_t value = 0;
    if (absl::SimpleAtoi(entry.value, &value) && value > largest_value) {
      largest = &entry;
      largest_value = value;
    }
  }
  return largest;
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

// What the build knows of each node while it adds the layers in order.
template <typename xpu>
struct BasicNetwork<xpu>::NodeUse {
  explicit NodeUse(size_t num_nodes)
      : known(num_nodes, false),
        written(num_nodes, false),
        written_in_place(num_nodes, false),
        reader(num_nodes, -1),
        writer(num_nodes, -1) {}

  // Whether the node has a value: an input, or written by an earlier layer.
  std::vector<bool> known;
  // Whether a layer wrote the node (its gradient then matters).
  std::vector<bool> written;
  // Whether a layer wrote the node in place (changed its value).
  std::vector<bool> written_in_place;
  // The layer that read the node's current value, or -1.
  std::vector<int> reader;
  // The layer that wrote the node other than in place, or -1.
  std::vector<int> writer;
};

template <typename xpu>
BasicNetwork<xpu>::BasicNetwork(const TrainConfig& config,
                                const ConfigSchema& schema,
                                const std::vector<Shape<4>>& input_shapes,
                                int64_t memory_bytes,
                                const NetSplit<xpu>& split)
    : config_(config.net) {
  if (config_.layers.empty()) {
    throw ConfigError(SourceLocation::File(config.source, 0), "netconfig",
                      "the config describes no network: add a `netconfig = "
                      "start` ... `netconfig = end` block with layers");
  }
  NodeUse use(config_.nodes.size());
  shapes_.assign(config_.nodes.size(), Shape4(0, 0, 0, 0));
  CheckInputs(config, input_shapes, &use);
  for (const LayerDeclaration& layer : config_.layers) {
    AddLayer(config, schema, layer, &use);
  }
  // Nothing big is allocated yet: the shapes say what will be.
  const std::vector<int> data_source = DataSources(use);
  const std::vector<int> grad_source = GradientSources(use);
  CountTensorBytes(use.writer, data_source, grad_source);
  CheckMemory(config, memory_bytes);
  AllocateNodes(config, use, data_source, grad_source);
  SetUpLayers(split);
  FuseRelus();
}

template <typename xpu>
void BasicNetwork<xpu>::FuseRelus() {
  fused_into_previous_.assign(layers_.size(), false);
  for (size_t i = 1; i < layers_.size(); ++i) {
    const LayerDeclaration& layer = config_.layers[i];
    const bool in_place_relu = layer.type == "relu" &&
                               layer.inputs.size() == 1 &&
                               layer.inputs == layer.outputs;
    if (in_place_relu && config_.layers[i - 1].outputs == layer.outputs) {
      fused_into_previous_[i] = layers_[i - 1]->FuseRelu();
    }
  }
}

template <typename xpu>
void BasicNetwork<xpu>::CheckInputs(const TrainConfig& config,
                                    const std::vector<Shape<4>>& input_shapes,
                                    NodeUse* use) {
  const NetConfig& net = config_;
  // The parser adds in_1 ... in_N right after `in`, before any layer.
  while (num_inputs_ < net.nodes.size() &&
         net.nodes[num_inputs_].producer < 0) {
    ++num_inputs_;
  }
  if (input_shapes.size() != num_inputs_) {
    throw ConfigError(
        config.GlobalLocation("extra_data_num"), "extra_data_num",
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
    const std::string problem = layers::TensorSizeProblem(input_shapes[n]);
    if (!problem.empty()) {
      throw ConfigError(
          config.GlobalLocation("batch_size"), "batch_size",
          absl::StrCat("key 'batch_size': input node '", net.NodeName(n),
                       "' would be ", ShapeText(input_shapes[n]),
                       " (batch_size, then the ",
                       n == 0 ? "input_shape" : "extra_data_shape",
                       "): ", problem, "; reduce batch_size"));
    }
    shapes_[n] = input_shapes[n];
    use->known[n] = true;
  }
}

template <typename xpu>
void BasicNetwork<xpu>::AddLayer(const TrainConfig& config,
                                 const ConfigSchema& schema,
                                 const LayerDeclaration& layer, NodeUse* use) {
  const NetConfig& net = config_;
  std::vector<Shape<4>> in_shapes;
  bool prop_grad = false;
  for (int node : layer.inputs) {
    if (!use->known[node]) {
      throw layer.Error(absl::StrCat("reads ", internal::NodeLabel(net, node),
                                     ", which no earlier layer writes"));
    }
    if (use->reader[node] >= 0) {
      throw layer.Error(
          absl::StrCat("reads ", internal::NodeLabel(net, node), ", which ",
                       net.layers[use->reader[node]].Describe(),
                       " reads too; their gradients would overwrite each "
                       "other: give the node to a split layer "
                       "(layer[a->b,c] = split) and read b and c"));
    }
    use->reader[node] = layer.index;
    in_shapes.push_back(shapes_[node]);
    prop_grad = prop_grad || use->written[node];
  }
  const std::vector<ConfigEntry> settings =
      LayerSettings(config, layer, schema);
  std::unique_ptr<LayerType> created;
  try {
    // A share[...] layer is made as the layer it shares.
    const std::string& type = layer.shared_with >= 0
                                  ? net.layers[layer.shared_with].type
                                  : layer.type;
    created = layers::CreateLayer<xpu, float>(type, layer.name,
                                              ToParamKwargs(settings));
  } catch (const layers::LayerError& e) {
    throw internal::ConfigErrorOfLayer(e, settings, layer);
  }
  std::vector<Shape<4>> out_shapes;
  try {
    out_shapes = created->InferShapes(in_shapes, layer.outputs.size());
  } catch (const layers::LayerError& e) {
    // About its input shapes: at the layer line.
    throw layer.declaration.Error(e.what());
  } catch (const std::bad_alloc&) {
    std::string inputs;
    for (const Shape<4>& shape : in_shapes) {
      absl::StrAppend(&inputs, inputs.empty() ? "" : ", ", ShapeText(shape));
    }
    throw layer.Error(absl::StrCat(
        "out of memory while inferring its shapes from its input ", inputs));
  }
  for (size_t j = 0; j < layer.outputs.size(); ++j) {
    const int node = layer.outputs[j];
    bool in_place = false;
    for (size_t i = 0; i < layer.inputs.size(); ++i) {
      if (layer.inputs[i] != node) continue;
      in_place = true;
      if (!(out_shapes[j] == in_shapes[i])) {
        throw layer.Error(absl::StrCat(
            "writes ", internal::NodeLabel(net, node),
            " in place but changes its shape from ", ShapeText(in_shapes[i]),
            " to ", ShapeText(out_shapes[j]), "; write a new node instead"));
      }
    }
    if (!in_place) {
      if (use->known[node]) {
        const std::string first = use->writer[node] >= 0
                                      ? net.layers[use->writer[node]].Describe()
                                      : std::string("the input");
        throw layer.Error(absl::StrCat("writes ",
                                       internal::NodeLabel(net, node),
                                       ", which ", first, " already writes"));
      }
      use->writer[node] = layer.index;
    }
    use->known[node] = true;
    use->written[node] = true;
    use->written_in_place[node] = use->written_in_place[node] || in_place;
    use->reader[node] = -1;
    shapes_[node] = out_shapes[j];
  }
  prop_grad_.push_back(prop_grad);
  layers_.push_back(std::move(created));
  if (layer.shared_with >= 0) ShareWeights(layer.index);
}

template <typename xpu>
std::vector<int> BasicNetwork<xpu>::DataSources(const NodeUse& use) const {
  std::vector<int> source(config_.nodes.size());
  for (size_t n = 0; n < source.size(); ++n) source[n] = int(n);
  // Layers in order, so that a copy of a copy finds the first node.
  for (size_t i = 0; i < layers_.size(); ++i) {
    if (!layers_[i]->ForwardCopiesInput()) continue;
    const LayerDeclaration& layer = config_.layers[i];
    const int input = layer.inputs[0];
    for (int node : layer.outputs) {
      // Its only reader is this layer, so only a write in place into an
      // output could change the shared value.
      if (node != input && !use.written_in_place[node]) {
        source[node] = source[input];
      }
    }
  }
  return source;
}

template <typename xpu>
std::vector<int> BasicNetwork<xpu>::GradientSources(const NodeUse& use) const {
  std::vector<int> source(config_.nodes.size());
  for (size_t n = 0; n < source.size(); ++n) source[n] = int(n);
  // Layers from the last, as Backprop runs, so that an output's own source
  // is known before its inputs take it.
  for (size_t i = layers_.size(); i-- > 0;) {
    const LayerDeclaration& layer = config_.layers[i];
    if (layer.outputs.size() != 1) continue;
    const int output = layer.outputs[0];
    for (size_t k = 0; k < layer.inputs.size(); ++k) {
      const int node = layer.inputs[k];
      // A write in place into the input would run its Backprop after this
      // layer's and change the shared gradient.
      if (node != output && !use.written_in_place[node] &&
          layers_[i]->BackpropCopiesGradientTo(k)) {
        source[node] = source[output];
      }
    }
  }
  return source;
}

template <typename xpu>
void BasicNetwork<xpu>::AllocateNodes(const TrainConfig& config,
                                      const NodeUse& use,
                                      const std::vector<int>& data_source,
                                      const std::vector<int>& grad_source) {
  const NetConfig& net = config_;
  nodes_.assign(net.nodes.size(), nullptr);
  for (size_t n = 0; n < net.nodes.size(); ++n) {
    if (!use.known[n]) continue;
    storage_.push_back(std::make_unique<OwnedNode>());
    OwnedNode& owned = *storage_.back();
    const bool own_data = data_source[n] == int(n);
    const bool own_grad = grad_source[n] == int(n);
    std::string failure;
    try {
      if (own_data) owned.data.Resize(shapes_[n], 0.0f);
      if (own_grad) owned.grad.Resize(shapes_[n], 0.0f);
    } catch (const std::bad_alloc&) {
      failure = "out of memory";
    } catch (const std::exception& e) {
      failure = e.what();  // the device's allocation error
    }
    if (!failure.empty()) {
      storage_.pop_back();
      const std::string what = absl::StrCat(
          ShapeText(shapes_[n]), " and its gradient (",
          ByteCountText(2 * static_cast<int64_t>(shapes_[n].Size()) *
                        static_cast<int64_t>(sizeof(float))),
          "): ", failure);
      if (use.writer[n] >= 0) {
        throw net.layers[use.writer[n]].Error(
            absl::StrCat("cannot allocate its output ", what));
      }
      throw ConfigError(
          config.GlobalLocation("batch_size"), "batch_size",
          absl::StrCat("key 'batch_size': cannot allocate input node '",
                       net.NodeName(n), "' ", what, "; reduce batch_size"));
    }
    owned.node.data = owned.data.view();
    owned.node.grad = owned.grad.view();
    nodes_[n] = &owned.node;
  }
  // A node that shares another's memory sees it in its own shape (flatten's
  // output is its input's data as a matrix).
  for (size_t n = 0; n < net.nodes.size(); ++n) {
    if (!use.known[n]) continue;
    nodes_[n]->data = layers::Reshape(nodes_[data_source[n]]->data, shapes_[n]);
    nodes_[n]->grad = layers::Reshape(nodes_[grad_source[n]]->grad, shapes_[n]);
  }
}

template <typename xpu>
void BasicNetwork<xpu>::SetUpLayers(const NetSplit<xpu>& split) {
  layers::LayerContext<xpu, float> context;
  context.rnd = &rnd_;
  context.labels = &labels_;
  context.split = split.rows;
  context.rank_sum = split.rank_sum;
  for (size_t i = 0; i < layers_.size(); ++i) {
    const LayerDeclaration& layer = config_.layers[i];
    std::vector<NodeType*> in, out;
    for (int node : layer.inputs) in.push_back(nodes_[node]);
    for (int node : layer.outputs) out.push_back(nodes_[node]);
    try {
      layers_[i]->Setup(in, out, context);
    } catch (const layers::LayerError& e) {
      throw layer.declaration.Error(e.what());
    } catch (const std::bad_alloc&) {
      throw layer.Error(
          "out of memory while setting it up (its weights and working "
          "buffers)");
    }
  }
}

template <typename xpu>
int64_t BasicNetwork<xpu>::DeviceMemory() {
  return internal::DeviceMemoryBytes(static_cast<xpu*>(nullptr));
}

template <typename xpu>
void BasicNetwork<xpu>::CountTensorBytes(const std::vector<int>& writer,
                                         const std::vector<int>& data_source,
                                         const std::vector<int>& grad_source) {
  constexpr int64_t kFloat = sizeof(float);
  NetTensorBytes& bytes = tensor_bytes_;
  bytes = NetTensorBytes();
  bytes.layers.resize(layers_.size());
  for (size_t n = 0; n < shapes_.size(); ++n) {
    if (n >= num_inputs_ && writer[n] < 0) continue;  // no layer writes it
    const int64_t tensor = static_cast<int64_t>(shapes_[n].Size()) * kFloat;
    const int64_t node = (data_source[n] == int(n) ? tensor : 0) +
                         (grad_source[n] == int(n) ? tensor : 0);
    bytes.activations += node;
    if (n < num_inputs_) {
      bytes.inputs += node;
    } else {
      bytes.layers[writer[n]].outputs += node;
    }
  }
  for (size_t i = 0; i < layers_.size(); ++i) {
    if (config_.layers[i].shared_with >= 0) continue;
    NetTensorBytes::Layer& layer = bytes.layers[i];
    for (const auto& weight : layers_[i]->WeightShapes()) {
      layer.weights += static_cast<int64_t>(weight.second.Size()) * kFloat;
    }
    for (const auto& state : layers_[i]->StateShapes()) {
      layer.states += static_cast<int64_t>(state.second.Size()) * kFloat;
    }
    bytes.weights += layer.weights;
    bytes.states += layer.states;
  }
}

template <typename xpu>
void BasicNetwork<xpu>::CheckMemory(const TrainConfig& config,
                                    int64_t memory_bytes) const {
  const bool device = memory_bytes == kDeviceMemory;
  const int64_t available = device ? DeviceMemory() : memory_bytes;
  const NetTensorBytes& bytes = tensor_bytes_;
  const int64_t total = bytes.total();
  if (available <= 0 || total <= available) return;
  const std::string verdict = absl::StrCat(
      "the net needs ", ByteCountText(total),
      " for its nodes and weights (gradients included) but ",
      device
          ? absl::StrCat("this machine has ", ByteCountText(available), " of ",
                         internal::DeviceMemoryName(static_cast<xpu*>(nullptr)))
          : absl::StrCat("it may take only ", ByteCountText(available)));
  const int64_t batch = shapes_[kInputNode][0];
  // The batch size that would fit: weights and states do not grow with it.
  const int64_t per_instance = bytes.activations / batch;
  const int64_t fixed = 2 * bytes.weights + bytes.states;
  const int64_t fitting =
      available > fixed ? (available - fixed) / per_instance : 0;

  size_t largest = 0;
  for (size_t i = 1; i < bytes.layers.size(); ++i) {
    if (bytes.layers[i].total() > bytes.layers[largest].total()) largest = i;
  }
  const NetTensorBytes::Layer& need = bytes.layers[largest];
  const LayerDeclaration& layer = config_.layers[largest];
  // The nodes that layer writes (not in place).
  std::vector<std::string> outputs;
  for (int node : layer.outputs) {
    if (std::find(layer.inputs.begin(), layer.inputs.end(), node) ==
        layer.inputs.end()) {
      outputs.push_back(ShapeText(shapes_[node]));
    }
  }

  // batch_size when a smaller batch fits and the nodes take most of it.
  if (fitting >= 1 && 2 * bytes.activations >= total) {
    throw ConfigError(
        config.GlobalLocation("batch_size"), "batch_size",
        absl::StrCat("key 'batch_size': ", verdict, ": its nodes take ",
                     ByteCountText(bytes.activations), " at batch_size ", batch,
                     " (", ByteCountText(per_instance),
                     " per instance; the most for ", layer.Describe(), " at ",
                     layer.declaration.location.ToString(), ", output ",
                     absl::StrJoin(outputs, ", "),
                     "); reduce batch_size: at most ", fitting, " would fit"));
  }
  const std::string batch_advice =
      fitting >= 1 ? absl::StrCat(" or batch_size (", batch, "; at most ",
                                  fitting, " would fit)")
                   : std::string("; even batch_size 1 would not fit");
  // input_shape when even one instance's input does not fit beside the
  // weights and is more than any layer needs.
  if (bytes.inputs >= need.total()) {
    throw ConfigError(config.GlobalLocation("input_shape"), "input_shape",
                      absl::StrCat("key 'input_shape': ", verdict,
                                   ": the input nodes alone take ",
                                   ByteCountText(bytes.inputs), " (",
                                   ShapeText(shapes_[kInputNode]),
                                   "); reduce input_shape", batch_advice));
  }
  // Else the layer that needs the most.
  std::vector<std::string> parts;
  if (need.outputs > 0) {
    parts.push_back(absl::StrCat(ByteCountText(need.outputs),
                                 " for its output ",
                                 absl::StrJoin(outputs, ", ")));
  }
  if (need.weights > 0) {
    std::vector<std::string> weights;
    for (const auto& weight : layers_[largest]->WeightShapes()) {
      std::ostringstream os;
      os << weight.first << " " << weight.second;
      weights.push_back(os.str());
    }
    parts.push_back(absl::StrCat(ByteCountText(2 * need.weights),
                                 " for its weights ",
                                 absl::StrJoin(weights, ", ")));
  }
  if (need.states > 0) {
    parts.push_back(
        absl::StrCat(ByteCountText(need.states), " for its states"));
  }
  const ConfigEntry* size = internal::LargestSizeSetting(config_, layer);
  throw layer.Error(absl::StrCat(
      verdict, "; this layer alone needs ", ByteCountText(need.total()),
      " (gradients included): ", absl::StrJoin(parts, " and "), "; reduce ",
      size != nullptr ? absl::StrCat(size->key, " (", size->value, ")")
                      : std::string("its sizes"),
      need.outputs > 0 ? batch_advice : std::string()));
}

template <typename xpu>
BasicNetwork<xpu>::~BasicNetwork() = default;

template <typename xpu>
void BasicNetwork<xpu>::ShareWeights(size_t index) {
  const LayerDeclaration& layer = config_.layers[index];
  const LayerDeclaration& primary = config_.layers[layer.shared_with];
  // Shapes only: nothing is allocated before CheckMemory.
  const std::vector<std::pair<std::string, TShape>> own =
      layers_[index]->WeightShapes();
  const std::vector<std::pair<std::string, TShape>> shared =
      layers_[layer.shared_with]->WeightShapes();
  std::vector<std::string> differences;
  for (size_t i = 0; i < own.size() && i < shared.size(); ++i) {
    if (own[i].second != shared[i].second) {
      std::ostringstream os;
      os << own[i].first << " " << own[i].second << " here, "
         << shared[i].second << " in " << primary.name;
      differences.push_back(os.str());
    }
  }
  if (!differences.empty()) {
    std::string inputs;
    for (const Shape<4>& shape : layers_[index]->in_shapes()) {
      absl::StrAppend(&inputs, inputs.empty() ? "" : ", ", ShapeText(shape));
    }
    throw layer.Error(absl::StrCat(
        "shares the weights of ", primary.Describe(), " (line ",
        primary.declaration.location.line, "), but its input ", inputs,
        " needs weights of other shapes: ", absl::StrJoin(differences, "; "),
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
  for (size_t i = 0; i < layers_.size(); ++i) {
    if (!fused_into_previous_[i]) layers_[i]->Forward(is_train);
  }
}

template <typename xpu>
void BasicNetwork<xpu>::Backprop(
    const std::function<void(size_t layer)>& layer_done) {
  for (size_t i = layers_.size(); i-- > 0;) {
    if (!fused_into_previous_[i]) layers_[i]->Backprop(prop_grad_[i]);
    if (layer_done) layer_done(i);
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
  for (const auto& layer : WeightsByLayer()) {
    all.insert(all.end(), layer.begin(), layer.end());
  }
  return all;
}

template <typename xpu>
std::vector<std::vector<layers::WeightRef<xpu, float>>>
BasicNetwork<xpu>::WeightsByLayer() {
  std::vector<std::vector<layers::WeightRef<xpu, float>>> by_layer(
      layers_.size());
  for (size_t i = 0; i < layers_.size(); ++i) {
    if (config_.layers[i].shared_with < 0) by_layer[i] = layers_[i]->Weights();
  }
  return by_layer;
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

#endif  // UMBRA_TRAIN_NET_NETWORK_IMPL_H_
