// The SIMD width the CPU kernels of layers/ run with, picked once per
// process: AVX2 (8 floats) runs on every x86-64-v3 CPU, the build's
// baseline; AVX-512 (16 floats) where the CPU has it. A kernel's AVX-512
// loops live in a translation unit of their own, compiled with -mavx512f
// and called only where WidestSimd() says so.
//
// Example:
//   if (WidestSimd() == SimdWidth::kAvx512) RunAvx512(...); else RunAvx2(...);
#ifndef UMBRA_LAYERS_SIMD_WIDTH_H_
#define UMBRA_LAYERS_SIMD_WIDTH_H_

namespace umbra {
namespace layers {

enum class SimdWidth { kAvx2, kAvx512 };

// The widest SimdWidth this CPU runs.
SimdWidth WidestSimd();

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_SIMD_WIDTH_H_
