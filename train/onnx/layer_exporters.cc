#include "train/onnx/layer_exporters.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "layers/activation_layers.h"
#include "layers/batch_norm_layer.h"
#include "layers/conv_layer.h"
#include "layers/eltwise_layers.h"
#include "layers/fixconn_layer.h"
#include "layers/insanity_pooling_layer.h"
#include "layers/leaky_relu_layers.h"
#include "layers/lrn_layer.h"
#include "layers/pooling_layers.h"

namespace umbra {
namespace train {

LayerExport::LayerExport(layers::Layer<cpu, float>* layer,
                         std::vector<OnnxValue> inputs,
                         std::vector<std::string> output_names,
                         OnnxGraph* graph)
    : layer_(layer),
      inputs_(std::move(inputs)),
      output_names_(std::move(output_names)),
      graph_(graph),
      outputs_(output_names_.size()) {}

std::string LayerExport::Weight(const std::string& tag,
                                const std::vector<int64_t>& dims) {
  for (const layers::WeightRef<cpu, float>& weight : layer_->Weights()) {
    if (weight.tag == tag) {
      return graph_->AddWeight(weight.name, dims, weight.data.dptr_);
    }
  }
  for (const layers::StateRef<cpu, float>& state : layer_->States()) {
    if (state.tag == tag) {
      return graph_->AddWeight(state.name, dims, state.data.dptr_);
    }
  }
  // Reached only if a layer type changed its tags without its exporter.
  throw ExportRefusal(absl::StrCat("it has no weight '", tag,
                                   "', which the exporter of its type reads"));
}

std::vector<int64_t> LayerExport::ChannelDims(const OnnxValue& value) {
  if (value.rows) return {value.shape.Size() / value.shape[0]};
  return {value.shape[1], 1, 1};
}

onnx::NodeProto* LayerExport::Output(size_t index, const std::string& op,
                                     const std::vector<std::string>& inputs,
                                     bool rows) {
  const std::string& name = output_names_[index];
  const Shape<4>& shape = layer_->out_shapes()[index];
  const bool direct = rows == HeldAsRows(shape);
  OnnxValue result{direct ? name : graph_->NewName(name + "_raw"), shape, rows};
  onnx::NodeProto* node = graph_->AddNode(op, inputs, result.name);
  outputs_[index] = direct ? result : graph_->HeldAsShape(result, name);
  return node;
}

onnx::NodeProto* LayerExport::SameShapeOutput(
    const std::string& op, const std::vector<std::string>& extra) {
  std::vector<std::string> inputs = {input(0).name};
  inputs.insert(inputs.end(), extra.begin(), extra.end());
  return Output(0, op, inputs, input(0).rows);
}

namespace {

// The layer as its class `Type` on the cpu, in float (what the net
// builder made for its type name).
template <template <typename, typename> class Type>
const Type<cpu, float>& As(const LayerExport& layer) {
  return dynamic_cast<const Type<cpu, float>&>(layer.layer());
}

template <const char* kOp>
void ExportElementwise(LayerExport* layer) {
  layer->SameShapeOutput(kOp);
}
constexpr char kRelu[] = "Relu";
constexpr char kSigmoid[] = "Sigmoid";
constexpr char kTanh[] = "Tanh";
constexpr char kSoftplus[] = "Softplus";
constexpr char kIdentity[] = "Identity";

void ExportLeakyRelu(LayerExport* layer, float slope) {
  SetAttribute(layer->SameShapeOutput("LeakyRelu"), "alpha", slope);
}

void ExportXelu(LayerExport* layer) {
  ExportLeakyRelu(layer, 1.0f / As<layers::XeluLayer>(*layer).param().b);
}

// At test time rrelu divides by the mean of U(lb, ub).
void ExportRRelu(LayerExport* layer) {
  const layers::RReluParam& param = As<layers::RReluLayer>(*layer).param();
  ExportLeakyRelu(layer, 2.0f / (param.lb + param.ub));
}

void ExportPRelu(LayerExport* layer) {
  layer->SameShapeOutput(
      "PRelu",
      {layer->Weight("slope", LayerExport::ChannelDims(layer->input(0)))});
}

void ExportBias(LayerExport* layer) {
  layer->SameShapeOutput(
      "Add",
      {layer->Weight("bias", LayerExport::ChannelDims(layer->input(0)))});
}

// Channels are axis 1 both of rows (batch, n) and of 4-D values, as
// BatchNormalization wants.
void ExportBatchNorm(LayerExport* layer) {
  if (As<layers::BatchNormLayer>(*layer).param().use_batch_stats) {
    throw ExportRefusal(
        "use_batch_stats = 1 normalises with each batch's own statistics, "
        "which ONNX's BatchNormalization does not do at inference");
  }
  const int64_t channels = LayerExport::ChannelDims(layer->input(0))[0];
  onnx::NodeProto* node = layer->SameShapeOutput(
      "BatchNormalization",
      {layer->Weight("gamma", {channels}), layer->Weight("beta", {channels}),
       layer->Weight("moving_mean", {channels}),
       layer->Weight("moving_var", {channels})});
  SetAttribute(node, "epsilon", As<layers::BatchNormLayer>(*layer).param().eps);
}

void ExportFullc(LayerExport* layer) {
  const OnnxValue rows = layer->graph().AsRows(layer->input(0));
  const int64_t nhidden = layer->layer().out_shapes()[0][3];
  std::vector<std::string> inputs = {
      rows.name, layer->Weight("wmat", {nhidden, rows.shape[3]})};
  const std::vector<std::pair<std::string, TShape>> tags =
      layer->layer().WeightShapes();
  if (std::any_of(tags.begin(), tags.end(),
                  [](const auto& tag) { return tag.first == "bias"; })) {
    inputs.push_back(layer->Weight("bias", {nhidden}));
  }
  SetAttribute(layer->Output(0, "Gemm", inputs, true), "transB", int64_t{1});
}

// fixconn's matrix is no weight of the layer: an initializer of its own.
void ExportFixConn(LayerExport* layer) {
  const OnnxValue rows = layer->graph().AsRows(layer->input(0));
  const int64_t nhidden = layer->layer().out_shapes()[0][3];
  const std::string matrix = layer->graph().AddWeight(
      layer->layer().name() + ".fixconn_weight", {nhidden, rows.shape[3]},
      As<layers::FixConnLayer>(*layer).weights().data());
  SetAttribute(layer->Output(0, "Gemm", {rows.name, matrix}, true), "transB",
               int64_t{1});
}

void ExportConv(LayerExport* layer) {
  const auto& conv = As<layers::ConvolutionBase>(*layer);
  const layers::ConvGeometry& g = conv.geometry();
  const int64_t groups = conv.param().ngroup;
  const OnnxValue image = layer->graph().As4D(layer->input(0));
  std::vector<std::string> inputs = {
      image.name,
      layer->Weight("wmat", {conv.param().nchannel, g.channels / groups,
                             g.kernel_y, g.kernel_x})};
  if (!conv.param().no_bias) {
    inputs.push_back(layer->Weight("bias", {conv.param().nchannel}));
  }
  onnx::NodeProto* node = layer->Output(0, "Conv", inputs, false);
  SetAttribute(node, "kernel_shape",
               std::vector<int64_t>{g.kernel_y, g.kernel_x});
  SetAttribute(node, "strides", std::vector<int64_t>{g.stride_y, g.stride_x});
  SetAttribute(node, "pads",
               std::vector<int64_t>{g.pad_y, g.pad_x, g.pad_y, g.pad_x});
  SetAttribute(node, "dilations", std::vector<int64_t>{g.dilate_y, g.dilate_x});
  SetAttribute(node, "group", groups);
}

// The padding after the input that makes the last of `out` windows of
// `kernel` at `stride`, starting at -pad, end inside it: umbra pools in
// cxxnet's ceil mode, ONNX's explicit pads reproduce it exactly (ceil_mode
// would not: it divides clipped windows by their in-bounds size).
int64_t EndPad(index_t in, index_t out, index_t kernel, index_t stride,
               index_t pad) {
  return std::max<int64_t>(0, (out - 1) * stride + kernel - in - pad);
}

template <typename Pooling>
void ExportPooling(LayerExport* layer) {
  const auto& pool =
      dynamic_cast<const layers::PoolingBase<cpu, float, Pooling>&>(
          layer->layer());
  const OnnxValue image = layer->graph().As4D(layer->input(0));
  const bool max = Pooling::kKind == layers::PoolKind::kMax;
  const layers::PoolWindow& w = pool.window();
  // Sum pooling is the average over the whole window times its area.
  const bool sum = Pooling::kKind == layers::PoolKind::kSum;
  const std::string op = pool.param().global_pool
                             ? (max ? "GlobalMaxPool" : "GlobalAveragePool")
                             : (max ? "MaxPool" : "AveragePool");
  const std::string pooled =
      sum ? layer->graph().NewName(image.name + "_pooled") : "";
  onnx::NodeProto* node = sum ? layer->graph().AddNode(op, {image.name}, pooled)
                              : layer->Output(0, op, {image.name}, false);
  if (!pool.param().global_pool) {
    const Shape<4>& in = image.shape;
    const Shape<4>& out = layer->layer().out_shapes()[0];
    SetAttribute(node, "kernel_shape",
                 std::vector<int64_t>{w.kernel_y, w.kernel_x});
    SetAttribute(node, "strides", std::vector<int64_t>{w.stride_y, w.stride_x});
    SetAttribute(node, "pads",
                 std::vector<int64_t>{
                     w.pad_y, w.pad_x,
                     EndPad(in[2], out[2], w.kernel_y, w.stride_y, w.pad_y),
                     EndPad(in[3], out[3], w.kernel_x, w.stride_x, w.pad_x)});
    if (!max) SetAttribute(node, "count_include_pad", int64_t{1});
  }
  if (sum) {
    const float area = static_cast<float>(w.kernel_y * w.kernel_x);
    layer->Output(
        0, "Mul",
        {pooled, layer->graph().AddConstant("window_area", {}, {area})}, false);
  }
}

void ExportLrn(LayerExport* layer) {
  const layers::LrnParam& param = As<layers::LrnLayer>(*layer).param();
  const OnnxValue image = layer->graph().As4D(layer->input(0));
  onnx::NodeProto* node = layer->Output(0, "LRN", {image.name}, false);
  SetAttribute(node, "size", int64_t{param.local_size});
  SetAttribute(node, "alpha", param.alpha);
  SetAttribute(node, "beta", param.beta);
  SetAttribute(node, "bias", param.knorm);
}

void ExportFlatten(LayerExport* layer) {
  if (layer->input(0).rows) {
    layer->Output(0, "Identity", {layer->input(0).name}, true);
  } else {
    SetAttribute(layer->Output(0, "Flatten", {layer->input(0).name}, true),
                 "axis", int64_t{1});
  }
}

// The names of the layer's inputs as held. Inputs of one shape are held
// alike, and so are those of a width concat (they share batch, channel and
// height).
std::vector<std::string> InputNames(const LayerExport& layer) {
  std::vector<std::string> names;
  for (const OnnxValue& input : layer.inputs()) names.push_back(input.name);
  return names;
}

// The width is the last axis of either layout.
void ExportConcat(LayerExport* layer) {
  SetAttribute(
      layer->Output(0, "Concat", InputNames(*layer), layer->input(0).rows),
      "axis", int64_t{-1});
}

void ExportChannelConcat(LayerExport* layer) {
  std::vector<std::string> names;
  for (const OnnxValue& input : layer->inputs()) {
    names.push_back(layer->graph().As4D(input).name);
  }
  SetAttribute(layer->Output(0, "Concat", names, false), "axis", int64_t{1});
}

void ExportSplit(LayerExport* layer) {
  for (size_t i = 0; i < layer->layer().out_shapes().size(); ++i) {
    layer->Output(i, "Identity", {layer->input(0).name}, layer->input(0).rows);
  }
}

void ExportEltwiseSum(LayerExport* layer) {
  const std::vector<float>& coeff =
      dynamic_cast<
          const layers::EltwiseLayer<cpu, float, layers::EltwiseOp::kSum>&>(
          layer->layer())
          .param()
          .coeff;
  std::vector<std::string> terms = InputNames(*layer);
  for (size_t i = 0; i < coeff.size(); ++i) {
    if (coeff[i] == 1.0f) continue;
    const std::string scaled = layer->graph().NewName(terms[i] + "_scaled");
    layer->graph().AddNode(
        "Mul", {terms[i], layer->graph().AddConstant("coeff", {}, {coeff[i]})},
        scaled);
    terms[i] = scaled;
  }
  layer->Output(0, "Sum", terms, layer->input(0).rows);
}

void ExportEltwiseProd(LayerExport* layer) {
  const std::vector<std::string> factors = InputNames(*layer);
  std::string product = factors[0];
  for (size_t i = 1; i + 1 < factors.size(); ++i) {
    const std::string next = layer->graph().NewName(product + "_prod");
    layer->graph().AddNode("Mul", {product, factors[i]}, next);
    product = next;
  }
  layer->Output(0, "Mul", {product, factors.back()}, layer->input(0).rows);
}

void ExportEltwiseMax(LayerExport* layer) {
  layer->Output(0, "Max", InputNames(*layer), layer->input(0).rows);
}

// Over each row (softmax takes matrix inputs).
void ExportSoftmax(LayerExport* layer) {
  const OnnxValue rows = layer->graph().AsRows(layer->input(0));
  SetAttribute(layer->Output(0, "Softmax", {rows.name}, true), "axis",
               int64_t{1});
}

const std::map<std::string, LayerExporter>& Exporters() {
  static const auto* exporters = new std::map<std::string, LayerExporter>{
      {"avg_pooling", ExportPooling<layers::AvgPooling>},
      {"batch_norm", ExportBatchNorm},
      {"bias", ExportBias},
      {"ch_concat", ExportChannelConcat},
      {"concat", ExportConcat},
      {"conv", ExportConv},
      {"dropout", ExportElementwise<kIdentity>},
      {"elementwise_sum", ExportEltwiseSum},
      {"eltwise_max", ExportEltwiseMax},
      {"eltwise_prod", ExportEltwiseProd},
      {"eltwise_sum", ExportEltwiseSum},
      {"fixconn", ExportFixConn},
      {"flatten", ExportFlatten},
      {"fullc", ExportFullc},
      // Max pooling at inference: the displacement is training's only.
      {"insanity_max_pooling", ExportPooling<layers::InsanityMaxPooling>},
      {"l2_loss", ExportElementwise<kIdentity>},
      {"lp_loss", ExportElementwise<kIdentity>},
      {"lrn", ExportLrn},
      {"max_pooling", ExportPooling<layers::MaxPooling>},
      {"multi_logistic", ExportElementwise<kSigmoid>},
      {"prelu", ExportPRelu},
      {"relu", ExportElementwise<kRelu>},
      {"rrelu", ExportRRelu},
      {"sigmoid", ExportElementwise<kSigmoid>},
      {"softmax", ExportSoftmax},
      {"softplus", ExportElementwise<kSoftplus>},
      {"split", ExportSplit},
      {"sum_pooling", ExportPooling<layers::SumPooling>},
      {"tanh", ExportElementwise<kTanh>},
      {"xelu", ExportXelu},
  };
  return *exporters;
}

}  // namespace

LayerExporter FindLayerExporter(const std::string& type) {
  auto found = Exporters().find(type);
  return found == Exporters().end() ? nullptr : found->second;
}

std::vector<std::string> ExportableLayerTypes() {
  std::vector<std::string> types;
  for (const auto& entry : Exporters()) types.push_back(entry.first);
  return types;
}

}  // namespace train
}  // namespace umbra
