// The update rules for the gpu, in float: each assignment of update_rules.h
// is one kernel.
#include "train/optim/update_rules.h"

namespace umbra {
namespace optim {

UMBRA_OPTIM_INSTANTIATE_RULES(gpu, float);

}  // namespace optim
}  // namespace umbra
