// Element-wise operators (umbra::op), savers (umbra::sv) and reducers
// (umbra::red) used by the expression engine.
//
// An operator is a struct with a static `Map` taking one, two or three values;
// use it through F<op>(...). A user-defined operator needs nothing else:
//   struct maximum {
//     UMBRA_XINLINE static float Map(float a, float b) { return a > b ? a : b;
//     }
//   };
//   A = B * umbra::expr::F<maximum>(C, B);
// Built-in operators also carry `kName`, which shape errors print.
//
// Example:
//   dst = F<op::sigmoid>(x);          // 1 / (1 + exp(-x))
//   grad = F<op::sigmoid_grad>(dst);  // y * (1 - y), from the output y
#ifndef UMBRA_TENSOR_OPERATORS_H_
#define UMBRA_TENSOR_OPERATORS_H_

#include "tensor/base.h"

namespace umbra {
namespace op {

// a
struct identity {
  static constexpr const char* kName = "identity";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a) {
    return a;
  }
};
// b: the right-hand side wins (the operator behind sv::saveto).
struct right {
  static constexpr const char* kName = "right";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a, DType b) {
    return b;
  }
};
// a + b
struct plus {
  static constexpr const char* kName = "plus";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a, DType b) {
    return a + b;
  }
};
// a - b
struct minus {
  static constexpr const char* kName = "minus";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a, DType b) {
    return a - b;
  }
};
// a * b
struct mul {
  static constexpr const char* kName = "mul";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a, DType b) {
    return a * b;
  }
};
// a / b
struct div {
  static constexpr const char* kName = "div";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a, DType b) {
    return a / b;
  }
};
// -a
struct negation {
  static constexpr const char* kName = "negation";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a) {
    return -a;
  }
};
// e^a
struct exp {
  static constexpr const char* kName = "exp";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a) {
    return DType(math::exp(a));
  }
};
// natural logarithm
struct log {
  static constexpr const char* kName = "log";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a) {
    return DType(math::log(a));
  }
};
// square root
struct sqrt {
  static constexpr const char* kName = "sqrt";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a) {
    return DType(math::sqrt(a));
  }
};
// 1 / sqrt(a), exactly rounded (no approximation)
struct rsqrt {
  static constexpr const char* kName = "rsqrt";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a) {
    return DType(DType(1) / DType(math::sqrt(a)));
  }
};
// a * a
struct square {
  static constexpr const char* kName = "square";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a) {
    return DType(a * a);
  }
};
// |a|
struct abs {
  static constexpr const char* kName = "abs";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a) {
    return a < DType(0) ? DType(-a) : a;
  }
};
// -1, 0 or 1
struct sign {
  static constexpr const char* kName = "sign";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a) {
    if (a < DType(0)) return DType(-1);
    if (a > DType(0)) return DType(1);
    return DType(0);
  }
};
// a^b
struct pow {
  static constexpr const char* kName = "pow";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a, DType b) {
    return DType(math::pow(a, b));
  }
};
// a > b ? a : b (b when either is NaN)
struct maximum {
  static constexpr const char* kName = "maximum";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a, DType b) {
    return a > b ? a : b;
  }
};
// a < b ? a : b (b when either is NaN)
struct minimum {
  static constexpr const char* kName = "minimum";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a, DType b) {
    return a < b ? a : b;
  }
};
// a clipped to [-bound, bound]: F<op::clip>(a, bound); NaN stays NaN.
struct clip {
  static constexpr const char* kName = "clip";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a, DType bound) {
    if (a > bound) return bound;
    if (a < -bound) return DType(-bound);
    return a;
  }
};
// max(a, 0)
struct relu {
  static constexpr const char* kName = "relu";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a) {
    return a > DType(0) ? a : DType(0);
  }
};
// 1 where a > 0, else 0 (a may be the input or the output of relu)
struct relu_grad {
  static constexpr const char* kName = "relu_grad";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a) {
    // A comparison, not a branch: signs are random, a branch mispredicts.
    return DType(a > DType(0));
  }
};
// 1 / (1 + e^-a)
struct sigmoid {
  static constexpr const char* kName = "sigmoid";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a) {
    return DType(DType(1) / DType(DType(1) + DType(math::exp(DType(-a)))));
  }
};
// y * (1 - y), where y = sigmoid(x) is the forward output
struct sigmoid_grad {
  static constexpr const char* kName = "sigmoid_grad";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType y) {
    return DType(y * DType(DType(1) - y));
  }
};
// hyperbolic tangent
struct tanh {
  static constexpr const char* kName = "tanh";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a) {
    return DType(math::tanh(a));
  }
};
// 1 - y^2, where y = tanh(x) is the forward output
struct tanh_grad {
  static constexpr const char* kName = "tanh_grad";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType y) {
    return DType(DType(1) - DType(y * y));
  }
};
// log(1 + e^a), as max(a, 0) + log(1 + e^-|a|): no overflow for large a
struct softplus {
  static constexpr const char* kName = "softplus";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a) {
    const DType pos = a > DType(0) ? a : DType(0);
    const DType neg_abs = a > DType(0) ? DType(-a) : a;
    return DType(pos + DType(math::log1p(math::exp(neg_abs))));
  }
};
// 1 where a < b, else 0 (dropout masks: F<op::threshold>(uniform, pkeep))
struct threshold {
  static constexpr const char* kName = "threshold";
  template <typename DType>
  UMBRA_XINLINE static DType Map(DType a, DType b) {
    return a < b ? DType(1) : DType(0);
  }
};

}  // namespace op

