#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include <stdexcept>
#include <string>

#include "third_party/cuda/cuda_smoke.h"

namespace umbra::cuda_smoke {
namespace {

void Check(cudaError_t status, const char* call) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(call) +
                             " failed: " + cudaGetErrorString(status));
  }
}

void Check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(call) +
                             " failed: " + cublasGetStatusString(status));
  }
}

void Check(cudnnStatus_t status, const char* call) {
  if (status != CUDNN_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(call) +
                             " failed: " + cudnnGetErrorString(status));
  }
}

#define SMOKE_CHECK(call) Check((call), #call)

// Device memory holding a copy of a host vector, freed on scope exit.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(const std::vector<float>& host) : size_(host.size()) {
    SMOKE_CHECK(cudaMalloc(&data_, size_ * sizeof(float)));
    SMOKE_CHECK(cudaMemcpy(data_, host.data(), size_ * sizeof(float),
                           cudaMemcpyHostToDevice));
  }
  ~DeviceBuffer() { cudaFree(data_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  float* data() { return data_; }
  std::vector<float> ToHost() const {
    std::vector<float> host(size_);
    SMOKE_CHECK(cudaMemcpy(host.data(), data_, size_ * sizeof(float),
                           cudaMemcpyDeviceToHost));
    return host;
  }

 private:
  float* data_ = nullptr;
  size_t size_;
};

__global__ void SaxpyKernel(int n, float a, const float* x, float* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    y[i] = a * x[i] + y[i];
  }
}

}  // namespace

int DeviceCount() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

void Saxpy(float a, const std::vector<float>& x, std::vector<float>* y) {
  if (x.size() != y->size())
    throw std::invalid_argument("Saxpy: x and y differ in size");
  DeviceBuffer device_x(x), device_y(*y);
  const int n = static_cast<int>(x.size());
  SaxpyKernel<<<(n + 255) / 256, 256>>>(n, a, device_x.data(), device_y.data());
  SMOKE_CHECK(cudaGetLastError());
  *y = device_y.ToHost();
}

std::vector<float> Sgemm(int m, int n, int k, const std::vector<float>& a,
                         const std::vector<float>& b) {
  DeviceBuffer device_a(a), device_b(b),
      device_c(std::vector<float>(size_t(m) * n));
  cublasHandle_t handle;
  SMOKE_CHECK(cublasCreate(&handle));
  const float one = 1.0f, zero = 0.0f;
  // Row-major C = A * B is column-major C^T = B^T * A^T.
  const cublasStatus_t status = cublasSgemm(
      handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, device_b.data(), n,
      device_a.data(), k, &zero, device_c.data(), n);
  cublasDestroy(handle);
  SMOKE_CHECK(status);
  return device_c.ToHost();
}

size_t CudnnVersion() {
  cudnnHandle_t handle;
  SMOKE_CHECK(cudnnCreate(&handle));
  SMOKE_CHECK(cudnnDestroy(handle));
  return cudnnGetVersion();
}

}  // namespace umbra::cuda_smoke
