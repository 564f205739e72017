// Helpers for objects configured from several parameter structs at once
// (an updater reads its own struct, the common updater struct and the
// schedule struct from one list of key=value pairs): the keys each struct
// accepts, and InitKnown, which sets one struct from the pairs it declares
// and hands back the rest.
//
// Example:
//
//   ParamKwargs rest = InitKnown(&common, kwargs, "updater 'sgd'");
//   rest = InitKnown(&momentum, rest, "updater 'sgd'");
//   if (!rest.empty()) {
//     throw UnknownKeyError("updater 'sgd'", rest[0].first,
//                           MergeKeys({KeysOf<CommonParam>(),
//                                      KeysOf<MomentumParam>()}));
//   }
#ifndef UMBRA_TRAIN_OPTIM_PARAM_KEYS_H_
#define UMBRA_TRAIN_OPTIM_PARAM_KEYS_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "param/param.h"
#include "train/optim/optim_error.h"

namespace umbra {
namespace optim {

// Every key of PType: field names and their aliases, sorted.
template <typename PType>
std::vector<std::string> KeysOf();

// The union of several key lists, sorted, without duplicates.
std::vector<std::string> MergeKeys(
    const std::vector<std::vector<std::string>>& key_lists);

// Sets every field of *target from the pairs in `kwargs` that it declares
// (the others get their defaults) and returns the pairs it does not
// declare, in order. A bad value throws OptimError "<subject>: <ParamError>"
// and leaves *target unchanged.
template <typename PType>
ParamKwargs InitKnown(PType* target, const ParamKwargs& kwargs,
                      absl::string_view subject) {
  try {
    return target->InitAllowUnknown(kwargs);
  } catch (const ParamError& e) {
    throw WrapParamError(subject, e);
  }
}

template <typename PType>
std::vector<std::string> KeysOf() {
  std::vector<std::string> keys;
  for (const ParamFieldInfo& field : PType::Fields()) {
    keys.push_back(field.name);
    keys.insert(keys.end(), field.aliases.begin(), field.aliases.end());
  }
  return MergeKeys({keys});
}

}  // namespace optim
}  // namespace umbra

#endif  // UMBRA_TRAIN_OPTIM_PARAM_KEYS_H_
