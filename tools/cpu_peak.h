// The CPU's measured limits, the ceilings of roofline figures: its FMA peak
// (independent fused multiply-adds in registers, with the widest vectors the
// CPU has, on every thread of the tensor pool at once) and its copy
// bandwidth (buffers far larger than the caches copied on every thread at
// once). Measured, not taken from a data sheet: a shared or throttled
// machine reaches what it reaches.
//
// Example:
//
//   const CpuPeak peak = MeasureCpuPeak();   // about half a second
//   std::cout << FormatCpuPeak(peak);
//   // FMA peak: 371.2 GFLOP/s (AVX-512, 2 threads); copy: 38.1 GB/s
//   double share = achieved_gflops / peak.fma_gflops;
#ifndef UMBRA_TOOLS_CPU_PEAK_H_
#define UMBRA_TOOLS_CPU_PEAK_H_

#include <string>

namespace umbra {
namespace tools {

struct CpuPeak {
  // Floating-point operations per second of float32 FMAs (2 per lane), all
  // threads together, in 1e9.
  double fma_gflops = 0;
  // The vectors that reached it: 512 (AVX-512), 256 (AVX2 + FMA) or 128.
  int vector_bits = 0;
  // Bytes read plus bytes written per second by memcpy, all threads, in 1e9.
  double copy_gbytes = 0;
  int threads = 0;
};

// Best of a few short runs of each loop on GetNumThreads() threads.
CpuPeak MeasureCpuPeak();

// "FMA peak: 371.2 GFLOP/s (AVX-512, 2 threads); copy: 38.1 GB/s\n".
std::string FormatCpuPeak(const CpuPeak& peak);

}  // namespace tools
}  // namespace umbra

#endif  // UMBRA_TOOLS_CPU_PEAK_H_
