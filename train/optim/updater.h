// Updater<xpu, DType>: applies one optimisation rule (sgd, nag, adam, adamw,
// rmsprop) to a set of weights, with one learning-rate schedule, and owns
// the per-weight state the rule needs (momentum, moments) plus the progress
// counters. Create one with CreateUpdater (updater_registry.h).
//
// Example (the trainer):
//
//   auto updater = CreateUpdater<cpu, float>(
//       "sgd", {{"eta", "0.1"}, {"momentum", "0.9"}, {"lr:schedule", "factor"},
//               {"lr:step", "1000"}});
//   for (auto& layer : net) {
//     for (WeightRef<cpu, float>& w : layer->Weights()) updater->AddWeight(w);
//   }
//   for (int round = 0; round < num_round; ++round) {
//     updater->StartRound(round);
//     while (iter.Next()) {
//       ...Forward, Backprop (gradients accumulate with +=)...
//       updater->Update();   // every weight one step, gradients set to 0
//     }
//   }
//
// Contracts:
//   - Each weight's learning rate and weight decay are the layer's
//     per-weight settings merged over the updater's (ResolveWeightSettings);
//     the schedule scales the learning rate (schedule.h).
//   - A weight may have updater keys of its own (SetWeightSettings: its
//     schedule, the rule's keys, clip_gradient), as cxxnet had an updater
//     per weight; the others follow the updater's.
//   - Update() applies the rule to every weight, sets every gradient to 0
//     (layers add to gradients), then counts one update. The rule sees
//     t = num_update + 1, the 1-based number of this step (Adam's bias
//     correction).
//   - Weights are added before the first Update; names are unique. The
//     weight and gradient views must stay valid while the updater is used.
//   - StateTensors() exposes every state tensor by name
//     ("<weight name>:<state>", e.g. "fc1.wmat:momentum"); with progress()
//     it is everything a checkpoint must keep for the next step to be
//     bit-identical (updater_state.h saves and restores it).
//   - Errors are OptimErrors that name the updater and the key or weight.
#ifndef UMBRA_TRAIN_OPTIM_UPDATER_H_
#define UMBRA_TRAIN_OPTIM_UPDATER_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "layers/layer.h"
#include "param/param.h"
#include "tensor/tensor.h"
#include "train/optim/optim_error.h"
#include "train/optim/param_keys.h"
#include "train/optim/schedule.h"
#include "train/optim/updater_param.h"

namespace umbra {
namespace optim {

// One weight as an updater holds it.
template <typename xpu, typename DType>
struct UpdaterWeight {
  std::string name;
  std::string tag;
  Tensor<xpu, 1, DType> data;
  Tensor<xpu, 1, DType> grad;
  // The merged settings: base learning rate (before the schedule) and
  // weight decay.
  WeightSettings settings;
  // The weight's own schedule (its layer's lr:* keys); nullopt: the
  // updater's.
  std::optional<LearningRateSchedule> schedule;
  // Which of the rule's parameter sets the weight follows (0: the
  // updater's; see RuleUpdater).
  int rule = 0;
  // > 0: gradient elements are clipped to [-clip, clip] (NaN to 0).
  float clip_gradient = 0;
  // One tensor per name in StateNames(), shaped as data, zero at first.
  std::vector<std::unique_ptr<TensorContainer<xpu, 1, DType>>> state;
};

// The scalars of one step of one weight.
template <typename DType>
struct StepScalars {
  DType lr;
  DType wd;
  // > 0: clip gradient elements to [-clip, clip] (NaN to 0).
  DType clip;
  // 1-based number of this step.
  int64_t t;
};

// A state tensor, by name, for checkpoints.
template <typename xpu, typename DType>
struct NamedTensor {
  std::string name;
  Tensor<xpu, 1, DType> data;
};

template <typename xpu, typename DType>
class Updater {
 public:
  Updater() = default;
  Updater(const Updater&) = delete;
  Updater& operator=(const Updater&) = delete;
  virtual ~Updater() = default;

  // The registered name, e.g. "adam".
  const std::string& type() const { return type_; }
  // "updater 'adam'", the start of every error message.
  std::string Label() const { return absl::StrCat("updater '", type_, "'"); }

  // Reads UpdaterParam, the rule's own struct and ScheduleParam from
  // `kwargs`; every key must belong to one of them. CreateUpdater calls it.
  // Throws OptimError naming the updater and the key.
  void Configure(const std::string& type, const ParamKwargs& kwargs);

  // Adds a weight: views of its values and gradient (same size) and the
  // layer's settings for it (may be null). Throws OptimError for a
  // duplicate name, a size mismatch, or a call after the first Update.
  void AddWeight(const layers::WeightRef<xpu, DType>& weight);

