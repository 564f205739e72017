// Element-wise GPU operations for host-only .cc code (layers, updaters):
// each is one kernel compiled once per type in ops.cu, so code that g++
// compiles can run common expressions on gpu tensors without nvcc. (In a
// .cu file, write the expression itself instead: `dst = F<op::relu>(src)`.)
//
// Every function takes tensors of any rank (same shape; any strides), runs
// on dst's stream (the default stream when it has none) and is available
// for float and double; the unary and binary ones for the operators listed
// in kGpuUnaryOps / kGpuBinaryOps below and the savers = and +=.
//
// Example (layer.cc):
//   gpu_ops::Unary<op::relu>(out, in);                  // out = relu(in)
//   gpu_ops::UnaryMul<op::relu_grad>(gin, gout, out);   // gin = gout *
//   relu'(out) gpu_ops::Binary<op::plus, sv::plusto>(acc, a, b);   // acc += a
//   + b gpu_ops::SgdUpdate(w, g, 0.1f, 1e-4f);              // w -= eta*(g +
//   wd*w)
#ifndef UMBRA_TENSOR_GPU_OPS_GPU_H_
#define UMBRA_TENSOR_GPU_OPS_GPU_H_

#include <type_traits>

#include "tensor/base.h"
#include "tensor/gpu/stream.h"
#include "tensor/operators.h"
#include "tensor/tensor_core.h"

