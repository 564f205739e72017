// The evaluation machinery behind expressions: Plan / MakePlan (how to
// compute element (y, x) of an expression), ExpInfo and TypeCheck
// (compile-time rank and device checks), ShapeCheck (runtime shape checks
// that throw TensorError naming the operation and both shapes), StreamInfo,
// and ExpEngine, which dispatches `dst <saver> exp` to the device's
// MapExpEngine (tensor_cpu.h, tensor_gpu.h) or, for dot, ExpComplexEngine.
//
// Every expression is evaluated on the 2-D view of its destination: y runs
// over the product of the leading dimensions, x over the last one.
//
// Example (what `dst += a * 2.0f` does):
//   ExpEngine<sv::plusto, Tensor<cpu, 2>, float>::Eval(&dst, a * 2.0f);
//   // -> MapExp: TypeCheck (static_assert), ShapeCheck (throws), then
//   //    MapExpEngine<cpu>::Map evaluates MakePlan(a * 2.0f).Eval(y, x).
//
// Contract for a chainer in tensor/extension (see MakeTensorExp, and
// engine_test.cc for a complete one):
//   template <typename SrcExp, typename DType>
//   struct MyExp : MakeTensorExp<MyExp<SrcExp, DType>, SrcExp, dim, DType> {
//     typename ExpHolder<SrcExp>::type src_;  // operands by value
//     MyExp(const SrcExp& src) : src_(detail::HoldRef(src)) {
//       this->shape_ = ...;  // the result shape
//     }
//   };
//   template <...> struct Plan<MyExp<SrcExp, DType>, DType> {
//     explicit Plan(const MyExp<SrcExp, DType>& e)
//         : src_(MakePlan(e.src_.self())) {}
//     UMBRA_XINLINE DType Eval(index_t y, index_t x) const;  // any (y, x)
//     Plan<SrcExp, DType> src_;
//   };
//   template <...> Plan<MyExp<...>, DType> MakePlan(const MyExp<...>& e);
// Build sub-plans from `operand.self()`: that is the operand's declared
// expression type (the MakeTensorExp base for chainers), whose Plan the
// engine expects. Plans are copied to the device: hold values, not pointers
// to host objects.
#ifndef UMBRA_TENSOR_EXPR_ENGINE_H_
#define UMBRA_TENSOR_EXPR_ENGINE_H_

#include <utility>

#include "tensor/base.h"
#include "tensor/expression.h"
#include "tensor/shape.h"
#include "tensor/tensor_core.h"

namespace umbra {
namespace expr {

// Plan<ExpType, DType>::Eval(y, x) is element (y, x) of the expression.
template <typename ExpType, typename DType>
class Plan {
  static_assert(sizeof(ExpType) == 0,
                "no Plan<ExpType, DType> for this expression type: a new "
                "expression must specialise Plan and provide MakePlan");
};

// Tensor: reads (and, through REval, writes) memory.
template <typename Device, int dim, typename DType>
class Plan<Tensor<Device, dim, DType>, DType> {
 public:
  explicit Plan(const Tensor<Device, dim, DType>& t)
      : dptr_(t.dptr_), stride_(t.stride_) {}
  UMBRA_XINLINE DType& REval(index_t y, index_t x) {
    return dptr_[y * stride_ + x];
  }
  UMBRA_XINLINE const DType& Eval(index_t y, index_t x) const {
    return dptr_[y * stride_ + x];
  }

 private:
  DType* dptr_;
  index_t stride_;
};

template <typename DType>
class Plan<ScalarExp<DType>, DType> {
 public:
  explicit Plan(DType scalar) : scalar_(scalar) {}
  UMBRA_XINLINE DType Eval(index_t y, index_t x) const { return scalar_; }

 private:
  DType scalar_;
};

template <typename DstDType, typename SrcDType, typename EType, int etype>
class Plan<TypecastExp<DstDType, SrcDType, EType, etype>, DstDType> {
 public:
  explicit Plan(const Plan<EType, SrcDType>& src) : src_(src) {}
  UMBRA_XINLINE DstDType Eval(index_t y, index_t x) const {
    return DstDType(src_.Eval(y, x));
  }

