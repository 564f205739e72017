#include "tools/fuzz/checkpoint_fuzz_model.h"

#include <vector>

#include "tensor/tensor.h"
#include "train/config/config.h"
#include "train/dist/communicator.h"
#include "train/net_setup.h"

namespace umbra {
namespace tools {
namespace {

constexpr char kConfig[] = R"(netconfig = start
layer[in->c] = conv:conv1
  kernel_size = 3
  nchannel = 2
layer[c->c] = batch_norm:bn1
layer[c->p] = prelu:act1
layer[p->f] = flatten
layer[f->o] = fullc:fc1
  nhidden = 3
layer[o->o] = softmax
netconfig = end
input_shape = 1,4,4
batch_size = 2
updater = sgd
momentum = 0.9
nthread = 1
)";

}  // namespace

std::unique_ptr<train::Model> MakeCheckpointFuzzModel() {
  static dist::SingleProcess one_process;
  const train::CheckedConfig checked =
      train::CheckConfig(train::ParseTrainConfigText(kConfig, "fuzz.conf"));
  std::unique_ptr<train::Model> model =
      train::CreateModel(checked, train::ConfiguredInputShapes(checked),
                         /*training=*/true, one_process);
  model->InitWeights(/*seed=*/1);
  return model;
}

}  // namespace tools
}  // namespace umbra
