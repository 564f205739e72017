#include "train/config/net_config.h"

#include <cstddef>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "train/config/config_error.h"

namespace umbra {
namespace train {
namespace {

constexpr absl::string_view kNodeNameForbidden = ",->[]:!";

[[noreturn]] void Fail(const ConfigEntry& entry, const std::string& detail) {
  throw entry.Error(absl::StrCat("'", entry.ToString(), "': ", detail));
}

void CheckNodeName(absl::string_view name, const ConfigEntry& entry) {
  if (name.empty()) {
    Fail(entry,
         "empty node name; expected layer[in->out] with node names "
         "separated by ','");
  }
  for (char c : name) {
    if (kNodeNameForbidden.find(c) != absl::string_view::npos) {
      Fail(entry, absl::StrCat("bad node name '", name,
                               "': a node name has none of , - > [ ] : !"));
    }
  }
}

// A layer name or share tag: a non-empty word without brackets or ':'.
bool IsValidLayerName(absl::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (c == '[' || c == ']' || c == ':' || c == ',') return false;
  }
  return true;
}

}  // namespace

std::string LayerDeclaration::Describe() const {
  return absl::StrCat("layer ", name, " (",
                      shared_with >= 0 ? declaration.value : type, ")");
}

int NetConfig::FindNode(absl::string_view name) const {
  if (name == kInputNodeAlias) return kInputNode;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int NetConfig::FindLayer(absl::string_view name) const {
  for (std::size_t i = 0; i < layers.size(); ++i) {
    if (layers[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::vector<std::string> NetConfig::NodeNames(
    const std::vector<int>& indices) const {
  std::vector<std::string> names;
  for (int index : indices) names.push_back(NodeName(index));
  return names;
}

std::vector<std::string> NetConfig::NamedNodes() const {
  std::vector<std::string> names;
  for (const NodeInfo& node : nodes) {
    if (node.name[0] != '!') names.push_back(node.name);
  }
  return names;
}

NetConfigBuilder::NetConfigBuilder() {
  net_.nodes.push_back(NodeInfo{std::string(kInputNodeName), -1});
  node_index_[std::string(kInputNodeName)] = kInputNode;
  node_index_[std::string(kInputNodeAlias)] = kInputNode;
}

void NetConfigBuilder::AddExtraInputs(int count, const ConfigEntry& entry) {
  for (int i = 1; i <= count; ++i) {
    const std::string name = absl::StrCat(kInputNodeName, "_", i);
    const auto found = node_index_.find(name);
    if (found != node_index_.end()) {
      if (net_.nodes[found->second].producer != -1) {
        Fail(entry, absl::StrCat("input node '", name,
                                 "' is already written by a layer"));
      }
      continue;
    }
    node_index_[name] = static_cast<int>(net_.nodes.size());
    net_.nodes.push_back(NodeInfo{name, -1});
  }
}

int NetConfigBuilder::InputNode(absl::string_view name,
                                const ConfigEntry& entry) const {
  const auto found = node_index_.find(name);
  if (found == node_index_.end()) {
    Fail(entry,
         absl::StrCat("undefined node '", name,
                      "': a layer reads only the input node 'in' (or '0') "
                      "and nodes written by layers declared before it"));
  }
  return found->second;
}

bool NetConfigBuilder::Feeds(int target, const std::vector<int>& inputs) const {
  std::vector<int> stack = inputs;
  std::set<int> seen;
  while (!stack.empty()) {
    const int node = stack.back();
    stack.pop_back();
    if (node == target) return true;
    if (!seen.insert(node).second) continue;
    const int producer = net_.nodes[node].producer;
    if (producer < 0) continue;
    for (int input : net_.layers[producer].inputs) {
      // In-place layers read what they write; skip the self loop.
      if (input != node) stack.push_back(input);
    }
  }
  return false;
}

int NetConfigBuilder::OutputNode(absl::string_view name,
                                 const LayerDeclaration& layer,
                                 const ConfigEntry& entry) {
  const auto found = node_index_.find(name);
  if (found == node_index_.end()) {
    const int index = static_cast<int>(net_.nodes.size());
    node_index_[std::string(name)] = index;
    net_.nodes.push_back(NodeInfo{std::string(name), layer.index});
    return index;
  }
  const int node = found->second;
  for (int input : layer.inputs) {
    if (input == node) return node;  // in place
  }
  const NodeInfo& info = net_.nodes[node];
  std::string writer =
      info.producer < 0
          ? std::string("it is an input of the network")
          : absl::StrCat(
                "it is already written by the layer at line ",
                net_.layers[info.producer].declaration.location.line, " ('",
                net_.layers[info.producer].declaration.ToString(), "')");
  if (info.producer >= 0 && Feeds(node, layer.inputs)) {
    Fail(entry, absl::StrCat("writing node '", name, "' would make a cycle: ",
                             writer, " and feeds this layer's input"));
  }
  Fail(entry, absl::StrCat("node '", name, "' is written twice: ", writer,
                           "; only a layer that reads a node may write it "
                           "again (in place, like layer[3->3])"));
}

void NetConfigBuilder::ParseConnections(absl::string_view spec,
                                        const ConfigEntry& entry,
                                        LayerDeclaration* layer) {
  if (absl::ConsumePrefix(&spec, "+")) {
    // layer[+1], layer[+1:name], layer[+0]
    absl::string_view node_name;
    const std::size_t colon = spec.find(':');
    if (colon != absl::string_view::npos) {
      node_name = spec.substr(colon + 1);
      spec = spec.substr(0, colon);
    }
    // cxxnet read any layer[+N], N > 0, as layer[+1].
    int step = 0;
    if (!absl::SimpleAtoi(spec, &step) || step < 0 ||
        spec.find_first_not_of("0123456789") != absl::string_view::npos) {
      Fail(entry, "expected layer[+1], layer[+1:node] or layer[+0]");
    }
    spec = step > 0 ? "1" : "0";
    if (spec == "0" && colon != absl::string_view::npos) {
      Fail(entry,
           "layer[+0] writes the last node in place and takes no node name; "
           "expected layer[+0] or layer[+1:node]");
    }
    if (last_node_ < 0) {
      const LayerDeclaration& multi = net_.layers[multi_output_layer_];
      Fail(entry, absl::StrCat("layer[+", spec,
                               "] reads the last node, but the layer "
                               "at line ",
                               multi.declaration.location.line, " ('",
                               multi.declaration.ToString(), "') writes ",
                               multi.outputs.size(),
                               " nodes; use layer[node->node] instead"));
    }
    layer->inputs.push_back(last_node_);
    if (spec == "0") {
      layer->outputs.push_back(last_node_);
    } else if (colon != absl::string_view::npos) {
      CheckNodeName(node_name, entry);
      layer->outputs.push_back(OutputNode(node_name, *layer, entry));
    } else {
      layer->outputs.push_back(OutputNode(
          absl::StrCat("!node-after-layer-", layer->index), *layer, entry));
    }
    return;
  }
  const std::size_t arrow = spec.find("->");
  if (arrow == absl::string_view::npos) {
    Fail(entry,
         "expected layer[in->out], layer[a,b->c], layer[+1], layer[+1:node] "
         "or layer[+0]");
  }
  const absl::string_view from = spec.substr(0, arrow);
  const absl::string_view to = spec.substr(arrow + 2);
  for (absl::string_view name : absl::StrSplit(from, ',')) {
    CheckNodeName(name, entry);
    layer->inputs.push_back(InputNode(name, entry));
  }
  for (absl::string_view name : absl::StrSplit(to, ',')) {
    CheckNodeName(name, entry);
    for (int earlier : layer->outputs) {
      if (net_.nodes[earlier].name == name ||
          (earlier == kInputNode && name == kInputNodeAlias)) {
        Fail(entry, absl::StrCat("node '", name, "' is written twice"));
      }
    }
    layer->outputs.push_back(OutputNode(name, *layer, entry));
  }
}

void NetConfigBuilder::ParseType(const ConfigEntry& entry,
                                 LayerDeclaration* layer) {
  absl::string_view value = entry.value;
  absl::string_view type = value;
  absl::string_view name;
  const std::size_t colon = value.find(':');
  if (colon != absl::string_view::npos) {
    type = value.substr(0, colon);
    name = value.substr(colon + 1);
  }
  if (type.empty()) {
    Fail(entry, "missing layer type; expected layer[...] = type or type:name");
  }
  if (absl::StartsWith(type, "share")) {
    absl::string_view tag = type.substr(5);
    if (!absl::ConsumePrefix(&tag, "[") || !absl::ConsumeSuffix(&tag, "]") ||
        !IsValidLayerName(tag)) {
      Fail(entry,
           "expected share[NAME], where NAME is an earlier layer's name");
    }
    const auto primary = explicit_names_.find(tag);
    if (primary == explicit_names_.end()) {
      Fail(entry, absl::StrCat("share[", tag, "]: no layer named '", tag,
                               "' is declared before this line"));
    }
    if (net_.layers[primary->second].shared_with >= 0) {
      Fail(entry, absl::StrCat("share[", tag, "]: '", tag,
                               "' is itself a share[...] layer"));
    }
    layer->type = "share";
    layer->shared_with = primary->second;
    // cxxnet ignored a name after share[NAME]; here it names the layer.
    if (colon != absl::string_view::npos) NameLayer(entry, name, layer);
    return;
  }
  for (char c : type) {
    if (c == '[' || c == ']' || c == ',') {
      Fail(entry, absl::StrCat("bad layer type '", type,
                               "'; expected a type like fullc or conv"));
    }
  }
  layer->type = std::string(type);
  if (colon != absl::string_view::npos) NameLayer(entry, name, layer);
}

void NetConfigBuilder::NameLayer(const ConfigEntry& entry,
                                 absl::string_view name,
                                 LayerDeclaration* layer) {
  if (!IsValidLayerName(name)) {
    Fail(entry, absl::StrCat("bad layer name '", name,
                             "'; expected type:name with a non-empty name "
                             "without [ ] : ,"));
  }
  const auto earlier = explicit_names_.find(name);
  if (earlier != explicit_names_.end()) {
    const ConfigEntry& first = net_.layers[earlier->second].declaration;
    Fail(entry, absl::StrCat("duplicate layer name '", name,
                             "': already used at line ", first.location.line,
                             " ('", first.ToString(), "')"));
  }
  layer->name = std::string(name);
}

void NetConfigBuilder::AddLayer(const ConfigEntry& entry) {
  absl::string_view spec = entry.key;
  if (!absl::ConsumePrefix(&spec, "layer[") ||
      !absl::ConsumeSuffix(&spec, "]")) {
    Fail(entry, "expected a key of the form layer[...]");
  }
  LayerDeclaration layer;
  layer.index = static_cast<int>(net_.layers.size());
  layer.declaration = entry;
  // The type first: a bad type or name is reported before node errors.
  ParseType(entry, &layer);
  ParseConnections(spec, entry, &layer);
  if (layer.type == "relu_max_pooling") SplitReluMaxPooling(&layer);
  if (layer.outputs.size() == 1) {
    last_node_ = layer.outputs[0];
  } else {
    last_node_ = -1;
    multi_output_layer_ = layer.index;
  }
  if (!layer.name.empty()) explicit_names_[layer.name] = layer.index;
  net_.layers.push_back(std::move(layer));
}

void NetConfigBuilder::SplitReluMaxPooling(LayerDeclaration* pooling) {
  if (pooling->inputs.size() != 1 || pooling->outputs.size() != 1 ||
      pooling->inputs[0] == pooling->outputs[0]) {
    Fail(pooling->declaration,
         "relu_max_pooling reads one node and writes another (layer[a->b]): "
         "its output is smaller than its input");
  }
  const int relu_index = pooling->index;
  const int rectified = static_cast<int>(net_.nodes.size());
  net_.nodes.push_back(
      NodeInfo{absl::StrCat("!relu-of-layer-", relu_index), relu_index});
  LayerDeclaration relu;
  relu.index = relu_index;
  relu.type = "relu";
  relu.declaration = pooling->declaration;
  relu.inputs = pooling->inputs;
  relu.outputs = {rectified};
  net_.layers.push_back(std::move(relu));
  pooling->type = "max_pooling";
  pooling->index = relu_index + 1;
  pooling->inputs = {rectified};
  net_.nodes[pooling->outputs[0]].producer = pooling->index;
}

void NetConfigBuilder::AddLayerSetting(const ConfigEntry& entry) {
  if (net_.layers.empty()) {
    throw entry.Error(absl::StrCat("'", entry.key,
                                   "' is a layer setting but no layer is "
                                   "declared yet"));
  }
  LayerDeclaration& layer = net_.layers.back();
  if (layer.shared_with >= 0) {
    const LayerDeclaration& primary = net_.layers[layer.shared_with];
    throw entry.Error(absl::StrCat(
        "key '", entry.key, "' set on a share[", primary.name, "] layer (line ",
        layer.declaration.location.line,
        "); a shared layer takes its settings from layer '", primary.name,
        "' (line ", primary.declaration.location.line, "): set it there"));
  }
  layer.settings.push_back(entry);
}

NetConfig NetConfigBuilder::Finish() && {
  for (LayerDeclaration& layer : net_.layers) {
    if (!layer.name.empty()) continue;
    std::string name = absl::StrCat(layer.type, "_", layer.index);
    while (explicit_names_.count(name) != 0) name += "_";
    layer.name = name;
    layer.auto_named = true;
    explicit_names_[name] = layer.index;
  }
  return std::move(net_);
}

}  // namespace train
}  // namespace umbra
