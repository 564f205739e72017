// The Layer interface: one node of the network graph that reads input nodes
// and writes output nodes, owns its weights and their gradients, and runs
// forward and backward on a device `xpu` (cpu; gpu under --config=cuda) in
// precision DType (float for training, double for gradient checks).
//
// The net builder drives a layer through these steps, in order:
//
//   auto fc = CreateLayer<cpu, float>("fullc", "fc1", {{"nhidden", "10"}});
//   std::vector<Shape<4>> out = fc->InferShapes({Shape4(64, 1, 1, 784)});
//   // ...weights are declared, not yet allocated: fc->WeightShapes()...
//   // ...allocate the output nodes (data and grad, contiguous) as `out`...
//   fc->Setup({&in_node}, {&out_node}, context);   // weights, nodes, labels
//   fc->InitWeights(&rnd);                         // or load from a checkpoint
//   fc->Forward(/*is_train=*/true);                // out.data from in.data
//   fc->Backprop(/*prop_grad=*/true);              // in.grad from out.grad
//   for (WeightRef<cpu, float>& w : fc->Weights()) { ...w.name: "fc1.wmat"... }
//   for (StateRef<cpu, float>& s : bn->States()) { ..."bn1.moving_mean"... }
//
// Contracts:
//   - Nodes are 4-D (batch, channel, height, width), as in cxxnet; a matrix
//     is (batch, 1, 1, width). Node tensors are contiguous (no row padding).
//   - Forward writes (=) every output node's data. Backprop writes (=) every
//     input node's grad when prop_grad, and adds (+=) to the weight
//     gradients, so that gradients of several batches can be summed; the
//     updater clears them (ZeroGradients).
//   - A layer whose SupportsInPlace() is true may be given the same node as
//     input and output (a self-loop `layer[a->a]`); the others refuse it.
//   - Loss layers (is_loss()) read labels from the context's LabelInfo, the
//     field named by their `target` key ("label"), ignore their output's
//     grad, and report Loss() after a Forward that had labels.
//   - Weights() are what updaters train; States() are tensors a layer
//     updates itself (batch_norm's moving mean and variance) that are not
//     trained but must be saved and loaded with the weights: a checkpoint
//     holds both lists, each entry under its stable name.
//   - Every error is a LayerError whose message names the layer (name and
//     type), what was wrong, and what was expected.
//   - Every node and weight shape has positive dimensions and at most
//     kMaxTensorElements elements: InferShapes refuses inputs, outputs and
//     weights that break this (an overflowing shape included), so what a
//     net allocates is known, and checkable, before anything is allocated.
#ifndef UMBRA_LAYERS_LAYER_H_
#define UMBRA_LAYERS_LAYER_H_

#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "layers/batch_split.h"
#include "layers/layer_error.h"
#include "layers/layer_type_info.h"
#include "layers/weight_init.h"
#include "layers/weight_param.h"
#include "param/param.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

// An activation of the network and its gradient, both of the same shape.
template <typename xpu, typename DType>
struct Node {
  Tensor<xpu, 4, DType> data;
  Tensor<xpu, 4, DType> grad;
};

// The labels of the current batch, by field name ("label" by default).
// Each field is (batch, width): a class index per row for softmax, one
// target per output for the regression losses. The trainer fills it before
// Forward and keeps it alive through Backprop.
template <typename xpu, typename DType>
struct LabelInfo {
  std::map<std::string, Tensor<xpu, 2, DType>> fields;
};

// What a layer may use besides its nodes. Pointers are not owned and must
// outlive the layer's use of them; labels may be null when there are none
// (prediction); rank_sum is null unless the batch is split over ranks.
template <typename xpu, typename DType>
struct LayerContext {
  Random<xpu, DType>* rnd = nullptr;
  const LabelInfo<xpu, DType>* labels = nullptr;
  Stream<xpu>* stream = nullptr;
  // Where this rank's rows lie when a batch is split (batch_split.h).
  BatchSplit split;
  RankSum<xpu, DType>* rank_sum = nullptr;
};

