// Every updater against a reference written here with plain loops in
// double, over several steps on random weights and gradients, in float and
// double; closed-form first steps; weight decay, clipping, per-tag
// overrides and the schedule inside the updater.
#include "train/optim/updater.h"

#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "layers/layer.h"
#include "tensor/tensor.h"
#include "train/optim/optim_test_util.h"
#include "train/optim/updater_registry.h"

namespace umbra {
namespace optim {
namespace {

using ::testing::HasSubstr;

// The settings the reference reads; defaults are the updaters' defaults.
struct RefParams {
  std::string type;
  double lr = 0.01;
  double wd = 0.0;
  double clip = 0.0;
  double momentum = 0.9;
  // The keys' values, as cxxnet reads them: 1 - the decay rates.
  double beta1 = 0.1;
  double beta2 = 0.001;
  double epsilon = 1e-8;
  double rho = 0.9;
};

// One weight of the reference, in double.
struct RefWeight {
  std::vector<double> w, s1, s2;
};

double RefClip(double g, double c) {
  if (c <= 0) return g;
  if (std::isnan(g)) return 0.0;
  return std::max(-c, std::min(c, g));
}

// One step of p.type on `r` with gradient `g` (step t, 1-based, rate lr).
void RefStep(const RefParams& p, double lr, long t,
             const std::vector<double>& g, RefWeight* r) {
  const size_t n = r->w.size();
  r->s1.resize(n, 0.0);
  r->s2.resize(n, 0.0);
  for (size_t i = 0; i < n; ++i) {
    double& w = r->w[i];
    const double gc = RefClip(g[i], p.clip);
    const double coupled = gc + p.wd * w;
    if (p.type == "sgd") {
      double& m = r->s1[i];
      m = p.momentum * m + (-lr) * coupled;
      w += m;
    } else if (p.type == "nag") {
      double& m = r->s1[i];
      const double old_m = m;
      m = p.momentum * m - lr * coupled;
      w += (1 + p.momentum) * m - p.momentum * old_m;
    } else if (p.type == "adam" || p.type == "adamw") {
      const bool decoupled = p.type == "adamw";
      const double grad = decoupled ? gc : coupled;
      double& m = r->s1[i];
      double& v = r->s2[i];
      const double decay1 = 1 - p.beta1, decay2 = 1 - p.beta2;
      m = decay1 * m + p.beta1 * grad;
      v = decay2 * v + p.beta2 * grad * grad;
      const double m_hat = m / (1 - std::pow(decay1, t));
      const double v_hat = v / (1 - std::pow(decay2, t));
      double step = m_hat / (std::sqrt(v_hat) + p.epsilon);
      if (decoupled) step += p.wd * w;
      w -= lr * step;
    } else if (p.type == "rmsprop") {
      double& v = r->s1[i];
      v = p.rho * v + (1 - p.rho) * coupled * coupled;
      w -= lr * coupled / (std::sqrt(v) + p.epsilon);
    } else {
      FAIL() << "no reference for " << p.type;
    }
  }
}

// `x` as text that reads back as x.
std::string Text(double x) {
  std::ostringstream os;
  os.precision(17);
  os << x;
  return os.str();
}

// The settings as the updaters hold them: float fields.
double F32(double x) { return static_cast<double>(static_cast<float>(x)); }
RefParams AsStored(RefParams p) {
  for (double* x : {&p.lr, &p.wd, &p.clip, &p.momentum, &p.beta1, &p.beta2,
                    &p.epsilon, &p.rho}) {
    *x = F32(*x);
  }
  return p;
}

ParamKwargs KwargsOf(const RefParams& p) {
  ParamKwargs kwargs = {
      {"eta", Text(p.lr)}, {"wd", Text(p.wd)}, {"clip_gradient", Text(p.clip)}};
  if (p.type == "sgd" || p.type == "nag") {
    kwargs.push_back({"momentum", Text(p.momentum)});
  } else if (p.type == "adam" || p.type == "adamw") {
    kwargs.push_back({"beta1", Text(p.beta1)});
    kwargs.push_back({"beta2", Text(p.beta2)});
    kwargs.push_back({"epsilon", Text(p.epsilon)});
  } else if (p.type == "rmsprop") {
    kwargs.push_back({"rho", Text(p.rho)});
    kwargs.push_back({"epsilon", Text(p.epsilon)});
  }
  return kwargs;
}

// A weight's storage for the updater under test.
template <typename DType>
struct TestWeight {
  std::string name;
  std::string tag;
  std::vector<DType> data;
  std::vector<DType> grad;
  std::unique_ptr<layers::WeightParam> settings;

