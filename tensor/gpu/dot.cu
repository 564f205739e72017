// cuBLAS calls behind the gpu DotEngine (dot_gpu.h). cuBLAS is column-major:
// a row-major m x n matrix with row stride ld is the column-major n x m
// matrix (its transpose) with leading dimension ld, so row-major
// C = op(A) op(B) is computed as column-major C^T = op(B)^T op(A)^T.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <climits>
#include <string>

#include "tensor/gpu/check.h"
#include "tensor/gpu/dot_gpu.h"

namespace umbra {
namespace gpu_blas {
namespace {

int ToInt(index_t v, const char* what) {
  if (v < 0 || v > INT_MAX) {
    ThrowTensorError("dot (gpu): ", what, " = ", v,
                     " does not fit cuBLAS's int");
  }
  return static_cast<int>(v);
}

// Leading dimension: at least the stored row length and at least 1.
int Ld(index_t stride, index_t row_length) {
  const index_t ld = stride < row_length ? row_length : stride;
  return ToInt(ld < 1 ? 1 : ld, "leading dimension");
}

cublasOperation_t Op(bool trans) { return trans ? CUBLAS_OP_T : CUBLAS_OP_N; }

cublasHandle_t Handle(Stream<gpu>* stream) {
  return Stream<gpu>::OrDefault(stream)->blas_handle();
}

std::string GemmContext(bool ta, bool tb, index_t m, index_t n, index_t k,
                        index_t lda, index_t ldb, index_t ldc, index_t batch) {
  return detail::StrCat("row-major C(", m, "x", n, ") = A", ta ? "^T" : "",
                        " * B", tb ? "^T" : "", ", k=", k, ", lda=", lda,
                        ", ldb=", ldb, ", ldc=", ldc, ", batch=", batch);
}

struct GemmArgs {
  cublasOperation_t op_b, op_a;
  int n, m, k, ldb, lda, ldc, batch;
};

GemmArgs MakeArgs(bool ta, bool tb, index_t m, index_t n, index_t k,
                  index_t lda, index_t ldb, index_t ldc, index_t batch) {
  return GemmArgs{Op(tb),
                  Op(ta),
                  ToInt(n, "n"),
                  ToInt(m, "m"),
                  ToInt(k, "k"),
                  Ld(ldb, tb ? k : n),
                  Ld(lda, ta ? m : k),
                  Ld(ldc, n),
                  ToInt(batch, "batch")};
}

}  // namespace

namespace {
// The cuBLAS entry points for one real type.
template <typename DType>
struct Cublas;
template <>
struct Cublas<float> {
  static constexpr auto kGemm = &cublasSgemm;
  static constexpr auto kGemmStridedBatched = &cublasSgemmStridedBatched;
  static constexpr auto kGemv = &cublasSgemv;
  static constexpr auto kGer = &cublasSger;
};
template <>
struct Cublas<double> {
  static constexpr auto kGemm = &cublasDgemm;
  static constexpr auto kGemmStridedBatched = &cublasDgemmStridedBatched;
  static constexpr auto kGemv = &cublasDgemv;
  static constexpr auto kGer = &cublasDger;
};

template <typename DType>
void RealGemm(Stream<gpu>* stream, bool ta, bool tb, index_t m, index_t n,
              index_t k, DType alpha, const DType* a, index_t lda,
              index_t stride_a, const DType* b, index_t ldb, index_t stride_b,
              DType beta, DType* c, index_t ldc, index_t stride_c,
              index_t batch) {
  const GemmArgs g = MakeArgs(ta, tb, m, n, k, lda, ldb, ldc, batch);
  if (batch == 1) {
    UMBRA_CUDA_CHECK(
        Cublas<DType>::kGemm(Handle(stream), g.op_b, g.op_a, g.n, g.m, g.k,
                             &alpha, b, g.ldb, a, g.lda, &beta, c, g.ldc),
        GemmContext(ta, tb, m, n, k, lda, ldb, ldc, batch));
  } else {
    UMBRA_CUDA_CHECK(
        Cublas<DType>::kGemmStridedBatched(
            Handle(stream), g.op_b, g.op_a, g.n, g.m, g.k, &alpha, b, g.ldb,
            stride_b, a, g.lda, stride_a, &beta, c, g.ldc, stride_c, g.batch),
        GemmContext(ta, tb, m, n, k, lda, ldb, ldc, batch));
  }
}
}  // namespace

void Gemm(Stream<gpu>* stream, bool ta, bool tb, index_t m, index_t n,
          index_t k, float alpha, const float* a, index_t lda, index_t stride_a,
          const float* b, index_t ldb, index_t stride_b, float beta, float* c,
          index_t ldc, index_t stride_c, index_t batch) {
  RealGemm(stream, ta, tb, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b,
           beta, c, ldc, stride_c, batch);
}

void Gemm(Stream<gpu>* stream, bool ta, bool tb, index_t m, index_t n,
          index_t k, double alpha, const double* a, index_t lda,
          index_t stride_a, const double* b, index_t ldb, index_t stride_b,
          double beta, double* c, index_t ldc, index_t stride_c,
          index_t batch) {
  RealGemm(stream, ta, tb, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b,
           beta, c, ldc, stride_c, batch);
}

void Gemm(Stream<gpu>* stream, bool ta, bool tb, index_t m, index_t n,
          index_t k, float alpha, const half_t* a, index_t lda,
          index_t stride_a, const half_t* b, index_t ldb, index_t stride_b,
          float beta, half_t* c, index_t ldc, index_t stride_c, index_t batch) {
  const GemmArgs g = MakeArgs(ta, tb, m, n, k, lda, ldb, ldc, batch);
  if (batch == 1) {
    UMBRA_CUDA_CHECK(
        cublasGemmEx(Handle(stream), g.op_b, g.op_a, g.n, g.m, g.k, &alpha, b,
                     CUDA_R_16F, g.ldb, a, CUDA_R_16F, g.lda, &beta, c,
                     CUDA_R_16F, g.ldc, CUBLAS_COMPUTE_32F,
                     CUBLAS_GEMM_DEFAULT),
        GemmContext(ta, tb, m, n, k, lda, ldb, ldc, batch) + ", half/fp32");
  } else {
    UMBRA_CUDA_CHECK(
        cublasGemmStridedBatchedEx(Handle(stream), g.op_b, g.op_a, g.n, g.m,
                                   g.k, &alpha, b, CUDA_R_16F, g.ldb, stride_b,
                                   a, CUDA_R_16F, g.lda, stride_a, &beta, c,
                                   CUDA_R_16F, g.ldc, stride_c, g.batch,
                                   CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        GemmContext(ta, tb, m, n, k, lda, ldb, ldc, batch) + ", half/fp32");
  }
}

namespace {
std::string GemvContext(bool ta, index_t m, index_t n, index_t lda) {
  return detail::StrCat("y = x^T * A", ta ? "^T" : "", ", A(", m, "x", n,
                        ") lda=", lda);
}

template <typename DType>
void RealGemv(Stream<gpu>* stream, bool ta, index_t m, index_t n, DType alpha,
              const DType* a, index_t lda, const DType* x, DType beta,
              DType* y) {
  // Column-major, A is stored as A^T (n x m).
  UMBRA_CUDA_CHECK(
      Cublas<DType>::kGemv(Handle(stream), Op(ta), ToInt(n, "n"), ToInt(m, "m"),
                           &alpha, a, Ld(lda, n), x, 1, &beta, y, 1),
      GemvContext(ta, m, n, lda));
}
template <typename DType>
void RealGer(Stream<gpu>* stream, index_t m, index_t n, DType alpha,
             const DType* x, const DType* y, DType* a, index_t lda) {
  UMBRA_CUDA_CHECK(
      Cublas<DType>::kGer(Handle(stream), ToInt(n, "n"), ToInt(m, "m"), &alpha,
                          y, 1, x, 1, a, Ld(lda, n)),
      detail::StrCat("A(", m, "x", n, ") += x * y^T, lda=", lda));
}
}  // namespace

void Gemv(Stream<gpu>* stream, bool ta, index_t m, index_t n, float alpha,
          const float* a, index_t lda, const float* x, float beta, float* y) {
  RealGemv(stream, ta, m, n, alpha, a, lda, x, beta, y);
}

void Gemv(Stream<gpu>* stream, bool ta, index_t m, index_t n, double alpha,
          const double* a, index_t lda, const double* x, double beta,
          double* y) {
  RealGemv(stream, ta, m, n, alpha, a, lda, x, beta, y);
}

void Gemv(Stream<gpu>* stream, bool ta, index_t m, index_t n, float alpha,
          const half_t* a, index_t lda, const half_t* x, float beta,
          half_t* y) {
  // y (1 x out) = x (1 x in) * op(A): a gemm with one row.
  const index_t in = ta ? n : m, out = ta ? m : n;
  Gemm(stream, false, ta, 1, out, in, alpha, x, in, 0, a, lda, 0, beta, y, out,
       0, 1);
}

void Ger(Stream<gpu>* stream, index_t m, index_t n, float alpha, const float* x,
         const float* y, float* a, index_t lda) {
  RealGer(stream, m, n, alpha, x, y, a, lda);
}

void Ger(Stream<gpu>* stream, index_t m, index_t n, double alpha,
         const double* x, const double* y, double* a, index_t lda) {
  RealGer(stream, m, n, alpha, x, y, a, lda);
}

void Ger(Stream<gpu>* stream, index_t m, index_t n, float alpha,
         const half_t* x, const half_t* y, half_t* a, index_t lda) {
  // A (m x n) += x (m x 1) * y (1 x n): a gemm with k = 1.
  Gemm(stream, false, false, m, n, 1, alpha, x, 1, 0, y, n, 0, 1.0f, a, lda, 0,
       1);
}

}  // namespace gpu_blas
}  // namespace umbra