// A weight of a layer as updaters and checkpoints see it: a stable name,
// its shape, flat contiguous views of the values and the gradient, and the
// per-tag settings (learning rate, weight decay, initialisation).
template <typename xpu, typename DType>
struct WeightRef {
  // "<layer name>.<tag>", e.g. "fc1.wmat".
  std::string name;
  // "wmat", "bias", "slope".
  std::string tag;
  TShape shape;
  Tensor<xpu, 1, DType> data;
  Tensor<xpu, 1, DType> grad;
  const WeightParam* settings = nullptr;
};

// A non-trainable state tensor of a layer, as checkpoints see it: updated by
// the layer itself in Forward (a moving average), saved and restored beside
// the weights, never given to an updater.
template <typename xpu, typename DType>
struct StateRef {
  // "<layer name>.<tag>", e.g. "bn1.moving_mean".
  std::string name;
  // "moving_mean", "moving_var".
  std::string tag;
  TShape shape;
  Tensor<xpu, 1, DType> data;
};

// The most elements a node or weight may hold: 2^40 (4 TiB of float), far
// beyond any device's memory and far below where an element count or a
// byte count overflows int64.
inline constexpr index_t kMaxTensorElements = index_t{1} << 40;

// What makes a shape unusable for a node or weight, "" when nothing does:
// "its dimension 2 is 0, not positive", "it has 7.38e+19 elements, more
// than the 2^40 (...) a tensor may hold". Counted without overflow.
inline std::string TensorSizeProblem(const index_t* begin, const index_t* end) {
  for (const index_t* d = begin; d != end; ++d) {
    if (*d <= 0) {
      return "its dimension " + std::to_string(d - begin) + " is " +
             std::to_string(*d) + ", not positive";
    }
  }
  index_t count = 1;
  const index_t* d = begin;
  for (; d != end && *d <= kMaxTensorElements / count; ++d) count *= *d;
  if (d == end) return "";
  double elements = 1.0;
  for (d = begin; d != end; ++d) elements *= static_cast<double>(*d);
  std::ostringstream os;
  os.precision(3);
  os << "it has " << elements << " elements, more than the 2^40 ("
     << kMaxTensorElements << ") a tensor may hold";
  return os.str();
}
template <int dim>
inline std::string TensorSizeProblem(const Shape<dim>& shape) {
  return TensorSizeProblem(shape.shape_, shape.shape_ + dim);
}
inline std::string TensorSizeProblem(const TShape& shape) {
  return TensorSizeProblem(shape.begin(), shape.end());
}

template <typename xpu, typename DType>
class Layer {
 public:
  using NodeType = Node<xpu, DType>;

  Layer() = default;
  Layer(const Layer&) = delete;
  Layer& operator=(const Layer&) = delete;
  virtual ~Layer() = default;

  const std::string& name() const { return name_; }
  const std::string& type() const { return info_.type; }
  const LayerTypeInfo& info() const { return info_; }
  bool is_loss() const { return info_.is_loss; }

  // Sets the parameters from the layer's key=value pairs (the trainer has
  // already merged the global defaults in). Plain keys go to the type's
  // parameter structs; `tag:key` goes to the WeightParam of one weight tag.
  // CreateLayer calls it. Throws LayerError for an unknown key or tag or a
  // bad value.
  void Configure(const LayerTypeInfo& info, const std::string& name,
                 const ParamKwargs& kwargs);

  // From the input shapes, the output shapes (num_outputs of them; only
  // split takes more than one). Declares the weights' and states' shapes
  // without allocating them (AllocateWeights does); one whose shape does
  // not change (a new batch size) keeps its values. Unbinds the nodes: call
  // Setup again. Throws LayerError naming the shapes and what the layer
  // needs, and for an input, output or weight shape TensorSizeProblem
  // refuses (naming the input shapes and the shape they would make).
  std::vector<Shape<4>> InferShapes(const std::vector<Shape<4>>& in_shapes,
                                    size_t num_outputs = 1);
  const std::vector<Shape<4>>& in_shapes() const { return in_shapes_; }
  const std::vector<Shape<4>>& out_shapes() const { return out_shapes_; }

  // Allocates every declared weight (values and gradient, zeroed) and
  // state (its initial value) that has no memory yet; keeps those that
  // have. Setup, InitWeights, Weights() and States() call it. Throws
  // LayerError naming the tensor, its shape and its bytes when the device
  // is out of memory.
  void AllocateWeights();

