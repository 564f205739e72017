// The registry of updaters (a TypeRegistry, param/type_registry.h): each
// rule registers itself once by name in the .cc file that instantiates it (an
// alwayslink library), described by its class's static Describe() (the
// parameter structs it reads); the trainer creates updaters by name.
//
// Example:
//
//   // momentum_updaters.cc
//   UMBRA_REGISTER_UPDATER("sgd", SgdUpdater);
//   // updaters_gpu.cc (--config=cuda)
//   UMBRA_REGISTER_UPDATER_DEVICE(gpu, "sgd", SgdUpdater);
//
//   // the trainer (`updater = adam` and the global keys)
//   std::unique_ptr<Updater<cpu, float>> updater =
//       CreateUpdater<cpu, float>("adam", {{"eta", "0.001"}});
//
//   // the config checker and the docs
//   UpdaterRegistry::List();   // {"adam", "adamw", "nag", "rmsprop", "sgd"}
//   UpdaterKeys("sgd");        // clip_gradient, eta, lr, lr:alpha, ...
//
// An unknown name is an OptimError "unknown updater 'adma'; did you mean
// 'adam'? Known updaters: adam, adamw, nag, rmsprop, sgd".
#ifndef UMBRA_TRAIN_OPTIM_UPDATER_REGISTRY_H_
#define UMBRA_TRAIN_OPTIM_UPDATER_REGISTRY_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "param/param.h"
#include "param/type_registry.h"
#include "tensor/tensor.h"
#include "train/optim/optim_error.h"
#include "train/optim/updater.h"

namespace umbra {
namespace optim {

// An updater's entry in the registry: filled in by the class's static
// Describe(), its name set by the registration.
struct UpdaterTypeInfo {
  // What TypeRegistry needs to name the kind in messages.
  static constexpr char kKind[] = "updater";
  static constexpr char kKnownAs[] = "updaters";
  static constexpr char kLibrary[] = "//train/optim:updaters";
  using Error = OptimError;

  // The name `updater = ...` gives: "adam".
  std::string type;
  // One line for the reference.
  std::string description;
  // Registered parameter structs read besides UpdaterParam and
  // ScheduleParam, e.g. {"AdamParam"}.
  std::vector<std::string> param_structs;

  // What is wrong with the entry ("" when nothing): it needs a
  // description.
  std::string Problem() const;
};

using UpdaterRegistry = TypeRegistry<UpdaterTypeInfo, Updater>;

// Every key updater `type` accepts (its structs, UpdaterParam and
// ScheduleParam, with aliases), sorted. Throws OptimError for an unknown
// type.
std::vector<std::string> UpdaterKeys(absl::string_view type);

// The keys of updater `type` a weight may have of its own
// (Updater::SetWeightSettings: all but eta and wd, which are its layer's),
// sorted. Throws OptimError for an unknown type.
std::vector<std::string> UpdaterWeightKeys(absl::string_view type);

// The names of the parameter structs every updater reads plus those of
// `type`, e.g. {"UpdaterParam", "ScheduleParam", "AdamParam"}.
std::vector<std::string> UpdaterParamStructs(absl::string_view type);

// A new updater of `type` configured from `kwargs`: UpdaterParam keys,
// the `lr:*` schedule keys and the type's own keys, nothing else. Throws
// OptimError for an unknown type, a type not built for this device, an
// unknown key or a bad value, naming the updater and the key.
template <typename xpu, typename DType>
std::unique_ptr<Updater<xpu, DType>> CreateUpdater(absl::string_view type,
                                                   const ParamKwargs& kwargs) {
  const UpdaterTypeInfo& info = UpdaterRegistry::Get(type);
  const auto create = UpdaterRegistry::FindCreator<xpu, DType>(info.type);
  if (create == nullptr) {
    throw OptimError("updater '" + info.type +
                     "': this build has no implementation for this device "
                     "(GPU updaters need --config=cuda)");
  }
  std::unique_ptr<Updater<xpu, DType>> updater = create();
  updater->Configure(info.type, kwargs);
  return updater;
}

}  // namespace optim
}  // namespace umbra

// Registers the class template `UpdaterClass<xpu, DType>` as `type` for the
// cpu (float and double), at namespace scope in one .cc file of an
// alwayslink library. UpdaterClass must have a static `UpdaterTypeInfo
// Describe()`.
#define UMBRA_REGISTER_UPDATER(type, UpdaterClass)                \
  UMBRA_REGISTER_TYPE(::umbra::optim::UpdaterRegistry, cpu, type, \
                      UpdaterClass, float, double)

// Registers the `device` (gpu) float creator of an updater registered with
// UMBRA_REGISTER_UPDATER, at namespace scope in one file of an alwayslink
// library built for that device.
#define UMBRA_REGISTER_UPDATER_DEVICE(device, type, UpdaterClass)           \
  UMBRA_REGISTER_TYPE_DEVICE(::umbra::optim::UpdaterRegistry, device, type, \
                             UpdaterClass, float)

#endif  // UMBRA_TRAIN_OPTIM_UPDATER_REGISTRY_H_
