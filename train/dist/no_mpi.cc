// ConnectRanks without MPI (--config=nompi): `dist = mpi` is refused.
#include "train/dist/mpi_communicator.h"

namespace umbra {
namespace dist {
namespace internal {

std::unique_ptr<Communicator> ConnectMpi() {
  throw DistError(
      "dist = mpi: this trainer was built without MPI (--config=nompi); "
      "build it without that flag (tools/setup.sh installs Open MPI), or set "
      "dist = none");
}

}  // namespace internal
}  // namespace dist
}  // namespace umbra
