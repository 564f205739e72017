// NewNcclAverager: the AsyncAverager of a data-parallel run on GPUs (one
// rank per GPU): gradient buckets in GPU memory averaged with NCCL's
// ncclAllReduce(ncclAvg) on the compute stream, so that it runs after the
// kernels that wrote them. Rank 0's ncclUniqueId reaches the other ranks
// through the Communicator (MPI). --config=cuda builds only.
//
// Example:
//
//   std::unique_ptr<AsyncAverager> averager = NewNcclAverager(ranks);
//   averager->Start(gradient.dptr_, gradient.shape_.Size());  // device
//   averager->WaitAll();
#ifndef UMBRA_TRAIN_DIST_NCCL_AVERAGER_H_
#define UMBRA_TRAIN_DIST_NCCL_AVERAGER_H_

#include <memory>

#include "train/dist/communicator.h"

namespace umbra {
namespace dist {

// Sets up an NCCL communicator of `ranks` on this process's current GPU
// (collective: every rank calls it). Throws DistError with NCCL's message.
std::unique_ptr<AsyncAverager> NewNcclAverager(Communicator& ranks);

}  // namespace dist
}  // namespace umbra

#endif  // UMBRA_TRAIN_DIST_NCCL_AVERAGER_H_
