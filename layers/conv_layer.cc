// CPU instantiation and registration of conv; ConvParallelImages.
#include "layers/conv_layer.h"

#include <algorithm>

#include "layers/layer_registry.h"

namespace umbra {
namespace layers {

index_t ConvParallelImages(int temp_col_max, index_t patch_elements,
                           index_t batch, int threads) {
  const index_t budget = index_t(temp_col_max) << kTempColUnitShift;
  index_t images = std::min<index_t>(threads, batch);
  if (patch_elements > 0) images = std::min(images, budget / patch_elements);
  return std::max<index_t>(images, 1);
}

template class ConvolutionLayer<cpu, float>;
template class ConvolutionLayer<cpu, double>;

UMBRA_REGISTER_PARAMETER(ConvolutionParam);

UMBRA_REGISTER_LAYER("conv", ConvolutionLayer);

}  // namespace layers
}  // namespace umbra
