// Saving an updater's state and restoring it into a fresh updater gives
// bit-identical next steps, for every updater; mismatches are errors.
#include "train/optim/updater_state.h"

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "layers/layer.h"
#include "train/optim/optim_test_util.h"
#include "train/optim/updater_registry.h"

namespace umbra {
namespace optim {
namespace {

// Two weights, gradients drawn from a seeded generator.
struct Net {
  std::vector<float> w1, g1, w2, g2;
  layers::WeightParam bias_settings;

  Net() : w1(23, 0.5f), g1(23), w2(4, -0.25f), g2(4) {
    bias_settings.Init({{"lr_mult", "2"}});
  }
  std::vector<layers::WeightRef<cpu, float>> Weights() {
    std::vector<layers::WeightRef<cpu, float>> refs(2);
    refs[0].name = "fc1.wmat";
    refs[0].data = Tensor<cpu, 1, float>(w1.data(), Shape1(w1.size()));
    refs[0].grad = Tensor<cpu, 1, float>(g1.data(), Shape1(g1.size()));
    refs[1].name = "fc1.bias";
    refs[1].data = Tensor<cpu, 1, float>(w2.data(), Shape1(w2.size()));
    refs[1].grad = Tensor<cpu, 1, float>(g2.data(), Shape1(g2.size()));
    refs[1].settings = &bias_settings;
    return refs;
  }
  void DrawGradients(std::mt19937* gen) {
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (float& g : g1) g = normal(*gen);
    for (float& g : g2) g = normal(*gen);
  }
};

const ParamKwargs kKwargs = {{"eta", "0.05"},
                             {"wd", "0.001"},
                             {"lr:schedule", "cosine"},
                             {"lr:max_step", "20"},
                             {"lr:warmup", "2"}};

TEST(UpdaterState, ResumedTrainingIsBitIdentical) {
  for (const char* type : {"sgd", "nag", "adam", "adamw", "rmsprop"}) {
    Net original;
    auto updater = CreateUpdater<cpu, float>(type, kKwargs);
    for (const auto& w : original.Weights()) updater->AddWeight(w);
    std::mt19937 gen(3);
    for (int t = 0; t < 5; ++t) {
      original.DrawGradients(&gen);
      updater->Update();
    }
    updater->StartRound(1);
    const UpdaterState<float> saved = SaveUpdaterState(*updater);
    EXPECT_EQ(saved.type, type);
    EXPECT_EQ(saved.progress.num_update, 5);
    EXPECT_EQ(saved.progress.round, 1);
    EXPECT_EQ(saved.tensors.size(), 2 * updater->StateNames().size());
    EXPECT_EQ(saved.tensors[0].first, "fc1.wmat:" + updater->StateNames()[0]);

    // The checkpoint: weights and updater state; the rest starts afresh.
    Net resumed = original;
    auto fresh = CreateUpdater<cpu, float>(type, kKwargs);
    for (const auto& w : resumed.Weights()) fresh->AddWeight(w);
    LoadUpdaterState(saved, fresh.get());

    std::mt19937 gen_resumed = gen;
    for (int t = 0; t < 4; ++t) {
      original.DrawGradients(&gen);
      resumed.DrawGradients(&gen_resumed);
      updater->Update();
      fresh->Update();
      ASSERT_EQ(original.w1, resumed.w1) << type << " step " << t;
      ASSERT_EQ(original.w2, resumed.w2) << type << " step " << t;
    }
  }
}

TEST(UpdaterState, MismatchesAreErrors) {
  Net net;
  auto sgd = CreateUpdater<cpu, float>("sgd", {});
  for (const auto& w : net.Weights()) sgd->AddWeight(w);
  UpdaterState<float> saved = SaveUpdaterState(*sgd);

  auto adam = CreateUpdater<cpu, float>("adam", {});
  EXPECT_EQ(OptimErrorOf([&] { LoadUpdaterState(saved, adam.get()); }),
            "updater 'adam': the saved state is of updater 'sgd'");

  auto other = CreateUpdater<cpu, float>("sgd", {});
  other->AddWeight(net.Weights()[0]);
  EXPECT_EQ(OptimErrorOf([&] { LoadUpdaterState(saved, other.get()); }),
            "updater 'sgd': saved tensor 'fc1.bias:momentum' belongs to no "
            "weight of this updater");

  UpdaterState<float> short_state = saved;
  short_state.tensors[0].second.pop_back();
  auto same = CreateUpdater<cpu, float>("sgd", {});
  for (const auto& w : net.Weights()) same->AddWeight(w);
  EXPECT_EQ(OptimErrorOf([&] { LoadUpdaterState(short_state, same.get()); }),
            "updater 'sgd': saved tensor 'fc1.wmat:momentum' has 22 values; "
            "the weight has 23");
  short_state.tensors.erase(short_state.tensors.begin());
  EXPECT_EQ(OptimErrorOf([&] { LoadUpdaterState(short_state, same.get()); }),
            "updater 'sgd': the saved state has no tensor "
            "'fc1.wmat:momentum'");
}

}  // namespace
}  // namespace optim
}  // namespace umbra
