#include "layers/shifted_conv_order.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <mutex>
#include <vector>

namespace umbra {
namespace layers {
namespace {

using ShapeKey = std::array<int64_t, 11>;

ShapeKey KeyOf(const ShiftedConvShape& s) {
  return {s.channels,  s.out_channels, s.kernel_y,      s.kernel_x,
          s.dilate_y,  s.dilate_x,     s.padded_height, s.row_pitch,
          s.out_width, s.stride_y,     s.stride_x};
}

// One order's buffers for `s`, its weights packed, and the time of a run.
class TimedRun {
 public:
  TimedRun(const ShiftedConvShape& s, ShiftedConvOrder order,
           const std::vector<float>& weights,
           const std::vector<int64_t>& offsets)
      : s_(s),
        order_(order),
        offsets_(offsets),
        packed_(ShiftedConvPackedSize(s, order)),
        scratch_(ShiftedConvScratchSize(s, order)),
        out_(s.out_channels * ShiftedConvOutHeight(s) * s.out_width) {
    PackShiftedConvWeights(s, order, ShiftedConvWeights::kForward,
                           weights.data(), packed_.data());
  }
  // Seconds of one run on `padded`.
  double Seconds(const std::vector<float>& padded) {
    const auto start = std::chrono::steady_clock::now();
    ShiftedConv(s_, order_, offsets_.data(), packed_.data(), padded.data(),
                scratch_.data(), out_.data());
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  }

 private:
  const ShiftedConvShape& s_;
  ShiftedConvOrder order_;
  const std::vector<int64_t>& offsets_;
  std::vector<float> packed_, scratch_, out_;
};

ShiftedConvOrder FasterOrder(const ShiftedConvShape& shape) {
  const ShiftedConvShape s = MeasuredShiftedConvPart(shape);
  // Values that keep every sum finite and normal: the kernels' speed does
  // not depend on them otherwise.
  const std::vector<float> padded(ShiftedConvInputSize(s), 0.5f);
  const std::vector<float> weights(s.out_channels * ShiftedConvPairs(s),
                                   1.f / float(ShiftedConvPairs(s)));
  std::vector<int64_t> offsets(ShiftedConvPairs(s));
  ShiftedConvPairOffsets(s, offsets.data());
  TimedRun positions(s, ShiftedConvOrder::kPositions, weights, offsets);
  TimedRun channels(s, ShiftedConvOrder::kChannels, weights, offsets);
  positions.Seconds(padded);  // warm-up: the caches, the output's pages
  channels.Seconds(padded);
  double fastest_positions = 1e300, fastest_channels = 1e300;
  // Taking turns, so that a slow moment of the machine meets both.
  for (int run = 0; run < kMeasuredRuns; ++run) {
    fastest_positions = std::min(fastest_positions, positions.Seconds(padded));
    fastest_channels = std::min(fastest_channels, channels.Seconds(padded));
  }
  return fastest_channels < fastest_positions ? ShiftedConvOrder::kChannels
                                              : ShiftedConvOrder::kPositions;
}

}  // namespace

ShiftedConvShape MeasuredShiftedConvPart(ShiftedConvShape s) {
  const int64_t row_products =
      s.out_width * s.out_channels * ShiftedConvPairs(s);
  const int64_t rows = std::clamp<int64_t>(kMeasuredProducts / row_products, 1,
                                           ShiftedConvOutHeight(s));
  s.padded_height -= ShiftedConvOutHeight(s) - rows;
  return s;
}

ShiftedConvOrder MeasuredShiftedConvOrder(const ShiftedConvShape& s) {
  static std::mutex mu;
  static std::map<ShapeKey, ShiftedConvOrder>* const measured =
      new std::map<ShapeKey, ShiftedConvOrder>();
  const std::lock_guard<std::mutex> lock(mu);
  const auto [it, added] =
      measured->try_emplace(KeyOf(s), ShiftedConvOrder::kPositions);
  if (added) it->second = FasterOrder(s);
  return it->second;
}

}  // namespace layers
}  // namespace umbra
