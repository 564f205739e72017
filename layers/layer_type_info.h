// LayerTypeInfo: what the registry knows about a layer type - its parameter
// structs, its weight tags, whether it is a loss - and the key rules built on
// it: which `key` and `tag:key` a layer of the type accepts.
//
// Example:
//
//   const LayerTypeInfo& fullc = GetLayerTypeInfo("fullc");  // registry
//   LayerTypeAcceptsKey(fullc, "nhidden");         // true
//   LayerTypeAcceptsKey(fullc, "wmat:init_sigma"); // true
//   LayerTypeAcceptsKey(fullc, "num_round");       // false: a trainer key
#ifndef UMBRA_LAYERS_LAYER_TYPE_INFO_H_
#define UMBRA_LAYERS_LAYER_TYPE_INFO_H_

#include <string>
#include <vector>

#include "param/param.h"

namespace umbra {
namespace layers {

struct LayerTypeInfo {
  // The name configs use: "fullc".
  std::string type;
  // One line for the reference.
  std::string description;
  // Every parameter struct whose keys the type accepts, its own first
  // (then WeightParam for weighted layers, LossParam for losses).
  std::vector<const param::ParamManager*> params;
  // The weight tags a `tag:key` prefix may name; empty for no weights.
  std::vector<std::string> weight_tags;
  // Whether it is a loss (takes labels, reports Loss()).
  bool is_loss = false;
};

// Every key a layer of the type accepts, sorted: the plain keys of its
// structs (aliases included), then "<tag>:<key>" for every weight tag and
// WeightParam key.
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
