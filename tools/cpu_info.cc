#include "tools/cpu_info.h"

#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "tensor/blas_library.h"
#include "tensor/tensor.h"

namespace umbra {
namespace tools {
namespace {

// The value of the first "`field`\t: value" line of /proc/cpuinfo, or
// `otherwise`.
std::string CpuInfoField(const std::string& field,
                         const std::string& otherwise) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos ||
        absl::StripAsciiWhitespace(line.substr(0, colon)) != field) {
      continue;
    }
    return std::string(absl::StripAsciiWhitespace(line.substr(colon + 1)));
  }
  return otherwise;
}

// "AMD EPYC (family 26, model 2)".
std::string CpuModel() {
  return absl::StrCat(CpuInfoField("model name", "unknown model"), " (family ",
                      CpuInfoField("cpu family", "?"), ", model ",
                      CpuInfoField("model", "?"), ")");
}

// Where OpenBLAS's kernels came from, when not from umbra's choice.
std::string CoreTypeSource() {
  const char* user = std::getenv("OPENBLAS_CORETYPE");
  if (user == nullptr) return "";
  const std::string preferred = blas::PreferredCoreType();
  return absl::StrCat(
      "; OPENBLAS_CORETYPE=", user, " in the environment",
      preferred.empty() || absl::EqualsIgnoreCase(preferred, user)
          ? std::string()
          : absl::StrCat(", without which umbra picks ", preferred,
                         " for this CPU"));
}

std::vector<std::string> RuntimeFeatures() {
  std::vector<std::string> found;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("sse2")) found.push_back("sse2");
  if (__builtin_cpu_supports("sse4.2")) found.push_back("sse4.2");
  if (__builtin_cpu_supports("avx")) found.push_back("avx");
  if (__builtin_cpu_supports("avx2")) found.push_back("avx2");
  if (__builtin_cpu_supports("fma")) found.push_back("fma");
  if (__builtin_cpu_supports("avx512f")) found.push_back("avx512f");
  if (__builtin_cpu_supports("avx512bw")) found.push_back("avx512bw");
  if (__builtin_cpu_supports("avx512vl")) found.push_back("avx512vl");
  if (__builtin_cpu_supports("avx512bf16")) found.push_back("avx512bf16");
#endif
  return found;
}

std::vector<std::string> CompiledFeatures() {
  std::vector<std::string> used;
#ifdef __SSE2__
  used.push_back("sse2");
#endif
#ifdef __SSE4_2__
  used.push_back("sse4.2");
#endif
#ifdef __AVX__
  used.push_back("avx");
#endif
#ifdef __AVX2__
  used.push_back("avx2");
#endif
#ifdef __FMA__
  used.push_back("fma");
#endif
#ifdef __F16C__
  used.push_back("f16c");
#endif
#ifdef __AVX512F__
  used.push_back("avx512f");
#endif
  return used;
}

const char* PacketName() {
  switch (UMBRA_DEFAULT_PACKET) {
    case packet::kAVX2:
      return "AVX2";
    case packet::kSSE2:
      return "SSE2";
    default:
      return "plain";
  }
}

std::string Listed(const std::vector<std::string>& names) {
  return names.empty() ? "(none)" : absl::StrJoin(names, " ");
}

}  // namespace

std::string DescribeCpu() {
  return absl::StrCat(
      "CPU: ", CpuModel(), "\n", "  features: ", Listed(RuntimeFeatures()),
      "\n", "  compiled for: ", Listed(CompiledFeatures()),
      " (tensor packets: ", PacketName(), ")\n", "  threads: ", GetNumThreads(),
      " for tensor expressions (nthread = 0: one per core; ",
      std::thread::hardware_concurrency(), " online)\n",
      "  matrix products: OpenBLAS, ", blas::CoreName(), " kernels",
      CoreTypeSource(), ", ", blas::NumThreads(), " threads (",
      blas::LibraryPath(), ")\n");
}

}  // namespace tools
}  // namespace umbra
