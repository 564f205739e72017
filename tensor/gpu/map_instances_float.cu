// FillTensor and MapTensor for the floating-point types.
#include "tensor/gpu/map_instances_cuda.h"

namespace umbra {
namespace gpu_detail {
UMBRA_GPU_MAP_INSTANTIATE(float)
UMBRA_GPU_MAP_INSTANTIATE(double)
UMBRA_GPU_MAP_INSTANTIATE(half_t)
}  // namespace gpu_detail
}  // namespace umbra
