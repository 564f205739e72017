#include "train/onnx/onnx_export.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "param/edit_distance.h"
#include "train/net/checkpoint.h"
#include "train/onnx/layer_exporters.h"
#include "train/onnx/onnx_graph.h"

namespace umbra {
namespace train {
namespace {

// What a node is called in the graph: its config name, or for a
// `layer[+1]` node (no name) the name of the layer that writes it.
std::string DisplayName(const NetConfig& config, int node) {
  const NodeInfo& info = config.nodes[node];
  if (info.name.empty() || info.name[0] != '!') return info.name;
  return config.layers[info.producer].name;
}

// The names of `layer`'s outputs. A node written by several layers (in
// place) has a value per write: the last one carries the node's name, the
// earlier ones "<node>@<layer>".
std::vector<std::string> OutputNames(const NetConfig& config,
                                     const std::vector<int>& last_writer,
                                     const LayerDeclaration& layer,
                                     OnnxGraph* graph) {
  std::vector<std::string> names;
  for (int node : layer.outputs) {
    const std::string base = DisplayName(config, node);
    names.push_back(graph->NewName(last_writer[node] == layer.index
                                       ? base
                                       : absl::StrCat(base, "@", layer.name)));
  }
  return names;
}

}  // namespace

onnx::ModelProto ExportOnnx(Network* net, const std::string& graph_name) {
  onnx::ModelProto model;
  model.set_ir_version(kOnnxIrVersion);
  model.add_opset_import()->set_version(kOnnxOpset);
  model.set_producer_name("umbra");
  onnx::GraphProto* proto = model.mutable_graph();
  proto->set_name(graph_name);
  OnnxGraph graph(proto);

  const NetConfig& config = net->net_config();
  std::vector<int> last_writer(config.nodes.size(), -1);
  for (const LayerDeclaration& layer : config.layers) {
    for (int node : layer.outputs) last_writer[node] = layer.index;
  }
  // The inputs' names first, then the layers' outputs': the intermediate
  // values take what is left.
  std::vector<OnnxValue> held(config.nodes.size());
  for (size_t input = 0; input < net->num_inputs(); ++input) {
    // Data comes in 4-D; a matrix input is held as rows from the start.
    const OnnxValue data =
        graph.AddInput(DisplayName(config, static_cast<int>(input)),
                       net->NodeData(static_cast<int>(input)).shape_);
    held[input] = HeldAsRows(data.shape) ? graph.AsRows(data) : data;
  }
  std::vector<std::vector<std::string>> output_names(config.layers.size());
  for (const LayerDeclaration& layer : config.layers) {
    output_names[layer.index] = OutputNames(config, last_writer, layer, &graph);
  }
  for (const LayerDeclaration& declaration : config.layers) {
    layers::Layer<cpu, float>& layer = *net->layers()[declaration.index];
    const LayerExporter exporter = FindLayerExporter(layer.type());
    if (exporter == nullptr) {
      throw declaration.Error(absl::StrCat(
          "cannot be exported to ONNX: no ONNX form for layer type '",
          layer.type(), "'. ",
          param::NameList(layer.type(), ExportableLayerTypes(),
                          "Exportable types", "train/onnx/layer_exporters.h")));
    }
    std::vector<OnnxValue> inputs;
    for (int node : declaration.inputs) inputs.push_back(held[node]);
    LayerExport exported(&layer, inputs, output_names[declaration.index],
                         &graph);
    try {
      exporter(&exported);
    } catch (const ExportRefusal& refusal) {
      throw declaration.Error(
          absl::StrCat("cannot be exported to ONNX: ", refusal.what()));
    }
    for (size_t k = 0; k < declaration.outputs.size(); ++k) {
      held[declaration.outputs[k]] = exported.outputs()[k];
    }
  }
  graph.AddOutput(held[config.layers.back().outputs[0]]);
  return model;
}

void WriteOnnxModel(const onnx::ModelProto& model, const std::string& path) {
  std::string bytes;
  if (!model.SerializeToString(&bytes)) {
    throw FileWriteError(absl::StrCat(
        "cannot write the ONNX model to '", path,
        "': it does not serialize (over protobuf's 2 GiB message limit?)"));
  }
  ReplaceFile(path, bytes, "the ONNX model");
}

}  // namespace train
}  // namespace umbra
