// StandaloneLayer: one layer with nodes, labels and a random generator of
// its own - a one-layer net - for tests, benchmarks and per-layer tools.
//
// Example:
//   StandaloneLayer<cpu, float> fc("fullc", {{"nhidden", "10"}},
//                                  {Shape4(64, 1, 1, 784)});
//   fc.in(0).data = 1.0f;
//   fc.layer().Forward(true);
//   fc.out(0).grad = 1.0f;
//   fc.layer().Backprop(true);
//
//   StandaloneLayer<cpu, float> loss("softmax", {}, {Shape4(64, 1, 1, 10)});
//   Tensor<cpu, 2> label = loss.AddLabel("label", Shape2(64, 1));
#ifndef UMBRA_LAYERS_STANDALONE_LAYER_H_
#define UMBRA_LAYERS_STANDALONE_LAYER_H_

#include <memory>
#include <string>
#include <vector>

#include "layers/layer.h"
#include "layers/layer_registry.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

template <typename xpu, typename DType>
class StandaloneLayer {
 public:
  // Creates the layer "<type>0", infers its shapes, allocates zeroed nodes
  // (the output node is the input node when `in_place`), binds them and
  // initialises the weights from `seed`. Throws LayerError.
  StandaloneLayer(const std::string& type, const ParamKwargs& kwargs,
                  const std::vector<Shape<4>>& in_shapes,
                  size_t num_outputs = 1, bool in_place = false, int seed = 0)
      : rnd_(seed) {
    layer_ = CreateLayer<xpu, DType>(type, type + "0", kwargs);
    const std::vector<Shape<4>> out_shapes =
        layer_->InferShapes(in_shapes, num_outputs);
    for (const Shape<4>& s : in_shapes) in_.push_back(NewNode(s));
    if (in_place) {
      out_.push_back(in_[0]);
    } else {
      for (const Shape<4>& s : out_shapes) out_.push_back(NewNode(s));
    }
    LayerContext<xpu, DType> context;
    context.rnd = &rnd_;
    context.labels = &labels_;
    layer_->Setup(in_, out_, context);
    layer_->InitWeights(&rnd_);
  }

  Layer<xpu, DType>& layer() { return *layer_; }
  Node<xpu, DType>& in(size_t i) { return *in_[i]; }
  Node<xpu, DType>& out(size_t i) { return *out_[i]; }
  size_t num_in() const { return in_.size(); }
  size_t num_out() const { return out_.size(); }
  Random<xpu, DType>& rnd() { return rnd_; }

  // Adds (or replaces) the label field `name`; returns it to fill.
  Tensor<xpu, 2, DType> AddLabel(const std::string& name,
                                 const Shape<2>& shape) {
    label_storage_.push_back(std::make_unique<TensorContainer<xpu, 2, DType>>(
        shape, DType(0), false));
    labels_.fields[name] = label_storage_.back()->view();
    return labels_.fields[name];
  }

 private:
  struct OwnedNode {
    TensorContainer<xpu, 4, DType> data{false};
    TensorContainer<xpu, 4, DType> grad{false};
    Node<xpu, DType> node;
  };
  Node<xpu, DType>* NewNode(const Shape<4>& shape) {
    storage_.push_back(std::make_unique<OwnedNode>());
    OwnedNode& owned = *storage_.back();
    owned.data.Resize(shape, DType(0));
    owned.grad.Resize(shape, DType(0));
    owned.node.data = owned.data.view();
    owned.node.grad = owned.grad.view();
    return &owned.node;
  }

  Random<xpu, DType> rnd_;
  LabelInfo<xpu, DType> labels_;
  std::vector<std::unique_ptr<TensorContainer<xpu, 2, DType>>> label_storage_;
  std::vector<std::unique_ptr<OwnedNode>> storage_;
  std::vector<Node<xpu, DType>*> in_;
  std::vector<Node<xpu, DType>*> out_;
  std::unique_ptr<Layer<xpu, DType>> layer_;
};

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_STANDALONE_LAYER_H_
