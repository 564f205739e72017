// TShape, a shape whose rank is known at run time (no heap for up to 4
// dimensions), and TBlob, a type-erased tensor view (pointer, TShape, row
// stride, device mask, type flag) that layers pass around and turn back into
// typed Tensors with get<Device, dim, DType>() or get_with_shape(). Every
// conversion checks device, dtype, rank and size and throws TensorError with
// both sides in the message.
//
// Example:
//   umbra::TBlob blob(tensor);                        // from any Tensor
//   auto t2 = blob.FlatTo2D<umbra::cpu, float>();
//   auto t4 = blob.get<umbra::cpu, 4, float>();
//   umbra::TShape s{2, 3, 4};  std::cout << s;        // (2,3,4)
#ifndef UMBRA_TENSOR_TENSOR_BLOB_H_
#define UMBRA_TENSOR_TENSOR_BLOB_H_

#include <algorithm>
#include <cctype>
#include <cstring>
#include <initializer_list>
#include <iostream>
#include <utility>
#include <vector>

#include "tensor/base.h"
#include "tensor/shape.h"
#include "tensor/tensor_core.h"

namespace umbra {

// A shape of run-time rank. Stored inline up to kStackCache dimensions.
class TShape {
 public:
  static constexpr index_t kStackCache = 4;

  TShape() : ndim_(0), num_heap_allocated_(0), data_heap_(nullptr) {}
  // A shape of rank ndim with every dimension 1.
  explicit TShape(index_t ndim)
      : ndim_(0), num_heap_allocated_(0), data_heap_(nullptr) {
    SetDim(ndim);
    std::fill_n(data(), ndim, 1);
  }
  TShape(std::initializer_list<index_t> init) : TShape() {
    CopyFrom(init.begin(), init.end());
  }
  TShape(const TShape& s) : TShape() { CopyFrom(s.begin(), s.end()); }
  template <typename RandomAccessIterator>
  TShape(RandomAccessIterator begin, RandomAccessIterator end) : TShape() {
    CopyFrom(begin, end);
  }
  TShape(TShape&& s) noexcept
      : ndim_(s.ndim_),
        num_heap_allocated_(s.num_heap_allocated_),
        data_heap_(s.data_heap_) {
    std::copy(s.data_stack_, s.data_stack_ + kStackCache, data_stack_);
    s.ndim_ = 0;
    s.num_heap_allocated_ = 0;
    s.data_heap_ = nullptr;
  }
  template <int dim>
  TShape(const Shape<dim>& s) : TShape() {  // NOLINT(*)
    CopyFrom(s.shape_, s.shape_ + dim);
  }
  ~TShape() { delete[] data_heap_; }

  TShape& operator=(const TShape& s) {
    if (this != &s) CopyFrom(s.begin(), s.end());
    return *this;
  }
  TShape& operator=(TShape&& s) noexcept {
    if (this != &s) {
      delete[] data_heap_;
      ndim_ = s.ndim_;
      num_heap_allocated_ = s.num_heap_allocated_;
      data_heap_ = s.data_heap_;
      std::copy(s.data_stack_, s.data_stack_ + kStackCache, data_stack_);
      s.ndim_ = 0;
      s.num_heap_allocated_ = 0;
      s.data_heap_ = nullptr;
    }
    return *this;
  }
  TShape& operator=(const std::vector<index_t>& shape) {
    CopyFrom(shape.begin(), shape.end());
    return *this;
  }
  template <int dim>
  TShape& operator=(const Shape<dim>& shape) {
    CopyFrom(shape.shape_, shape.shape_ + dim);
    return *this;
  }

  // Replaces the contents with [begin, end).
  template <typename RandomAccessIterator>
  void CopyFrom(RandomAccessIterator begin, RandomAccessIterator end) {
    const index_t n = static_cast<index_t>(end - begin);
    std::vector<index_t> tmp(begin, end);  // begin may point into *this
    SetDim(n);
    std::copy(tmp.begin(), tmp.end(), data());
  }

