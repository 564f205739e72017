// RuleUpdater<xpu, DType, Param>: the base of an updater whose rule reads
// one parameter struct, Param (MomentumParam, AdamParam, RMSPropParam). It
// keeps one Param per parameter set: the updater's, and the own of each
// weight that has rule keys of its own (Updater::SetWeightSettings, cxxnet's
// per-weight updaters), so that a rule's Step reads ParamsOf(weight).
//
// Example (a rule):
//
//   template <typename xpu, typename DType>
//   class RmspropUpdater : public RuleUpdater<xpu, DType, RMSPropParam> {
//     void Step(const UpdaterWeight<xpu, DType>& weight,
//               const StepScalars<DType>& s) override {
//       const RMSPropParam& p = this->ParamsOf(weight);
//       ...
//     }
//   };
#ifndef UMBRA_TRAIN_OPTIM_RULE_UPDATER_H_
#define UMBRA_TRAIN_OPTIM_RULE_UPDATER_H_

#include <string>
#include <vector>

#include "train/optim/updater.h"

namespace umbra {
namespace optim {

template <typename xpu, typename DType, typename Param>
class RuleUpdater : public Updater<xpu, DType> {
 public:
  // The parameters weight `name` is updated with. Throws OptimError for an
  // unknown name.
  const Param& ParamsOf(const std::string& name) const {
    for (const auto& weight : this->weights()) {
      if (weight->name == name) return ParamsOf(*weight);
    }
    throw OptimError(
        absl::StrCat(this->Label(), ": no weight named '", name, "'"));
  }

 protected:
  const Param& ParamsOf(const UpdaterWeight<xpu, DType>& weight) const {
    return params_.at(weight.rule);
  }
  // Throws OptimError for a combination of values that each field's own
  // check lets through; `label` starts the message.
  virtual void CheckParams(const Param& /*params*/,
                           const std::string& /*label*/) const {}

 private:
  int AddRuleParams(const ParamKwargs& kwargs, const std::string& label,
                    ParamKwargs* rest) final {
    Param params;
    *rest = InitKnown(&params, kwargs, label);
    CheckParams(params, label);
    params_.push_back(params);
    return static_cast<int>(params_.size()) - 1;
  }
  std::vector<std::string> OwnKeys() const final { return KeysOf<Param>(); }

  // [0]: the updater's; then one per weight with settings of its own.
  std::vector<Param> params_;
};

}  // namespace optim
}  // namespace umbra

#endif  // UMBRA_TRAIN_OPTIM_RULE_UPDATER_H_
