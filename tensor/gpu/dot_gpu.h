// Matrix products on the GPU through cuBLAS: the gpu DotEngine behind
// `dst = dot(a, b)`, `dst += scale * dot(a.T(), b)` and
// `batch_dot<lt, rt>(a, b)` on Tensor<gpu>. Usable from host .cc code.
//
// Supported, as on the CPU (dot.h), with savers =, += and -=:
//   2-D = dot(2-D[.T()], 2-D[.T()])     gemm (float, double, half_t)
//   1-D = dot(1-D, 2-D[.T()])           gemv
//   2-D = dot(1-D.T(), 1-D)             ger (outer product)
//   3-D = batch_dot<lt, rt>(3-D, 3-D)   one strided-batched gemm
// half_t tensors are multiplied with fp32 accumulation (cublasGemmEx,
// CUBLAS_COMPUTE_32F). The product runs on the destination's stream (the
// default stream when it has none), with that stream's cuBLAS handle.
// Strided views are passed as leading dimensions; a destination that
// overlaps an operand is computed through a temporary.
//
// Example:
//   TensorContainer<gpu, 2> out(Shape2(n, nout));
//   out = dot(x, w.T());              // cublasSgemm
//   gw += 0.5f * dot(gout.T(), x);    // beta = 1
//   y = batch_dot<false, true>(a, b); // cublasSgemmStridedBatched
//
// Errors: mismatched shapes throw TensorError naming all three shapes; a
// failed cuBLAS call throws GpuError naming the call, m, n, k and the leading
// dimensions.
#ifndef UMBRA_TENSOR_GPU_DOT_GPU_H_
#define UMBRA_TENSOR_GPU_DOT_GPU_H_

#include <type_traits>

#include "tensor/base.h"
#include "tensor/dot.h"
#include "tensor/expr_engine.h"
#include "tensor/gpu/map_gpu.h"
#include "tensor/gpu/memory_gpu.h"
#include "tensor/gpu/stream.h"
#include "tensor/memory.h"
#include "tensor/tensor_core.h"

