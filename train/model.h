// Model: a net and its updater on one device, as the trainer drives them.
// The trainer's loop is device-neutral and talks only to a Model: batches
// go in from host memory, the outputs the metrics and predictions read come
// back to host memory, weights and updater state go to and from
// checkpoints through the host.
//
//   ModelOn<cpu>  works on the batches' own memory: the inputs are copied
//                 into the net's input nodes as before, labels and outputs
//                 are views (no copies).
//   ModelOn<gpu>  (--config=cuda, linked by //train:trainer_gpu) copies each
//                 batch's inputs and label fields to the device, and the
//                 rows the metrics read back to the host.
//
// Example:
//
//   dist::SingleProcess ranks;
//   std::unique_ptr<Model> model =
//       CreateModel(checked, input_shapes, /*training=*/true, ranks);
//   model->InitWeights(seed);
//   model->Feed(batch, /*with_labels=*/true);
//   model->Forward(/*is_train=*/true);
//   model->Backprop(/*sum_over_ranks=*/true);
//   model->Update(/*gradient_scale=*/1.0);
//   Tensor<cpu, 2, float> scores = model->HostRows(kNetOutput, rows);
#ifndef UMBRA_TRAIN_MODEL_H_
#define UMBRA_TRAIN_MODEL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "param/type_registry.h"
#include "tensor/tensor.h"
#include "train/data/data_batch.h"
#include "train/device.h"
#include "train/dist/communicator.h"
#include "train/net/checkpoint.h"
#include "train/net_setup.h"

namespace umbra {
namespace train {

// The node HostRows reads for the net's output (its last layer's).
inline constexpr int kNetOutput = -1;

class Model {
 public:
  virtual ~Model() = default;

  // BasicNetwork::Summary.
  virtual std::string Summary() = 0;
  // Initialises every weight from `seed`.
  virtual void InitWeights(int seed) = 0;
  // Reseeds the generator the layers draw from (dropout).
  virtual void SeedLayers(int seed) = 0;

  // Puts `batch` into the net: its data and extra inputs, and with labels
  // every label field ("label" and the label_vec fields); without labels
  // the net has none (prediction). The batch must stay valid until the
  // next Feed.
  virtual void Feed(const DataBatch& batch, bool with_labels) = 0;
  virtual void Forward(bool is_train) = 0;
  // The sum of the loss layers' losses of the last Forward with labels.
  virtual double Loss() = 0;
  // Backward through the net; the weight gradients accumulate. With
  // several ranks and `sum_over_ranks`, a model made for training then
  // holds the sum of the ranks' gradients: the global batch's. The batches
  // before the last of one update (update_period) leave it false: their
  // gradients add up on each rank and are summed once.
  virtual void Backprop(bool sum_over_ranks) = 0;
  // Sums the gradients over the ranks now: after a Backprop(false) whose
  // update comes early (a round's last batches). Nothing for one rank.
  virtual void SumGradientsOverRanks() = 0;
  // Seconds Backprop spent waiting for the ranks' gradients since the last
  // call (0 for one rank).
  virtual double TakeCommWaitSeconds() = 0;
  // BasicNetwork::TraceNonFinite.
  virtual std::string TraceNonFinite(bool is_train) = 0;
  // The first `rows` rows of node `node` (an index of the net's config,
  // or kNetOutput) as (rows, channel*height*width) in host memory; valid
  // until the next Feed or Forward.
  virtual Tensor<cpu, 2, float> HostRows(int node, index_t rows) = 0;
  // The shape of node `node` (an index of the net's config, or kNetOutput:
  // (batch, 1, 1, outputs)): the batch, then one instance's channel, height
  // and width.
  virtual Shape<4> NodeShape(int node) = 0;

  // A model made for training has an updater; the rest need it.
  virtual void StartRound(int round) = 0;
  // One step of every weight from the accumulated gradients times
  // `gradient_scale`; clears them.
  virtual void Update(double gradient_scale) = 0;
  virtual int64_t num_update() const = 0;

  // Adds the weights, the layer states and, when training, the updater's
  // state to `checkpoint` (net_checkpoint.h).
  virtual void SaveTo(Checkpoint* checkpoint) = 0;
  // LoadNetWeights, LoadWeightsByName and LoadUpdater (net_checkpoint.h)
  // of `checkpoint`, read from `path`.
  virtual void LoadWeights(const Checkpoint& checkpoint,
                           const std::string& path) = 0;
  virtual std::vector<std::string> LoadWeightsByName(
      const Checkpoint& checkpoint, const std::string& path) = 0;
  virtual void LoadUpdater(const Checkpoint& checkpoint,
                           const std::string& path) = 0;
};

// The label fields of the first `rows` rows of `batch` in host memory:
// "label" (every column) and every one of `fields` (label_vec's columns),
// as views of the batch's labels.
std::map<std::string, Tensor<cpu, 2, float>> HostLabelFields(
    const DataBatch& batch, const std::vector<LabelField>& fields,
    index_t rows);

// The model of a checked config on the device its `dev` names (set up by
// CheckConfig), for batches of `input_shapes`, with an updater when
// `training`. With several `ranks` the batches are a rank's share of each
// global batch (train/dist): the layers know their rows, and a training
// model sums its gradients over the ranks. Throws ConfigError, at
// `dev` when this binary has no model for the device.
std::unique_ptr<Model> CreateModel(const CheckedConfig& checked,
                                   const std::vector<Shape<4>>& input_shapes,
                                   bool training, dist::Communicator& ranks);

// How the models of a device are made, registered under the device's name
// ("cpu", "gpu"): model.cc registers the cpu's, //train:trainer_gpu the
// gpu's.
struct ModelTypeInfo {
  // What TypeRegistry needs to name the kind in messages.
  static constexpr char kKind[] = "model device";
  static constexpr char kKnownAs[] = "devices";
  static constexpr char kLibrary[] = "//train:registered_types";
  using Error = DeviceError;

  std::string type;
  // ModelOn<xpu>::Make.
  std::unique_ptr<Model> (*make)(const CheckedConfig& checked,
                                 const std::vector<Shape<4>>& input_shapes,
                                 bool training,
                                 dist::Communicator& ranks) = nullptr;

  std::string Problem() const {
    return make == nullptr ? "has no make function" : "";
  }
};

using ModelRegistry = TypeRegistry<ModelTypeInfo>;

}  // namespace train
}  // namespace umbra

#endif  // UMBRA_TRAIN_MODEL_H_
