#!/usr/bin/env bash
# mpirun of the allreduce check on 2 and 3 ranks, over shared memory and over
# TCP only (as between machines). Runs as root and with more ranks than cores,
# as CI does.
set -euo pipefail
check=$1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export TMPDIR=${TEST_TMPDIR:-/tmp}
# Under --config=asan: Open MPI's components leak at MPI_Finalize, from
# libraries it has unloaded by then, which no suppression can name.
export ASAN_OPTIONS=detect_leaks=0
for ranks in 2 3; do
  for btl in self,vader tcp,self; do
    out=$(mpirun -np "$ranks" --oversubscribe --bind-to none --mca btl "$btl" \
      "$check")
    if [ "$out" != "ok $ranks ranks" ]; then
      echo "mpirun -np $ranks --mca btl $btl: $out" >&2
      exit 1
    fi
    echo "np $ranks, btl $btl: $out"
  done
done