namespace umbra {
namespace gpu_blas {

// Row-major C = alpha * op(A) * op(B) + beta * C on `stream` (null: the
// default stream); A is m x k after op, B is k x n after op; lda/ldb/ldc are
// row strides in elements. `batch` products with element strides stride_a,
// stride_b, stride_c between consecutive matrices (batch 1: plain gemm).
void Gemm(Stream<gpu>* stream, bool trans_a, bool trans_b, index_t m, index_t n,
          index_t k, float alpha, const float* a, index_t lda, index_t stride_a,
          const float* b, index_t ldb, index_t stride_b, float beta, float* c,
          index_t ldc, index_t stride_c, index_t batch = 1);
void Gemm(Stream<gpu>* stream, bool trans_a, bool trans_b, index_t m, index_t n,
          index_t k, double alpha, const double* a, index_t lda,
          index_t stride_a, const double* b, index_t ldb, index_t stride_b,
          double beta, double* c, index_t ldc, index_t stride_c,
          index_t batch = 1);
// half storage, fp32 compute.
void Gemm(Stream<gpu>* stream, bool trans_a, bool trans_b, index_t m, index_t n,
          index_t k, float alpha, const half_t* a, index_t lda,
          index_t stride_a, const half_t* b, index_t ldb, index_t stride_b,
          float beta, half_t* c, index_t ldc, index_t stride_c,
          index_t batch = 1);
// y = alpha * x^T * op(A) + beta * y for a row-major m x n matrix A (y has n
// elements, or m when trans_a).
void Gemv(Stream<gpu>* stream, bool trans_a, index_t m, index_t n, float alpha,
          const float* a, index_t lda, const float* x, float beta, float* y);
void Gemv(Stream<gpu>* stream, bool trans_a, index_t m, index_t n, double alpha,
          const double* a, index_t lda, const double* x, double beta,
          double* y);
void Gemv(Stream<gpu>* stream, bool trans_a, index_t m, index_t n, float alpha,
          const half_t* a, index_t lda, const half_t* x, float beta, half_t* y);
// A += alpha * x * y^T for a row-major m x n matrix A.
void Ger(Stream<gpu>* stream, index_t m, index_t n, float alpha, const float* x,
         const float* y, float* a, index_t lda);
void Ger(Stream<gpu>* stream, index_t m, index_t n, double alpha,
         const double* x, const double* y, double* a, index_t lda);
void Ger(Stream<gpu>* stream, index_t m, index_t n, float alpha,
         const half_t* x, const half_t* y, half_t* a, index_t lda);

}  // namespace gpu_blas

namespace gpu_dot_detail {
template <typename DType>
struct CublasType {
  static_assert(std::is_same<DType, float>::value ||
                    std::is_same<DType, double>::value ||
                    std::is_same<DType, half_t>::value,
                "dot on the GPU supports float, double and half_t tensors");
  // The type of alpha and beta: float for half_t (fp32 compute).
  typedef typename std::conditional<std::is_same<DType, double>::value, double,
                                    float>::type Scalar;
};
}  // namespace gpu_dot_detail

namespace expr {

// 2-D = dot(2-D, 2-D): gemm.
template <typename SV, bool ltrans, bool rtrans, typename DType>
struct DotEngine<SV, gpu, 2, 2, 2, ltrans, rtrans, DType> {
  inline static void Eval(Tensor<gpu, 2, DType>* p_dst,
                          const Tensor<gpu, 2, DType>& lhs,
                          const Tensor<gpu, 2, DType>& rhs, DType scale) {
    typedef typename gpu_dot_detail::CublasType<DType>::Scalar Scalar;
    Tensor<gpu, 2, DType>& dst = *p_dst;
    const Shape<2> sl = dot_detail::OpShape(lhs, ltrans);
    const Shape<2> sr = dot_detail::OpShape(rhs, rtrans);
    if (sl[1] != sr[0] || dst.size(0) != sl[0] || dst.size(1) != sr[1]) {
      dot_detail::DotShapeError("dot (gpu)", lhs.shape_, ltrans, rhs.shape_,
                                rtrans, dst.shape_);
    }
    if (dst.shape_.Size() == 0) return;
    if (dot_detail::EvalThroughTemporaryIfOverlap<SV, DotEngine>(&dst, lhs, rhs,
                                                                 scale)) {
      return;
    }
    gpu_blas::Gemm(dst.stream_, ltrans, rtrans, sl[0], sr[1], sl[1],
                   Scalar(dot_detail::DotSaver<SV>::kAlphaSign * Scalar(scale)),
                   lhs.dptr_, lhs.stride_, 0, rhs.dptr_, rhs.stride_, 0,
                   Scalar(dot_detail::DotSaver<SV>::kBeta), dst.dptr_,
                   dst.stride_, 0, 1);
  }
};

// 1-D = dot(1-D, 2-D): gemv.
template <typename SV, bool rtrans, typename DType>
struct DotEngine<SV, gpu, 1, 1, 2, false, rtrans, DType> {
  inline static void Eval(Tensor<gpu, 1, DType>* p_dst,
                          const Tensor<gpu, 1, DType>& lhs,
                          const Tensor<gpu, 2, DType>& rhs, DType scale) {
    typedef typename gpu_dot_detail::CublasType<DType>::Scalar Scalar;
    Tensor<gpu, 1, DType>& dst = *p_dst;
    const Shape<2> sr = dot_detail::OpShape(rhs, rtrans);
    if (lhs.size(0) != sr[0] || dst.size(0) != sr[1]) {
      dot_detail::DotShapeError("dot (gpu)", lhs.shape_, false, rhs.shape_,
                                rtrans, dst.shape_);
    }
    if (dst.size(0) == 0) return;
    if (dot_detail::EvalThroughTemporaryIfOverlap<SV, DotEngine>(&dst, lhs, rhs,
                                                                 scale)) {
      return;
    }
    gpu_blas::Gemv(dst.stream_, rtrans, rhs.size(0), rhs.size(1),
                   Scalar(dot_detail::DotSaver<SV>::kAlphaSign * Scalar(scale)),
                   rhs.dptr_, rhs.stride_, lhs.dptr_,
                   Scalar(dot_detail::DotSaver<SV>::kBeta), dst.dptr_);
  }
};

// 2-D = dot(1-D.T(), 1-D): outer product.
template <typename SV, typename DType>
struct DotEngine<SV, gpu, 2, 1, 1, true, false, DType> {
  inline static void Eval(Tensor<gpu, 2, DType>* p_dst,
                          const Tensor<gpu, 1, DType>& lhs,
                          const Tensor<gpu, 1, DType>& rhs, DType scale) {
    typedef typename gpu_dot_detail::CublasType<DType>::Scalar Scalar;
    Tensor<gpu, 2, DType>& dst = *p_dst;
    if (dst.size(0) != lhs.size(0) || dst.size(1) != rhs.size(0)) {
      dot_detail::DotShapeError("dot (gpu outer product)", lhs.shape_, true,
                                rhs.shape_, false, dst.shape_);
    }
    if (dst.shape_.Size() == 0) return;
    if (dot_detail::EvalThroughTemporaryIfOverlap<SV, DotEngine>(&dst, lhs, rhs,
                                                                 scale)) {
      return;
    }
    if (dot_detail::DotSaver<SV>::kBeta == 0) dst = DType(0);
    gpu_blas::Ger(dst.stream_, lhs.size(0), rhs.size(0),
                  Scalar(dot_detail::DotSaver<SV>::kAlphaSign * Scalar(scale)),
                  lhs.dptr_, rhs.dptr_, dst.dptr_, dst.stride_);
  }
};

// 3-D = batch_dot(3-D, 3-D): one strided-batched gemm.
template <typename SV, bool ltrans, bool rtrans, typename DType>
struct DotEngine<SV, gpu, 3, 3, 3, ltrans, rtrans, DType> {
  inline static void Eval(Tensor<gpu, 3, DType>* p_dst,
                          const Tensor<gpu, 3, DType>& lhs,
                          const Tensor<gpu, 3, DType>& rhs, DType scale) {
    typedef typename gpu_dot_detail::CublasType<DType>::Scalar Scalar;
    Tensor<gpu, 3, DType>& dst = *p_dst;
    if (lhs.size(0) != dst.size(0) || rhs.size(0) != dst.size(0)) {
      dot_detail::DotShapeError("batch_dot (gpu): batch sizes differ",
                                lhs.shape_, ltrans, rhs.shape_, rtrans,
                                dst.shape_);
    }
    const Shape<2> sl = dot_detail::OpShape(lhs, ltrans);
    const Shape<2> sr = dot_detail::OpShape(rhs, rtrans);
    if (sl[1] != sr[0] || dst.size(1) != sl[0] || dst.size(2) != sr[1]) {
      dot_detail::DotShapeError("batch_dot (gpu)", lhs.shape_, ltrans,
                                rhs.shape_, rtrans, dst.shape_);
    }
    if (dst.shape_.Size() == 0) return;
    if (dot_detail::EvalThroughTemporaryIfOverlap<SV, DotEngine>(&dst, lhs, rhs,
                                                                 scale)) {
      return;
    }
    gpu_blas::Gemm(dst.stream_, ltrans, rtrans, sl[0], sr[1], sl[1],
                   Scalar(dot_detail::DotSaver<SV>::kAlphaSign * Scalar(scale)),
                   lhs.dptr_, lhs.stride_, lhs.template MemSize<1>(), rhs.dptr_,
                   rhs.stride_, rhs.template MemSize<1>(),
                   Scalar(dot_detail::DotSaver<SV>::kBeta), dst.dptr_,
                   dst.stride_, dst.template MemSize<1>(), dst.size(0));
  }
};

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_GPU_DOT_GPU_H_
