// LayerTypeInfo: what the registry knows about a layer type - its parameter
// structs, its weight tags, whether it is a loss - and the key rules built on
// it: which `key` and `tag:key` a layer of the type accepts.
//
// Example:
//
//   const LayerTypeInfo& fullc = LayerRegistry::Get("fullc");
//   LayerTypeAcceptsKey(fullc, "nhidden");         // true
//   LayerTypeAcceptsKey(fullc, "wmat:init_sigma"); // true
//   LayerTypeAcceptsKey(fullc, "num_round");       // false: a trainer key
//   const LayerTypeInfo& prelu = LayerRegistry::Get("prelu");
//   CanonicalWeightTag(prelu, "bias");             // "slope": cxxnet's name
//   WeightTagNames(prelu);                         // "slope (also bias)"
#ifndef UMBRA_LAYERS_LAYER_TYPE_INFO_H_
#define UMBRA_LAYERS_LAYER_TYPE_INFO_H_

#include <string>
#include <utility>
#include <vector>

#include "layers/layer_error.h"
#include "param/param.h"

namespace umbra {
namespace layers {

// A layer type's entry in the registry (layer_registry.h): filled in by the
// type's static Describe(), its name set by the registration.
struct LayerTypeInfo {
  // What TypeRegistry needs to name the kind in messages.
  static constexpr char kKind[] = "layer type";
  static constexpr char kKnownAs[] = "types";
  static constexpr char kLibrary[] = "//layers";
  using Error = LayerError;

  // The name configs use: "fullc".
  std::string type;
  // One line for the reference.
  std::string description;
  // Every parameter struct whose keys the type accepts, its own first
  // (then WeightParam for weighted layers, LossParam for losses).
  std::vector<const param::ParamManager*> params;
  // The weight tags a `tag:key` prefix may name; empty for no weights.
  // These are the canonical names: checkpoints call a weight "<layer>.<tag>".
  std::vector<std::string> weight_tags;
  // Other names for weight tags, {alias, tag}: the tag names cxxnet's layer
  // gave the weight, so that its configs' `bias:wd = 0` reaches it. A
  // setting under an alias is the same setting as under the tag (the later
  // of the two wins); weights keep their canonical names.
  std::vector<std::pair<std::string, std::string>> weight_tag_aliases;
  // Whether it is a loss (takes labels, reports Loss()).
  bool is_loss = false;

  // What is wrong with the entry ("" when nothing): each weight-tag alias
  // must name one of the weight tags, be none of them and be declared once.
  std::string Problem() const;
};

// The weight tag that `tag` names: `tag` itself when it is one of
// info.weight_tags, the tag it stands for when it is an alias, and "" when
// the type has no such tag.
std::string CanonicalWeightTag(const LayerTypeInfo& info,
                               const std::string& tag);

// The weight tags for messages and the reference, each with its aliases:
// "gamma (also wmat), beta (also bias)"; "" for a type without weights.
std::string WeightTagNames(const LayerTypeInfo& info);

// Every key a layer of the type accepts, sorted: the plain keys of its
// structs (aliases included), then "<tag>:<key>" for every weight tag, and
// every alias of a weight tag, and every WeightParam key.
std::vector<std::string> LayerTypeKeys(const LayerTypeInfo& info);

// Whether a layer of the type accepts `key` (plain or `tag:key`). The
// trainer passes a global key to a layer as a default only when this holds.
bool LayerTypeAcceptsKey(const LayerTypeInfo& info, const std::string& key);

// Why the type refuses `key`, with the closest accepted key and the list:
// "unknown key 'nhiden'; did you mean 'nhidden'? Valid keys: ...", or for a
// prefixed key the valid tags or weight settings. Empty when it accepts it.
std::string LayerKeyError(const LayerTypeInfo& info, const std::string& key);

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_LAYER_TYPE_INFO_H_
