// The cuDNN adapter of umbra's gpu layers: the one place that calls cuDNN's
// handle, descriptor and algorithm-search API (cuDNN 9's legacy API).
//
//   - UMBRA_CUDNN_CHECK(call, context) throws GpuError naming the call,
//     cuDNN's status string and last error message, the context (the layer
//     and its shapes) and file:line.
//   - Handle(stream): the cuDNN handle of a Stream<gpu> (its own, or the
//     default stream's when null). The first call prints the cuDNN version
//     the process runs with, once.
//   - TensorDescriptor, FilterDescriptor, ConvolutionDescriptor,
//     PoolingDescriptor, ActivationDescriptor, LrnDescriptor: RAII (created
//     with the object, destroyed with it), Set() any number of times; str()
//     says what was set, for error messages.
//   - Workspace(stream, bytes): scratch memory shared by every cuDNN call on
//     a stream (calls on one stream never overlap), at most
//     kWorkspaceLimitBytes.
//   - FindConvolutionAlgorithms(...): the fastest forward, backward-data and
//     backward-filter algorithms whose workspace fits the limit, measured
//     with cudnnFind* (cudnnGet*_v7's heuristics when cudnnFind* fails, e.g.
//     out of GPU memory for its own buffers, or none of its results is
//     usable) once per distinct problem and device, then cached for the
//     process.
//
// Convolutions run with CUDNN_FMA_MATH and never take a tensor-core
// algorithm: no TF32, so that float results agree with the CPU layers to
// float precision. cuDNN's searches give (algorithm, math type) pairs; only
// those whose math type is the descriptor's (FMA) are taken, since the
// descriptor's math type is never changed.
//
// Include it from .cu files (nvcc finds cudnn.h); depend on //layers/cudnn.
//
// Example (relu forward in a .cu file):
//   cudnn::TensorDescriptor x;
//   x.Set(cudnn::TypeOf<float>(), in.shape_);
//   cudnn::ActivationDescriptor relu;
//   relu.Set(CUDNN_ACTIVATION_RELU);
//   UMBRA_CUDNN_CHECK(
//       cudnnActivationForward(cudnn::Handle(stream), relu.get(),
//                              &cudnn::kOne<float>, x.get(), in.dptr_,
//                              &cudnn::kZero<float>, x.get(), out.dptr_),
//       "relu of " + x.str());
#ifndef UMBRA_LAYERS_CUDNN_CUDNN_H_
#define UMBRA_LAYERS_CUDNN_CUDNN_H_

#include <cudnn.h>

#include <cstddef>
#include <string>
#include <type_traits>

#include "tensor/tensor.h"

namespace umbra {
namespace layers {
namespace cudnn {

// Throws GpuError "cuDNN call <call> failed: <status> (<cuDNN's message>)
// [<context>] at <file>:<line>".
[[noreturn]] void ThrowError(const char* call, cudnnStatus_t status,
                             const std::string& context, const char* file,
                             int line);

}  // namespace cudnn
}  // namespace layers
}  // namespace umbra

// Evaluates `call` (a cuDNN function); on failure throws GpuError naming the
// call and `context`, a std::string expression evaluated only then.
#define UMBRA_CUDNN_CHECK(call, context)                                 \
  do {                                                                   \
    const cudnnStatus_t umbra_cudnn_status_ = (call);                    \
    if (umbra_cudnn_status_ != CUDNN_STATUS_SUCCESS) {                   \
      ::umbra::layers::cudnn::ThrowError(#call, umbra_cudnn_status_,     \
                                         (context), __FILE__, __LINE__); \
    }                                                                    \
  } while (0)

namespace umbra {
namespace layers {
namespace cudnn {

// The most scratch memory one cuDNN call may use (per stream).
constexpr size_t kWorkspaceLimitBytes = size_t(256) << 20;

// The cuDNN type of a layer's DType (float or double). The scaling factors
// alpha and beta of every call have the same type.
template <typename DType>
constexpr cudnnDataType_t TypeOf() {
  static_assert(
      std::is_same<DType, float>::value || std::is_same<DType, double>::value,
      "umbra's cuDNN layers compute in float or double");
  return std::is_same<DType, float>::value ? CUDNN_DATA_FLOAT
                                           : CUDNN_DATA_DOUBLE;
}

// cuDNN's scaling factors: every call computes output = alpha * result +
// beta * output, alpha and beta pointing to host values of the DType (the
// CPU layers' `=` is alpha &kOne<DType>, beta &kZero<DType>; `+=` is beta
// &kOne<DType>).
template <typename DType>
inline constexpr DType kOne = DType(1);
template <typename DType>
inline constexpr DType kZero = DType(0);

// The handle of `stream` (null: the current device's default stream).
cudnnHandle_t Handle(Stream<gpu>* stream);

// Device scratch memory of at least `bytes` (<= kWorkspaceLimitBytes, else
// GpuError) for a cuDNN call on `stream`; null for 0 bytes. Valid until the
// next call for the same stream.
void* Workspace(Stream<gpu>* stream, size_t bytes);

namespace internal {

// Owns one cuDNN descriptor of type T; subclasses set it.
template <typename T, cudnnStatus_t (*kCreate)(T*),
          cudnnStatus_t (*kDestroy)(T)>
class Descriptor {
 public:
  Descriptor() {
    UMBRA_CUDNN_CHECK(kCreate(&desc_), "creating a cuDNN descriptor");
  }
  // Unchecked: a destructor must not throw.
  ~Descriptor() { kDestroy(desc_); }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;

