#include "train/net/net_checkpoint.h"

#include "train/net/net_checkpoint_impl.h"

namespace umbra {
namespace train {

UMBRA_TRAIN_NET_CHECKPOINT_INSTANCES(cpu);

}  // namespace train
}  // namespace umbra
