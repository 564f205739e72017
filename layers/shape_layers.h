// Layers that move data without arithmetic:
//   flatten:   (batch, c, h, w) -> (batch, 1, 1, c*h*w);
//   concat:    several inputs joined along the width (axis 3; matrices);
//   ch_concat: several inputs joined along the channels (axis 1; images);
//   split:     one input copied to several outputs, whose gradients it sums
//              (the way to feed one node to two layers).
//
// Example (config):
//   layer[pool2->flat] = flatten
//   layer[a,b->ab] = ch_concat
//   layer[x->x1,x2] = split
#ifndef UMBRA_LAYERS_SHAPE_LAYERS_H_
#define UMBRA_LAYERS_SHAPE_LAYERS_H_

#include <sstream>
#include <string>
#include <vector>

#include "layers/layer.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

template <typename xpu, typename DType>
class FlattenLayer : public Layer<xpu, DType> {
 public:
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description =
        "Reshapes (batch,c,h,w) to the matrix (batch,1,1,c*h*w).";
    return info;
  }
  // A net gives the output the input's data and the input the output's
  // gradient where it can: the copies below are then onto themselves, which
  // Copy skips.
  bool ForwardCopiesInput() const override { return true; }
  bool BackpropCopiesGradientTo(size_t input) const override { return true; }
  void Forward(bool is_train) override {
    Copy(AsMatrix(this->out(0).data), AsMatrix(this->in(0).data),
         this->context().stream);
  }
  void Backprop(bool prop_grad) override {
    if (!prop_grad) return;
    Copy(AsMatrix(this->in(0).grad), AsMatrix(this->out(0).grad),
         this->context().stream);
  }

 protected:
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    this->RequireArity(in_shapes, num_outputs, 1, 1);
    const Shape<4>& s = in_shapes[0];
    return {Shape4(s[0], 1, 1, s[1] * s[2] * s[3])};
  }
};

// Joins its inputs along `kAxis` (1: ch_concat, 3: concat); every other
// dimension must agree.
template <typename xpu, typename DType, int kAxis>
class ConcatLayer : public Layer<xpu, DType> {
  static_assert(kAxis == 1 || kAxis == 3,
                "ConcatLayer joins along channels (1) or width (3) only");

 public:
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description = kAxis == 1 ? "Joins its inputs along the channels."
                                  : "Joins its inputs along the width.";
    return info;
  }
  void Forward(bool is_train) override {
    for (size_t i = 0; i < this->num_in(); ++i) {
      Copy(Part(this->out(0).data, i), Whole(this->in(i).data),
           this->context().stream);
    }
  }
  void Backprop(bool prop_grad) override {
    if (!prop_grad) return;
    for (size_t i = 0; i < this->num_in(); ++i) {
      Copy(Whole(this->in(i).grad), Part(this->out(0).grad, i),
           this->context().stream);
    }
  }

 protected:
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    this->RequireArity(in_shapes, num_outputs, 0, 1);
    if (in_shapes.size() < 2) this->FailShapes(in_shapes, "two or more inputs");
    Shape<4> out = in_shapes[0];
    out[kAxis] = 0;
    offsets_.clear();
    for (const Shape<4>& s : in_shapes) {
      for (int d = 0; d < 4; ++d) {
        if (d != kAxis && s[d] != in_shapes[0][d]) {
          std::ostringstream need;
          need << "inputs that agree in every dimension but " << kAxis << " ("
               << (kAxis == 1 ? "channel" : "width") << "); dimension " << d
               << " differs";
          this->FailShapes(in_shapes, need.str());
        }
      }
      offsets_.push_back(out[kAxis]);
      out[kAxis] += s[kAxis];
    }
    return {out};
  }

 private:
  // A node as (rows, elements per row), rows being the dimensions before
  // kAxis.
  static Shape<2> Rows(const Shape<4>& s) {
    return Shape2(s.ProdShape(0, kAxis), s.ProdShape(kAxis, 4));
  }
  Tensor<xpu, 2, DType> Whole(const Tensor<xpu, 4, DType>& t) const {
    return Tensor<xpu, 2, DType>(t.dptr_, Rows(t.shape_), t.stream_);
  }
  // Input i's columns of the output: a strided view.
  Tensor<xpu, 2, DType> Part(const Tensor<xpu, 4, DType>& t, size_t i) const {
    const Shape<4>& in = this->in_shapes()[i];
    const index_t inner = in.ProdShape(kAxis + 1, 4);
    const Shape<2> whole = Rows(t.shape_);
    return Tensor<xpu, 2, DType>(t.dptr_ + offsets_[i] * inner, Rows(in),
                                 whole[1], t.stream_);
  }

  std::vector<index_t> offsets_;
};

template <typename xpu, typename DType>
using ChannelConcatLayer = ConcatLayer<xpu, DType, 1>;
template <typename xpu, typename DType>
using WidthConcatLayer = ConcatLayer<xpu, DType, 3>;

template <typename xpu, typename DType>
class SplitLayer : public Layer<xpu, DType> {
 public:
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description =
        "Copies its input to each of its outputs; sums their gradients.";
    return info;
  }
  bool ForwardCopiesInput() const override { return true; }
  void Forward(bool is_train) override {
    for (size_t j = 0; j < this->num_out(); ++j) {
      // Nothing to do for an output that shares the input's data: Copy
      // skips a copy onto itself.
      Copy(this->out(j).data, this->in(0).data, this->context().stream);
    }
  }
  void Backprop(bool prop_grad) override {
    if (!prop_grad) return;
    Tensor<xpu, 4, DType> grad = this->in(0).grad;
    if (this->num_out() == 1) {
      Copy(grad, this->out(0).grad, this->context().stream);
      return;
    }
    // The first two in one pass: the usual residual split has two outputs.
    grad = this->out(0).grad + this->out(1).grad;
    for (size_t j = 2; j < this->num_out(); ++j) grad += this->out(j).grad;
  }

 protected:
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    this->RequireArity(in_shapes, num_outputs, 1, 0);
    return std::vector<Shape<4>>(num_outputs, in_shapes[0]);
  }
};

extern template class FlattenLayer<cpu, float>;
extern template class FlattenLayer<cpu, double>;
extern template class ConcatLayer<cpu, float, 1>;
extern template class ConcatLayer<cpu, double, 1>;
extern template class ConcatLayer<cpu, float, 3>;
extern template class ConcatLayer<cpu, double, 3>;
extern template class SplitLayer<cpu, float>;
extern template class SplitLayer<cpu, double>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_SHAPE_LAYERS_H_
