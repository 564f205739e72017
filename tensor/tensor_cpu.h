// The CPU backend of the expression engine: MapExpEngine<cpu>, MapPlan and
// MapPacketPlan. Evaluates `dst <saver> exp` over the 2-D view of dst (rows
// = product of leading dimensions, columns = last dimension), or over its
// flat view when the expression is element-wise on contiguous tensors
// (FlatCheck), with SIMD packets when PacketCheck passes and on all threads
// (threads.h) when the destination has at least GetParallelThreshold()
// elements.
//
// Work is split into contiguous ranges of the row-major element order whose
// boundaries fall on packet boundaries within a row, so every element is
// computed by the same code path whatever the thread count: results are
// bitwise identical to one thread.
//
// Example (what `dst = a + b` ends up calling):
//   umbra::MapPlan<umbra::sv::saveto>(&dst, umbra::expr::MakePlan(a + b));
#ifndef UMBRA_TENSOR_TENSOR_CPU_H_
#define UMBRA_TENSOR_TENSOR_CPU_H_

#include <algorithm>
#include <type_traits>

#include "tensor/base.h"
#include "tensor/expr_engine.h"
#include "tensor/packet.h"
#include "tensor/tensor_core.h"
#include "tensor/threads.h"

namespace umbra {
namespace cpu_detail {

// Calls range(begin, end) over [0, rows * cols) in row-major order, split
// over the thread pool when large. Every boundary (y, x) has x a multiple of
// `align`.
template <typename RangeFn>
inline void ParallelRange(index_t rows, index_t cols, index_t align,
                          const RangeFn& range) {
  const index_t total = rows * cols;
  if (total <= 0) return;
  const int nthreads = GetNumThreads();
  if (nthreads <= 1 || total < GetParallelThreshold()) {
    range(index_t(0), total);
    return;
  }
  // A few tasks per thread, claimed dynamically: a thread that the OS
  // deschedules (on a busy machine) does not hold back the others.
  const index_t kMinTaskElements = index_t{1} << 14;
  const int ntasks = static_cast<int>(
      std::min<index_t>(4 * index_t(nthreads),
                        std::max<index_t>(nthreads, total / kMinTaskElements)));
  auto boundary = [&](int task) -> index_t {
    if (task >= ntasks) return total;
    const index_t b = total / ntasks * task + total % ntasks * task / ntasks;
    const index_t y = b / cols;
    const index_t x = (b % cols) / align * align;
    return y * cols + x;
  };
  ParallelFor(ntasks, [&](int task) {
    const index_t begin = boundary(task), end = boundary(task + 1);
    if (begin < end) range(begin, end);
  });
}

// Visits the row segments of [begin, end): seg(y, x_begin, x_end).
template <typename SegmentFn>
UMBRA_CINLINE void ForEachSegment(index_t cols, index_t begin, index_t end,
                                  const SegmentFn& seg) {
  index_t y = begin / cols;
  index_t x = begin % cols;
  while (begin < end) {
    const index_t x_end = std::min(cols, x + (end - begin));
    seg(y, x, x_end);
    begin += x_end - x;
    ++y;
    x = 0;
  }
}

}  // namespace cpu_detail

// Evaluates a plan into dst with Saver, element by element (any destination
// whose Plan has REval, any expression).
template <typename Saver, typename R, int dim, typename DType, typename E>
inline void MapPlan(TRValue<R, cpu, dim, DType>* dst,
                    const expr::Plan<E, DType>& plan) {
  const Shape<2> shape =
      expr::ShapeCheck<dim, R>::Check(dst->self()).FlatTo2D();
  const auto dplan_init = expr::MakePlan(dst->self());
  const index_t cols = shape[1];
  cpu_detail::ParallelRange(shape[0], cols, 1, [&](index_t begin, index_t end) {
    auto dplan = dplan_init;
    const expr::Plan<E, DType> splan = plan;
    cpu_detail::ForEachSegment(
        cols, begin, end, [&](index_t y, index_t x0, index_t x1) {
          for (index_t x = x0; x < x1; ++x) {
            Saver::template Save<DType>(dplan.REval(y, x), splan.Eval(y, x));
          }
        });
  });
}

// Evaluates a packet plan into a tensor: packets over the aligned part of
// each row, the scalar plan for the last (cols % kSize) elements.
template <typename SV, typename E, int dim, typename DType,
          packet::PacketArch Arch>
inline void MapPacketPlan(Tensor<cpu, dim, DType> dst,
                          const expr::PacketPlan<E, DType, Arch>& plan) {
  const Tensor<cpu, 2, DType> dst2 = dst.FlatTo2D();
  const index_t cols = dst2.size(1);
  const index_t kSize = packet::Packet<DType, Arch>::kSize;
  const index_t xpacket = packet::LowerAlign<DType, Arch>(cols);
  DType* const dptr = dst2.dptr_;
  const index_t stride = dst2.stride_;
  cpu_detail::ParallelRange(
      dst2.size(0), cols, kSize, [&](index_t begin, index_t end) {
        const expr::PacketPlan<E, DType, Arch> p = plan;
        cpu_detail::ForEachSegment(
            cols, begin, end, [&](index_t y, index_t x0, index_t x1) {
              DType* row = dptr + y * stride;
              const index_t xp = std::min(x1, xpacket);
              index_t x = x0;
              for (; x < xp; x += kSize) {
                packet::Saver<SV, DType, Arch>::Save(row + x,
                                                     p.EvalPacket(y, x));
              }
              for (; x < x1; ++x)
                SV::template Save<DType>(row[x], p.Eval(y, x));
            });
      });
}

namespace expr {

template <>
struct MapExpEngine<cpu> {
  template <typename Saver, typename DType, typename R, int dim, typename E>
  inline static void Map(R* dst, const E& exp, Shape<dim> dshape) {
    constexpr packet::PacketArch kArch = UMBRA_DEFAULT_PACKET;
    if constexpr (std::is_same<R, Tensor<cpu, dim, DType>>::value &&
                  PacketCheck<E, kArch>::kPass) {
      if (dim > 1 && dst->CheckContiguous() && FlatCheck<E>::Check(exp)) {
        MapPacketPlan<Saver>(dst->FlatTo1D(), MakePacketPlan<kArch>(exp));
      } else {
        MapPacketPlan<Saver>(*dst, MakePacketPlan<kArch>(exp));
      }
    } else {
      MapPlan<Saver>(dst, MakePlan(exp));
    }
  }
};

}  // namespace expr
}  // namespace umbra

#endif  // UMBRA_TENSOR_TENSOR_CPU_H_
