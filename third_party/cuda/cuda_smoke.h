// The CUDA toolchain's smoke check: a hand-written kernel, a cuBLAS product and
// a cuDNN handle, each behind a plain C++ call, so a test can check that nvcc,
// the cuda_library rule and the toolkit's libraries all work together.
//
// Example:
//   std::vector<float> y = {1, 2};
//   umbra::cuda_smoke::Saxpy(2.0f, {10, 20}, &y);  // y == {21, 42}
//
// Every function throws std::runtime_error naming the failed CUDA call.
#ifndef UMBRA_THIRD_PARTY_CUDA_CUDA_SMOKE_H_
#define UMBRA_THIRD_PARTY_CUDA_CUDA_SMOKE_H_

#include <cstddef>
#include <vector>

namespace umbra::cuda_smoke {

// The number of CUDA devices visible; 0 when there is no GPU or driver.
int DeviceCount();

// y = a * x + y, computed on the GPU by a hand-written kernel.
void Saxpy(float a, const std::vector<float>& x, std::vector<float>* y);

// Row-major C (m x n) = A (m x k) * B (k x n), computed by cublasSgemm.
std::vector<float> Sgemm(int m, int n, int k, const std::vector<float>& a,
                         const std::vector<float>& b);

// Creates and destroys a cuDNN handle; returns cudnnGetVersion().
size_t CudnnVersion();

}  // namespace umbra::cuda_smoke

#endif  // UMBRA_THIRD_PARTY_CUDA_CUDA_SMOKE_H_
