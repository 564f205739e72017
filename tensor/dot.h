// Matrix products on the CPU through OpenBLAS: the DotEngine behind
// `dst = dot(a, b)`, `dst += scale * dot(a.T(), b)`, `batch_dot<lt, rt>(a, b)`
// and VectorDot. Strided views (padded rows, Slice of a wider tensor) are
// passed to BLAS as leading dimensions. A destination that overlaps an
// operand is computed through a temporary, so `a = dot(a, b)` is correct.
//
// Supported (float and double):
//   2-D = dot(2-D[.T()], 2-D[.T()])      gemm
//   1-D = dot(1-D, 2-D[.T()])            gemv (row vector times matrix)
//   2-D = dot(1-D.T(), 1-D)              ger (outer product)
//   3-D = batch_dot<lt, rt>(3-D, 3-D)     one gemm per batch entry
// with savers = (sv::saveto), += (sv::plusto) and -= (sv::minusto).
//
// Example:
//   out = dot(x, w.T());                 // (n, in) x (out, in)^T
//   gw += 0.5f * dot(gout.T(), x);
#ifndef UMBRA_TENSOR_DOT_H_
#define UMBRA_TENSOR_DOT_H_

#include <functional>
#include <type_traits>

#include "tensor/base.h"
#include "tensor/expr_engine.h"
#include "tensor/memory.h"
#include "tensor/tensor_core.h"

