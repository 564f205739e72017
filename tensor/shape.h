// Shape<N>: the static-rank shape of a Tensor, its helpers (Shape1..Shape5,
// FlatTo1D/2D, ProdShape, SubShape, Slice) and layout conversion.
//
// Example:
//   umbra::Shape<4> s = umbra::Shape4(2, 3, 4, 5);
//   s.Size();                  // 120
//   s.FlatTo2D();              // (24,5)
//   s.Slice<1, 3>();           // (3,4)
//   std::cout << s;            // (2,3,4,5)
#ifndef UMBRA_TENSOR_SHAPE_H_
#define UMBRA_TENSOR_SHAPE_H_

#include <ostream>
#include <string>

#include "tensor/base.h"

namespace umbra {

// Shape of a rank-`dimension` tensor; shape_[dimension - 1] is the
// contiguous (lowest) dimension.
template <int dimension>
struct Shape {
  static_assert(dimension >= 1, "Shape<N> needs N >= 1");
  static constexpr int kDimension = dimension;
  static constexpr int kSubdim = dimension - 1;
  index_t shape_[kDimension];

  UMBRA_XINLINE Shape() {}
  UMBRA_XINLINE Shape(const Shape<kDimension>& s) {
    UMBRA_PRAGMA_UNROLL
    for (int i = 0; i < kDimension; ++i) shape_[i] = s[i];
  }
  UMBRA_XINLINE Shape<kDimension>& operator=(const Shape<kDimension>& s) {
    UMBRA_PRAGMA_UNROLL
    for (int i = 0; i < kDimension; ++i) shape_[i] = s[i];
    return *this;
  }
  UMBRA_XINLINE index_t& operator[](int idx) { return shape_[idx]; }
  UMBRA_XINLINE const index_t& operator[](int idx) const { return shape_[idx]; }
  UMBRA_XINLINE bool operator==(const Shape<kDimension>& s) const {
    UMBRA_PRAGMA_UNROLL
    for (int i = 0; i < kDimension; ++i) {
      if (s.shape_[i] != shape_[i]) return false;
    }
    return true;
  }
  UMBRA_XINLINE bool operator!=(const Shape<kDimension>& s) const {
    return !(*this == s);
  }
  // Number of elements.
  UMBRA_XINLINE index_t Size() const {
    index_t size = 1;
    UMBRA_PRAGMA_UNROLL
    for (int i = 0; i < kDimension; ++i) size *= shape_[i];
    return size;
  }
  // (Size(),).
  UMBRA_XINLINE Shape<1> FlatTo1D() const {
    Shape<1> s;
    s[0] = Size();
    return s;
  }
  // (product of all but the last dimension, last dimension).
  UMBRA_XINLINE Shape<2> FlatTo2D() const {
    Shape<2> s;
    s.shape_[1] = shape_[kDimension - 1];
    index_t ymax = 1;
    UMBRA_PRAGMA_UNROLL
    for (int i = 0; i < kDimension - 1; ++i) ymax *= shape_[i];
    s.shape_[0] = ymax;
    return s;
  }
  // Product of the dimensions in [dimstart, dimend).
  UMBRA_XINLINE index_t ProdShape(int dimstart, int dimend) const {
    index_t num = 1;
    for (int i = dimstart; i < dimend; ++i) num *= shape_[i];
    return num;
  }
  // The shape without its first dimension.
  UMBRA_XINLINE Shape<kSubdim> SubShape() const {
    Shape<kSubdim> s;
    UMBRA_PRAGMA_UNROLL
    for (int i = 0; i < kSubdim; ++i) s.shape_[i] = shape_[i + 1];
    return s;
  }
  // Dimensions [dimstart, dimend): (3,4,5,6,7).Slice<2,5>() is (5,6,7).
  template <int dimstart, int dimend>
  UMBRA_XINLINE Shape<dimend - dimstart> Slice() const {
    static_assert(0 <= dimstart && dimstart < dimend && dimend <= kDimension,
                  "Shape::Slice<a, b>: need 0 <= a < b <= rank");
    Shape<dimend - dimstart> s;
    UMBRA_PRAGMA_UNROLL
    for (int i = dimstart; i < dimend; ++i) s[i - dimstart] = shape_[i];
    return s;
  }
};

UMBRA_XINLINE Shape<1> Shape1(index_t s0) {
  Shape<1> s;
  s[0] = s0;
  return s;
}
UMBRA_XINLINE Shape<2> Shape2(index_t s0, index_t s1) {
  Shape<2> s;
  s[0] = s0;
  s[1] = s1;
  return s;
}
UMBRA_XINLINE Shape<3> Shape3(index_t s0, index_t s1, index_t s2) {
  Shape<3> s;
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  return s;
}
UMBRA_XINLINE Shape<4> Shape4(index_t s0, index_t s1, index_t s2, index_t s3) {
  Shape<4> s;
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  s[3] = s3;
  return s;
}
UMBRA_XINLINE Shape<5> Shape5(index_t s0, index_t s1, index_t s2, index_t s3,
                              index_t s4) {
  Shape<5> s;
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  s[3] = s3;
  s[4] = s4;
  return s;
}

// Python-style tuple: (3,4) and (3,) for rank 1.
template <int ndim>
inline std::ostream& operator<<(std::ostream& os, const Shape<ndim>& shape) {
  os << '(';
  for (int i = 0; i < ndim; ++i) {
    if (i != 0) os << ',';
    os << shape[i];
  }
  if (ndim == 1) os << ',';
  os << ')';
  return os;
}

// Memory layouts understood by ConvertLayout.
enum LayoutFlag {
  kNCHW = 0,
  kNHWC,
  kCHWN,
  kNCW = 1 << 3,
  kNWC,
  kCWN,
  kNCDHW = 1 << 5,
  kNDHWC,
  kCDHWN
};

// Converts a 4-D shape between kNCHW and kNHWC; other layouts throw.
Shape<4> ConvertLayout(const Shape<4>& src, int src_layout, int dst_layout);
// Converts a 5-D shape between kNCDHW and kNDHWC; other layouts throw.
Shape<5> ConvertLayout(const Shape<5>& src, int src_layout, int dst_layout);

}  // namespace umbra

#endif  // UMBRA_TENSOR_SHAPE_H_
