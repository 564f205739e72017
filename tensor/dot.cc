#include "tensor/dot.h"

#include <algorithm>
#include <climits>

#include "tensor/blas_library.h"
#include "tensor/threads.h"

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
namespace {

// Products of fewer multiply-adds than this run on the calling thread: below
// it, waking the pool costs more than it saves.
constexpr double kMinSplitMultiplyAdds = double(1 << 21);
// Split points are multiples of this, so that every part but the last keeps
// whole register tiles of the BLAS kernels.
constexpr index_t kSplitAlign = 16;

// Row-major C = alpha * op(A) * op(B) + beta * C on one thread.
void GemmOnCaller(bool trans_a, bool trans_b, index_t m, index_t n, index_t k,
                  float alpha, const float* a, index_t lda, const float* b,
                  index_t ldb, float beta, float* c, index_t ldc) {
  Cblas().sgemm(CblasRowMajor, Trans(trans_a), Trans(trans_b),
                ToBlasInt(m, "m"), ToBlasInt(n, "n"), ToBlasInt(k, "k"), alpha,
                a, Ld(lda, trans_a ? m : k), b, Ld(ldb, trans_b ? k : n), beta,
                c, Ld(ldc, n));
}
void GemmOnCaller(bool trans_a, bool trans_b, index_t m, index_t n, index_t k,
                  double alpha, const double* a, index_t lda, const double* b,
                  index_t ldb, double beta, double* c, index_t ldc) {
  Cblas().dgemm(CblasRowMajor, Trans(trans_a), Trans(trans_b),
                ToBlasInt(m, "m"), ToBlasInt(n, "n"), ToBlasInt(k, "k"), alpha,
                a, Ld(lda, trans_a ? m : k), b, Ld(ldb, trans_b ? k : n), beta,
                c, Ld(ldc, n));
}

// OpenBLAS runs on one thread (blas_library.h), so a large product is cut
// into one block of C per pool thread, along the longer of C's two sides,
// each block a product of its own on the pool, then `finish` (if any) on it.
// The blocks share no output; for a given thread count the cut, and so every
// bit of the result, is fixed.
template <typename DType>
void SplitGemm(bool trans_a, bool trans_b, index_t m, index_t n, index_t k,
               DType alpha, const DType* a, index_t lda, const DType* b,
               index_t ldb, DType beta, DType* c, index_t ldc,
               const BlockFinisher* finish) {
  const bool split_rows = m >= n;
  const index_t side = split_rows ? m : n;
  const index_t threads = GetNumThreads();
  index_t parts = 1;
  if (threads > 1 && NumThreads() == 1 &&
      double(m) * double(n) * double(k) >= kMinSplitMultiplyAdds) {
    parts = std::min(threads, (side + kSplitAlign - 1) / kSplitAlign);
  }
  if (parts <= 1) {
    GemmOnCaller(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c,
                 ldc);
    if (finish != nullptr) (*finish)({0, m, 0, n});
    return;
  }
  const index_t tiles = (side + kSplitAlign - 1) / kSplitAlign;
  ParallelFor(int(parts), [&](int part) {
    const index_t begin = std::min(side, tiles * part / parts * kSplitAlign);
    const index_t end =
        std::min(side, tiles * (part + 1) / parts * kSplitAlign);
    if (begin == end) return;
    if (split_rows) {
      // Rows [begin, end) of op(A) and of C.
      const DType* a_rows = trans_a ? a + begin : a + begin * lda;
      GemmOnCaller(trans_a, trans_b, end - begin, n, k, alpha, a_rows, lda, b,
                   ldb, beta, c + begin * ldc, ldc);
      if (finish != nullptr) (*finish)({begin, end, 0, n});
    } else {
      // Columns [begin, end) of op(B) and of C.
      const DType* b_cols = trans_b ? b + begin * ldb : b + begin;
      GemmOnCaller(trans_a, trans_b, m, end - begin, k, alpha, a, lda, b_cols,
                   ldb, beta, c + begin, ldc);
      if (finish != nullptr) (*finish)({0, m, begin, end});
    }
  });
}

}  // namespace

void Gemm(bool trans_a, bool trans_b, index_t m, index_t n, index_t k,
          float alpha, const float* a, index_t lda, const float* b, index_t ldb,
          float beta, float* c, index_t ldc) {
  SplitGemm(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc,
            nullptr);
}

void Gemm(bool trans_a, bool trans_b, index_t m, index_t n, index_t k,
          double alpha, const double* a, index_t lda, const double* b,
          index_t ldb, double beta, double* c, index_t ldc) {
  SplitGemm(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc,
            nullptr);
}

void Gemm(bool trans_a, bool trans_b, index_t m, index_t n, index_t k,
          float alpha, const float* a, index_t lda, const float* b, index_t ldb,
          float beta, float* c, index_t ldc, const BlockFinisher& finish) {
  SplitGemm(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc,
            &finish);
}

void Gemm(bool trans_a, bool trans_b, index_t m, index_t n, index_t k,
          double alpha, const double* a, index_t lda, const double* b,
          index_t ldb, double beta, double* c, index_t ldc,
          const BlockFinisher& finish) {
  SplitGemm(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc,
            &finish);
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
