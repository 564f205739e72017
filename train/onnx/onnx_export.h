// ExportOnnx: a net with its weights as an ONNX model (onnx.proto's
// ModelProto, IR version 7, opset 13) that computes what the net's
// Forward(is_train = false) computes, as `task = pred` runs it: every layer
// in its inference form (layer_exporters.h), the weights and batch_norm's
// moving averages as initializers.
//
// The graph's inputs are the net's input nodes, named as the config names
// them (`in`, then `in_1` ... for extra_data_num), each (batch, channel,
// height, width) with a free batch dimension. Its output is the last
// layer's output node (the softmax probabilities of a classifier), named
// after that node (after the layer, for a `layer[+1]` node), as
// (batch, n) for a matrix node (batch, 1, 1, n), else (batch, c, h, w).
//
// Example:
//
//   onnx::ModelProto model = ExportOnnx(&net, "fashion_mnist_mlp");
//   WriteOnnxModel(model, "mlp.onnx");
#ifndef UMBRA_TRAIN_ONNX_ONNX_EXPORT_H_
#define UMBRA_TRAIN_ONNX_ONNX_EXPORT_H_

#include <string>

#include "onnx/onnx.pb.h"
#include "train/net/network.h"

namespace umbra {
namespace train {

// The operator set the exporter writes, and the IR version that goes with
// it.
inline constexpr int kOnnxOpset = 13;
inline constexpr int kOnnxIrVersion = 7;

// The model of `net` (its weights as they are now), its graph named
// `graph_name`. Throws ConfigError at the line of a layer that has no
// faithful ONNX form, saying why.
onnx::ModelProto ExportOnnx(Network* net, const std::string& graph_name);

// Writes `model` to `path`, replacing a file there only once the new one is
// complete on disk (ReplaceFile). Throws FileWriteError naming the path.
void WriteOnnxModel(const onnx::ModelProto& model, const std::string& path);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_ONNX_ONNX_EXPORT_H_
