#include "tensor/packet.h"

#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace umbra {
namespace packet {
namespace {

// Allocations of 32 MB or more (datasets, the largest tensors) start on a
// 2 MB boundary and ask Linux for transparent huge pages, as PyTorch's CPU
// allocator does: a random row of a large dataset then costs no TLB miss,
// and a virtual machine that rebuilds its shadow page tables after a large
// munmap elsewhere rebuilds one entry per 2 MB instead of one per 4 KB
// (measured here: the first pass over Fashion-MNIST, after the loader freed
// its 47 MB file buffer, read 70k images/s, and 451k with huge pages).
// Smaller buffers keep 4 KB pages: with huge pages from 2 MB on, which
// covers every activation, the ResNet trainer ran 0.8x as fast.
constexpr size_t kHugePageMinBytes = size_t{1} << 25;
constexpr size_t kHugePageBytes = size_t{1} << 21;

}  // namespace

void* AlignedMallocPitch(size_t* out_pitch, size_t lspace, size_t num_line) {
  const size_t kAlign = 64;
  const size_t pitch = (lspace + kAlign - 1) / kAlign * kAlign;
  *out_pitch = pitch;
  size_t bytes = pitch * num_line;
  if (bytes == 0) bytes = kAlign;
  const bool huge = bytes >= kHugePageMinBytes;
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