  // Allocates the weights (AllocateWeights), binds the nodes (shapes as
  // InferShapes said, contiguous data and grad) and the context. Throws
  // LayerError otherwise, for a self-loop on a layer that cannot run in
  // place, or naming the layer when its buffers do not fit in memory.
  void Setup(const std::vector<NodeType*>& in,
             const std::vector<NodeType*>& out,
             const LayerContext<xpu, DType>& context);

  // Initialises every weight as its settings say; zeroes the gradients;
  // resets every state to its initial value (allocating them first).
  void InitWeights(Random<xpu, DType>* rnd);
  // Every weight, in declaration order, allocated first (AllocateWeights).
  std::vector<WeightRef<xpu, DType>> Weights();
  // Every state tensor, in declaration order (empty for most layers),
  // allocated first (AllocateWeights).
  std::vector<StateRef<xpu, DType>> States();
  // The tag and shape of every declared weight (of every state), in the
  // order of Weights() (States()), without allocating anything.
  std::vector<std::pair<std::string, TShape>> WeightShapes() const;
  std::vector<std::pair<std::string, TShape>> StateShapes() const;
  // Sets every weight gradient to 0.
  void ZeroGradients();
  // Makes this layer's weights those of `primary`, a layer with the same
  // weight tags and shapes (a share[...] layer of the trainer): both read
  // the same values and add into the same gradients, and InitWeights and
  // ZeroGradients here leave them to `primary`. Call after InferShapes on
  // both. Throws LayerError naming the first tag whose shape differs.
  void ShareWeightsOf(const Layer& primary);

  virtual void Forward(bool is_train) = 0;
  virtual void Backprop(bool prop_grad) = 0;

  // Whether the same node may be both input and output.
  virtual bool SupportsInPlace() const { return false; }
  // Whether Forward copies input 0's elements unchanged and in order to
  // every output (of the input's size, in its own shape), so that a net may
  // give an output the input's data instead of memory of its own (when
  // nothing writes either in place later); its Copy onto itself is then
  // nothing. The gradients stay separate.
  virtual bool ForwardCopiesInput() const { return false; }
  // Whether Backprop sets input i's gradient to the output's elements,
  // unchanged and in order, so that a net may give that input the output's
  // gradient instead of memory of its own (when nothing writes the input in
  // place); Backprop then skips that copy.
  virtual bool BackpropCopiesGradientTo(size_t input) const { return false; }
  // Asks the layer (after Setup) to compute an in-place relu of its only
  // output as well, relu in Forward and relu's gradient in Backprop, so that
  // a net can skip the relu layer that follows it; returns whether it will.
  // (Running that relu layer anyway changes nothing: relu is idempotent.)
  virtual bool FuseRelu() { return false; }
  // For losses: the mean loss per example of the last Forward that had
  // labels (grad_scale not applied); NaN before that and for other layers.
  virtual double Loss() const {
    return std::numeric_limits<double>::quiet_NaN();
  }
  // The multiply-adds of one Forward of a layer whose time is arithmetic
  // (conv, fullc: matrix products, whose Backprop does as many for the
  // weight gradient and again as many for the input gradient); 0 for a
  // layer whose time is its memory traffic. For roofline figures
  // (tools:time).
  virtual double ForwardMultiplyAdds() const { return 0; }

 protected:
  // Reads the layer's own parameter struct(s) from `kwargs`, which holds
  // only plain keys, all known to one of info().params; use
  // InitAllowUnknown. A ParamError thrown here is reported with the layer.
  virtual void SetParams(const ParamKwargs& kwargs) {}
  // The output shapes; declares weights with DeclareWeight.
  virtual std::vector<Shape<4>> DoInferShapes(
      const std::vector<Shape<4>>& in_shapes, size_t num_outputs) = 0;
  // Called at the end of Setup (allocate batch-sized state here).
  virtual void OnSetup() {}

  // Declares (or, with the same shape, keeps) the weight `tag`; returns its
  // index for weight()/gradient(), which hold the weight from Setup on.
  size_t DeclareWeight(const std::string& tag, const TShape& shape,
                       WeightFill fill, const WeightFans& fans = {},
                       DType constant = DType(0));
  // Declares (or, with the same shape, keeps) the state `tag`, filled with
  // `initial` when allocated and by InitWeights; returns its index for
  // state(), which holds it from Setup on.
  size_t DeclareState(const std::string& tag, const TShape& shape,
                      DType initial);
  Tensor<xpu, 1, DType> state(size_t index) const {
    return states_[index]->data;
  }
  Tensor<xpu, 1, DType> weight(size_t index) const {
    return weights_[index]->storage->data;
  }
  Tensor<xpu, 1, DType> gradient(size_t index) const {
    return weights_[index]->storage->grad;
  }
  const WeightParam& settings(const std::string& tag) const;

