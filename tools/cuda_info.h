// The CUDA side of device_info: library versions and the GPUs this process
// sees. In a build without --config=cuda it says so and how to rebuild.
//
// Example:
//
//   std::cout << DescribeCuda();
//   // CUDA runtime 13.0, driver 13.0
//   // cuBLAS 13.0.0, cuDNN 9.10.2, NCCL 2.27.7
//   // GPUs: 1
//   //   0: NVIDIA H100 80GB HBM3, compute capability 9.0, 79.1 GiB, 132 SMs
//
// Contracts: never throws and never aborts on a machine without a GPU or a
// driver: it prints "no GPU visible: <the CUDA error string>" instead.
#ifndef UMBRA_TOOLS_CUDA_INFO_H_
#define UMBRA_TOOLS_CUDA_INFO_H_

#include <string>

namespace umbra {
namespace tools {

// Whether this binary was built with --config=cuda.
bool BuiltWithCudaSupport();

// Several lines, each ending in a newline.
std::string DescribeCuda();

// The name of GPU `ordinal` ("NVIDIA H100 80GB HBM3"); "" when the runtime
// cannot tell, and in a build without CUDA.
std::string GpuName(int ordinal);

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_CUDA_INFO_H_
