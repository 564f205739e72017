// The CUDA kernels that evaluate expression plans (nvcc only; included by
// tensor_gpu.h under __CUDACC__).
//
// Two kernels per expression:
//  - MapPlanKernel: any destination, any expression (chainers, transposes,
//    strided views): a 2-D grid-stride loop over (row, column) of the
//    destination's 2-D view, without divisions. Its block is (bx, 256 / bx)
//    threads with bx the power of two covering the row, so narrow rows still
//    fill warps.
//  - MapVecKernel: element-wise expressions of contiguous tensors and
//    scalars (VecCheck), whose pointers are 16-byte aligned: each thread
//    loads and stores 16 bytes at a time (float4-sized), and the last
//    total % N elements go through the scalar plan.
// Both run on the destination's stream (the default stream when it has
// none) and are checked after launch.
#ifndef UMBRA_TENSOR_GPU_MAP_KERNELS_CUDA_H_
#define UMBRA_TENSOR_GPU_MAP_KERNELS_CUDA_H_

#ifndef __CUDACC__
#error "map_kernels_cuda.h holds CUDA kernels: include it from .cu files only"
#endif

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "tensor/base.h"
#include "tensor/expr_engine.h"
#include "tensor/gpu/check.h"
#include "tensor/gpu/map_gpu.h"
#include "tensor/gpu/stream.h"
#include "tensor/tensor_core.h"

namespace umbra {
namespace gpu_detail {

constexpr int kBlockThreads = 256;
constexpr int kVecBytes = 16;

// N elements loaded or stored as one 16-byte transaction.
template <typename DType, int N>
struct alignas(sizeof(DType) * N) VecArray {
  DType v[N];
};

// Whether an expression is element-wise over contiguous tensors and scalars,
// so that element (y, x) is element y * cols + x of every operand.
template <typename E>
struct VecCheck {
  static const bool kPass = false;
};
template <int dim, typename DType>
struct VecCheck<Tensor<gpu, dim, DType>> {
  static const bool kPass = true;
};
template <typename DType>
struct VecCheck<expr::ScalarExp<DType>> {
  static const bool kPass = true;
};
template <typename OP, typename TA, typename DType, int etype>
struct VecCheck<expr::UnaryMapExp<OP, TA, DType, etype>> {
  static const bool kPass = VecCheck<TA>::kPass;
};
template <typename OP, typename TA, typename TB, typename DType, int etype>
struct VecCheck<expr::BinaryMapExp<OP, TA, TB, DType, etype>> {
  static const bool kPass = VecCheck<TA>::kPass && VecCheck<TB>::kPass;
};
template <typename OP, typename TA, typename TB, typename TC, typename DType,
          int etype>
struct VecCheck<expr::TernaryMapExp<OP, TA, TB, TC, DType, etype>> {
  static const bool kPass =
      VecCheck<TA>::kPass && VecCheck<TB>::kPass && VecCheck<TC>::kPass;
};

// Runtime half of VecCheck: whether every tensor is contiguous (flat) and
// starts on an `align`-byte boundary (aligned).
struct FlatInfo {
  bool flat = true;
  bool aligned = true;
};
template <int dim, typename DType>
inline void Inspect(const Tensor<gpu, dim, DType>& t, FlatInfo* info) {
  info->flat = info->flat && t.CheckContiguous();
  info->aligned = info->aligned &&
                  reinterpret_cast<std::uintptr_t>(t.dptr_) % kVecBytes == 0;
}
template <typename DType>
inline void Inspect(const expr::ScalarExp<DType>&, FlatInfo*) {}
template <typename OP, typename TA, typename DType, int etype>
inline void Inspect(const expr::UnaryMapExp<OP, TA, DType, etype>& e,
                    FlatInfo* info) {
  Inspect(e.src_, info);
}
template <typename OP, typename TA, typename TB, typename DType, int etype>
inline void Inspect(const expr::BinaryMapExp<OP, TA, TB, DType, etype>& e,
                    FlatInfo* info) {
  Inspect(e.lhs_, info);
  Inspect(e.rhs_, info);
}
template <typename OP, typename TA, typename TB, typename TC, typename DType,
          int etype>
inline void Inspect(const expr::TernaryMapExp<OP, TA, TB, TC, DType, etype>& e,
                    FlatInfo* info) {
  Inspect(e.item1_, info);
  Inspect(e.item2_, info);
  Inspect(e.item3_, info);
}

// VecPlan<E, N>::EvalVec(i): elements [i * N, i * N + N) of a VecCheck
// expression, computed lane by lane.
template <typename E, typename DType, int N>
class VecPlan;
template <int dim, typename DType, int N>
class VecPlan<Tensor<gpu, dim, DType>, DType, N> {
 public:
  explicit VecPlan(const Tensor<gpu, dim, DType>& t) : dptr_(t.dptr_) {}
  __device__ __forceinline__ VecArray<DType, N> EvalVec(index_t i) const {
    return reinterpret_cast<const VecArray<DType, N>*>(dptr_)[i];
  }

