// How each layer type is written as ONNX operators (opset 13), computing
// exactly what the layer's Forward(is_train = false) computes: its
// inference form (dropout is an Identity, rrelu the leaky ReLU of the mean
// slope, batch_norm normalises with its moving averages, a loss layer
// writes its prediction).
//
//   fullc -> Gemm(transB = 1)
//   conv -> Conv (pads, strides, dilations, group)
//   max_pooling, avg_pooling -> MaxPool, AveragePool(count_include_pad),
//     with explicit end pads for umbra's ceil-mode windows; sum_pooling ->
//     that AveragePool times the window area; global_pool -> GlobalMaxPool,
//     GlobalAveragePool
//   relu, sigmoid, tanh, softplus -> Relu, Sigmoid, Tanh, Softplus
//   xelu, rrelu -> LeakyRelu;  prelu -> PRelu;  bias -> Add
//   batch_norm -> BatchNormalization;  lrn -> LRN;  flatten -> Flatten
//   dropout, split -> Identity
//   concat -> Concat(last axis);  ch_concat -> Concat(axis 1)
//   eltwise_sum -> Sum (after a Mul by coeff);  eltwise_prod -> Mul;
//   eltwise_max -> Max
//   softmax -> Softmax over each row;  multi_logistic -> Sigmoid
//   l2_loss, lp_loss -> Identity (their prediction is their input)
//
// A type not listed here has no exporter, and the export refuses a net that
// has it.
#ifndef UMBRA_TRAIN_ONNX_LAYER_EXPORTERS_H_
#define UMBRA_TRAIN_ONNX_LAYER_EXPORTERS_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "layers/layer.h"
#include "onnx/onnx.pb.h"
#include "tensor/tensor.h"
#include "train/onnx/onnx_graph.h"

namespace umbra {
namespace train {

// A layer that cannot be written faithfully; the message says why. The
// exporter reports it at the layer's config line.
class ExportRefusal : public std::runtime_error {
 public:
  explicit ExportRefusal(const std::string& reason)
      : std::runtime_error(reason) {}
};

// What an exporter works on: one layer with its weights loaded, its inputs
// as the graph holds them, and the names its outputs must take.
class LayerExport {
 public:
  LayerExport(layers::Layer<cpu, float>* layer, std::vector<OnnxValue> inputs,
              std::vector<std::string> output_names, OnnxGraph* graph);

  layers::Layer<cpu, float>& layer() const { return *layer_; }
  const OnnxValue& input(size_t index) const { return inputs_[index]; }
  const std::vector<OnnxValue>& inputs() const { return inputs_; }
  OnnxGraph& graph() const { return *graph_; }

  // The initializer of the layer's weight (or state) `tag` as `dims`.
  std::string Weight(const std::string& tag, const std::vector<int64_t>& dims);
  // The dims of a per-channel weight applied to `value`: (n) for rows,
  // (c, 1, 1) for a 4-D value.
  static std::vector<int64_t> ChannelDims(const OnnxValue& value);

  // Writes output `index`: a node of `op` on `inputs` whose result is held
  // as rows when `rows` (else 4-D), then held as the output node's shape
  // asks (HeldAsShape). Returns the `op` node, for its attributes.
  onnx::NodeProto* Output(size_t index, const std::string& op,
                          const std::vector<std::string>& inputs, bool rows);
  // The same for an `op` that keeps its (only) input's shape and layout.
  onnx::NodeProto* SameShapeOutput(const std::string& op,
                                   const std::vector<std::string>& extra = {});

  // The outputs written so far, by index.
  const std::vector<OnnxValue>& outputs() const { return outputs_; }

 private:
  layers::Layer<cpu, float>* layer_;
  std::vector<OnnxValue> inputs_;
  std::vector<std::string> output_names_;
  OnnxGraph* graph_;
  std::vector<OnnxValue> outputs_;
};

// Writes a layer's operators; throws ExportRefusal.
using LayerExporter = void (*)(LayerExport* layer);

// The exporter of layer type `type`, or null when it has none.
LayerExporter FindLayerExporter(const std::string& type);

// The types that have an exporter, sorted.
std::vector<std::string> ExportableLayerTypes();

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_ONNX_LAYER_EXPORTERS_H_
