// BasicNetwork<xpu>: the graph of nodes and layers a config's netconfig
// block describes, built on device xpu in float (Network is the cpu one;
// the gpu one exists in --config=cuda builds, instantiated by
// //train:trainer_gpu): every layer created from its
// settings, every node's shape inferred from the input shape and checked,
// node memory allocated and bound, weights initialised; then forward and
// backward passes over the whole graph.
//
// Example:
//
//   KeySchema schema;
//   AddLayerTypes(&schema);  // the trainer's MakeTrainerSchema() adds more
//   Network net(config, schema, {Shape4(100, 1, 28, 28)});  // ConfigError
//   std::cout << net.Summary();
//   net.InitWeights(/*seed=*/0);
//   Copy(net.input(), batch.data);   // and net.input(k): batch.extra_data
//   net.SetLabel("label", batch.label);
//   net.Forward(/*is_train=*/true);
//   net.Backprop();                 // weight gradients accumulate (+=)
//   Tensor<cpu, 2> scores = net.Output();
//
// Weight sharing, `layer[a->b] = share[fc1]` (cxxnet's): the sharing layer
// is an instance of fc1's type with fc1's settings, with its own batch
// state (dropout masks, im2col buffers), whose weight tensors are fc1's
// (Layer::ShareWeightsOf): both uses read the same values and add into the
// same gradients, Weights() lists fc1's weights once (the updater updates
// them once, checkpoints hold them once), and the sharing layer has no
// parameters of its own.
//
// Checks, each a ConfigError at the config line of the layer at fault: a
// layer that reads a node nothing writes, a node written by two layers, a
// node read by two layers (gradients would overwrite each other; use a
// split layer), an in-place layer that changes its node's shape, a layer
// that cannot take its input shapes (the layer's message), a share[...]
// layer whose input gives its weights other shapes than the layer it
// shares (naming both layers and the shapes). The parser already refuses
// cycles and use before definition; they are checked again here.
//
// Inputs: node `in`, and with `extra_data_num = N` the extra input nodes
// in_1 ... in_N (cxxnet's extra data), each of its own shape with the
// batch size of `in`.
//
// Memory: every shape is known before anything is allocated (a layer
// refuses a shape that overflows or holds more than 2^40 elements), so the
// constructor adds up what the nodes, weights and states will take
// (tensor_bytes()) and refuses a net that needs more than the device has
// (DeviceMemory()): a ConfigError at the line of the layer that needs the
// most, or at batch_size when the nodes of many layers together do. An
// allocation that fails all the same names the layer it was for.
#ifndef UMBRA_TRAIN_NET_NETWORK_H_
#define UMBRA_TRAIN_NET_NETWORK_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "layers/layer.h"
#include "tensor/tensor.h"
#include "train/config/config.h"

namespace umbra {
namespace train {

// What a net's tensors take, in bytes of float values, as the net
// allocates them: every node's data and gradient, every weight and its
// gradient (as large), every state. A node whose data or gradient is
// another node's (an in-place layer's output, a copy that shares its
// input's data, a join's input that shares its output's gradient) counts
// only what it owns.
struct NetTensorBytes {
  // The input nodes' data and gradients.
  int64_t inputs = 0;
  // Every node's data and gradient, inputs included, each once.
  int64_t activations = 0;
  // Every weight, each once (a share[...] layer's are its primary's).
  int64_t weights = 0;
  // Every state (batch_norm's moving averages); they have no gradient.
  int64_t states = 0;
  // Per layer: the data and gradients of the nodes it writes first (not in
  // place) and its own weights and states.
  struct Layer {
    int64_t outputs = 0;
    int64_t weights = 0;
    int64_t states = 0;
    int64_t total() const { return outputs + 2 * weights + states; }
  };
  std::vector<Layer> layers;

