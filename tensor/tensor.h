// The public header of the tensor package: include this and nothing else.
//
// umbra's tensors are the mshadow design: Tensor<Device, dim, DType> is a
// view on memory, arithmetic builds lazy expression templates, and
// assignment evaluates a whole expression in one pass (SIMD packets and all
// cores on the CPU, one kernel on the GPU), without temporaries.
//
// Example:
//   #include "tensor/tensor.h"
//   using namespace umbra;
//   using namespace umbra::expr;
//   TensorContainer<cpu, 2> w(Shape2(64, 32), 0.0f), g(Shape2(64, 32), 1.0f);
//   w = -0.1f * (g + 1e-4f * w);          // one pass over w and g
//   TensorContainer<cpu, 2> h(Shape2(8, 32));
//   h = dot(x, w.T());                     // BLAS gemm
//   h = F<op::relu>(h);
#ifndef UMBRA_TENSOR_TENSOR_H_
#define UMBRA_TENSOR_TENSOR_H_

#include "tensor/base.h"
#include "tensor/dot.h"
#include "tensor/expr_engine.h"
#include "tensor/expression.h"
#include "tensor/extension/extension.h"
#include "tensor/memory.h"
#include "tensor/operators.h"
#include "tensor/packet.h"
#include "tensor/random.h"
#include "tensor/shape.h"
#include "tensor/tensor_blob.h"
#include "tensor/tensor_core.h"
#include "tensor/tensor_cpu.h"
#include "tensor/threads.h"

#if defined(__CUDACC__) || defined(UMBRA_USE_CUDA)
#include "tensor/tensor_gpu.h"
#endif

namespace umbra {
// Expressions, F<op>, dot, tcast and scalar are usable as umbra::F etc.
using expr::batch_dot;
using expr::dot;
using expr::F;
using expr::scalar;
using expr::tcast;
}  // namespace umbra

#endif  // UMBRA_TENSOR_TENSOR_H_