namespace umbra {
namespace blas {
// Row-major C = alpha * op(A) * op(B) + beta * C; A is m x k after op, B is
// k x n after op; lda/ldb/ldc are row strides in elements.
void Gemm(bool trans_a, bool trans_b, index_t m, index_t n, index_t k,
          float alpha, const float* a, index_t lda, const float* b, index_t ldb,
          float beta, float* c, index_t ldc);
void Gemm(bool trans_a, bool trans_b, index_t m, index_t n, index_t k,
          double alpha, const double* a, index_t lda, const double* b,
          index_t ldb, double beta, double* c, index_t ldc);
// Rows [row_begin, row_end) and columns [col_begin, col_end) of a matrix.
struct MatrixBlock {
  index_t row_begin, row_end, col_begin, col_end;
};
// Called on each block of C right after the thread that computed it, while
// the block is in that core's cache: a bias, an activation.
using BlockFinisher = std::function<void(const MatrixBlock&)>;
// Gemm, then `finish` on blocks that tile C (one per thread the product is
// split over), each on the thread that computed it.
void Gemm(bool trans_a, bool trans_b, index_t m, index_t n, index_t k,
          float alpha, const float* a, index_t lda, const float* b, index_t ldb,
          float beta, float* c, index_t ldc, const BlockFinisher& finish);
void Gemm(bool trans_a, bool trans_b, index_t m, index_t n, index_t k,
          double alpha, const double* a, index_t lda, const double* b,
          index_t ldb, double beta, double* c, index_t ldc,
          const BlockFinisher& finish);
// y = alpha * op(A) * x + beta * y for a row-major m x n matrix A.
void Gemv(bool trans_a, index_t m, index_t n, float alpha, const float* a,
          index_t lda, const float* x, float beta, float* y);
void Gemv(bool trans_a, index_t m, index_t n, double alpha, const double* a,
          index_t lda, const double* x, double beta, double* y);
// A += alpha * x * y^T for a row-major m x n matrix A.
void Ger(index_t m, index_t n, float alpha, const float* x, const float* y,
         float* a, index_t lda);
void Ger(index_t m, index_t n, double alpha, const double* x, const double* y,
         double* a, index_t lda);
// x . y
float Dot(index_t n, const float* x, const float* y);
double Dot(index_t n, const double* x, const double* y);
}  // namespace blas

namespace dot_detail {
template <typename DType>
struct BlasType {
  static_assert(std::is_same<DType, float>::value ||
                    std::is_same<DType, double>::value,
                "dot on the CPU supports float and double tensors only");
};
// alpha, beta for a saver; other savers are rejected at compile time.
template <typename SV>
struct DotSaver {
  static_assert(std::is_same<SV, sv::saveto>::value ||
                    std::is_same<SV, sv::plusto>::value ||
                    std::is_same<SV, sv::minusto>::value,
                "dot() can be assigned with =, += or -= only");
  static constexpr double kAlphaSign =
      std::is_same<SV, sv::minusto>::value ? -1.0 : 1.0;
  static constexpr double kBeta =
      std::is_same<SV, sv::saveto>::value ? 0.0 : 1.0;
};
// The helpers below serve the DotEngines of every device (tensor/gpu's too).

// Whether the memory spans of two tensors overlap.
template <typename Device, int da, int db, typename DType>
inline bool Overlap(const Tensor<Device, da, DType>& a,
                    const Tensor<Device, db, DType>& b) {
  const DType* a_end = a.dptr_ + a.MSize();
  const DType* b_end = b.dptr_ + b.MSize();
  return a.dptr_ < b_end && b.dptr_ < a_end;
}
// Rows, columns of a 2-D operand after the optional transpose.
template <typename Device, typename DType>
inline Shape<2> OpShape(const Tensor<Device, 2, DType>& t, bool trans) {
  return trans ? Shape2(t.size(1), t.size(0)) : t.shape_;
}
// Rows, columns of each matrix of a 3-D batch after the optional transpose.
template <typename Device, typename DType>
inline Shape<2> OpShape(const Tensor<Device, 3, DType>& t, bool trans) {
  return trans ? Shape2(t.size(2), t.size(1)) : Shape2(t.size(1), t.size(2));
}
// When *dst overlaps lhs or rhs, runs Engine::Eval into a temporary on dst's
// stream (seeded with dst for += and -=), copies it into *dst and returns
// true; otherwise does nothing and returns false.
template <typename SV, typename Engine, typename Device, int dim,
          typename DType, typename TL, typename TR>
inline bool EvalThroughTemporaryIfOverlap(Tensor<Device, dim, DType>* dst,
                                          const TL& lhs, const TR& rhs,
                                          DType scale) {
  if (!Overlap(*dst, lhs) && !Overlap(*dst, rhs)) return false;
  TensorContainer<Device, dim, DType> tmp(dst->shape_);
  tmp.set_stream(dst->stream_);
  Tensor<Device, dim, DType> t = tmp.view();
  if (DotSaver<SV>::kBeta != 0) Copy(t, *dst, dst->stream_);
  Engine::Eval(&t, lhs, rhs, scale);
  Copy(*dst, t, dst->stream_);
  // tmp is freed when this returns; freeing device memory waits for the
  // queued work.
  return true;
}
[[noreturn]] void ThrowDotShapeError(const char* what, const std::string& lhs,
                                     const std::string& rhs,
                                     const std::string& dst);
template <int d1, int d2, int d3>
[[noreturn]] inline void DotShapeError(const char* what, const Shape<d1>& l,
                                       bool lt, const Shape<d2>& r, bool rt,
                                       const Shape<d3>& d) {
  ThrowDotShapeError(what, detail::StrCat(l, lt ? ".T()" : ""),
                     detail::StrCat(r, rt ? ".T()" : ""), detail::StrCat(d));
}
}  // namespace dot_detail

namespace expr {

// 2-D = dot(2-D, 2-D): gemm.
template <typename SV, bool ltrans, bool rtrans, typename DType>
struct DotEngine<SV, cpu, 2, 2, 2, ltrans, rtrans, DType> {
  inline static void Eval(Tensor<cpu, 2, DType>* p_dst,
                          const Tensor<cpu, 2, DType>& lhs,
                          const Tensor<cpu, 2, DType>& rhs, DType scale) {
    (void)dot_detail::BlasType<DType>();
    Tensor<cpu, 2, DType>& dst = *p_dst;
    const Shape<2> sl = dot_detail::OpShape(lhs, ltrans);
    const Shape<2> sr = dot_detail::OpShape(rhs, rtrans);
    if (sl[1] != sr[0] || dst.size(0) != sl[0] || dst.size(1) != sr[1]) {
      dot_detail::DotShapeError("dot", lhs.shape_, ltrans, rhs.shape_, rtrans,
                                dst.shape_);
    }
    if (dst.shape_.Size() == 0) return;
    if (dot_detail::EvalThroughTemporaryIfOverlap<SV, DotEngine>(&dst, lhs, rhs,
                                                                 scale)) {
      return;
    }
    blas::Gemm(ltrans, rtrans, sl[0], sr[1], sl[1],
               DType(dot_detail::DotSaver<SV>::kAlphaSign * scale), lhs.dptr_,
               lhs.stride_, rhs.dptr_, rhs.stride_,
               DType(dot_detail::DotSaver<SV>::kBeta), dst.dptr_, dst.stride_);
  }
};

// 1-D = dot(1-D, 2-D): gemv (x^T * op(W)).
template <typename SV, bool rtrans, typename DType>
struct DotEngine<SV, cpu, 1, 1, 2, false, rtrans, DType> {
  inline static void Eval(Tensor<cpu, 1, DType>* p_dst,
                          const Tensor<cpu, 1, DType>& lhs,
                          const Tensor<cpu, 2, DType>& rhs, DType scale) {
    (void)dot_detail::BlasType<DType>();
    Tensor<cpu, 1, DType>& dst = *p_dst;
    const Shape<2> sr = dot_detail::OpShape(rhs, rtrans);
    if (lhs.size(0) != sr[0] || dst.size(0) != sr[1]) {
      dot_detail::DotShapeError("dot", lhs.shape_, false, rhs.shape_, rtrans,
                                dst.shape_);
    }
    if (dst.size(0) == 0) return;
    if (dot_detail::EvalThroughTemporaryIfOverlap<SV, DotEngine>(&dst, lhs, rhs,
                                                                 scale)) {
      return;
    }
    // x^T W = (W^T x)^T: gemv with the opposite transpose.
    blas::Gemv(!rtrans, rhs.size(0), rhs.size(1),
               DType(dot_detail::DotSaver<SV>::kAlphaSign * scale), rhs.dptr_,
               rhs.stride_, lhs.dptr_, DType(dot_detail::DotSaver<SV>::kBeta),
               dst.dptr_);
  }
};

// 2-D = dot(1-D.T(), 1-D): outer product (ger).
template <typename SV, typename DType>
struct DotEngine<SV, cpu, 2, 1, 1, true, false, DType> {
  inline static void Eval(Tensor<cpu, 2, DType>* p_dst,
                          const Tensor<cpu, 1, DType>& lhs,
                          const Tensor<cpu, 1, DType>& rhs, DType scale) {
    (void)dot_detail::BlasType<DType>();
    Tensor<cpu, 2, DType>& dst = *p_dst;
    if (dst.size(0) != lhs.size(0) || dst.size(1) != rhs.size(0)) {
      dot_detail::DotShapeError("dot (outer product)", lhs.shape_, true,
                                rhs.shape_, false, dst.shape_);
    }
    if (dst.shape_.Size() == 0) return;
    if (dot_detail::EvalThroughTemporaryIfOverlap<SV, DotEngine>(&dst, lhs, rhs,
                                                                 scale)) {
      return;
    }
    if (dot_detail::DotSaver<SV>::kBeta == 0) dst = DType(0);
    blas::Ger(lhs.size(0), rhs.size(0),
              DType(dot_detail::DotSaver<SV>::kAlphaSign * scale), lhs.dptr_,
              rhs.dptr_, dst.dptr_, dst.stride_);
  }
};

// 3-D = batch_dot(3-D, 3-D): dst[i] = op(lhs[i]) * op(rhs[i]).
template <typename SV, bool ltrans, bool rtrans, typename DType>
struct DotEngine<SV, cpu, 3, 3, 3, ltrans, rtrans, DType> {
  inline static void Eval(Tensor<cpu, 3, DType>* p_dst,
                          const Tensor<cpu, 3, DType>& lhs,
                          const Tensor<cpu, 3, DType>& rhs, DType scale) {
    Tensor<cpu, 3, DType>& dst = *p_dst;
    if (lhs.size(0) != dst.size(0) || rhs.size(0) != dst.size(0)) {
      dot_detail::DotShapeError("batch_dot: batch sizes differ", lhs.shape_,
                                ltrans, rhs.shape_, rtrans, dst.shape_);
    }
    const Shape<2> sl = dot_detail::OpShape(lhs, ltrans);
    const Shape<2> sr = dot_detail::OpShape(rhs, rtrans);
    if (sl[1] != sr[0] || dst.size(1) != sl[0] || dst.size(2) != sr[1]) {
      dot_detail::DotShapeError("batch_dot", lhs.shape_, ltrans, rhs.shape_,
                                rtrans, dst.shape_);
    }
    for (index_t i = 0; i < dst.size(0); ++i) {
      Tensor<cpu, 2, DType> d = dst[i];
      DotEngine<SV, cpu, 2, 2, 2, ltrans, rtrans, DType>::Eval(&d, lhs[i],
                                                               rhs[i], scale);
    }
  }
};

}  // namespace expr

// dst[0] = lhs . rhs (1-D tensors of equal length).
template <typename DType>
inline void VectorDot(Tensor<cpu, 1, DType> dst,
                      const Tensor<cpu, 1, DType>& lhs,
                      const Tensor<cpu, 1, DType>& rhs) {
  (void)dot_detail::BlasType<DType>();
  if (lhs.size(0) != rhs.size(0) || dst.size(0) < 1) {
    ThrowTensorError("VectorDot: shapes differ: ", lhs.shape_, " vs ",
                     rhs.shape_, " (destination ", dst.shape_, ")");
  }
  dst[0] = blas::Dot(lhs.size(0), lhs.dptr_, rhs.dptr_);
}

}  // namespace umbra

#endif  // UMBRA_TENSOR_DOT_H_
