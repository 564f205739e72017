#include "tensor/dot.h"

#include <climits>

#include "tensor/blas_library.h"

namespace umbra {
namespace {

// BLAS takes int sizes.
int ToBlasInt(index_t v, const char* what) {
  if (v < 0 || v > INT_MAX) {
    ThrowTensorError("dot: ", what, " = ", v,
                     " does not fit the BLAS integer type");
  }
  return static_cast<int>(v);
}

CBLAS_TRANSPOSE Trans(bool t) { return t ? CblasTrans : CblasNoTrans; }

// Leading dimension: BLAS needs at least 1 and at least the row length.
int Ld(index_t stride, index_t cols) {
  return ToBlasInt(stride < cols ? cols : (stride < 1 ? 1 : stride), "ld");
}

}  // namespace

namespace dot_detail {
void ThrowDotShapeError(const char* what, const std::string& lhs,
                        const std::string& rhs, const std::string& dst) {
  ThrowTensorError(what, ": shapes do not match: lhs ", lhs, " x rhs ", rhs,
                   " -> destination ", dst);
}
}  // namespace dot_detail

namespace blas {

void Gemm(bool trans_a, bool trans_b, index_t m, index_t n, index_t k,
          float alpha, const float* a, index_t lda, const float* b, index_t ldb,
          float beta, float* c, index_t ldc) {
  Cblas().sgemm(CblasRowMajor, Trans(trans_a), Trans(trans_b),
                ToBlasInt(m, "m"), ToBlasInt(n, "n"), ToBlasInt(k, "k"), alpha,
                a, Ld(lda, trans_a ? m : k), b, Ld(ldb, trans_b ? k : n), beta,
                c, Ld(ldc, n));
}

void Gemm(bool trans_a, bool trans_b, index_t m, index_t n, index_t k,
          double alpha, const double* a, index_t lda, const double* b,
          index_t ldb, double beta, double* c, index_t ldc) {
  Cblas().dgemm(CblasRowMajor, Trans(trans_a), Trans(trans_b),
                ToBlasInt(m, "m"), ToBlasInt(n, "n"), ToBlasInt(k, "k"), alpha,
                a, Ld(lda, trans_a ? m : k), b, Ld(ldb, trans_b ? k : n), beta,
                c, Ld(ldc, n));
}

void Gemv(bool trans_a, index_t m, index_t n, float alpha, const float* a,
          index_t lda, const float* x, float beta, float* y) {
  Cblas().sgemv(CblasRowMajor, Trans(trans_a), ToBlasInt(m, "m"),
                ToBlasInt(n, "n"), alpha, a, Ld(lda, n), x, 1, beta, y, 1);
}

void Gemv(bool trans_a, index_t m, index_t n, double alpha, const double* a,
          index_t lda, const double* x, double beta, double* y) {
  Cblas().dgemv(CblasRowMajor, Trans(trans_a), ToBlasInt(m, "m"),
                ToBlasInt(n, "n"), alpha, a, Ld(lda, n), x, 1, beta, y, 1);
}

void Ger(index_t m, index_t n, float alpha, const float* x, const float* y,
         float* a, index_t lda) {
  Cblas().sger(CblasRowMajor, ToBlasInt(m, "m"), ToBlasInt(n, "n"), alpha, x, 1,
               y, 1, a, Ld(lda, n));
}

void Ger(index_t m, index_t n, double alpha, const double* x, const double* y,
         double* a, index_t lda) {
  Cblas().dger(CblasRowMajor, ToBlasInt(m, "m"), ToBlasInt(n, "n"), alpha, x, 1,
               y, 1, a, Ld(lda, n));
}

float Dot(index_t n, const float* x, const float* y) {
  return Cblas().sdot(ToBlasInt(n, "n"), x, 1, y, 1);
}

double Dot(index_t n, const double* x, const double* y) {
  return Cblas().ddot(ToBlasInt(n, "n"), x, 1, y, 1);
}

}  // namespace blas
}  // namespace umbra
