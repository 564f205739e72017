// Every rank contributes value[i] = rank + i for i < count; the sum on every
// rank must be size * i + size * (size - 1) / 2. Prints "ok N ranks" and
// exits 0, or names the first wrong element and exits 1.
#include <mpi.h>

#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int count = 1 << 20;
  std::vector<double> values(count);
  for (int i = 0; i < count; ++i) values[i] = rank + i;
  MPI_Allreduce(MPI_IN_PLACE, values.data(), count, MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);
  int status = 0;
  for (int i = 0; i < count; ++i) {
    const double want = double(size) * i + size * (size - 1) / 2.0;
    if (values[i] != want) {
      std::printf("rank %d: element %d is %g, want %g\n", rank, i, values[i],
                  want);
      status = 1;
      break;
    }
  }
  if (status == 0 && rank == 0) std::printf("ok %d ranks\n", size);
  MPI_Finalize();
  return status;
}
