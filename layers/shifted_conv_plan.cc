#include "layers/shifted_conv_plan.h"

#include <algorithm>

namespace umbra {
namespace layers {
namespace {

// One group's shape with every group's planes (they lie one after another).
ShiftedConvShape AllGroups(ShiftedConvShape shape, index_t ngroup) {
  shape.channels *= ngroup;
  shape.out_channels *= ngroup;
  return shape;
}

// The weights of one group: wmat's rows of its output channels.
index_t GroupWeights(const ShiftedConvShape& shape) {
  return shape.out_channels * shape.channels * shape.kernel_y * shape.kernel_x;
}

}  // namespace

ShiftedConvPlan::ShiftedConvPlan(const ConvGeometry& g, index_t ngroup,
                                 index_t nchannel, index_t tasks)
    : geom_(g), ngroup_(ngroup) {
  forward_ =
      g.stride_y == 1 && g.stride_x == 1 && g.PatchSize() / ngroup >= kMinPatch;
  const index_t span_y = g.dilate_y * (g.kernel_y - 1);
  const index_t span_x = g.dilate_x * (g.kernel_x - 1);
  input_gradient_ = forward_ && g.pad_y <= span_y && g.pad_x <= span_x;
  const index_t group_in = g.channels / ngroup, group_out = nchannel / ngroup;
  if (forward_) {
    forward_shape_ = {group_in,
                      group_out,
                      g.kernel_y,
                      g.kernel_x,
                      g.dilate_y,
                      g.dilate_x,
                      g.height + 2 * g.pad_y,
                      ShiftedConvRowPitch(g.width, g.pad_x, g.out_width),
                      g.out_width};
    packed_forward_.resize(ngroup * ShiftedConvPackedSize(forward_shape_));
    const ShiftedConvShape all = AllGroups(forward_shape_, ngroup);
    padded_images_.assign(tasks * ShiftedConvInputSize(all), 0.f);
    dot_weight_gradient_ =
        g.out_height * forward_shape_.row_pitch >= kMinDotPositions;
    if (dot_weight_gradient_) {
      spread_grads_.assign(tasks * ShiftedConvGradientSize(all), 0.f);
    } else {
      transposed_grads_.assign(
          tasks * ngroup * ShiftedConvTransposedGradientSize(forward_shape_),
          0.f);
      weight_grads_t_.assign(tasks * ngroup * TransposedWeightsSize(), 0.f);
    }
  }
  if (input_gradient_) {
    adjoint_shape_ = {
        group_out,
        group_in,
        g.kernel_y,
        g.kernel_x,
        g.dilate_y,
        g.dilate_x,
        g.out_height + 2 * (span_y - g.pad_y),
        ShiftedConvRowPitch(g.out_width, span_x - g.pad_x, g.width),
        g.width};
    packed_adjoint_.resize(ngroup * ShiftedConvPackedSize(adjoint_shape_));
    padded_grads_.assign(
        tasks * ShiftedConvInputSize(AllGroups(adjoint_shape_, ngroup)), 0.f);
  }
  workspace_size_ = std::max(ShiftedConvWorkspaceSize(forward_shape_),
                             ShiftedConvWorkspaceSize(adjoint_shape_));
  workspaces_.resize(tasks * workspace_size_);
}

void ShiftedConvPlan::PackForwardWeights(const float* wmat) {
  Pack(forward_shape_, ShiftedConvWeights::kForward, wmat, &packed_forward_);
}

void ShiftedConvPlan::PackAdjointWeights(const float* wmat) {
  Pack(adjoint_shape_, ShiftedConvWeights::kAdjoint, wmat, &packed_adjoint_);
}

void ShiftedConvPlan::Pack(const ShiftedConvShape& shape,
                           ShiftedConvWeights which, const float* wmat,
                           std::vector<float>* packed) const {
  const index_t size = ShiftedConvPackedSize(shape);
  for (index_t g = 0; g < ngroup_; ++g) {
    PackShiftedConvWeights(shape, which, wmat + g * GroupWeights(shape),
                           packed->data() + g * size);
  }
}

void ShiftedConvPlan::Forward(index_t task, const float* image, float* out) {
  Run(forward_shape_, packed_forward_, task, image, geom_.height, geom_.width,
      geom_.pad_y, geom_.pad_x, &padded_images_, out);
}

void ShiftedConvPlan::InputGradient(index_t task, const float* out_grad,
                                    float* in_grad) {
  Run(adjoint_shape_, packed_adjoint_, task, out_grad, geom_.out_height,
      geom_.out_width, geom_.dilate_y * (geom_.kernel_y - 1) - geom_.pad_y,
      geom_.dilate_x * (geom_.kernel_x - 1) - geom_.pad_x, &padded_grads_,
      in_grad);
}

void ShiftedConvPlan::WeightGradient(index_t task, const float* image,
                                     const float* out_grad, float* wmat_grad) {
  const ShiftedConvShape& shape = forward_shape_;
  const ShiftedConvShape all = AllGroups(shape, ngroup_);
  float* padded = padded_images_.data() + task * ShiftedConvInputSize(all);
  PadPlanes(all, image, geom_.height, geom_.width, geom_.pad_y, geom_.pad_x,
            padded);
  const index_t plane = shape.padded_height * shape.row_pitch;
  if (dot_weight_gradient_) {
    float* spread = spread_grads_.data() + task * ShiftedConvGradientSize(all);
    SpreadOutputGradient(all, out_grad, spread);
    for (index_t g = 0; g < ngroup_; ++g) {
      ShiftedConvWeightGradient(
          shape, padded + g * shape.channels * plane,
          spread + g * shape.out_channels * ShiftedConvGradientPitch(shape),
          wmat_grad + g * GroupWeights(shape));
    }
    return;
  }
  const index_t transposed_size = ShiftedConvTransposedGradientSize(shape);
  const index_t out_plane = geom_.out_height * geom_.out_width;
  for (index_t g = 0; g < ngroup_; ++g) {
    float* transposed =
        transposed_grads_.data() + (task * ngroup_ + g) * transposed_size;
    TransposeOutputGradient(
        shape, out_grad + g * shape.out_channels * out_plane, transposed);
    ShiftedConvWeightGradientTransposed(
        shape, padded + g * shape.channels * plane, transposed,
        weight_grads_t_.data() +
            (task * ngroup_ + g) * TransposedWeightsSize());
  }
}

void ShiftedConvPlan::AddWeightGradient(index_t task, float* wmat_grad) {
  if (dot_weight_gradient_) return;
  const ShiftedConvShape& shape = forward_shape_;
  const index_t pairs = shape.channels * shape.kernel_y * shape.kernel_x;
  const index_t pitch = ShiftedConvChannelPitch(shape);
  for (index_t g = 0; g < ngroup_; ++g) {
    float* kept =
        weight_grads_t_.data() + (task * ngroup_ + g) * TransposedWeightsSize();
    float* group_grad = wmat_grad + g * GroupWeights(shape);
    for (index_t m = 0; m < shape.out_channels; ++m) {
      for (index_t k = 0; k < pairs; ++k) {
        group_grad[m * pairs + k] += kept[k * pitch + m];
      }
    }
    std::fill(kept, kept + TransposedWeightsSize(), 0.f);
  }
}

index_t ShiftedConvPlan::TransposedWeightsSize() const {
  const ShiftedConvShape& shape = forward_shape_;
  return shape.channels * shape.kernel_y * shape.kernel_x *
         ShiftedConvChannelPitch(shape);
}

void ShiftedConvPlan::Run(const ShiftedConvShape& shape,
                          const std::vector<float>& packed, index_t task,
                          const float* planes, index_t height, index_t width,
                          index_t pad_y, index_t pad_x,
                          std::vector<float>* padded, float* out) {
  const ShiftedConvShape all = AllGroups(shape, ngroup_);
  float* buffer = padded->data() + task * ShiftedConvInputSize(all);
  PadPlanes(all, planes, height, width, pad_y, pad_x, buffer);
  const index_t plane = shape.padded_height * shape.row_pitch;
  const index_t out_plane =
      ShiftedConvOutHeight(shape) * ShiftedConvOutWidth(shape);
  const index_t packed_size = ShiftedConvPackedSize(shape);
  for (index_t g = 0; g < ngroup_; ++g) {
    ShiftedConv(shape, packed.data() + g * packed_size,
                buffer + g * shape.channels * plane,
                workspaces_.data() + task * workspace_size_,
                out + g * shape.out_channels * out_plane);
  }
}

}  // namespace layers
}  // namespace umbra
