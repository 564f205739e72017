// The MPI ranks behind ConnectRanks(true): mpi_communicator.cc in a build
// with MPI, no_mpi.cc under --config=nompi. Internal to train/dist.
#ifndef UMBRA_TRAIN_DIST_MPI_COMMUNICATOR_H_
#define UMBRA_TRAIN_DIST_MPI_COMMUNICATOR_H_

#include <memory>

#include "train/dist/communicator.h"

namespace umbra {
namespace dist {
namespace internal {

// MPI's world after MPI_Init; in a build without MPI, a DistError that says
// how to get one.
std::unique_ptr<Communicator> ConnectMpi();

}  // namespace internal
}  // namespace dist
}  // namespace umbra

#endif  // UMBRA_TRAIN_DIST_MPI_COMMUNICATOR_H_
