// Stream<gpu>: a CUDA stream with its cuBLAS and cuDNN handles, created on
// demand; the per-device default stream used by tensors with no stream set;
// device selection and engine start-up; GpuError, the exception every failed
// CUDA, cuBLAS or cuRAND call throws.
//
// This header includes no CUDA header (the CUDA handle types are forward
// declared), so host-only .cc code can create streams and catch errors.
//
// Example:
//   umbra::InitTensorEngine<umbra::gpu>(0);        // device 0
//   umbra::Stream<umbra::gpu>* s = umbra::NewStream<umbra::gpu>();
//   umbra::TensorContainer<umbra::gpu, 2> w(umbra::Shape2(64, 32));
//   w.set_stream(s);            // optional: without it, the default stream
//   w = 0.5f;                   // queued on s
//   s->Wait();                  // blocks until the fill is done
//   umbra::DeleteStream(s);
//   umbra::ShutdownTensorEngine<umbra::gpu>();
//
// Contracts: a Stream<gpu> belongs to the device that was current when it was
// made (its device_); work on it must use memory of that device. Handles are
// created on the stream's device. Destroying a stream waits for its work.
#ifndef UMBRA_TENSOR_GPU_STREAM_H_
#define UMBRA_TENSOR_GPU_STREAM_H_

#include <string>

#include "tensor/base.h"
#include "tensor/tensor_core.h"

// The CUDA library handle types, as their headers define them.
struct CUstream_st;    // cudaStream_t
struct cublasContext;  // cublasHandle_t
struct cudnnContext;   // cudnnHandle_t

namespace umbra {

// Thrown by every failed CUDA, cuBLAS or cuRAND call of the GPU backend. The
// message names the call, the library's error string, the operation and the
// shapes involved, and the source location.
class GpuError : public TensorError {
 public:
  explicit GpuError(const std::string& what) : TensorError(what) {}
};

// A CUDA stream and its library handles. Create with NewStream<gpu>(), free
// with DeleteStream(); not copyable.
template <>
struct Stream<gpu> {
  // The CUDA stream (cudaStream_t); null is the legacy default stream.
  CUstream_st* stream_ = nullptr;
  // cuBLAS handle bound to stream_, or null until CreateBlasHandle().
  cublasContext* blas_handle_ = nullptr;
  // cuDNN handle bound to stream_, or null until CreateDnnHandle().
  cudnnContext* dnn_handle_ = nullptr;
  // The device this stream belongs to.
  int device_ = 0;
  // Whether stream_ was created by this object (and is destroyed with it).
  bool owns_stream_ = false;

  Stream() = default;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream();

  // Blocks until all work queued on the stream is done; throws GpuError if
  // any of it failed.
  void Wait();
  // Whether all queued work is done (never blocks).
  bool CheckIdle();
  // Creates the cuBLAS handle (once) on the stream's device, bound to it.
  void CreateBlasHandle();
  // Creates the cuDNN handle (once) on the stream's device, bound to it.
  void CreateDnnHandle();
  // The cuBLAS handle, created on first use.
  cublasContext* blas_handle();
  // The cuDNN handle, created on first use.
  cudnnContext* dnn_handle();

  // `stream` if not null, else the default stream of the current device.
  static Stream<gpu>* OrDefault(Stream<gpu>* stream);
  // The cudaStream_t of OrDefault(stream).
  static CUstream_st* GetStream(Stream<gpu>* stream);
};

// The default stream of the current device: the legacy CUDA default stream
// (it synchronises with every other blocking stream), with its own cuBLAS and
// cuDNN handles. Tensors whose stream_ is null run here. Lives until exit.
Stream<gpu>* DefaultStream();

// NewStream<gpu>(create_blas_handle, create_dnn_handle, dev_id), declared
// in tensor/tensor_core.h with the other devices' versions, makes a stream
// on the current device (or on dev_id when >= 0), with its cuBLAS / cuDNN
// handles created now when asked (else on first use). It is a blocking
// stream: work on it is ordered after earlier work on the default stream and
// before later work there (so tensors with and without a stream can be
// mixed), and runs concurrently with other streams.

// Waits for the stream's work, then frees it and its handles.
inline void DeleteStream(Stream<gpu>* stream) { delete stream; }

// Number of CUDA devices visible to the process; 0 without a GPU or driver.
int GpuDeviceCount();
// The device the calling thread works on.
int GpuCurrentDevice();

namespace gpu_detail {
// The grid size (in blocks of 256 threads) that fills the current device
// with work: 32 blocks per multiprocessor. Grid-stride kernels use at most
// this many.
int MaxGridBlocks();
}  // namespace gpu_detail

// The gpu versions of the engine set-up of tensor/tensor_core.h:
// - SetDevice<gpu>(dev_id) makes dev_id the calling thread's current device;
//   throws GpuError (with the device count) when it does not exist.
// - InitTensorEngine<gpu>(dev_id) selects device dev_id and creates its CUDA
//   context now (instead of at the first call), so that start-up errors
//   surface here.
// - ShutdownTensorEngine<gpu>() waits for all work of the current device.
//   Default streams and handles stay valid: the engine may be initialised
//   again.

}  // namespace umbra

#endif  // UMBRA_TENSOR_GPU_STREAM_H_
