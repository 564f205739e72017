// The update rules for the cpu, in float and double.
#include "train/optim/update_rules.h"

namespace umbra {
namespace optim {

UMBRA_OPTIM_INSTANTIATE_RULES(cpu, float);
UMBRA_OPTIM_INSTANTIATE_RULES(cpu, double);

}  // namespace optim
}  // namespace umbra