 private:
  const DType* dptr_;
};
template <typename DType, int N>
class VecPlan<expr::ScalarExp<DType>, DType, N> {
 public:
  explicit VecPlan(const expr::ScalarExp<DType>& e) : scalar_(e.scalar_) {}
  __device__ __forceinline__ VecArray<DType, N> EvalVec(index_t) const {
    VecArray<DType, N> out;
    UMBRA_PRAGMA_UNROLL
    for (int j = 0; j < N; ++j) out.v[j] = scalar_;
    return out;
  }

 private:
  DType scalar_;
};
template <typename OP, typename TA, typename DType, int etype, int N>
class VecPlan<expr::UnaryMapExp<OP, TA, DType, etype>, DType, N> {
 public:
  explicit VecPlan(const expr::UnaryMapExp<OP, TA, DType, etype>& e)
      : src_(e.src_) {}
  __device__ __forceinline__ VecArray<DType, N> EvalVec(index_t i) const {
    VecArray<DType, N> a = src_.EvalVec(i);
    UMBRA_PRAGMA_UNROLL
    for (int j = 0; j < N; ++j) a.v[j] = OP::Map(a.v[j]);
    return a;
  }

 private:
  VecPlan<TA, DType, N> src_;
};
template <typename OP, typename TA, typename TB, typename DType, int etype,
          int N>
class VecPlan<expr::BinaryMapExp<OP, TA, TB, DType, etype>, DType, N> {
 public:
  explicit VecPlan(const expr::BinaryMapExp<OP, TA, TB, DType, etype>& e)
      : lhs_(e.lhs_), rhs_(e.rhs_) {}
  __device__ __forceinline__ VecArray<DType, N> EvalVec(index_t i) const {
    VecArray<DType, N> a = lhs_.EvalVec(i);
    const VecArray<DType, N> b = rhs_.EvalVec(i);
    UMBRA_PRAGMA_UNROLL
    for (int j = 0; j < N; ++j) a.v[j] = OP::Map(a.v[j], b.v[j]);
    return a;
  }

 private:
  VecPlan<TA, DType, N> lhs_;
  VecPlan<TB, DType, N> rhs_;
};
template <typename OP, typename TA, typename TB, typename TC, typename DType,
          int etype, int N>
class VecPlan<expr::TernaryMapExp<OP, TA, TB, TC, DType, etype>, DType, N> {
 public:
  explicit VecPlan(const expr::TernaryMapExp<OP, TA, TB, TC, DType, etype>& e)
      : item1_(e.item1_), item2_(e.item2_), item3_(e.item3_) {}
  __device__ __forceinline__ VecArray<DType, N> EvalVec(index_t i) const {
    VecArray<DType, N> a = item1_.EvalVec(i);
    const VecArray<DType, N> b = item2_.EvalVec(i);
    const VecArray<DType, N> c = item3_.EvalVec(i);
    UMBRA_PRAGMA_UNROLL
    for (int j = 0; j < N; ++j) a.v[j] = OP::Map(a.v[j], b.v[j], c.v[j]);
    return a;
  }

