// swapaxis<a1, a2>(src): src with dimensions a1 and a2 exchanged; a
// transpose (transpose.h) whose permutation is fixed at compile time.
//
// Example:
//   using namespace umbra;
//   // (N, C, H, W) -> (C, N, H, W), e.g. to treat channels as the batch
//   cnhw = swapaxis<1, 0>(nchw);
#ifndef UMBRA_TENSOR_EXTENSION_SWAPAXIS_H_
#define UMBRA_TENSOR_EXTENSION_SWAPAXIS_H_

#include "tensor/expr_engine.h"
#include "tensor/extension/transpose.h"

namespace umbra {
namespace expr {

// swapaxis<a1, a2>(src): dimensions a1 and a2 of src exchanged.
template <int a1, int a2, typename SrcExp, typename DType, int etype>
inline TransposeExExp<SrcExp, DType, ExpInfo<SrcExp>::kDim> swapaxis(
    const Exp<SrcExp, DType, etype>& src) {
  const int kDim = ExpInfo<SrcExp>::kDim;
  static_assert(kDim >= 1, "swapaxis: src must be a tensor expression");
  static_assert(0 <= a1 && a1 < kDim && 0 <= a2 && a2 < kDim,
                "swapaxis<a1, a2>: both axes must be dimensions of src");
  Shape<kDim> axes;
  for (int k = 0; k < kDim; ++k) axes[k] = k;
  axes[a1] = a2;
  axes[a2] = a1;
  return TransposeExExp<SrcExp, DType, kDim>(src.self(), axes);
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_SWAPAXIS_H_