  // Gives weight `name` updater settings of its own: the updater's keys
  // with `own` on top, read as Configure reads them. `own` may hold the
  // keys of WeightKeys() (the schedule's lr:*, the rule's keys,
  // clip_gradient), not eta or wd: a weight's are its layer's
  // (ResolveWeightSettings). Throws OptimError naming the updater, the
  // weight and the key: an unknown name, another key, a bad value.
  void SetWeightSettings(const std::string& name, const ParamKwargs& own);
  // The keys a weight may have of its own (SetWeightSettings), sorted.
  std::vector<std::string> WeightKeys() const;

  // Sets the current round (the schedule may count rounds).
  void StartRound(int round) { progress_.round = round; }
  // One step for every weight; see the contracts above.
  void Update();

  // The learning rate weight `name` gets at the next Update. Throws
  // OptimError for an unknown name.
  double CurrentRate(const std::string& name) const;

  const TrainProgress& progress() const { return progress_; }
  // For restoring a checkpoint.
  void set_progress(const TrainProgress& progress) { progress_ = progress; }
  const UpdaterParam& common() const { return common_; }
  const LearningRateSchedule& schedule() const { return schedule_; }
  const std::vector<std::unique_ptr<UpdaterWeight<xpu, DType>>>& weights()
      const {
    return weights_;
  }

  // Every state tensor, weight by weight in AddWeight order.
  std::vector<NamedTensor<xpu, DType>> StateTensors() const;

  // The names of the rule's state tensors per weight, e.g. {"m", "v"}.
  virtual std::vector<std::string> StateNames() const = 0;

 protected:
  // Adds a parameter set of the rule read from `kwargs` (InitKnown):
  // Configure's is the first (index 0), each SetWeightSettings adds the
  // weight's. Returns its index; `rest` gets the pairs the rule does not
  // declare. Throws OptimError starting with `label` for a bad value.
  virtual int AddRuleParams(const ParamKwargs& kwargs, const std::string& label,
                            ParamKwargs* rest) = 0;
  // The keys of the rule's own struct (KeysOf<...>()).
  virtual std::vector<std::string> OwnKeys() const = 0;
  // Applies the rule to one weight and sets its gradient to zero.
  virtual void Step(const UpdaterWeight<xpu, DType>& weight,
                    const StepScalars<DType>& scalars) = 0;

 private:
  const UpdaterWeight<xpu, DType>* Find(const std::string& name) const;

  // The schedule weight `weight` follows.
  const LearningRateSchedule& ScheduleOf(
      const UpdaterWeight<xpu, DType>& weight) const {
    return weight.schedule ? *weight.schedule : schedule_;
  }

  // What one list of pairs sets: the common keys, the schedule and the
  // rule's parameter set (its index).
  struct Settings {
    UpdaterParam common;
    LearningRateSchedule schedule;
    int rule = 0;
  };
  // Reads `kwargs` (every key must belong to UpdaterParam, ScheduleParam or
  // the rule); `label` starts the errors.
  Settings Read(const ParamKwargs& kwargs, const std::string& label);

