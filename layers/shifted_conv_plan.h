// What the CPU conv layer computes with the stride-1 kernel of
// layers/shifted_conv.h: its forward pass and its input gradient, image by
// image, group by group, with a padded copy of the image per task, each
// shape in the order MeasuredShiftedConvOrder picks.
//
// Example (in a conv layer's Setup, Forward and Backprop):
//   ShiftedConvPlan plan(geometry, ngroup, nchannel, tasks);
//   if (plan.forward()) {
//     plan.PackForwardWeights(wmat);            // before each Forward
//     plan.Forward(task, image, image_out);     // any thread, its task
//   }
//   plan.WeightGradient(task, image, out_grad, wmat_grad);  // each image
//   // (or, with plan.KeepPaddedImages(batch), Forward(task, image,
//   // image_out, n) and WeightGradient(task, image, out_grad, wmat_grad, n)
//   // for image n, which pads it once)
//   plan.AddWeightGradient(task, wmat_grad);                 // at the end
//   if (plan.input_gradient()) {
//     plan.PackAdjointWeights(wmat);
//     plan.InputGradient(task, out_grad, in_grad);
//   }
#ifndef UMBRA_LAYERS_SHIFTED_CONV_PLAN_H_
#define UMBRA_LAYERS_SHIFTED_CONV_PLAN_H_

#include <vector>

#include "layers/shifted_conv.h"
#include "layers/spatial_ops.h"

namespace umbra {
namespace layers {

class ShiftedConvPlan {
 public:
  ShiftedConvPlan() = default;
  // For a conv of geometry `g` into `nchannel` channels in `ngroup` groups,
  // run by `tasks` tasks at once.
  ShiftedConvPlan(const ConvGeometry& g, index_t ngroup, index_t nchannel,
                  index_t tasks);

  // Whether the kernel computes the forward pass: at least kMinPatch
  // products per output (channels / ngroup * kernel_y * kernel_x; with
  // fewer, storing the outputs outweighs computing them: a 1-channel 3x3
  // conv's backward pass was 1.1x slower than im2col + matrix product, while
  // LeNet's 1-channel 5x5 conv1 is 1.1x faster on the kernel), and stride 1,
  // or a stride with dilate 1, one group and a kernel at least as large as
  // the stride, on the image's phase planes (layers/shifted_conv.h).
  bool forward() const { return forward_; }
  static constexpr index_t kMinPatch = 16;
  // Whether it computes the input gradient: forward(), and with stride 1
  // padding at most dilate * (kernel - 1), so that the output gradient's
  // own padding is not negative. With a stride, the input gradient of the
  // stride-1 convolution of the phase planes, taken apart into the image.
  bool input_gradient() const { return input_gradient_; }
  // It computes the weight gradient whenever forward(): on planes of at
  // least kMinDotPositions positions (out_height * row pitch) as sums
  // over positions, each ending in a horizontal sum per weight and image;
  // on smaller planes, where those sums would outweigh the products (LeNet's
  // conv2 on 14x14: 1.1x slower than im2col + matrix product), transposed,
  // output channels along the vectors, into the plan's own accumulators
  // that AddWeightGradient adds to wmat's gradient.
  static constexpr index_t kMinDotPositions = 512;

  // Packs wmat (nchannel, channels / ngroup, kernel_y, kernel_x) for
  // Forward, or for InputGradient: call it whenever wmat may have changed.
  void PackForwardWeights(const float* wmat);
  void PackAdjointWeights(const float* wmat);

  // Keeps the padded planes of up to `images` images (0: none) from Forward
  // for WeightGradient, PaddedImageSize() floats each (zeroed when
  // allocated).
  void KeepPaddedImages(index_t images);
  index_t kept_images() const { return kept_images_; }
  index_t PaddedImageSize() const;

