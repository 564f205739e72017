#!/usr/bin/env bash
# The quickest way to see umbra train: installs what is missing (tools/setup.sh,
# Fashion-MNIST included), then trains the MLP of
# train/configs/fashion_mnist_mlp.conf for 10 rounds on the CPU and ends with
# its test accuracy. Extra arguments are key=value overrides for the config,
# e.g. tools/quickstart.sh num_round=2.
set -euo pipefail

cd "$(dirname "$0")/.."
tools/setup.sh

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# A model_dir of its own per run: a run never overwrites an earlier one's.
bazel run -c opt //train -- train/configs/fashion_mnist_mlp.conf \
  "model_dir=models/quickstart-$(date +%Y%m%d-%H%M%S)" "$@" | tee "$log"

# The last round's line: [N] ... test-error:E
error="$(grep -o 'test-error:[0-9.eE+-]*' "$log" | tail -n 1 | cut -d: -f2)"
if [ -z "$error" ]; then
  echo "quickstart: no test-error in the output" >&2
  exit 1
fi
python3 -c "import sys; print('quickstart: test accuracy %.4f' % (1 - float(sys.argv[1])))" "$error"