namespace umbra {
namespace gpu_ops {
namespace detail {

template <typename T, typename... List>
struct OneOf : std::disjunction<std::is_same<T, List>...> {};

// The operators ops.cu instantiates.
template <typename OP>
struct IsUnaryOp : OneOf<OP, op::identity, op::negation, op::exp, op::log,
                         op::sqrt, op::rsqrt, op::square, op::abs, op::sign,
                         op::relu, op::relu_grad, op::sigmoid, op::sigmoid_grad,
                         op::tanh, op::tanh_grad, op::softplus> {};
template <typename OP>
struct IsBinaryOp : OneOf<OP, op::plus, op::minus, op::mul, op::div,
                          op::maximum, op::minimum, op::pow, op::threshold> {};
template <typename Saver>
struct IsSaver : OneOf<Saver, sv::saveto, sv::plusto> {};

template <typename OP, typename Saver, typename DType>
void Unary(Tensor<gpu, 2, DType> dst, Tensor<gpu, 2, DType> src);
template <typename OP, typename Saver, typename DType>
void UnaryMul(Tensor<gpu, 2, DType> dst, Tensor<gpu, 2, DType> a,
              Tensor<gpu, 2, DType> b);
template <typename OP, typename Saver, typename DType>
void Binary(Tensor<gpu, 2, DType> dst, Tensor<gpu, 2, DType> a,
            Tensor<gpu, 2, DType> b);
template <typename OP, typename Saver, typename DType>
void BinaryScalar(Tensor<gpu, 2, DType> dst, Tensor<gpu, 2, DType> a, DType b);
template <typename DType>
void Axpby(Tensor<gpu, 2, DType> dst, DType alpha, Tensor<gpu, 2, DType> x,
           DType beta);
template <typename DType>
void SgdUpdate(Tensor<gpu, 2, DType> w, Tensor<gpu, 2, DType> g, DType eta,
               DType wd);
template <typename DType>
void MomentumUpdate(Tensor<gpu, 2, DType> w, Tensor<gpu, 2, DType> m,
                    Tensor<gpu, 2, DType> g, DType eta, DType momentum,
                    DType wd);

template <int dim>
inline void CheckSame(const char* what, const Shape<dim>& a,
                      const Shape<dim>& b) {
  if (a != b) {
    ThrowTensorError("gpu_ops::", what, ": shapes differ: ", a, " vs ", b);
  }
}

template <typename OP, typename Saver>
inline void CheckUnary() {
  static_assert(IsUnaryOp<OP>::value,
                "gpu_ops: this operator is not instantiated for host code; "
                "write the expression in a .cu file or add the operator to "
                "IsUnaryOp and ops.cu");
  static_assert(IsSaver<Saver>::value, "gpu_ops: saver must be = or +=");
}
template <typename OP, typename Saver>
inline void CheckBinary() {
  static_assert(IsBinaryOp<OP>::value,
                "gpu_ops: this operator is not instantiated for host code; "
                "write the expression in a .cu file or add the operator to "
                "IsBinaryOp and ops.cu");
  static_assert(IsSaver<Saver>::value, "gpu_ops: saver must be = or +=");
}

}  // namespace detail

// dst <Saver> OP(src).
template <typename OP, typename Saver = sv::saveto, int dim, typename DType>
inline void Unary(Tensor<gpu, dim, DType> dst,
                  const Tensor<gpu, dim, DType>& src) {
  detail::CheckUnary<OP, Saver>();
  detail::CheckSame("Unary", dst.shape_, src.shape_);
  detail::Unary<OP, Saver, DType>(dst.FlatTo2D(), src.FlatTo2D());
}
// dst <Saver> a * OP(b): the backward step of an activation.
template <typename OP, typename Saver = sv::saveto, int dim, typename DType>
inline void UnaryMul(Tensor<gpu, dim, DType> dst,
                     const Tensor<gpu, dim, DType>& a,
                     const Tensor<gpu, dim, DType>& b) {
  detail::CheckUnary<OP, Saver>();
  detail::CheckSame("UnaryMul", dst.shape_, a.shape_);
  detail::CheckSame("UnaryMul", a.shape_, b.shape_);
  detail::UnaryMul<OP, Saver, DType>(dst.FlatTo2D(), a.FlatTo2D(),
                                     b.FlatTo2D());
}
// dst <Saver> OP(a, b).
template <typename OP, typename Saver = sv::saveto, int dim, typename DType>
inline void Binary(Tensor<gpu, dim, DType> dst,
                   const Tensor<gpu, dim, DType>& a,
                   const Tensor<gpu, dim, DType>& b) {
  detail::CheckBinary<OP, Saver>();
  detail::CheckSame("Binary", dst.shape_, a.shape_);
  detail::CheckSame("Binary", a.shape_, b.shape_);
  detail::Binary<OP, Saver, DType>(dst.FlatTo2D(), a.FlatTo2D(), b.FlatTo2D());
}
// dst <Saver> OP(a, scalar b).
template <typename OP, typename Saver = sv::saveto, int dim, typename DType>
inline void BinaryScalar(Tensor<gpu, dim, DType> dst,
                         const Tensor<gpu, dim, DType>& a, DType b) {
  detail::CheckBinary<OP, Saver>();
  detail::CheckSame("BinaryScalar", dst.shape_, a.shape_);
  detail::BinaryScalar<OP, Saver, DType>(dst.FlatTo2D(), a.FlatTo2D(), b);
}
// dst = alpha * x + beta * dst.
template <int dim, typename DType>
inline void Axpby(Tensor<gpu, dim, DType> dst, DType alpha,
                  const Tensor<gpu, dim, DType>& x, DType beta) {
  detail::CheckSame("Axpby", dst.shape_, x.shape_);
  detail::Axpby(dst.FlatTo2D(), alpha, x.FlatTo2D(), beta);
}
// w = w - eta * (g + wd * w).
template <int dim, typename DType>
inline void SgdUpdate(Tensor<gpu, dim, DType> w,
                      const Tensor<gpu, dim, DType>& g, DType eta, DType wd) {
  detail::CheckSame("SgdUpdate", w.shape_, g.shape_);
  detail::SgdUpdate(w.FlatTo2D(), g.FlatTo2D(), eta, wd);
}
// m = momentum * m - eta * (g + wd * w); w += m.
template <int dim, typename DType>
inline void MomentumUpdate(Tensor<gpu, dim, DType> w, Tensor<gpu, dim, DType> m,
                           const Tensor<gpu, dim, DType>& g, DType eta,
                           DType momentum, DType wd) {
  detail::CheckSame("MomentumUpdate", w.shape_, g.shape_);
  detail::CheckSame("MomentumUpdate", w.shape_, m.shape_);
  detail::MomentumUpdate(w.FlatTo2D(), m.FlatTo2D(), g.FlatTo2D(), eta,
                         momentum, wd);
}

}  // namespace gpu_ops
}  // namespace umbra

#endif  // UMBRA_TENSOR_GPU_OPS_GPU_H_
