// FillTensor and MapTensor for the integer types.
#include "tensor/gpu/map_instances_cuda.h"

namespace umbra {
namespace gpu_detail {
UMBRA_GPU_MAP_INSTANTIATE(uint8_t)
UMBRA_GPU_MAP_INSTANTIATE(int8_t)
UMBRA_GPU_MAP_INSTANTIATE(int32_t)
UMBRA_GPU_MAP_INSTANTIATE(int64_t)
}  // namespace gpu_detail
}  // namespace umbra
