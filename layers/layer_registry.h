// The registry of layer types (a TypeRegistry, param/type_registry.h): each
// type registers itself once by name, in the .cc file that instantiates it
// (inside an alwayslink library, so the linker never drops it); the net
// builder creates layers by type name.
//
// Adding a layer type touches:
//   1. layers/<name>_layer.{h,cc}: the class template Layer<xpu, DType>
//      subclass with a static `LayerTypeInfo Describe()` (its parameter
//      structs, weight tags, whether it is a loss), Forward, Backprop and
//      DoInferShapes; UMBRA_REGISTER_LAYER in the .cc, which is listed in
//      //layers's srcs.
//   2. layers/gpu: UMBRA_REGISTER_LAYER_DEVICE(gpu, ...) in a .cu file (the
//      CPU template compiled by nvcc, or a cuDNN class), or the type has no
//      gpu implementation and `dev = gpu` refuses it.
//   3. layers/layer_cases.cc: a gradient-check, a gpu and a benchmark case
//      at least (layers/layer_cases_test.cc fails without them).
//   4. tools/config_reference.md: regenerate with `bazel run //tools:paramdoc
//      > tools/config_reference.md` (a test compares them).
//   5. train/registered_types_test.cc: the list of shipped types.
//   6. train/onnx/layer_exporters.cc: its ONNX form, and a case in
//      train/onnx/onnx_export_test.cc (the test fails without them).
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
//   for (const std::string& type : LayerRegistry::List()) { ... }
//   LayerRegistry::ListCreators<gpu, float>();   // the types built for the gpu
//   LayerTypeAcceptsKey(LayerRegistry::Get("fullc"), "wmat:lr");   // true
//
// A type the registry does not know is a LayerError that suggests the closest
// known type and lists them all.
#ifndef UMBRA_LAYERS_LAYER_REGISTRY_H_
#define UMBRA_LAYERS_LAYER_REGISTRY_H_

#include <memory>
#include <string>

#include "absl/strings/string_view.h"
#include "layers/layer.h"
#include "layers/layer_type_info.h"
#include "param/type_registry.h"

namespace umbra {
namespace layers {

using LayerRegistry = TypeRegistry<LayerTypeInfo, Layer>;

// The Markdown reference of one type: its description and a table of the
// keys of each of its parameter structs. Throws LayerError for an unknown
// type.
std::string LayerTypeMarkdown(absl::string_view type);

// A new layer of `type` named `name` (weights are named "<name>.<tag>"),
// configured from `kwargs`. Throws LayerError for an unknown type, a type
// not built for this device, or a bad key or value.
template <typename xpu, typename DType>
std::unique_ptr<Layer<xpu, DType>> CreateLayer(absl::string_view type,
                                               const std::string& name,
                                               const ParamKwargs& kwargs) {
  const LayerTypeInfo& info = LayerRegistry::Get(type);
  const auto create = LayerRegistry::FindCreator<xpu, DType>(info.type);
  if (create == nullptr) {
    throw LayerError(LayerLabel(name, info.type) +
                     ": this build has no implementation of the type for " +
                     (xpu::kDevCPU ? "the cpu" : "the gpu") +
                     " (GPU layers need --config=cuda)");
  }
  std::unique_ptr<Layer<xpu, DType>> layer = create();
  layer->Configure(info, name, kwargs);
  return layer;
}

}  // namespace layers
}  // namespace umbra

// Registers the layer class template `LayerClass<xpu, DType>` as `type` for
// the cpu (float and double), at namespace scope in one .cc file of an
// alwayslink library. LayerClass must have a static `LayerTypeInfo
// Describe()`.
#define UMBRA_REGISTER_LAYER(type, LayerClass)                               \
  UMBRA_REGISTER_TYPE(::umbra::layers::LayerRegistry, cpu, type, LayerClass, \
                      float, double)

// Registers the `device` (gpu) creators of a type registered with
// UMBRA_REGISTER_LAYER (float and double), from the .cu file that
// instantiates them.
#define UMBRA_REGISTER_LAYER_DEVICE(device, type, LayerClass)              \
  UMBRA_REGISTER_TYPE_DEVICE(::umbra::layers::LayerRegistry, device, type, \
                             LayerClass, float, double)

#endif  // UMBRA_LAYERS_LAYER_REGISTRY_H_