  NodeType& in(size_t i) const { return *in_[i]; }
  NodeType& out(size_t i) const { return *out_[i]; }
  size_t num_in() const { return in_.size(); }
  size_t num_out() const { return out_.size(); }
  const LayerContext<xpu, DType>& context() const { return context_; }
  // Whether input i and output j are the same node.
  bool InPlace(size_t i = 0, size_t j = 0) const { return in_[i] == out_[j]; }

  // Throws LayerError "layer 'fc1' (fullc): <what>".
  [[noreturn]] void Fail(const std::string& what) const;
  // Fails when a weight or state (`kind`) `tag` of `shape` could not be a
  // tensor (TensorSizeProblem), naming the input shapes that made it.
  void FailIfTooLarge(const char* kind, const std::string& tag,
                      const TShape& shape) const;
  // Throws LayerError "layer 'fc1' (fullc): <context><error>" with `error` as
  // its cause.
  [[noreturn]] void FailSetting(const ParamError& error,
                                const std::string& context = "") const;
  // Throws LayerError "layer ...: got input shapes [...]; needs <need>".
  [[noreturn]] void FailShapes(const std::vector<Shape<4>>& in_shapes,
                               const std::string& need) const;
  // FailShapes unless there are `num_inputs` inputs (0: at least one) and
  // num_outputs == `outputs` (0: at least one).
  void RequireArity(const std::vector<Shape<4>>& in_shapes, size_t num_outputs,
                    size_t inputs, size_t outputs) const;

 private:
  // A weight's values and gradient; held by every layer that shares it.
  struct WeightStorage {
    TensorContainer<xpu, 1, DType> data{false};
    TensorContainer<xpu, 1, DType> grad{false};
  };
  struct WeightSlot {
    std::string tag;
    TShape shape;
    WeightFill fill;
    WeightFans fans;
    DType constant;
    std::shared_ptr<WeightStorage> storage = std::make_shared<WeightStorage>();
    // Whether the storage is another layer's (ShareWeightsOf).
    bool shared = false;
  };

  struct StateSlot {
    std::string tag;
    TShape shape;
    DType initial;
    TensorContainer<xpu, 1, DType> data{false};
  };

  std::string name_ = "?";
  LayerTypeInfo info_;
  std::map<std::string, WeightParam> settings_;
  std::vector<std::unique_ptr<WeightSlot>> weights_;
  std::vector<std::unique_ptr<StateSlot>> states_;
  std::vector<Shape<4>> in_shapes_;
  std::vector<Shape<4>> out_shapes_;
  std::vector<NodeType*> in_;
  std::vector<NodeType*> out_;
  LayerContext<xpu, DType> context_;
};

// A contiguous (batch, n) view of a node tensor, n = channel*height*width.
template <typename xpu, typename DType>
inline Tensor<xpu, 2, DType> AsMatrix(const Tensor<xpu, 4, DType>& t) {
  return Tensor<xpu, 2, DType>(
      t.dptr_,
      Shape2(t.size(0), t.shape_.Size() / (t.size(0) > 0 ? t.size(0) : 1)),
      t.stream_);
}

// A contiguous view of `t`'s memory with another shape of the same size.
template <int dim, typename xpu, int srcdim, typename DType>
inline Tensor<xpu, dim, DType> Reshape(const Tensor<xpu, srcdim, DType>& t,
                                       const Shape<dim>& shape) {
  return Tensor<xpu, dim, DType>(t.dptr_, shape, t.stream_);
}

// Whether a node shape is a matrix (batch, 1, 1, n).
inline bool IsMatrix(const Shape<4>& s) { return s[1] == 1 && s[2] == 1; }

}  // namespace layers
}  // namespace umbra

#include "layers/layer_impl.h"  // IWYU pragma: export

#endif  // UMBRA_LAYERS_LAYER_H_
