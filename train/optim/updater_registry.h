// The registry of updaters: each rule registers itself once by name in the
// .cc file that instantiates it (an alwayslink library), with the parameter
// structs it reads; the trainer creates updaters by name.
//
// Example:
//
//   // momentum_updaters.cc
//   UMBRA_REGISTER_UPDATER("sgd", SgdUpdater, "SGD with momentum.",
//                          {"MomentumParam"});
//   // updaters_gpu.cc (--config=cuda)
//   UMBRA_REGISTER_UPDATER_DEVICE(gpu, "sgd", SgdUpdater);
//
//   // the trainer (`updater = adam` and the global keys)
//   std::unique_ptr<Updater<cpu, float>> updater =
//       CreateUpdater<cpu, float>("adam", {{"eta", "0.001"}});
//
//   // the config checker and the docs
//   ListUpdaterTypes();        // {"adam", "adamw", "nag", "rmsprop", "sgd"}
//   UpdaterKeys("sgd");        // clip_gradient, eta, lr, lr:alpha, ...
//
// An unknown name is an OptimError "unknown updater 'adma'; did you mean
// 'adam'? Known updaters: adam, adamw, nag, rmsprop, sgd".
#ifndef UMBRA_TRAIN_OPTIM_UPDATER_REGISTRY_H_
#define UMBRA_TRAIN_OPTIM_UPDATER_REGISTRY_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "param/param.h"
#include "tensor/tensor.h"
#include "train/optim/optim_error.h"
#include "train/optim/updater.h"

namespace umbra {
namespace optim {

struct UpdaterTypeInfo {
  std::string type;
  std::string description;
  // Registered parameter structs read besides UpdaterParam and
  // ScheduleParam, e.g. {"AdamParam"}.
  std::vector<std::string> param_structs;
};

// The registered names, sorted.
std::vector<std::string> ListUpdaterTypes();

// The entry of `type`; throws OptimError (unknown name, closest, all names).
const UpdaterTypeInfo& GetUpdaterTypeInfo(absl::string_view type);

// Every key updater `type` accepts (its structs, UpdaterParam and
// ScheduleParam, with aliases), sorted. Throws OptimError for an unknown
// type.
std::vector<std::string> UpdaterKeys(absl::string_view type);

// The names of the parameter structs every updater reads plus those of
// `type`, e.g. {"UpdaterParam", "ScheduleParam", "AdamParam"}.
std::vector<std::string> UpdaterParamStructs(absl::string_view type);

namespace internal {

template <typename xpu, typename DType>
using UpdaterCreator = std::unique_ptr<Updater<xpu, DType>> (*)();

template <typename xpu, typename DType>
std::map<std::string, UpdaterCreator<xpu, DType>>& UpdaterCreators() {
  static auto* creators = new std::map<std::string, UpdaterCreator<xpu, DType>>;
  return *creators;
}

// Adds `info`; a second registration of a name aborts with a message.
void RegisterUpdaterTypeInfo(UpdaterTypeInfo info);

template <typename xpu, typename DType, template <typename, typename> class U>
std::unique_ptr<Updater<xpu, DType>> NewUpdater() {
  return std::unique_ptr<Updater<xpu, DType>>(new U<xpu, DType>());
}

// Registers the cpu float and double creators of U under info.type.
template <template <typename, typename> class U>
bool RegisterUpdater(UpdaterTypeInfo info) {
  const std::string type = info.type;
  RegisterUpdaterTypeInfo(std::move(info));
  UpdaterCreators<cpu, float>()[type] = &NewUpdater<cpu, float, U>;
  UpdaterCreators<cpu, double>()[type] = &NewUpdater<cpu, double, U>;
  return true;
}

// Registers the `xpu` float creator of U under `type` (the type itself is
// registered by RegisterUpdater, for the cpu).
template <typename xpu, template <typename, typename> class U>
bool RegisterUpdaterDevice(const char* type) {
  UpdaterCreators<xpu, float>()[type] = &NewUpdater<xpu, float, U>;
  return true;
}

}  // namespace internal

// A new updater of `type` configured from `kwargs`: UpdaterParam keys,
// the `lr:*` schedule keys and the type's own keys, nothing else. Throws
// OptimError for an unknown type, a type not built for this device, an
// unknown key or a bad value, naming the updater and the key.
template <typename xpu, typename DType>
std::unique_ptr<Updater<xpu, DType>> CreateUpdater(absl::string_view type,
                                                   const ParamKwargs& kwargs) {
  const UpdaterTypeInfo& info = GetUpdaterTypeInfo(type);
  const auto& creators = internal::UpdaterCreators<xpu, DType>();
  auto it = creators.find(info.type);
  if (it == creators.end()) {
    throw OptimError("updater '" + info.type +
                     "': this build has no implementation for this device "
                     "(GPU updaters need --config=cuda)");
  }
  std::unique_ptr<Updater<xpu, DType>> updater = it->second();
  updater->Configure(info.type, kwargs);
  return updater;
}

}  // namespace optim
}  // namespace umbra

#define UMBRA_OPTIM_CONCAT_INNER_(a, b) a##b
#define UMBRA_OPTIM_CONCAT_(a, b) UMBRA_OPTIM_CONCAT_INNER_(a, b)

// Registers the class template `UpdaterClass<xpu, DType>` as `type` for the
// cpu (float and double), at namespace scope in one .cc file of an
// alwayslink library. `structs` is a braced list of the names of the
// registered parameter structs it reads besides the common ones.
#define UMBRA_REGISTER_UPDATER(type, UpdaterClass, description, ...) \
  [[maybe_unused]] static const bool UMBRA_OPTIM_CONCAT_(            \
      umbra_updater_registered_, __COUNTER__) =                      \
      ::umbra::optim::internal::RegisterUpdater<UpdaterClass>(       \
          ::umbra::optim::UpdaterTypeInfo{type, description, __VA_ARGS__})

// Registers the `device` (gpu) float creator of an updater registered with
// UMBRA_REGISTER_UPDATER, at namespace scope in one file of an alwayslink
// library built for that device.
#define UMBRA_REGISTER_UPDATER_DEVICE(device, type, UpdaterClass)      \
  [[maybe_unused]] static const bool UMBRA_OPTIM_CONCAT_(              \
      umbra_updater_registered_, __COUNTER__) =                        \
      ::umbra::optim::internal::RegisterUpdaterDevice<::umbra::device, \
                                                      UpdaterClass>(type)

#endif  // UMBRA_TRAIN_OPTIM_UPDATER_REGISTRY_H_
