// fixconn (`nhidden`, `fixconn_weight`): cxxnet's fully connected layer
// with fixed weights,
//   out = in * W^T,
// W of shape (nhidden, input width) read from the sparse text file
// fixconn_weight and never trained (no bias, no weights to update or save:
// the file is read again whenever the net is built). The file holds
// "ROWS COLS COUNT", then COUNT triples "ROW COL VALUE" (0-based), every
// number separated by white space; entries not listed are 0 and a later
// triple for the same entry wins. Input and output are matrices
// (batch, 1, 1, n).
//
// Example (config):
//   layer[flat->proj] = fixconn:proj
//     nhidden = 64
//     fixconn_weight = "projection.txt"
#ifndef UMBRA_LAYERS_FIXCONN_LAYER_H_
#define UMBRA_LAYERS_FIXCONN_LAYER_H_

#include <stdexcept>
#include <string>
#include <vector>

#include "layers/layer.h"
#include "param/param.h"
#include "tensor/tensor.h"

namespace umbra {
namespace layers {

struct FixConnParam : public Parameter<FixConnParam> {
  int nhidden;
  std::string fixconn_weight;
  UMBRA_DECLARE_PARAMETER(FixConnParam) {
    UMBRA_DECLARE_FIELD(nhidden).set_lower_bound(1).describe(
        "Number of output units.");
    UMBRA_DECLARE_FIELD(fixconn_weight)
        .describe(
            "Text file of the fixed weights: ROWS COLS COUNT, then COUNT "
            "triples ROW COL VALUE (ROWS = nhidden, COLS = the input width).");
  }
};

// The rows x cols matrix (row-major) of the sparse text file at `path`.
// Throws std::runtime_error naming the file and what is wrong: it cannot
// be read, its header or a triple is not numbers, its shape is not rows x
// cols, an index is out of range, a value is not finite, or it holds more
// than its header says.
std::vector<float> ReadFixConnWeight(const std::string& path, index_t rows,
                                     index_t cols);

template <typename xpu, typename DType>
class FixConnLayer : public Layer<xpu, DType> {
 public:
  static LayerTypeInfo Describe() {
    LayerTypeInfo info;
    info.description =
        "Fully connected with fixed weights from a file (cxxnet's fixconn): "
        "out = in * W^T, W never trained.";
    info.params = {FixConnParam::Manager()};
    return info;
  }
  void Forward(bool is_train) override {
    AsMatrix(this->out(0).data) =
        dot(AsMatrix(this->in(0).data), fixed_.view().T());
  }
  void Backprop(bool prop_grad) override {
    if (prop_grad) {
      AsMatrix(this->in(0).grad) =
          dot(AsMatrix(this->out(0).grad), fixed_.view());
    }
  }
  // The fixed matrix (nhidden x input width, row-major), for the ONNX
  // exporter (train/onnx).
  const std::vector<DType>& weights() const { return weights_; }
  double ForwardMultiplyAdds() const override {
    const Shape<4>& in = this->in_shapes()[0];
    return double(in[0]) * in[3] * param_.nhidden;
  }

 protected:
  void SetParams(const ParamKwargs& kwargs) override {
    param_.InitAllowUnknown(kwargs);
  }
  std::vector<Shape<4>> DoInferShapes(const std::vector<Shape<4>>& in_shapes,
                                      size_t num_outputs) override {
    this->RequireArity(in_shapes, num_outputs, 1, 1);
    const Shape<4>& s = in_shapes[0];
    if (!IsMatrix(s)) {
      this->FailShapes(in_shapes,
                       "a matrix input (batch,1,1,n); put a flatten layer "
                       "before it");
    }
    this->FailIfTooLarge("weight", "fixconn_weight",
                         TShape{index_t(param_.nhidden), s[3]});
    try {
      const std::vector<float> read =
          ReadFixConnWeight(param_.fixconn_weight, param_.nhidden, s[3]);
      weights_.assign(read.begin(), read.end());
    } catch (const std::runtime_error& e) {
      this->Fail(std::string("key 'fixconn_weight': ") + e.what());
    }
    return {Shape4(s[0], 1, 1, param_.nhidden)};
  }
  void OnSetup() override {
    const Shape<2> shape = Shape2(param_.nhidden, this->in_shapes()[0][3]);
    fixed_.Resize(shape);
    Copy(fixed_.view(), Tensor<cpu, 2, DType>(weights_.data(), shape),
         this->context().stream);
  }

 private:
  FixConnParam param_;
  // The file's matrix, as DoInferShapes read it (the source of fixed_'s
  // copy, kept while a device copy may still read it).
  std::vector<DType> weights_;
  TensorContainer<xpu, 2, DType> fixed_{false};
};

extern template class FixConnLayer<cpu, float>;
extern template class FixConnLayer<cpu, double>;

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_FIXCONN_LAYER_H_
