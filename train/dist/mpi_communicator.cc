// The ranks of an Open MPI job (ConnectRanks(true)).
#include "train/dist/mpi_communicator.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <exception>
#include <vector>

#include "absl/strings/str_cat.h"

namespace umbra {
namespace dist {
namespace {

// MPI counts are ints: longer buffers go in pieces of this many elements.
constexpr size_t kMaxCount = size_t{1} << 30;

// Calls `fn(offset, count)` for consecutive pieces of [0, total).
template <typename Fn>
void InPieces(size_t total, const Fn& fn) {
  for (size_t offset = 0; offset < total; offset += kMaxCount) {
    fn(offset, static_cast<int>(std::min(kMaxCount, total - offset)));
  }
}

// Non-blocking sums of host buffers.
class MpiAllreduce : public AsyncAllreduce {
 public:
  explicit MpiAllreduce(MPI_Comm comm) : comm_(comm) {}
  ~MpiAllreduce() override {
    // A pending request must complete before its buffer goes; but not while
    // an error unwinds the trainer: the job is about to be aborted, and the
    // other ranks may never complete it (Open MPI moves requests only
    // inside MPI calls, so nothing writes to the buffers meanwhile).
    if (!requests_.empty() && std::uncaught_exceptions() == 0) {
      MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(),
                  MPI_STATUSES_IGNORE);
    }
  }

  void Start(float* values, size_t count) override {
    InPieces(count, [&](size_t offset, int piece) {
      requests_.emplace_back();
      MPI_Iallreduce(MPI_IN_PLACE, values + offset, piece, MPI_FLOAT, MPI_SUM,
                     comm_, &requests_.back());
    });
  }
  void Progress() override {
    if (requests_.empty()) return;
    int done = 0;
    MPI_Testall(static_cast<int>(requests_.size()), requests_.data(), &done,
                MPI_STATUSES_IGNORE);
  }
  void WaitAll() override {
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(),
                MPI_STATUSES_IGNORE);
    requests_.clear();
  }

 private:
  MPI_Comm comm_;
  std::vector<MPI_Request> requests_;
};

class MpiCommunicator : public Communicator {
 public:
  MpiCommunicator() {
    // Open MPI's default non-blocking allreduce is twice as slow as the
    // blocking one; its ring algorithm is the faster (measured in
    // ../shared/notes/next-capabilities.md). A user's setting wins.
    setenv("OMPI_MCA_coll_libnbc_iallreduce_algorithm", "1", /*overwrite=*/0);
    int provided = 0;
    // Only the trainer's main thread calls MPI.
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_,
                        MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &local_rank_);
    MPI_Comm_size(local, &local_size_);
    MPI_Comm_free(&local);
  }
  ~MpiCommunicator() override { MPI_Finalize(); }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }
  int local_size() const override { return local_size_; }

  void Broadcast(std::string* bytes, int root) override {
    uint64_t size = bytes->size();
    MPI_Bcast(&size, 1, MPI_UINT64_T, root, MPI_COMM_WORLD);
    bytes->resize(size);
    InPieces(size, [&](size_t offset, int piece) {
      MPI_Bcast(&(*bytes)[offset], piece, MPI_BYTE, root, MPI_COMM_WORLD);
    });
  }
  void SumInPlace(double* values, size_t count) override {
    InPieces(count, [&](size_t offset, int piece) {
      MPI_Allreduce(MPI_IN_PLACE, values + offset, piece, MPI_DOUBLE, MPI_SUM,
                    MPI_COMM_WORLD);
    });
  }
  void SumInPlace(float* values, size_t count) override {
    InPieces(count, [&](size_t offset, int piece) {
      MPI_Allreduce(MPI_IN_PLACE, values + offset, piece, MPI_FLOAT, MPI_SUM,
                    MPI_COMM_WORLD);
    });
  }
  std::vector<uint64_t> AllGather(uint64_t value) override {
    std::vector<uint64_t> all(size_);
    MPI_Allgather(&value, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T,
                  MPI_COMM_WORLD);
    return all;
  }
  std::unique_ptr<AsyncAllreduce> NewAllreduce() override {
    return std::make_unique<MpiAllreduce>(MPI_COMM_WORLD);
  }
  [[noreturn]] void Abort(int code) override {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::exit(code);  // MPI_Abort does not return; the compiler cannot know
  }

 private:
  int rank_ = 0;
  int size_ = 1;
  int local_rank_ = 0;
  int local_size_ = 1;
};

}  // namespace

namespace internal {

std::unique_ptr<Communicator> ConnectMpi() {
  return std::make_unique<MpiCommunicator>();
}

}  // namespace internal
}  // namespace dist
}  // namespace umbra
