// MapExpEngine<gpu>: how `dst = expr` on Tensor<gpu, ...> reaches a CUDA
// kernel.
//
// In a .cu file (nvcc, __CUDACC__), any expression works: the kernels of
// map_kernels_cuda.h are included and instantiated for the expression at hand.
// In host-only .cc code, the two expressions that TensorContainer, NewTensor
// and everyday code need work too, through kernels compiled once per type in
// this package: a scalar (`t = 0.5f`, `t *= 2.0f`) and a tensor of the same
// type (`a = b`, `a += b`), with every saver, for float, double, half_t,
// uint8_t, int8_t, int32_t and int64_t. Any other expression in a .cc is a
// compile-time error that says to move it into a .cu file (or to call one of
// the entry points of ops_gpu.h).
//
// Example (in a .cu file):
//   #include "tensor/tensor.h"
//   void Update(Tensor<gpu, 1> w, Tensor<gpu, 1> g, float eta) {
//     w = -eta * (g + 1e-4f * w);  // one kernel, on w's stream
//   }
#ifndef UMBRA_TENSOR_GPU_MAP_GPU_H_
#define UMBRA_TENSOR_GPU_MAP_GPU_H_

#include <type_traits>

#include "tensor/base.h"
#include "tensor/expr_engine.h"
#include "tensor/gpu/stream.h"
#include "tensor/tensor_core.h"

namespace umbra {
namespace gpu_detail {

// dst <Saver> value over a 2-D view (any stride); on dst's stream.
// Instantiated in map_instances_*.cu for the savers and types listed above.
template <typename Saver, typename DType>
void FillTensor(Tensor<gpu, 2, DType> dst, DType value);
// dst <Saver> src over 2-D views of equal shape (any strides).
template <typename Saver, typename DType>
void MapTensor(Tensor<gpu, 2, DType> dst, Tensor<gpu, 2, DType> src);

// The general evaluation: defined in map_kernels_cuda.h (nvcc only).
template <typename Saver, typename DType, typename R, int dim, typename E>
void MapPlanGpu(R* dst, const E& exp, Shape<dim> dshape);

template <typename T>
struct AlwaysFalse : std::false_type {};

}  // namespace gpu_detail

namespace expr {

template <>
struct MapExpEngine<gpu> {
  template <typename Saver, typename DType, typename R, int dim, typename E>
  inline static void Map(R* dst, const E& exp, Shape<dim> dshape) {
    constexpr bool kTensorDst = std::is_same<R, Tensor<gpu, dim, DType>>::value;
    if constexpr (kTensorDst && std::is_same<E, ScalarExp<DType>>::value) {
      gpu_detail::FillTensor<Saver, DType>(dst->FlatTo2D(), exp.scalar_);
    } else if constexpr (kTensorDst &&
                         std::is_same<E, Tensor<gpu, dim, DType>>::value) {
      gpu_detail::MapTensor<Saver, DType>(dst->FlatTo2D(), exp.FlatTo2D());
    } else {
#ifdef __CUDACC__
      gpu_detail::MapPlanGpu<Saver, DType>(dst, exp, dshape);
#else
      static_assert(gpu_detail::AlwaysFalse<E>::value,
                    "this expression on gpu tensors needs a CUDA kernel: "
                    "evaluate it in a .cu file (compiled by nvcc through "
                    "umbra_cuda_library), or call a function of "
                    "tensor/gpu/ops_gpu.h; host .cc code can only assign "
                    "scalars and same-type tensors to gpu tensors");
#endif
    }
  }
};

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_GPU_MAP_GPU_H_
