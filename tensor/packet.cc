#include "tensor/packet.h"

#include <new>

namespace umbra {
namespace packet {

void* AlignedMallocPitch(size_t* out_pitch, size_t lspace, size_t num_line) {
  const size_t kAlign = 64;
  const size_t pitch = (lspace + kAlign - 1) / kAlign * kAlign;
  *out_pitch = pitch;
  size_t bytes = pitch * num_line;
  if (bytes == 0) bytes = kAlign;
  void* res = nullptr;
  if (posix_memalign(&res, kAlign, bytes) != 0) throw std::bad_alloc();
  return res;
}

void AlignedFree(void* ptr) { free(ptr); }

}  // namespace packet
}  // namespace umbra