 private:
  Plan<EType, SrcDType> src_;
};

template <typename OP, typename TA, typename TB, typename TC, typename DType,
          int etype>
class Plan<TernaryMapExp<OP, TA, TB, TC, DType, etype>, DType> {
 public:
  explicit Plan(const Plan<TA, DType>& item1, const Plan<TB, DType>& item2,
                const Plan<TC, DType>& item3)
      : item1_(item1), item2_(item2), item3_(item3) {}
  UMBRA_XINLINE DType Eval(index_t y, index_t x) const {
    return OP::Map(item1_.Eval(y, x), item2_.Eval(y, x), item3_.Eval(y, x));
  }

 private:
  Plan<TA, DType> item1_;
  Plan<TB, DType> item2_;
  Plan<TC, DType> item3_;
};

template <typename OP, typename TA, typename TB, typename DType, int etype>
class Plan<BinaryMapExp<OP, TA, TB, DType, etype>, DType> {
 public:
  explicit Plan(const Plan<TA, DType>& lhs, const Plan<TB, DType>& rhs)
      : lhs_(lhs), rhs_(rhs) {}
  UMBRA_XINLINE DType Eval(index_t y, index_t x) const {
    return OP::Map(lhs_.Eval(y, x), rhs_.Eval(y, x));
  }

 private:
  Plan<TA, DType> lhs_;
  Plan<TB, DType> rhs_;
};

template <typename OP, typename TA, typename DType, int etype>
class Plan<UnaryMapExp<OP, TA, DType, etype>, DType> {
 public:
  explicit Plan(const Plan<TA, DType>& src) : src_(src) {}
  UMBRA_XINLINE DType Eval(index_t y, index_t x) const {
    return OP::Map(src_.Eval(y, x));
  }

 private:
  Plan<TA, DType> src_;
};

// Forwards to the chainer's own plan.
template <typename SubType, typename SrcExp, int dim, typename DType>
class Plan<MakeTensorExp<SubType, SrcExp, dim, DType>, DType> {
 public:
  explicit Plan(const Plan<SubType, DType>& src) : src_(src) {}
  UMBRA_XINLINE DType Eval(index_t y, index_t x) const {
    return src_.Eval(y, x);
  }

 private:
  Plan<SubType, DType> src_;
};

template <typename EType, typename DType>
class Plan<TransposeExp<EType, DType>, DType> {
 public:
  explicit Plan(const Plan<EType, DType>& src) : src_(src) {}
  UMBRA_XINLINE DType Eval(index_t y, index_t x) const {
    return src_.Eval(x, y);
  }

