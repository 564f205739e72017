// NetConfig: the network a `netconfig = start` ... `netconfig = end` block
// describes: its nodes, and its layers in order with their settings.
//
// Layer lines (cxxnet's syntax):
//   layer[a->b] = type:name   reads node a, writes node b; name is optional
//   layer[a,b->c] = concat    several inputs; `layer[a->b,c] = split` several
//                             outputs
//   layer[+1] = type          reads the last written node, writes a new one
//   layer[+1:name] = type     the same, and names the new node
//   layer[+0] = type          reads and writes the last node (in place)
//   layer[a->b] = share[fc1]  a layer that shares the weights of the earlier
//                             layer named fc1; it takes no settings
// Node `in` (also written `0`) is the input; `extra_data_num = N` before the
// network adds inputs `in_1` ... `in_N`. Node names are any words without
// `,` `-` `>` `[` `]` `:` `!`; numbers are just names.
//
// Strict rules: a layer reads only nodes already written (no use before
// definition, so no cycles); a node is written by one layer, except that a
// layer may write back a node it reads (in place, like `layer[3->3]`); layer
// names are unique; `+1`/`+0` need a single last node; any other layer[...]
// form is an error. Layers without a name get `<type>_<index>` (with `_`
// appended until it is unique); `auto_named` tells them apart.
//
// Example:
//
//   NetConfigBuilder builder;
//   builder.AddLayer(entry);          // layer[+1] = fullc:fc1
//   builder.AddLayerSetting(entry2);  // nhidden = 100
//   NetConfig net = std::move(builder).Finish();
//   net.layers[0].name;             // "fc1"
//   net.NodeName(net.layers[0].outputs[0]);
#ifndef UMBRA_TRAIN_CONFIG_NET_CONFIG_H_
#define UMBRA_TRAIN_CONFIG_NET_CONFIG_H_

#include <map>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "train/config/config_lexer.h"

namespace umbra {
namespace train {

// The input node's index and names.
inline constexpr int kInputNode = 0;
inline constexpr absl::string_view kInputNodeName = "in";
inline constexpr absl::string_view kInputNodeAlias = "0";

// One node: a tensor written by the input or by a layer.
struct NodeInfo {
  // As written in the config, or "!node-after-layer-<index>" for the node a
  // `layer[+1]` line makes (no config can name a node with '!').
  std::string name;
  // The layer that first writes it; -1 for an input node.
  int producer = -1;
};

// One `layer[...] = ...` line and its settings.
struct LayerDeclaration {
  // Position in the network (0-based).
  int index = 0;
  // The layer type, e.g. "fullc"; "share" for a weight-sharing layer.
  std::string type;
  // The name after ':' or the automatic one.
  std::string name;
  bool auto_named = false;
  // Node indices into NetConfig::nodes.
  std::vector<int> inputs;
  std::vector<int> outputs;
  // For `share[tag]`: the index of the layer whose weights it uses; else -1.
  int shared_with = -1;
  // The layer line itself.
  ConfigEntry declaration;
  // The settings written after the layer line, in order (repeated keys kept;
  // the last wins). Keys keep their `wmat:` / `bias:` prefixes.
  std::vector<ConfigEntry> settings;
  // The updater keys written after the layer line (`lr:step`,
  // `wmat:lr:schedule`, `beta1`, `bias:momentum_schedule`): its weights'
  // own, as cxxnet's per-weight updaters read them (moved out of `settings`
  // by SeparateUpdaterSettings).
  std::vector<ConfigEntry> updater_settings;

  // "layer fc1 (fullc)" or "layer share_2 (share[fc1])", as messages name
  // it.
  std::string Describe() const;
  // The ConfigError "<file:line>: <Describe()>: <detail>" at the layer line:
  // how every check of a layer's place in the net reports.
  ConfigError Error(const std::string& detail) const {
    return declaration.Error(Describe() + ": " + detail);
  }
};

struct NetConfig {
  std::vector<NodeInfo> nodes;
  std::vector<LayerDeclaration> layers;

  // The index of the node called `name` ("0" finds `in`), or -1.
  int FindNode(absl::string_view name) const;
  // The index of the layer called `name`, or -1.
  int FindLayer(absl::string_view name) const;
  const std::string& NodeName(int node) const { return nodes.at(node).name; }
  // Names of the given nodes.
  std::vector<std::string> NodeNames(const std::vector<int>& indices) const;
  // The names a config can use, in node order (those of plain layer[+1]
  // nodes, which start with '!', left out).
  std::vector<std::string> NamedNodes() const;
};

// Builds a NetConfig from layer lines and settings in config order. Every
// method throws ConfigError at the offending entry.
class NetConfigBuilder {
 public:
  NetConfigBuilder();

  // Adds the input nodes in_1 ... in_<count> (cxxnet's extra_data_num).
  void AddExtraInputs(int count, const ConfigEntry& entry);
  // Adds a layer from `entry` (key "layer[...]", value "type[:name]").
  void AddLayer(const ConfigEntry& entry);
  // Adds a setting to the last layer added.
  void AddLayerSetting(const ConfigEntry& entry);
  bool has_layers() const { return !net_.layers.empty(); }

  // Names the unnamed layers and returns the network.
  NetConfig Finish() &&;

 private:
  // Node index for an input; throws when it is not written yet.
  int InputNode(absl::string_view name, const ConfigEntry& entry) const;
  // Node index for an output of `layer`, adding the node when new.
  int OutputNode(absl::string_view name, const LayerDeclaration& layer,
                 const ConfigEntry& entry);
  // True when node `target` feeds (transitively) any of `inputs`.
  bool Feeds(int target, const std::vector<int>& inputs) const;
  void ParseConnections(absl::string_view spec, const ConfigEntry& entry,
                        LayerDeclaration* layer);
  void ParseType(const ConfigEntry& entry, LayerDeclaration* layer);
  // Gives `layer` the name written after its type; fails for a bad or
  // duplicate name.
  void NameLayer(const ConfigEntry& entry, absl::string_view name,
                 LayerDeclaration* layer);
  // cxxnet's relu_max_pooling, one layer there: adds a relu from the
  // layer's inputs into a node of its own, and makes `pooling` the
  // max_pooling of that node, the next layer.
  void SplitReluMaxPooling(LayerDeclaration* pooling);

  NetConfig net_;
  std::map<std::string, int, std::less<>> node_index_;
  std::map<std::string, int, std::less<>> explicit_names_;
  // The node `layer[+1]` reads; -1 after a layer with several outputs.
  int last_node_ = kInputNode;
  // The layer that made last_node_ unusable (for messages); -1 if none.
  int multi_output_layer_ = -1;
};

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_CONFIG_NET_CONFIG_H_
