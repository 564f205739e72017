// The registry of layer types: each type registers itself once by name, in
// the .cc file that instantiates it (inside an alwayslink library, so the
// linker never drops it); the net builder creates layers by type name.
//
// Example:
//
//   // fullc_layer.cc
//   UMBRA_REGISTER_LAYER("fullc", FullConnectLayer);   // cpu, float + double
//   // layers/gpu/*.cu
//   UMBRA_REGISTER_LAYER_DEVICE(gpu, "fullc", FullConnectLayer);
//
//   // the net builder
//   std::unique_ptr<Layer<cpu, float>> fc =
//       CreateLayer<cpu, float>("fullc", "fc1", {{"nhidden", "500"}});
//
//   // the config checker and the docs
//   for (const std::string& type : ListLayerTypes()) { ... }
//   ListDeviceLayerTypes<gpu, float>();   // the types built for the gpu
//   LayerTypeAcceptsKey(GetLayerTypeInfo("fullc"), "wmat:lr");   // true
//
// A type the registry does not know is a LayerError that suggests the closest
// known type and lists them all.
#ifndef UMBRA_LAYERS_LAYER_REGISTRY_H_
#define UMBRA_LAYERS_LAYER_REGISTRY_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "layers/layer.h"
#include "layers/layer_type_info.h"

namespace umbra {
namespace layers {

// The registered type names, sorted.
std::vector<std::string> ListLayerTypes();

// The type's entry. Throws LayerError "unknown layer type 'fulc'; did you
// mean 'fullc'? Known types: ..." when there is none.
const LayerTypeInfo& GetLayerTypeInfo(absl::string_view type);

// The Markdown reference of one type: its description and a table of the
// keys of each of its parameter structs.
std::string LayerTypeMarkdown(absl::string_view type);

namespace internal {

template <typename xpu, typename DType>
using LayerCreator = std::unique_ptr<Layer<xpu, DType>> (*)();

// The creators of one (device, precision), by type name.
template <typename xpu, typename DType>
std::map<std::string, LayerCreator<xpu, DType>>& LayerCreators() {
  static auto* creators = new std::map<std::string, LayerCreator<xpu, DType>>;
  return *creators;
}

// Adds `info` under info.type; a second registration of a type aborts the
// program with a message (a build mistake, found at start-up).
void RegisterLayerTypeInfo(LayerTypeInfo info);

// Aborts with a message when `type` already has a creator for `device`.
void CheckNewCreator(bool exists, const std::string& type, const char* device);

template <typename xpu, typename DType, template <typename, typename> class L>
std::unique_ptr<Layer<xpu, DType>> NewLayer() {
  return std::unique_ptr<Layer<xpu, DType>>(new L<xpu, DType>());
}

// Registers the float and double creators of L on `xpu`.
template <typename xpu, template <typename, typename> class L>
bool RegisterLayerDevice(const char* type, const char* device) {
  CheckNewCreator(LayerCreators<xpu, float>().count(type) != 0, type, device);
  LayerCreators<xpu, float>()[type] = &NewLayer<xpu, float, L>;
  LayerCreators<xpu, double>()[type] = &NewLayer<xpu, double, L>;
  return true;
}

// Registers the type (L<cpu, float>::Describe() tells its structs, tags
// and whether it is a loss) and its cpu creators.
template <template <typename, typename> class L>
bool RegisterLayer(const char* type) {
  LayerTypeInfo info = L<cpu, float>::Describe();
  info.type = type;
  RegisterLayerTypeInfo(info);
  return RegisterLayerDevice<cpu, L>(type, "cpu");
}

}  // namespace internal

// The type names with an implementation for (xpu, DType), sorted: every
// registered type on the cpu; on the gpu, those a --config=cuda build links
// (//layers/gpu).
template <typename xpu, typename DType>
std::vector<std::string> ListDeviceLayerTypes() {
  std::vector<std::string> names;
  for (const auto& entry : internal::LayerCreators<xpu, DType>()) {
    names.push_back(entry.first);
  }
  return names;
}

// A new layer of `type` named `name` (weights are named "<name>.<tag>"),
// configured from `kwargs`. Throws LayerError for an unknown type, a type
// not built for this device, or a bad key or value.
template <typename xpu, typename DType>
std::unique_ptr<Layer<xpu, DType>> CreateLayer(absl::string_view type,
                                               const std::string& name,
                                               const ParamKwargs& kwargs) {
  const LayerTypeInfo& info = GetLayerTypeInfo(type);
  const auto& creators = internal::LayerCreators<xpu, DType>();
  auto it = creators.find(info.type);
  if (it == creators.end()) {
    throw LayerError(LayerLabel(name, info.type) +
                     ": this build has no implementation of the type for " +
                     (xpu::kDevCPU ? "the cpu" : "the gpu") +
                     " (GPU layers need --config=cuda)");
  }
  std::unique_ptr<Layer<xpu, DType>> layer = it->second();
  layer->Configure(info, name, kwargs);
  return layer;
}

}  // namespace layers
}  // namespace umbra

#define UMBRA_LAYERS_CONCAT_INNER_(a, b) a##b
#define UMBRA_LAYERS_CONCAT_(a, b) UMBRA_LAYERS_CONCAT_INNER_(a, b)

// Registers the layer class template `LayerClass<xpu, DType>` as `type` for
// the cpu (float and double), at namespace scope in one .cc file of an
// alwayslink library. LayerClass must have a static `LayerTypeInfo
// Describe()`.
#define UMBRA_REGISTER_LAYER(type, LayerClass)             \
  [[maybe_unused]] static const bool UMBRA_LAYERS_CONCAT_( \
      umbra_layer_registered_, __COUNTER__) =              \
      ::umbra::layers::internal::RegisterLayer<LayerClass>(type)

// Registers the `device` (gpu) creators of a type registered with
// UMBRA_REGISTER_LAYER, from the .cu file that instantiates them.
#define UMBRA_REGISTER_LAYER_DEVICE(device, type, LayerClass)          \
  [[maybe_unused]] static const bool UMBRA_LAYERS_CONCAT_(             \
      umbra_layer_registered_, __COUNTER__) =                          \
      ::umbra::layers::internal::RegisterLayerDevice<::umbra::device,  \
                                                     LayerClass>(type, \
                                                                 #device)

#endif  // UMBRA_LAYERS_LAYER_REGISTRY_H_
