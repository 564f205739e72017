// NewNcclAllreduce: the AsyncAllreduce of a data-parallel run on GPUs (one
// rank per GPU): gradient buckets in GPU memory summed with NCCL's
// ncclAllReduce(ncclSum) on the compute stream, so that it runs after the
// kernels that wrote them. Rank 0's ncclUniqueId reaches the other ranks
// through the Communicator (MPI). --config=cuda builds only.
//
// Example:
//
//   std::unique_ptr<AsyncAllreduce> allreduce = NewNcclAllreduce(ranks);
//   allreduce->Start(gradient.dptr_, gradient.shape_.Size());  // device
//   allreduce->WaitAll();
#ifndef UMBRA_TRAIN_DIST_NCCL_ALLREDUCE_H_
#define UMBRA_TRAIN_DIST_NCCL_ALLREDUCE_H_

#include <memory>

#include "train/dist/communicator.h"

namespace umbra {
namespace dist {

// Sets up an NCCL communicator of `ranks` on this process's current GPU
// (collective: every rank calls it). Throws DistError with NCCL's message.
std::unique_ptr<AsyncAllreduce> NewNcclAllreduce(Communicator& ranks);

}  // namespace dist
}  // namespace umbra

#endif  // UMBRA_TRAIN_DIST_NCCL_ALLREDUCE_H_
