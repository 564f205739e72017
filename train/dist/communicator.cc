#include "train/dist/communicator.h"

#include <cstdlib>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "train/dist/mpi_communicator.h"

namespace umbra {
namespace dist {
namespace {

// Summing over one rank leaves every value as it is.
class SingleProcessAllreduce : public AsyncAllreduce {
 public:
  void Start(float* values, size_t count) override {}
  void Progress() override {}
  void WaitAll() override {}
};

// The number of processes mpirun started for this job (Open MPI's
// variable), 1 without mpirun.
int LaunchedRanks() {
  int ranks = 1;
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (size == nullptr || !absl::SimpleAtoi(size, &ranks)) return 1;
  return ranks;
}

}  // namespace

std::unique_ptr<AsyncAllreduce> SingleProcess::NewAllreduce() {
  return std::make_unique<SingleProcessAllreduce>();
}

void SingleProcess::Abort(int code) { std::exit(code); }

std::unique_ptr<Communicator> ConnectRanks(bool mpi) {
  if (!mpi) {
    const int launched = LaunchedRanks();
    if (launched > 1) {
      throw DistError(absl::StrCat(
          "mpirun started ", launched,
          " processes but dist = none: each would train alone and write "
          "the same files; set dist = mpi to train as one job"));
    }
    return std::make_unique<SingleProcess>();
  }
  return internal::ConnectMpi();
}

}  // namespace dist
}  // namespace umbra
