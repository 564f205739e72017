// Device memory for tensors: AllocSpace / FreeSpace (aligned, optionally
// pitched), NewTensor, Copy, and TensorContainer, the owning (RAII) tensor.
// The cpu versions are defined here; the gpu overloads are declared here and
// defined by the GPU backend (tensor/tensor_gpu.h, CUDA builds only).
//
// Example:
//   umbra::TensorContainer<umbra::cpu, 2> w(umbra::Shape2(64, 32), 0.0f);
//   w = w * 0.9f + g;                  // it is a Tensor: expressions work
//   w.Resize(umbra::Shape2(128, 32));  // reallocates only when growing
//   umbra::Tensor<umbra::cpu, 2> t =
//       umbra::NewTensor<umbra::cpu>(umbra::Shape2(3, 4), 1.0f);
//   umbra::Copy(t, other);             // same shape, any strides
//   umbra::FreeSpace(&t);
#ifndef UMBRA_TENSOR_MEMORY_H_
#define UMBRA_TENSOR_MEMORY_H_

#include <cstdint>
#include <cstring>
#include <utility>

#include "tensor/base.h"
#include "tensor/expr_engine.h"
#include "tensor/packet.h"
#include "tensor/tensor_core.h"
#include "tensor/threads.h"

namespace umbra {

// Allocates space for obj->shape_ and sets obj->dptr_ and obj->stride_. The
// memory starts on a 64-byte boundary; with pad, every row does (stride_ is
// then rounded up). Contents are uninitialised. Free with FreeSpace.
template <int dim, typename DType>
inline void AllocSpace(Tensor<cpu, dim, DType>* obj,
                       bool pad = UMBRA_ALLOC_PAD) {
  const Shape<2> s = obj->shape_.FlatTo2D();
  if (pad) {
    size_t pitch;
    obj->dptr_ = static_cast<DType*>(
        packet::AlignedMallocPitch(&pitch, s[1] * sizeof(DType), s[0]));
    obj->stride_ = static_cast<index_t>(pitch / sizeof(DType));
  } else {
    size_t pitch;
    obj->dptr_ = static_cast<DType*>(
        packet::AlignedMallocPitch(&pitch, s[0] * s[1] * sizeof(DType), 1));
    obj->stride_ = s[1];
  }
}
// Frees space from AllocSpace and sets obj->dptr_ to null.
template <int dim, typename DType>
inline void FreeSpace(Tensor<cpu, dim, DType>* obj) {
  packet::AlignedFree(obj->dptr_);
  obj->dptr_ = nullptr;
}
// GPU versions, defined in tensor/tensor_gpu.h.
template <int dim, typename DType>
void AllocSpace(Tensor<gpu, dim, DType>* obj, bool pad = UMBRA_ALLOC_PAD);
template <int dim, typename DType>
void FreeSpace(Tensor<gpu, dim, DType>* obj);

// A new tensor of the given shape with every element set to initv.
template <typename Device, typename DType, int dim>
inline Tensor<Device, dim, DType> NewTensor(const Shape<dim>& shape,
                                            DType initv,
                                            bool pad = UMBRA_ALLOC_PAD,
                                            Stream<Device>* stream = nullptr) {
  Tensor<Device, dim, DType> obj(shape);
  obj.stream_ = stream;
  AllocSpace(&obj, pad);
  obj = initv;
  return obj;
}

namespace detail {
// memmove of `count` elements. A copy of GetParallelThreshold() elements or
// more between ranges that do not overlap is cut into one piece per thread,
// on the pool: one core copies at a fraction of the memory system's speed.
template <typename DType>
inline void CopyElements(DType* dst, const DType* src, index_t count) {
  // As addresses: < between pointers into different arrays is unspecified.
  const uintptr_t d = reinterpret_cast<uintptr_t>(dst);
  const uintptr_t s = reinterpret_cast<uintptr_t>(src);
  const uintptr_t bytes = sizeof(DType) * count;
  const bool overlap = d < s + bytes && s < d + bytes;
  const int threads = GetNumThreads();
  if (overlap || threads <= 1 || count < GetParallelThreshold()) {
    std::memmove(dst, src, sizeof(DType) * count);
    return;
  }
  ParallelFor(threads, [&](int t) {
    const index_t begin = count * t / threads;
    const index_t end = count * (t + 1) / threads;
    std::memcpy(dst + begin, src + begin, sizeof(DType) * (end - begin));
  });
}

template <int dim>
inline void CheckCopyShapes(const Shape<dim>& dst, const Shape<dim>& src) {
  if (dst != src) {
    ThrowTensorError("Copy: shapes differ: destination ", dst, " vs source ",
                     src);
  }
}
}  // namespace detail

// Copies the elements of src into dst (same shape; any strides; src and dst
// may overlap). Large contiguous copies run on the thread pool.
template <int dim, typename DType>
inline void Copy(Tensor<cpu, dim, DType> dst,
                 const Tensor<cpu, dim, DType>& src,
                 Stream<cpu>* stream = nullptr) {
  detail::CheckCopyShapes(dst.shape_, src.shape_);
  if (dst.shape_.Size() == 0 || dst.dptr_ == src.dptr_) return;
  if (dst.CheckContiguous() && src.CheckContiguous()) {
    detail::CopyElements(dst.dptr_, src.dptr_, dst.shape_.Size());
    return;
  }
  Tensor<cpu, 2, DType> d = dst.FlatTo2D();
  Tensor<cpu, 2, DType> s = src.FlatTo2D();
  for (index_t y = 0; y < d.size(0); ++y) {
    std::memmove(d[y].dptr_, s[y].dptr_, sizeof(DType) * d.size(1));
  }
}
// Copies between devices; defined in tensor/tensor_gpu.h.
template <int dim, typename DType>
void Copy(Tensor<cpu, dim, DType> dst, const Tensor<gpu, dim, DType>& src,
          Stream<gpu>* stream = nullptr);
template <int dim, typename DType>
void Copy(Tensor<gpu, dim, DType> dst, const Tensor<cpu, dim, DType>& src,
          Stream<gpu>* stream = nullptr);
template <int dim, typename DType>
void Copy(Tensor<gpu, dim, DType> dst, const Tensor<gpu, dim, DType>& src,
          Stream<gpu>* stream = nullptr);

// An owning tensor: allocates on construction / Resize, frees on
// destruction. It is a Tensor (use it in expressions, pass it where a Tensor
// is expected); copying it copies the data. Resize keeps the allocation when
// the new shape fits in it.
template <typename Device, int dimension, typename DType = default_real_t>
class TensorContainer : public Tensor<Device, dimension, DType> {
 public:
  explicit TensorContainer(bool pad = UMBRA_ALLOC_PAD) : pad_(pad) {
    this->shape_[0] = 0;
    for (int i = 1; i < dimension; ++i) this->shape_[i] = 0;
    this->stride_ = 0;
    this->dptr_ = nullptr;
  }
  explicit TensorContainer(const Shape<dimension>& shape,
                           bool pad = UMBRA_ALLOC_PAD)
      : TensorContainer(pad) {
    Resize(shape);
  }
  TensorContainer(const Shape<dimension>& shape, DType initv,
                  bool pad = UMBRA_ALLOC_PAD)
      : TensorContainer(pad) {
    Resize(shape, initv);
  }
  TensorContainer(const TensorContainer& src) : TensorContainer(src.pad_) {
    this->stream_ = src.stream_;
    Resize(src.shape_);
    Copy(this->view(), src.view(), this->stream_);
  }
  TensorContainer(TensorContainer&& src) noexcept
      : Tensor<Device, dimension, DType>(src),
        pad_(src.pad_),
        data_(src.data_) {
    src.data_ = Tensor<Device, 1, DType>();
    src.dptr_ = nullptr;
  }
  ~TensorContainer() { Release(); }

