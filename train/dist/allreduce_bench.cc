// The gradient allreduce through umbra's path (GradientReducer over MPI's
// non-blocking allreduce, as the trainer runs it) against one bare
// MPI_Allreduce of the same 10M floats, alternating in one run. Rank 0
// prints the medians and their ratio.
//
//   bazel build -c opt //train/dist:allreduce_bench
//   mpirun -np 2 bazel-bin/train/dist/allreduce_bench [repetitions]
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "tensor/tensor.h"
#include "tensor/threads.h"
#include "train/dist/communicator.h"
#include "train/dist/gradient_reducer.h"

namespace umbra {
namespace dist {
namespace {

constexpr index_t kFloats = 10'000'000;
// The gradient as a net of 10 layers of 1M weights each.
constexpr int kLayers = 10;
// The trainer's default dist_bucket_mb.
constexpr size_t kBucketBytes = 4 << 20;

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Seconds `fn` takes, every rank starting together.
template <typename Fn>
double Time(const Fn& fn) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto begin = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
      .count();
}

int Run(int repetitions) {
  std::unique_ptr<Communicator> ranks = ConnectRanks(/*mpi=*/true);
  // As the trainer's nthread = 0 does: the cores shared among the ranks.
  SetNumThreads(
      std::max(1, static_cast<int>(std::thread::hardware_concurrency()) /
                      ranks->local_size()));
  // As the trainer's nthread = 0 does: the cores shared among the ranks.
  SetNumThreads(
      std::max(1, static_cast<int>(std::thread::hardware_concurrency()) /
                      ranks->local_size()));
  TensorContainer<cpu, 1, float> bare(Shape1(kFloats), 1.0f);
  TensorContainer<cpu, 1, float> gradient(Shape1(kFloats), 1.0f);
  std::vector<std::vector<layers::WeightRef<cpu, float>>> by_layer(kLayers);
  const index_t per_layer = kFloats / kLayers;
  for (int layer = 0; layer < kLayers; ++layer) {
    layers::WeightRef<cpu, float> weight;
    weight.grad = gradient.Slice(layer * per_layer, (layer + 1) * per_layer);
    by_layer[layer].push_back(weight);
  }
  std::unique_ptr<AsyncAllreduce> allreduce = ranks->NewAllreduce();
  GradientReducer<cpu> reducer(by_layer, allreduce.get(), kBucketBytes,
                               /*overlap=*/true);
  std::vector<double> bare_seconds, umbra_seconds;
  for (int r = 0; r < repetitions + 1; ++r) {
    const double b = Time([&] {
      MPI_Allreduce(MPI_IN_PLACE, bare.dptr_, static_cast<int>(kFloats),
                    MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    });
    const double u = Time([&] {
      for (int layer = kLayers; layer-- > 0;) reducer.LayerDone(layer);
      reducer.Finish();
    });
    if (r == 0) continue;  // warm-up
    bare_seconds.push_back(b);
    umbra_seconds.push_back(u);
  }
  if (ranks->rank() == 0) {
    const double b = Median(bare_seconds), u = Median(umbra_seconds);
    std::printf(
        "%d ranks, %lld floats, %d repetitions (medians)\n"
        "bare MPI_Allreduce:         %8.2f ms  %6.2f GB/s\n"
        "umbra GradientReducer:      %8.2f ms  %6.2f GB/s\n"
        "umbra / bare throughput:    %8.3f\n",
        ranks->size(), static_cast<long long>(kFloats), repetitions, b * 1e3,
        kFloats * 4 / b / 1e9, u * 1e3, kFloats * 4 / u / 1e9, b / u);
  }
  return 0;
}

}  // namespace
}  // namespace dist
}  // namespace umbra

int main(int argc, char** argv) {
  return umbra::dist::Run(argc > 1 ? std::atoi(argv[1]) : 21);
}
