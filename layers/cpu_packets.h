// The SIMD packets of the layers' hand-written CPU loops: the build's
// default packets (UMBRA_DEFAULT_PACKET) where DType has them, plain
// scalars otherwise (double on an AVX2-only build, say).
//
// Example:
//
//   using P = CpuPacket<float>;
//   for (index_t i = 0; i + P::kSize <= n; i += P::kSize) ...
#ifndef UMBRA_LAYERS_CPU_PACKETS_H_
#define UMBRA_LAYERS_CPU_PACKETS_H_

#include "tensor/packet.h"

namespace umbra {
namespace layers {

template <typename DType>
constexpr packet::PacketArch kCpuPacketArch =
    expr::PacketCheck<DType, UMBRA_DEFAULT_PACKET>::kPass ? UMBRA_DEFAULT_PACKET
                                                          : packet::kPlain;
template <typename DType>
using CpuPacket = packet::Packet<DType, kCpuPacketArch<DType>>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_CPU_PACKETS_H_
