// Row gathering (embedding lookup) and its gradient.
//
//   take(index, table)             (n, k): row i is table[index[i]]
//                                  (index clipped to [0, rows - 1])
//   take_grad(index, grad, rows)   (rows, k): row r is the sum of grad[i]
//                                  over every i whose index, clipped to
//                                  [0, rows - 1], is r (the adjoint of take)
// Indices are a 1-D expression of DType values.
//
// Example (an embedding layer):
//   using namespace umbra;
//   out = take(words, embedding);                      // forward
//   gembedding += take_grad(words, gout, vocab_size);  // backward
#ifndef UMBRA_TENSOR_EXTENSION_TAKE_H_
#define UMBRA_TENSOR_EXTENSION_TAKE_H_

#include "tensor/expr_engine.h"

namespace umbra {
namespace expr {

// Row y is row index_[y] of src_ (clipped to the rows of src_).
template <typename IndexExp, typename SrcExp, typename DType>
struct TakeExp
    : public MakeTensorExp<TakeExp<IndexExp, SrcExp, DType>, SrcExp, 2, DType> {
  typename ExpHolder<IndexExp>::type index_;
  typename ExpHolder<SrcExp>::type src_;
  index_t src_rows_;
  TakeExp(const IndexExp& index, const SrcExp& src)
      : index_(detail::HoldRef(index)), src_(detail::HoldRef(src)) {
    const Shape<2> sshape = ShapeCheck<2, SrcExp>::Check(src);
    if (sshape[0] < 1) {
      ThrowTensorError("take: the table ", sshape, " has no rows");
    }
    src_rows_ = sshape[0];
    this->shape_ = Shape2(ShapeCheck<1, IndexExp>::Check(index)[0], sshape[1]);
  }
};

template <typename IndexExp, typename SrcExp, typename DType>
class Plan<TakeExp<IndexExp, SrcExp, DType>, DType> {
 public:
  explicit Plan(const TakeExp<IndexExp, SrcExp, DType>& e)
      : index_(MakePlan(e.index_)),
        src_(MakePlan(e.src_)),
        src_rows_(e.src_rows_) {}
  UMBRA_XINLINE DType Eval(index_t y, index_t x) const {
    index_t row = static_cast<index_t>(index_.Eval(0, y));
    row = row < 0 ? 0 : row >= src_rows_ ? src_rows_ - 1 : row;
    return src_.Eval(row, x);
  }

 private:
  Plan<typename ExpHolder<IndexExp>::type, DType> index_;
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  index_t src_rows_;
};

template <typename IndexExp, typename SrcExp, typename DType>
inline Plan<TakeExp<IndexExp, SrcExp, DType>, DType> MakePlan(
    const TakeExp<IndexExp, SrcExp, DType>& e) {
  return Plan<TakeExp<IndexExp, SrcExp, DType>, DType>(e);
}

// take(index, src): see the file comment.
template <typename IndexExp, typename SrcExp, typename DType, int e1, int e2>
inline TakeExp<IndexExp, SrcExp, DType> take(
    const Exp<IndexExp, DType, e1>& index, const Exp<SrcExp, DType, e2>& src) {
  static_assert(ExpInfo<IndexExp>::kDim == 1 && ExpInfo<SrcExp>::kDim == 2,
                "take(index, table): index must be 1-D and table 2-D");
  return TakeExp<IndexExp, SrcExp, DType>(index.self(), src.self());
}

// Row y is the sum of the rows i of src_ whose index_[i], clipped to the
// rows of the result, is y.
template <typename IndexExp, typename SrcExp, typename DType>
struct TakeGradExp : public MakeTensorExp<TakeGradExp<IndexExp, SrcExp, DType>,
                                          SrcExp, 2, DType> {
  typename ExpHolder<IndexExp>::type index_;
  typename ExpHolder<SrcExp>::type src_;
  index_t num_index_;
  TakeGradExp(const IndexExp& index, const SrcExp& src, index_t input_dim)
      : index_(detail::HoldRef(index)), src_(detail::HoldRef(src)) {
    const Shape<2> sshape = ShapeCheck<2, SrcExp>::Check(src);
    const Shape<1> ishape = ShapeCheck<1, IndexExp>::Check(index);
    if (ishape[0] != sshape[0]) {
      ThrowTensorError("take_grad: ", ishape[0], " indices ", ishape,
                       " but the gradient has ", sshape[0], " rows ", sshape);
    }
    if (input_dim < 1) {
      ThrowTensorError("take_grad: the table must have rows, got ", input_dim);
    }
    num_index_ = ishape[0];
    this->shape_ = Shape2(input_dim, sshape[1]);
  }
};

template <typename IndexExp, typename SrcExp, typename DType>
class Plan<TakeGradExp<IndexExp, SrcExp, DType>, DType> {
 public:
  explicit Plan(const TakeGradExp<IndexExp, SrcExp, DType>& e)
      : index_(MakePlan(e.index_)),
        src_(MakePlan(e.src_)),
        num_index_(e.num_index_),
        rows_(e.shape_[0]) {}
  UMBRA_XINLINE DType Eval(index_t y, index_t x) const {
    DType sum = DType(0);
    for (index_t i = 0; i < num_index_; ++i) {
      index_t row = static_cast<index_t>(index_.Eval(0, i));
      row = row < 0 ? 0 : row >= rows_ ? rows_ - 1 : row;
      if (row == y) {
        sum = DType(sum + src_.Eval(i, x));
      }
    }
    return sum;
  }

 private:
  Plan<typename ExpHolder<IndexExp>::type, DType> index_;
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  index_t num_index_, rows_;
};

template <typename IndexExp, typename SrcExp, typename DType>
inline Plan<TakeGradExp<IndexExp, SrcExp, DType>, DType> MakePlan(
    const TakeGradExp<IndexExp, SrcExp, DType>& e) {
  return Plan<TakeGradExp<IndexExp, SrcExp, DType>, DType>(e);
}

// take_grad(index, src, input_dim): see the file comment.
template <typename IndexExp, typename SrcExp, typename DType, int e1, int e2>
inline TakeGradExp<IndexExp, SrcExp, DType> take_grad(
    const Exp<IndexExp, DType, e1>& index, const Exp<SrcExp, DType, e2>& src,
    index_t input_dim) {
  static_assert(ExpInfo<IndexExp>::kDim == 1 && ExpInfo<SrcExp>::kDim == 2,
                "take_grad(index, grad, rows): index must be 1-D and grad "
                "2-D");
  return TakeGradExp<IndexExp, SrcExp, DType>(index.self(), src.self(),
                                              input_dim);
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_TAKE_H_
