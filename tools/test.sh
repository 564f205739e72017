#!/usr/bin/env bash
# Runs everything CI checks, in order: installs what is missing (tools/setup.sh), runs
# `bazel test //...`, builds the GPU backend with `--config=cuda` (it must compile and
# link with nvcc even where there is no GPU) and the trainer without Open MPI
# (`--config=nompi`), runs the threaded parts' tests under ThreadSanitizer
# (`--config=tsan`) and each fuzzer for 10 s (`--config=fuzz`), then builds and tests
# the example workspace that depends on umbra. Ends with one line:
# `N passed, N failed`.
#
#   tools/test.sh            # as root on a fresh machine, or after tools/setup.sh
set -uo pipefail
cd "$(dirname "$0")/.."

bash tools/setup.sh || { echo "test: setup failed; see above."; echo "0 passed, 1 failed"; exit 1; }
if ! command -v bazel >/dev/null; then
  echo "test: Bazel is not installed. It comes from the Debian package bazel-bootstrap:"
  echo "      run tools/setup.sh as root (or apt-get install bazel-bootstrap)."
  echo "0 passed, 1 failed"
  exit 1
fi

# The tests of the threaded parts (thread pool, background buffer, decode threads).
TSAN_TESTS=(
  //tensor:threads_test
  //train/data:batch_iterator_test
  //train/data:thread_buffer_iterator_test
  //train/image:image_iterators_test
  //train/image:worker_pool_test
)

events=$(mktemp -d)
trap 'rm -rf "$events"' EXIT
started=$SECONDS
step() { echo; echo "==== $* ($((SECONDS - started)) s)"; }

step "bazel test //..."
bazel test //... --keep_going --build_event_json_file="$events/1-cpu-tests.json"

cuda_path=${CUDA_PATH:-/usr/local/cuda}
if [ -x "$cuda_path/bin/nvcc" ]; then
  step "bazel build --config=cuda //..."
  bazel build --config=cuda //... --keep_going \
    --build_event_json_file="$events/2-cuda-build.json"
else
  step "no CUDA toolkit at $cuda_path (set CUDA_PATH): the GPU build is skipped"
fi

step "bazel build --config=nompi //train //tools/..."
# The trainer without Open MPI (README: `--config=nompi`) must still build.
bazel build --config=nompi //train //tools/... --keep_going \
  --build_event_json_file="$events/3-nompi-build.json"

# The sanitizer and fuzzer builds change compiler flags (and for the fuzzers the
# compiler), so each keeps its own Bazel output base and the builds above keep
# their cache. The bases sit beside this workspace's own: an output base serves
# one workspace (its external repositories link into it), so a clone elsewhere
# never reuses one whose links point into a directory that is gone.
output_base="$(bazel info output_base)"
step "bazel test --config=tsan (the threaded parts, ThreadSanitizer)"
bazel --output_base="$output_base-tsan" test --config=tsan \
  "${TSAN_TESTS[@]}" --keep_going --build_event_json_file="$events/4-tsan-tests.json"

step "bazel test --config=fuzz //tools/fuzz:all (each fuzzer 10 s, clang + libFuzzer)"
bazel --output_base="$output_base-fuzz" test --config=fuzz //tools/fuzz:all \
  --keep_going --build_event_json_file="$events/5-fuzz-smoke.json"

step "tools/consumer_example: bazel test //..."
(cd tools/consumer_example &&
  bazel test //... --keep_going --build_event_json_file="$events/6-consumer-tests.json")

step "summary"
python3 tools/test_summary.py "$events"/*.json