  int64_t total() const { return activations + 2 * weights + states; }
};

// 1536 -> "1.50 KiB"; below 1 KiB "512 B".
inline std::string ByteCountText(int64_t bytes) {
  if (bytes < 1024) return absl::StrCat(bytes, " B");
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = bytes / 1024.0;
  int unit = 0;
  while (value >= 1024.0 && unit < 5) {
    value /= 1024.0;
    ++unit;
  }
  return absl::StrFormat("%.2f %s", value, units[unit]);
}

// How a net's batch relates to a data-parallel run's (train/dist): the
// rows its rank holds, and the sum over the ranks that batch_norm's sync_bn
// uses (not owned; null for a batch that is not split).
template <typename xpu>
struct NetSplit {
  layers::BatchSplit rows;
  layers::RankSum<xpu, float>* rank_sum = nullptr;
};

template <typename xpu>
class BasicNetwork {
 public:
  using LayerType = layers::Layer<xpu, float>;
  using NodeType = layers::Node<xpu, float>;

  // For the constructor: the memory of the device (DeviceMemory()).
  static constexpr int64_t kDeviceMemory = -1;

  // Builds the net of `config` for input batches of `input_shapes`
  // (batch, channel, height, width): node in's, then in_1's ... in_N's;
  // `split` tells the layers when that batch is a rank's share of a larger
  // one. Weights are declared but not initialised: call InitWeights or load
  // them. Throws ConfigError, also when the net's tensors would take more
  // than `memory_bytes` (kDeviceMemory: DeviceMemory(); 0: no limit).
  BasicNetwork(const TrainConfig& config, const ConfigSchema& schema,
               const std::vector<Shape<4>>& input_shapes,
               int64_t memory_bytes = kDeviceMemory,
               const NetSplit<xpu>& split = {});
  BasicNetwork(const BasicNetwork&) = delete;
  BasicNetwork& operator=(const BasicNetwork&) = delete;
  ~BasicNetwork();

  // Initialises every weight from `seed` and reseeds the layers'
  // generator with it.
  void InitWeights(int seed);
  // The generator layers draw from (dropout); the trainer reseeds it.
  Random<xpu, float>& rnd() { return rnd_; }

  // The data of input `index`: 0 is node in, k is node in_k. Fill them
  // before Forward.
  Tensor<xpu, 4, float> input(size_t index = 0) const {
    return nodes_[index]->data;
  }
  // 1 + extra_data_num.
  size_t num_inputs() const { return num_inputs_; }
  // Makes label field `field` (batch, width) visible to the loss layers
  // for the next passes. The tensor must stay valid until then.
  void SetLabel(const std::string& field, const Tensor<xpu, 2, float>& label);
  // Forgets every label field (prediction).
  void ClearLabels() { labels_.fields.clear(); }

  void Forward(bool is_train);
  // Backward through every layer, newest first; adds to the weight
  // gradients. Calls `layer_done(i)`, when given, after layer i's.
  void Backprop(const std::function<void(size_t layer)>& layer_done = {});
  // Forward again layer by layer and describe the first layer whose output
  // holds a NaN or infinity ("" when none does).
  std::string TraceNonFinite(bool is_train);

  // The sum of the loss layers' Loss(); NaN when there is no loss layer.
  double Loss() const;
  bool has_loss() const;
  // The output of the last layer as (batch, outputs): the scores metrics
  // and predictions read.
  Tensor<xpu, 2, float> Output() const;
  // The data of node `node`, an index of net_config() (FindNode gives
  // them).
  Tensor<xpu, 4, float> NodeData(int node) const { return nodes_[node]->data; }
  // Its gradient, as the last Backprop left it.
  Tensor<xpu, 4, float> NodeGradient(int node) const {
    return nodes_[node]->grad;
  }

  // Every trained weight, in layer order: a share[...] layer's weights are
  // those of the layer it shares, listed once under that layer.
  std::vector<layers::WeightRef<xpu, float>> Weights();
  // The same, by layer: entry i holds the weights layer i owns (none for a
  // share[...] layer), complete once its Backprop has run.
  std::vector<std::vector<layers::WeightRef<xpu, float>>> WeightsByLayer();
  // Every layer's untrained state (moving averages), in layer order.
  std::vector<layers::StateRef<xpu, float>> States();
  int64_t NumParameters();
  const std::vector<std::unique_ptr<LayerType>>& layers() const {
    return layers_;
  }
  // Whether layer i is an in-place relu that the layer before it computes
  // (Layer::FuseRelu): Forward and Backprop skip it.
  bool fused_into_previous(size_t i) const { return fused_into_previous_[i]; }
  const NetConfig& net_config() const { return config_; }
  Shape<4> input_shape() const { return shapes_[kInputNode]; }
  // What the net's tensors take, counted from the shapes before they were
  // allocated (layers' scratch buffers not included).
  const NetTensorBytes& tensor_bytes() const { return tensor_bytes_; }

