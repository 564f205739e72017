// The reduction and softmax kernels (nvcc only): block and warp reductions
// with shuffles, templated on how the source is read (a strided tensor or
// any expression plan). reduce.cu instantiates them for tensors
// (reduce_gpu.h); extension_gpu.h uses them for expressions in .cu files.
#ifndef UMBRA_TENSOR_GPU_REDUCE_KERNELS_CUDA_H_
#define UMBRA_TENSOR_GPU_REDUCE_KERNELS_CUDA_H_

#ifndef __CUDACC__
#error \
    "reduce_kernels_cuda.h holds CUDA kernels: include it from .cu files only"
#endif

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>

#include "tensor/extension/softmax.h"
#include "tensor/gpu/check.h"
#include "tensor/gpu/map_kernels_cuda.h"
#include "tensor/gpu/reduce_gpu.h"

namespace umbra {
namespace gpu_detail {

constexpr int kWarp = 32;

// Element f (row-major order) of a 2-D view with `cols` columns.
template <typename DType>
struct FlatReader {
  const DType* dptr;
  index_t cols, stride;
  __device__ __forceinline__ DType operator()(index_t f) const {
    return stride == cols ? dptr[f] : dptr[(f / cols) * stride + f % cols];
  }
};
template <typename DType>
struct FlatWriter {
  DType* dptr;
  index_t cols, stride;
  __device__ __forceinline__ DType& operator()(index_t f) const {
    return stride == cols ? dptr[f] : dptr[(f / cols) * stride + f % cols];
  }
};

// Element f (row-major order) of an expression plan with `cols` columns.
template <typename DType, typename SrcPlan>
struct PlanReader {
  SrcPlan plan;
  index_t cols;
  __device__ __forceinline__ DType operator()(index_t f) const {
    return plan.Eval(f / cols, f % cols);
  }
};

template <typename Reducer, typename DType>
__device__ __forceinline__ DType WarpReduce(DType value) {
  UMBRA_PRAGMA_UNROLL
  for (int offset = kWarp / 2; offset > 0; offset /= 2) {
    Reducer::Reduce(value, __shfl_down_sync(0xffffffffu, value, offset));
  }
  return value;
}

// Reduces over a 1-D block; every thread gets the result. `shared` holds at
// least blockDim.x / 32 values.
template <typename Reducer, typename DType>
__device__ DType BlockReduce(DType value, DType* shared) {
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const int nwarps = (blockDim.x + kWarp - 1) / kWarp;
  value = WarpReduce<Reducer>(value);
  __syncthreads();  // shared may still be read from a previous call
  if (lane == 0) shared[warp] = value;
  __syncthreads();
  if (warp == 0) {
    DType v;
    Reducer::SetInitValue(v);
    if (lane < nwarps) v = shared[lane];
    v = WarpReduce<Reducer>(v);
    if (lane == 0) shared[0] = v;
  }
  __syncthreads();
  return shared[0];
}

// One block per kept index k (grid-stride): reduces the outer * inner
// elements of slice k.
template <typename Saver, typename Reducer, typename DType, typename Reader>
__global__ void __launch_bounds__(kBlockThreads)
    ReduceKeepKernel(DType* dst, const Reader src, index_t outer, index_t keep,
                     index_t inner, DType scale) {
  __shared__ DType shared[kBlockThreads / kWarp];
  const index_t count = outer * inner;
  for (index_t k = blockIdx.x; k < keep; k += gridDim.x) {
    DType acc;
    Reducer::SetInitValue(acc);
    for (index_t j = threadIdx.x; j < count; j += blockDim.x) {
      const index_t o = j / inner, i = j % inner;
      Reducer::Reduce(acc, src((o * keep + k) * inner + i));
    }
    acc = BlockReduce<Reducer>(acc, shared);
    if (threadIdx.x == 0)
      Saver::template Save<DType>(dst[k], DType(acc * scale));
  }
}

// inner == 1: the kept index is the fastest one. Block (32, 8): threadIdx.x
// runs over 32 consecutive k (coalesced), threadIdx.y over o.
template <typename Saver, typename Reducer, typename DType, typename Reader>
__global__ void __launch_bounds__(kBlockThreads)
    ReduceKeepColumnsKernel(DType* dst, const Reader src, index_t outer,
                            index_t keep, DType scale) {
  __shared__ DType shared[kBlockThreads / kWarp][kWarp + 1];
  for (index_t k0 = index_t(blockIdx.x) * kWarp; k0 < keep;
       k0 += index_t(gridDim.x) * kWarp) {
    const index_t k = k0 + threadIdx.x;
    DType acc;
    Reducer::SetInitValue(acc);
    if (k < keep) {
      for (index_t o = threadIdx.y; o < outer; o += blockDim.y) {
        Reducer::Reduce(acc, src(o * keep + k));
      }
    }
    shared[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.y == 0 && k < keep) {
      for (int r = 1; r < int(blockDim.y); ++r) {
        Reducer::Reduce(acc, shared[r][threadIdx.x]);
      }
      Saver::template Save<DType>(dst[k], DType(acc * scale));
    }
    __syncthreads();
  }
}

// One thread per output (o, i), looping over the axis.
template <typename Saver, typename Reducer, typename DType>
__global__ void __launch_bounds__(kBlockThreads)
    ReduceAxisKernel(FlatWriter<DType> dst, FlatReader<DType> src,
                     index_t outer, index_t axis, index_t inner) {
  const index_t total = outer * inner;
  for (index_t f = index_t(blockIdx.x) * blockDim.x + threadIdx.x; f < total;
       f += index_t(blockDim.x) * gridDim.x) {
    const index_t o = f / inner, i = f % inner;
    DType acc;
    Reducer::SetInitValue(acc);
    for (index_t k = 0; k < axis; ++k) {
      Reducer::Reduce(acc, src((o * axis + k) * inner + i));
    }
    Saver::template Save<DType>(dst(f), acc);
  }
}

// inner == 1: one warp per output, lanes stride over the (contiguous) axis.
template <typename Saver, typename Reducer, typename DType>
__global__ void __launch_bounds__(kBlockThreads)
    ReduceLastAxisKernel(FlatWriter<DType> dst, FlatReader<DType> src,
                         index_t outer, index_t axis) {
  const int lane = threadIdx.x % kWarp;
  const index_t warps = index_t(blockDim.x) / kWarp * gridDim.x;
  for (index_t o = (index_t(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp;
       o < outer; o += warps) {
    DType acc;
    Reducer::SetInitValue(acc);
    for (index_t k = lane; k < axis; k += kWarp) {
      Reducer::Reduce(acc, src(o * axis + k));
    }
    acc = WarpReduce<Reducer>(acc);
    if (lane == 0) Saver::template Save<DType>(dst(o), acc);
  }
}

// inner == 1: one block per row (grid-stride), the block's threads over
// the classes: max, sum of exp, normalise.
template <typename DType>
__global__ void __launch_bounds__(kBlockThreads)
    SoftmaxRowsKernel(ClassView<DType> dst, ClassView<DType> src) {
  __shared__ DType shared[kBlockThreads / kWarp];
  for (index_t y = blockIdx.x; y < src.outer; y += gridDim.x) {
    const DType* in = src.dptr + y * src.outer_stride;
    DType* out = dst.dptr + y * dst.outer_stride;
    DType mx;
    red::maximum::SetInitValue(mx);
    for (index_t k = threadIdx.x; k < src.classes; k += blockDim.x) {
      red::maximum::Reduce(mx, in[k * src.class_stride]);
    }
    mx = BlockReduce<red::maximum>(mx, shared);
    DType sum = 0;
    for (index_t k = threadIdx.x; k < src.classes; k += blockDim.x) {
      sum += math::exp(DType(in[k * src.class_stride] - mx));
    }
    sum = BlockReduce<red::sum>(sum, shared);
    for (index_t k = threadIdx.x; k < src.classes; k += blockDim.x) {
      out[k * dst.class_stride] =
          math::exp(DType(in[k * src.class_stride] - mx)) / sum;
    }
  }
}

// inner > 1: one thread per (n, x), running the CPU's row kernel over the
// classes; neighbouring threads read neighbouring x (coalesced).
template <typename DType>
__global__ void __launch_bounds__(kBlockThreads)
    SoftmaxInnerKernel(ClassView<DType> dst, ClassView<DType> src) {
  const index_t total = src.outer * src.inner;
  for (index_t f = index_t(blockIdx.x) * blockDim.x + threadIdx.x; f < total;
       f += index_t(blockDim.x) * gridDim.x) {
    const index_t n = f / src.inner, x = f % src.inner;
    softmax_detail::SoftmaxRow(
        dst.dptr + n * dst.outer_stride + x, dst.class_stride,
        src.dptr + n * src.outer_stride + x, src.class_stride, src.classes);
  }
}

// One thread per element (n, k, x), in memory order.
template <typename DType>
__global__ void __launch_bounds__(kBlockThreads)
    SoftmaxGradKernel(ClassView<DType> dst, ClassView<DType> src,
                      LabelView<DType> label, bool use_ignore,
                      DType ignore_label) {
  const index_t total = src.outer * src.classes * src.inner;
  for (index_t f = index_t(blockIdx.x) * blockDim.x + threadIdx.x; f < total;
       f += index_t(blockDim.x) * gridDim.x) {
    const index_t x = f % src.inner, nk = f / src.inner;
    const index_t k = nk % src.classes, n = nk / src.classes;
    const DType l = label.dptr[n * label.stride + x];
    const DType p = src.dptr[n * src.outer_stride + k * src.class_stride + x];
    DType& out = dst.dptr[n * dst.outer_stride + k * dst.class_stride + x];
    if (use_ignore && l == ignore_label) {
      out = DType(0);
      continue;
    }
    const index_t c = static_cast<index_t>(l);
    if (c < 0 || c >= src.classes || DType(c) != l) {
      if (k == 0) {
        printf(
            "SoftmaxGrad (gpu): label %g at (%lld, %lld) is not a class "
            "index in [0, %lld)\n",
            static_cast<double>(l), static_cast<long long>(n),
            static_cast<long long>(x), static_cast<long long>(src.classes));
      }
      __assert_fail("the label is a class index", __FILE__, __LINE__, __func__);
    }
    out = k == c ? DType(p - DType(1)) : p;
  }
}

inline index_t Blocks(index_t work, index_t per_block) {
  return std::max<index_t>(
      1,
      std::min<index_t>((work + per_block - 1) / per_block, MaxGridBlocks()));
}

template <typename DType>
inline FlatReader<DType> Reader(const Tensor<gpu, 2, DType>& t) {
  return FlatReader<DType>{t.dptr_, t.size(1), t.stride_};
}
template <typename DType>
inline FlatWriter<DType> Writer(const Tensor<gpu, 2, DType>& t) {
  return FlatWriter<DType>{t.dptr_, t.size(1), t.stride_};
}

// dst[k] <Saver> scale * Reducer over (o, i) of the logical outer x keep x
// inner source read through `src` (element f in row-major order).
template <typename Saver, typename Reducer, typename DType, typename Reader>
void LaunchReduceKeep(Tensor<gpu, 1, DType> dst, const Reader& src,
                      index_t outer, index_t keep, index_t inner, DType scale) {
  if (keep == 0) return;
  cudaStream_t stream = Stream<gpu>::GetStream(dst.stream_);
  if (inner == 1) {
    ReduceKeepColumnsKernel<Saver, Reducer, DType>
        <<<unsigned(Blocks(keep, kWarp)), dim3(kWarp, kBlockThreads / kWarp), 0,
           stream>>>(dst.dptr_, src, outer, keep, scale);
  } else {
    ReduceKeepKernel<Saver, Reducer, DType>
        <<<unsigned(std::min<index_t>(keep, MaxGridBlocks())), kBlockThreads, 0,
           stream>>>(dst.dptr_, src, outer, keep, inner, scale);
  }
  UMBRA_CUDA_CHECK_LAUNCH(
      "ReduceKeepKernel", stream,
      detail::StrCat("reduce_except_dim (", Reducer::kName, ") of ", outer, "x",
                     keep, "x", inner, " into ", dst.shape_));
}

}  // namespace gpu_detail
}  // namespace umbra

#endif  // UMBRA_TENSOR_GPU_REDUCE_KERNELS_CUDA_H_
