// Schedule values at chosen steps: warm-up, step boundaries, cxxnet's
// formulas, cosine endpoints, the floor, the unit; and bad keys.
#include "train/optim/schedule.h"

#include <cmath>

#include "gtest/gtest.h"
#include "train/optim/optim_test_util.h"

namespace umbra {
namespace optim {
namespace {

double F32(double x) { return static_cast<double>(static_cast<float>(x)); }

TrainProgress Updates(int64_t n) { return {n, 0}; }

TEST(Schedule, ConstantIsTheBaseRate) {
  LearningRateSchedule constant;
  EXPECT_EQ(constant.Rate(0.1, Updates(0)), 0.1);
  EXPECT_EQ(constant.Rate(0.1, Updates(1000000)), 0.1);
  // Unlike cxxnet, a rate below lr:minimum_lr is not raised.
  EXPECT_EQ(constant.Rate(0.0, Updates(5)), 0.0);
}

TEST(Schedule, StepAndFactorDecayAtBoundaries) {
  for (const char* name : {"step", "factor"}) {
    LearningRateSchedule s(ParamKwargs{{"lr:schedule", name},
                                       {"lr:step", "100"},
                                       {"lr:factor", "0.5"},
                                       {"lr:minimum_lr", "0"}});
    EXPECT_DOUBLE_EQ(s.Rate(1.0, Updates(0)), 1.0) << name;
    EXPECT_DOUBLE_EQ(s.Rate(1.0, Updates(99)), 1.0) << name;
    EXPECT_DOUBLE_EQ(s.Rate(1.0, Updates(100)), 0.5) << name;
    EXPECT_DOUBLE_EQ(s.Rate(1.0, Updates(299)), 0.25) << name;
    EXPECT_DOUBLE_EQ(s.Rate(1.0, Updates(300)), 0.125) << name;
  }
}

TEST(Schedule, ExpIsAStaircase) {
  LearningRateSchedule s(ParamKwargs{{"lr:schedule", "exp"},
                                     {"lr:step", "10"},
                                     {"lr:gamma", "0.9"},
                                     {"lr:minimum_lr", "0"}});
  EXPECT_NEAR(s.Rate(0.2, Updates(25)), 0.2 * std::pow(F32(0.9), 2), 1e-15);
  EXPECT_NEAR(s.Rate(0.2, Updates(29)), 0.2 * std::pow(F32(0.9), 2), 1e-15);
}

TEST(Schedule, ExpDecayIsContinuousAsCxxnet) {
  // cxxnet's updater/param.h: base * powf(gamma, float(t) / step).
  // ImageNet.conf's settings halfway through a step: 0.01 * 0.1 ^ 0.5.
  LearningRateSchedule imagenet(ParamKwargs{
      {"lr:schedule", "expdecay"}, {"lr:step", "100000"}, {"lr:gamma", "0.1"}});
  EXPECT_NEAR(imagenet.Rate(0.01, Updates(50000)), 0.0031623, 1e-7);
  LearningRateSchedule halving(ParamKwargs{
      {"lr:schedule", "expdecay"}, {"lr:step", "1000"}, {"lr:gamma", "0.5"}});
  EXPECT_NEAR(halving.Rate(0.1, Updates(2500)), 0.0176777, 1e-7);
  EXPECT_NEAR(halving.Rate(0.1, Updates(1000)), 0.05, 1e-9);
}

TEST(Schedule, PolyFollowsCxxnet) {
  for (const char* name : {"poly", "polydecay"}) {
    LearningRateSchedule s(ParamKwargs{{"lr:schedule", name},
                                       {"lr:step", "10"},
                                       {"lr:gamma", "0.5"},
                                       {"lr:alpha", "0.75"},
                                       {"lr:minimum_lr", "0"}});
    // base * (1 + (t / step) * gamma) ^ -alpha, t / step = 3.
    EXPECT_NEAR(s.Rate(0.2, Updates(35)), 0.2 * std::pow(2.5, -0.75), 1e-15);
  }
}

TEST(Schedule, MinimumLrIsAFloorCappedAtTheBase) {
  LearningRateSchedule s(ParamKwargs{{"lr:schedule", "factor"},
                                     {"lr:factor", "0.1"},
                                     {"lr:minimum_lr", "0.001"}});
  EXPECT_NEAR(s.Rate(1.0, Updates(2)), F32(0.1) * F32(0.1), 1e-12);
  EXPECT_DOUBLE_EQ(s.Rate(1.0, Updates(10)), F32(0.001));
  EXPECT_DOUBLE_EQ(s.Rate(0.0001, Updates(10)), 0.0001);
}

TEST(Schedule, StartEpochHoldsTheBaseRate) {
  LearningRateSchedule s(ParamKwargs{{"lr:schedule", "factor"},
                                     {"lr:step", "10"},
                                     {"lr:factor", "0.5"},
                                     {"lr:start_epoch", "30"},
                                     {"lr:minimum_lr", "0"}});
  EXPECT_DOUBLE_EQ(s.Rate(1.0, Updates(29)), 1.0);
  EXPECT_DOUBLE_EQ(s.Rate(1.0, Updates(30)), 0.125);  // as cxxnet: 30 / 10
}

TEST(Schedule, CosineEndpoints) {
  LearningRateSchedule s(ParamKwargs{{"lr:schedule", "cosine"},
                                     {"lr:max_step", "100"},
                                     {"lr:minimum_lr", "0.01"}});
  const double m = F32(0.01);
  EXPECT_DOUBLE_EQ(s.Rate(1.0, Updates(0)), 1.0);
  EXPECT_NEAR(s.Rate(1.0, Updates(50)), m + (1 - m) * 0.5, 1e-15);
  EXPECT_NEAR(s.Rate(1.0, Updates(25)),
              m + (1 - m) * 0.5 * (1 + std::cos(M_PI / 4)), 1e-15);
  EXPECT_DOUBLE_EQ(s.Rate(1.0, Updates(100)), m);
  EXPECT_DOUBLE_EQ(s.Rate(1.0, Updates(1000)), m);
}

TEST(Schedule, LinearWarmupThenDecayFromItsEnd) {
  LearningRateSchedule s(ParamKwargs{{"lr:schedule", "cosine"},
                                     {"lr:warmup", "4"},
                                     {"lr:max_step", "10"},
                                     {"lr:minimum_lr", "0"}});
  EXPECT_DOUBLE_EQ(s.Rate(0.8, Updates(0)), 0.2);
  EXPECT_DOUBLE_EQ(s.Rate(0.8, Updates(1)), 0.4);
  EXPECT_DOUBLE_EQ(s.Rate(0.8, Updates(3)), 0.8);
  EXPECT_DOUBLE_EQ(s.Rate(0.8, Updates(4)), 0.8);  // cosine at 0
  EXPECT_NEAR(s.Rate(0.8, Updates(9)), 0.4, 1e-15);
  EXPECT_NEAR(s.Rate(0.8, Updates(14)), 0.0, 1e-15);
}

TEST(Schedule, CountsRoundsWhenAsked) {
  LearningRateSchedule s(ParamKwargs{{"lr:schedule", "step"},
                                     {"lr:unit", "round"},
                                     {"lr:step", "2"},
                                     {"lr:factor", "0.5"},
                                     {"lr:minimum_lr", "0"}});
  EXPECT_DOUBLE_EQ(s.Rate(1.0, {/*num_update=*/5000, /*round=*/1}), 1.0);
  EXPECT_DOUBLE_EQ(s.Rate(1.0, {/*num_update=*/5000, /*round=*/2}), 0.5);
  EXPECT_DOUBLE_EQ(s.Rate(1.0, {/*num_update=*/0, /*round=*/5}), 0.25);
}

TEST(Schedule, BadKeysAndValuesNameTheKey) {
  EXPECT_EQ(
      OptimErrorOf([] {
        LearningRateSchedule(ParamKwargs{{"lr:schedule", "cosin"}});
      }),
      "schedule: ScheduleParam: key 'lr:schedule': expected {'constant', "
      "'step', 'factor', 'exp', 'expdecay', 'poly', 'polydecay', 'cosine'}, "
      "got 'cosin' (did you mean 'cosine'?)");
  std::string message = OptimErrorOf([] {
    LearningRateSchedule(ParamKwargs{{"lr:stpe", "10"}});
  });
  EXPECT_EQ(message.rfind("schedule: unknown key 'lr:stpe'; did you mean "
                          "'lr:step'? Valid keys: 10 in all; see ",
                          0),
            0u)
      << message;
  message = OptimErrorOf([] {
    LearningRateSchedule(ParamKwargs{{"lr:step", "0"}});
  });
  EXPECT_NE(message.find("key 'lr:step'"), std::string::npos) << message;
  EXPECT_EQ(
      OptimErrorOf([] {
        LearningRateSchedule(ParamKwargs{{"lr:schedule", "cosine"}});
      }),
      "schedule: key 'lr:max_step': lr:schedule = cosine needs the number of "
      "units to decay over, e.g. lr:max_step = 10000; got 0");
}

}  // namespace
}  // namespace optim
}  // namespace umbra
