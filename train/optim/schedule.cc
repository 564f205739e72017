#include "train/optim/schedule.h"

#include <algorithm>
#include <cmath>

#include "train/optim/optim_error.h"
#include "train/optim/param_keys.h"

namespace umbra {
namespace optim {

UMBRA_REGISTER_PARAMETER(ScheduleParam);

LearningRateSchedule::LearningRateSchedule() { param_.Init(ParamKwargs()); }

LearningRateSchedule::LearningRateSchedule(const ParamKwargs& kwargs) {
  ParamKwargs rest = InitKnown(&param_, kwargs, "schedule");
  if (!rest.empty()) {
    throw UnknownKeyError("schedule", rest.front().first,
                          KeysOf<ScheduleParam>());
  }
  Validate(param_);
}

LearningRateSchedule::LearningRateSchedule(const ScheduleParam& param)
    : param_(param) {
  Validate(param_);
}

void LearningRateSchedule::Validate(const ScheduleParam& param) {
  if (param.schedule == kCosine && param.max_step == 0) {
    throw OptimError(
        "schedule: key 'lr:max_step': lr:schedule = cosine needs the number "
        "of units to decay over, e.g. lr:max_step = 10000; got 0",
        "lr:max_step");
  }
}

double LearningRateSchedule::Rate(double base,
                                  const TrainProgress& progress) const {
  const ScheduleParam& p = param_;
  const int64_t t =
      p.unit == kPerRound ? int64_t{progress.round} : progress.num_update;
  if (t < p.warmup) {
    return base * static_cast<double>(t + 1) / p.warmup;
  }
  const int64_t u = t - p.warmup;
  if (u < p.start_epoch) return base;
  const double decays = static_cast<double>(u / p.step);
  const double floor = std::min(static_cast<double>(p.minimum_lr), base);
  double rate = base;
  switch (p.schedule) {
    case kConstant:
      return base;
    case kStep:
    case kFactor:
      rate = base * std::pow(static_cast<double>(p.factor), decays);
      break;
    case kExp:
      rate = base * std::pow(static_cast<double>(p.gamma), decays);
      break;
    case kExpDecay:
      rate = base * std::pow(static_cast<double>(p.gamma),
                             static_cast<double>(u) / p.step);
      break;
    case kPoly:
    case kPolyDecay:
      rate = base *
             std::pow(1.0 + decays * p.gamma, -static_cast<double>(p.alpha));
      break;
    case kCosine: {
      const double done =
          static_cast<double>(std::min<int64_t>(u, p.max_step)) / p.max_step;
      rate = floor + (base - floor) * 0.5 * (1.0 + std::cos(M_PI * done));
      break;
    }
  }
  return std::max(rate, floor);
}

}  // namespace optim
}  // namespace umbra