  const index_t* data() const {
    return ndim_ <= kStackCache ? data_stack_ : data_heap_;
  }
  index_t* data() { return ndim_ <= kStackCache ? data_stack_ : data_heap_; }
  const index_t* begin() const { return data(); }
  const index_t* end() const { return data() + ndim_; }
  index_t ndim() const { return ndim_; }
  // Dimension i; no bounds check (use ndim()).
  index_t& operator[](index_t i) { return data()[i]; }
  const index_t& operator[](index_t i) const { return data()[i]; }
  // Number of elements (1 for rank 0).
  index_t Size() const {
    index_t size = 1;
    for (index_t i = 0; i < ndim_; ++i) size *= data()[i];
    return size;
  }
  // Product of dimensions [dimstart, dimend).
  index_t ProdShape(int dimstart, int dimend) const {
    index_t num = 1;
    for (int i = dimstart; i < dimend; ++i) num *= data()[i];
    return num;
  }
  // (product of all but the last dimension, last dimension); (0, 0) for an
  // empty shape.
  Shape<2> FlatTo2D() const {
    if (ndim_ == 0) return Shape2(0, 0);
    return Shape2(ProdShape(0, int(ndim_) - 1), data()[ndim_ - 1]);
  }
  // (before axis, axis, after axis).
  Shape<3> FlatTo3D(index_t axis) const { return FlatTo3D(axis, axis); }
  // (before axis_begin, axis_begin..axis_end, after axis_end).
  Shape<3> FlatTo3D(index_t axis_begin, index_t axis_end) const {
    if (axis_begin < 0 || axis_end < axis_begin || axis_end >= ndim_) {
      ThrowTensorError("TShape::FlatTo3D: invalid axes [", axis_begin, ", ",
                       axis_end, "] for shape of rank ", ndim_);
    }
    return Shape3(ProdShape(0, int(axis_begin)),
                  ProdShape(int(axis_begin), int(axis_end) + 1),
                  ProdShape(int(axis_end) + 1, int(ndim_)));
  }
  // The static-rank shape; throws if dim differs from ndim().
  template <int dim>
  Shape<dim> get() const {
    if (dim != ndim_) {
      ThrowTensorError("TShape::get<", dim, ">: shape ", *this, " has rank ",
                       ndim_);
    }
    Shape<dim> s;
    for (int i = 0; i < dim; ++i) s[i] = data()[i];
    return s;
  }

  bool operator==(const TShape& s) const {
    return ndim_ == s.ndim_ && std::equal(begin(), end(), s.begin());
  }
  bool operator!=(const TShape& s) const { return !(*this == s); }
  template <int dim>
  bool operator==(const Shape<dim>& s) const {
    return ndim_ == dim && std::equal(begin(), end(), s.shape_);
  }
  template <int dim>
  bool operator!=(const Shape<dim>& s) const {
    return !(*this == s);
  }

  // Writes ndim and the dimensions to a stream with Write(const void*,
  // size_t).
  template <typename TStream>
  void Save(TStream* strm) const {
    strm->Write(&ndim_, sizeof(ndim_));
    strm->Write(data(), sizeof(index_t) * ndim_);
  }
  // Reads what Save wrote from a stream with size_t Read(void*, size_t);
  // false on a short read.
  template <typename TStream>
  bool Load(TStream* strm) {
    index_t ndim;
    if (strm->Read(&ndim, sizeof(ndim)) != sizeof(ndim)) return false;
    if (ndim < 0 || ndim > (1 << 20)) return false;
    SetDim(ndim);
    const size_t nread = sizeof(index_t) * ndim;
    return strm->Read(data(), nread) == nread;
  }

  friend std::ostream& operator<<(std::ostream& os, const TShape& shape) {
    os << '(';
    for (index_t i = 0; i < shape.ndim(); ++i) {
      if (i != 0) os << ',';
      os << shape[i];
    }
    if (shape.ndim() == 1) os << ',';
    os << ')';
    return os;
  }
  // Reads "3", "(3,)", "(3,4)", "(3, 4L, 5)"; sets failbit otherwise.
  friend std::istream& operator>>(std::istream& is, TShape& shape);

 private:
  void SetDim(index_t dim) {
    if (dim > kStackCache && dim > num_heap_allocated_) {
      delete[] data_heap_;
      data_heap_ = new index_t[dim];
      num_heap_allocated_ = dim;
    }
    ndim_ = dim;
  }

