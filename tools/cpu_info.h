// What umbra will use on this CPU: the model, the SIMD features the CPU has
// and those this binary was compiled for, and the thread count of tensor
// expressions.
//
// Example:
//
//   std::cout << DescribeCpu();
//   // CPU: AMD EPYC 7B13
//   //   features: sse2 sse4.2 avx avx2 fma f16c avx512f
//   //   compiled for: sse2 avx avx2 fma f16c (tensor packets: AVX2)
//   //   threads: 2 (nthread = 0: one per core; 2 cores online)
#ifndef UMBRA_TOOLS_CPU_INFO_H_
#define UMBRA_TOOLS_CPU_INFO_H_

#include <string>

namespace umbra {
namespace tools {

// Several lines, each ending in a newline.
std::string DescribeCpu();

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_CPU_INFO_H_
