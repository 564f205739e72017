// Stream<Device>, TRValue and Tensor<Device, dim, DType>: the non-owning,
// possibly strided view on device memory that expressions read and write.
//
// A Tensor never allocates or frees; see memory.h (AllocSpace, NewTensor,
// TensorContainer) for owning storage. Copying a Tensor copies the view;
// assigning a scalar or an expression to it writes the elements.
//
// Example:
//   float data[10];
//   umbra::Tensor<umbra::cpu, 2> mat(data, umbra::Shape2(5, 2));
//   mat = 3.2f;              // fills all 10 elements
//   mat[1][0] = 1.0f;        // element access through row views
//   auto rows = mat.Slice(1, 3);  // rows 1 and 2, same memory
#ifndef UMBRA_TENSOR_TENSOR_CORE_H_
#define UMBRA_TENSOR_TENSOR_CORE_H_

#include "tensor/base.h"
#include "tensor/expression.h"
#include "tensor/shape.h"

namespace umbra {

// Computation stream of a device. Stream<cpu> is trivial (everything is
// synchronous). Stream<gpu> is declared here and defined by the GPU backend
// (tensor/tensor_gpu.h, CUDA builds only): it wraps a cudaStream_t and the
// cuBLAS handle; a Tensor<gpu> only stores a pointer to it.
template <typename Device>
struct Stream;

template <>
struct Stream<cpu> {
  // Waits until all work queued on the stream is done (nothing on the CPU).
  inline void Wait() {}
  // Whether all queued work is done (always on the CPU).
  inline bool CheckIdle() { return true; }
  // Creates the BLAS handle (nothing on the CPU).
  inline void CreateBlasHandle() {}
};

// Engine set-up per device, as in mshadow: CPU-only code may call the cpu
// versions (they do nothing); the gpu versions are declared here and defined
// by the GPU backend (tensor/gpu/stream.cu, CUDA builds only), whose
// tensor/gpu/stream.h documents them. Example:
//   umbra::InitTensorEngine<umbra::cpu>();
//   umbra::Stream<umbra::cpu>* s = umbra::NewStream<umbra::cpu>();
//   ...
//   umbra::DeleteStream(s);
//   umbra::ShutdownTensorEngine<umbra::cpu>();

// A new stream of the device (on the current device, or on dev_id when
// >= 0), with its BLAS / DNN handles created now when asked (else on first
// use). Free it with DeleteStream().
template <typename Device>
Stream<Device>* NewStream(bool create_blas_handle = true,
                          bool create_dnn_handle = false, int dev_id = -1);
template <>
inline Stream<cpu>* NewStream<cpu>(bool, bool, int) {
  return new Stream<cpu>();
}
template <>
Stream<gpu>* NewStream<gpu>(bool create_blas_handle, bool create_dnn_handle,
                            int dev_id);
// Frees a stream made by NewStream<cpu>() (the gpu overload is in
// tensor/gpu/stream.h).
inline void DeleteStream(Stream<cpu>* stream) { delete stream; }

// Makes dev_id the calling thread's current device (nothing on the CPU).
template <typename Device>
void SetDevice(int dev_id);
template <>
inline void SetDevice<cpu>(int) {}
template <>
void SetDevice<gpu>(int dev_id);

// Selects device dev_id and starts the engine on it (nothing on the CPU).
template <typename Device>
void InitTensorEngine(int dev_id = 0);
template <>
inline void InitTensorEngine<cpu>(int) {}
template <>
void InitTensorEngine<gpu>(int dev_id);

// Waits for all work of the current device; the engine may be initialised
// again (nothing on the CPU).
template <typename Device>
void ShutdownTensorEngine();
template <>
inline void ShutdownTensorEngine<cpu>() {}
template <>
void ShutdownTensorEngine<gpu>();

// Tensor RValue: the base of all tensor-like assignable values.
template <typename Container, typename Device, int dimension, typename DType>
struct TRValue : public expr::RValueExp<Container, DType> {};

// A dimension-D view: element (i0, ..., iD-1) lives at
// dptr_[((i0 * shape_[1] + i1) * ... ) * stride_ + iD-1], i.e. the last
// dimension is contiguous and consecutive rows are stride_ elements apart.
template <typename Device, int dimension, typename DType = default_real_t>
struct Tensor : public TRValue<Tensor<Device, dimension, DType>, Device,
                               dimension, DType> {
 public:
  static constexpr bool kDevCPU = Device::kDevCPU;
  static constexpr int kSubdim = dimension - 1;

  // First element.
  DType* dptr_ = nullptr;
  Shape<dimension> shape_;
  // Distance in elements between consecutive rows of the last dimension.
  index_t stride_;
  // Stream that operations on this tensor are queued on (may be null).
  Stream<Device>* stream_;

  UMBRA_XINLINE Tensor() : stream_(nullptr) {}
  Tensor(const Tensor&) = default;
  UMBRA_XINLINE Tensor(const Shape<dimension>& shape)  // NOLINT(*)
      : shape_(shape), stride_(shape[kSubdim]), stream_(nullptr) {}
  UMBRA_XINLINE Tensor(const Shape<dimension>& shape, Stream<Device>* stream)
      : shape_(shape), stride_(shape[kSubdim]), stream_(stream) {}
  UMBRA_XINLINE Tensor(DType* dptr, const Shape<dimension>& shape)
      : dptr_(dptr), shape_(shape), stride_(shape[kSubdim]), stream_(nullptr) {}
  UMBRA_XINLINE Tensor(DType* dptr, const Shape<dimension>& shape,
                       Stream<Device>* stream)
      : dptr_(dptr), shape_(shape), stride_(shape[kSubdim]), stream_(stream) {}
  UMBRA_XINLINE Tensor(DType* dptr, const Shape<dimension>& shape,
                       index_t stride, Stream<Device>* stream)
      : dptr_(dptr), shape_(shape), stride_(stride), stream_(stream) {}

  inline void set_stream(Stream<Device>* stream) { this->stream_ = stream; }

  // Number of elements covered by the lowest `startdim` dimensions, counting
  // the padding of each row (memory footprint in elements).
  template <int startdim>
  UMBRA_XINLINE index_t MemSize() const {
    index_t memsz = this->stride_;
    UMBRA_PRAGMA_UNROLL
    for (int i = startdim; i < kSubdim; ++i) memsz *= this->shape_[i];
    return memsz;
  }
  // Whether rows are packed (stride_ equals the last dimension).
  UMBRA_XINLINE bool CheckContiguous() const {
    return this->shape_[dimension - 1] == stride_;
  }
  // Memory footprint in elements, padding included.
  UMBRA_XINLINE index_t MSize() const { return this->MemSize<0>(); }
  // Size of dimension idx.
  UMBRA_XINLINE index_t size(int idx) const { return shape_[idx]; }
  // The same memory as a 1-D tensor; requires CheckContiguous().
  UMBRA_XINLINE Tensor<Device, 1, DType> FlatTo1D() const {
    return Tensor<Device, 1, DType>(dptr_, shape_.FlatTo1D(), stride_, stream_);
  }
  // The same memory as (product of leading dims, last dim); always valid.
  UMBRA_XINLINE Tensor<Device, 2, DType> FlatTo2D() const {
    return Tensor<Device, 2, DType>(dptr_, shape_.FlatTo2D(), stride_, stream_);
  }
  // The sub-tensor at index idx of the first dimension.
  UMBRA_XINLINE Tensor<Device, kSubdim, DType> operator[](index_t idx) const {
    return Tensor<Device, kSubdim, DType>(dptr_ + this->MemSize<1>() * idx,
                                          shape_.SubShape(), stride_, stream_);
  }
  // Indices [begin, end) of the first dimension.
  UMBRA_XINLINE Tensor<Device, dimension, DType> Slice(index_t begin,
                                                       index_t end) const {
    Shape<dimension> s = this->shape_;
    s[0] = end - begin;
    return Tensor<Device, dimension, DType>(dptr_ + this->MemSize<1>() * begin,
                                            s, stride_, stream_);
  }
  // Assignment from a tensor copies the view, not the data (use Copy()).
  UMBRA_XINLINE Tensor<Device, dimension, DType>& operator=(
      const Tensor<Device, dimension, DType>& exp) {
    dptr_ = exp.dptr_;
    shape_ = exp.shape_;
    stride_ = exp.stride_;
    stream_ = exp.stream_;
    return *this;
  }
  // Evaluates an expression into the elements.
  template <typename E, int etype>
  inline Tensor<Device, dimension, DType>& operator=(
      const expr::Exp<E, DType, etype>& exp) {
    return this->__assign(exp);
  }
  // Sets every element to a scalar.
  inline Tensor<Device, dimension, DType>& operator=(const DType& exp) {
    return this->__assign(exp);
  }
};

// The 1-D tensor, with element access through operator[].
template <typename Device, typename DType>
struct Tensor<Device, 1, DType>
    : public TRValue<Tensor<Device, 1, DType>, Device, 1, DType> {
 public:
  static constexpr bool kDevCPU = Device::kDevCPU;
  static constexpr int kSubdim = 0;

  DType* dptr_ = nullptr;
  Shape<1> shape_;
  index_t stride_;
  Stream<Device>* stream_;

  UMBRA_XINLINE Tensor() : stream_(nullptr) {}
  Tensor(const Tensor&) = default;
  UMBRA_XINLINE Tensor(const Shape<1>& shape)  // NOLINT(*)
      : shape_(shape), stride_(shape[0]), stream_(nullptr) {}
  UMBRA_XINLINE Tensor(DType* dptr, Shape<1> shape)
      : dptr_(dptr), shape_(shape), stride_(shape[0]), stream_(nullptr) {}
  UMBRA_XINLINE Tensor(DType* dptr, Shape<1> shape, Stream<Device>* stream)
      : dptr_(dptr), shape_(shape), stride_(shape[0]), stream_(stream) {}
  UMBRA_XINLINE Tensor(DType* dptr, Shape<1> shape, index_t stride,
                       Stream<Device>* stream)
      : dptr_(dptr), shape_(shape), stride_(stride), stream_(stream) {}

  inline void set_stream(Stream<Device>* stream) { this->stream_ = stream; }
  template <int startdim>
  UMBRA_XINLINE index_t MemSize() const {
    return shape_[0];
  }
  UMBRA_XINLINE Tensor<Device, 1, DType> FlatTo1D() const { return *this; }
  UMBRA_XINLINE Tensor<Device, 2, DType> FlatTo2D() const {
    return Tensor<Device, 2, DType>(dptr_, shape_.FlatTo2D(), stride_, stream_);
  }
  UMBRA_XINLINE Tensor<Device, 1, DType> Slice(index_t begin,
                                               index_t end) const {
    Shape<1> s;
    s[0] = end - begin;
    return Tensor<Device, 1, DType>(dptr_ + begin, s, s[0], stream_);
  }
  UMBRA_XINLINE bool CheckContiguous() const { return true; }
  UMBRA_XINLINE index_t MSize() const { return shape_[0]; }
  UMBRA_XINLINE index_t size(int i) const { return shape_[0]; }
  UMBRA_XINLINE DType& operator[](index_t idx) { return dptr_[idx]; }
  UMBRA_XINLINE const DType& operator[](index_t idx) const {
    return dptr_[idx];
  }
  UMBRA_XINLINE Tensor<Device, 1, DType>& operator=(
      const Tensor<Device, 1, DType>& exp) {
    dptr_ = exp.dptr_;
    shape_ = exp.shape_;
    stride_ = exp.stride_;
    stream_ = exp.stream_;
    return *this;
  }
  template <typename E, int etype>
  inline Tensor<Device, 1, DType>& operator=(
      const expr::Exp<E, DType, etype>& exp) {
    return this->__assign(exp);
  }
  inline Tensor<Device, 1, DType>& operator=(const DType& exp) {
    return this->__assign(exp);
  }
};

}  // namespace umbra

#endif  // UMBRA_TENSOR_TENSOR_CORE_H_
