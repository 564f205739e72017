#include "layers/shifted_conv_plan.h"

#include <algorithm>

#include "layers/shifted_conv_order.h"

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

// ShiftedConvPairOffsets of `shape`, once per plan.
std::vector<int64_t> PairOffsets(const ShiftedConvShape& shape) {
  std::vector<int64_t> offsets(ShiftedConvPairs(shape));
  ShiftedConvPairOffsets(shape, offsets.data());
  return offsets;
}

}  // namespace

ShiftedConvPlan::ShiftedConvPlan(const ConvGeometry& g, index_t ngroup,
                                 index_t nchannel, index_t tasks)
    : geom_(g), ngroup_(ngroup) {
  strided_ = g.stride_y > 1 || g.stride_x > 1;
  const bool phases_apply = ngroup == 1 && g.dilate_y == 1 && g.dilate_x == 1 &&
                            g.kernel_y >= g.stride_y &&
                            g.kernel_x >= g.stride_x;
  forward_ = g.PatchSize() / ngroup >= kMinPatch && (!strided_ || phases_apply);
  const index_t span_y = g.dilate_y * (g.kernel_y - 1);
  const index_t span_x = g.dilate_x * (g.kernel_x - 1);
  input_gradient_ =
      forward_ && (strided_ || (g.pad_y <= span_y && g.pad_x <= span_x));
  const index_t group_in = g.channels / ngroup, group_out = nchannel / ngroup;
  if (strided_ && forward_) {
    forward_shape_ = {group_in,
                      group_out,
                      g.kernel_y,
                      g.kernel_x,
                      1,
                      1,
                      g.out_height + (g.kernel_y - 1) / g.stride_y,
                      g.out_width + (g.kernel_x - 1) / g.stride_x,
                      g.out_width,
                      g.stride_y,
                      g.stride_x};
  } else if (forward_) {
    forward_shape_ = {group_in,
                      group_out,
                      g.kernel_y,
                      g.kernel_x,
                      g.dilate_y,
                      g.dilate_x,
                      g.height + 2 * g.pad_y,
                      ShiftedConvRowPitch(g.width, g.pad_x, g.out_width),
                      g.out_width};
  }
  if (forward_) {
    forward_order_ = MeasuredShiftedConvOrder(forward_shape_);
    packed_forward_.resize(
        ngroup * ShiftedConvPackedSize(forward_shape_, forward_order_));
    forward_offsets_ = PairOffsets(forward_shape_);
    scratch_size_ = ShiftedConvScratchSize(forward_shape_, forward_order_);
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
  if (input_gradient_ && strided_) {
    PlanPhaseAdjoints(tasks);
  } else if (input_gradient_) {
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
    adjoint_order_ = MeasuredShiftedConvOrder(adjoint_shape_);
    packed_adjoint_.resize(
        ngroup * ShiftedConvPackedSize(adjoint_shape_, adjoint_order_));
    adjoint_offsets_ = PairOffsets(adjoint_shape_);
    scratch_size_ = std::max(
        scratch_size_, ShiftedConvScratchSize(adjoint_shape_, adjoint_order_));
    padded_grads_.assign(
        tasks * ShiftedConvInputSize(AllGroups(adjoint_shape_, ngroup)), 0.f);
  }
  scratch_.resize(tasks * scratch_size_);
}

void ShiftedConvPlan::PlanPhaseAdjoints(index_t tasks) {
  const ShiftedConvShape& phases = forward_shape_;
  const index_t sy = phases.stride_y, sx = phases.stride_x;
  const index_t out_h = geom_.out_height, out_w = geom_.out_width;
  // The rows of taps of the phase with the most.
  const index_t taps_y = phases.padded_height - out_h + 1;
  index_t packed = 0;
  phase_padded_size_ = 0;
  for (index_t py = 0; py < sy; ++py) {
    for (index_t px = 0; px < sx; ++px) {
      PhaseAdjoint phase;
      phase.py = py;
      phase.px = px;
      const index_t rows = (geom_.kernel_y - py + sy - 1) / sy;
      const index_t cols = (geom_.kernel_x - px + sx - 1) / sx;
      // The output gradient padded by rows - 1 on top (and by taps_y - 1
      // below, so that it covers every row of the phase planes) and by
      // cols - 1 on the left, convolved into this phase of every channel.
      phase.shape = {phases.out_channels,
                     phases.channels,
                     rows,
                     cols,
                     1,
                     1,
                     out_h + rows - 1 + taps_y - 1,
                     ShiftedConvRowPitch(out_w, cols - 1, phases.row_pitch),
                     phases.row_pitch};
      phase.order = MeasuredShiftedConvOrder(phase.shape);
      phase.packed_offset = packed;
      phase.offsets = PairOffsets(phase.shape);
      phase.padded_offset = phase_padded_size_;
      packed += ShiftedConvPackedSize(phase.shape, phase.order);
      scratch_size_ = std::max(
          scratch_size_, ShiftedConvScratchSize(phase.shape, phase.order));
      phase_padded_size_ += ShiftedConvInputSize(phase.shape);
      phase_adjoints_.push_back(phase);
    }
  }
  packed_adjoint_.resize(packed);
  padded_grads_.assign(tasks * phase_padded_size_, 0.f);
  phase_weights_.resize(geom_.PatchSize() * phases.out_channels);
  phase_grad_size_ =
      ShiftedConvPlanes(phases) * phases.padded_height * phases.row_pitch;
  phase_grads_.resize(tasks * phase_grad_size_);
}

void ShiftedConvPlan::PackForwardWeights(const float* wmat) {
  Pack(forward_shape_, forward_order_, ShiftedConvWeights::kForward, wmat,
       &packed_forward_);
}

void ShiftedConvPlan::PackAdjointWeights(const float* wmat) {
  if (!strided_) {
    Pack(adjoint_shape_, adjoint_order_, ShiftedConvWeights::kAdjoint, wmat,
         &packed_adjoint_);
    return;
  }
  // Each phase's taps of wmat: (nchannel, channels, rows, cols).
  const index_t sy = forward_shape_.stride_y, sx = forward_shape_.stride_x;
  const index_t ky = geom_.kernel_y, kx = geom_.kernel_x;
  for (const PhaseAdjoint& phase : phase_adjoints_) {
    const ShiftedConvShape& shape = phase.shape;
    float* taps = phase_weights_.data();
    for (index_t mc = 0; mc < shape.channels * shape.out_channels; ++mc) {
      for (index_t i = phase.py; i < ky; i += sy) {
        for (index_t j = phase.px; j < kx; j += sx) {
          *taps++ = wmat[(mc * ky + i) * kx + j];
        }
      }
    }
    PackShiftedConvWeights(shape, phase.order, ShiftedConvWeights::kAdjoint,
                           phase_weights_.data(),
                           packed_adjoint_.data() + phase.packed_offset);
  }
}

void ShiftedConvPlan::Pack(const ShiftedConvShape& shape,
                           ShiftedConvOrder order, ShiftedConvWeights which,
                           const float* wmat,
                           std::vector<float>* packed) const {
  const index_t size = ShiftedConvPackedSize(shape, order);
  for (index_t g = 0; g < ngroup_; ++g) {
    PackShiftedConvWeights(shape, order, which, wmat + g * GroupWeights(shape),
                           packed->data() + g * size);
  }
}

index_t ShiftedConvPlan::PaddedImageSize() const {
  return ShiftedConvInputSize(AllGroups(forward_shape_, ngroup_));
}

void ShiftedConvPlan::KeepPaddedImages(index_t images) {
  kept_images_ = images;
  kept_padded_.assign(images * PaddedImageSize(), 0.f);
}

float* ShiftedConvPlan::PaddedImage(index_t task, index_t kept) {
  return kept >= 0 ? kept_padded_.data() + kept * PaddedImageSize()
                   : padded_images_.data() + task * PaddedImageSize();
}

void ShiftedConvPlan::Forward(index_t task, const float* image, float* out,
                              index_t kept) {
  Run(task, forward_shape_, forward_order_, forward_offsets_, packed_forward_,
      image, geom_.height, geom_.width, geom_.pad_y, geom_.pad_x,
      PaddedImage(task, kept), out);
}

void ShiftedConvPlan::InputGradient(index_t task, const float* out_grad,
                                    float* in_grad) {
  if (!strided_) {
    Run(task, adjoint_shape_, adjoint_order_, adjoint_offsets_, packed_adjoint_,
        out_grad, geom_.out_height, geom_.out_width,
        geom_.dilate_y * (geom_.kernel_y - 1) - geom_.pad_y,
        geom_.dilate_x * (geom_.kernel_x - 1) - geom_.pad_x,
        padded_grads_.data() +
            task * ShiftedConvInputSize(AllGroups(adjoint_shape_, ngroup_)),
        in_grad);
    return;
  }
  // Every phase's gradient, phase by phase as the phase planes lie.
  float* phase_grad = phase_grads_.data() + task * phase_grad_size_;
  float* padded = padded_grads_.data() + task * phase_padded_size_;
  const index_t phase_size = forward_shape_.channels *
                             forward_shape_.padded_height *
                             forward_shape_.row_pitch;
  for (const PhaseAdjoint& phase : phase_adjoints_) {
    const ShiftedConvShape& shape = phase.shape;
    float* buffer = padded + phase.padded_offset;
    PadPlanes(shape, out_grad, geom_.out_height, geom_.out_width,
              shape.kernel_y - 1, shape.kernel_x - 1, buffer);
    ShiftedConv(shape, phase.order, phase.offsets.data(),
                packed_adjoint_.data() + phase.packed_offset, buffer,
                Scratch(task),
                phase_grad + (phase.py * forward_shape_.stride_x + phase.px) *
                                 phase_size);
  }
  UnpadPlanes(forward_shape_, phase_grad, geom_.height, geom_.width,
              geom_.pad_y, geom_.pad_x, in_grad);
}

void ShiftedConvPlan::WeightGradient(index_t task, const float* image,
                                     const float* out_grad, float* wmat_grad,
                                     index_t kept) {
  const ShiftedConvShape& shape = forward_shape_;
  const ShiftedConvShape all = AllGroups(shape, ngroup_);
  float* padded = PaddedImage(task, kept);
  if (kept < 0) {
    PadPlanes(all, image, geom_.height, geom_.width, geom_.pad_y, geom_.pad_x,
              padded);
  }
  const index_t group_planes =
      ShiftedConvPlanes(shape) * shape.padded_height * shape.row_pitch;
  if (dot_weight_gradient_) {
    float* spread = spread_grads_.data() + task * ShiftedConvGradientSize(all);
    SpreadOutputGradient(all, out_grad, spread);
    for (index_t g = 0; g < ngroup_; ++g) {
      ShiftedConvWeightGradient(
          shape, forward_offsets_.data(), padded + g * group_planes,
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
        shape, forward_offsets_.data(), padded + g * group_planes, transposed,
        weight_grads_t_.data() +
            (task * ngroup_ + g) * TransposedWeightsSize());
  }
}

void ShiftedConvPlan::AddWeightGradient(index_t task, float* wmat_grad) {
  if (dot_weight_gradient_) return;
  const ShiftedConvShape& shape = forward_shape_;
  const index_t pairs = ShiftedConvPairs(shape);
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

void ShiftedConvPlan::Run(index_t task, const ShiftedConvShape& shape,
                          ShiftedConvOrder order,
                          const std::vector<int64_t>& offsets,
                          const std::vector<float>& packed, const float* planes,
                          index_t height, index_t width, index_t pad_y,
                          index_t pad_x, float* buffer, float* out) {
  PadPlanes(AllGroups(shape, ngroup_), planes, height, width, pad_y, pad_x,
            buffer);
  const index_t group_planes =
      ShiftedConvPlanes(shape) * shape.padded_height * shape.row_pitch;
  const index_t out_plane =
      ShiftedConvOutHeight(shape) * ShiftedConvOutWidth(shape);
  const index_t packed_size = ShiftedConvPackedSize(shape, order);
  for (index_t g = 0; g < ngroup_; ++g) {
    ShiftedConv(shape, order, offsets.data(), packed.data() + g * packed_size,
                buffer + g * group_planes, Scratch(task),
                out + g * shape.out_channels * out_plane);
  }
}

float* ShiftedConvPlan::Scratch(index_t task) {
  return scratch_.data() + task * scratch_size_;
}

}  // namespace layers
}  // namespace umbra