  layers::WeightRef<cpu, DType> Ref() {
    layers::WeightRef<cpu, DType> ref;
    ref.name = name;
    ref.tag = tag;
    ref.data = Tensor<cpu, 1, DType>(data.data(), Shape1(data.size()));
    ref.grad = Tensor<cpu, 1, DType>(grad.data(), Shape1(grad.size()));
    ref.settings = settings.get();
    return ref;
  }
};

template <typename DType>
double Tolerance() {
  return std::is_same<DType, float>::value ? 2e-5 : 1e-12;
}

template <typename DType>
class UpdaterTest : public ::testing::Test {
 protected:
  // Runs `steps` updates of an updater made from `p` (plus `extra` keys)
  // on two random weights and compares with the reference; `rate(t)` is
  // the scheduled rate of step t (0-based) for base rate 1. With `second`,
  // the second weight has its rule keys and clip_gradient of its own
  // (SetWeightSettings); its lr and wd are p's.
  void CheckAgainstReference(const RefParams& given, int steps,
                             const ParamKwargs& extra = {},
                             double (*rate)(long) = nullptr,
                             const RefParams* second = nullptr) {
    const RefParams p = AsStored(given);
    ParamKwargs kwargs = KwargsOf(given);
    kwargs.insert(kwargs.end(), extra.begin(), extra.end());
    auto updater = CreateUpdater<cpu, DType>(p.type, kwargs);
    const RefParams second_p = second ? AsStored(*second) : p;
    std::mt19937 gen(7);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    // 37: packets and a scalar tail; 1000: cut between the threads when
    // the parallel threshold is lowered (StepsSplitOverThreads).
    const size_t sizes[] = {37, 5, 1000};
    std::vector<TestWeight<DType>> weights(3);
    std::vector<RefWeight> refs(3);
    for (size_t k = 0; k < weights.size(); ++k) {
      weights[k].name = "fc" + std::to_string(k) + ".wmat";
      weights[k].tag = "wmat";
      for (size_t i = 0; i < sizes[k]; ++i) {
        weights[k].data.push_back(DType(uniform(gen)));
        weights[k].grad.push_back(DType(0));
      }
      refs[k].w.assign(weights[k].data.begin(), weights[k].data.end());
      updater->AddWeight(weights[k].Ref());
    }
    if (second != nullptr) {
      ParamKwargs own;
      for (const auto& pair : KwargsOf(*second)) {
        if (pair.first != "eta" && pair.first != "wd") own.push_back(pair);
      }
      updater->SetWeightSettings(weights[1].name, own);
    }
    for (int t = 0; t < steps; ++t) {
      const double lr = p.lr * (rate ? rate(t) : 1.0);
      for (size_t k = 0; k < weights.size(); ++k) {
        std::vector<double> g;
        for (DType& x : weights[k].grad) {
          x = DType(2.0 * uniform(gen));
          g.push_back(x);
        }
        RefStep(k == 1 ? second_p : p, lr, t + 1, g, &refs[k]);
      }
      updater->Update();
      for (size_t k = 0; k < weights.size(); ++k) {
        for (size_t i = 0; i < weights[k].data.size(); ++i) {
          const double want = refs[k].w[i];
          ASSERT_NEAR(weights[k].data[i], want,
                      Tolerance<DType>() * std::max(1.0, std::fabs(want)))
              << p.type << " step " << t << " weight " << k << " element " << i;
          ASSERT_EQ(weights[k].grad[i], DType(0)) << "gradient not cleared";
        }
      }
    }
    EXPECT_EQ(updater->progress().num_update, steps);
  }
};

using DTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(UpdaterTest, DTypes);

TYPED_TEST(UpdaterTest, EveryUpdaterMatchesTheReference) {
  for (const char* type : {"sgd", "nag", "adam", "adamw", "rmsprop"}) {
    RefParams p;
    p.type = type;
    p.lr = 0.05;
    this->CheckAgainstReference(p, 6);
  }
}

TYPED_TEST(UpdaterTest, WeightDecayAndOtherSettings) {
  for (const char* type : {"sgd", "nag", "adam", "adamw", "rmsprop"}) {
    RefParams p;
    p.type = type;
    p.lr = 0.02;
    p.wd = 0.1;
    p.momentum = 0.5;
    p.beta1 = 0.2;
    p.beta2 = 0.01;
    p.epsilon = 1e-3;
    p.rho = 0.7;
    this->CheckAgainstReference(p, 5);
  }
}

// A weight of the parallel threshold or more is cut between the pool's
// threads; the result is the reference's, and bit for bit the same as on
// one thread.
TYPED_TEST(UpdaterTest, StepsSplitOverThreads) {
  using DType = TypeParam;
  const index_t threshold = GetParallelThreshold();
  SetParallelThreshold(256);
  for (const char* type : {"sgd", "nag", "adam", "adamw", "rmsprop"}) {
    for (double clip : {0.0, 0.5}) {
      RefParams p;
      p.type = type;
      p.lr = 0.03;
      p.wd = 0.01;
      p.clip = clip;
      SetNumThreads(3);
      this->CheckAgainstReference(p, 3);
      std::vector<std::vector<DType>> results;
      for (int threads : {1, 3}) {
        SetNumThreads(threads);
        auto updater = CreateUpdater<cpu, DType>(type, KwargsOf(p));
        TestWeight<DType> weight;
        weight.name = "fc.wmat";
        weight.tag = "wmat";
        for (int i = 0; i < 1000; ++i) {
          weight.data.push_back(DType(std::sin(i)));
          weight.grad.push_back(DType(std::cos(3 * i)));
        }
        updater->AddWeight(weight.Ref());
        updater->Update();
        results.push_back(weight.data);
      }
      EXPECT_EQ(results[0], results[1]) << type << " clip " << clip;
    }
  }
  SetNumThreads(0);
  SetParallelThreshold(threshold);
}

TYPED_TEST(UpdaterTest, ClippedGradients) {
  for (const char* type : {"sgd", "nag", "adam", "adamw", "rmsprop"}) {
    RefParams p;
    p.type = type;
    p.lr = 0.03;
    p.wd = 0.01;
    p.clip = 0.5;  // gradients are drawn from [-2, 2]
    this->CheckAgainstReference(p, 4);
  }
}

// cxxnet's per-weight updaters: one weight's rule keys (beta1 inside a
// layer, bias:momentum_schedule) are its own, the other follows the
// updater's.
TYPED_TEST(UpdaterTest, AWeightsOwnRuleKeysOverrideTheUpdaters) {
  for (const char* type : {"sgd", "nag", "adam", "adamw", "rmsprop"}) {
    RefParams p;
    p.type = type;
    p.lr = 0.04;
    p.wd = 0.01;
    RefParams own = p;
    own.clip = 0.5;  // gradients are drawn from [-2, 2]
    own.momentum = 0.3;
    own.beta1 = 0.4;
    own.beta2 = 0.05;
    own.epsilon = 1e-2;
    own.rho = 0.5;
    this->CheckAgainstReference(p, 5, {}, nullptr, &own);
  }
}

double FactorEveryTwo(long t) { return std::pow(F32(0.1), t / 2); }

TYPED_TEST(UpdaterTest, TheScheduleScalesTheRate) {
  for (const char* type : {"sgd", "adam"}) {
    RefParams p;
    p.type = type;
    p.lr = 0.1;
    this->CheckAgainstReference(
        p, 5,
        {{"lr:schedule", "factor"}, {"lr:step", "2"}, {"lr:minimum_lr", "0"}},
        &FactorEveryTwo);
  }
}

// Closed forms of a first step.
TYPED_TEST(UpdaterTest, FirstStepsInClosedForm) {
  using DType = TypeParam;
  std::vector<DType> w = {1, -2, 3}, g = {0.5, -4, 0};
  const std::vector<DType> w0 = w;
  layers::WeightRef<cpu, DType> ref;
  ref.name = "fc1.wmat";
  ref.data = Tensor<cpu, 1, DType>(w.data(), Shape1(3));
  ref.grad = Tensor<cpu, 1, DType>(g.data(), Shape1(3));

  // sgd, no momentum: w - lr * (g + wd * w).
  auto sgd = CreateUpdater<cpu, DType>(
      "sgd", {{"eta", "0.5"}, {"momentum", "0"}, {"wd", "0.25"}});
  sgd->AddWeight(ref);
  sgd->Update();
  EXPECT_NEAR(w[0], 1 - 0.5 * (0.5 + 0.25), 1e-6);
  EXPECT_NEAR(w[1], -2 - 0.5 * (-4 - 0.5), 1e-6);
  EXPECT_NEAR(w[2], 3 - 0.5 * 0.75, 1e-6);

  // adam's first step is lr * sign(g) (bias correction makes m_hat = g,
  // v_hat = g^2), 0 where g = 0.
  w = w0;
  g = {0.5, -4, 0};
  auto adam = CreateUpdater<cpu, DType>("adam", {{"eta", "0.01"}});
  adam->AddWeight(ref);
  adam->Update();
  EXPECT_NEAR(w[0], 1 - 0.01, 1e-6);
  EXPECT_NEAR(w[1], -2 + 0.01, 1e-6);
  EXPECT_EQ(w[2], DType(3));

  // adamw with zero gradient: only the decoupled decay, w (1 - lr wd).
  w = w0;
  g = {0, 0, 0};
  auto adamw =
      CreateUpdater<cpu, DType>("adamw", {{"eta", "0.1"}, {"wd", "0.5"}});
  adamw->AddWeight(ref);
  adamw->Update();
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(w[i], w0[i] * 0.95, 1e-6);
}

TEST(UpdaterClip, NanGradientsBecomeZeroWhenClipping) {
  std::vector<float> w = {1, 1, 1}, g = {std::nanf(""), 10, -10};
  layers::WeightRef<cpu, float> ref;
  ref.name = "w";
  ref.data = Tensor<cpu, 1, float>(w.data(), Shape1(3));
  ref.grad = Tensor<cpu, 1, float>(g.data(), Shape1(3));
  auto sgd = CreateUpdater<cpu, float>(
      "sgd", {{"eta", "1"}, {"momentum", "0"}, {"clip_gradient", "2"}});
  sgd->AddWeight(ref);
  sgd->Update();
  EXPECT_EQ(w[0], 1.0f);
  EXPECT_EQ(w[1], -1.0f);
  EXPECT_EQ(w[2], 3.0f);
}

layers::WeightRef<cpu, double> WeightOf(const char* name,
                                        std::vector<double>* w,
                                        std::vector<double>* g,
                                        const layers::WeightParam* settings) {
  layers::WeightRef<cpu, double> ref;
  ref.name = name;
  ref.data = Tensor<cpu, 1, double>(w->data(), Shape1(w->size()));
  ref.grad = Tensor<cpu, 1, double>(g->data(), Shape1(g->size()));
  ref.settings = settings;
  return ref;
}

// Per-tag settings from the layer (`bias:lr`, `bias:wd`, `wmat:lr_mult`)
// override the updater's for that weight alone.
TEST(UpdaterOverrides, LayerSettingsOverrideTheUpdaters) {
  std::vector<double> wm = {1, 2}, gm = {1, 1}, wb = {1, 2}, gb = {1, 1},
                      wp = {1, 2}, gp = {1, 1};
  layers::WeightParam wmat, bias;
  wmat.Init({{"lr_mult", "2"}});
  bias.Init({{"lr", "0.5"}, {"wd", "0"}});
  auto sgd = CreateUpdater<cpu, double>(
      "sgd", {{"eta", "0.125"}, {"wd", "0.5"}, {"momentum", "0"}});
  sgd->AddWeight(WeightOf("fc1.wmat", &wm, &gm, &wmat));
  sgd->AddWeight(WeightOf("fc1.bias", &wb, &gb, &bias));
  sgd->AddWeight(WeightOf("plain", &wp, &gp, nullptr));
  EXPECT_DOUBLE_EQ(sgd->CurrentRate("fc1.wmat"), 0.25);
  EXPECT_DOUBLE_EQ(sgd->CurrentRate("fc1.bias"), 0.5);
  EXPECT_DOUBLE_EQ(sgd->CurrentRate("plain"), 0.125);
  sgd->Update();
  // wmat: lr 0.25, wd 0.5; bias: lr 0.5, wd 0; plain: lr 0.125, wd 0.5.
  EXPECT_DOUBLE_EQ(wm[1], 2 - 0.25 * (1 + 0.5 * 2));
  EXPECT_DOUBLE_EQ(wb[1], 2 - 0.5 * 1);
  EXPECT_DOUBLE_EQ(wp[1], 2 - 0.125 * (1 + 0.5 * 2));
}

// A layer's `momentum` (cxxnet's momentum inside a layer, `bias:momentum`)
// is its weight's own; the others keep the updater's.
TEST(UpdaterOverrides, LayerMomentumOverridesTheUpdaters) {
  std::vector<double> wl = {0}, wp = {0}, gl = {1}, gp = {1};
  layers::WeightParam own;
  own.Init({{"momentum", "0.5"}});
  auto sgd = CreateUpdater<cpu, double>("sgd", {{"eta", "1"}});
  sgd->AddWeight(WeightOf("fc1.bias", &wl, &gl, &own));
  sgd->AddWeight(WeightOf("plain", &wp, &gp, nullptr));
  for (int step = 0; step < 2; ++step) {
    gl[0] = gp[0] = 1;
    sgd->Update();
  }
  // m1 = -1, m2 = momentum * m1 - 1; w = m1 + m2.
  EXPECT_DOUBLE_EQ(wl[0], -1 + (0.5 * -1 - 1));
  EXPECT_DOUBLE_EQ(wp[0], -1 + (F32(0.9) * -1 - 1));
}

// momentum_schedule ramps every weight's momentum (its own too) from
// base_momentum to final_momentum over saturation_epoch updates.
TEST(UpdaterMomentumSchedule, RampsFromBaseToFinalOverSaturationEpoch) {
  std::vector<double> w = {0}, g = {0};
  layers::WeightParam own;
  own.Init({{"momentum", "0.1"}});
  auto sgd = CreateUpdater<cpu, double>("sgd", {{"eta", "1"},
                                                {"momentum_schedule", "1"},
                                                {"base_momentum", "0.5"},
                                                {"final_momentum", "0.75"},
                                                {"saturation_epoch", "4"}});
  sgd->AddWeight(WeightOf("w", &w, &g, &own));
  double m = 0, expected_w = 0;
  for (int t = 0; t < 7; ++t) {
    g[0] = 1;
    sgd->Update();
    // 0.5, 0.5625, 0.625, 0.6875, then 0.75 from update 4 on.
    const double momentum = 0.5 + 0.25 * std::min(t, 4) / 4.0;
    m = momentum * m - 1;
    expected_w += m;
    EXPECT_NEAR(w[0], expected_w, 1e-6) << "update " << t;
  }
  EXPECT_THAT(OptimErrorOf([] {
                CreateUpdater<cpu, double>("nag", {{"momentum_schedule", "1"}});
              }),
              HasSubstr("momentum_schedule = 1 needs saturation_epoch"));
}

// A weight's own schedule (cxxnet's lr:* keys inside a layer): the
// updater's lr:* keys with the weight's on top; the others keep the
// updater's.
TEST(UpdaterSchedules, AWeightsOwnScheduleOverridesTheUpdaters) {
  std::vector<double> wa = {0}, ga = {0}, wb = {0}, gb = {0};
  auto sgd = CreateUpdater<cpu, double>("sgd", {{"eta", "1"},
                                                {"lr:schedule", "factor"},
                                                {"lr:step", "2"},
                                                {"lr:factor", "0.5"}});
  sgd->AddWeight(WeightOf("own", &wa, &ga, nullptr));
  sgd->AddWeight(WeightOf("plain", &wb, &gb, nullptr));
  sgd->SetWeightSettings("own", {{"lr:step", "1"}, {"lr:factor", "0.25"}});
  for (int t = 0; t < 3; ++t) sgd->Update();
  // After 3 updates: own 0.25^3, plain 0.5^(3 / 2) = 0.5.
  EXPECT_DOUBLE_EQ(sgd->CurrentRate("own"), 0.25 * 0.25 * 0.25);
  EXPECT_DOUBLE_EQ(sgd->CurrentRate("plain"), 0.5);
  // A weight's eta and wd are its layer's settings, not updater keys.
  EXPECT_THAT(OptimErrorOf([&] {
                sgd->SetWeightSettings("own", {{"wd", "1"}});
              }),
              HasSubstr("weight 'own': unknown key 'wd'"));
  EXPECT_THAT(OptimErrorOf([&] {
                sgd->SetWeightSettings("none", {{"lr:step", "1"}});
              }),
              HasSubstr("no weight named 'none'"));
  EXPECT_THAT(OptimErrorOf([&] {
                sgd->SetWeightSettings("own", {{"momentum_schedule", "1"}});
              }),
              HasSubstr("updater 'sgd': weight 'own': momentum_schedule = 1 "
                        "needs saturation_epoch"));
}

TEST(UpdaterWeights, DuplicateLateAndMismatchedWeightsAreErrors) {
  std::vector<float> w(4), g(4), g3(3);
  layers::WeightRef<cpu, float> ref;
  ref.name = "fc1.wmat";
  ref.data = Tensor<cpu, 1, float>(w.data(), Shape1(4));
  ref.grad = Tensor<cpu, 1, float>(g.data(), Shape1(4));
  auto sgd = CreateUpdater<cpu, float>("sgd", {});
  sgd->AddWeight(ref);
  try {
    sgd->AddWeight(ref);
    FAIL();
  } catch (const OptimError& e) {
    EXPECT_STREQ(e.what(), "updater 'sgd': weight 'fc1.wmat' is added twice");
  }
  layers::WeightRef<cpu, float> bad = ref;
  bad.name = "fc1.bias";
  bad.grad = Tensor<cpu, 1, float>(g3.data(), Shape1(3));
  EXPECT_THROW(sgd->AddWeight(bad), OptimError);
  sgd->Update();
  bad.grad = ref.grad;
  try {
    sgd->AddWeight(bad);
    FAIL();
  } catch (const OptimError& e) {
    EXPECT_STREQ(e.what(),
                 "updater 'sgd': weight 'fc1.bias' added after 1 updates; "
                 "add every weight first");
  }
  EXPECT_THROW(sgd->CurrentRate("nope"), OptimError);
}

}  // namespace
}  // namespace optim
}  // namespace umbra
