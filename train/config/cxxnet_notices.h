// What a config written for cxxnet should be told, without stopping it.
//
// Keys that cxxnet read (or that its own docs and example configs carry)
// but that change nothing: `train_eval`, `lr:start_iteration`, `sync`,
// `init_sparse`, a layer's `silent`, cxxnet's GPU and parameter-server
// tuning keys, ... umbra accepts each with a one-line notice that names it
// and says why it has no effect, so a cxxnet config runs and nothing is
// silent. A key that no cxxnet version knew is still refused as a typo by
// ValidateTrainConfig.
//
// Values that make sense only in another toolkit's convention get a
// warning: adam's beta1 and beta2 hold cxxnet's 1 - β, so beta1 = 0.9 (the
// usual β1) is a first-moment weight of 0.9 here.
//
// Example:
//
//   TrainConfig config = LoadTrainConfig("MNIST.conf");
//   for (const ConfigNotice& notice : ReadCxxnetForms(&config))
//     std::cout << notice.ToString() << "\n";
//   // notice: MNIST.conf:41: 'train_eval' has no effect: cxxnet read it only
//   // on 2014-04-06 and then renamed it eval_train (umbra's eval_train, on by
//   // default)
#ifndef UMBRA_TRAIN_CONFIG_CXXNET_NOTICES_H_
#define UMBRA_TRAIN_CONFIG_CXXNET_NOTICES_H_

#include <string>
#include <vector>

#include "train/config/config_error.h"
#include "train/config/train_config.h"

namespace umbra {
namespace train {

// Something a config line does that the user should know but that is no
// error.
struct ConfigNotice {
  SourceLocation location;
  std::string key;
  std::string text;
  // A value that is probably not what the user meant.
  bool warning = false;

  // "notice: FILE:LINE: TEXT" ("warning: ..." for a warning).
  std::string ToString() const;
};

// Whether notice `a` is at a line before `b`'s (the command line's after the
// file's): the order notices are printed in.
bool InFileOrder(const ConfigNotice& a, const ConfigNotice& b);

// A cxxnet key that umbra accepts and ignores (for the config reference).
struct InertCxxnetKey {
  std::string key;
  // Where or how it is inert, e.g. "in a layer's settings"; may be empty.
  std::string condition;
  std::string reason;
};
std::vector<InertCxxnetKey> InertCxxnetKeyList();

// Removes every inert cxxnet entry from `config` (global settings, layer
// settings, iterator settings) and returns a notice for each, in file
// order; writes cxxnet's `eta:` prefix as `lr:`, its layer type `insanity`
// as `rrelu` (whose calm_start/calm_end of 0 or more are inert), and a
// global `seed_data =
// N` (cxxnet's seed of the data order and augmentation, apart from the
// weights' `seed`) as `seed = N` in every data block. Throws ConfigError for a
// cxxnet feature umbra has not, saying what to do instead: `net_type` other
// than 0 (cxxnet's 2014 averaging trainer), several devices in one process
// (`dev = gpu:0-3`, `gpu:0,1`) and the parameter server's keys.
std::vector<ConfigNotice> ReadCxxnetForms(TrainConfig* config);

// Warnings for adam's beta1 or beta2 of 0.5 or more (global or in a
// layer's settings, tagged or not), which read as the usual β: the text
// says what the value means here and what to write instead.
std::vector<ConfigNotice> AdamBetaWarnings(const TrainConfig& config);

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_CONFIG_CXXNET_NOTICES_H_
