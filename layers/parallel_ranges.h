// ParallelRanges: a loop over items [0, count) cut into contiguous ranges,
// run on the thread pool when the work is large enough to pay for it;
// ParallelForEach, the same item by item.
//
// Example:
//   ParallelRanges(rows, rows * width, GetParallelThreshold(),
//                  [&](index_t begin, index_t end) { ... rows begin..end });
//   ParallelForEach(rows, rows * width, GetParallelThreshold(),
//                   [&](index_t row) { ... });
#ifndef UMBRA_LAYERS_PARALLEL_RANGES_H_
#define UMBRA_LAYERS_PARALLEL_RANGES_H_

#include <algorithm>

#include "tensor/tensor.h"
#include "tensor/threads.h"

namespace umbra {
namespace layers {

// Calls body(begin, end) on ranges covering [0, count) that never share an
// item: on the calling thread, or, when there are several threads and items
// and `work` (elements touched in all) reaches `min_parallel_work`, as up to
// four ranges per thread on the pool.
template <typename Body>
void ParallelRanges(index_t count, index_t work, index_t min_parallel_work,
                    const Body& body) {
  const index_t threads = GetNumThreads();
  index_t tasks = 1;
  if (threads > 1 && count > 1 && work >= min_parallel_work) {
    tasks = std::min<index_t>(count, 4 * threads);
  }
  if (tasks == 1) {
    body(index_t(0), count);
    return;
  }
  ParallelFor(int(tasks),
              [&](int t) { body(count * t / tasks, count * (t + 1) / tasks); });
}

// ParallelRanges calling body(i) for each item i of each range.
template <typename Body>
void ParallelForEach(index_t count, index_t work, index_t min_parallel_work,
                     const Body& body) {
  ParallelRanges(count, work, min_parallel_work,
                 [&](index_t begin, index_t end) {
                   for (index_t i = begin; i < end; ++i) body(i);
                 });
}

}  // namespace layers
}  // namespace umbra

#endif  // UMBRA_LAYERS_PARALLEL_RANGES_H_