  T get() const { return desc_; }
  // What the last Set() described, e.g. "float (64,1,28,28)".
  const std::string& str() const { return text_; }

 protected:
  T desc_ = nullptr;
  std::string text_ = "(not set)";
};

}  // namespace internal

class TensorDescriptor
    : public internal::Descriptor<cudnnTensorDescriptor_t,
                                  cudnnCreateTensorDescriptor,
                                  cudnnDestroyTensorDescriptor> {
 public:
  // A contiguous NCHW tensor.
  void Set(cudnnDataType_t type, const Shape<4>& shape);
};

class FilterDescriptor
    : public internal::Descriptor<cudnnFilterDescriptor_t,
                                  cudnnCreateFilterDescriptor,
                                  cudnnDestroyFilterDescriptor> {
 public:
  // Contiguous filters (output channels, input channels per group, kernel
  // height, kernel width).
  void Set(cudnnDataType_t type, const Shape<4>& shape);
};

class ConvolutionDescriptor
    : public internal::Descriptor<cudnnConvolutionDescriptor_t,
                                  cudnnCreateConvolutionDescriptor,
                                  cudnnDestroyConvolutionDescriptor> {
 public:
  // A cross-correlation (as the CPU conv) with zero padding, stride and
  // dilation as (y, x), `groups` groups, CUDNN_FMA_MATH.
  void Set(cudnnDataType_t type, const Shape<2>& pad, const Shape<2>& stride,
           const Shape<2>& dilate, index_t groups);
};

class PoolingDescriptor
    : public internal::Descriptor<cudnnPoolingDescriptor_t,
                                  cudnnCreatePoolingDescriptor,
                                  cudnnDestroyPoolingDescriptor> {
 public:
  // Window, symmetric padding and stride as (y, x).
  void Set(cudnnPoolingMode_t mode, const Shape<2>& window, const Shape<2>& pad,
           const Shape<2>& stride);
};

class ActivationDescriptor
    : public internal::Descriptor<cudnnActivationDescriptor_t,
                                  cudnnCreateActivationDescriptor,
                                  cudnnDestroyActivationDescriptor> {
 public:
  void Set(cudnnActivationMode_t mode);
};

class LrnDescriptor : public internal::Descriptor<cudnnLRNDescriptor_t,
                                                  cudnnCreateLRNDescriptor,
                                                  cudnnDestroyLRNDescriptor> {
 public:
  // y = x / (k + alpha / n * sum of x^2 over n channels)^beta; n in
  // [CUDNN_LRN_MIN_N, CUDNN_LRN_MAX_N], k >= CUDNN_LRN_MIN_K, beta >=
  // CUDNN_LRN_MIN_BETA.
  void Set(index_t n, double alpha, double beta, double k);
};

// The algorithms of one convolution problem and their workspace sizes.
struct ConvolutionAlgorithms {
  cudnnConvolutionFwdAlgo_t forward;
  cudnnConvolutionBwdDataAlgo_t backward_data;
  cudnnConvolutionBwdFilterAlgo_t backward_filter;
  size_t forward_bytes = 0;
  size_t backward_data_bytes = 0;
  size_t backward_filter_bytes = 0;
};

// The fastest algorithms for y = conv(x, w) and its two gradients (see the
// file comment); blocks while it measures a new problem. Throws GpuError
// naming the problem and what each search gave when neither has a usable
// algorithm.
ConvolutionAlgorithms FindConvolutionAlgorithms(
    cudnnHandle_t handle, const TensorDescriptor& x, const FilterDescriptor& w,
    const ConvolutionDescriptor& conv, const TensorDescriptor& y);

}  // namespace cudnn
}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_CUDNN_CUDNN_H_