  // The memory of device xpu in bytes: the cpu's physical memory
  // (sysconf: not what is free now, so the verdict on a config does not
  // change with the load of the machine), the current gpu's total memory
  // (cudaMemGetInfo); 0 when it cannot tell.
  static int64_t DeviceMemory();

  // One line per layer: name, type, output shape, parameter count (0 for a
  // share[...] layer); then the total.
  std::string Summary();

 private:
  struct OwnedNode;
  struct NodeUse;

  // The constructor's phases, in order. CheckInputs: the input nodes' shapes
  // against the net's inputs. AddLayer: creates one layer, checks the nodes
  // it reads and writes and infers its output shapes (nothing allocated).
  // AllocateNodes: every node's data and gradient. SetUpLayers: binds each
  // layer to its nodes (it allocates its weights and buffers).
  void CheckInputs(const TrainConfig& config,
                   const std::vector<Shape<4>>& input_shapes, NodeUse* use);
  void AddLayer(const TrainConfig& config, const ConfigSchema& schema,
                const LayerDeclaration& layer, NodeUse* use);
  void AllocateNodes(const TrainConfig& config, const NodeUse& use,
                     const std::vector<int>& data_source,
                     const std::vector<int>& grad_source);
  // Per node, the node whose data it shares: itself, or, for an output of
  // a layer that ForwardCopiesInput and that no layer writes in place, the
  // copied node's source.
  std::vector<int> DataSources(const NodeUse& use) const;
  // Per node, the node whose gradient it shares: itself, or, for an input
  // that a layer BackpropCopiesGradientTo and that no layer writes in
  // place, that layer's output's source.
  std::vector<int> GradientSources(const NodeUse& use) const;
  void SetUpLayers(const NetSplit<xpu>& split);
  // Offers every in-place relu layer to the layer before it, when that one
  // writes only the relu's node (Layer::FuseRelu); fills
  // fused_into_previous_.
  void FuseRelus();
  // Checks that the weights of share[...] layer `index` have the shapes of
  // its primary's, and makes them the primary's weights.
  void ShareWeights(size_t index);
  // Fills tensor_bytes_ from the shapes; `writer` is the layer that first
  // writes each node (-1 for inputs), the sources say which nodes own their
  // data and gradient (DataSources, GradientSources).
  void CountTensorBytes(const std::vector<int>& writer,
                        const std::vector<int>& data_source,
                        const std::vector<int>& grad_source);
  // Throws ConfigError when tensor_bytes_ exceeds `memory_bytes`.
  void CheckMemory(const TrainConfig& config, int64_t memory_bytes) const;

  NetConfig config_;
  // Input nodes are the first num_inputs_ nodes: in, in_1, ..., in_N.
  size_t num_inputs_ = 1;
  std::vector<std::unique_ptr<LayerType>> layers_;
  // Per layer: whether Backprop should write its inputs' gradients.
  std::vector<bool> prop_grad_;
  std::vector<bool> fused_into_previous_;
  std::vector<Shape<4>> shapes_;
  NetTensorBytes tensor_bytes_;
  std::vector<std::unique_ptr<OwnedNode>> storage_;
  std::vector<NodeType*> nodes_;
  layers::LabelInfo<xpu, float> labels_;
  Random<xpu, float> rnd_{0};
};

// The net on the cpu, as the tools and most tests use it.
using Network = BasicNetwork<cpu>;
extern template class BasicNetwork<cpu>;

// "(100,1,28,28)".
std::string ShapeText(const Shape<4>& shape);

// Adds every registered layer type with its keys (layers::LayerTypeKeys:
// tagged keys listed as written, so the schema has no separate weight
// tags): what a net's config is checked against.
void AddLayerTypes(KeySchema* schema);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_NET_NETWORK_H_
