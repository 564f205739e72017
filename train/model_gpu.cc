// The trainer's gpu templates, instantiated once (--config=cuda builds):
// the net, its checkpoint functions and its Model, and the registration
// that makes CreateModel build gpu models for `dev = gpu`. Compiled by g++:
// the net on the gpu only fills, copies and adds tensors, and runs the
// layers (//layers/gpu) and updaters (//train/optim:updaters_gpu) that nvcc
// compiled.
#include "train/dist/nccl_allreduce.h"
#include "train/model_impl.h"
#include "train/net/net_checkpoint_impl.h"
#include "train/net/network_impl.h"

namespace umbra {
namespace train {

std::unique_ptr<dist::AsyncAllreduce> NewGradientAllreduce(
    gpu*, dist::Communicator& ranks) {
  return dist::NewNcclAllreduce(ranks);
}

template class BasicNetwork<gpu>;
UMBRA_TRAIN_NET_CHECKPOINT_INSTANCES(gpu);
template class ModelOn<gpu>;

[[maybe_unused]] static const bool kGpuModelRegistered =
    ModelRegistry::Add({"gpu", &ModelOn<gpu>::Make});
}  // namespace train
}  // namespace umbra
