// cuda_info.h for builds with --config=cuda: asks the CUDA runtime, cuBLAS,
// cuDNN and NCCL for their versions and the runtime for the GPUs.
#include "tools/cuda_info.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <nccl.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace umbra {
namespace tools {
namespace {

// 13000 -> "13.0".
std::string CudaVersionText(int version) {
  return absl::StrCat(version / 1000, ".", (version % 1000) / 10);
}

std::string CublasVersion() {
  int major = 0, minor = 0, patch = 0;
  if (cublasGetProperty(MAJOR_VERSION, &major) != CUBLAS_STATUS_SUCCESS ||
      cublasGetProperty(MINOR_VERSION, &minor) != CUBLAS_STATUS_SUCCESS ||
      cublasGetProperty(PATCH_LEVEL, &patch) != CUBLAS_STATUS_SUCCESS) {
    return "unknown";
  }
  return absl::StrCat(major, ".", minor, ".", patch);
}

std::string CudnnVersion() {
  // Since cuDNN 9: major * 10000 + minor * 100 + patch.
  const size_t v = cudnnGetVersion();
  return absl::StrCat(v / 10000, ".", (v % 10000) / 100, ".", v % 100);
}

std::string NcclVersion() {
  int v = 0;
  if (ncclGetVersion(&v) != ncclSuccess) return "unknown";
  // Since NCCL 2.9: major * 10000 + minor * 100 + patch.
  return absl::StrCat(v / 10000, ".", (v % 10000) / 100, ".", v % 100);
}

}  // namespace

bool BuiltWithCudaSupport() { return true; }

std::string DescribeCuda() {
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  const cudaError_t driver_status = cudaDriverGetVersion(&driver);
  std::string out = absl::StrCat(
      "CUDA runtime ", CudaVersionText(runtime), ", driver ",
      driver_status == cudaSuccess && driver > 0 ? CudaVersionText(driver)
                                                 : std::string("none"),
      " (built with CUDA ", CudaVersionText(CUDART_VERSION), ")\n");
  absl::StrAppend(&out, "cuBLAS ", CublasVersion(), ", cuDNN ", CudnnVersion(),
                  ", NCCL ", NcclVersion(), "\n");
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    absl::StrAppend(&out, "no GPU visible: ",
                    status != cudaSuccess ? cudaGetErrorString(status)
                                          : "the runtime reports 0 devices",
                    "\n");
    cudaGetLastError();  // clear the sticky error
    return out;
  }
  absl::StrAppend(&out, "GPUs: ", count, "\n");
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) {
      absl::StrAppend(&out, "  ", i, ": properties unavailable\n");
      continue;
    }
    absl::StrAppendFormat(
        &out, "  %d: %s, compute capability %d.%d, %.1f GiB, %d SMs\n", i,
        prop.name, prop.major, prop.minor,
        prop.totalGlobalMem / (1024.0 * 1024.0 * 1024.0),
        prop.multiProcessorCount);
  }
  return out;
}

std::string GpuName(int ordinal) {
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, ordinal) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error
    return "";
  }
  return prop.name;
}

}  // namespace tools
}  // namespace umbra