// Savers: how a value is stored into the destination (=, +=, -=, *=, /=).
// OPType is the binary operator that combines old and new values.
namespace sv {
struct saveto {
  static constexpr const char* kName = "=";
  typedef op::right OPType;
  template <typename DType>
  UMBRA_XINLINE static void Save(DType& a, DType b) {  // NOLINT(*)
    a = b;
  }
};
struct plusto {
  static constexpr const char* kName = "+=";
  typedef op::plus OPType;
  template <typename DType>
  UMBRA_XINLINE static void Save(DType& a, DType b) {  // NOLINT(*)
    a = DType(a + b);
  }
};
struct minusto {
  static constexpr const char* kName = "-=";
  typedef op::minus OPType;
  template <typename DType>
  UMBRA_XINLINE static void Save(DType& a, DType b) {  // NOLINT(*)
    a = DType(a - b);
  }
};
struct multo {
  static constexpr const char* kName = "*=";
  typedef op::mul OPType;
  template <typename DType>
  UMBRA_XINLINE static void Save(DType& a, DType b) {  // NOLINT(*)
    a = DType(a * b);
  }
};
struct divto {
  static constexpr const char* kName = "/=";
  typedef op::div OPType;
  template <typename DType>
  UMBRA_XINLINE static void Save(DType& a, DType b) {  // NOLINT(*)
    a = DType(a / b);
  }
};
}  // namespace sv

// Reducers: Reduce(dst, src) folds src into dst; SetInitValue gives the
// identity; PartialGrad(redres, redsrc) is d(result)/d(src).
namespace red {
struct sum {
  static constexpr const char* kName = "sum";
  template <typename DType>
  UMBRA_XINLINE static void Reduce(DType& dst, DType src) {  // NOLINT(*)
    dst = DType(dst + src);
  }
  template <typename DType>
  UMBRA_XINLINE static void Reduce(volatile DType& dst,  // NOLINT(*)
                                   volatile DType src) {
    dst = DType(dst + src);
  }
  template <typename DType>
  UMBRA_XINLINE static DType PartialGrad(DType redres, DType redsrc) {
    return DType(1);
  }
  template <typename DType>
  UMBRA_XINLINE static void SetInitValue(DType& initv) {  // NOLINT(*)
    initv = DType(0);
  }
};
struct maximum {
  static constexpr const char* kName = "maximum";
  template <typename DType>
  UMBRA_XINLINE static void Reduce(DType& dst, DType src) {  // NOLINT(*)
    if (!(dst >= src)) dst = src;  // NaN in src propagates
  }
  template <typename DType>
  UMBRA_XINLINE static void Reduce(volatile DType& dst,  // NOLINT(*)
                                   volatile DType src) {
    if (!(dst >= src)) dst = src;
  }
  template <typename DType>
  UMBRA_XINLINE static DType PartialGrad(DType redres, DType redsrc) {
    return redres == redsrc ? DType(1) : DType(0);
  }
  template <typename DType>
  UMBRA_XINLINE static void SetInitValue(DType& initv) {  // NOLINT(*)
    initv = limits::MinValue<DType>();
  }
};
struct minimum {
  static constexpr const char* kName = "minimum";
  template <typename DType>
  UMBRA_XINLINE static void Reduce(DType& dst, DType src) {  // NOLINT(*)
    if (!(dst <= src)) dst = src;
  }
  template <typename DType>
  UMBRA_XINLINE static void Reduce(volatile DType& dst,  // NOLINT(*)
                                   volatile DType src) {
    if (!(dst <= src)) dst = src;
  }
  template <typename DType>
  UMBRA_XINLINE static DType PartialGrad(DType redres, DType redsrc) {
    return redres == redsrc ? DType(1) : DType(0);
  }
  template <typename DType>
  UMBRA_XINLINE static void SetInitValue(DType& initv) {  // NOLINT(*)
    initv = limits::MaxValue<DType>();
  }
};
}  // namespace red

// OpName<OP>::Get() is OP::kName when OP has one, else "user-defined op".
template <typename OP, typename = void>
struct OpName {
  static const char* Get() { return "user-defined op"; }
};
template <typename OP>
struct OpName<OP, decltype((void)OP::kName)> {
  static const char* Get() { return OP::kName; }
};

}  // namespace umbra

#endif  // UMBRA_TENSOR_OPERATORS_H_
