// Communicator: the processes (ranks) of a data-parallel run as the trainer
// uses them (`dist = mpi`: one process per CPU socket or GPU, on one machine
// or many, started by mpirun). Every rank runs the same config on its share
// of each batch; the ranks stay in step through the collectives below, which
// every rank calls in the same order.
//
// A run without `dist` is one rank (SingleProcess), so the trainer has one
// code path. MPI itself is in mpi_communicator.cc, built only where Open MPI
// is (not under --config=nompi).
//
// Example:
//
//   std::unique_ptr<Communicator> ranks = ConnectRanks(/*mpi=*/true);
//   double totals[2] = {errors, rows};
//   ranks->SumInPlace(totals, 2);                 // over every rank
//   std::string bytes = rank == 0 ? ReadFile(path) : "";
//   ranks->Broadcast(&bytes, /*root=*/0);         // rank 0's, everywhere
//   std::unique_ptr<AsyncAllreduce> sum = ranks->NewAllreduce();
//   sum->Start(gradient, count);  ...  sum->WaitAll();
#ifndef UMBRA_TRAIN_DIST_COMMUNICATOR_H_
#define UMBRA_TRAIN_DIST_COMMUNICATOR_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace umbra {
namespace dist {

// The ranks cannot be set up (no MPI in this build, mpirun without
// `dist = mpi`, ...); the message says what to do.
class DistError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Sums float buffers over the ranks while the caller goes on (the gradient
// buckets of a backward pass). Start the same buffers in the same order on
// every rank; a buffer must not be touched from Start until WaitAll
// returns.
class AsyncAllreduce {
 public:
  virtual ~AsyncAllreduce() = default;
  // Starts replacing values[0, count) by the sum over the ranks of every
  // rank's values[0, count).
  virtual void Start(float* values, size_t count) = 0;
  // Lets the started sums move on without waiting for them (MPI moves
  // non-blocking collectives only inside its calls).
  virtual void Progress() = 0;
  // Returns when every started sum is complete.
  virtual void WaitAll() = 0;
};

class Communicator {
 public:
  virtual ~Communicator() = default;

  // This process's rank in [0, size()), and the number of ranks.
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // This process's place among the ranks on its machine (for GPUs and
  // threads): local_rank() in [0, local_size()).
  virtual int local_rank() const = 0;
  virtual int local_size() const = 0;

  // The collectives: blocking, called by every rank in the same order.
  // Replaces *bytes on every rank by root's.
  virtual void Broadcast(std::string* bytes, int root) = 0;
  // Replaces values[0, count) on every rank by the sum over the ranks.
  virtual void SumInPlace(double* values, size_t count) = 0;
  virtual void SumInPlace(float* values, size_t count) = 0;
  // Every rank's `value`, by rank.
  virtual std::vector<uint64_t> AllGather(uint64_t value) = 0;
  // An AsyncAllreduce of buffers in host memory.
  virtual std::unique_ptr<AsyncAllreduce> NewAllreduce() = 0;

  // Ends every rank of the job with exit status `code`: what a rank that
  // failed calls, so that no other rank waits for it in a collective.
  [[noreturn]] virtual void Abort(int code) = 0;
};

// The single rank of a run without `dist`: the collectives return at once
// with the rank's own values.
class SingleProcess : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int local_rank() const override { return 0; }
  int local_size() const override { return 1; }
  void Broadcast(std::string* bytes, int root) override {}
  void SumInPlace(double* values, size_t count) override {}
  void SumInPlace(float* values, size_t count) override {}
  std::vector<uint64_t> AllGather(uint64_t value) override { return {value}; }
  std::unique_ptr<AsyncAllreduce> NewAllreduce() override;
  [[noreturn]] void Abort(int code) override;
};

// The ranks of this process's job: with `mpi`, MPI's world (MPI_Init here;
// a process started without mpirun is a world of one); without, a
// SingleProcess. Throws DistError when `mpi` is asked of a build without
// MPI, and when mpirun started several ranks but `mpi` is false (each would
// train alone and write the same files).
std::unique_ptr<Communicator> ConnectRanks(bool mpi);

}  // namespace dist
}  // namespace umbra

#endif  // UMBRA_TRAIN_DIST_COMMUNICATOR_H_