  // out (nchannel, out_height, out_width) = the convolution of one image
  // (channels, height, width), padded in task `task`'s buffer, or with
  // kept >= 0 (< kept_images()) in kept image `kept`'s planes.
  void Forward(index_t task, const float* image, float* out, index_t kept = -1);
  // in_grad (channels, height, width) = the input gradient of one image
  // given its output gradient (nchannel, out_height, out_width).
  void InputGradient(index_t task, const float* out_grad, float* in_grad);
  // wmat_grad (as wmat) += the weight gradient of one image given the
  // image and its output gradient, now or at the task's next
  // AddWeightGradient; with kept >= 0, of the image that the last Forward
  // with that `kept` padded (`image` is not read).
  void WeightGradient(index_t task, const float* image, const float* out_grad,
                      float* wmat_grad, index_t kept = -1);
  // wmat_grad += what WeightGradient kept in task's accumulators, which
  // start again from 0.
  void AddWeightGradient(index_t task, float* wmat_grad);

 private:
  // Packs wmat for `shape` in `order` group by group into `packed`.
  void Pack(const ShiftedConvShape& shape, ShiftedConvOrder order,
            ShiftedConvWeights which, const float* wmat,
            std::vector<float>* packed) const;
  // With a stride: plans the input gradient phase by phase.
  void PlanPhaseAdjoints(index_t tasks);
  // Floats of one group's transposed weight gradient accumulators.
  index_t TransposedWeightsSize() const;
  // Runs `shape` in `order` with its pair `offsets` and `packed` group by
  // group in task `task` (the weights for group g at g * their packed
  // size): pads `planes` (shape.channels * ngroup of height x width, padded
  // by pad_y, pad_x) into `padded` and convolves it into `out`.
  void Run(index_t task, const ShiftedConvShape& shape, ShiftedConvOrder order,
           const std::vector<int64_t>& offsets,
           const std::vector<float>& packed, const float* planes,
           index_t height, index_t width, index_t pad_y, index_t pad_x,
           float* padded, float* out);
  // Where Forward pads image `kept` (>= 0), else task's image.
  float* PaddedImage(index_t task, index_t kept);
  // Task's scratch for the kernel (ShiftedConvScratchSize).
  float* Scratch(index_t task);

  ConvGeometry geom_;
  index_t ngroup_ = 1;
  bool strided_ = false;  // a stride > 1: on the phase planes
  bool forward_ = false, input_gradient_ = false;
  bool dot_weight_gradient_ = false;                    // else transposed
  ShiftedConvShape forward_shape_{}, adjoint_shape_{};  // one group's
  // The orders they run in (MeasuredShiftedConvOrder).
  ShiftedConvOrder forward_order_ = ShiftedConvOrder::kPositions;
  ShiftedConvOrder adjoint_order_ = ShiftedConvOrder::kPositions;
  std::vector<float> packed_forward_, packed_adjoint_;  // every group's
  // ShiftedConvPairOffsets of forward_shape_ and adjoint_shape_.
  std::vector<int64_t> forward_offsets_, adjoint_offsets_;
  // Per task: the padded image, the padded output gradient, the output
  // gradient spread at the image's pitch (dot) or transposed, every
  // group's, and the transposed weight gradient's accumulators.
  std::vector<float> padded_images_, padded_grads_, spread_grads_;
  // The padded images Forward keeps for WeightGradient.
  index_t kept_images_ = 0;
  std::vector<float> kept_padded_;
  std::vector<float> transposed_grads_, weight_grads_t_;
  // Per task: the kernel's scratch for the largest of its shapes.
  index_t scratch_size_ = 0;
  std::vector<float> scratch_;
  // With a stride, the input gradient of each phase of the image: the
  // stride-1 input gradient of the convolution of its phase planes by its
  // taps of wmat, with its own padded output gradient (at padded_offset in
  // a task's phase_padded_size_ floats of padded_grads_) and packed
  // weights (at packed_offset in packed_adjoint_), and its shape's pair
  // offsets.
  struct PhaseAdjoint {
    index_t py, px;
    ShiftedConvShape shape;
    ShiftedConvOrder order;
    index_t packed_offset, padded_offset;
    std::vector<int64_t> offsets;
  };
  std::vector<PhaseAdjoint> phase_adjoints_;
  index_t phase_padded_size_ = 0;
  // The taps of one phase (PackAdjointWeights's) and, per task, the phase
  // planes' gradient (phase_grad_size_ floats).
  std::vector<float> phase_weights_, phase_grads_;
  index_t phase_grad_size_ = 0;
};

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_SHIFTED_CONV_PLAN_H_
