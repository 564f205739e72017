// Per-row element selection in a matrix, with indices given as a 1-D
// expression of DType values (one per row).
//
//   mat_choose_row_element(mat, index)       1-D: out[i] = mat[i][index[i]]
//                                            (index clipped to the columns)
//   mat_fill_row_element(mat, val, index)    2-D: mat with mat[i][index[i]]
//                                            replaced by val[i] (rows whose
//                                            index is out of range unchanged)
//
// Example:
//   using namespace umbra;
//   picked = mat_choose_row_element(prob, label);   // p of the true class
//   grad = mat_fill_row_element(zeros, -1.0f / picked, label);
#ifndef UMBRA_TENSOR_EXTENSION_CHOOSE_FILL_H_
#define UMBRA_TENSOR_EXTENSION_CHOOSE_FILL_H_

#include "tensor/expr_engine.h"

namespace umbra {
namespace expr {

// out[x] = src_[x][index_[x]].
template <typename SrcExp, typename IndexExp, typename DType>
struct MatChooseRowElementExp
    : public MakeTensorExp<MatChooseRowElementExp<SrcExp, IndexExp, DType>,
                           SrcExp, 1, DType> {
  typename ExpHolder<SrcExp>::type src_;
  typename ExpHolder<IndexExp>::type index_;
  index_t cols_;
  MatChooseRowElementExp(const SrcExp& src, const IndexExp& index)
      : src_(detail::HoldRef(src)), index_(detail::HoldRef(index)) {
    const Shape<2> sshape = ShapeCheck<2, SrcExp>::Check(src);
    const Shape<1> ishape = ShapeCheck<1, IndexExp>::Check(index);
    if (ishape[0] != sshape[0] || sshape[1] < 1) {
      ThrowTensorError(
          "mat_choose_row_element: need one index per row of a "
          "non-empty matrix; matrix ",
          sshape, ", index ", ishape);
    }
    cols_ = sshape[1];
    this->shape_ = ishape;
  }
};

template <typename SrcExp, typename IndexExp, typename DType>
class Plan<MatChooseRowElementExp<SrcExp, IndexExp, DType>, DType> {
 public:
  explicit Plan(const MatChooseRowElementExp<SrcExp, IndexExp, DType>& e)
      : src_(MakePlan(e.src_)), index_(MakePlan(e.index_)), cols_(e.cols_) {}
  UMBRA_XINLINE DType Eval(index_t y, index_t x) const {
    index_t col = static_cast<index_t>(index_.Eval(0, x));
    col = col < 0 ? 0 : col >= cols_ ? cols_ - 1 : col;
    return src_.Eval(x, col);
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  Plan<typename ExpHolder<IndexExp>::type, DType> index_;
  index_t cols_;
};

template <typename SrcExp, typename IndexExp, typename DType>
inline Plan<MatChooseRowElementExp<SrcExp, IndexExp, DType>, DType> MakePlan(
    const MatChooseRowElementExp<SrcExp, IndexExp, DType>& e) {
  return Plan<MatChooseRowElementExp<SrcExp, IndexExp, DType>, DType>(e);
}

// mat_choose_row_element(src, index): see the file comment.
template <typename SrcExp, typename IndexExp, typename DType, int e1, int e2>
inline MatChooseRowElementExp<SrcExp, IndexExp, DType> mat_choose_row_element(
    const Exp<SrcExp, DType, e1>& src, const Exp<IndexExp, DType, e2>& index) {
  static_assert(ExpInfo<SrcExp>::kDim == 2 && ExpInfo<IndexExp>::kDim == 1,
                "mat_choose_row_element(mat, index): mat must be 2-D and "
                "index 1-D");
  return MatChooseRowElementExp<SrcExp, IndexExp, DType>(src.self(),
                                                         index.self());
}

// out[y][x] = x == index_[y] ? val_[y] : src_[y][x].
template <typename SrcExp, typename ValExp, typename IndexExp, typename DType>
struct MatFillRowElementExp
    : public MakeTensorExp<
          MatFillRowElementExp<SrcExp, ValExp, IndexExp, DType>, SrcExp, 2,
          DType> {
  typename ExpHolder<SrcExp>::type src_;
  typename ExpHolder<ValExp>::type val_;
  typename ExpHolder<IndexExp>::type index_;
  MatFillRowElementExp(const SrcExp& src, const ValExp& val,
                       const IndexExp& index)
      : src_(detail::HoldRef(src)),
        val_(detail::HoldRef(val)),
        index_(detail::HoldRef(index)) {
    const Shape<2> sshape = ShapeCheck<2, SrcExp>::Check(src);
    const Shape<1> vshape = ShapeCheck<1, ValExp>::Check(val);
    const Shape<1> ishape = ShapeCheck<1, IndexExp>::Check(index);
    if (vshape[0] != sshape[0] || ishape[0] != sshape[0]) {
      ThrowTensorError(
          "mat_fill_row_element: need one value and one index "
          "per row; matrix ",
          sshape, ", values ", vshape, ", index ", ishape);
    }
    this->shape_ = sshape;
  }
};

template <typename SrcExp, typename ValExp, typename IndexExp, typename DType>
class Plan<MatFillRowElementExp<SrcExp, ValExp, IndexExp, DType>, DType> {
 public:
  explicit Plan(const MatFillRowElementExp<SrcExp, ValExp, IndexExp, DType>& e)
      : src_(MakePlan(e.src_)),
        val_(MakePlan(e.val_)),
        index_(MakePlan(e.index_)) {}
  UMBRA_XINLINE DType Eval(index_t y, index_t x) const {
    return static_cast<index_t>(index_.Eval(0, y)) == x ? val_.Eval(0, y)
                                                        : src_.Eval(y, x);
  }

 private:
  Plan<typename ExpHolder<SrcExp>::type, DType> src_;
  Plan<typename ExpHolder<ValExp>::type, DType> val_;
  Plan<typename ExpHolder<IndexExp>::type, DType> index_;
};

template <typename SrcExp, typename ValExp, typename IndexExp, typename DType>
inline Plan<MatFillRowElementExp<SrcExp, ValExp, IndexExp, DType>, DType>
MakePlan(const MatFillRowElementExp<SrcExp, ValExp, IndexExp, DType>& e) {
  return Plan<MatFillRowElementExp<SrcExp, ValExp, IndexExp, DType>, DType>(e);
}

// mat_fill_row_element(src, val, index): see the file comment.
template <typename SrcExp, typename ValExp, typename IndexExp, typename DType,
          int e1, int e2, int e3>
inline MatFillRowElementExp<SrcExp, ValExp, IndexExp, DType>
mat_fill_row_element(const Exp<SrcExp, DType, e1>& src,
                     const Exp<ValExp, DType, e2>& val,
                     const Exp<IndexExp, DType, e3>& index) {
  static_assert(ExpInfo<SrcExp>::kDim == 2 && ExpInfo<ValExp>::kDim == 1 &&
                    ExpInfo<IndexExp>::kDim == 1,
                "mat_fill_row_element(mat, val, index): mat must be 2-D, "
                "val and index 1-D");
  return MatFillRowElementExp<SrcExp, ValExp, IndexExp, DType>(
      src.self(), val.self(), index.self());
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_CHOOSE_FILL_H_
