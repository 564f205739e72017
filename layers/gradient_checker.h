// GradientChecker: checks a layer's Backprop against central finite
// differences of its Forward, for every input element and every weight.
//
// The objective is sum_j <out_j.data, R_j> with fixed random R_j for an
// ordinary layer (so out_j.grad = R_j), and grad_scale * Loss() for a loss.
// The random generator is re-seeded before every Forward, so dropout and
// rrelu draw the same mask each time; inputs are kept at least 0.1 away
// from 0, the kink of the rectifiers, with magnitudes at least 0.45 / (all
// inputs' elements) apart, so that a max (pooling, eltwise_max) meets no
// tie within the double step (1e-6), and targets (Labels::kTargets) at
// least 0.1 away from their input, the kink of lp_loss at p = 1 (and the
// infinite curvature below p = 2), well beyond the finite-difference step
// (1e-2 in float). Before Backprop the input gradients are
// filled with garbage, so a layer that adds to them instead of writing them
// fails.
//
// Example:
//   LayerCase c{"fullc_odd", "fullc", {{"nhidden", "5"}},
//               {Shape4(3, 1, 1, 7)}};
//   EXPECT_TRUE(GradientChecker<double>(c, seed).Run());
#ifndef UMBRA_LAYERS_GRADIENT_CHECKER_H_
#define UMBRA_LAYERS_GRADIENT_CHECKER_H_

#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "layers/layer_cases.h"
#include "layers/standalone_layer.h"
#include "tensor/tensor.h"
#include "tensor/test_util.h"

namespace umbra {
namespace layers {

// Finite-difference step and tolerances per precision:
// |analytic - numeric| <= atol + rounding + rtol * max(|analytic|, |numeric|),
// where rounding = kRoundingUlps * epsilon * (the sum of the objective's
// terms' magnitudes) / (the step's width): the error the rounding of the
// outputs and of their sum can leave in the difference of two objectives.
// Without it, a layer with thousands of outputs (conv_direct: 3072) failed
// about 1 run in 100 in double by 2e-7, with nothing wrong.
template <typename DType>
struct GradientTolerance;
template <>
struct GradientTolerance<double> {
  static constexpr double kStep = 1e-6, kAbs = 1e-7, kRel = 1e-5;
  static constexpr double kRoundingUlps = 2;
};
template <>
struct GradientTolerance<float> {
  static constexpr double kStep = 1e-2, kAbs = 2e-3, kRel = 2e-2;
  // None: at this step the rounding of float outputs stays within kAbs.
  static constexpr double kRoundingUlps = 0;
};

template <typename DType>
class GradientChecker {
 public:
  GradientChecker(const LayerCase& c, unsigned seed)
      : case_(c), seed_(seed), engine_(seed) {
    net_ = std::make_unique<StandaloneLayer<cpu, DType>>(
        c.type, c.kwargs, c.inputs, c.num_outputs, c.in_place, int(seed));
    Layer<cpu, DType>& layer = net_->layer();
    // Magnitudes in [0.1, 1], distinct over all the inputs' elements, with
    // a random sign: no two inputs come near a tie, which a max (pooling,
    // eltwise_max) would straddle.
    index_t elements = 0;
    for (size_t i = 0; i < net_->num_in(); ++i) {
      elements += c.inputs[i].Size();
    }
    const std::vector<double> spread =
        test::DistinctUnitValues(elements, &engine_);
    auto next = spread.begin();
    for (size_t i = 0; i < net_->num_in(); ++i) {
      inputs_.emplace_back(c.inputs[i], false);
      Tensor<cpu, 1, DType> x = Flat(inputs_.back());
      for (index_t e = 0; e < x.size(0); ++e) {
        const double magnitude = 0.1 + 0.9 * *next++;
        x[e] = DType(Uniform(0, 1) < 0.5 ? -magnitude : magnitude);
      }
    }
    if (layer.is_loss()) {
      for (const auto& kv : c.kwargs) {
        if (kv.first == "grad_scale")
          grad_scale_ = std::atof(kv.second.c_str());
      }
      const Shape<4>& s = c.inputs[0];
      if (c.labels == LayerCase::Labels::kClassIndex) {
        Tensor<cpu, 2, DType> label = net_->AddLabel("label", Shape2(s[0], 1));
        for (index_t i = 0; i < s[0]; ++i) {
          label[i][0] = DType(
              std::uniform_int_distribution<int>(0, int(s[3]) - 1)(engine_));
        }
      } else {
        Tensor<cpu, 2, DType> label =
            net_->AddLabel("label", Shape2(s[0], s[3]));
        const Tensor<cpu, 1, DType> x = Flat(inputs_[0]);
        for (index_t i = 0; i < s[0]; ++i) {
          for (index_t k = 0; k < s[3]; ++k) {
            // At most 0.2 of [0, 1) is too close to the input: few redraws.
            do {
              label[i][k] = DType(Uniform(0, 1));
            } while (std::fabs(double(label[i][k]) - x[i * s[3] + k]) <
                     kTargetGap);
          }
        }
      }
    } else {
      for (size_t j = 0; j < net_->num_out(); ++j) {
        projections_.emplace_back(net_->out(j).data.shape_, false);
        Tensor<cpu, 1, DType> r = Flat(projections_.back());
        for (index_t e = 0; e < r.size(0); ++e) r[e] = DType(Uniform(-1, 1));
      }
    }
  }

  // The least distance of a target from its input (Labels::kTargets).
  static constexpr double kTargetGap = 0.1;
  static_assert(kTargetGap >= 10 * GradientTolerance<DType>::kStep,
                "targets must stay well beyond the finite-difference step "
                "from their input, or lp_loss at p = 1 straddles its kink");

