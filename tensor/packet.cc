#include "tensor/packet.h"

#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace umbra {
namespace packet {
namespace {

// Allocations of this size or more start on a 2 MB boundary and ask Linux
// for transparent huge pages (as PyTorch's CPU allocator does): a random
// row of a large dataset or activation then costs no TLB miss, and a
// virtual machine that rebuilds its shadow page tables after a large
// munmap elsewhere (measured here: the first pass over Fashion-MNIST ran
// 20x slower after the loader freed its 47 MB file buffer) rebuilds one
// entry per 2 MB instead of one per 4 KB.
constexpr size_t kHugePageBytes = size_t{1} << 21;

}  // namespace

void* AlignedMallocPitch(size_t* out_pitch, size_t lspace, size_t num_line) {
  const size_t kAlign = 64;
  const size_t pitch = (lspace + kAlign - 1) / kAlign * kAlign;
  *out_pitch = pitch;
  size_t bytes = pitch * num_line;
  if (bytes == 0) bytes = kAlign;
  const bool huge = bytes >= kHugePageBytes;
  void* res = nullptr;
  if (posix_memalign(&res, huge ? kHugePageBytes : kAlign, bytes) != 0) {
    throw std::bad_alloc();
  }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Only advice: where the kernel has no huge pages, nothing changes.
  if (huge) madvise(res, bytes, MADV_HUGEPAGE);
#endif
  return res;
}

void AlignedFree(void* ptr) { free(ptr); }

}  // namespace packet
}  // namespace umbra
