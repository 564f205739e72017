#include "tensor/blas_library.h"

#include <dlfcn.h>

#include <cstdlib>

#include "tensor/base.h"

namespace umbra {
namespace blas {
namespace {

// Debian's pthread build first (the one whose cblas.h umbra compiles
// against), then whatever the dynamic linker finds by soname.
constexpr const char* kLibraryCandidates[] = {
    "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0",
    "libopenblas.so.0",
};
constexpr const char* kPackageAdvice =
    "install Debian's libopenblas0-pthread (the library) or libopenblas-dev "
    "(library and headers, as umbra's build needs)";

// Sets an environment variable while the library loads, when the user has
// not set it, and removes it again afterwards, so that child processes see
// the environment the user gave.
class ScopedDefaultEnv {
 public:
  ScopedDefaultEnv(const char* name, const char* value) : name_(name) {
    if (std::getenv(name) == nullptr && *value != '\0') {
      set_ = setenv(name, value, /*overwrite=*/0) == 0;
    }
  }
  ~ScopedDefaultEnv() {
    if (set_) unsetenv(name_);
  }
  ScopedDefaultEnv(const ScopedDefaultEnv&) = delete;
  ScopedDefaultEnv& operator=(const ScopedDefaultEnv&) = delete;

 private:
  const char* name_;
  bool set_ = false;
};

struct Library {
  void* handle = nullptr;  // Never closed: OpenBLAS's threads outlive main.
  std::string path;
  CblasFunctions functions{};
  char* (*get_corename)() = nullptr;
  int (*get_num_threads)() = nullptr;
};

template <typename Fn>
void Resolve(const Library& lib, const char* name, Fn* fn) {
  dlerror();
  *fn = reinterpret_cast<Fn>(dlsym(lib.handle, name));
  if (*fn == nullptr) {
    const char* error = dlerror();
    ThrowTensorError("OpenBLAS loaded from ", lib.path, " has no ", name, " (",
                     error ? error : "null symbol", "); ", kPackageAdvice);
  }
}

// The optional OpenBLAS extensions: null when absent.
template <typename Fn>
void ResolveOptional(const Library& lib, const char* name, Fn* fn) {
  *fn = reinterpret_cast<Fn>(dlsym(lib.handle, name));
}

Library* LoadOpenBlas() {
  std::string errors;
  void* handle = nullptr;
  const char* opened = nullptr;
  {
    ScopedDefaultEnv core_type("OPENBLAS_CORETYPE", PreferredCoreType());
    // One thread: dot splits products over umbra's own pool, and a second
    // pool of OpenBLAS threads, spinning between products, would compete
    // with it for the cores.
    ScopedDefaultEnv threads("OPENBLAS_NUM_THREADS", "1");
    for (const char* candidate : kLibraryCandidates) {
      handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL);
      if (handle != nullptr) {
        opened = candidate;
        break;
      }
      const char* error = dlerror();  // Names the candidate.
      errors += detail::StrCat("\n  ", error ? error : candidate);
    }
  }
  if (handle == nullptr) {
    ThrowTensorError(
        "cannot load OpenBLAS, which umbra's CPU matrix products (dot) "
        "need; tried:",
        errors, "\n", kPackageAdvice);
  }
  auto* lib = new Library;  // Lives as long as the process.
  lib->handle = handle;
  lib->path = opened;
  Resolve(*lib, "cblas_sgemm", &lib->functions.sgemm);
  Resolve(*lib, "cblas_dgemm", &lib->functions.dgemm);
  Resolve(*lib, "cblas_sgemv", &lib->functions.sgemv);
  Resolve(*lib, "cblas_dgemv", &lib->functions.dgemv);
  Resolve(*lib, "cblas_sger", &lib->functions.sger);
  Resolve(*lib, "cblas_dger", &lib->functions.dger);
  Resolve(*lib, "cblas_sdot", &lib->functions.sdot);
  Resolve(*lib, "cblas_ddot", &lib->functions.ddot);
  ResolveOptional(*lib, "openblas_get_corename", &lib->get_corename);
  ResolveOptional(*lib, "openblas_get_num_threads", &lib->get_num_threads);
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(lib->functions.sgemm), &info) != 0 &&
      info.dli_fname != nullptr) {
    lib->path = info.dli_fname;
  }
  return lib;
}

Library& Loaded() {
  // A failed load throws and is retried (and reported) on the next call.
  static Library* lib = LoadOpenBlas();
  return *lib;
}

}  // namespace

const char* PreferredCoreType() {
#if defined(__x86_64__) || defined(__i386__)
  // OpenBLAS recognises Intel CPUs by model number, so it misses every model
  // newer than the library (0.3.21 runs Prescott kernels on model 207); AMD
  // CPUs by family and features. Choosing by features for every vendor
  // gives the kernels OpenBLAS picks where it knows the CPU (Cooperlake on
  // AMD families 25 and 26, Zen 4 and 5, whose AVX-512 sgemm runs twice as
  // fast as the Haswell kernels there: 180 vs 90 GFLOP/s on one Zen 5 core
  // at 1024^3) and the right ones where it does not. OpenBLAS 0.3.21 does
  // not list "Cooperlake" in its OPENBLAS_CORETYPE table, but an unknown
  // name falls back to choosing by features, which picks it.
  if (__builtin_cpu_supports("avx512bf16")) return "Cooperlake";
  if (__builtin_cpu_supports("avx512f")) return "SkylakeX";
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    return "Haswell";
  }
#endif
  return "";
}

const CblasFunctions& Cblas() { return Loaded().functions; }

std::string CoreName() {
  const Library& lib = Loaded();
  if (lib.get_corename == nullptr) return "unknown (not OpenBLAS)";
  const char* name = lib.get_corename();
  return name ? name : "unknown";
}

int NumThreads() {
  const Library& lib = Loaded();
  return lib.get_num_threads == nullptr ? 0 : lib.get_num_threads();
}

std::string LibraryPath() { return Loaded().path; }

}  // namespace blas
}  // namespace umbra
