// The CPU thread pool that evaluates large expressions on all cores.
//
// Expressions with at least GetParallelThreshold() elements are split into
// a few contiguous ranges per thread, which the threads claim as they go;
// the split never changes which code path (packet or scalar) computes an
// element, so results are bitwise identical for any thread count.
//
// Example:
//   umbra::SetNumThreads(1);   // serial evaluation
//   umbra::SetNumThreads(0);   // back to one thread per hardware core
//   umbra::ParallelFor(8, [&](int task) { Work(task); });
#ifndef UMBRA_TENSOR_THREADS_H_
#define UMBRA_TENSOR_THREADS_H_

#include <functional>

#include "tensor/base.h"

namespace umbra {

// Sets the number of threads CPU expressions may use; n <= 0 means one per
// hardware core (the default). Not to be called while expressions run.
void SetNumThreads(int n);
// The number of threads CPU expressions may use (>= 1).
int GetNumThreads();
// Expressions smaller than this many elements run on the calling thread
// (default 1 << 16).
void SetParallelThreshold(index_t num_elements);
index_t GetParallelThreshold();

// Runs task(i) for every i in [0, num_tasks) on the pool and returns when all
// are done. Each thread starts with a contiguous range of the tasks of its
// own (the caller with the first) and then takes what is left of the
// others', so that a thread that keeps up runs the same tasks in every job
// of the same size. Runs serially on the caller when the pool has one thread,
// when called from inside a task, or while another thread is using the pool. An
// exception thrown by a task is rethrown here (the first one).
void ParallelFor(int num_tasks, const std::function<void(int)>& task);

}  // namespace umbra

#endif  // UMBRA_TENSOR_THREADS_H_
