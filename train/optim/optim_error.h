// OptimError: the one exception the updaters, schedules and metrics throw.
//
// Every message starts with what it is about - `updater 'adam'`,
// `schedule`, `metric 'rec@5'` - then names the key or the name that was
// wrong, what was expected, and the known alternatives:
//
//   updater 'adam': unknown key 'beta_1'; did you mean 'beta1'? Valid keys: ...
//   unknown updater 'adma'; did you mean 'adam'? Known updaters: adam, adamw,
//   ... metric 'rec@0': k must be at least 1, as in rec@5
//
// Example:
//
//   try {
//     auto updater = CreateUpdater<cpu, float>("adam", kwargs);
//   } catch (const umbra::optim::OptimError& e) {
//     std::cerr << e.what() << "\n";
//   }
#ifndef UMBRA_TRAIN_OPTIM_OPTIM_ERROR_H_
#define UMBRA_TRAIN_OPTIM_OPTIM_ERROR_H_

#include <stdexcept>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "param/param_error.h"

namespace umbra {
namespace optim {

class OptimError : public std::invalid_argument {
 public:
  // `message` is the whole text what() returns; `key` the setting it is
  // about (empty when it is not about one key).
  explicit OptimError(const std::string& message, std::string key = "");

  // The key the error is about, e.g. "lr:step"; may be empty.
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

// "<subject>: <error.what()>", keeping the key of `error`.
OptimError WrapParamError(absl::string_view subject, const ParamError& error);

// "<subject>: unknown key '<key>'; did you mean '<closest>'? Valid keys: a, b"
// (the suggestion only when one is close).
OptimError UnknownKeyError(absl::string_view subject, absl::string_view key,
                           const std::vector<std::string>& valid_keys);

// "unknown <kind> '<name>'; did you mean '<closest>'? Known <kind>s: a, b".
OptimError UnknownNameError(absl::string_view kind, absl::string_view name,
                            const std::vector<std::string>& known_names);

}  // namespace optim
}  // namespace umbra

#endif  // UMBRA_TRAIN_OPTIM_OPTIM_ERROR_H_