  Layer<cpu, DType>& layer() { return net_->layer(); }
  StandaloneLayer<cpu, DType>& net() { return *net_; }

  // The objective at the current inputs and weights (runs Forward(true)),
  // and in *magnitude the sum of its terms' magnitudes (a loss's own
  // magnitude: its terms are the layer's).
  double Objective(double* magnitude = nullptr) {
    RestoreInputs();
    net_->rnd().Seed(int(seed_) + 1);
    layer().Forward(true);
    double sum = 0, sum_of_magnitudes = 0;
    if (layer().is_loss()) {
      sum = grad_scale_ * layer().Loss();
      sum_of_magnitudes = std::fabs(sum);
    } else {
      for (size_t j = 0; j < net_->num_out(); ++j) {
        Tensor<cpu, 1, DType> out = Flat(net_->out(j).data);
        Tensor<cpu, 1, DType> r = Flat(projections_[j]);
        for (index_t e = 0; e < out.size(0); ++e) {
          const double term = double(out[e]) * r[e];
          sum += term;
          sum_of_magnitudes += std::fabs(term);
        }
      }
    }
    if (magnitude != nullptr) *magnitude = sum_of_magnitudes;
    return sum;
  }

  // Compares the analytic gradients of every input and weight with finite
  // differences; the failure lists the first mismatches.
  ::testing::AssertionResult Run() {
    // Analytic.
    Objective();
    if (!layer().is_loss()) {
      for (size_t j = 0; j < net_->num_out(); ++j) {
        Copy(net_->out(j).grad, projections_[j].view());
      }
    }
    if (!case_.in_place) {
      for (size_t i = 0; i < net_->num_in(); ++i) net_->in(i).grad = DType(7);
    }
    layer().ZeroGradients();
    layer().Backprop(true);
    std::vector<TensorContainer<cpu, 4, DType>> in_grads;
    for (size_t i = 0; i < net_->num_in(); ++i) {
      in_grads.emplace_back(net_->in(i).grad.shape_, false);
      Copy(in_grads.back().view(), net_->in(i).grad);
    }
    std::vector<WeightRef<cpu, DType>> weights = layer().Weights();
    std::vector<TensorContainer<cpu, 1, DType>> weight_grads;
    for (const auto& w : weights) {
      weight_grads.emplace_back(w.grad.shape_, false);
      Copy(weight_grads.back().view(), w.grad);
    }
    // Numeric.
    for (size_t i = 0; i < net_->num_in(); ++i) {
      Compare("input " + std::to_string(i), Flat(inputs_[i]),
              Flat(in_grads[i]));
    }
    for (size_t w = 0; w < weights.size(); ++w) {
      Compare("weight " + weights[w].name, weights[w].data,
              weight_grads[w].view());
    }
    if (compared_ == 0 && layer().is_loss()) {
      return ::testing::AssertionFailure() << "nothing was compared";
    }
    if (mismatches_ == 0) {
      return ::testing::AssertionSuccess() << compared_ << " derivatives agree";
    }
    return ::testing::AssertionFailure()
           << case_.name << ": " << mismatches_ << " of " << compared_
           << " derivatives differ (seed " << seed_ << "):\n"
           << report_.str();
  }

 private:
  template <int dim>
  static Tensor<cpu, 1, DType> Flat(const Tensor<cpu, dim, DType>& t) {
    return Tensor<cpu, 1, DType>(t.dptr_, Shape1(t.shape_.Size()));
  }
  double Uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(engine_);
  }
  void RestoreInputs() {
    for (size_t i = 0; i < net_->num_in(); ++i) {
      Copy(net_->in(i).data, inputs_[i].view());
    }
  }
  // Perturbs each element of `values` (an input copy or a weight) and
  // compares the objective's slope with `analytic`.
  void Compare(const std::string& what, Tensor<cpu, 1, DType> values,
               Tensor<cpu, 1, DType> analytic) {
    using Tol = GradientTolerance<DType>;
    for (index_t e = 0; e < values.size(0); ++e) {
      const DType original = values[e];
      values[e] = DType(original + Tol::kStep);
      const double up_at = values[e];
      double up_magnitude, down_magnitude;
      const double up = Objective(&up_magnitude);
      values[e] = DType(original - Tol::kStep);
      const double down_at = values[e];
      const double down = Objective(&down_magnitude);
      values[e] = original;
      const double numeric = (up - down) / (up_at - down_at);
      const double rounding =
          Tol::kRoundingUlps * std::numeric_limits<DType>::epsilon() *
          std::max(up_magnitude, down_magnitude) / (up_at - down_at);
      const double a = analytic[e];
      const double scale = std::max(std::fabs(a), std::fabs(numeric));
      ++compared_;
      if (!(std::fabs(a - numeric) <=
            Tol::kAbs + rounding + Tol::kRel * scale)) {
        if (++mismatches_ <= 10) {
          report_ << "  " << what << " element " << e << ": backprop " << a
                  << ", finite difference " << numeric << "\n";
        }
      }
    }
  }

  LayerCase case_;
  unsigned seed_;
  std::mt19937 engine_;
  std::unique_ptr<StandaloneLayer<cpu, DType>> net_;
  std::vector<TensorContainer<cpu, 4, DType>> inputs_;
  std::vector<TensorContainer<cpu, 4, DType>> projections_;
  double grad_scale_ = 1.0;
  int compared_ = 0;
  int mismatches_ = 0;
  std::ostringstream report_;
};

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_GRADIENT_CHECKER_H_
