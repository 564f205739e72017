// The registered updaters and parameter structs of the shipped library,
// unknown names and keys, bad values: each error names the updater and the
// key.
#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "param/param.h"
#include "train/optim/optim_test_util.h"
#include "train/optim/updater_registry.h"

namespace umbra {
namespace optim {
namespace {

TEST(UpdaterRegistry, ListsEveryUpdater) {
  EXPECT_EQ(
      UpdaterRegistry::List(),
      (std::vector<std::string>{"adam", "adamw", "nag", "rmsprop", "sgd"}));
  const std::vector<std::string> structs = ListParamStructs();
  for (const char* name : {"AdamParam", "MomentumParam", "RMSPropParam",
                           "ScheduleParam", "UpdaterParam"}) {
    EXPECT_NE(std::find(structs.begin(), structs.end(), name), structs.end())
        << name;
  }
  for (const std::string& type : UpdaterRegistry::List()) {
    auto updater = CreateUpdater<cpu, float>(type, {});
    EXPECT_EQ(updater->type(), type);
    EXPECT_NE((CreateUpdater<cpu, double>(type, {})), nullptr);
  }
}

TEST(UpdaterRegistry, KeysOfAnUpdater) {
  EXPECT_EQ(
      UpdaterKeys("sgd"),
      (std::vector<std::string>{
          "base_momentum", "clip_gradient", "eta", "final_momentum", "lr",
          "lr:alpha", "lr:factor", "lr:gamma", "lr:max_step", "lr:minimum_lr",
          "lr:schedule", "lr:start_epoch", "lr:step", "lr:unit", "lr:warmup",
          "momentum", "momentum_schedule", "saturation_epoch", "wd"}));
  std::vector<std::string> adam = UpdaterKeys("adam");
  EXPECT_NE(std::find(adam.begin(), adam.end(), "beta2"), adam.end());
  EXPECT_EQ(std::find(adam.begin(), adam.end(), "momentum"), adam.end());
  EXPECT_EQ(UpdaterParamStructs("rmsprop"),
            (std::vector<std::string>{"UpdaterParam", "ScheduleParam",
                                      "RMSPropParam"}));
}

// A weight's own keys are the updater's but its layer's eta and wd, as the
// updater itself accepts them.
TEST(UpdaterRegistry, KeysAWeightMayHaveOfItsOwn) {
  std::vector<std::string> sgd = UpdaterKeys("sgd");
  for (const char* layers : {"eta", "lr", "wd"}) {
    sgd.erase(std::find(sgd.begin(), sgd.end(), layers));
  }
  EXPECT_EQ(UpdaterWeightKeys("sgd"), sgd);
  for (const std::string& type : UpdaterRegistry::List()) {
    const auto updater = CreateUpdater<cpu, float>(type, {});
    EXPECT_EQ(UpdaterWeightKeys(type), updater->WeightKeys()) << type;
  }
}

TEST(UpdaterRegistry, UnknownNameSuggestsAndLists) {
  EXPECT_EQ(OptimErrorOf([] { CreateUpdater<cpu, float>("adma", {}); }),
            "unknown updater 'adma'; did you mean 'adam'? Known updaters: "
            "adam, adamw, nag, rmsprop, sgd");
  EXPECT_EQ(OptimErrorOf([] { UpdaterRegistry::Get("lbfgs"); }),
            "unknown updater 'lbfgs'. Known updaters: adam, adamw, nag, "
            "rmsprop, sgd");
}

TEST(UpdaterRegistry, KeysOfAnotherUpdaterAreUnknown) {
  try {
    CreateUpdater<cpu, float>("sgd", {{"eta", "0.1"}, {"beta1", "0.9"}});
    FAIL();
  } catch (const OptimError& e) {
    EXPECT_EQ(e.key(), "beta1");
    EXPECT_EQ(std::string(e.what()),
              "updater 'sgd': unknown key 'beta1'; Valid keys: 19 in all; "
              "see tools/config_reference.md");
  }
  const std::string message = OptimErrorOf([] {
    CreateUpdater<cpu, float>("adam", {{"beta_2", "0.99"}});
  });
  EXPECT_EQ(message.rfind("updater 'adam': unknown key 'beta_2'; did you "
                          "mean 'beta2'? Valid keys (2 closest of ",
                          0),
            0u)
      << message;
}

TEST(UpdaterRegistry, BadValuesNameTheUpdaterAndTheKey) {
  EXPECT_EQ(
      OptimErrorOf([] {
        CreateUpdater<cpu, float>("adam", {{"beta1", "1.5"}});
      }),
      "updater 'adam': AdamParam: key 'beta1': expected float in [0, 1], got "
      "'1.5'");
  EXPECT_EQ(
      OptimErrorOf([] {
        CreateUpdater<cpu, float>("sgd", {{"eta", "-1"}});
      }),
      "updater 'sgd': UpdaterParam: key 'eta': expected float in [0, inf), "
      "got '-1'");
  EXPECT_EQ(OptimErrorOf([] {
              CreateUpdater<cpu, float>("nag", {{"lr:step", "x"}});
            }).rfind("updater 'nag': ScheduleParam: key 'lr:step': ", 0),
            0u);
  EXPECT_EQ(OptimErrorOf([] {
              CreateUpdater<cpu, float>("rmsprop", {{"lr:schedule", "cosine"}});
            }),
            "updater 'rmsprop': schedule: key 'lr:max_step': lr:schedule = "
            "cosine needs the number of units to decay over, e.g. lr:max_step "
            "= 10000; got 0");
}

TEST(UpdaterRegistry, SettingsAreRead) {
  auto sgd = CreateUpdater<cpu, float>(
      "sgd", {{"lr", "0.25"}, {"wd", "0.5"}, {"clip_gradient", "3"}});
  EXPECT_EQ(sgd->common().eta, 0.25f);
  EXPECT_EQ(sgd->common().wd, 0.5f);
  EXPECT_EQ(sgd->common().clip_gradient, 3.0f);
  auto defaults = CreateUpdater<cpu, float>("sgd", {});
  EXPECT_EQ(defaults->common().eta, 0.01f);  // cxxnet's default
}

}  // namespace
}  // namespace optim
}  // namespace umbra
