#include "tools/cpu_peak.h"

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "absl/strings/str_format.h"
#include "tensor/threads.h"

namespace umbra {
namespace tools {
namespace {

constexpr long kFmaRounds = 20'000'000;

// kFmaRounds rounds of twelve independent FMA chains (more than FMA latency
// times FMA ports on any x86 core), each chain a register of its own (an
// array would be kept in memory), which the empty asm keeps live; returns a
// lane so that nothing is optimised away.
#define UMBRA_FMA_LOOP(Vec, set1, fmadd, first_lane)                         \
  Vec a0 = set1(0.1f), a1 = set1(0.2f), a2 = set1(0.3f), a3 = set1(0.4f),    \
      a4 = set1(0.5f), a5 = set1(0.6f), a6 = set1(0.7f), a7 = set1(0.8f),    \
      a8 = set1(0.9f), a9 = set1(1.0f), a10 = set1(1.1f), a11 = set1(1.2f);  \
  const Vec b = set1(0.999999f), c = set1(1e-7f);                            \
  for (long round = 0; round < kFmaRounds; ++round) {                        \
    a0 = fmadd(a0, b, c);                                                    \
    a1 = fmadd(a1, b, c);                                                    \
    a2 = fmadd(a2, b, c);                                                    \
    a3 = fmadd(a3, b, c);                                                    \
    a4 = fmadd(a4, b, c);                                                    \
    a5 = fmadd(a5, b, c);                                                    \
    a6 = fmadd(a6, b, c);                                                    \
    a7 = fmadd(a7, b, c);                                                    \
    a8 = fmadd(a8, b, c);                                                    \
    a9 = fmadd(a9, b, c);                                                    \
    a10 = fmadd(a10, b, c);                                                  \
    a11 = fmadd(a11, b, c);                                                  \
    __asm__ volatile(""                                                      \
                     : "+x"(a0), "+x"(a1), "+x"(a2), "+x"(a3), "+x"(a4),     \
                       "+x"(a5), "+x"(a6), "+x"(a7), "+x"(a8), "+x"(a9),     \
                       "+x"(a10), "+x"(a11));                                \
  }                                                                          \
  return first_lane(a0) + first_lane(a1) + first_lane(a2) + first_lane(a3) + \
         first_lane(a4) + first_lane(a5) + first_lane(a6) + first_lane(a7) + \
         first_lane(a8) + first_lane(a9) + first_lane(a10) + first_lane(a11);

// The FMAs each round does, per lane.
constexpr int kChains = 12;

__attribute__((target("avx512f"))) float FmaLoop512() {
  UMBRA_FMA_LOOP(__m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_cvtss_f32)
}

__attribute__((target("avx2,fma"))) float FmaLoop256() {
  UMBRA_FMA_LOOP(__m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_cvtss_f32)
}

#undef UMBRA_FMA_LOOP

// The seconds `work` takes on every pool thread at once, best of three.
template <typename Work>
double BestParallelSeconds(int threads, const Work& work) {
  double best = 1e30;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const auto start = std::chrono::steady_clock::now();
    ParallelFor(threads, work);
    best = std::min(best, std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                              .count());
  }
  return best;
}

}  // namespace

CpuPeak MeasureCpuPeak() {
  CpuPeak peak;
  peak.threads = GetNumThreads();
  __builtin_cpu_init();
  peak.vector_bits =
      __builtin_cpu_supports("avx512f")                                 ? 512
      : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 256
                                                                        : 0;
  if (peak.vector_bits > 0) {
    std::vector<float> sink(peak.threads);
    const double seconds = BestParallelSeconds(peak.threads, [&](int thread) {
      sink[thread] = peak.vector_bits == 512 ? FmaLoop512() : FmaLoop256();
    });
    const double lanes = peak.vector_bits / 32;
    peak.fma_gflops =
        2.0 * lanes * kChains * kFmaRounds * peak.threads / seconds / 1e9;
  }
  // 64 MiB per thread and direction: far past any cache.
  constexpr size_t kCopyBytes = size_t{64} << 20;
  std::vector<std::vector<char>> from(peak.threads), to(peak.threads);
  for (int thread = 0; thread < peak.threads; ++thread) {
    from[thread].assign(kCopyBytes, char(thread));
    to[thread].assign(kCopyBytes, 0);
  }
  const double seconds = BestParallelSeconds(peak.threads, [&](int thread) {
    std::memcpy(to[thread].data(), from[thread].data(), kCopyBytes);
  });
  peak.copy_gbytes = 2.0 * kCopyBytes * peak.threads / seconds / 1e9;
  return peak;
}

std::string FormatCpuPeak(const CpuPeak& peak) {
  const char* vectors = peak.vector_bits == 512   ? "AVX-512"
                        : peak.vector_bits == 256 ? "AVX2"
                                                  : "no FMA vectors";
  return absl::StrFormat(
      "FMA peak: %.1f GFLOP/s (%s, %d threads); copy: %.1f GB/s\n",
      peak.fma_gflops, vectors, peak.threads, peak.copy_gbytes);
}

}  // namespace tools
}  // namespace umbra