  TensorContainer& operator=(const TensorContainer& src) {
    if (this != &src) {
      Resize(src.shape_);
      Copy(this->view(), src.view(), this->stream_);
    }
    return *this;
  }
  TensorContainer& operator=(TensorContainer&& src) noexcept {
    if (this != &src) {
      Release();
      Tensor<Device, dimension, DType>::operator=(src);
      pad_ = src.pad_;
      data_ = src.data_;
      src.data_ = Tensor<Device, 1, DType>();
      src.dptr_ = nullptr;
    }
    return *this;
  }
  // Evaluates an expression into the container, resizing it to the
  // expression's shape first (kept as is for a scalar or a dot()).
  template <typename E, int etype>
  inline TensorContainer& operator=(const expr::Exp<E, DType, etype>& exp) {
    if constexpr (etype != expr::type::kComplex) {
      if (expr::ExpInfo<E>::kDim == dimension) {
        Resize(expr::ShapeCheck<dimension, E>::Check(exp.self()));
      }
    }
    this->__assign(exp);
    return *this;
  }
  inline TensorContainer& operator=(const DType& s) {
    this->__assign(s);
    return *this;
  }

  // Changes the shape; contents are unspecified afterwards.
  inline void Resize(const Shape<dimension>& shape) {
    const Shape<2> s2 = shape.FlatTo2D();
    const index_t stride = pad_ ? PaddedStride(s2[1]) : s2[1];
    const index_t needed = stride * s2[0];
    if (data_.dptr_ == nullptr || needed > data_.shape_[0]) {
      Release();
      data_.shape_[0] = needed;
      data_.stride_ = needed;
      AllocSpace(&data_, false);
    }
    this->shape_ = shape;
    this->stride_ = stride;
    this->dptr_ = data_.dptr_;
  }
  // Changes the shape and sets every element to initv.
  inline void Resize(const Shape<dimension>& shape, DType initv) {
    Resize(shape);
    this->view() = initv;
  }
  inline void set_pad(bool pad) { pad_ = pad; }
  // Frees the memory; the container becomes empty.
  inline void Release() {
    if (data_.dptr_ != nullptr) FreeSpace(&data_);
    data_ = Tensor<Device, 1, DType>();
    this->dptr_ = nullptr;
  }
  // A plain Tensor view of the contents.
  inline Tensor<Device, dimension, DType> view() const {
    return Tensor<Device, dimension, DType>(this->dptr_, this->shape_,
                                            this->stride_, this->stream_);
  }

 private:
  static index_t PaddedStride(index_t cols) {
    const index_t per_line = 64 / static_cast<index_t>(sizeof(DType));
    return per_line > 0 ? (cols + per_line - 1) / per_line * per_line : cols;
  }
  bool pad_;
  // The allocation, flat.
  Tensor<Device, 1, DType> data_;
};

}  // namespace umbra

#endif  // UMBRA_TENSOR_MEMORY_H_
