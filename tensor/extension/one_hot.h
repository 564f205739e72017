// one_hot_encode(index, k): the (n, k) matrix whose row i is 1 at column
// index[i] and 0 elsewhere, for a 1-D expression of n class indices stored
// as DType. An index outside [0, k) gives a row of zeros.
//
// Example:
//   using namespace umbra;
//   grad = prob - one_hot_encode(label, num_classes);  // softmax loss grad
#ifndef UMBRA_TENSOR_EXTENSION_ONE_HOT_H_
#define UMBRA_TENSOR_EXTENSION_ONE_HOT_H_

#include "tensor/expr_engine.h"

namespace umbra {
namespace expr {

// Row y is the one-hot code of index_[y] over shape_[1] classes.
template <typename IndexExp, typename DType>
struct OneHotEncodeExp : public MakeTensorExp<OneHotEncodeExp<IndexExp, DType>,
                                              IndexExp, 2, DType> {
  typename ExpHolder<IndexExp>::type index_;
  OneHotEncodeExp(const IndexExp& index, index_t num_choices)
      : index_(detail::HoldRef(index)) {
    if (num_choices < 1) {
      ThrowTensorError("one_hot_encode: need at least one class, got ",
                       num_choices);
    }
    this->shape_ =
        Shape2(ShapeCheck<1, IndexExp>::Check(index)[0], num_choices);
  }
};

template <typename IndexExp, typename DType>
class Plan<OneHotEncodeExp<IndexExp, DType>, DType> {
 public:
  explicit Plan(const OneHotEncodeExp<IndexExp, DType>& e)
      : index_(MakePlan(e.index_)) {}
  UMBRA_XINLINE DType Eval(index_t y, index_t x) const {
    return static_cast<index_t>(index_.Eval(0, y)) == x ? DType(1) : DType(0);
  }

 private:
  Plan<typename ExpHolder<IndexExp>::type, DType> index_;
};

template <typename IndexExp, typename DType>
inline Plan<OneHotEncodeExp<IndexExp, DType>, DType> MakePlan(
    const OneHotEncodeExp<IndexExp, DType>& e) {
  return Plan<OneHotEncodeExp<IndexExp, DType>, DType>(e);
}

// one_hot_encode(index, num_choices): see the file comment.
template <typename IndexExp, typename DType, int etype>
inline OneHotEncodeExp<IndexExp, DType> one_hot_encode(
    const Exp<IndexExp, DType, etype>& index, index_t num_choices) {
  static_assert(ExpInfo<IndexExp>::kDim == 1,
                "one_hot_encode: the indices must be a 1-D expression");
  return OneHotEncodeExp<IndexExp, DType>(index.self(), num_choices);
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_ONE_HOT_H_
