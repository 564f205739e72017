// The kernels behind ops_gpu.h: each entry point is an expression evaluated
// by the generic engine and instantiated here once per type.
#include "tensor/gpu/map_kernels_cuda.h"
#include "tensor/gpu/ops_gpu.h"

namespace umbra {
namespace gpu_ops {
namespace detail {

using expr::F;
using expr::scalar;

template <typename OP, typename Saver, typename DType>
void Unary(Tensor<gpu, 2, DType> dst, Tensor<gpu, 2, DType> src) {
  gpu_detail::MapPlanGpu<Saver, DType>(&dst, F<OP>(src), dst.shape_);
}
template <typename OP, typename Saver, typename DType>
void UnaryMul(Tensor<gpu, 2, DType> dst, Tensor<gpu, 2, DType> a,
              Tensor<gpu, 2, DType> b) {
  gpu_detail::MapPlanGpu<Saver, DType>(&dst, a * F<OP>(b), dst.shape_);
}
template <typename OP, typename Saver, typename DType>
void Binary(Tensor<gpu, 2, DType> dst, Tensor<gpu, 2, DType> a,
            Tensor<gpu, 2, DType> b) {
  gpu_detail::MapPlanGpu<Saver, DType>(&dst, F<OP>(a, b), dst.shape_);
}
template <typename OP, typename Saver, typename DType>
void BinaryScalar(Tensor<gpu, 2, DType> dst, Tensor<gpu, 2, DType> a, DType b) {
  gpu_detail::MapPlanGpu<Saver, DType>(&dst, F<OP>(a, scalar(b)), dst.shape_);
}
template <typename DType>
void Axpby(Tensor<gpu, 2, DType> dst, DType alpha, Tensor<gpu, 2, DType> x,
           DType beta) {
  dst = alpha * x + beta * dst;
}
template <typename DType>
void SgdUpdate(Tensor<gpu, 2, DType> w, Tensor<gpu, 2, DType> g, DType eta,
               DType wd) {
  w -= eta * (g + wd * w);
}
template <typename DType>
void MomentumUpdate(Tensor<gpu, 2, DType> w, Tensor<gpu, 2, DType> m,
                    Tensor<gpu, 2, DType> g, DType eta, DType momentum,
                    DType wd) {
  m = momentum * m - eta * (g + wd * w);
  w += m;
}

#define UMBRA_OPS_UNARY(OP, DType)                                          \
  template void Unary<OP, sv::saveto, DType>(Tensor<gpu, 2, DType>,         \
                                             Tensor<gpu, 2, DType>);        \
  template void Unary<OP, sv::plusto, DType>(Tensor<gpu, 2, DType>,         \
                                             Tensor<gpu, 2, DType>);        \
  template void UnaryMul<OP, sv::saveto, DType>(                            \
      Tensor<gpu, 2, DType>, Tensor<gpu, 2, DType>, Tensor<gpu, 2, DType>); \
  template void UnaryMul<OP, sv::plusto, DType>(                            \
      Tensor<gpu, 2, DType>, Tensor<gpu, 2, DType>, Tensor<gpu, 2, DType>);
#define UMBRA_OPS_BINARY(OP, DType)                                         \
  template void Binary<OP, sv::saveto, DType>(                              \
      Tensor<gpu, 2, DType>, Tensor<gpu, 2, DType>, Tensor<gpu, 2, DType>); \
  template void Binary<OP, sv::plusto, DType>(                              \
      Tensor<gpu, 2, DType>, Tensor<gpu, 2, DType>, Tensor<gpu, 2, DType>); \
  template void BinaryScalar<OP, sv::saveto, DType>(                        \
      Tensor<gpu, 2, DType>, Tensor<gpu, 2, DType>, DType);                 \
  template void BinaryScalar<OP, sv::plusto, DType>(                        \
      Tensor<gpu, 2, DType>, Tensor<gpu, 2, DType>, DType);
#define UMBRA_OPS_TYPE(DType)                                                  \
  UMBRA_OPS_UNARY(op::identity, DType)                                         \
  UMBRA_OPS_UNARY(op::negation, DType)                                         \
  UMBRA_OPS_UNARY(op::exp, DType)                                              \
  UMBRA_OPS_UNARY(op::log, DType)                                              \
  UMBRA_OPS_UNARY(op::sqrt, DType)                                             \
  UMBRA_OPS_UNARY(op::rsqrt, DType)                                            \
  UMBRA_OPS_UNARY(op::square, DType)                                           \
  UMBRA_OPS_UNARY(op::abs, DType)                                              \
  UMBRA_OPS_UNARY(op::sign, DType)                                             \
  UMBRA_OPS_UNARY(op::relu, DType)                                             \
  UMBRA_OPS_UNARY(op::relu_grad, DType)                                        \
  UMBRA_OPS_UNARY(op::sigmoid, DType)                                          \
  UMBRA_OPS_UNARY(op::sigmoid_grad, DType)                                     \
  UMBRA_OPS_UNARY(op::tanh, DType)                                             \
  UMBRA_OPS_UNARY(op::tanh_grad, DType)                                        \
  UMBRA_OPS_UNARY(op::softplus, DType)                                         \
  UMBRA_OPS_BINARY(op::plus, DType)                                            \
  UMBRA_OPS_BINARY(op::minus, DType)                                           \
  UMBRA_OPS_BINARY(op::mul, DType)                                             \
  UMBRA_OPS_BINARY(op::div, DType)                                             \
  UMBRA_OPS_BINARY(op::maximum, DType)                                         \
  UMBRA_OPS_BINARY(op::minimum, DType)                                         \
  UMBRA_OPS_BINARY(op::pow, DType)                                             \
  UMBRA_OPS_BINARY(op::threshold, DType)                                       \
  template void Axpby<DType>(Tensor<gpu, 2, DType>, DType,                     \
                             Tensor<gpu, 2, DType>, DType);                    \
  template void SgdUpdate<DType>(Tensor<gpu, 2, DType>, Tensor<gpu, 2, DType>, \
                                 DType, DType);                                \
  template void MomentumUpdate<DType>(                                         \
      Tensor<gpu, 2, DType>, Tensor<gpu, 2, DType>, Tensor<gpu, 2, DType>,     \
      DType, DType, DType);

UMBRA_OPS_TYPE(float)
UMBRA_OPS_TYPE(double)

}  // namespace detail
}  // namespace gpu_ops
}  // namespace umbra