  index_t ndim_;
  index_t num_heap_allocated_;
  index_t data_stack_[kStackCache];
  index_t* data_heap_;
};

inline std::istream& operator>>(std::istream& is, TShape& shape) {
  while (true) {
    const int ch = is.peek();
    if (ch == EOF) {
      is.setstate(std::ios::failbit);
      return is;
    }
    if (std::isdigit(ch)) {
      index_t idx;
      if (is >> idx) shape.CopyFrom(&idx, &idx + 1);
      return is;
    }
    is.get();
    if (ch == '(') break;
    if (!std::isspace(ch)) {
      is.setstate(std::ios::failbit);
      return is;
    }
  }
  std::vector<index_t> tmp;
  index_t idx;
  while (is >> idx) {
    tmp.push_back(idx);
    int ch;
    do {
      ch = is.get();
    } while (std::isspace(ch));
    if (ch == 'L') ch = is.get();
    if (ch == ',') {
      while (std::isspace(is.peek())) is.get();
      if (is.peek() == ')') {
        is.get();
        break;
      }
    } else if (ch == ')') {
      break;
    } else {
      is.setstate(std::ios::failbit);
      return is;
    }
  }
  if (tmp.empty() && is.fail()) {  // "()" is the empty shape
    is.clear();
    if (is.get() != ')') {
      is.setstate(std::ios::failbit);
      return is;
    }
  }
  shape.CopyFrom(tmp.begin(), tmp.end());
  return is;
}

// A type-erased tensor view. Does not own memory.
class TBlob {
 public:
  void* dptr_;
  TShape shape_;
  // Distance in elements between rows of the last dimension.
  index_t stride_;
  int dev_mask_;
  int type_flag_;

  TBlob()
      : dptr_(nullptr),
        stride_(0),
        dev_mask_(cpu::kDevMask),
        type_flag_(DataType<default_real_t>::kFlag) {}
  // A contiguous blob of typed data.
  template <typename DType>
  TBlob(DType* dptr, const TShape& shape, int dev_mask)
      : dptr_(dptr),
        shape_(shape),
        stride_(shape.ndim() ? shape[shape.ndim() - 1] : 0),
        dev_mask_(dev_mask),
        type_flag_(DataType<DType>::kFlag) {}
  // A contiguous blob of untyped data with an explicit type flag.
  TBlob(void* dptr, const TShape& shape, int dev_mask, int type_flag)
      : dptr_(dptr),
        shape_(shape),
        stride_(shape.ndim() ? shape[shape.ndim() - 1] : 0),
        dev_mask_(dev_mask),
        type_flag_(type_flag) {}
  template <typename Device, int dim, typename DType>
  TBlob(const Tensor<Device, dim, DType>& src) {  // NOLINT(*)
    *this = src;
  }
  template <typename Device, int dim, typename DType>
  TBlob& operator=(const Tensor<Device, dim, DType>& src) {
    dptr_ = src.dptr_;
    shape_ = src.shape_;
    stride_ = src.stride_;
    dev_mask_ = Device::kDevMask;
    type_flag_ = DataType<DType>::kFlag;
    return *this;
  }

  bool CheckContiguous() const {
    return shape_.ndim() == 0 || shape_[shape_.ndim() - 1] == stride_;
  }
  int ndim() const { return static_cast<int>(shape_.ndim()); }
  index_t size(index_t idx) const { return shape_[idx]; }
  index_t Size() const { return shape_.Size(); }
  int dev_mask() const { return dev_mask_; }
  int type_flag() const { return type_flag_; }

