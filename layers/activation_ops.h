// Element-wise operators of the activation layers, for F<op>(...) on any
// device, beyond those in tensor/operators.h. Gradients are written as
// functions of the forward output y, so that the layers can run in place.
//
// Example:
//   out = F<op::xelu>(in, scalar<float>(5.0f));                 // x or x/b
//   in_grad = F<op::xelu_grad>(out, scalar<float>(5.0f)) * out_grad;
#ifndef UMBRA_LAYERS_ACTIVATION_OPS_H_
#define UMBRA_LAYERS_ACTIVATION_OPS_H_

#include <cmath>

#include "tensor/tensor.h"

namespace umbra {
namespace layers {
namespace op {

UMBRA_XINLINE float Expm1(float x) { return ::expm1f(x); }
UMBRA_XINLINE double Expm1(double x) { return ::expm1(x); }

// d softplus(x)/dx = sigmoid(x) = 1 - e^-y, where y = softplus(x) >= 0.
struct softplus_grad {
  static constexpr const char* kName = "softplus_grad";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType y) {
    return DType(-Expm1(DType(-y)));
  }
};

// x where x > 0, else x / b (b > 0): cxxnet's xelu, and rrelu with a random b.
struct xelu {
  static constexpr const char* kName = "xelu";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType x, DType b) {
    return x > DType(0) ? x : DType(x / b);
  }
};

// The slope of xelu from its output y (the sign of y is that of x).
struct xelu_grad {
  static constexpr const char* kName = "xelu_grad";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType y, DType b) {
    return y > DType(0) ? DType(1) : DType(DType(1) / b);
  }
};

// PReLU: x where x > 0, else a * x.
struct prelu {
  static constexpr const char* kName = "prelu";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType x, DType a) {
    return x > DType(0) ? x : DType(a * x);
  }
};

// d prelu(x, a)/dx: 1 where x > 0, else a.
struct prelu_grad {
  static constexpr const char* kName = "prelu_grad";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType x, DType a) {
    return x > DType(0) ? DType(1) : a;
  }
};

// 1 where 0 <= a <= 1, else 0 (where clipping a to [0, 1] changes nothing).
struct in_unit_interval {
  static constexpr const char* kName = "in_unit_interval";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a) {
    return DType(a >= DType(0) && a <= DType(1));
  }
};

// d prelu(x, a)/da = min(x, 0).
struct negative_part {
  static constexpr const char* kName = "negative_part";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType x) {
    return x < DType(0) ? x : DType(0);
  }
};

}  // namespace op
}  // namespace layers

// Packet versions of the operators above for the CPU engine (see
// tensor/packet.h); prelu, prelu_grad and negative_part match the scalar
// operators bit for bit, softplus_grad is within a few ulp of them.
namespace packet {

template <typename DType, PacketArch Arch>
struct PacketOp<layers::op::prelu, DType, Arch> {
  static constexpr bool kEnabled = true;
  typedef Packet<DType, Arch> P;
  UMBRA_CINLINE static P Map(const P& x, const P& a) {
    return SelectLess(P::Fill(DType(0)), x, x, a * x);
  }
};
template <typename DType, PacketArch Arch>
struct PacketOp<layers::op::prelu_grad, DType, Arch> {
  static constexpr bool kEnabled = true;
  typedef Packet<DType, Arch> P;
  UMBRA_CINLINE static P Map(const P& x, const P& a) {
    return SelectLess(P::Fill(DType(0)), x, P::Fill(DType(1)), a);
  }
};
template <typename DType, PacketArch Arch>
struct PacketOp<layers::op::negative_part, DType, Arch> {
  static constexpr bool kEnabled = true;
  typedef Packet<DType, Arch> P;
  UMBRA_CINLINE static P Map(const P& x) { return Min(x, P::Fill(DType(0))); }
};
#if defined(__AVX2__) && defined(__FMA__)
template <typename DType>
struct PacketOp<layers::op::softplus_grad, DType, kAVX2> {
  static constexpr bool kEnabled = true;
  typedef Packet<DType, kAVX2> P;
  UMBRA_CINLINE static P Map(const P& y) { return Negate(Expm1(Negate(y))); }
};
#endif

}  // namespace packet
}  // namespace umbra

#endif  // UMBRA_LAYERS_ACTIVATION_OPS_H_
