// UpdaterState: an updater's state copied to host memory for a checkpoint -
// its type, progress counters and every state tensor by name - and its
// restoration into a fresh updater with the same weights, after which the
// next Update is bit-identical to the one the saved updater would have
// made.
//
// Example:
//
//   UpdaterState<float> saved = SaveUpdaterState(*updater);
//   // ...write saved.type, saved.progress, saved.tensors to the checkpoint...
//   auto resumed = CreateUpdater<cpu, float>(type, kwargs);
//   for (auto& w : weights) resumed->AddWeight(w);
//   LoadUpdaterState(saved, resumed.get());
#ifndef UMBRA_TRAIN_OPTIM_UPDATER_STATE_H_
#define UMBRA_TRAIN_OPTIM_UPDATER_STATE_H_

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tensor/tensor.h"
#include "train/optim/optim_error.h"
#include "train/optim/updater.h"

namespace umbra {
namespace optim {

template <typename DType>
struct UpdaterState {
  // The updater's registered name, e.g. "adam".
  std::string type;
  TrainProgress progress;
  // ("fc1.wmat:momentum", values) in StateTensors() order.
  std::vector<std::pair<std::string, std::vector<DType>>> tensors;
};

// Copies the type, progress and state tensors of `updater` to the host.
template <typename xpu, typename DType>
UpdaterState<DType> SaveUpdaterState(const Updater<xpu, DType>& updater) {
  UpdaterState<DType> saved;
  saved.type = updater.type();
  saved.progress = updater.progress();
  for (const NamedTensor<xpu, DType>& t : updater.StateTensors()) {
    std::vector<DType> values(t.data.shape_[0]);
    Copy(Tensor<cpu, 1, DType>(values.data(), t.data.shape_), t.data);
    saved.tensors.emplace_back(t.name, std::move(values));
  }
  return saved;
}

// Restores `saved` into `updater`, which must be of the same type and hold
// the same weights (added in any order). Throws OptimError naming the
// updater and the tensor for a type mismatch, a missing or extra tensor,
// or a size mismatch; `updater` is unchanged then.
template <typename xpu, typename DType>
void LoadUpdaterState(const UpdaterState<DType>& saved,
                      Updater<xpu, DType>* updater) {
  const std::string label = updater->Label();
  if (saved.type != updater->type()) {
    throw OptimError(absl::StrCat(label, ": the saved state is of updater '",
                                  saved.type, "'"));
  }
  std::vector<NamedTensor<xpu, DType>> targets = updater->StateTensors();
  std::vector<const std::vector<DType>*> sources;
  std::set<std::string> used;
  for (const NamedTensor<xpu, DType>& t : targets) {
    const std::vector<DType>* found = nullptr;
    for (const auto& entry : saved.tensors) {
      if (entry.first == t.name) found = &entry.second;
    }
    if (found == nullptr) {
      throw OptimError(absl::StrCat(label, ": the saved state has no tensor '",
                                    t.name, "'"));
    }
    if (found->size() != t.data.shape_[0]) {
      throw OptimError(absl::StrCat(label, ": saved tensor '", t.name, "' has ",
                                    found->size(), " values; the weight has ",
                                    t.data.shape_[0]));
    }
    sources.push_back(found);
    used.insert(t.name);
  }
  for (const auto& entry : saved.tensors) {
    if (used.count(entry.first) == 0) {
      throw OptimError(absl::StrCat(label, ": saved tensor '", entry.first,
                                    "' belongs to no weight of this updater"));
    }
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    // Copy only reads its source; Tensor has no read-only form.
    std::vector<DType>& values = const_cast<std::vector<DType>&>(*sources[i]);
    Copy(targets[i].data,
         Tensor<cpu, 1, DType>(values.data(), targets[i].data.shape_));
  }
  updater->set_progress(saved.progress);
}

}  // namespace optim
}  // namespace umbra

#endif  // UMBRA_TRAIN_OPTIM_UPDATER_STATE_H_