 private:
  Plan<EType, DType> src_;
};

// MakePlan(e): the plan of expression e. Children are passed as `.self()`,
// which is their declared expression type (the MakeTensorExp base for
// chainers).
template <typename Device, int dim, typename DType>
inline Plan<Tensor<Device, dim, DType>, DType> MakePlan(
    const Tensor<Device, dim, DType>& e) {
  return Plan<Tensor<Device, dim, DType>, DType>(e);
}
template <typename DType>
inline Plan<ScalarExp<DType>, DType> MakePlan(const ScalarExp<DType>& e) {
  return Plan<ScalarExp<DType>, DType>(e.scalar_);
}
template <typename SubType, typename SrcExp, int dim, typename DType>
inline Plan<MakeTensorExp<SubType, SrcExp, dim, DType>, DType> MakePlan(
    const MakeTensorExp<SubType, SrcExp, dim, DType>& e);
template <typename DstDType, typename SrcDType, typename EType, int etype>
inline Plan<TypecastExp<DstDType, SrcDType, EType, etype>, DstDType> MakePlan(
    const TypecastExp<DstDType, SrcDType, EType, etype>& e);
template <typename OP, typename TA, typename TB, typename TC, typename DType,
          int etype>
inline Plan<TernaryMapExp<OP, TA, TB, TC, DType, etype>, DType> MakePlan(
    const TernaryMapExp<OP, TA, TB, TC, DType, etype>& e);
template <typename OP, typename TA, typename TB, typename DType, int etype>
inline Plan<BinaryMapExp<OP, TA, TB, DType, etype>, DType> MakePlan(
    const BinaryMapExp<OP, TA, TB, DType, etype>& e);
template <typename OP, typename TA, typename DType, int etype>
inline Plan<UnaryMapExp<OP, TA, DType, etype>, DType> MakePlan(
    const UnaryMapExp<OP, TA, DType, etype>& e);
template <typename EType, typename DType>
inline Plan<TransposeExp<EType, DType>, DType> MakePlan(
    const TransposeExp<EType, DType>& e);

template <typename SubType, typename SrcExp, int dim, typename DType>
inline Plan<MakeTensorExp<SubType, SrcExp, dim, DType>, DType> MakePlan(
    const MakeTensorExp<SubType, SrcExp, dim, DType>& e) {
  return Plan<MakeTensorExp<SubType, SrcExp, dim, DType>, DType>(
      MakePlan(e.real_self()));
}
template <typename DstDType, typename SrcDType, typename EType, int etype>
inline Plan<TypecastExp<DstDType, SrcDType, EType, etype>, DstDType> MakePlan(
    const TypecastExp<DstDType, SrcDType, EType, etype>& e) {
  return Plan<TypecastExp<DstDType, SrcDType, EType, etype>, DstDType>(
      MakePlan(e.exp.self()));
}
template <typename OP, typename TA, typename TB, typename TC, typename DType,
          int etype>
inline Plan<TernaryMapExp<OP, TA, TB, TC, DType, etype>, DType> MakePlan(
    const TernaryMapExp<OP, TA, TB, TC, DType, etype>& e) {
  return Plan<TernaryMapExp<OP, TA, TB, TC, DType, etype>, DType>(
      MakePlan(e.item1_.self()), MakePlan(e.item2_.self()),
      MakePlan(e.item3_.self()));
}
template <typename OP, typename TA, typename TB, typename DType, int etype>
inline Plan<BinaryMapExp<OP, TA, TB, DType, etype>, DType> MakePlan(
    const BinaryMapExp<OP, TA, TB, DType, etype>& e) {
  return Plan<BinaryMapExp<OP, TA, TB, DType, etype>, DType>(
      MakePlan(e.lhs_.self()), MakePlan(e.rhs_.self()));
}
template <typename OP, typename TA, typename DType, int etype>
inline Plan<UnaryMapExp<OP, TA, DType, etype>, DType> MakePlan(
    const UnaryMapExp<OP, TA, DType, etype>& e) {
  return Plan<UnaryMapExp<OP, TA, DType, etype>, DType>(
      MakePlan(e.src_.self()));
}
template <typename EType, typename DType>
inline Plan<TransposeExp<EType, DType>, DType> MakePlan(
    const TransposeExp<EType, DType>& e) {
  return Plan<TransposeExp<EType, DType>, DType>(MakePlan(e.exp.self()));
}

// Compile-time facts about an expression: kDim is its rank (0 for a scalar,
// -1 when its operands disagree) and kDevMask the devices all its tensors can
// be on (bitwise and of their masks).
template <typename E>
struct ExpInfo {
  static constexpr int kDim = -1;
  static constexpr int kDevMask = 0;
};
template <typename DType>
struct ExpInfo<ScalarExp<DType>> {
  static constexpr int kDim = 0;
  static constexpr int kDevMask = 0xffff;
};
template <typename E, typename DType>
struct ExpInfo<TransposeExp<E, DType>> {
  static constexpr int kDim = ExpInfo<E>::kDim;
  static constexpr int kDevMask = ExpInfo<E>::kDevMask;
};
template <typename DstDType, typename SrcDType, typename EType, int etype>
struct ExpInfo<TypecastExp<DstDType, SrcDType, EType, etype>> {
  static constexpr int kDim = ExpInfo<EType>::kDim;
  static constexpr int kDevMask = ExpInfo<EType>::kDevMask;
};
template <typename Device, int dim, typename DType>
struct ExpInfo<Tensor<Device, dim, DType>> {
  static constexpr int kDim = dim;
  static constexpr int kDevMask = Device::kDevMask;
};
template <typename T, typename SrcExp, int dim, typename DType>
struct ExpInfo<MakeTensorExp<T, SrcExp, dim, DType>> {
  static constexpr int kDimSrc = ExpInfo<SrcExp>::kDim;
  static constexpr int kDim = kDimSrc >= 0 ? dim : -1;
  static constexpr int kDevMask = ExpInfo<SrcExp>::kDevMask;
};
template <typename OP, typename TA, typename DType, int etype>
struct ExpInfo<UnaryMapExp<OP, TA, DType, etype>> {
  static constexpr int kDim = ExpInfo<TA>::kDim;
  static constexpr int kDevMask = ExpInfo<TA>::kDevMask;
};
namespace detail {
// Rank of two operands combined: scalars adopt the other's rank.
constexpr int CombineDim(int a, int b) {
  return (a < 0 || b < 0) ? -1 : a == 0 ? b : (b == 0 || a == b) ? a : -1;
}
}  // namespace detail
template <typename OP, typename TA, typename TB, typename DType, int etype>
struct ExpInfo<BinaryMapExp<OP, TA, TB, DType, etype>> {
  static constexpr int kDimLhs = ExpInfo<TA>::kDim;
  static constexpr int kDimRhs = ExpInfo<TB>::kDim;
  static constexpr int kDim = detail::CombineDim(kDimLhs, kDimRhs);
  static constexpr int kDevMask = ExpInfo<TA>::kDevMask & ExpInfo<TB>::kDevMask;
};
template <typename OP, typename TA, typename TB, typename TC, typename DType,
          int etype>
struct ExpInfo<TernaryMapExp<OP, TA, TB, TC, DType, etype>> {
  static constexpr int kDimItem1 = ExpInfo<TA>::kDim;
  static constexpr int kDimItem2 = ExpInfo<TB>::kDim;
  static constexpr int kDimItem3 = ExpInfo<TC>::kDim;
  static constexpr int kDim =
      detail::CombineDim(detail::CombineDim(kDimItem1, kDimItem2), kDimItem3);
  static constexpr int kDevMask =
      ExpInfo<TA>::kDevMask & ExpInfo<TB>::kDevMask & ExpInfo<TC>::kDevMask;
};

// Compile-time check that E can be assigned to a dim-D tensor on Device:
// kMapPass for element-wise assignment, kRedPass for reductions to dim.
template <typename Device, int dim, typename DType, typename E>
struct TypeCheck {
  static constexpr int kExpDim = ExpInfo<E>::kDim;
  static constexpr bool kDevPass =
      (ExpInfo<E>::kDevMask & Device::kDevMask) != 0;
  static constexpr bool kMapPass = (kExpDim == 0 || kExpDim == dim) && kDevPass;
  static constexpr bool kRedPass = (kExpDim > dim) && kDevPass;
};
// Seed-compatible form of the checks: TypeCheckPass<cond>::Error_...() only
// compiles when cond holds. New code should prefer static_assert.
template <bool kPass>
struct TypeCheckPass;
template <>
struct TypeCheckPass<false> {};
template <>
struct TypeCheckPass<true> {
  inline static void Error_All_Tensor_in_Exp_Must_Have_Same_Type() {}
  inline static void Error_TypeCheck_Not_Pass_For_Reduce_Exp() {}
  inline static void Error_Expression_Does_Not_Meet_Dimension_Req() {}
};

// The stream of the destination (null for expressions that are not tensors).
template <typename Device, typename E>
struct StreamInfo {
  inline static Stream<Device>* Get(const E& t) { return nullptr; }
};
template <int dim, typename Device, typename DType>
struct StreamInfo<Device, Tensor<Device, dim, DType>> {
  inline static Stream<Device>* Get(const Tensor<Device, dim, DType>& t) {
    return t.stream_;
  }
};

// ShapeCheck<dim, E>::Check(e): the shape of e (all zeros for a scalar);
// throws TensorError naming the operation and the shapes on a mismatch.
template <int dim, typename E>
struct ShapeCheck {
  static_assert(sizeof(E) == 0,
                "no ShapeCheck<dim, E> for this expression type, or its rank "
                "differs from the destination's");
};
template <int dim, typename Device, typename DType>
struct ShapeCheck<dim, Tensor<Device, dim, DType>> {
  inline static Shape<dim> Check(const Tensor<Device, dim, DType>& t) {
    return t.shape_;
  }
};
template <int dim, typename DType>
struct ShapeCheck<dim, ScalarExp<DType>> {
  inline static Shape<dim> Check(const ScalarExp<DType>& exp) {
    Shape<dim> shape;
    for (int i = 0; i < dim; ++i) shape[i] = 0;
    return shape;
  }
};
template <int dim, typename DstDType, typename SrcDType, typename EType,
          int etype>
struct ShapeCheck<dim, TypecastExp<DstDType, SrcDType, EType, etype>> {
  inline static Shape<dim> Check(
      const TypecastExp<DstDType, SrcDType, EType, etype>& exp) {
    return ShapeCheck<dim, EType>::Check(exp.exp.self());
  }
};
template <int dim, typename OP, typename TA, typename TB, typename TC,
          typename DType, int etype>
struct ShapeCheck<dim, TernaryMapExp<OP, TA, TB, TC, DType, etype>> {
  inline static Shape<dim> Check(
      const TernaryMapExp<OP, TA, TB, TC, DType, etype>& t) {
    Shape<dim> shape1 = ShapeCheck<dim, TA>::Check(t.item1_.self());
    Shape<dim> shape2 = ShapeCheck<dim, TB>::Check(t.item2_.self());
    Shape<dim> shape3 = ShapeCheck<dim, TC>::Check(t.item3_.self());
    const bool s1 = ExpInfo<TA>::kDim == 0;
    const bool s2 = ExpInfo<TB>::kDim == 0;
    const bool s3 = ExpInfo<TC>::kDim == 0;
    Shape<dim> out = !s1 ? shape1 : !s2 ? shape2 : shape3;
    if ((!s1 && shape1 != out) || (!s2 && shape2 != out) ||
        (!s3 && shape3 != out)) {
      ThrowTensorError("TernaryMapExp ", OpName<OP>::Get(),
                       ": shapes differ: ", shape1, " vs ", shape2, " vs ",
                       shape3);
    }
    return out;
  }
};
template <int dim, typename OP, typename TA, typename TB, typename DType,
          int etype>
struct ShapeCheck<dim, BinaryMapExp<OP, TA, TB, DType, etype>> {
  inline static Shape<dim> Check(
      const BinaryMapExp<OP, TA, TB, DType, etype>& t) {
    Shape<dim> shape1 = ShapeCheck<dim, TA>::Check(t.lhs_.self());
    Shape<dim> shape2 = ShapeCheck<dim, TB>::Check(t.rhs_.self());
    if (ExpInfo<TA>::kDim == 0) return shape2;
    if (ExpInfo<TB>::kDim == 0) return shape1;
    if (shape1 != shape2) {
      ThrowTensorError("BinaryMapExp ", OpName<OP>::Get(),
                       ": shapes differ: ", shape1, " vs ", shape2);
    }
    return shape1;
  }
};
template <int dim, typename OP, typename TA, typename DType, int etype>
struct ShapeCheck<dim, UnaryMapExp<OP, TA, DType, etype>> {
  inline static Shape<dim> Check(const UnaryMapExp<OP, TA, DType, etype>& t) {
    return ShapeCheck<dim, TA>::Check(t.src_.self());
  }
};
template <int dim, typename SrcExp, typename T, typename DType>
struct ShapeCheck<dim, MakeTensorExp<T, SrcExp, dim, DType>> {
  inline static Shape<dim> Check(
      const MakeTensorExp<T, SrcExp, dim, DType>& t) {
    return t.shape_;
  }
};
template <int dim, typename E, typename DType>
struct ShapeCheck<dim, TransposeExp<E, DType>> {
  static_assert(dim == 2,
                "TransposeExp (.T()) is only defined for 2-D "
                "expressions");
  inline static Shape<dim> Check(const TransposeExp<E, DType>& e) {
    Shape<dim> s = ShapeCheck<dim, E>::Check(e.exp.self());
    std::swap(s[0], s[1]);
    return s;
  }
};

// Evaluates element-wise expressions into a Device destination. Specialised
// by tensor_cpu.h (cpu) and tensor_gpu.h (gpu):
//   template <typename Saver, typename DType, typename R, int dim, typename E>
//   static void Map(R* dst, const E& exp, Shape<dim> dshape);
// R is the destination type (a TRValue whose Plan has REval), dshape its
// shape, already checked against exp.
template <typename Device>
struct MapExpEngine {
  static_assert(sizeof(Device) == 0,
                "no expression engine for this device: gpu expressions need "
                "tensor/tensor_gpu.h (build with --config=cuda)");
};

// Type- and shape-checks `dst <Saver> exp`, then evaluates it on the device.
template <typename Saver, typename R, typename Device, int dim, typename DType,
          typename E, int etype>
inline void MapExp(TRValue<R, Device, dim, DType>* dst,
                   const Exp<E, DType, etype>& exp) {
  static_assert(TypeCheck<Device, dim, DType, E>::kDevPass,
                "all tensors of an expression must be on the destination's "
                "device");
  static_assert(ExpInfo<E>::kDim >= 0,
                "the operands of this expression have different ranks");
  static_assert(TypeCheck<Device, dim, DType, E>::kMapPass,
                "the rank of the expression differs from the destination's "
                "rank");
  const Shape<dim> eshape = ShapeCheck<dim, E>::Check(exp.self());
  const Shape<dim> dshape = ShapeCheck<dim, R>::Check(dst->self());
  if (ExpInfo<E>::kDim != 0 && eshape != dshape) {
    ThrowTensorError("Assignment ", Saver::kName,
                     ": shapes differ: destination ", dshape, " vs expression ",
                     eshape);
  }
  MapExpEngine<Device>::template Map<Saver, DType>(dst->ptrself(), exp.self(),
                                                   dshape);
}

// Evaluates kComplex expressions (dot) into dst.
template <typename SV, typename RV, typename E, typename DType>
struct ExpComplexEngine {
  static_assert(sizeof(E) == 0,
                "this complex expression cannot be evaluated here: dot() and "
                "batch_dot() must be assigned (=, += or -=) directly to a "
                "Tensor");
};

// dst <SV> scale * op(lhs) * op(rhs); specialised per device in dot.h and
// tensor_gpu.h.
template <typename SV, typename Device, int ddim, int ldim, int rdim,
          bool ltrans, bool rtrans, typename DType>
struct DotEngine {
  static_assert(ddim == 0 && ldim == 0,
                "dot: unsupported ranks or device; supported: 2-D x 2-D -> "
                "2-D (gemm), 1-D x 2-D -> 1-D (gemv), dot(a.T(), b) of 1-D "
                "vectors -> 2-D (ger), 3-D x 3-D -> 3-D (batch_dot); gpu "
                "needs tensor/tensor_gpu.h");
};

template <typename SV, typename Device, int dim, int ldim, int rdim,
          bool ltrans, bool rtrans, typename DType>
struct ExpComplexEngine<
    SV, Tensor<Device, dim, DType>,
    DotExp<Tensor<Device, ldim, DType>, Tensor<Device, rdim, DType>, ltrans,
           rtrans, DType>,
    DType> {
  inline static void Eval(
      Tensor<Device, dim, DType>* dst,
      const DotExp<Tensor<Device, ldim, DType>, Tensor<Device, rdim, DType>,
                   ltrans, rtrans, DType>& exp) {
    DotEngine<SV, Device, dim, ldim, rdim, ltrans, rtrans, DType>::Eval(
        dst, exp.lhs_, exp.rhs_, exp.scale_);
  }
};

// Entry point of every assignment: dispatches on the expression kind.
template <typename SV, typename RV, typename DType>
struct ExpEngine {
  template <typename E>
  inline static void Eval(RV* dst, const Exp<E, DType, type::kMapper>& exp) {
    MapExp<SV>(dst, exp);
  }
  template <typename E>
  inline static void Eval(RV* dst, const Exp<E, DType, type::kChainer>& exp) {
    MapExp<SV>(dst, exp);
  }
  template <typename E>
  inline static void Eval(RV* dst, const Exp<E, DType, type::kRValue>& exp) {
    MapExp<SV>(dst, exp);
  }
  template <typename E>
  inline static void Eval(RV* dst, const Exp<E, DType, type::kComplex>& exp) {
    ExpComplexEngine<SV, RV, E, DType>::Eval(dst->ptrself(), exp.self());
  }
};

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXPR_ENGINE_H_
