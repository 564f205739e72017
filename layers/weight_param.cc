#include "layers/weight_param.h"

namespace umbra {
namespace layers {

UMBRA_REGISTER_PARAMETER(WeightParam);

}  // namespace layers
}  // namespace umbra