 private:
  VecPlan<TA, DType, N> item1_;
  VecPlan<TB, DType, N> item2_;
  VecPlan<TC, DType, N> item3_;
};

template <typename Saver, typename DType, typename DstPlan, typename SrcPlan>
__global__ void __launch_bounds__(kBlockThreads)
    MapPlanKernel(DstPlan dst, const SrcPlan src, index_t rows, index_t cols) {
  const index_t x0 = index_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t x_step = index_t(blockDim.x) * gridDim.x;
  const index_t y_step = index_t(blockDim.y) * gridDim.y;
  for (index_t y = index_t(blockIdx.y) * blockDim.y + threadIdx.y; y < rows;
       y += y_step) {
    for (index_t x = x0; x < cols; x += x_step) {
      Saver::template Save<DType>(dst.REval(y, x), src.Eval(y, x));
    }
  }
}

template <typename Saver, typename DType, int N, typename SrcVecPlan,
          typename SrcPlan>
__global__ void __launch_bounds__(kBlockThreads)
    MapVecKernel(DType* dst, const SrcVecPlan vsrc, const SrcPlan src,
                 index_t total) {
  const index_t step = index_t(blockDim.x) * gridDim.x;
  const index_t tid = index_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t nvec = total / N;
  VecArray<DType, N>* vdst = reinterpret_cast<VecArray<DType, N>*>(dst);
  for (index_t i = tid; i < nvec; i += step) {
    const VecArray<DType, N> value = vsrc.EvalVec(i);
    if constexpr (std::is_same<Saver, sv::saveto>::value) {
      vdst[i] = value;
    } else {
      VecArray<DType, N> old = vdst[i];
      UMBRA_PRAGMA_UNROLL
      for (int j = 0; j < N; ++j)
        Saver::template Save<DType>(old.v[j], value.v[j]);
      vdst[i] = old;
    }
  }
  for (index_t i = nvec * N + tid; i < total; i += step) {
    Saver::template Save<DType>(dst[i], src.Eval(0, i));
  }
}

// Launches MapPlanKernel over rows x cols.
template <typename Saver, typename DType, typename DstPlan, typename SrcPlan>
inline void LaunchMapPlan(const DstPlan& dst, const SrcPlan& src, index_t rows,
                          index_t cols, cudaStream_t stream,
                          const Shape<2>& shape) {
  int bx = 1;
  while (bx < kBlockThreads && bx < cols) bx *= 2;
  const int by = kBlockThreads / bx;
  const index_t max_blocks = MaxGridBlocks();
  const index_t gx = std::min<index_t>((cols + bx - 1) / bx, max_blocks);
  const index_t gy =
      std::min<index_t>(std::min<index_t>((rows + by - 1) / by, 65535),
                        std::max<index_t>(1, max_blocks / gx));
  MapPlanKernel<Saver, DType>
      <<<dim3(unsigned(gx), unsigned(gy)), dim3(unsigned(bx), unsigned(by)), 0,
         stream>>>(dst, src, rows, cols);
  UMBRA_CUDA_CHECK_LAUNCH(
      "MapPlanKernel", stream,
      detail::StrCat("dst ", Saver::kName, " expression over ", shape));
}

template <typename Saver, typename DType, typename R, int dim, typename E>
void MapPlanGpu(R* dst, const E& exp, Shape<dim> dshape) {
  const Shape<2> shape = dshape.FlatTo2D();
  if (shape.Size() == 0) return;
  cudaStream_t stream =
      Stream<gpu>::GetStream(expr::StreamInfo<gpu, R>::Get(dst->self()));
  if constexpr (std::is_same<R, Tensor<gpu, dim, DType>>::value) {
    const Tensor<gpu, 2, DType> dst2 = dst->FlatTo2D();
    if constexpr (VecCheck<E>::kPass) {
      FlatInfo info;
      Inspect(*dst, &info);
      Inspect(exp, &info);
      if (info.flat) {
        const index_t total = shape.Size();
        constexpr int N =
            sizeof(DType) < kVecBytes ? kVecBytes / int(sizeof(DType)) : 1;
        if (N > 1 && info.aligned && kVecBytes % sizeof(DType) == 0) {
          const index_t max_blocks = MaxGridBlocks();
          const index_t blocks = std::max<index_t>(
              1,
              std::min<index_t>((total / N + kBlockThreads - 1) / kBlockThreads,
                                max_blocks));
          MapVecKernel<Saver, DType, N>
              <<<unsigned(blocks), kBlockThreads, 0, stream>>>(
                  dst2.dptr_, VecPlan<E, DType, N>(exp), expr::MakePlan(exp),
                  total);
          UMBRA_CUDA_CHECK_LAUNCH("MapVecKernel", stream,
                                  detail::StrCat("dst ", Saver::kName,
                                                 " expression over ", dshape));
          return;
        }
        // Contiguous but unaligned: one long row.
        LaunchMapPlan<Saver, DType>(
            expr::MakePlan(Tensor<gpu, 2, DType>(dst2.dptr_, Shape2(1, total))),
            expr::MakePlan(exp), 1, total, stream, shape);
        return;
      }
    }
    LaunchMapPlan<Saver, DType>(expr::MakePlan(dst2), expr::MakePlan(exp),
                                shape[0], shape[1], stream, shape);
  } else {
    LaunchMapPlan<Saver, DType>(expr::MakePlan(dst->self()),
                                expr::MakePlan(exp), shape[0], shape[1], stream,
                                shape);
  }
}

}  // namespace gpu_detail
}  // namespace umbra

#endif  // UMBRA_TENSOR_GPU_MAP_KERNELS_CUDA_H_
