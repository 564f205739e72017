// Learning-rate schedules: the learning rate of a weight at a point of
// training, from its base rate (the `eta`/`lr` the weight was given) and the
// `lr:*` keys, which keep cxxnet's names.
//
// What the schedule counts is `lr:unit`: `update` (the default, as in
// cxxnet: one per Updater::Update, i.e. per batch) or `round` (one per pass
// over the training data). Call that count t. Then, with base the weight's
// rate and floor division:
//
//   t < lr:warmup         base * (t + 1) / lr:warmup         (linear warm-up)
//   u = t - lr:warmup     the decay counts from the end of the warm-up
//   u < lr:start_epoch    base                                (cxxnet)
//   constant              base
//   step, factor          base * lr:factor ^ (u / lr:step)
//   exp                   base * lr:gamma ^ (u / lr:step)   (a staircase)
//   expdecay              base * lr:gamma ^ (u / lr:step, a real quotient)
//   poly, polydecay       base * (1 + (u / lr:step) * lr:gamma) ^ -lr:alpha
//   cosine                m + (base - m) * (1 + cos(pi * min(u, M) / M)) / 2
//                         with m = min(lr:minimum_lr, base), M = lr:max_step
//
// and every decayed value is raised to at least min(lr:minimum_lr, base).
//
// Differences from cxxnet (updater/param.h):
//   - cxxnet counted updates only; `lr:unit = round` is new, as are
//     `lr:warmup`, `cosine` and the names step, exp and poly.
//   - `expdecay` decays continuously, as cxxnet since 2015-01 (41f7df6);
//     `exp` is the staircase that cxxnet's expdecay was before.
//   - cxxnet raised every rate, a constant one too, to lr:minimum_lr
//     (default 1e-5), so `eta = 0` trained at 1e-5; here the floor never
//     exceeds the base rate.
//   - `poly`/`polydecay` is cxxnet's inverse decay (Caffe's "inv"), not
//     (1 - t/T)^p.
//
// Example:
//
//   LearningRateSchedule schedule(
//       {{"lr:schedule", "factor"}, {"lr:step", "1000"}, {"lr:factor",
//       "0.1"}});
//   schedule.Rate(0.1, {/*num_update=*/2500, /*round=*/3});   // 0.001
#ifndef UMBRA_TRAIN_OPTIM_SCHEDULE_H_
#define UMBRA_TRAIN_OPTIM_SCHEDULE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "param/param.h"

namespace umbra {
namespace optim {

// Where training stands: updates applied so far and the current round,
// both counted from 0.
struct TrainProgress {
  int64_t num_update = 0;
  int round = 0;
};

enum ScheduleType {
  kConstant = 0,
  kStep = 1,
  kFactor = 2,    // cxxnet's name of kStep
  kExp = 3,       // a staircase: lr:gamma once every lr:step units
  kExpDecay = 4,  // cxxnet's: continuous, lr:gamma ^ (t / lr:step)
  kPoly = 5,
  kPolyDecay = 6,  // cxxnet's name of kPoly
  kCosine = 7,
};

enum ScheduleUnit {
  kPerUpdate = 0,
  kPerRound = 1,
};

// The `lr:*` keys. Keys with a colon are declared with DECLARE directly.
struct ScheduleParam : public Parameter<ScheduleParam> {
  int schedule;
  int unit;
  int step;
  float gamma;
  float alpha;
  float factor;
  float minimum_lr;
  int start_epoch;
  int warmup;
  int max_step;

  UMBRA_DECLARE_PARAMETER(ScheduleParam) {
    this->DECLARE(manager, "lr:schedule", schedule)
        .add_enum("constant", kConstant)
        .add_enum("step", kStep)
        .add_enum("factor", kFactor)
        .add_enum("exp", kExp)
        .add_enum("expdecay", kExpDecay)
        .add_enum("poly", kPoly)
        .add_enum("polydecay", kPolyDecay)
        .add_enum("cosine", kCosine)
        .set_default(kConstant)
        .describe("How the learning rate decays (see schedule.h).");
    this->DECLARE(manager, "lr:unit", unit)
        .add_enum("update", kPerUpdate)
        .add_enum("round", kPerRound)
        .set_default(kPerUpdate)
        .describe(
            "What the schedule counts: updates (batches, as cxxnet) or "
            "rounds.");
    this->DECLARE(manager, "lr:step", step)
        .set_default(1)
        .set_lower_bound(1)
        .describe("Units between two decays of step, exp and poly.");
    this->DECLARE(manager, "lr:gamma", gamma)
        .set_default(0.5f)
        .set_lower_bound(0.0f)
        .describe("Base of exp; coefficient of poly.");
    this->DECLARE(manager, "lr:alpha", alpha)
        .set_default(0.5f)
        .set_lower_bound(0.0f)
        .describe("Exponent of poly.");
    this->DECLARE(manager, "lr:factor", factor)
        .set_default(0.1f)
        .set_lower_bound(0.0f)
        .describe("Factor applied every lr:step units by step.");
    this->DECLARE(manager, "lr:minimum_lr", minimum_lr)
        .set_default(1e-5f)
        .set_lower_bound(0.0f)
        .describe(
            "Floor of a decayed rate (capped at the base rate); end of "
            "cosine.");
    this->DECLARE(manager, "lr:start_epoch", start_epoch)
        .set_default(0)
        .set_lower_bound(0)
        .describe("Units after the warm-up during which the rate stays base.");
    this->DECLARE(manager, "lr:warmup", warmup)
        .set_default(0)
        .set_lower_bound(0)
        .describe("Units of linear warm-up from base/lr:warmup to base.");
    this->DECLARE(manager, "lr:max_step", max_step)
        .set_default(0)
        .set_lower_bound(0)
        .describe(
            "Units after the warm-up at which cosine reaches its minimum "
            "(required by cosine).");
  }
};

// A schedule read from `lr:*` keys. Stateless: the rate depends only on the
// base rate and the progress, so a checkpoint needs only the progress.
class LearningRateSchedule {
 public:
  // The constant schedule.
  LearningRateSchedule();
  // Throws OptimError "schedule: ..." naming the key for a bad value, an
  // unknown key, or cosine without lr:max_step.
  explicit LearningRateSchedule(const ParamKwargs& kwargs);
  // From settings already read; throws OptimError as Validate.
  explicit LearningRateSchedule(const ScheduleParam& param);

  // The rate of a weight whose base rate is `base` at `progress`.
  double Rate(double base, const TrainProgress& progress) const;

  const ScheduleParam& param() const { return param_; }

  // Checks the settings (cosine needs lr:max_step); throws OptimError.
  static void Validate(const ScheduleParam& param);

 private:
  ScheduleParam param_;
};

}  // namespace optim
}  // namespace umbra

#endif  // UMBRA_TRAIN_OPTIM_SCHEDULE_H_
