// range<DType>(start, stop, step, repeat): the 1-D expression
// start, start + step, ... (values before stop), each repeated `repeat`
// times; ceil((stop - start) / step) * repeat elements.
//
// Example:
//   using namespace umbra;
//   idx = range<float>(0, 5);            // 0 1 2 3 4
//   rep = range<float>(0, 3, 1, 2);      // 0 0 1 1 2 2
//   down = range<float>(4, 0, -2);       // 4 2
#ifndef UMBRA_TENSOR_EXTENSION_RANGE_H_
#define UMBRA_TENSOR_EXTENSION_RANGE_H_

#include <cmath>

#include "tensor/expr_engine.h"

namespace umbra {
namespace expr {

// Element x is start_ + (x / repeat_) * step_.
template <typename DType>
struct RangeExp : public Exp<RangeExp<DType>, DType, type::kMapper> {
  DType start_, step_;
  index_t repeat_, size_;
  RangeExp(DType start, DType stop, DType step, index_t repeat)
      : start_(start), step_(step), repeat_(repeat) {
    if (!(static_cast<double>(step) != 0.0) || repeat < 1) {
      ThrowTensorError(
          "range: need a non-zero step and repeat >= 1, got "
          "step ",
          static_cast<double>(step), ", repeat ", repeat);
    }
    const double count =
        std::ceil((static_cast<double>(stop) - static_cast<double>(start)) /
                  static_cast<double>(step));
    size_ = count > 0 ? static_cast<index_t>(count) * repeat : 0;
  }
};

template <typename DType>
class Plan<RangeExp<DType>, DType> {
 public:
  explicit Plan(const RangeExp<DType>& e)
      : start_(e.start_), step_(e.step_), repeat_(e.repeat_) {}
  UMBRA_XINLINE DType Eval(index_t y, index_t x) const {
    return DType(start_ + DType(x / repeat_) * step_);
  }

 private:
  DType start_, step_;
  index_t repeat_;
};

template <typename DType>
inline Plan<RangeExp<DType>, DType> MakePlan(const RangeExp<DType>& e) {
  return Plan<RangeExp<DType>, DType>(e);
}

template <typename DType>
struct ExpInfo<RangeExp<DType>> {
  static const int kDim = 1;
  static const int kDevMask = 0xffff;
};

template <typename DType>
struct ShapeCheck<1, RangeExp<DType>> {
  inline static Shape<1> Check(const RangeExp<DType>& e) {
    return Shape1(e.size_);
  }
};

// range<DType>(start, stop, step, repeat): see the file comment.
template <typename DType>
inline RangeExp<DType> range(DType start, DType stop, DType step = DType(1),
                             index_t repeat = 1) {
  return RangeExp<DType>(start, stop, step, repeat);
}

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_EXTENSION_RANGE_H_
