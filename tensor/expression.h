// The expression templates: every lazily evaluated tensor expression derives
// from Exp<SubType, DType, exp_type>. Nothing is computed until an expression
// is assigned to a destination (`dst = expr`, `+=`, ...), which evaluates it
// in one pass without temporaries (see expr_engine.h).
//
// Sub-expressions are held by value (tensors are views, scalars are values),
// so an expression can be stored in a variable as long as the tensors it
// reads stay alive.
//
// Example:
//   using namespace umbra;
//   dst = F<op::relu>(a * 2.0f + b) - dot_result;  // one pass
//   c = dot(a, b.T());                              // DotExp -> BLAS gemm
//   mat1 = tcast<int>(mat);                         // element type change
#ifndef UMBRA_TENSOR_EXPRESSION_H_
#define UMBRA_TENSOR_EXPRESSION_H_

#include <type_traits>

#include "tensor/base.h"
#include "tensor/operators.h"
#include "tensor/shape.h"

namespace umbra {
namespace expr {

// Expression kinds; they combine with bitwise or, the largest wins.
namespace type {
// A value that can be assigned to (a Tensor).
const int kRValue = 0;
// An element-wise expression: dst[y][x] depends only on its operands at
// [y][x] (after broadcasting scalars).
const int kMapper = 1;
// An expression evaluated through Plan::Eval(y, x) at arbitrary positions
// (transpose, the MakeTensorExp chainers of tensor/extension).
const int kChainer = 3;
// Needs its own engine (dot): cannot be nested inside other expressions.
const int kComplex = 7;
}  // namespace type

// Base of every expression. SubType is the concrete expression type (CRTP).
template <typename SubType, typename DType, int exp_type>
struct Exp {
  static constexpr int kExpType = exp_type;
  // The concrete expression.
  UMBRA_XINLINE const SubType& self() const {
    return *static_cast<const SubType*>(this);
  }
  UMBRA_XINLINE SubType* ptrself() { return static_cast<SubType*>(this); }
};

template <typename SubType, typename SrcExp, int dim, typename DType>
struct MakeTensorExp;

// How an expression node stores an operand of type T: by value, except that a
// MakeTensorExp<SubType, ...> base is stored as the full SubType (no slicing).
template <typename T>
struct ExpHolder {
  typedef T type;
};
template <typename SubType, typename SrcExp, int dim, typename DType>
struct ExpHolder<MakeTensorExp<SubType, SrcExp, dim, DType>> {
  typedef SubType type;
};
namespace detail {
// The object an ExpHolder<T> member is initialised from.
template <typename T>
inline const T& HoldRef(const T& e) {
  return e;
}
template <typename SubType, typename SrcExp, int dim, typename DType>
inline const SubType& HoldRef(
    const MakeTensorExp<SubType, SrcExp, dim, DType>& e) {
  return *static_cast<const SubType*>(&e);
}
}  // namespace detail

// A scalar broadcast to every position.
template <typename DType>
struct ScalarExp : public Exp<ScalarExp<DType>, DType, type::kMapper> {
  DType scalar_;
  // Implicit, so that a DType can stand where a ScalarExp is expected.
  UMBRA_XINLINE ScalarExp(DType scalar) : scalar_(scalar) {}  // NOLINT(*)
};

// Makes a ScalarExp of the given type: scalar<float>(2).
template <typename DType>
inline ScalarExp<DType> scalar(DType s) {
  return ScalarExp<DType>(s);
}

// Converts the elements of `exp` from SrcDType to DstDType.
template <typename DstDType, typename SrcDType, typename EType, int etype>
struct TypecastExp : public Exp<TypecastExp<DstDType, SrcDType, EType, etype>,
                                DstDType, etype> {
  typename ExpHolder<EType>::type exp;
  explicit TypecastExp(const EType& e) : exp(detail::HoldRef(e)) {}
};

// tcast<int>(mat): mat with its elements converted to int.
template <typename DstDType, typename SrcDType, typename EType, int etype>
inline TypecastExp<DstDType, SrcDType, EType, (etype | type::kMapper)> tcast(
    const Exp<EType, SrcDType, etype>& exp) {
  static_assert(etype != type::kComplex,
                "tcast: dot() cannot be converted lazily; assign it to a "
                "tensor first");
  return TypecastExp<DstDType, SrcDType, EType, (etype | type::kMapper)>(
      exp.self());
}

// The transpose of a 2-D expression (swaps y and x).
template <typename EType, typename DType>
struct TransposeExp
    : public Exp<TransposeExp<EType, DType>, DType, type::kChainer> {
  typename ExpHolder<EType>::type exp;
  explicit TransposeExp(const EType& e) : exp(detail::HoldRef(e)) {}
  // Transposing twice gives back the expression.
  inline const EType& T() const { return exp; }
};

template <typename Saver, typename RValue, typename DType>
struct ExpEngine;

// Base of everything that can be assigned to (TRValue, Tensor). Provides
// =, +=, -=, *=, /= for scalars and expressions, and .T().
template <typename Container, typename DType>
class RValueExp : public Exp<Container, DType, type::kRValue> {
 public:
  // The transpose of this 2-D value.
  inline const TransposeExp<Container, DType> T() const {
    return TransposeExp<Container, DType>(this->self());
  }
  inline Container& operator+=(DType s) {
    ExpEngine<sv::plusto, Container, DType>::Eval(this->ptrself(),
                                                  scalar<DType>(s));
    return *(this->ptrself());
  }
  inline Container& operator-=(DType s) {
    ExpEngine<sv::minusto, Container, DType>::Eval(this->ptrself(),
                                                   scalar<DType>(s));
    return *(this->ptrself());
  }
  inline Container& operator*=(DType s) {
    ExpEngine<sv::multo, Container, DType>::Eval(this->ptrself(),
                                                 scalar<DType>(s));
    return *(this->ptrself());
  }
  inline Container& operator/=(DType s) {
    ExpEngine<sv::divto, Container, DType>::Eval(this->ptrself(),
                                                 scalar<DType>(s));
    return *(this->ptrself());
  }
  // Assigns a scalar to every element (what `tensor = 1.0f` calls). The
  // double-underscore name follows the seeds.
  inline Container& __assign(DType s) {
    ExpEngine<sv::saveto, Container, DType>::Eval(this->ptrself(),
                                                  scalar<DType>(s));
    return *(this->ptrself());
  }
  // Evaluates `exp` into this value (what `tensor = expr` calls).
  template <typename E, int etype>
  inline Container& __assign(const Exp<E, DType, etype>& exp) {
    ExpEngine<sv::saveto, Container, DType>::Eval(this->ptrself(), exp.self());
    return *(this->ptrself());
  }
  template <typename E, int etype>
  inline Container& operator+=(const Exp<E, DType, etype>& exp) {
    ExpEngine<sv::plusto, Container, DType>::Eval(this->ptrself(), exp.self());
    return *(this->ptrself());
  }
  template <typename E, int etype>
  inline Container& operator-=(const Exp<E, DType, etype>& exp) {
    ExpEngine<sv::minusto, Container, DType>::Eval(this->ptrself(), exp.self());
    return *(this->ptrself());
  }
  template <typename E, int etype>
  inline Container& operator*=(const Exp<E, DType, etype>& exp) {
    ExpEngine<sv::multo, Container, DType>::Eval(this->ptrself(), exp.self());
    return *(this->ptrself());
  }
  template <typename E, int etype>
  inline Container& operator/=(const Exp<E, DType, etype>& exp) {
    ExpEngine<sv::divto, Container, DType>::Eval(this->ptrself(), exp.self());
    return *(this->ptrself());
  }
};

// Matrix product scale_ * op(lhs_) * op(rhs_), op = transpose when ltrans /
// rtrans. 2-D x 2-D is gemm, 1-D x 2-D gemv, 1-D^T x 1-D an outer product
// (ger), 3-D x 3-D a batch of gemms (batch_dot). Evaluated by BLAS; it can be
// assigned with =, += or -= but not nested inside other expressions.
template <typename TA, typename TB, bool ltrans, bool rtrans, typename DType>
struct DotExp
    : public Exp<DotExp<TA, TB, ltrans, rtrans, DType>, DType, type::kComplex> {
  TA lhs_;
  TB rhs_;
  DType scale_;
  explicit DotExp(const TA& lhs, const TB& rhs, DType scale)
      : lhs_(lhs), rhs_(rhs), scale_(scale) {}
};

template <typename TA, typename TB, typename DType>
inline DotExp<TA, TB, false, false, DType> dot(
    const RValueExp<TA, DType>& lhs, const RValueExp<TB, DType>& rhs) {
  return DotExp<TA, TB, false, false, DType>(lhs.self(), rhs.self(),
                                             DType(1.0f));
}
template <typename TA, typename TB, typename DType>
inline DotExp<TA, TB, true, false, DType> dot(
    const TransposeExp<TA, DType>& lhs, const RValueExp<TB, DType>& rhs) {
  return DotExp<TA, TB, true, false, DType>(lhs.exp, rhs.self(), DType(1.0f));
}
template <typename TA, typename TB, typename DType>
inline DotExp<TA, TB, false, true, DType> dot(
    const RValueExp<TA, DType>& lhs, const TransposeExp<TB, DType>& rhs) {
  return DotExp<TA, TB, false, true, DType>(lhs.self(), rhs.exp, DType(1.0f));
}
template <typename TA, typename TB, typename DType>
inline DotExp<TA, TB, true, true, DType> dot(
    const TransposeExp<TA, DType>& lhs, const TransposeExp<TB, DType>& rhs) {
  return DotExp<TA, TB, true, true, DType>(lhs.exp, rhs.exp, DType(1.0f));
}
// Batched product of 3-D tensors: dst[i] = op(lhs[i]) * op(rhs[i]).
template <bool transpose_left, bool transpose_right, typename TA, typename TB,
          typename DType>
inline DotExp<TA, TB, transpose_left, transpose_right, DType> batch_dot(
    const RValueExp<TA, DType>& lhs, const RValueExp<TB, DType>& rhs) {
  return DotExp<TA, TB, transpose_left, transpose_right, DType>(
      lhs.self(), rhs.self(), DType(1.0f));
}
// Scaling a product keeps it one BLAS call: 2.0f * dot(a, b.T()).
template <typename TA, typename TB, bool ltrans, bool rtrans, typename DType>
inline DotExp<TA, TB, ltrans, rtrans, DType> operator*(
    const DotExp<TA, TB, ltrans, rtrans, DType>& lhs, DType scale) {
  return DotExp<TA, TB, ltrans, rtrans, DType>(lhs.lhs_, lhs.rhs_,
                                               DType(lhs.scale_ * scale));
}
template <typename TA, typename TB, bool ltrans, bool rtrans, typename DType>
inline DotExp<TA, TB, ltrans, rtrans, DType> operator*(
    DType scale, const DotExp<TA, TB, ltrans, rtrans, DType>& rhs) {
  return rhs * scale;
}

// F<OP>(a, b, c): OP::Map applied element-wise to three expressions.
template <typename OP, typename TA, typename TB, typename TC, typename DType,
          int etype>
struct TernaryMapExp
    : public Exp<TernaryMapExp<OP, TA, TB, TC, DType, etype>, DType, etype> {
  typename ExpHolder<TA>::type item1_;
  typename ExpHolder<TB>::type item2_;
  typename ExpHolder<TC>::type item3_;
  explicit TernaryMapExp(const TA& item1, const TB& item2, const TC& item3)
      : item1_(detail::HoldRef(item1)),
        item2_(detail::HoldRef(item2)),
        item3_(detail::HoldRef(item3)) {}
};

// F<OP>(lhs, rhs) and + - * /: OP::Map applied element-wise.
template <typename OP, typename TA, typename TB, typename DType, int etype>
struct BinaryMapExp
    : public Exp<BinaryMapExp<OP, TA, TB, DType, etype>, DType, etype> {
  typename ExpHolder<TA>::type lhs_;
  typename ExpHolder<TB>::type rhs_;
  explicit BinaryMapExp(const TA& lhs, const TB& rhs)
      : lhs_(detail::HoldRef(lhs)), rhs_(detail::HoldRef(rhs)) {}
};

// F<OP>(src) and unary -: OP::Map applied element-wise.
template <typename OP, typename TA, typename DType, int etype>
struct UnaryMapExp
    : public Exp<UnaryMapExp<OP, TA, DType, etype>, DType, etype> {
  typename ExpHolder<TA>::type src_;
  explicit UnaryMapExp(const TA& src) : src_(detail::HoldRef(src)) {}
};

namespace detail {
// Rejects dot() inside element-wise expressions at compile time.
template <int etype>
struct NotComplex {
  static_assert(etype != type::kComplex,
                "dot()/batch_dot() cannot be part of an element-wise "
                "expression; assign the product to a tensor first (dst = "
                "dot(a, b); dst += c;)");
  static constexpr bool kOk = true;
};
// Makes T a non-deduced context, so that `expr * 2` converts 2 to DType.
template <typename T>
struct NonDeduced {
  typedef T type;
};
}  // namespace detail

template <typename OP, typename TA, typename TB, typename TC, typename DType,
          int ta, int tb, int tc>
inline TernaryMapExp<OP, TA, TB, TC, DType, (ta | tb | tc | type::kMapper)>
MakeExp(const Exp<TA, DType, ta>& item1, const Exp<TB, DType, tb>& item2,
        const Exp<TC, DType, tc>& item3) {
  static_assert(detail::NotComplex<ta | tb | tc>::kOk, "");
  return TernaryMapExp<OP, TA, TB, TC, DType, (ta | tb | tc | type::kMapper)>(
      item1.self(), item2.self(), item3.self());
}
template <typename OP, typename TA, typename TB, typename DType, int ta, int tb>
inline BinaryMapExp<OP, TA, TB, DType, (ta | tb | type::kMapper)> MakeExp(
    const Exp<TA, DType, ta>& lhs, const Exp<TB, DType, tb>& rhs) {
  static_assert(detail::NotComplex<ta | tb>::kOk, "");
  return BinaryMapExp<OP, TA, TB, DType, (ta | tb | type::kMapper)>(lhs.self(),
                                                                    rhs.self());
}
template <typename OP, typename TA, typename DType, int ta>
inline UnaryMapExp<OP, TA, DType, (ta | type::kMapper)> MakeExp(
    const Exp<TA, DType, ta>& src) {
  static_assert(detail::NotComplex<ta>::kOk, "");
  return UnaryMapExp<OP, TA, DType, (ta | type::kMapper)>(src.self());
}

// F<OP>(...): short hand for MakeExp<OP>(...). A scalar operand may be a
// plain value: F<op::maximum>(x, 0.0f).
template <typename OP, typename TA, typename TB, typename TC, typename DType,
          int ta, int tb, int tc>
inline TernaryMapExp<OP, TA, TB, TC, DType, (ta | tb | tc | type::kMapper)> F(
    const Exp<TA, DType, ta>& item1, const Exp<TB, DType, tb>& item2,
    const Exp<TC, DType, tc>& item3) {
  return MakeExp<OP>(item1, item2, item3);
}
template <typename OP, typename TA, typename TB, typename DType, int ta, int tb>
inline BinaryMapExp<OP, TA, TB, DType, (ta | tb | type::kMapper)> F(
    const Exp<TA, DType, ta>& lhs, const Exp<TB, DType, tb>& rhs) {
  return MakeExp<OP>(lhs, rhs);
}
template <typename OP, typename TA, typename DType, int ta>
inline BinaryMapExp<OP, TA, ScalarExp<DType>, DType, (ta | type::kMapper)> F(
    const Exp<TA, DType, ta>& lhs,
    const typename detail::NonDeduced<DType>::type& rhs) {
  return MakeExp<OP>(lhs, ScalarExp<DType>(rhs));
}
template <typename OP, typename TB, typename DType, int tb>
inline BinaryMapExp<OP, ScalarExp<DType>, TB, DType, (tb | type::kMapper)> F(
    const typename detail::NonDeduced<DType>::type& lhs,
    const Exp<TB, DType, tb>& rhs) {
  return MakeExp<OP>(ScalarExp<DType>(lhs), rhs);
}
template <typename OP, typename TA, typename DType, int ta>
inline UnaryMapExp<OP, TA, DType, (ta | type::kMapper)> F(
    const Exp<TA, DType, ta>& src) {
  return MakeExp<OP>(src);
}

// Arithmetic: expression op expression, expression op scalar, scalar op
// expression, and unary minus.
#define UMBRA_BINARY_OPERATOR(symbol, OP)                                    \
  template <typename TA, typename TB, typename DType, int ta, int tb>        \
  inline BinaryMapExp<OP, TA, TB, DType, (ta | tb | type::kMapper)>          \
  operator symbol(const Exp<TA, DType, ta>& lhs,                             \
                  const Exp<TB, DType, tb>& rhs) {                           \
    return MakeExp<OP>(lhs, rhs);                                            \
  }                                                                          \
  template <typename TA, typename DType, int ta>                             \
  inline BinaryMapExp<OP, TA, ScalarExp<DType>, DType, (ta | type::kMapper)> \
  operator symbol(const Exp<TA, DType, ta>& lhs,                             \
                  const typename detail::NonDeduced<DType>::type& rhs) {     \
    return MakeExp<OP>(lhs, ScalarExp<DType>(rhs));                          \
  }                                                                          \
  template <typename TB, typename DType, int tb>                             \
  inline BinaryMapExp<OP, ScalarExp<DType>, TB, DType, (tb | type::kMapper)> \
  operator symbol(const typename detail::NonDeduced<DType>::type& lhs,       \
                  const Exp<TB, DType, tb>& rhs) {                           \
    return MakeExp<OP>(ScalarExp<DType>(lhs), rhs);                          \
  }
UMBRA_BINARY_OPERATOR(+, op::plus)
UMBRA_BINARY_OPERATOR(-, op::minus)
UMBRA_BINARY_OPERATOR(*, op::mul)
UMBRA_BINARY_OPERATOR(/, op::div)
#undef UMBRA_BINARY_OPERATOR

template <typename TA, typename DType, int ta>
inline UnaryMapExp<op::negation, TA, DType, (ta | type::kMapper)> operator-(
    const Exp<TA, DType, ta>& src) {
  return MakeExp<op::negation>(src);
}

// Base of the chainer expressions of tensor/extension: SubType evaluates at
// any (y, x) of a dim-D result of shape shape_, reading from SrcExp. SubType
// provides Plan<SubType, DType> (with Eval(y, x)) and MakePlan(const
// SubType&); the engine reaches them through this base.
template <typename SubType, typename SrcExp, int dim, typename DType>
struct MakeTensorExp : public Exp<MakeTensorExp<SubType, SrcExp, dim, DType>,
                                  DType, type::kChainer> {
  // Shape of the result.
  Shape<dim> shape_;
  // The concrete chainer.
  inline const SubType& real_self() const {
    return *static_cast<const SubType*>(this);
  }
};

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXPRESSION_H_
