#include "train/dist/nccl_allreduce.h"

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

class NcclAllreduce : public AsyncAllreduce {
 public:
  explicit NcclAllreduce(Communicator& ranks) {
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
  ~NcclAllreduce() override {
    // Unchecked: destructors must not throw.
    cudaStreamSynchronize(kComputeStream);
    ncclCommDestroy(comm_);
  }

  void Start(float* values, size_t count) override {
    CheckNccl(ncclAllReduce(values, values, count, ncclFloat, ncclSum, comm_,
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

std::unique_ptr<AsyncAllreduce> NewNcclAllreduce(Communicator& ranks) {
  return std::make_unique<NcclAllreduce>(ranks);
}

}  // namespace dist
}  // namespace umbra
