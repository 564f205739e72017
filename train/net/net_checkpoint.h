// Moves a net's weights and an updater's state (on either device) into a
// Checkpoint message and back, refusing a checkpoint of another net with a
// message that names the first difference.
//
// Example:
//
//   Checkpoint checkpoint;
//   SaveNetWeights(&net, &checkpoint);
//   SaveUpdater(*updater, &checkpoint);
//   ...
//   LoadNetWeights(checkpoint, path, &net);      // exact: resume, pred
//   LoadUpdater(checkpoint, path, updater.get());
//   LoadWeightsByName(checkpoint, path, &net);   // finetune
#ifndef UMBRA_TRAIN_NET_NET_CHECKPOINT_H_
#define UMBRA_TRAIN_NET_NET_CHECKPOINT_H_

#include <string>
#include <vector>

#include "tensor/tensor.h"
#include "train/net/checkpoint.h"
#include "train/net/network.h"
#include "train/optim/updater.h"

namespace umbra {
namespace train {

// Adds the net's layers (name, type), every weight and every layer state
// (moving averages) to `checkpoint` (gpu tensors are copied to the host).
template <typename xpu>
void SaveNetWeights(BasicNetwork<xpu>* net, Checkpoint* checkpoint);

// Loads every weight of `net` from `checkpoint` (read from `path`), which
// must come from the same net: the same layers, and the same weights and
// layer states with the same shapes. Throws CheckpointError otherwise; `net`
// may then be partly loaded.
template <typename xpu>
void LoadNetWeights(const Checkpoint& checkpoint, const std::string& path,
                    BasicNetwork<xpu>* net);

// Loads the weights whose names ("<layer>.<tag>") the checkpoint has, for
// finetuning, and the layer states of matching name and shape; returns the
// weights' names. A weight of the same name and another
// shape is a CheckpointError (rename the layer to train it afresh).
template <typename xpu>
std::vector<std::string> LoadWeightsByName(const Checkpoint& checkpoint,
                                           const std::string& path,
                                           BasicNetwork<xpu>* net);

// The updater's type, progress and state tensors.
template <typename xpu>
void SaveUpdater(const optim::Updater<xpu, float>& updater,
                 Checkpoint* checkpoint);
// Restores them into an updater holding the same weights. Throws
// CheckpointError.
template <typename xpu>
void LoadUpdater(const Checkpoint& checkpoint, const std::string& path,
                 optim::Updater<xpu, float>* updater);

// The functions above for one device; net_checkpoint.cc instantiates them
// for the cpu, model_gpu.cc for the gpu (from net_checkpoint_impl.h).
#define UMBRA_TRAIN_NET_CHECKPOINT_INSTANCES(xpu)                          \
  template void SaveNetWeights<xpu>(BasicNetwork<xpu>*, Checkpoint*);      \
  template void LoadNetWeights<xpu>(const Checkpoint&, const std::string&, \
                                    BasicNetwork<xpu>*);                   \
  template std::vector<std::string> LoadWeightsByName<xpu>(                \
      const Checkpoint&, const std::string&, BasicNetwork<xpu>*);          \
  template void SaveUpdater<xpu>(const optim::Updater<xpu, float>&,        \
                                 Checkpoint*);                             \
  template void LoadUpdater<xpu>(const Checkpoint&, const std::string&,    \
                                 optim::Updater<xpu, float>*)

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_NET_NET_CHECKPOINT_H_
