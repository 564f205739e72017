#include "train/dist/nccl_averager.h"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"

namespace umbra {
namespace dist {
namespace {

void CheckNccl(ncclResult_t result, const char* call) {
  if (result != ncclSuccess) {
    throw DistError(absl::StrCat("dist = mpi on the gpu: ", call, ": ",
                                 ncclGetErrorString(result)));
  }
}

void CheckCuda(cudaError_t result, const char* call) {
  if (result != cudaSuccess) {
    throw DistError(absl::StrCat("dist = mpi on the gpu: ", call, ": ",
                                 cudaGetErrorString(result)));
  }
}

class NcclAverager : public AsyncAverager {
 public:
  explicit NcclAverager(Communicator& ranks) {
    ncclUniqueId id;
    std::string bytes(sizeof(id), '\0');
    if (ranks.rank() == 0) {
      CheckNccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
      std::memcpy(&bytes[0], &id, sizeof(id));
    }
    ranks.Broadcast(&bytes, /*root=*/0);
    std::memcpy(&id, bytes.data(), sizeof(id));
    CheckNccl(ncclCommInitRank(&comm_, ranks.size(), id, ranks.rank()),
              "ncclCommInitRank");
  }
  ~NcclAverager() override {
    // Unchecked: destructors must not throw.
    cudaStreamSynchronize(kComputeStream);
    ncclCommDestroy(comm_);
  }

  void Start(float* values, size_t count) override {
    CheckNccl(ncclAllReduce(values, values, count, ncclFloat, ncclAvg, comm_,
                            kComputeStream),
              "ncclAllReduce");
  }
  // NCCL runs on the device on its own.
  void Progress() override {}
  void WaitAll() override {
    CheckCuda(cudaStreamSynchronize(kComputeStream), "cudaStreamSynchronize");
  }

 private:
  // The tensor engine's default stream, where the layers run.
  static constexpr cudaStream_t kComputeStream = nullptr;
  ncclComm_t comm_ = nullptr;
};

}  // namespace

std::unique_ptr<AsyncAverager> NewNcclAverager(Communicator& ranks) {
  return std::make_unique<NcclAverager>(ranks);
}

}  // namespace dist
}  // namespace umbra
