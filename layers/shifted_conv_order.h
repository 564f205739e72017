// Which order (ShiftedConvOrder) the CPU conv runs a stride-1 kernel shape
// in: the one that is faster on this machine, measured.
//
// At stride 1 both orders give the same bits (ShiftedConvTest), so the
// choice changes the speed only, and a measurement beats a rule written for
// the machine types seen so far: on Zen 1 kChannels is 1.04x faster on the
// ResNet's 16-channel 28x28 convolutions, where on AVX-512 kPositions is.
//
// Example:
//   const ShiftedConvOrder order = MeasuredShiftedConvOrder(shape);
//   std::vector<float> packed(ShiftedConvPackedSize(shape, order));
#ifndef UMBRA_LAYERS_SHIFTED_CONV_ORDER_H_
#define UMBRA_LAYERS_SHIFTED_CONV_ORDER_H_

#include "layers/shifted_conv.h"

namespace umbra {
namespace layers {

// At stride 1, the faster order for `s` at the widest SIMD width of this
// CPU: both orders timed on one image's MeasuredShiftedConvPart on the
// calling thread, the fastest of kMeasuredRuns runs each, once per shape and
// process (later calls return the first answer). With a stride, where the
// orders sum in different orders, PreferredShiftedConvOrder(s).
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