  // The blob as a (rows, last dimension) tensor; any stride.
  template <typename Device, typename DType>
  Tensor<Device, 2, DType> FlatTo2D(Stream<Device>* stream = nullptr) const {
    CheckType<Device, DType>("TBlob::FlatTo2D");
    return Tensor<Device, 2, DType>(static_cast<DType*>(dptr_),
                                    shape_.FlatTo2D(), stride_, stream);
  }
  // (before axis, axis, after axis); must be contiguous.
  template <typename Device, typename DType>
  Tensor<Device, 3, DType> FlatTo3D(int axis,
                                    Stream<Device>* stream = nullptr) const {
    return this->get_with_shape<Device, 3, DType>(shape_.FlatTo3D(axis),
                                                  stream);
  }
  template <typename Device, typename DType>
  Tensor<Device, 3, DType> FlatTo3D(int axis_begin, int axis_end,
                                    Stream<Device>* stream = nullptr) const {
    return this->get_with_shape<Device, 3, DType>(
        shape_.FlatTo3D(axis_begin, axis_end), stream);
  }
  // The typed tensor of the blob's own rank.
  template <typename Device, int dim, typename DType>
  Tensor<Device, dim, DType> get(Stream<Device>* stream = nullptr) const {
    CheckType<Device, DType>("TBlob::get");
    if (dim != shape_.ndim()) {
      ThrowTensorError("TBlob::get: requested rank ", dim,
                       " but the blob has shape ", shape_, " (rank ",
                       shape_.ndim(), ")");
    }
    return Tensor<Device, dim, DType>(static_cast<DType*>(dptr_),
                                      shape_.get<dim>(), stride_, stream);
  }
  // The blob reinterpreted with another shape of the same size; the blob
  // must be contiguous.
  template <typename Device, int dim, typename DType>
  Tensor<Device, dim, DType> get_with_shape(
      const Shape<dim>& shape, Stream<Device>* stream = nullptr) const {
    CheckType<Device, DType>("TBlob::get_with_shape");
    if (!CheckContiguous()) {
      ThrowTensorError("TBlob::get_with_shape: the blob ", shape_,
                       " is not contiguous (stride ", stride_, ")");
    }
    if (shape_.Size() != shape.Size()) {
      ThrowTensorError("TBlob::get_with_shape: sizes differ: blob ", shape_,
                       " has ", shape_.Size(), " elements, requested ", shape,
                       " has ", shape.Size());
    }
    return Tensor<Device, dim, DType>(static_cast<DType*>(dptr_), shape,
                                      shape[dim - 1], stream);
  }

  // Writes shape, type flag and the elements of a contiguous cpu blob.
  template <typename TStream>
  void Save(TStream* strm) const {
    CheckSerializable("TBlob::Save");
    shape_.Save(strm);
    strm->Write(&type_flag_, sizeof(type_flag_));
    strm->Write(dptr_, TypeFlagSize(type_flag_) * shape_.Size());
  }
  // Reads what Save wrote into this blob's memory; the stored shape and type
  // must equal this blob's. Returns false on a short read.
  template <typename TStream>
  bool Load(TStream* strm) {
    CheckSerializable("TBlob::Load");
    TShape shape;
    int type_flag;
    if (!shape.Load(strm)) return false;
    if (strm->Read(&type_flag, sizeof(type_flag)) != sizeof(type_flag)) {
      return false;
    }
    if (shape != shape_ || type_flag != type_flag_) {
      ThrowTensorError("TBlob::Load: stored ", shape, " ",
                       TypeFlagName(type_flag), " does not match the blob ",
                       shape_, " ", TypeFlagName(type_flag_));
    }
    const size_t bytes = TypeFlagSize(type_flag_) * shape_.Size();
    return strm->Read(dptr_, bytes) == bytes;
  }

 private:
  template <typename Device, typename DType>
  void CheckType(const char* what) const {
    if (Device::kDevMask != dev_mask_) {
      ThrowTensorError(what, ": device mismatch: the blob is on ",
                       DeviceName(dev_mask_), ", requested ",
                       DeviceName(Device::kDevMask));
    }
    if (DataType<DType>::kFlag != type_flag_) {
      ThrowTensorError(what, ": data type mismatch: the blob holds ",
                       TypeFlagName(type_flag_), ", requested ",
                       TypeFlagName(DataType<DType>::kFlag));
    }
  }
  void CheckSerializable(const char* what) const {
    if (dev_mask_ != cpu::kDevMask || !CheckContiguous()) {
      ThrowTensorError(what, ": needs a contiguous cpu blob, got ", shape_,
                       " on ", DeviceName(dev_mask_), " with stride ", stride_);
    }
  }
  static const char* DeviceName(int mask) {
    return mask == cpu::kDevMask   ? "cpu"
           : mask == gpu::kDevMask ? "gpu"
                                   : "unknown";
  }
};

}  // namespace umbra

#endif  // UMBRA_TENSOR_TENSOR_BLOB_H_