  std::string type_ = "?";
  UpdaterParam common_;
  LearningRateSchedule schedule_;
  // The pairs Configure read: a weight's own settings go on top of them.
  ParamKwargs kwargs_;
  TrainProgress progress_;
  std::vector<std::unique_ptr<UpdaterWeight<xpu, DType>>> weights_;
};

// ---------------------------------------------------------------------------

template <typename xpu, typename DType>
typename Updater<xpu, DType>::Settings Updater<xpu, DType>::Read(
    const ParamKwargs& kwargs, const std::string& label) {
  Settings settings;
  ParamKwargs rest = InitKnown(&settings.common, kwargs, label);
  ScheduleParam schedule_param;
  rest = InitKnown(&schedule_param, rest, label);
  settings.rule = AddRuleParams(rest, label, &rest);
  if (!rest.empty()) {
    throw UnknownKeyError(label, rest.front().first,
                          MergeKeys({KeysOf<UpdaterParam>(), OwnKeys(),
                                     KeysOf<ScheduleParam>()}));
  }
  try {
    settings.schedule = LearningRateSchedule(schedule_param);
  } catch (const OptimError& e) {
    throw OptimError(absl::StrCat(label, ": ", e.what()), e.key());
  }
  return settings;
}

template <typename xpu, typename DType>
void Updater<xpu, DType>::Configure(const std::string& type,
                                    const ParamKwargs& kwargs) {
  type_ = type;
  Settings settings = Read(kwargs, Label());
  common_ = settings.common;
  schedule_ = std::move(settings.schedule);
  kwargs_ = kwargs;
}

template <typename xpu, typename DType>
void Updater<xpu, DType>::AddWeight(
    const layers::WeightRef<xpu, DType>& weight) {
  if (progress_.num_update != 0) {
    throw OptimError(absl::StrCat(Label(), ": weight '", weight.name,
                                  "' added after ", progress_.num_update,
                                  " updates; add every weight first"));
  }
  if (Find(weight.name) != nullptr) {
    throw OptimError(
        absl::StrCat(Label(), ": weight '", weight.name, "' is added twice"));
  }
  if (weight.data.shape_ != weight.grad.shape_) {
    throw OptimError(absl::StrCat(
        Label(), ": weight '", weight.name, "' has ", weight.data.shape_[0],
        " values but its gradient ", weight.grad.shape_[0]));
  }
  auto slot = std::make_unique<UpdaterWeight<xpu, DType>>();
  slot->name = weight.name;
  slot->tag = weight.tag;
  slot->data = weight.data;
  slot->grad = weight.grad;
  slot->settings = ResolveWeightSettings(weight.settings, common_);
  slot->clip_gradient = common_.clip_gradient;
  for (size_t i = 0; i < StateNames().size(); ++i) {
    auto state = std::make_unique<TensorContainer<xpu, 1, DType>>(
        weight.data.shape_, DType(0), false);
    state->set_stream(weight.data.stream_);
    slot->state.push_back(std::move(state));
  }
  weights_.push_back(std::move(slot));
}

template <typename xpu, typename DType>
void Updater<xpu, DType>::SetWeightSettings(const std::string& name,
                                            const ParamKwargs& own) {
  const std::string label = absl::StrCat(Label(), ": weight '", name, "'");
  UpdaterWeight<xpu, DType>* weight = nullptr;
  for (const auto& candidate : weights_) {
    if (candidate->name == name) weight = candidate.get();
  }
  if (weight == nullptr) {
    throw OptimError(absl::StrCat(Label(), ": no weight named '", name, "'"));
  }
  const std::vector<std::string> keys = WeightKeys();
  for (const auto& [key, value] : own) {
    if (!std::binary_search(keys.begin(), keys.end(), key)) {
      throw UnknownKeyError(label, key, keys);
    }
  }
  ParamKwargs merged = kwargs_;
  merged.insert(merged.end(), own.begin(), own.end());
  Settings settings = Read(merged, label);
  weight->schedule = std::move(settings.schedule);
  weight->rule = settings.rule;
  weight->clip_gradient = settings.common.clip_gradient;
}

template <typename xpu, typename DType>
std::vector<std::string> Updater<xpu, DType>::WeightKeys() const {
  return MergeKeys(
      {KeysOf<ScheduleParam>(), OwnKeys(), WeightOwnUpdaterParamKeys()});
}

template <typename xpu, typename DType>
void Updater<xpu, DType>::Update() {
  for (const auto& weight : weights_) {
    StepScalars<DType> scalars;
    scalars.lr =
        DType(ScheduleOf(*weight).Rate(weight->settings.lr, progress_));
    scalars.wd = DType(weight->settings.wd);
    scalars.clip = DType(weight->clip_gradient);
    scalars.t = progress_.num_update + 1;
    Step(*weight, scalars);
  }
  ++progress_.num_update;
}

template <typename xpu, typename DType>
double Updater<xpu, DType>::CurrentRate(const std::string& name) const {
  const UpdaterWeight<xpu, DType>* weight = Find(name);
  if (weight == nullptr) {
    throw OptimError(absl::StrCat(Label(), ": no weight named '", name, "'"));
  }
  return ScheduleOf(*weight).Rate(weight->settings.lr, progress_);
}

template <typename xpu, typename DType>
std::vector<NamedTensor<xpu, DType>> Updater<xpu, DType>::StateTensors() const {
  std::vector<NamedTensor<xpu, DType>> out;
  const std::vector<std::string> names = StateNames();
  for (const auto& weight : weights_) {
    for (size_t i = 0; i < names.size(); ++i) {
      out.push_back(
          {absl::StrCat(weight->name, ":", names[i]), *weight->state[i]});
    }
  }
  return out;
}

template <typename xpu, typename DType>
const UpdaterWeight<xpu, DType>* Updater<xpu, DType>::Find(
    const std::string& name) const {
  for (const auto& weight : weights_) {
    if (weight->name == name) return weight.get();
  }
  return nullptr;
}

}  // namespace optim
}  // namespace umbra

#endif  // UMBRA_TRAIN_OPTIM_UPDATER_H_
