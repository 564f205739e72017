// Which order (ShiftedConvOrder) the CPU conv runs a kernel shape in: the
// one that is faster on this machine, measured.
//
// Both orders give the same bits (ShiftedConvTest), so the choice changes
// the speed only, and a measurement beats a rule fitted to the machine types
// seen so far. Measured per image (//layers:shifted_conv_bench): on AVX-512
// kChannels was 1.10x faster on LeNet's conv2 (32 -> 64 channels, 14x14 in
// rows of 16) and kPositions 1.69x on LeNet's 1-channel conv1 and 1.09x on
// a 32-channel 28x28; on Zen 1 (AVX2) kChannels is faster on every shape of
// the ResNet, by 1.06x on its 16-channel 28x28 (which a rule fitted to the
// others gave to kPositions) to 1.32x on its 64-channel 7x7, and kPositions
// 1.03x on LeNet's conv1.
//
// Example:
//   const ShiftedConvOrder order = MeasuredShiftedConvOrder(shape);
//   std::vector<float> packed(ShiftedConvPackedSize(shape, order));
#ifndef UMBRA_LAYERS_SHIFTED_CONV_ORDER_H_
#define UMBRA_LAYERS_SHIFTED_CONV_ORDER_H_

#include "layers/shifted_conv.h"

namespace umbra {
namespace layers {

// The faster order for `s` at the widest SIMD width of this CPU: both
// orders timed on one image's MeasuredShiftedConvPart on the calling thread,
// the fastest of kMeasuredRuns runs each, once per shape and process (later
// calls return the first answer).
ShiftedConvOrder MeasuredShiftedConvOrder(const ShiftedConvShape& s);
constexpr int kMeasuredRuns = 3;

// The part of an image that MeasuredShiftedConvOrder times: its first output
// rows, as many as take at most kMeasuredProducts multiply-adds (at least
// one row), so that a large image costs a few milliseconds at most.
ShiftedConvShape MeasuredShiftedConvPart(ShiftedConvShape s);
constexpr int64_t kMeasuredProducts = 8'000'000;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_SHIFTED_CONV_ORDER_H_
