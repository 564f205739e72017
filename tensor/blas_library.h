// OpenBLAS, loaded at run time on first use, and the cblas functions umbra
// calls through it.
//
// Debian's OpenBLAS (a DYNAMIC_ARCH build) picks its kernels in a load-time
// constructor from the CPU model and OPENBLAS_CORETYPE; on CPUs newer than
// the library it falls back to slow generic kernels ("Prescott"). umbra
// therefore never links -lopenblas: the first call to Cblas() sets
// OPENBLAS_CORETYPE from the CPU's features when the user has not set it
// (PreferredCoreType()), dlopens the library, resolves the functions and
// restores the environment. A user-set OPENBLAS_CORETYPE always wins.
//
// OpenBLAS runs each product on the calling thread (OPENBLAS_NUM_THREADS=1
// while it loads, unless the user set it): dot (tensor/dot.h) splits large
// products over umbra's own pool, GetNumThreads() threads (tensor/threads.h),
// so that one pool serves both. With a user-set OPENBLAS_NUM_THREADS other
// than 1, OpenBLAS threads every product itself and dot does not split.
//
// tensor/tensor.h leaves this header out, so that cblas.h stays out of every
// file; include it where the library itself is wanted (benchmarks, reports).
//
// Example:
//   const umbra::blas::CblasFunctions& cblas = umbra::blas::Cblas();
//   cblas.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a,
//               k, b, n, 0.0f, c, n);
//   std::cout << umbra::blas::CoreName();  // "Cooperlake"
#ifndef UMBRA_TENSOR_BLAS_LIBRARY_H_
#define UMBRA_TENSOR_BLAS_LIBRARY_H_

#include <cblas.h>

#include <string>

namespace umbra {
namespace blas {

// The cblas functions umbra uses, resolved from the loaded library.
struct CblasFunctions {
  decltype(&cblas_sgemm) sgemm;
  decltype(&cblas_dgemm) dgemm;
  decltype(&cblas_sgemv) sgemv;
  decltype(&cblas_dgemv) dgemv;
  decltype(&cblas_sger) sger;
  decltype(&cblas_dger) dger;
  decltype(&cblas_sdot) sdot;
  decltype(&cblas_ddot) ddot;
};

// Loads OpenBLAS on the first call (thread-safe) and returns its functions,
// which may be called from several threads at once. Throws
// TensorError naming the library and the Debian package to install when it
// cannot be loaded or lacks a function.
const CblasFunctions& Cblas();

// The kernels OpenBLAS runs, as it names them ("Cooperlake", "SkylakeX",
// "Haswell", "Prescott" for its generic fallback); loads the library.
std::string CoreName();

// The number of threads OpenBLAS runs a product on: 1 unless the user set
// OPENBLAS_NUM_THREADS (0 when the library has no
// openblas_get_num_threads); loads the library.
int NumThreads();

// The file the library was loaded from; loads the library.
std::string LibraryPath();

// The OPENBLAS_CORETYPE umbra sets for this CPU when the user sets none,
// from its features whatever its vendor: "Cooperlake" with AVX512_BF16,
// "SkylakeX" with AVX-512F, "Haswell" with AVX2 and FMA; otherwise ""
// (OpenBLAS's own detection).
const char* PreferredCoreType();

}  // namespace blas
}  // namespace umbra

#endif  // UMBRA_TENSOR_BLAS_LIBRARY_H_
