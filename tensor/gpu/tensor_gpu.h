// The CUDA backend of the tensor library (builds with --config=cuda only).
// tensor/tensor.h includes this header automatically in .cu files and in
// code that depends on //tensor/gpu (which defines UMBRA_USE_CUDA).
//
// What a .cu file gets (nvcc): every expression on gpu tensors, evaluated by
// one kernel (map_kernels_cuda.h). What host .cc code gets: Stream<gpu>, device
// memory and copies, scalar fills and tensor copies with any saver, dot and
// batch_dot (cuBLAS), Random<gpu> (cuRAND), the reductions and softmax of
// reduce_gpu.h, and the entry points of ops_gpu.h; other expressions are a
// compile-time error that says to move them into a .cu file. For the
// extension's sumall_except_dim / sum_rows / reduce_except_dim on gpu
// tensors, also include tensor/gpu/extension_gpu.h.
//
// Example (update.cu, compiled by nvcc through umbra_cuda_library):
//   #include "tensor/tensor.h"
//   using namespace umbra;
//   void Step(Tensor<gpu, 2> w, Tensor<gpu, 2> g, Stream<gpu>* s) {
//     w.set_stream(s);
//     w = -0.1f * (g + 1e-4f * w);   // one kernel on s
//   }
// Example (layer.cc, g++):
//   TensorContainer<gpu, 2> out(Shape2(batch, nout));
//   out = dot(in, weight.T());       // cublasSgemm
//   out += bias_broadcast;           // a Tensor: fine on the host side
#ifndef UMBRA_TENSOR_GPU_TENSOR_GPU_H_
#define UMBRA_TENSOR_GPU_TENSOR_GPU_H_

#include "tensor/base.h"
#include "tensor/dot.h"
#include "tensor/expr_engine.h"
#include "tensor/gpu/dot_gpu.h"
#include "tensor/gpu/map_gpu.h"
#include "tensor/gpu/memory_gpu.h"
#include "tensor/gpu/ops_gpu.h"
#include "tensor/gpu/random_gpu.h"
#include "tensor/gpu/reduce_gpu.h"
#include "tensor/gpu/stream.h"
#include "tensor/memory.h"
#include "tensor/random.h"
#include "tensor/tensor_core.h"

#ifdef __CUDACC__
#include "tensor/gpu/map_kernels_cuda.h"
#endif

#endif  // UMBRA_TENSOR_GPU_TENSOR_GPU_H_
